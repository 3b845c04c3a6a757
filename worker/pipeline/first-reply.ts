/**
 * A new contact's first reply, stored and sent by its ContactSession without the ticket's
 * TicketRoom (issue 16). The reply that answers a new contact's first message is the only message
 * of a ticket the session knows no other writer has touched: the ticket, the contact and that first
 * message were stored by the session's own batch in this very turn. Starting the ticket's room for
 * it (a new Durable Object: its SQLite storage opened and set up) was a quarter of the worker's
 * thread in `npm run bench:flows`; here the session does the room's work for this one message:
 *
 * - **Stored** with the room's own D1 batch (`insertMessage`: the insert, the ticket's list entry,
 *   the step's stats) at the seq after the first message, guarded (`SEQ_TAKEN`) so a member or an
 *   API call that reached the ticket first keeps its seq: the reply then goes through the room.
 * - **Published** to the company's hub with the first message, in one call (the room's groups).
 * - **Sent** once, with the room's guarantee that a message is never sent twice: the attempt is
 *   recorded in the session's storage and marked in flight, durably, with an alarm set
 *   SEND_LEASE_MS ahead, before the request leaves (TicketRoom's header, issue 17).
 * - **Settled** with the room's own D1 batch (`settleSent`) and published.
 *
 * Anything but a clean success is handed to the room (`TicketRoom.adoptSend`) with what the attempt
 * left, and the room carries on exactly as with its own sends: a transient failure is retried with
 * its backoff and limits, a permanent one fails the message, an attempt cut off by a restart is
 * held in doubt until the provider's report names it, a provider id D1 did not take yet is settled.
 * A record left behind (the instance died, or the effect threw) is handed over by the effect
 * performed again (the outbox keeps it) or by the session's alarm (`handOverLeftSend`).
 *
 * Not done here: the room's sockets get no `message.created` for these two messages (a member can
 * only have opened the ticket from a list read between the contact's batch and this reply's, a few
 * milliseconds; the hub's events reach every list and the ticket's page reads them); a `send` fault
 * armed in the ticket's room is not seen (the session's own armed faults are; the rate-based
 * `FAULTS` reach the adapters either way).
 */
import type { ConnectionRow, MessageRow } from "../../schema";
import type { AppEnv } from "../env";
import type { OutboundMessage, SendResult } from "../channels/types";
import { adapterFor } from "../channels";
import { getDb } from "../lib/db";
import { injectedSendAnswer } from "../lib/faults";
import type { FlowStepStats } from "../lib/flows";
import { newId } from "../lib/ids";
import { hubOf, roomOf } from "../lib/realtime";
import { presentMessages, presentTicketListRow } from "../lib/tickets";
import { span } from "../lib/bench-trace";
import {
  SEND_LEASE_MS,
  insertMessage,
  messageGroups,
  settleSent,
  settledGroup,
  type AdoptedSend,
  type AppendInput,
  type AppendResult,
  type SendRef,
  type StoredPublish,
} from "../durable-objects/ticket-room";

/** Who receives a reply: the contact's id on the channel, and its phone number when known. */
export type Recipient = { externalId: string; phone: string | null };

/**
 * Stores and sends a reply whose ticket's first message is `publish` (not yet published), instead
 * of the ticket's room (`sendToTicket`'s `firstSend`): `sendFirstReply` bound to a session.
 */
export type FirstSender = (input: AppendInput, outbound: OutboundMessage, recipient: Recipient, connection: ConnectionRow, stats: FlowStepStats | undefined, publish: StoredPublish) => Promise<AppendResult>;

/**
 * The one first reply a session has in hand, kept in its storage from before its D1 insert until
 * it is settled or handed to the room. `inFlightAt`: ms UTC when the attempt left, -1 when the
 * adapter cannot confirm by reference, null when no attempt is under way; `externalId`: the
 * provider's id once it took the message.
 */
export type FirstSendRecord = SendRef & {
  key: string;
  outbound: OutboundMessage;
  recipient: Recipient;
  inFlightAt: number | null;
  externalId: string | null;
};

/** What `sendFirstReply` needs of the session's Durable Object. */
export type FirstReplyStore = {
  /** The record kept in the object's storage, or null. */
  read(): FirstSendRecord | null;
  /** Keeps `record` (null: removes it) in the object's storage. */
  write(record: FirstSendRecord | null): void;
  /** Makes sure the object's alarm fires by `at` (ms UTC), without moving an earlier one later. */
  leaseAlarm(at: number): Promise<void>;
  /** Resolves once every storage write so far is durable. */
  sync(): Promise<void>;
  /** Consumes a `send` fault armed in the object (worker/lib/faults.ts); false when none. */
  sendFault(): boolean;
};

/**
 * Stores, publishes and sends `input` (an outbound reply, `idempotencyKey` set: the flow effect's)
 * as the reply to `publish`, its ticket's first message, which is published with it (see the
 * file's header). Goes through the ticket's room instead (`TicketRoom.sendOutbound`, same answer)
 * when the input has no idempotency key, when a record of an earlier first reply is left (handed
 * over first, so the room keeps the order), or when the insert stored nothing (a duplicate of an
 * earlier attempt, or the seq taken). Answers once the send is settled or handed over, as the
 * room's `sendOutbound` answers (the message as stored, `pending`). Throws on D1 or storage
 * failures before the send (the caller performs the effect again; nothing is sent twice).
 */
