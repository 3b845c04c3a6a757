/**
 * TicketRoom: one per ticket. Serialises the ticket's writes so its messages keep their order
 * (each stored message gets the next `seq`), sends the company's messages out one after another, and
 * fans everything out to the members viewing the ticket (hibernating WebSockets) and to the
 * company's hub (lists). Typing indicators travel both ways through it. Three kinds of message
 * reach D1 without it (issue 16): a new contact's first message, stored by the ContactSession with
 * the contact and its ticket and only published here (`publishStored`, or ahead of the bot's reply
 * that answers it, in the same call: `sendOutbound`'s `publishFirst`); that reply when the session
 * sends it itself (worker/pipeline/first-reply.ts), handing the room only a send that did not
 * succeed at once (`adoptSend`); and a customer's message the session routed on its routing
 * snapshot, stored and published to the hub by the session, which hands it to this room only when a
 * member has the ticket open (`relay`). The seqs continue after them: a seq this room did not count
 * itself (read from D1's highest) is inserted guarded (`insertMessage`'s `guardSeq`), and one it
 * counted in memory is moved past the session's messages by D1 in the insert (`SEQ_GIVEN_OR_NEXT`).
 *
 * Storage: a `meta` table with the storage's schema version; a `sends` table with the outbound
 * messages not yet settled, in order (issue 17). Messages themselves live in D1, and so do their
 * seqs: an instance counts them in memory from D1's highest (`nextSeq`), and D1 moves a counted seq
 * past messages its ContactSession stored since.
 *
 * Sends and their retries: a stored outbound message is queued in `sends` and sent after every
 * earlier one of this ticket. A transient failure keeps it `pending` and holds the later ones back;
 * it is tried again from this object's alarm after an exponential backoff with jitter
 * (`sendRetryDelayMs`). Two kinds of transient failure are counted apart (issue 17,
 * `isProviderAnswer`): the provider's own transient answers (HTTP 5xx/429, Meta's rate-limit and
 * "try again" codes) count against SEND_MAX_ATTEMPTS, after which the message fails with the
 * provider's reason; failures of ours (a request that never got an answer: `network`, the fault
 * switch's `fault_injected`; D1 or storage throwing: `internal`) are retried for SEND_OWN_RETRY_MS
 * after the first of them, however many attempts that takes, so an overloaded machine or a
 * restart never uses up the provider's attempts. A permanent failure fails at once with the
 * provider's code and message. Every failed attempt's reason is kept with the send (`reasons`),
 * and a message that fails after more than one attempt shows them summed up in its error details.
 * The provider's id is kept in `sends` before D1 is updated, so a retry after a D1 hiccup never
 * sends the message twice (and a send the provider took is never failed for a D1 error).
 *
 * Sends cut off by a restart (issue 17): before each attempt the row is marked `in_flight_at` (made
 * durable before the request leaves) and the alarm is set SEND_LEASE_MS ahead, so a room whose
 * instance died mid-send wakes up by itself. A new instance finds the mark and cannot know whether
 * the provider took the message. Where the provider echoes our message id in its status reports
 * (the adapter's `confirmsByReference`: WhatsApp's `biz_opaque_callback_data`), the send is held
 * "in doubt" for up to RECONCILE_MS: the `sent` report names the message (worker/pipeline/statuses.ts
 * stores its provider id), the room confirms it from D1 and does not send it again. Only when no
 * report came in that time is it sent again (at least once beats never). Later sends of the
 * ticket wait behind it, so their order holds.
 */
import { DurableObject } from "cloudflare:workers";
import { and, eq, sql } from "drizzle-orm";
import { connections, messages, tickets, type ConnectionRow, type MessageReaction, type MessageRow } from "../../schema";
import type { HubEventBody, MessageAnswer, RoomEvent, TicketAnswer } from "../../schema/realtime";
import type { Audience } from "./company-hub";
import type { AppEnv } from "../env";
import {
  REVOCATIONS_TABLE,
  answerClose,
  closeSocket,
  isSocketSession,
  parseFrame,
  recordRevocation,
  refusal,
  revokedBy,
  sendAll,
  type Revocation,
  type SocketSession,
} from "../lib/sockets";
import { adapterFor } from "../channels";
import type { OutboundMessage, SendResult } from "../channels/types";
import { armFault, injectedSendAnswer, maybeFailHere, takeArmedFault, type FaultOp } from "../lib/faults";
import { batchPrepared, getDb, prepared, preparedInsert, type ComputedColumn, type Db, type InsertGuard } from "../lib/db";
import { reachableIdentity } from "../lib/identities";
import { newId } from "../lib/ids";
import { loadTicketAnswers, presentMessages, presentTicketListRow, previewOf, ticketListPage } from "../lib/tickets";
import { hubOf } from "../lib/realtime";
import { recordFirstResponse } from "../lib/dashboard";
import { applyStatus, presentOrphanStatuses, takeOrphanStatusesQuery } from "../pipeline/statuses";
import { emitEvent, subscriptionsQuery } from "../lib/event-subscriptions";
import { statsStatements, type FlowStepStats } from "../lib/flows";
import { span } from "../lib/bench-trace";

/** A message to store; `seq`, ids and timestamps are filled in by the room. */
export type AppendInput = Omit<MessageRow, "id" | "seq" | "createdAt" | "updatedAt"> & { id?: string };

/**
 * `statsRecorded`: the flow step's stats handed to `sendOutbound` were counted with this message's
 * insert, or were when it was first stored (a duplicate: its insert carried them then); absent when
 * none were handed in (issue 16).
 */
export type AppendResult = { message: MessageAnswer; duplicate: boolean; statsRecorded?: boolean };

/**
 * The routing epochs (schema/routing.ts) a ContactSession routed a customer message on without
 * reading D1 (its routing snapshot, issue 16): the message is inserted only if neither scope's epoch
 * moved since (`ROUTING_MOVED`), in the insert's own statement. Scopes are `company:<id>` and
 * `contact:<id>`; an epoch of 0 stands for a scope with no row.
 */
export type RoutingGuard = { companyScope: string; companyEpoch: number; contactScope: string; contactEpoch: number };

/**
 * A send handed to the room after a first attempt made elsewhere (`TicketRoom.adoptSend`): the
 * message (`SendRef`), what was sent and to whom, and what the attempt left: `sent` (the provider
 * took it: `externalId`), `in_doubt` (cut off in flight; `confirmsByReference`: the adapter's),
 * `failed` (the adapter's answer: `retryable` or not), or `unsent` (stored, never tried).
 */
export type AdoptedSend = SendRef & {
  outbound: OutboundMessage;
  recipient: { externalId: string; phone: string | null };
  outcome:
    | { kind: "sent"; externalId: string }
    | { kind: "in_doubt"; confirmsByReference: boolean }
    | { kind: "failed"; errorCode: string; errorMessage: string; retryable: boolean }
    | { kind: "unsent" };
};

/** Hub events for one audience (CompanyHub.publishGroups). */
export type HubGroup = { bodies: HubEventBody[]; audience: Audience };

/**
 * A message its caller stored in D1 itself, for the room to publish (`publishStored`, or ahead of
 * a reply in `sendOutbound`): the row as inserted, the ticket's list entry as the caller inserted
 * it (not read back), and events for another audience that go to the hub with it.
 */
export type StoredPublish = { row: MessageRow; ticket: TicketAnswer; alsoPublish?: HubGroup };

/**
 * The provider's transient answers one send may get before it fails for good: 8, about two minutes
 * of backoff, so a provider outage of a minute does not fail a reply. Failures of ours are not
 * counted here (see SEND_OWN_RETRY_MS).
 */
export const SEND_MAX_ATTEMPTS = 8;
/**
 * How long a send keeps being retried after the first failure of ours (a request that got no
 * answer from the provider, or D1/storage throwing), in ms: 10 minutes, with the same capped
 * backoff (at most SEND_RETRY_MAX_MS between attempts). Then it fails with that failure's code.
 */
export const SEND_OWN_RETRY_MS = 10 * 60_000;
/** Failed attempts whose reasons are kept with a send (the latest ones). */
const SEND_REASONS_KEPT = 20;
/**
 * Failure codes that are ours, not an answer of the provider: the request failed before any answer
 * (`network`), the fault switch's injected send (`fault_injected`, worker/lib/faults.ts
 * `injectedSendAnswer`), or D1/storage/the adapter throwing (`internal`).
 */
export const OWN_FAILURE_CODES: ReadonlySet<string> = new Set(["network", "fault_injected", "internal"]);

/** True when a transient failure with `errorCode` was the provider's answer (counted against SEND_MAX_ATTEMPTS). */
export function isProviderAnswer(errorCode: string): boolean {
  return !OWN_FAILURE_CODES.has(errorCode);
}

