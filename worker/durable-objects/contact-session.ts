/**
 * ContactSession: one per company + channel identity of a contact. Serialises the contact's inbound
 * events (so two webhooks for one customer never race), upserts the contact, and decides where each
 * message goes (DESIGN.md "The main job", step 3): a flow run waiting for a reply, a keyword
 * trigger, an open or pending ticket, the connection's default flow, or a new pending ticket. Flows
 * and keyword triggers arrive with the flow-engine issue; until then a message goes to the contact's
 * open or pending ticket on that connection, or opens a new pending ticket (with the connection's
 * greeting message).
 *
 * Storage: none yet (timers for flow delays and waits arrive with the flow engine); the object's
 * value today is its serialisation.
 */
import { DurableObject } from "cloudflare:workers";
import { and, desc, eq, inArray } from "drizzle-orm";
import { connections, contactIdentities, contacts, messages, tickets, type ConnectionRow, type ContactRow, type TicketRow } from "../../schema";
import type { AppEnv } from "../env";
import { adapterFor } from "../channels";
import type { InboundMessage, InboundPresence, InboundRevoke } from "../channels/types";
import { getDb, isUniqueViolation, type Db } from "../lib/db";
import { adjustContactCount } from "../lib/contacts";
import { newId } from "../lib/ids";
import { MAX_MEDIA_BYTES, storeMedia } from "../lib/media";
import { roomOf } from "../lib/realtime";
import { sendToTicket } from "../pipeline/outbound";

export type IngestResult = { status: "stored" | "duplicate" | "ignored"; messageId?: string; ticketId?: string };

export class ContactSession extends DurableObject<AppEnv> {
  /**
   * The tail of the events being handled. Input gates only hold other calls back during storage
   * operations, not while D1 answers, so without this chain concurrent webhooks of one contact
   * interleave (two "new" tickets, two greetings).
   */
  private queue: Promise<unknown> = Promise.resolve();