export async function sendFirstReply(
  env: AppEnv,
  store: FirstReplyStore,
  input: AppendInput,
  outbound: OutboundMessage,
  recipient: Recipient,
  connection: ConnectionRow,
  stats: FlowStepStats | undefined,
  publish: StoredPublish,
): Promise<AppendResult> {
  const viaRoom = () => roomOf(env, input.ticketId).sendOutbound(input, outbound, recipient, connection, stats, publish);
  const key = input.idempotencyKey;
  if (!key || input.id !== undefined) return viaRoom();
  const left = store.read();
  if (left) {
    await handOver(env, store, left);
    return viaRoom();
  }
  const db = getDb(env.DB);
  const at = Date.now();
  const row: MessageRow = { ...input, id: newId(), seq: publish.row.seq + 1, createdAt: at, updatedAt: at };
  const ref: SendRef = { messageId: row.id, companyId: row.companyId, ticketId: row.ticketId, connectionId: row.connectionId };
  // Kept before the insert (the output gate holds the D1 request until it is durable), so an insert
  // whose instance died is found by the effect performed again.
  const record: FirstSendRecord = { ...ref, key, outbound, recipient, inFlightAt: null, externalId: null };
  store.write(record);
  const batched = span(env, "first-reply.batch");
  const stored = await insertMessage(db, row, { guardSeq: true, ...(stats ? { stats } : {}), at });
  batched();
  if (!stored.inserted) {
    store.write(null);
    return viaRoom();
  }
  const [first, reply] = await presentMessages(env, db, [publish.row, row]);
  const groups = [
    ...messageGroups(publish.row.ticketId, { type: "message.created", message: first! }, publish.ticket, publish.alsoPublish),
    ...(stored.entry ? messageGroups(row.ticketId, { type: "message.created", message: reply! }, presentTicketListRow(stored.entry)) : []),
  ];
  const hub = hubOf(env, row.companyId);
  // Under way while the reply leaves; awaited before its status is published, so the hub's order holds.
  const published = hub.publishGroups(groups).catch((error: unknown) => console.error("[first-reply] hub publish failed", error));
  const answer: AppendResult = { message: reply!, duplicate: false, ...(stats ? { statsRecorded: true } : {}) };
  let adapter: ReturnType<typeof adapterFor>;
  try {
    adapter = adapterFor(env, connection);
  } catch (error) {
    console.error(`[first-reply] no adapter for message ${row.id}`, error);
    await published;
    await handOver(env, store, record);
    return answer;
  }
  // Marked in flight with the lease alarm, durably, before the request leaves (TicketRoom's header).
  const marked = span(env, "first-reply.send-mark");
  store.write({ ...record, inFlightAt: adapter.confirmsByReference ? Date.now() : -1 });
  await store.leaseAlarm(Date.now() + SEND_LEASE_MS);
  await store.sync();
  marked();
  const requested = span(env, "first-reply.send-request");
  let result: SendResult;
  try {
    result = store.sendFault() ? injectedSendAnswer() : await adapter.send(connection, recipient, outbound, row.id);
  } catch (error) {
    console.error(`[first-reply] send of message ${row.id} failed`, error);
    result = { ok: false, errorCode: "internal", errorMessage: String(error), retryable: true };
  } finally {
    requested();
  }
  const attempted: FirstSendRecord = { ...record, externalId: result.ok ? result.externalId : null };
  store.write(attempted);
  await published;
  if (!result.ok) {
    await handOver(env, store, attempted, result);
    return answer;
  }
  const settling = span(env, "first-reply.settle");
  try {
    const settled = await settleSent(env, ref, result.externalId, connection);
    if (settled?.audience) await hub.publishGroups([settledGroup(row.ticketId, settled.message, settled.audience)]);
    // Statuses that came before the provider's id moved it: the room publishes it read again.
    else if (!settled) await roomOf(env, row.ticketId).refresh(row.companyId, row.ticketId, row.id);
    store.write(null);
  } catch (error) {
    // Sent: only D1 (or the publish) failed. The room settles it from the provider's id.
    console.error(`[first-reply] settling message ${row.id} failed; handed to its room`, error);
    await handOver(env, store, attempted);
  } finally {
    settling();
  }
  return answer;
}

/** Hands a first reply left in the session's storage to its room (the session's alarm). */
export async function handOverLeftSend(env: AppEnv, store: FirstReplyStore): Promise<void> {
  const left = store.read();
  if (left) await handOver(env, store, left);
}

/**
 * Hands `record` to its ticket's room with what its attempt left (`AdoptedSend["outcome"]`;
 * `failure`: the adapter's answer to it) and removes it. A record whose message D1 does not hold
 * (its insert never committed) is only removed: there is nothing to send.
 */
async function handOver(env: AppEnv, store: FirstReplyStore, record: FirstSendRecord, failure?: Extract<SendResult, { ok: false }>): Promise<void> {
  const outcome: AdoptedSend["outcome"] = record.externalId
    ? { kind: "sent", externalId: record.externalId }
    : record.inFlightAt !== null
      ? { kind: "in_doubt", confirmsByReference: record.inFlightAt > 0 }
      : failure
        ? { kind: "failed", errorCode: failure.errorCode, errorMessage: failure.errorMessage, retryable: failure.retryable }
        : { kind: "unsent" };
  if (outcome.kind === "failed" && outcome.retryable) {
    console.warn(`[first-reply] send of message ${record.messageId} failed transiently (${outcome.errorCode}); its room retries it: ${outcome.errorMessage.slice(0, 300)}`);
  }
  if (outcome.kind === "unsent") {
    const held = await env.DB.prepare("SELECT 1 AS held FROM messages WHERE id = ? AND company_id = ?").bind(record.messageId, record.companyId).first<{ held: number }>();
    if (!held) {
      store.write(null);
      return;
    }
  }
  const { messageId, companyId, ticketId, connectionId, outbound, recipient } = record;
  await roomOf(env, ticketId).adoptSend({ messageId, companyId, ticketId, connectionId, outbound, recipient, outcome });
  store.write(null);
}