/** One failed attempt of a send, as kept in `sends.reasons` (JSON array, oldest first). */
export type SendAttemptReason = {
  /** Attempt number (1-based, every attempt counted). */
  n: number;
  /** ms UTC when the attempt failed. */
  at: number;
  code: string;
  /** True for the provider's answer, false for a failure of ours (`isProviderAnswer`). */
  provider: boolean;
  /** The failure's message, at most 160 characters. */
  message: string;
};

/**
 * A failed send's attempts summed up for its error details (plain English, like the provider's own
 * messages): how many attempts over how long, and each reason with its count, e.g.
 * "Tried 8 times over 121 s. Provider: 2 ×5, 131000 ×3. Ours: network ×2."
 */
export function attemptSummary(reasons: SendAttemptReason[], attempts: number, now: number): string {
  const count = (provider: boolean) => {
    const by = new Map<string, number>();
    for (const r of reasons) if (r.provider === provider) by.set(r.code, (by.get(r.code) ?? 0) + 1);
    return [...by].map(([code, n]) => `${code} ×${n}`).join(", ");
  };
  const since = reasons[0]?.at ?? now;
  const parts = [`Tried ${attempts} times over ${Math.round((now - since) / 1000)} s.`];
  const provider = count(true);
  const ours = count(false);
  if (provider) parts.push(`Provider: ${provider}.`);
  if (ours) parts.push(`Ours: ${ours}.`);
  return parts.join(" ");
}
/** Backoff of the first retry (ms); it doubles for each later one, capped at SEND_RETRY_MAX_MS. */
export const SEND_RETRY_BASE_MS = 1_000;
export const SEND_RETRY_MAX_MS = 60_000;
/** When the alarm itself fails, it comes back this much later (ms). */
const ALARM_RETRY_MS = 2_000;
/** The alarm set before each send attempt: wakes the room if its instance dies mid-send (ms). */
export const SEND_LEASE_MS = 30_000;
/** How long a send cut off by a restart waits for the provider's report naming it (ms). */
export const RECONCILE_MS = 60_000;
/** While a send is in doubt, D1 is read again for its provider id this often (ms). */
const RECONCILE_POLL_MS = 2_000;

/**
 * Delay before retry number `retry` (1-based) of a send: SEND_RETRY_BASE_MS × 2^(retry−1), capped
 * at SEND_RETRY_MAX_MS, with ±20 % jitter (so sends held back together spread out, and each gap is
 * still longer than the one before).
 */