  /**
   * Handles one inbound event for this contact on `connectionId`, after every event handed in
   * before it. Idempotent: the same provider message id stores nothing the second time.
   */
  async ingest(connectionId: string, event: InboundMessage | InboundRevoke | InboundPresence): Promise<IngestResult> {
    const run = this.queue.then(() => this.handle(connectionId, event));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async handle(connectionId: string, event: InboundMessage | InboundRevoke | InboundPresence): Promise<IngestResult> {
    const db = getDb(this.env.DB);
    const connection = await db.query.connections.findFirst({ where: eq(connections.id, connectionId) });
    if (!connection) return { status: "ignored" };
    if (event.kind === "presence") return this.presence(db, connection, event);
    if (event.kind === "revoke") return this.revoke(db, connection, event);

    const seen = await db.query.messages.findFirst({
      where: and(eq(messages.connectionId, connection.id), eq(messages.externalId, event.externalId)),
      columns: { id: true, ticketId: true },
    });
    if (seen) return { status: "duplicate", messageId: seen.id, ticketId: seen.ticketId };

    const contact = await this.upsertContact(db, connection, event);
    const { ticket, created } = await this.ticketFor(db, connection, contact, event);
    const media = await this.storeInboundMedia(connection, event);
    const quoted = event.quotedExternalId
      ? await db.query.messages.findFirst({
          where: and(eq(messages.connectionId, connection.id), eq(messages.externalId, event.quotedExternalId)),
          columns: { id: true },
        })
      : undefined;

    const room = roomOf(this.env, ticket.id);
    const result = await room.append({
      companyId: connection.companyId,
      ticketId: ticket.id,
      contactId: contact.id,
      connectionId: connection.id,
      externalId: event.externalId,
      direction: "in",
      type: event.type,
      body: event.body,
      payload: { ...(event.payload ?? {}), ...(media.error ? { mediaError: media.error } : {}) },
      mediaKey: media.key,
      mediaMime: media.key ? media.mime : null,
      mediaName: event.media?.fileName ?? null,
      mediaSize: media.size,
      quotedId: quoted?.id ?? null,
      status: "received",
      errorCode: null,
      errorMessage: null,
      sentAt: event.timestamp,
      senderMemberId: null,
      senderName: null,
      idempotencyKey: null,
      deletedAt: null,
    });
    await db.update(contacts).set({ lastMessageAt: event.timestamp, updatedAt: Date.now() }).where(eq(contacts.id, contact.id));
    if (created) {
      await room.ticketChanged(connection.companyId, ticket.id);
      if (connection.greetingMessage.trim()) {
        await sendToTicket(this.env, { ticket, connection, recipientExternalId: event.from, recipientPhone: contact.phone }, { type: "text", body: connection.greetingMessage }, null);
      }
    }
    return { status: result.duplicate ? "duplicate" : "stored", messageId: result.message.id, ticketId: ticket.id };
  }

  private async presence(db: Db, connection: ConnectionRow, event: InboundPresence): Promise<IngestResult> {
    const identity = await db.query.contactIdentities.findFirst({
      where: and(eq(contactIdentities.companyId, connection.companyId), eq(contactIdentities.channel, connection.channel), eq(contactIdentities.externalId, event.from)),
    });
    if (!identity) return { status: "ignored" };
    const ticket = await openTicketOf(db, connection, identity.contactId);
    if (!ticket) return { status: "ignored" };
    await roomOf(this.env, ticket.id).contactPresence(event.state);
    return { status: "stored", ticketId: ticket.id };
  }

  private async revoke(db: Db, connection: ConnectionRow, event: InboundRevoke): Promise<IngestResult> {
    const [row] = await db
      .update(messages)
      .set({ deletedAt: event.timestamp, updatedAt: Date.now() })
      .where(and(eq(messages.connectionId, connection.id), eq(messages.externalId, event.externalId), eq(messages.direction, "in")))
      .returning({ id: messages.id, ticketId: messages.ticketId });
    if (!row) return { status: "ignored" };
    await roomOf(this.env, row.ticketId).refresh(connection.companyId, row.ticketId, row.id);
    return { status: "stored", messageId: row.id, ticketId: row.ticketId };
  }

  /**
   * Finds the contact by its channel identity, else by phone (adding the identity), else creates
   * both. A profile name replaces a name that was only the phone number.
   */
  private async upsertContact(db: Db, connection: ConnectionRow, event: InboundMessage): Promise<ContactRow> {
    const companyId = connection.companyId;
    const at = Date.now();
    const identity = await db.query.contactIdentities.findFirst({
      where: and(eq(contactIdentities.companyId, companyId), eq(contactIdentities.channel, connection.channel), eq(contactIdentities.externalId, event.from)),
    });
    let contact: ContactRow | undefined = identity
      ? await db.query.contacts.findFirst({ where: and(eq(contacts.id, identity.contactId), eq(contacts.companyId, companyId)) })
      : undefined;
    if (!contact && event.phone) {
      contact = await db.query.contacts.findFirst({ where: and(eq(contacts.companyId, companyId), eq(contacts.phone, event.phone)) });
    }
    if (!contact) {
      const row: ContactRow = {
        id: newId(),
        companyId,
        name: event.profileName?.trim() || event.phone || event.from,
        phone: event.phone ?? null,
        email: null,
        document: null,
        imageKey: null,
        lastMessageAt: event.timestamp,
        crmColumnId: null,
        crmPosition: null,
        createdAt: at,
        updatedAt: at,
      };
      try {
        // The company's contact count moves in the same transaction (issue 4: a maintained count).
        await db.batch([db.insert(contacts).values(row), adjustContactCount(db, companyId, 1)]);
        contact = row;
      } catch (error) {
        if (!isUniqueViolation(error) || !event.phone) throw error;
        contact = await db.query.contacts.findFirst({ where: and(eq(contacts.companyId, companyId), eq(contacts.phone, event.phone)) });
        if (!contact) throw error;
      }
    } else if (event.profileName?.trim() && (contact.name === contact.phone || contact.name === event.from)) {
      await db.update(contacts).set({ name: event.profileName.trim(), updatedAt: at }).where(eq(contacts.id, contact.id));
      contact = { ...contact, name: event.profileName.trim() };
    }
    if (!identity) {
      await db
        .insert(contactIdentities)
        .values({ id: newId(), companyId, contactId: contact.id, channel: connection.channel, externalId: event.from, createdAt: at })
        .onConflictDoNothing();
    }
    return contact;
  }

  /** The contact's open or pending ticket on this connection, or a new pending one. */
  private async ticketFor(db: Db, connection: ConnectionRow, contact: ContactRow, event: InboundMessage): Promise<{ ticket: TicketRow; created: boolean }> {
    const existing = await openTicketOf(db, connection, contact.id);
    if (existing) return { ticket: existing, created: false };
    const at = Date.now();
    const ticket: TicketRow = {
      id: newId(),
      companyId: connection.companyId,
      contactId: contact.id,
      connectionId: connection.id,
      status: "pending",
      assignedMemberId: null,
      servedByMemberId: null,
      isGroup: event.isGroup ?? false,
      unreadCount: 0,
      lastMessageAt: event.timestamp,
      lastMessagePreview: "",
      closedAt: null,
      createdAt: at,
      updatedAt: at,
    };
    await db.insert(tickets).values(ticket);
    return { ticket, created: true };
  }

  private async storeInboundMedia(connection: ConnectionRow, event: InboundMessage): Promise<{ key: string | null; mime: string; size: number | null; error?: string }> {
    const media = event.media;
    if (!media) return { key: null, mime: "", size: null };
    try {
      if (media.kind === "inline") {
        const bin = atob(media.dataBase64);
        if (bin.length > MAX_MEDIA_BYTES) return { key: null, mime: media.mime, size: null, error: "too_large" };
        const bytes = new Uint8Array(bin.length);
        for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
        const stored = await storeMedia(this.env.FILES, connection.companyId, bytes, media.mime, media.fileName);
        return { key: stored.key, mime: media.mime, size: stored.size };
      }
      const fetched = await adapterFor(this.env, connection).fetchMedia(connection, media);
      if (fetched.bytes.byteLength > MAX_MEDIA_BYTES) return { key: null, mime: fetched.mime, size: null, error: "too_large" };
      const stored = await storeMedia(this.env.FILES, connection.companyId, fetched.bytes, fetched.mime, media.fileName);
      return { key: stored.key, mime: fetched.mime, size: stored.size };
    } catch (error) {
      // The message is kept (never lost) without its media; the reason is shown instead.
      console.error("[contact-session] media download failed", error);
      return { key: null, mime: media.mime, size: null, error: "download_failed" };
    }
  }
}

/** The newest open or pending ticket of a contact on a connection. */
export async function openTicketOf(db: Db, connection: ConnectionRow, contactId: string): Promise<TicketRow | undefined> {
  return db.query.tickets.findFirst({
    where: and(
      eq(tickets.companyId, connection.companyId),
      eq(tickets.contactId, contactId),
      eq(tickets.connectionId, connection.id),
      inArray(tickets.status, ["pending", "open"]),
    ),
    orderBy: desc(tickets.createdAt),
  });
}
