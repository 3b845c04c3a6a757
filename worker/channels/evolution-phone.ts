/**
 * Messages the company sent from the phone itself (issue 15): a WhatsApp Web session sees what the
 * business number sends from the WhatsApp app (`messages.upsert` with `key.fromMe`). They are the
 * company's messages, not the customer's: stored in the contact's open ticket (a new pending one the
 * company opened when there is none) as outbound, `sent`, shown like a member's message. Sends we
 * made through Evolution come back the same way; their provider id is already stored, so they are
 * skipped (and the unique (connection, external id) index stores each message once); one whose send
 * has not answered yet is recognised by its text among our unanswered sends of the last minute.
 */
import { and, eq, gt, isNull } from "drizzle-orm";
import { contactIdentities, contacts, messages, type ConnectionRow, type ContactRow } from "../../schema";
import type { AppEnv } from "../env";
import { companyTicketFor } from "../lib/company-tickets";
import { adjustContactCount, runBatch } from "../lib/contacts";
import { contactsAddedStatement } from "../lib/dashboard";
import { getDb, isUniqueViolation, type Db } from "../lib/db";
import { emitEvent } from "../lib/event-subscriptions";
import { newId } from "../lib/ids";
import { MAX_MEDIA_BYTES, storeMedia } from "../lib/media";
import { roomOf } from "../lib/realtime";
import type { PhoneSend } from "./evolution-parse";
import type { InboundMedia } from "./types";

/** How recent an unanswered send of ours must be to count as the one a fromMe webhook reports (ms). */
const IN_FLIGHT_MS = 60_000;

/** The contact the phone wrote to: by its identity on the channel, else by phone (adding the identity), else a new one. */
async function contactFor(env: AppEnv, db: Db, connection: ConnectionRow, send: PhoneSend): Promise<ContactRow> {
  const companyId = connection.companyId;
  const identity = await db.query.contactIdentities.findFirst({
    where: and(eq(contactIdentities.companyId, companyId), eq(contactIdentities.channel, connection.channel), eq(contactIdentities.externalId, send.to)),
  });
  let contact = identity ? await db.query.contacts.findFirst({ where: and(eq(contacts.id, identity.contactId), eq(contacts.companyId, companyId)) }) : undefined;
  if (!contact && send.phone) contact = await db.query.contacts.findFirst({ where: and(eq(contacts.companyId, companyId), eq(contacts.phone, send.phone)) });
  const at = Date.now();
  if (!contact) {
    const row: ContactRow = {
      id: newId(),
      companyId,
      name: send.phone ?? send.to,
      phone: send.phone ?? null,
      email: null,
      document: null,
      imageKey: null,
      lastMessageAt: null,
      crmColumnId: null,
      crmPosition: null,
      referral: null,
      optedOutAt: null,
      createdAt: at,
      updatedAt: at,
    };
    try {
      await runBatch(db, [db.insert(contacts).values(row), adjustContactCount(db, companyId, 1), await contactsAddedStatement(db, companyId, 1, at)]);
      contact = row;
      await emitEvent(env, companyId, "contact.created", { contact: { id: row.id, name: row.name, phone: row.phone, email: row.email } });
    } catch (error) {
      // The customer's own message created it at the same moment.
      if (!isUniqueViolation(error) || !send.phone) throw error;
      contact = await db.query.contacts.findFirst({ where: and(eq(contacts.companyId, companyId), eq(contacts.phone, send.phone)) });
      if (!contact) throw error;
    }
  }
  if (!identity) {
    await db.insert(contactIdentities).values({ id: newId(), companyId, contactId: contact.id, channel: connection.channel, externalId: send.to, createdAt: at }).onConflictDoNothing();
  }
  return contact;
}

/**
 * Stores each phone send in its contact's ticket (see the file header); a send already stored (ours,
 * or the same webhook again) stores nothing. Media is fetched through `fetchMedia` and kept in R2;
 * a download failure keeps the message with `payload.mediaError`.
 */
export async function recordPhoneSends(
  env: AppEnv,
  connection: ConnectionRow,
  sends: PhoneSend[],
  fetchMedia: (media: Extract<InboundMedia, { kind: "provider" }>) => Promise<{ bytes: ArrayBuffer; mime: string }>,
): Promise<void> {
  const db = getDb(env.DB);
  for (const send of sends) {
    const { message } = send;
    const known = await db.query.messages.findFirst({
      where: and(eq(messages.connectionId, connection.id), eq(messages.externalId, message.externalId)),
      columns: { id: true },
    });
    if (known) continue;
    // One of our own sends whose answer (with this id) is not stored yet: the send stores it.
    const inFlight = await db.query.messages.findFirst({
      where: and(
        eq(messages.connectionId, connection.id),
        eq(messages.direction, "out"),
        isNull(messages.externalId),
        eq(messages.type, message.type),
        eq(messages.body, message.body),
        gt(messages.createdAt, Date.now() - IN_FLIGHT_MS),
      ),
      columns: { id: true },
    });
    if (inFlight) continue;
    const contact = await contactFor(env, db, connection, send);
    const ticket = await companyTicketFor(env, db, connection, contact.id);
    let media: { key: string; mime: string; size: number } | null = null;
    let mediaError: string | null = null;
    if (message.media) {
      try {
        const fetched =
          message.media.kind === "inline"
            ? { bytes: Uint8Array.from(atob(message.media.dataBase64), (c) => c.charCodeAt(0)), mime: message.media.mime }
            : await fetchMedia(message.media);
        if (fetched.bytes.byteLength > MAX_MEDIA_BYTES) mediaError = "too_large";
        else media = await storeMedia(env.FILES, connection.companyId, fetched.bytes, fetched.mime, message.media.fileName);
      } catch (error) {
        console.error("[evolution] media of a phone send could not be fetched", error);
        mediaError = "download_failed";
      }
    }
    const quoted = message.quotedExternalId
      ? await db.query.messages.findFirst({ where: and(eq(messages.connectionId, connection.id), eq(messages.externalId, message.quotedExternalId)), columns: { id: true } })
      : undefined;
    await roomOf(env, ticket.id).append({
      companyId: connection.companyId,
      ticketId: ticket.id,
      contactId: contact.id,
      connectionId: connection.id,
      externalId: message.externalId,
      direction: "out",
      type: message.type,
      body: message.body,
      payload: { ...(message.payload ?? {}), sentFrom: "phone", ...(mediaError ? { mediaError } : {}) },
      mediaKey: media?.key ?? null,
      mediaMime: media?.mime ?? null,
      mediaName: message.media?.fileName ?? null,
      mediaSize: media?.size ?? null,
      quotedId: quoted?.id ?? null,
      status: "sent",
      errorCode: null,
      errorMessage: null,
      errorDetails: null,
      sentAt: Math.min(message.timestamp, Date.now()),
      senderMemberId: null,
      // Shown as the sender: the connection (the phone of that number), not a member.
      senderName: connection.name,
      apiKeyId: null,
      idempotencyKey: null,
      deletedAt: null,
      editedAt: null,
      forwarded: false,
      reactions: null,
    });
  }
}