export function sendRetryDelayMs(retry: number, random: () => number = Math.random): number {
  const base = Math.min(SEND_RETRY_MAX_MS, SEND_RETRY_BASE_MS * 2 ** Math.max(0, retry - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** A queued send (table `sends`). */
type SendRow = {
  seq: number;
  message_id: string;
  company_id: string;
  ticket_id: string;
  connection_id: string;
  outbound: string;
  recipient: string;
  attempts: number;
  next_at: number;
  external_id: string | null;
  /** ms UTC when an attempt left (null once it came back). */
  in_flight_at: number | null;
  /** ms UTC until which a send cut off by a restart waits for the provider's report; null otherwise. */
  doubt_until: number | null;
  /** The provider's transient answers so far (counted against SEND_MAX_ATTEMPTS). */
  provider_failures: number;
  /** ms UTC of the first failure of ours (SEND_OWN_RETRY_MS runs from it); null when none yet. */
  own_since: number | null;
  /** JSON SendAttemptReason[]: the latest SEND_REASONS_KEPT failed attempts; null when none failed. */
  reasons: string | null;
};

/**
 * A change to a stored message: a reaction of one side (`contact` or a member id; an empty emoji
 * removes it), the sender's edit (new text), or the sender's revoke. `at` is the provider's time
 * (ms UTC); an older change than the one already applied is ignored (Meta redelivers).
 */
export type MessageChange =
  | { kind: "reaction"; from: string; emoji: string; at: number }
  | { kind: "edit"; body: string; at: number }
  | { kind: "revoke"; at: number };

/**
 * A message of the same ticket holds this seq or a later one (`preparedInsert`'s `unless`): the
 * insert of a seq not handed out by this room's own counter (read from D1's highest, or chosen by
 * the ContactSession for a new contact's first reply, `insertMessage`'s `guardSeq`) stores nothing
 * then, so two writers never give one ticket's messages the same seq (issue 16).
 */
const SEQ_TAKEN: InsertGuard = { name: "seq-taken", exists: 'SELECT 1 FROM "messages" WHERE "ticket_id" = ? AND "seq" >= ?', keys: ["ticketId", "seq"] };

/**
 * The seq after the ticket's highest, computed by D1 in the insert itself (`insertMessage`'s
 * `seq: "next"`): the ContactSession's own inserts of a customer's message (issue 16), which no
 * room counts. One seek on `messages_ticket_seq_uq`, which also keeps two writers from ever giving
 * one ticket's messages the same seq.
 */
const SEQ_NEXT: ComputedColumn = {
  name: "seq-next",
  key: "seq",
  expression: 'SELECT COALESCE(MAX("seq"), 0) + 1 FROM "messages" WHERE "ticket_id" = ?',
  keys: ["ticketId"],
};

/**
 * The row's seq, or the seq after the ticket's highest when that is later (`insertMessage`'s
 * `seq: "given-or-next"`): a room's seq counted in memory is right unless its ContactSession stored
 * customer messages since (issue 16); D1 then moves it past them in the same statement, and the
 * room counts on from the seq the insert answers.
 */
const SEQ_GIVEN_OR_NEXT: ComputedColumn = {
  name: "seq-given-or-next",
  key: "seq",
  expression: 'SELECT MAX(?, COALESCE(MAX("seq"), 0) + 1) FROM "messages" WHERE "ticket_id" = ?',
  keys: ["seq", "ticketId"],
};

/**
 * A routing epoch moved since the ContactSession read it (`RoutingGuard`, `preparedInsert`'s
 * `unless`): the message's routing was decided on data a writer has changed since, so the insert
 * stores nothing and the session routes the message again on a fresh read (issue 16). A scope that
 * had no row (epoch 0) and has one now counts as moved.
 */
const ROUTING_MOVED: InsertGuard = {
  name: "routing-moved",
  exists: 'SELECT 1 FROM "routing_epochs" WHERE ("scope" = ? AND "epoch" <> ?) OR ("scope" = ? AND "epoch" <> ?)',
  keys: ["routingCompanyScope", "routingCompanyEpoch", "routingContactScope", "routingContactEpoch"],
};

/**
 * Inserts `row` with its ticket's list entry moved, in one D1 batch (the room's appends, and the
 * ContactSession's first reply to a new contact: worker/pipeline/first-reply.ts), and answers
 * whether the row was inserted and the ticket's list entry read back after it (undefined when the
 * ticket is gone). Not inserted: a message with the same provider id or idempotency key exists
 * (the unique indexes), or, with `guardSeq`, a message of the ticket holds `row.seq` or a later one
 * (`SEQ_TAKEN`), or, with `routing`, a routing epoch moved (`ROUTING_MOVED`), or another message of
 * the ticket holds `row.seq` (`messages_ticket_seq_uq`). `seq`: `given` (the default) stores
 * `row.seq`; `next` stores the seq after the ticket's highest (`SEQ_NEXT`, `row.seq` ignored);
 * `given-or-next` stores `row.seq` or, when later, the seq after the ticket's highest
 * (`SEQ_GIVEN_OR_NEXT`); the answer's `seq` is the one stored. `touch`: the
 * customer's message moves its contact's `last_message_at` (ms UTC) in the same batch; `stats`: a
 * flow step's block stats, counted only if this very row was inserted.
 */
export async function insertMessage(
  db: Db,
  row: MessageRow,
  options: { guardSeq?: boolean; seq?: "given" | "next" | "given-or-next"; routing?: RoutingGuard; touch?: { contactId: string; at: number }; stats?: FlowStepStats; at: number },
): Promise<{ inserted: boolean; seq: number; entry: Parameters<typeof presentTicketListRow>[0] | undefined }> {
  const visible = row.type !== "reaction";
  // A system event (a number change) is shown, but is nothing for a member to read.
  const unread = row.direction === "in" && row.type !== "reaction" && row.type !== "system";
  const q = appendQueries(db, row, visible, unread, options.guardSeq === true, options.routing, options.seq ?? "given");
  const [inserted, , entryRows] = await batchPrepared(
    db,
    [
      q.insert,
      [q.update, { sentAt: row.sentAt, preview: previewOf(row), at: options.at, ticketId: row.ticketId, companyId: row.companyId, messageId: row.id }],
      [q.entry, { ticketId: row.ticketId, companyId: row.companyId }],
    ],
    // The contact's `last_message_at` (`touch`, inbound only) moves first, so the list entry read
    // back shows it.
    options.touch ? [touchStatement(db, options.touch, row.companyId, options.at)] : [],
    // A flow step's stats, counted only if this very row was inserted (issue 16: a send performed
    // again conflicts on its idempotency key and does not count them twice).
    options.stats ? statsStatements(db, options.stats, row.id) : [],
  );
  const made = inserted[0] as { id: string; seq?: number } | undefined;
  return { inserted: made !== undefined, seq: made?.seq ?? row.seq, entry: entryRows[0] };
}

/**
 * The statements of one append's D1 batch (`appendNow`), built and prepared once per drizzle
 * instance and shape (issue 16: drizzle built the 30-column insert, the list entry's update and the
 * ticket's four reads again for every message, the largest part of its CPU on the inbound path).
 * The insert comes with its values (`preparedInsert`). Placeholders: sentAt, preview, at, ticketId,
 * companyId, messageId (update); ticketId, companyId (the reads).
 */
function appendQueries(db: Db, row: MessageRow, visible: boolean, unread: boolean, guardSeq: boolean, routing: RoutingGuard | undefined, seq: "given" | "next" | "given-or-next") {
  const guards = [...(guardSeq ? [SEQ_TAKEN] : []), ...(routing ? [ROUTING_MOVED] : [])];
  const guardValues = routing
    ? { routingCompanyScope: routing.companyScope, routingCompanyEpoch: routing.companyEpoch, routingContactScope: routing.contactScope, routingContactEpoch: routing.contactEpoch }
    : undefined;
  const p = (name: string) => sql`${sql.placeholder(name)}`;
  const ticketId = sql.placeholder("ticketId") as unknown as string;
  const companyId = sql.placeholder("companyId") as unknown as string;
  return {
    // With its values (the row's, encoded as drizzle encodes an insert's).
    insert: preparedInsert(db, messages, row, {
      onConflictDoNothing: true,
      returningId: true,
      ...(guards.length ? { unless: guards } : {}),
      ...(guardValues ? { guardValues } : {}),
      ...(seq === "next" ? { computed: [SEQ_NEXT] } : seq === "given-or-next" ? { computed: [SEQ_GIVEN_OR_NEXT] } : {}),
    }),
    update: prepared(db, `append.update:${visible}:${unread}`, () =>
      db
        .update(tickets)
        .set({
          ...(visible
            ? {
                lastMessageAt: sql`MAX(${tickets.lastMessageAt}, ${sql.placeholder("sentAt")})`,
                lastMessagePreview: sql`CASE WHEN ${tickets.lastMessageAt} <= ${sql.placeholder("sentAt")} THEN ${sql.placeholder("preview")} ELSE ${tickets.lastMessagePreview} END`,
              }
            : {}),
          ...(unread ? { unreadCount: sql`${tickets.unreadCount} + 1` } : {}),
          // Moved here, so the row's trigger (`tickets_version_au`, migration 0012) writes nothing more.
          version: sql`${tickets.version} + 1`,
          updatedAt: p("at"),
        })
        .where(and(eq(tickets.id, ticketId), eq(tickets.companyId, companyId), sql`EXISTS (SELECT 1 FROM messages WHERE messages.id = ${sql.placeholder("messageId")})`))
        .prepare(),
    ),
    entry: ticketEntryRead(db),
  };
}

/**
 * The ticket's list entry as one joined read (the chat list's own statement, `ticketListPage`, for
 * one ticket), prepared once per drizzle instance (issue 16: was four single-table reads in every
 * append's batch). Placeholders: ticketId, companyId. Present its row with `presentTicketListRow`.
 */
function ticketEntryRead(db: Db) {
  const ticketId = sql.placeholder("ticketId") as unknown as string;
  const companyId = sql.placeholder("companyId") as unknown as string;
  return prepared(db, "append.entry", () => ticketListPage(db, and(eq(tickets.id, ticketId), eq(tickets.companyId, companyId)), 1).prepare());
}

/**
 * The statements of a sent message's settle batch (`settle`), prepared once per drizzle instance
 * (issue 16). Placeholders: externalId, at (ms UTC), messageId, companyId (the update, which moves
 * only a `pending` status to `sent` and returns the row); connectionId, externalId (the orphan
 * statuses taken); companyId (the event subscriptions); ticketId, companyId (who may see the ticket:
 * a send's outcome changes no list entry, so only the hub's audience is read).
 */
function settleQueries(db: Db) {
  const companyId = sql.placeholder("companyId") as unknown as string;
  return {
    sent: prepared(db, "settle.sent", () =>
      db
        .update(messages)
        .set({ externalId: sql`${sql.placeholder("externalId")}`, status: sql`CASE WHEN ${messages.status} = 'pending' THEN 'sent' ELSE ${messages.status} END`, updatedAt: sql`${sql.placeholder("at")}` })
        .where(and(eq(messages.id, sql.placeholder("messageId") as unknown as string), eq(messages.companyId, companyId)))
        .returning()
        .prepare(),
    ),
    orphans: prepared(db, "settle.orphans", () =>
      takeOrphanStatusesQuery(db, sql.placeholder("connectionId") as unknown as string, sql.placeholder("externalId") as unknown as string).prepare(),
    ),
    subscriptions: prepared(db, "settle.subscriptions", () => subscriptionsQuery(db, companyId).prepare()),
    audience: prepared(db, "settle.audience", () =>
      db
        .select({ status: tickets.status, assignedMemberId: tickets.assignedMemberId, isGroup: tickets.isGroup })
        .from(tickets)
        .where(and(eq(tickets.id, sql.placeholder("ticketId") as unknown as string), eq(tickets.companyId, companyId)))
        .limit(1)
        .prepare(),
    ),
  };
}

/** A send as `settleSent` and `TicketRoom.adoptSend` name it: its message, company, ticket and connection. */
export type SendRef = { messageId: string; companyId: string; ticketId: string; connectionId: string };

function sendRef(row: SendRow): SendRef {
  return { messageId: row.message_id, companyId: row.company_id, ticketId: row.ticket_id, connectionId: row.connection_id };
}

/** Who may see a ticket (the hub's audience of its events). */
type TicketAudience = { status: TicketAnswer["status"]; assignedMemberId: string | null; isGroup: boolean };

/** The hub group of a settled message's new status (`message.updated`) for who may see its ticket. */
export function settledGroup(ticketId: string, message: MessageAnswer, audience: TicketAudience): HubGroup {
  return { bodies: [{ type: "message.updated", ticketId, message }], audience: { ticket: audience } };
}

/**
 * Writes a sent message's provider id and `sent` status to D1 (the room's `settle`, and the
 * ContactSession's first reply: worker/pipeline/first-reply.ts) and answers it for the caller to
 * publish. One round trip (issue 16): the update with the row it leaves, the statuses that came
 * before the provider's id, the company's event subscriptions and who may see the ticket. The
 * outcome moves no list entry (preview, time and unread count moved with the insert), so no
 * `ticket.updated` follows it: only the message's new status. Emits `message.sent` to the
 * company's event subscriptions. Answers null when statuses that came before the provider's id
 * moved the message since (the caller publishes it read again), else the message as the update
 * left it and its ticket's audience (undefined: the ticket is gone). `known`: the connection, when
 * the caller has it (read from D1 only to apply such statuses). Throws on D1 failures.
 */
export async function settleSent(env: AppEnv, send: SendRef, externalId: string, known?: ConnectionRow): Promise<{ message: MessageAnswer; audience: TicketAudience | undefined } | null> {
  const db = getDb(env.DB);
  const at = Date.now();
  // Prepared once per isolate (issue 16: drizzle built these statements for every send).
  const q = settleQueries(db);
  const [updated, orphanRows, subscriptions, audienceRows] = await batchPrepared(db, [
    [q.sent, { externalId, at, messageId: send.messageId, companyId: send.companyId }],
    [q.orphans, { connectionId: send.connectionId, externalId }],
    [q.subscriptions, { companyId: send.companyId }],
    [q.audience, { ticketId: send.ticketId, companyId: send.companyId }],
  ]);
  const orphans = presentOrphanStatuses(orphanRows);
  if (orphans.length > 0) {
    const connection = known ?? (await db.select().from(connections).where(and(eq(connections.id, send.connectionId), eq(connections.companyId, send.companyId))).limit(1))[0];
    if (connection) for (const orphan of orphans) await applyStatus(db, connection, orphan, { recordOrphan: false });
  }
  // Outbound event subscriptions (worker/lib/event-subscriptions.ts); emitEvent never throws.
  await emitEvent(
    env,
    send.companyId,
    "message.sent",
    { message: { id: send.messageId, ticketId: send.ticketId, connectionId: send.connectionId, externalId, sentAt: at } },
    subscriptions,
  );
  // The row as the update left it, unless orphan statuses moved it since (then read again).
  const message = orphans.length === 0 ? updated[0] : undefined;
  if (!message) return null;
  const [answer] = await presentMessages(env, db, [message]);
  return { message: answer!, audience: audienceRows[0] };
}

/**
 * A viewer of the room, set by the worker after authentication: the member, the session the socket
 * was opened with (issue 8 §3), and the ticket and company.
 */
type RoomViewer = SocketSession & { memberId: string; name: string; ticketId: string; companyId: string };

function isRoomViewer(value: unknown): value is RoomViewer {
  return (
    typeof value === "object" &&
    value !== null &&
    "memberId" in value &&
    "name" in value &&
    "ticketId" in value &&
    typeof value.ticketId === "string" &&
    "companyId" in value &&
    typeof value.companyId === "string" &&
    isSocketSession(value)
  );
}

/**
 * The customer's message moved its contact's `last_message_at` to `touch.at` (ms UTC; never
 * backwards, so a redelivery or a late message leaves it), `updated_at` to `now`: a statement for
 * the room's append batch (issue 16: the ContactSession's read batch writes nothing).
 */
function touchStatement(db: Db, touch: { contactId: string; at: number }, companyId: string, now: number): D1PreparedStatement {
  return (db.$client as D1Database)
    .prepare("UPDATE contacts SET last_message_at = MAX(COALESCE(last_message_at, 0), ?), updated_at = ? WHERE id = ? AND company_id = ?")
    .bind(touch.at, now, touch.contactId, companyId);
}

/**
 * The room's `meta` table (key → integer: the storage's schema version; a room of an older version
 * also holds the seq counter it kept there, no longer read: `nextSeq`).
 */
const ROOM_META_TABLE = "CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v INTEGER NOT NULL)";

/**
 * The version of `ROOM_TABLES` a room's storage holds once its constructor set it up, kept in
 * `meta` ('schema'): a room whose storage says so skips the DDL when it starts (issue 16). Bump it
 * with every change to `ROOM_TABLES` or to the upgrades of older storage.
 */
const ROOM_SCHEMA = 1;

/**
 * Every table of a room's storage (see the file header) but `faults` (created where faults are
 * enabled, worker/lib/faults.ts) as one script. A new room's `sends` has
 * every column at once (issue 16: was five ALTERs per new ticket); the constructor's ALTERs bring
 * an older room's table up to it.
 */
const ROOM_TABLES = [
  REVOCATIONS_TABLE,
  "CREATE TABLE IF NOT EXISTS sends (seq INTEGER PRIMARY KEY AUTOINCREMENT, message_id TEXT NOT NULL, company_id TEXT NOT NULL, ticket_id TEXT NOT NULL, connection_id TEXT NOT NULL, outbound TEXT NOT NULL, recipient TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, next_at INTEGER NOT NULL DEFAULT 0, external_id TEXT, in_flight_at INTEGER, doubt_until INTEGER, provider_failures INTEGER NOT NULL DEFAULT 0, own_since INTEGER, reasons TEXT)",
].join(";\n");

export class TicketRoom extends DurableObject<AppEnv> {
  /** Outbound sends of this ticket, chained so they reach the provider in order. */
  private outbox: Promise<unknown> = Promise.resolve();
  /** Appends of this ticket, one at a time. */
  private appends: Promise<unknown> = Promise.resolve();
  /** This room's publishes to the company hub, in order (see `toHub`). */
  private hubPublishes: Promise<unknown> = Promise.resolve();
  /**
   * The connection a queued send was handed with, by message id, for its first attempt only
   * (issue 16: no D1 read of the connection before the reply leaves, nor after it for the orphan
   * statuses). A retry, or a send left by a restart, reads the connection from D1 again.
   */
  private readonly handedConnections = new Map<string, ConnectionRow>();
  /**
   * The highest seq of a message this instance published without storing it (`publishStored`): the
   * next append continues after it without reading D1. Lost with the instance, when the next append
   * reads D1's highest seq as any instance's first append does.
   */
  private storedSeq = 0;
  /**
   * The last seq this instance handed out (`nextSeq`); 0 until its first append, which reads D1's
   * highest seq (guarded). Kept in memory only: D1 holds every seq handed out that was stored.
   */
  private seqCounter = 0;

  constructor(ctx: DurableObjectState, env: AppEnv) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      const started = span(env, "room.start");
      const storage = this.ctx.storage.sql;
      // One exec when the storage is current (issue 16: every room start ran eleven).
      const found = storage
        .exec<{ v: number | null; sends: number }>(`${ROOM_META_TABLE}; SELECT (SELECT v FROM meta WHERE k = 'schema') AS v, EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sends') AS sends`)
        .one();
      if (found.v !== ROOM_SCHEMA) {
        storage.exec(ROOM_TABLES);
        // No `sends` table before: a new room, nothing to upgrade, recover or re-arm.
        if (found.sends === 0) {
          storage.exec("INSERT INTO meta (k, v) VALUES ('schema', ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v", ROOM_SCHEMA);
          started();
          return;
        }
        const columns = storage.exec<{ name: string }>("PRAGMA table_info(sends)").toArray().map((c) => c.name);
        if (!columns.includes("in_flight_at")) storage.exec("ALTER TABLE sends ADD COLUMN in_flight_at INTEGER");
        if (!columns.includes("doubt_until")) storage.exec("ALTER TABLE sends ADD COLUMN doubt_until INTEGER");
        if (!columns.includes("provider_failures")) storage.exec("ALTER TABLE sends ADD COLUMN provider_failures INTEGER NOT NULL DEFAULT 0");
        if (!columns.includes("own_since")) storage.exec("ALTER TABLE sends ADD COLUMN own_since INTEGER");
        if (!columns.includes("reasons")) storage.exec("ALTER TABLE sends ADD COLUMN reasons TEXT");
        storage.exec("INSERT INTO meta (k, v) VALUES ('schema', ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v", ROOM_SCHEMA);
      }
      this.recoverCutOffSends();
      // Sends left over by a restart go on from the alarm.
      const left = storage.exec<{ at: number | null }>("SELECT MIN(next_at) AS at FROM sends").one().at;
      if (left !== null && (await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Math.max(left, Date.now()));
      started();
    });
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair('{"type":"ping"}', '{"type":"pong"}'));
  }

  /**
   * Run when an instance starts: an attempt still marked in flight belonged to an instance that died
   * before the provider's answer, so it is in doubt (file header). A provider that does not confirm
   * by reference gets no wait (doubt_until in the past: sent again at once).
   */
  private recoverCutOffSends(): void {
    this.ctx.storage.sql.exec(
      "UPDATE sends SET doubt_until = CASE WHEN in_flight_at > 0 THEN ? ELSE 0 END, in_flight_at = NULL WHERE in_flight_at IS NOT NULL AND external_id IS NULL",
      Date.now() + RECONCILE_MS,
    );
  }

  /**
   * Next message sequence number of this ticket (starts at 1), and whether it was read from D1's
   * highest (`fromD1`: the insert guards it, see `insertMessage`). Counted in memory
   * (`seqCounter`): an instance's first append reads D1's highest seq, later ones add one without
   * a storage write (issue 16: the room's storage commit per message). `newTicket`: the caller
   * created the ticket in this very turn, so D1 holds no message of it and is not asked.
   * `reread`: the last seq handed out was found taken in D1; D1's highest is read again.
   */
  private async nextSeq(ticketId: string, newTicket = false, reread = false): Promise<{ seq: number; fromD1: boolean }> {
    const v = this.seqCounter + 1;
    if (v <= this.storedSeq && !reread) {
      // A message stored by its new contact's batch (`publishStored`) holds this seq already.
      this.seqCounter = this.storedSeq + 1;
      return { seq: this.seqCounter, fromD1: false };
    }
    if ((v === 1 && !newTicket) || reread) {
      // An instance that has handed out no seq yet (new, or started again) continues after what D1
      // already holds.
      const read = span(this.env, "room.seq-read");
      const existing = await getDb(this.env.DB)
        .select({ max: sql<number | null>`MAX(${messages.seq})` })
        .from(messages)
        .where(eq(messages.ticketId, ticketId));
      read();
      this.seqCounter = Math.max(existing[0]?.max ?? 0, this.storedSeq) + 1;
      return { seq: this.seqCounter, fromD1: true };
    }
    this.seqCounter = v;
    return { seq: v, fromD1: false };
  }

  /**
   * Stores one message in order. A duplicate (same connection and provider id, or same idempotency
   * key) stores nothing and answers the existing message with `duplicate: true`. `fresh`: the
   * caller has just found no message with this provider id (the contact's serialised session), so
   * the look-up before the insert is skipped; the insert's conflict clause still catches a duplicate
   * (issue 16: the insert, the ticket's list entry and its read-back are one D1 batch). `newTicket`:
   * the caller has just created this ticket (its first message: no D1 look-up of earlier seqs).
   * `touchContact`: the customer's message moves its contact's `last_message_at` to `at` (ms UTC,
   * never backwards) in the same batch (issue 16: the ContactSession's read batch writes nothing).
   * `stats`: a flow step's block stats, counted in the same batch only if this very insert happened
   * and only for a row whose id the room made (the answer's `statsRecorded`; issue 16).
   * `republish`: the caller is routing again a message D1 may hold already (an earlier attempt died
   * after storing it, perhaps before publishing it): a duplicate is published again, as
   * `message.updated` with its ticket's list entry (a socket that had it keeps one copy).
   */
  async append(
    input: AppendInput,
    options: {
      fresh?: boolean;
      newTicket?: boolean;
      alsoPublish?: HubGroup;
      stats?: FlowStepStats;
      touchContact?: { contactId: string; at: number };
      republish?: boolean;
      /**
       * A message the caller stored itself, published first in the same turn of the room (see
       * `sendOutbound`'s `publishFirst`): its events reach this room's sockets at once and the hub
       * in the same call as this append's, ahead of them (or alone when this one is a duplicate).
       */
      publishFirst?: StoredPublish;
    } = {},
  ): Promise<AppendResult> {
    return this.appendChained(input, options);
  }

  /** `append`: the append, in this room's appends chain. */
  private appendChained(input: AppendInput, options: NonNullable<Parameters<TicketRoom["append"]>[1]>): Promise<AppendResult> {
    // Input gates hold other calls back only during this object's own storage operations, not
    // while D1 answers: appends are chained so each gets its seq and row before the next starts.
    const waited = span(this.env, "room.wait-in-queue");
    const inside = span(this.env, "room.append-inside");
    const run = this.appends.then(async (): Promise<AppendResult> => {
      waited();
      const ahead = options.publishFirst ? (await this.storedGroups(options.publishFirst)).groups : undefined;
      const result = await this.appendNow(input, options.fresh === true, options.newTicket === true, options.alsoPublish, options.stats, options.touchContact, ahead);
      // A duplicate published nothing of its own: the stored message goes to the hub alone.
      if (result.duplicate && ahead) await this.toHub(input.companyId, ahead, false);
      if (result.duplicate && options.republish && result.message.ticketId === input.ticketId) {
        // Best effort: the message is stored either way, so a failed publish fails nothing.
        await this.fanOut(input.companyId, input.ticketId, { type: "message.updated", message: result.message }).catch((error: unknown) => console.error("[ticket-room] republish failed", error));
      }
      return result;
    });
    this.appends = run.catch(() => undefined);
    return run.finally(inside);
  }

  private async appendNow(
    input: AppendInput,
    fresh = false,
    newTicket = false,
    alsoPublish?: HubGroup,
    handedStats?: FlowStepStats,
    touch?: { contactId: string; at: number },
    /** Hub groups published in the same call, before this message's (`append`'s `publishFirst`); only when this insert happened. */
    ahead?: HubGroup[],
  ): Promise<AppendResult> {
    const db = getDb(this.env.DB);
    // Counted with the insert only under an id of the room's own (a new one exists only if this very
    // insert made it); with a caller's id they are left to the caller (`statsRecorded` absent).
    const stats = input.id === undefined ? handedStats : undefined;
    // No look-up before the insert when the insert's own unique index catches a duplicate: the
    // caller found no message with this provider id (`fresh`), or the message has no provider id
    // (ours: outbound, caught by `messages_company_idempotency_uq` on its idempotency key, or with
    // no key nothing to repeat). A conflicting insert then answers the row found after it.
    const skipLookup = input.externalId ? fresh : true;
    const existing = skipLookup ? undefined : await this.findExisting(input);
    if (existing) return { message: (await presentMessages(this.env, db, [existing]))[0]!, duplicate: true, ...(stats ? { statsRecorded: true } : {}) };
    const at = Date.now();
    const id = input.id ?? newId();
    let row: MessageRow | undefined;
    let entry: Parameters<typeof presentTicketListRow>[0] | undefined;
    // A seq read from D1 (an instance's first append) may be taken by a writer this room does not
    // order (a new contact's first reply, stored by its ContactSession): the insert is guarded, and a
    // seq found taken is read from D1 again (issue 16).
    for (let tries = 0; !row; tries += 1) {
      const next = await this.nextSeq(input.ticketId, newTicket && tries === 0, tries > 0);
      const candidate: MessageRow = { ...input, id, seq: next.seq, createdAt: at, updatedAt: at };
      // One round trip (issue 16): the insert, the ticket's list entry (only when the insert
      // happened: a duplicate moves nothing) and the ticket as the lists show it.
      const batched = span(this.env, "room.batch");
      // A seq read from D1 is guarded; one counted in memory is moved past any message another
      // writer stored since (the ContactSession's, issue 16) in the insert itself.
      const stored = await insertMessage(db, candidate, { ...(next.fromD1 ? { guardSeq: true } : { seq: "given-or-next" as const }), ...(touch ? { touch } : {}), ...(stats ? { stats } : {}), at });
      batched();
      if (stored.inserted) {
        row = { ...candidate, seq: stored.seq };
        if (stored.seq > this.seqCounter) this.seqCounter = stored.seq;
        entry = stored.entry;
        break;
      }
      // The seq taken for the duplicate is given back (appends run one at a time, so it is still the
      // last one handed out): the ticket's seqs stay without gaps.
      if (this.seqCounter === candidate.seq) this.seqCounter -= 1;
      const again = await this.findExisting(input);
      if (again) return { message: (await presentMessages(this.env, db, [again]))[0]!, duplicate: true, ...(stats ? { statsRecorded: true } : {}) };
      if (!next.fromD1 || tries >= 2) throw new Error("message insert conflicted but no existing row was found");
    }
    // A member's (or the API's) first answer in a customer's ticket: the dashboard's first response (issue 12).
    const firstResponse = input.direction === "out" && (input.senderMemberId || input.apiKeyId);
    if (firstResponse) await recordFirstResponse(db, input.companyId, input.ticketId, at);
    const presented = span(this.env, "room.present");
    const [message] = await presentMessages(this.env, db, [row]);
    presented();
    // The list entry read in the batch, unless the first response changed the ticket since.
    const ticketAnswer = firstResponse ? undefined : entry ? presentTicketListRow(entry) : null;
    await this.fanOut(input.companyId, input.ticketId, { type: "message.created", message: message! }, ticketAnswer, alsoPublish, ahead);
    return { message: message!, duplicate: false, ...(stats ? { statsRecorded: true } : {}) };
  }

  /**
   * Publishes a message its caller stored in D1 itself: a new contact's first message, inserted
   * with the contact and its ticket in one batch (ContactSession `upsertContact`, issue 16), so
   * `row.seq` is 1 of a ticket whose room has appended nothing. In order with the appends; the
   * next append continues after `row.seq`. `ticket`: the ticket's list entry as the caller
   * inserted it (published with the message, not read back); `alsoPublish` as for `append`.
   * Answers as `append` does for a message it stored.
   */
  async publishStored(row: MessageRow, ticket: TicketAnswer, alsoPublish?: HubGroup): Promise<AppendResult> {
    const run = this.appends.then(async (): Promise<AppendResult> => {
      const { message, groups } = await this.storedGroups({ row, ticket, ...(alsoPublish ? { alsoPublish } : {}) });
      await this.toHub(row.companyId, groups, false);
      return { message, duplicate: false };
    });
    this.appends = run.catch(() => undefined);
    return run;
  }

  /**
   * A customer's message its ContactSession stored and published itself (issue 16), handed on by
   * the company's hub because a member has this room open (`CompanyHub.publishMessage`): sent to
   * this room's sockets as `message.created`. This room's next append counts on past its seq in
   * the insert itself (`SEQ_GIVEN_OR_NEXT`).
   */
  async relay(message: MessageAnswer): Promise<void> {
    this.broadcast({ type: "message.created", message });
  }

  /**
   * The first half of publishing a message its caller stored (`publishStored`, `append`'s
   * `publishFirst`): the next append continues after its seq, this room's sockets get it now, and
   * the answer is the message as presented with its hub groups (the message and the ticket's list
   * entry, then `alsoPublish`), left for the caller to publish. Runs inside the appends chain.
   */
  private async storedGroups(p: StoredPublish): Promise<{ message: MessageAnswer; groups: HubGroup[] }> {
    this.storedSeq = Math.max(this.storedSeq, p.row.seq);
    const [message] = await presentMessages(this.env, getDb(this.env.DB), [p.row]);
    const event = { type: "message.created" as const, message: message! };
    this.broadcast(event);
    return { message: message!, groups: messageGroups(p.row.ticketId, event, p.ticket, p.alsoPublish) };
  }

  /**
   * Stores an outbound message as `pending` and queues its send after every earlier send of this
   * ticket; the status then moves to `sent` (with the provider's id) or `failed` (with its reason),
   * after retries of transient failures (see the file's header). Answers once the message is
   * stored; the send continues in order.
   */
  async sendOutbound(
    input: AppendInput,
    outbound: OutboundMessage,
    recipient: { externalId: string; phone: string | null },
    /** The connection (input.connectionId, the caller's read of it): its first attempt does not read it again. */
    connection?: ConnectionRow,
    /**
     * The stats of the flow step that sent this message, counted in the insert's own batch (issue 16:
     * not a D1 round trip of their own); the answer's `statsRecorded` says they were.
     */
    stats?: FlowStepStats,
    /**
     * A message of this ticket its caller stored itself and has not had published (a new contact's
     * first message, which this reply answers): published first, in this same call, with one hub
     * call for both (issue 16: a new contact's reply made two room calls). An answer at all means
     * it was published; a throw may leave it unpublished (the caller hands it again).
     */
    publishFirst?: StoredPublish,
  ): Promise<AppendResult> {
    const queued = span(this.env, "room.send-queued");
    const result = await this.append(input, { ...(stats ? { stats } : {}), ...(publishFirst ? { publishFirst } : {}) });
    if (result.duplicate) {
      // Stored by an earlier attempt whose instance died before queueing its send (the D1 insert had
      // committed, the `sends` row had not): still `pending` and queued nowhere, so queued now. A
      // send queued, in flight or in doubt here has its row; a settled one is no longer pending.
      const left = result.message;
      const queuedHere = () => this.ctx.storage.sql.exec("SELECT 1 FROM sends WHERE message_id = ?", left.id).toArray().length > 0;
      if (left.status === "pending" && left.direction === "out" && left.ticketId === input.ticketId && !queuedHere()) {
        console.warn(`[ticket-room] message ${left.id} was stored but never queued (its instance died); queued now`);
        this.queueSend(left.id, input, outbound, recipient);
      }
      return result;
    }
    if (connection && connection.id === input.connectionId && connection.companyId === input.companyId) this.handedConnections.set(result.message.id, connection);
    this.queueSend(result.message.id, input, outbound, recipient);
    queued();
    return result;
  }

  /** Queues the send of stored message `messageId` after every earlier one and starts a pass. */
  private queueSend(messageId: string, input: AppendInput, outbound: OutboundMessage, recipient: { externalId: string; phone: string | null }): void {
    this.ctx.storage.sql.exec(
      "INSERT INTO sends (message_id, company_id, ticket_id, connection_id, outbound, recipient) VALUES (?, ?, ?, ?, ?, ?)",
      messageId,
      input.companyId,
      input.ticketId,
      input.connectionId,
      JSON.stringify(outbound),
      JSON.stringify(recipient),
    );
    this.ctx.waitUntil(this.pump().catch((e) => console.error("[ticket-room] send failed", e)));
  }

  /**
   * Takes over a send whose first attempt was made outside the room: a new contact's first reply,
   * stored and sent by its ContactSession (worker/pipeline/first-reply.ts; issue 16). Queued after
   * every earlier send of this ticket like any other, with what the first attempt left
   * (`AdoptedSend["outcome"]`): the provider's id (only D1's update is left to do), an attempt cut
   * off in flight (in doubt, file header), a failure (counted and retried as the room's own, or a
   * permanent one settled at once), or no attempt. A message already queued here is not queued
   * twice. The message must be stored in D1 (the caller checks). Answers once queued.
   */
  async adoptSend(send: AdoptedSend): Promise<void> {
    // In the queue's order: no pass of `pumpNow` sees the send before its attempt is counted.
    const run = this.outbox.then(async () => {
      const sqlStore = this.ctx.storage.sql;
      if (sqlStore.exec("SELECT 1 FROM sends WHERE message_id = ?", send.messageId).toArray().length > 0) return;
      const { outcome } = send;
      const doubt = outcome.kind === "in_doubt" ? (outcome.confirmsByReference ? Date.now() + RECONCILE_MS : 0) : null;
      const row = sqlStore
        .exec<SendRow>(
          "INSERT INTO sends (message_id, company_id, ticket_id, connection_id, outbound, recipient, external_id, doubt_until) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
          send.messageId,
          send.companyId,
          send.ticketId,
          send.connectionId,
          JSON.stringify(send.outbound),
          JSON.stringify(send.recipient),
          outcome.kind === "sent" ? outcome.externalId : null,
          doubt,
        )
        .one();
      if (outcome.kind !== "failed") return;
      // Counted as pumpNow counts its own attempts (a retry waits for its backoff), or failed for good.
      if (outcome.retryable) await this.failedAttempt(row, outcome);
      else {
        await this.settle(row, { ok: false, errorCode: outcome.errorCode, errorMessage: outcome.errorMessage, retryable: false });
        sqlStore.exec("DELETE FROM sends WHERE seq = ?", row.seq);
      }
    });
    this.outbox = run.catch(() => undefined);
    await run;
    this.ctx.waitUntil(this.pump().catch((e) => console.error("[ticket-room] send failed", e)));
  }

  /**
   * Runs the queued sends, one pass at a time (a pass started while another runs waits for it). A
   * pass that throws (D1 unavailable while settling) leaves its send queued and sets the alarm
   * ALARM_RETRY_MS out, so the queue never stalls; it then rejects.
   */
  private pump(): Promise<void> {
    const waited = span(this.env, "room.pump-wait");
    const run = this.outbox.then(() => (waited(), this.pumpNow())).catch(async (error: unknown) => {
      await this.ctx.storage.setAlarm(Date.now() + ALARM_RETRY_MS);
      throw error;
    });
    this.outbox = run.catch(() => undefined);
    return run;
  }

  /**
   * Sends the queued messages in order. One whose retry is not due yet holds the later ones back and
   * sets the alarm for its time. A transient failure is recorded with its reason and counted by its
   * kind (file header): the provider's answers against SEND_MAX_ATTEMPTS, failures of ours (D1, the
   * adapter throwing: code `internal`) against SEND_OWN_RETRY_MS; a send the provider took already
   * (`external_id`) is never failed, only its D1 update retried.
   */
  private async pumpNow(): Promise<void> {
    const sqlStore = this.ctx.storage.sql;
    for (;;) {
      const row = sqlStore.exec<SendRow>("SELECT * FROM sends ORDER BY seq LIMIT 1").toArray()[0];
      if (!row) return;
      if (row.next_at > Date.now()) {
        await this.ctx.storage.setAlarm(row.next_at);
        return;
      }
      if (row.doubt_until !== null && !row.external_id) {
        const confirmed = await this.confirmedId(row);
        if (confirmed) {
          sqlStore.exec("UPDATE sends SET external_id = ?, doubt_until = NULL WHERE seq = ?", confirmed, row.seq);
          row.external_id = confirmed;
        } else if (row.doubt_until > Date.now()) {
          await this.ctx.storage.setAlarm(Math.min(row.doubt_until, Date.now() + RECONCILE_POLL_MS));
          return;
        } else {
          console.warn(`[ticket-room] no report named message ${row.message_id} after a restart; sending it again`);
          sqlStore.exec("UPDATE sends SET doubt_until = NULL WHERE seq = ?", row.seq);
          row.doubt_until = null;
        }
      }
      let retry: { errorCode: string; errorMessage: string } | null;
      try {
        retry = await this.deliver(row);
      } catch (error) {
        console.error(`[ticket-room] send of message ${row.message_id} failed (attempt ${row.attempts + 1})`, error);
        retry = { errorCode: "internal", errorMessage: String(error) };
      }
      if (!retry) {
        sqlStore.exec("DELETE FROM sends WHERE seq = ?", row.seq);
        continue;
      }
      if (await this.failedAttempt(row, retry)) continue;
      return;
    }
  }

  /**
   * Records a transient failure of `row`'s attempt with its reason, counted by its kind (file
   * header), and sets the alarm for the retry (answers false: the queue waits); or, when its
   * attempts are used up, fails the message with them summed up and removes the send (answers true:
   * the queue goes on).
   */
  private async failedAttempt(row: SendRow, retry: { errorCode: string; errorMessage: string }): Promise<boolean> {
    const sqlStore = this.ctx.storage.sql;
    const now = Date.now();
    const attempts = row.attempts + 1;
    const provider = isProviderAnswer(retry.errorCode);
    const providerFailures = row.provider_failures + (provider ? 1 : 0);
    const ownSince = provider ? row.own_since : (row.own_since ?? now);
    const reasons = [...reasonsOf(row), { n: attempts, at: now, code: retry.errorCode, provider, message: retry.errorMessage.slice(0, 160) }].slice(-SEND_REASONS_KEPT);
    // The provider took it already (external_id): only D1 failed, so it is never failed, only settled later.
    const exhausted = provider ? providerFailures >= SEND_MAX_ATTEMPTS : !row.external_id && ownSince !== null && now - ownSince >= SEND_OWN_RETRY_MS;
    if (exhausted) {
      console.warn(`[ticket-room] send of message ${row.message_id} failed for good: ${attemptSummary(reasons, attempts, now)}`);
      await this.settle(row, { ok: false, ...retry, retryable: false }, attemptSummary(reasons, attempts, now));
      sqlStore.exec("DELETE FROM sends WHERE seq = ?", row.seq);
      return true;
    }
    const nextAt = now + sendRetryDelayMs(attempts);
    sqlStore.exec(
      "UPDATE sends SET attempts = ?, provider_failures = ?, own_since = ?, reasons = ?, next_at = ? WHERE seq = ?",
      attempts,
      providerFailures,
      ownSince,
      JSON.stringify(reasons),
      nextAt,
      row.seq,
    );
    await this.ctx.storage.setAlarm(nextAt);
    return false;
  }

  /**
   * One attempt of a queued send. Answers null when the send is settled (sent, or failed at once
   * for a permanent reason), or the transient failure to retry (pumpNow counts it). A `send` fault
   * armed in this room (`armFaults("send", n)`) answers the fault switch's failure instead of
   * sending.
   */
  private async deliver(row: SendRow): Promise<{ errorCode: string; errorMessage: string } | null> {
    if (row.external_id) {
      // Sent already; only the D1 update was missing.
      await this.settle(row, { ok: true, externalId: row.external_id });
      return null;
    }
    const db = getDb(this.env.DB);
    const handed = this.handedConnections.get(row.message_id);
    this.handedConnections.delete(row.message_id);
    const connection = handed ?? (await db.select().from(connections).where(and(eq(connections.id, row.connection_id), eq(connections.companyId, row.company_id))).limit(1))[0];
    const outbound: OutboundMessage = JSON.parse(row.outbound);
    const recipient: { externalId: string; phone: string | null } = JSON.parse(row.recipient);
    let result: SendResult;
    if (connection) {
      const adapter = adapterFor(this.env, connection);
      // Mark the attempt and arm the lease, durably, before the request leaves (file header).
      // in_flight_at > 0 where the provider can confirm by reference, -1 where it cannot.
      const marked = span(this.env, "room.send-mark");
      this.ctx.storage.sql.exec("UPDATE sends SET in_flight_at = ? WHERE seq = ?", adapter.confirmsByReference ? Date.now() : -1, row.seq);
      await this.ctx.storage.setAlarm(Date.now() + SEND_LEASE_MS);
      await this.ctx.storage.sync();
      marked();
      const requested = span(this.env, "room.send-request");
      let answer: SendResult | undefined;
      try {
        answer = takeArmedFault(this.env, this.ctx.storage.sql, "send") ? injectedSendAnswer() : await adapter.send(connection, recipient, outbound, row.message_id);
      } finally {
        requested();
        // The attempt is over, and the provider's id (when it took the message) is kept with the
        // send until D1 has it: one write for both (issue 16).
        this.ctx.storage.sql.exec("UPDATE sends SET in_flight_at = NULL, external_id = COALESCE(?, external_id) WHERE seq = ?", answer?.ok ? answer.externalId : null, row.seq);
      }
      result = answer;
    } else {
      result = { ok: false, errorCode: "no_connection", errorMessage: "The connection no longer exists.", retryable: false };
    }
    if (!result.ok && result.retryable) {
      console.warn(`[ticket-room] send of message ${row.message_id} failed transiently (${result.errorCode}, attempt ${row.attempts + 1}): ${result.errorMessage.slice(0, 300)}`);
      return { errorCode: result.errorCode, errorMessage: result.errorMessage };
    }
    // A permanent failure after earlier failed attempts shows them too.
    const earlier = reasonsOf(row);
    await this.settle(row, result, !result.ok && earlier.length > 0 ? attemptSummary(earlier, row.attempts + 1, Date.now()) : null, connection);
    return null;
  }

  /**
   * The provider id D1 holds for a send in doubt: set by a status report that named the message
   * (worker/pipeline/statuses.ts), or by an earlier settle. Null when none came yet.
   */
  private async confirmedId(row: SendRow): Promise<string | null> {
    const found = await getDb(this.env.DB)
      .select({ externalId: messages.externalId })
      .from(messages)
      .where(and(eq(messages.id, row.message_id), eq(messages.companyId, row.company_id)))
      .limit(1);
    return found[0]?.externalId ?? null;
  }

  /**
   * Writes a send's outcome to D1 (sent with the provider's id, or failed with its reason and
   * `details`: the attempts summed up, or null) and fans it out.
   */
  private async settle(row: SendRow, result: SendResult, details: string | null = null, known?: ConnectionRow): Promise<void> {
    if (result.ok) {
      const settled = await settleSent(this.env, sendRef(row), result.externalId, known);
      if (settled) {
        this.broadcast({ type: "message.updated", message: settled.message });
        if (settled.audience) await this.toHub(row.company_id, [settledGroup(row.ticket_id, settled.message, settled.audience)], true);
        return;
      }
    } else {
      const where = and(eq(messages.id, row.message_id), eq(messages.companyId, row.company_id));
      await getDb(this.env.DB)
        .update(messages)
        .set({ status: "failed", errorCode: result.errorCode, errorMessage: result.errorMessage, errorDetails: details, updatedAt: Date.now() })
        .where(where);
    }
    await this.refresh(row.company_id, row.ticket_id, row.message_id);
  }

  /**
   * Retries the sends whose backoff is over (at-least-once: a repeated alarm finds nothing due, or
   * the same head of the queue). A failure of the alarm itself (or an injected `alarm` fault) is
   * caught and the alarm re-armed ALARM_RETRY_MS later, so the queue never stalls.
   */
  override async alarm(): Promise<void> {
    // Counted in the benchmarks' trace: a send's lease alarm wakes its room SEND_LEASE_MS later.
    const woke = span(this.env, "room.alarm");
    try {
      maybeFailHere(this.env, this.ctx.storage.sql, "alarm");
      await this.pump();
    } catch (error) {
      console.error("[ticket-room] alarm failed; retrying", error);
      await this.ctx.storage.setAlarm(Date.now() + ALARM_RETRY_MS);
    } finally {
      woke();
    }
  }

  /** Arms `n` failures of `op` in this room (worker/lib/faults.ts); false outside local/test. */
  async armFaults(op: FaultOp, n: number): Promise<boolean> {
    return armFault(this.env, this.ctx.storage.sql, op, n);
  }

  /**
   * Applies `change` to message `messageId` of this ticket, after every append and change handed in
   * before it, and fans the updated message out (`message.updated` to the room and the hub). The
   * ticket's list entry (preview, unread count) does not move. False when the message is not this
   * ticket's, or the change is older than what it shows.
   */
  async updateMessage(companyId: string, ticketId: string, messageId: string, change: MessageChange): Promise<boolean> {
    const run = this.appends.then(() => this.updateNow(companyId, ticketId, messageId, change));
    this.appends = run.catch(() => undefined);
    return run;
  }

  private async updateNow(companyId: string, ticketId: string, messageId: string, change: MessageChange): Promise<boolean> {
    const db = getDb(this.env.DB);
    const row = await db.query.messages.findFirst({ where: and(eq(messages.id, messageId), eq(messages.companyId, companyId), eq(messages.ticketId, ticketId)) });
    if (!row) return false;
    const at = Date.now();
    let set: Partial<MessageRow>;
    if (change.kind === "reaction") {
      const current: MessageReaction[] = row.reactions ?? [];
      const mine = current.find((r) => r.from === change.from);
      if (mine && mine.at > change.at) return false;
      const others = current.filter((r) => r.from !== change.from);
      const next = change.emoji ? [...others, { from: change.from, emoji: change.emoji, at: change.at }] : others;
      set = { reactions: next.length ? next : null };
    } else if (change.kind === "edit") {
      if (row.deletedAt !== null || (row.editedAt !== null && row.editedAt > change.at)) return false;
      set = { body: change.body, editedAt: change.at };
    } else {
      if (row.deletedAt !== null) return false;
      set = { deletedAt: change.at };
    }
    await db
      .update(messages)
      .set({ ...set, updatedAt: at })
      .where(and(eq(messages.id, messageId), eq(messages.companyId, companyId)));
    await this.refresh(companyId, ticketId, messageId);
    return true;
  }

  /** Re-reads a message (after a status change) and fans the update out. */
  async refresh(companyId: string, ticketId: string, messageId: string): Promise<void> {
    const db = getDb(this.env.DB);
    const row = await db.query.messages.findFirst({ where: and(eq(messages.id, messageId), eq(messages.companyId, companyId)) });
    if (!row) return;
    const [message] = await presentMessages(this.env, db, [row]);
    await this.fanOut(companyId, ticketId, { type: "message.updated", message: message! });
  }

  /** The customer is typing/recording (from the channel): shown to the viewers. */
  async contactPresence(state: "typing" | "recording" | "paused"): Promise<void> {
    this.broadcast({ type: "typing", who: "contact", state });
  }

  /** Publishes a ticket change (status, assignment) to the hub's lists. */
  async ticketChanged(companyId: string, ticketId: string): Promise<void> {
    const db = getDb(this.env.DB);
    const [ticket] = await loadTicketAnswers(db, companyId, [ticketId]);
    if (ticket) {
      await this.toHub(companyId, [{ bodies: [{ type: "ticket.updated", ticket }], audience: { ticket: { status: ticket.status, assignedMemberId: ticket.assignedMemberId, isGroup: ticket.isGroup } } }], true);
    }
  }

  /**
   * Closes the sockets of `r.userId` that `r` covers (CompanyHub.revoke calls it for every room the
   * user has open) and keeps `r`, so an upgrade authorised before it is refused. Answers how many
   * sockets it closed.
   */
  async revoke(r: Revocation): Promise<number> {
    const kept = recordRevocation(this.ctx.storage.sql, r);
    let closed = 0;
    for (const ws of this.ctx.getWebSockets(`user:${r.userId}`)) {
      const viewer: unknown = ws.deserializeAttachment();
      const reason = isRoomViewer(viewer) ? revokedBy(kept, viewer) : "session_revoked";
      if (!reason) continue;
      closeSocket(ws, reason);
      closed += 1;
    }
    return closed;
  }

  /**
   * WebSocket upgrade of a member viewing the ticket; the worker has checked access and passes the
   * viewer (RoomViewer, JSON) in `X-Room-Viewer`. A session a kept revocation covers, or an expired
   * one, is accepted and closed at once with its code (4001/4003).
   */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade") !== "websocket") return new Response("Expected a WebSocket upgrade", { status: 426 });
    const header = request.headers.get("X-Room-Viewer");
    const viewer: unknown = header ? JSON.parse(header) : null;
    if (!isRoomViewer(viewer)) return new Response("Missing viewer", { status: 400 });
    const pair = new WebSocketPair();
    this.ctx.acceptWebSocket(pair[1], [`user:${viewer.userId}`]);
    pair[1].serializeAttachment(viewer);
    const refused = refusal(this.ctx.storage.sql, viewer);
    if (refused) closeSocket(pair[1], refused);
    return new Response(null, { status: 101, webSocket: pair[0] });
  }

  /** A member's typing state: shown to the other viewers and to the customer. */
  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const parsed = parseFrame(message);
    if (parsed?.type !== "typing") return;
    const state = parsed.state === "typing" || parsed.state === "recording" ? parsed.state : "paused";
    const viewer: unknown = ws.deserializeAttachment();
    if (!isRoomViewer(viewer)) return;
    const refused = refusal(this.ctx.storage.sql, viewer);
    if (refused) {
      closeSocket(ws, refused);
      return;
    }
    this.broadcast({ type: "typing", who: "member", memberId: viewer.memberId, name: viewer.name, state }, ws);
    this.ctx.waitUntil(this.presenceToContact(viewer.companyId, viewer.ticketId, state).catch(() => undefined));
  }

  /** Completes the close; when it was the user's last socket here, the hub stops tracking the room. */
  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    answerClose(ws, code, reason);
    const viewer: unknown = ws.deserializeAttachment();
    if (!isRoomViewer(viewer)) return;
    const others = this.ctx.getWebSockets(`user:${viewer.userId}`).filter((w) => w !== ws && w.readyState === WebSocket.OPEN);
    if (others.length === 0) {
      this.ctx.waitUntil(hubOf(this.env, viewer.companyId).untrackRoom(viewer.userId, viewer.ticketId).catch(() => undefined));
    }
  }

  private async presenceToContact(companyId: string, ticketId: string, state: "typing" | "recording" | "paused"): Promise<void> {
    const db = getDb(this.env.DB);
    const ticket = await db.query.tickets.findFirst({ where: and(eq(tickets.id, ticketId), eq(tickets.companyId, companyId)) });
    if (!ticket) return;
    const connection = await db.query.connections.findFirst({ where: eq(connections.id, ticket.connectionId) });
    if (!connection) return;
    const identity = await reachableIdentity(db, companyId, ticket.contactId, connection.channel);
    if (!identity) return;
    const lastIn = await db.query.messages.findFirst({
      where: and(eq(messages.ticketId, ticketId), eq(messages.direction, "in")),
      orderBy: (m, { desc }) => [desc(m.sentAt), desc(m.seq)],
    });
    await adapterFor(this.env, connection).presence(connection, { externalId: identity.externalId }, state, lastIn?.externalId ?? undefined);
  }

  /**
   * `preloaded`: the ticket's answer when the caller read it already (null: no such ticket).
   * `alsoPublish`: events for another audience that go to the hub in the same call, after these.
   */
  private async fanOut(
    companyId: string,
    ticketId: string,
    event: { type: "message.created" | "message.updated"; message: MessageAnswer },
    preloaded?: TicketAnswer | null,
    alsoPublish?: HubGroup,
    /** Groups that go to the hub in the same call, before these (`append`'s `publishFirst`). */
    ahead: HubGroup[] = [],
  ): Promise<void> {
    this.broadcast(event);
    const db = getDb(this.env.DB);
    const ticket = preloaded !== undefined ? preloaded : (await loadTicketAnswers(db, companyId, [ticketId]))[0];
    if (!ticket) {
      const rest = [...ahead, ...(alsoPublish ? [alsoPublish] : [])];
      if (rest.length > 0) await this.toHub(companyId, rest, false);
      return;
    }
    // One hop for all (issue 16): the message and its ticket's list entry. A new message's reaches
    // the hub after the append answered (the webhook's 200 waits for two hops, not three); it is
    // already stored, and the hub's events keep this room's order.
    await this.toHub(companyId, [...ahead, ...messageGroups(ticketId, event, ticket, alsoPublish)], event.type === "message.updated");
  }

  /**
   * Publishes each group's events to its audience on the company's hub, in one call, after every
   * earlier publish of this room (their order holds). `wait`: resolves once published; otherwise the publish finishes in the background
   * (waitUntil) and a failure is logged, never thrown.
   */
  private toHub(companyId: string, groups: HubGroup[], wait: boolean): Promise<void> {
    const hub = hubOf(this.env, companyId);
    const run = this.hubPublishes.then(async (): Promise<void> => {
      if (groups.length === 1) await hub.publishEvents(groups[0]!.bodies, groups[0]!.audience);
      else await hub.publishGroups(groups);
    });
    this.hubPublishes = run.catch((error: unknown) => console.error("[ticket-room] hub publish failed", error));
    if (wait) return run.then(() => undefined);
    this.ctx.waitUntil(this.hubPublishes);
    return Promise.resolve();
  }

  /** Sends `event` to every viewer (but `except`); a viewer whose token expired is closed instead. */
  private broadcast(event: RoomEvent, except?: WebSocket): void {
    const at = Date.now();
    const open: WebSocket[] = [];
    for (const ws of this.ctx.getWebSockets()) {
      const viewer: unknown = ws.deserializeAttachment();
      if (!isRoomViewer(viewer)) continue;
      if (viewer.expiresAt <= at) closeSocket(ws, "session_expired");
      else open.push(ws);
    }
    sendAll(open, JSON.stringify(event), except);
  }

  private async findExisting(input: AppendInput): Promise<MessageRow | undefined> {
    const db = getDb(this.env.DB);
    if (input.externalId) {
      const byExternal = await db.query.messages.findFirst({
        where: and(eq(messages.connectionId, input.connectionId), eq(messages.externalId, input.externalId)),
      });
      if (byExternal) return byExternal;
    }
    if (input.idempotencyKey) {
      return db.query.messages.findFirst({
        where: and(eq(messages.companyId, input.companyId), eq(messages.idempotencyKey, input.idempotencyKey)),
      });
    }
    return undefined;
  }
}

/** The failed attempts kept with a queued send (oldest first); [] when none or unreadable. */
function reasonsOf(row: SendRow): SendAttemptReason[] {
  if (!row.reasons) return [];
  try {
    const parsed: unknown = JSON.parse(row.reasons);
    return Array.isArray(parsed) ? (parsed as SendAttemptReason[]) : [];
  } catch {
    return [];
  }
}

/**
 * The hub groups of one message event: the message and its ticket's list entry `ticket`, to who may
 * see that ticket, then `alsoPublish` (events for another audience).
 */
export function messageGroups(ticketId: string, event: { type: "message.created" | "message.updated"; message: MessageAnswer }, ticket: TicketAnswer, alsoPublish?: HubGroup): HubGroup[] {
  const audience = { ticket: { status: ticket.status, assignedMemberId: ticket.assignedMemberId, isGroup: ticket.isGroup } };
  const groups: HubGroup[] = [{ bodies: [{ type: event.type, ticketId, message: event.message }, { type: "ticket.updated", ticket }], audience }];
  if (alsoPublish) groups.push(alsoPublish);
  return groups;
}
