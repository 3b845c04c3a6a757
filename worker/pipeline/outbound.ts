/**
 * The company's messages to a customer (DESIGN.md "The main job", step 5): from a member, a flow
 * or the connection's greeting and farewell. Stored through the ticket's TicketRoom (order,
 * fan-out), then sent by the connection's channel adapter in order.
 */
import type { ConnectionRow, MessageRow, MessageType, TicketRow } from "../../schema";
import type { Json } from "../../schema/columns";
import type { AppEnv } from "../env";
import type { OutboundMessage } from "../channels/types";
import type { AppendResult, StoredPublish } from "../durable-objects/ticket-room";
import type { FlowStepStats } from "../lib/flows";
import { signedMediaUrl } from "../lib/media";
import { roomOf } from "../lib/realtime";
import type { FirstSender } from "./first-reply";

/**
 * What is sent: text, media already stored in R2, or (`prepared`, flows) a channel message built by
 * the caller together with how it is stored (type, body, payload, media key when it is in R2).
 */
export type OutboundContent =
  | {
      type: "prepared";
      stored: { type: MessageType; body: string; payload: { [key: string]: Json } | null; media: { key: string; mime: string; name: string | null; size: number } | null };
      outbound: OutboundMessage;
    }
  | { type: "text"; body: string; quotedId?: string | null; quotedExternalId?: string | null }
  | {
      type: "image" | "audio" | "video" | "document" | "ptv";
      body: string;
      media: { key: string; mime: string; name: string | null; size: number };
      quotedId?: string | null;
      quotedExternalId?: string | null;
    };

export type OutboundTarget = {
  ticket: Pick<TicketRow, "id" | "companyId" | "contactId">;
  connection: ConnectionRow;
  recipientExternalId: string;
  recipientPhone: string | null;
};

/**
 * Who sends: a member (name shown to the customer when the company's showAttendantName is on), a
 * company API key through the public API (recorded in messages.api_key_id, no sender member; its
 * name is kept as the sender name and never shown to the customer), or null (flows, greetings).
 */
export type Sender = { memberId: string; name: string; showName: boolean } | { apiKeyId: string; name: string } | null;

/**
 * Stores and sends one message. `idempotencyKey` (client-generated) makes a retried request answer
 * the first message instead of sending twice. Answers the stored message. `stats`: a flow step's
 * stats, counted in the insert's own D1 batch; `publishFirst`: a message of the ticket stored
 * but not yet published, which the room publishes first (issue 16; see TicketRoom.sendOutbound).
 * `firstSend`: with `publishFirst`, stores and sends the message instead of the room (a new
 * contact's first reply, by its ContactSession: worker/pipeline/first-reply.ts; same answer).
 */
export async function sendToTicket(
  env: AppEnv,
  target: OutboundTarget,
  content: OutboundContent,
  sender: Sender,
  idempotencyKey: string | null = null,
  stats?: FlowStepStats,
  publishFirst?: StoredPublish,
  firstSend?: FirstSender,
): Promise<AppendResult> {
  const at = Date.now();
  if (content.type === "prepared") {
    const { stored } = content;
    return store(env, target, content.outbound, sender, idempotencyKey, at, stats, publishFirst, firstSend, {
      type: stored.type,
      body: stored.body,
      payload: stored.payload,
      mediaKey: stored.media?.key ?? null,
      mediaMime: stored.media?.mime ?? null,
      mediaName: stored.media?.name ?? null,
      mediaSize: stored.media?.size ?? null,
      quotedId: null,
    });
  }
  const shownBody = sender && "memberId" in sender && sender.showName && content.body.trim() ? `*${sender.name}:*\n${content.body}` : content.body;
  const quotedExternalId = content.quotedExternalId ?? undefined;
  let outbound: OutboundMessage;
  if (content.type === "text") {
    outbound = { type: "text", body: shownBody, quotedExternalId };
  } else {
    const url = new URL(await signedMediaUrl(env, content.media.key), env.PUBLIC_URL).toString();
    outbound = {
      type: content.type,
      media: { url, mime: content.media.mime, fileName: content.media.name ?? undefined },
      caption: shownBody || undefined,
      quotedExternalId,
    };
  }
  return store(env, target, outbound, sender, idempotencyKey, at, stats, publishFirst, firstSend, {
    type: content.type,
    body: content.body,
    payload: null,
    mediaKey: content.type === "text" ? null : content.media.key,
    mediaMime: content.type === "text" ? null : content.media.mime,
    mediaName: content.type === "text" ? null : content.media.name,
    mediaSize: content.type === "text" ? null : content.media.size,
    quotedId: content.quotedId ?? null,
  });
}

type StoredContent = Pick<MessageRow, "type" | "body" | "payload" | "mediaKey" | "mediaMime" | "mediaName" | "mediaSize" | "quotedId">;

/** Stores the outbound row through the ticket's room, which sends `outbound` in order (or `firstSend`, see `sendToTicket`). */
async function store(
  env: AppEnv,
  target: OutboundTarget,
  outbound: OutboundMessage,
  sender: Sender,
  idempotencyKey: string | null,
  at: number,
  stats: FlowStepStats | undefined,
  publishFirst: StoredPublish | undefined,
  firstSend: FirstSender | undefined,
  content: StoredContent,
): Promise<AppendResult> {
  const row: Omit<MessageRow, "id" | "seq" | "createdAt" | "updatedAt"> = {
    companyId: target.ticket.companyId,
    ticketId: target.ticket.id,
    contactId: target.ticket.contactId,
    connectionId: target.connection.id,
    externalId: null,
    direction: "out",
    ...content,
    status: "pending",
    editedAt: null,
    forwarded: false,
    reactions: null,
    errorDetails: null,
    apiKeyId: sender && "apiKeyId" in sender ? sender.apiKeyId : null,
    errorCode: null,
    errorMessage: null,
    sentAt: at,
    senderMemberId: sender && "memberId" in sender ? sender.memberId : null,
    senderName: sender?.name ?? null,
    idempotencyKey,
    deletedAt: null,
  };
  const recipient = { externalId: target.recipientExternalId, phone: target.recipientPhone };
  if (publishFirst && firstSend) return firstSend(row, outbound, recipient, target.connection, stats, publishFirst);
  return roomOf(env, target.ticket.id).sendOutbound(row, outbound, recipient, target.connection, stats, publishFirst);
}
