/**
 * ContactSession: one per company + channel identity of a contact. Serialises the contact's inbound
 * events (so two webhooks for one customer never race), upserts the contact, and decides where each
 * message goes (DESIGN.md "The main job", step 3), in this order:
 *   1. a flow run in progress takes it (a waiting run answers it; a run on a delay or an HTTP call
 *      queues it for its next question, as the engine defines);
 *   2. else a keyword trigger that is on and matches starts its flow;
 *   2a. else, outside the company's operating hours, the conversation's first message gets the
 *      outside-hours message or flow, once per ticket (issue 12, worker/lib/operating-hours-inbound.ts);
 *   2b. else the first reply to a broadcast sent in the last 24 h starts the connection's campaign
 *      flow (issue 10);
 *   3. else the contact's open or pending ticket on the connection takes it;
 *   4. else the connection's default flow starts (the media flow for media messages, falling back
 *      to the default flow);
 *   5. else a new pending ticket opens (with the connection's greeting message).
 * A run's conversation is stored in the contact's ticket (created pending when there is none, never
 * opened for a member); bot messages are outbound messages with no sender. The TicketRoom stores
 * every message but two kinds (issue 16): a new contact's first message with nothing to do before
 * its insert (no media, quoted message or ad referral) goes into D1 in the contact's own batch, with
 * its identity and its pending ticket, and the room only publishes it (`publishStored`); and a
 * message routed on the routing snapshot (below) is stored by this object and published to the
 * company's hub, which hands it to the room only while a member has the ticket open (`storeRouted`). When
 * that message starts a flow, its publish is queued in the outbox with the run's first step and
 * goes with the run's first send, which this object stores, publishes and sends itself without the
 * ticket's room, handing the send to the room only when it does not succeed at once
 * (worker/pipeline/first-reply.ts; issue 16).
 *
 * Routing reads D1 in one batch per message (`preload`), except for a message its routing would
 * place in the open ticket the last batch found, which is routed on that batch kept in memory (the
 * routing snapshot, `RoutingSnapshot`; issue 16): its insert, made here, checks in the same
 * statement that no routing epoch (schema/routing.ts, kept by D1 triggers) moved since, and the
 * message is routed again from D1 when one did.
 *
 * Runs the flow engine (worker/flows) for the contact and performs its effects
 * (worker/pipeline/flow-effects.ts). Storage (SQLite):
 * - `meta`: the company, channel and external id this object serves (and, written by older
 *   versions, the last inbound message id, now the newest `handled` row); a first reply in hand
 *   (`first_send`, JSON, worker/pipeline/first-reply.ts) until it is settled or handed to its room;
 * - `runs`: each run (flow, the published version it started with, ticket, engine state as JSON);
 *   at most one run is in progress; the last 20 ended runs are kept for the contact's page, each
 *   with its warnings (engine warnings and effects given up after MAX_EFFECT_ATTEMPTS, issue 17);
 * - `timers`: armed engine timers (token → when, ms UTC); ONE alarm is set to the earliest;
 * - `outbox`: effects of a committed step not yet performed (a failed head is retried after
 *   `effectRetryDelayMs` and holds the later ones back), and a stored message's publish queued
 *   ahead of them (see above);
 * - `faults`: armed faults of the fault switch (local and test only, worker/lib/faults.ts);
 * - `handled`: provider ids of the inbound messages this object has routed to the end (kept
 *   HANDLED_TTL_MS); the newest row is the contact's last message. A message is marked in the same
 *   storage transaction as the step that consumes it (a run's answered step, a new run's first
 *   step), or once routing ends. A redelivery of a message D1 holds but this table does not (the
 *   object died between storing it and committing its step, issue 17) is routed again instead of
 *   being answered as a duplicate: storing it again is a no-op (the TicketRoom dedupes by provider
 *   id) and its step then happens once;
 * - `pending_reactions`: the contact's reactions to a message not stored yet (by provider id), applied
 *   when it arrives (and kept meanwhile as a rejected event), dropped after PENDING_REACTION_TTL_MS
 *   (7 days).
 * Alarms are at-least-once, so every step is committed (state, timers and its effects in the
 * outbox, the fired timer deleted) in one storage transaction BEFORE any effect is performed, and
 * each effect is deleted from the outbox once done: a retried alarm or a restart finishes the outbox
 * instead of stepping twice. Sends carry an idempotency key (`flow:<runId>:<outbox seq>`), so one
 * performed again is stored and sent once. The alarm is re-armed explicitly after every change and
 * repaired from storage when the object starts (platform-limits A3).
 */
import { DurableObject } from "cloudflare:workers";
import { and, asc, desc, eq, inArray, isNotNull, isNull, notExists, sql as drizzleSql } from "drizzle-orm";
import {
  companies,
  flows,
  connectionFlows,
  connections,
  contactIdentities,
  contacts,
  messages,
  routingEpochs,
  tickets,
  type ConnectionFlowsRow,
  type ConnectionRow,
  type ContactIdentityRow,
  type ContactRow,
  type KeywordRow,
  type MessageRow,
  type TicketRow,
} from "../../schema";
import type { FlowRunAnswer, RunWarning } from "../../schema/flow-api";
import type { MessageAnswer } from "../../schema/realtime";
import type { AppEnv } from "../env";
import { adapterFor } from "../channels";
import type { ContactEvent, InboundEdit, InboundMessage, InboundPresence, InboundReaction, InboundRevoke } from "../channels/types";
import { initialRunState, step, type CompiledFlow, type FlowEffect, type FlowEvent, type FlowRunState, type StepResult } from "../flows";
import { batchPrepared, boundInsert, getDb, isUniqueViolation, prepared, type Db } from "../lib/db";
import { armFault, maybeFailHere, takeArmedFault, type FaultOp } from "../lib/faults";
import { adjustContactCount, d1Statements, runBatch } from "../lib/contacts";
import { companyDay, dayCountsStatement, ticketOpenedStatement } from "../lib/dashboard";
import { announceWaitingTicket, onlineMembersQuery, waitingTicketEvent } from "../lib/online-members";
import { activeKeywordsQuery, countKeywordMessage, defaultFlowsOf, loadVersion, matchKeyword, recordStats, type FlowStepStats } from "../lib/flows";
import { newId } from "../lib/ids";
import { MAX_MEDIA_BYTES, storeMedia } from "../lib/media";
import { hubOf, roomOf } from "../lib/realtime";
import { presentMessages, presentTicket, presentTicketListRow, previewOf } from "../lib/tickets";
import { insertMessage, messageGroups, type AppendInput, type AppendResult, type HubGroup, type RoutingGuard, type StoredPublish } from "./ticket-room";
import { keepRejected } from "../lib/rejected-events";
import { sendToTicket } from "../pipeline/outbound";
import { handOverLeftSend, sendFirstReply, type FirstReplyStore, type FirstSender, type FirstSendRecord } from "../pipeline/first-reply";
import { emitEvent, subscriptionsQuery } from "../lib/event-subscriptions";
import { claimBroadcastReply } from "../lib/broadcasts";
import { hoursQuery, outsideHoursAction, routeOutsideHours, type HoursRow } from "../lib/operating-hours-inbound";
import { applyOptOut, isStopWord } from "../lib/opt-out";
import { buildContext, contextOf, contextQueries, createdContextReads, performEffect, type Carried, type ContextRows, type CreatedContextRows, type FollowUp, type KnownContext, type RunTarget } from "../pipeline/flow-effects";
import { span } from "../lib/bench-trace";
import { routeStillHolds, type RouteCheck } from "../lib/connections";

/**
 * What became of one event: stored (or applied to its target), a duplicate, ignored (presence
 * without a ticket), rejected (kept in rejected_events: a reaction or revoke whose target is
 * unknown), or stale (the connection row the webhook route remembered no longer holds its route:
 * nothing was done, the caller looks the connection up again; issue 16).
 */
export type IngestResult = { status: "stored" | "duplicate" | "ignored" | "rejected" | "stale"; messageId?: string; ticketId?: string; runId?: string };

/** A run as the contact's page shows it (the route adds the flow's name); `startedAt` ms UTC. */
/** A run as listRuns answers it; `updatedAt` is its last action (a step committed), ms UTC. */
export type RunView = Omit<FlowRunAnswer, "flowName"> & { startedAt: number; updatedAt: number };

/** What POST /api/tickets/{id}/start-flow hands in. */
export type StartFlowInput = {
  companyId: string;
  channel: ConnectionRow["channel"];
  externalId: string;
  connectionId: string;
  ticketId: string;
  flowId: string;
  /**
   * The run's id, chosen by the caller as an idempotency key (a broadcast's recipient, issue 10): a
   * start whose run already exists here only finishes its outbox and answers it, never a second run.
   */
  runId?: string;
  /**
   * The ticket, when the caller read it already (a broadcast's recipient, issue 10): startFlow does
   * not read it again. Its id and company must be `ticketId` and `companyId` (else it is not used).
   */
  ticket?: Pick<TicketRow, "id" | "companyId" | "contactId">;
};

/**
 * What `startFlow` reads in ONE D1 batch (issue 16/10): the ticket (unless handed in), the company's
 * published flows, the connection and the contact's phone, so starting a run costs no look-up of
 * the version and none for the run's target.
 */
type Starting = {
  published: Map<string, number>;
  routed: { connection: ConnectionRow; contact: Pick<ContactRow, "id" | "phone"> } | undefined;
  /**
   * The run's first context, read in the same batch when the ticket was handed in (its contact is
   * known before the batch); used once, by the start step of that contact's run of that flow.
   */
  context?: { contactId: string; flowId: string; connectionId: string; rows: ContextRows };
};

/**
 * Published versions compiled by this isolate, by `companyId:flowId:version`, shared by every
 * ContactSession it runs (issue 16: a new contact's object no longer reads and compiles the flow).
 * A published version is immutable; only versions the message's read batch saw published are
 * served from here, so a flow deleted or unpublished since is never started from this cache.
 */
const publishedVersions = new Map<string, CompiledFlow>();
/** Entries kept in `publishedVersions` (the oldest leaves first). */
const PUBLISHED_VERSIONS_KEPT = 500;

/** Flows connected to flows (flow connection blocks) one after another at most this many times. */
export const MAX_FLOW_CHAIN = 10;
/** Ended runs kept per contact identity. */
const ENDED_RUNS_KEPT = 20;
/**
 * An effect that failed this many times is dropped, with a warning stored on its run (shown in the
 * contact's runs), so one bad effect cannot block the outbox.
 */
export const MAX_EFFECT_ATTEMPTS = 5;
/** Delay before retrying an alarm that failed (ms). */
const OUTBOX_RETRY_MS = 2_000;
/** How long a routed message's provider id is remembered (`handled`): Meta redelivers for up to 7 days (ms). */
export const HANDLED_TTL_MS = 7 * 24 * 3600 * 1000;
/** Warnings kept per run (the newest). */
const RUN_WARNINGS_KEPT = 20;

/**
 * Delay before performing the outbox again after its head failed `attempts` times (ms): 1 s, 2 s,
 * 4 s, 8 s … capped at 60 s (issue 17). A head that never failed (an outbox left by a restart) is
 * retried after 1 s.
 */
export function effectRetryDelayMs(attempts: number): number {
  return Math.min(60_000, 1_000 * 2 ** Math.max(0, attempts - 1));
}
/** How long a reaction waits for its target message (ms); Meta redelivers for about 7 days. */
const PENDING_REACTION_TTL_MS = 7 * 24 * 3600 * 1000;

/** A row of the `outbox` table (`item`: an OutboxItem as JSON). */
type OutboxRow = { seq: number; run_id: string; item: string; attempts: number };

type RunRow = {
  id: string;
  flow_id: string;
  version: number;
  company_id: string;
  contact_id: string;
  connection_id: string;
  ticket_id: string;
  status: string;
  node_type: string | null;
  state: string;
  /** JSON RunWarning[] (null: none). */
  warnings: string | null;
  depth: number;
  created_at: number;
  updated_at: number;
};

/**
 * An outbox entry: an engine effect, the stats of a step, or a message the turn stored in D1 itself
 * and has not had published, queued ahead of the first step of the run it starts (`begin`; issue
 * 16): the send right after it takes it to the room in the same call.
 */
type OutboxItem = FlowEffect | { type: "stats"; visited: string[]; stoppedAt: string | null } | { type: "publish"; publish: StoredPublish };

/** A step computed but not yet committed. */
type Prepared = { result: StepResult; flow: CompiledFlow };

/**
 * What routing one customer message reads, fetched in ONE D1 batch before anything else (issue 16):
 * whether it is stored already, the contact its sender's identity names, that contact's open or
 * pending ticket on the
 * connection, and the company's settings routing consults (stop words, triggers, operating hours,
 * the connection's default flows, event subscriptions) and the connection's own row (which checks
 * the row the webhook route remembered: worker/pipeline/inbound.ts), with the routing epochs of the
 * company and of the sender's contact (schema/routing.ts). The session keeps the last one as its
 * routing snapshot (`RoutingSnapshot`): a later message it would route into the same open ticket
 * is routed on it without this batch, and its insert checks the epochs instead.
 */
type Preloaded = {
  seen: { id: string; ticketId: string; createdAt: number } | undefined;
  known: { identity: ContactIdentityRow; contact: ContactRow } | undefined;
  /** The company's contact with the message's phone, when `known` is empty (an imported contact). */
  byPhone: ContactRow | undefined;
  open: TicketRow | undefined;
  optOutWords: { optOutWords: string[] | null; timezone: string } | undefined;
  /** The company's published flows: flow id → its published version (issue 16: no look-up per start). */
  published: Map<string, number>;
  keywords: KeywordRow[];
  hours: HoursRow[];
  flows: ConnectionFlowsRow | null;
  subscriptions: Awaited<ReturnType<typeof subscriptionsQuery>>;
  /** members.id of the company's members online now (who a new waiting ticket is announced to). */
  online: string[];
  /** D1's row of the connection the message came on (checks a remembered route: issue 16). */
  connection: ConnectionRow | undefined;
  /** The routing epochs (schema/routing.ts) of the company and of `known`'s contact (0: no row). */
  epochs: { company: number; contact: number };
};

/**
 * The session's routing snapshot (issue 16 "reads answered from the ContactSession's own storage"):
 * the read batch of the last message it routed from D1, kept in memory while its contact had an open
 * or pending ticket on `connectionId`. A later message whose routing, decided on these reads, ends
 * in that ticket (`snapshotRoutes`) is routed without a read batch, and stored by the session
 * itself, without the ticket's room (`storeRouted`): only if no routing epoch of `guard` moved
 * since, in the insert's own statement, so the message is placed exactly as a fresh read would have
 * placed it. Epochs are kept
 * by D1 triggers on every table routing reads (migration 0010_routing_epochs), so no route needs to
 * remember to invalidate it. Anything else (a stale answer, a duplicate, an error) drops the
 * snapshot and the message is routed again from D1.
 */
type RoutingSnapshot = { connectionId: string; pre: Preloaded; guard: RoutingGuard };

/** Thrown through `route` when a message routed on the snapshot was not stored (`storeRouted`: null). */
class StaleSnapshot extends Error {}

/** The message being handled (set by `handle`, cleared after it): its preloaded reads and what they still answer. */
type Turn = {
  pre: Preloaded;
  /** The contact whose open ticket `open` is, while nothing since may have changed it (null: ask D1). */
  openContactId: string | null;
  open: TicketRow | undefined;
  /** The contact whose `last_message_at` this turn moved already (inserted with it, or by the room's batch). */
  touchedContactId: string | null;
  /** No message with this provider id was stored when the batch ran (the room may skip its look-up). */
  fresh: boolean;
  /**
   * The connection and contact this message was routed with (read or written by this turn), so the
   * effects of a run of theirs started now need no look-up (issue 16: the first reply).
   */
  routed?: { connection: ConnectionRow; contact: ContactRow };
  /** The contact this turn inserted (it has no values, campaign or tags yet), if any. */
  createdContactId?: string;
  /** Routed on the routing snapshot: the epochs its insert checks (`storeInbound`, `RoutingSnapshot`). */
  guard?: RoutingGuard;
  /**
   * The contact this turn created with its pending ticket, as the new contact's batch left them
   * (the sender's identity, the contact, the ticket's id, the contact's routing epoch read in the
   * same batch): the routing snapshot of the contact's next message (`keepCreatedSnapshot`).
   */
  created?: { identity: ContactIdentityRow; contact: ContactRow; ticketId: string; epoch: number };
  /**
   * The pending ticket inserted in the new contact's own batch (issue 16: one round trip for both),
   * not yet handed out: the first `ticketFor` of the turn answers it as created.
   */
  insertedTicket?: TicketRow;
  /** An effect was performed in this turn (the contact may have changed since it was read). */
  effected?: boolean;
  /**
   * The message this turn stored for the contact it created (`createdContactId`): its body and media
   * key, which are that contact's last message and last media in a flow's first context (issue 16).
   */
  stored?: { contactId: string; body: string; mediaKey: string | null };
  /**
   * The reads of a created contact's first context for the flow about to start, begun before the
   * message was stored so they run while it is (issue 16, `createdContextReads`).
   */
  contextReads?: { companyId: string; contactId: string; flowId: string; rows: Promise<CreatedContextRows> };
  /**
   * The message a new contact's batch stored with the contact and its ticket (issue 16: one round
   * trip for the three, not a room append after it): the row as inserted (seq 1 of `ticketId`), and
   * the ticket as the lists show it. `storeInbound` hands it to the room to publish instead of
   * appending it.
   */
  prestored?: { row: MessageRow; ticket: TicketRow; contact: ContactRow };
  /**
   * The prestored message once `storeInbound` left its publish to the run it starts (issue 16: the
   * room publishes it with the run's first reply, one call for both): `begin` queues it in the
   * outbox with the run's first step, or `flushPublish` publishes it alone.
   */
  unpublished?: StoredPublish;
};

/** A placeholder standing for a string value of a prepared query (see `prepared` in worker/lib/db.ts). */
const param = (name: string) => drizzleSql.placeholder(name) as unknown as string;

/**
 * The statements of `ContactSession.preload`, built once per drizzle instance. Placeholders:
 * companyId, connectionId, channel, from (the sender's provider id), externalId (the message's);
 * `byPhone` also phone (the message's, or null);
 */
function preloadQueries(db: Db): ReturnType<typeof buildPreloadQueries> {
  let built = preloadBuilt.get(db);
  if (!built) {
    built = buildPreloadQueries(db);
    preloadBuilt.set(db, built);
  }
  return built;
}

/** `preloadQueries`' statements by drizzle instance. */
const preloadBuilt = new WeakMap<Db, ReturnType<typeof buildPreloadQueries>>();

/** Builds and prepares the statements of `preloadQueries` for `db`. */
function buildPreloadQueries(db: Db) {
  const bySender = and(eq(contactIdentities.companyId, param("companyId")), eq(contactIdentities.channel, param("channel") as ConnectionRow["channel"]), eq(contactIdentities.externalId, param("from")));
  const senderContact = () => db.select({ id: contactIdentities.contactId }).from(contactIdentities).where(bySender);
  const companyId = param("companyId");
  // Single-table selects only: drizzle maps a batch's rows by column name, which a join repeats.
  return {
    seen: prepared(db, "preload.seen", () =>
      db
        .select({ id: messages.id, ticketId: messages.ticketId, createdAt: messages.createdAt })
        .from(messages)
        .where(and(eq(messages.connectionId, param("connectionId")), eq(messages.externalId, param("externalId"))))
        .limit(1)
        .prepare(),
    ),
    identity: prepared(db, "preload.identity", () => db.select().from(contactIdentities).where(bySender).limit(1).prepare()),
    contact: prepared(db, "preload.contact", () =>
      db
        .select()
        .from(contacts)
        .where(and(eq(contacts.companyId, companyId), inArray(contacts.id, senderContact())))
        .limit(1)
        .prepare(),
    ),
    // Only when no identity names a contact of the sender (`known` empty): a known contact's row is
    // not read twice.
    byPhone: prepared(db, "preload.by-phone", () =>
      db
        .select()
        .from(contacts)
        .where(
          and(
            eq(contacts.companyId, companyId),
            eq(contacts.phone, param("phone")),
            notExists(db.select({ id: contacts.id }).from(contacts).where(and(eq(contacts.companyId, companyId), inArray(contacts.id, senderContact())))),
          ),
        )
        .limit(1)
        .prepare(),
    ),
    open: prepared(db, "preload.open", () =>
      db
        .select()
        .from(tickets)
        .where(and(eq(tickets.companyId, companyId), inArray(tickets.contactId, senderContact()), eq(tickets.connectionId, param("connectionId")), inArray(tickets.status, ["pending", "open"])))
        .orderBy(desc(tickets.createdAt))
        .limit(1)
        .prepare(),
    ),
    company: prepared(db, "preload.company", () => db.select({ optOutWords: companies.optOutWords, timezone: companies.timezone }).from(companies).where(eq(companies.id, companyId)).limit(1).prepare()),
    published: prepared(db, "preload.published", () =>
      db.select({ id: flows.id, publishedVersion: flows.publishedVersion }).from(flows).where(and(eq(flows.companyId, companyId), isNotNull(flows.publishedVersion))).prepare(),
    ),
    keywords: prepared(db, "preload.keywords", () => activeKeywordsQuery(db, companyId).prepare()),
    hours: prepared(db, "preload.hours", () => hoursQuery(db, companyId).prepare()),
    flows: prepared(db, "preload.flows", () =>
      db.select().from(connectionFlows).where(and(eq(connectionFlows.connectionId, param("connectionId")), eq(connectionFlows.companyId, companyId))).limit(1).prepare(),
    ),
    subscriptions: prepared(db, "preload.subscriptions", () => subscriptionsQuery(db, companyId).prepare()),
    online: prepared(db, "preload.online", () => onlineMembersQuery(db, companyId).prepare()),
    // The routing epochs of the company and of the contact the sender's identity names (issue 16,
    // `RoutingSnapshot`); a scope with no row has never changed (epoch 0).
    epochs: prepared(db, "preload.epochs", () =>
      db
        .select({ scope: routingEpochs.scope, epoch: routingEpochs.epoch })
        .from(routingEpochs)
        .where(
          drizzleSql`${routingEpochs.scope} = 'company:' || ${companyId} OR ${routingEpochs.scope} IN (SELECT 'contact:' || ${contactIdentities.contactId} FROM ${contactIdentities} WHERE ${bySender})`,
        )
        .prepare(),
    ),
    connection: prepared(db, "preload.connection", () =>
      db
        .select()
        .from(connections)
        .where(and(eq(connections.id, param("connectionId")), eq(connections.companyId, companyId)))
        .limit(1)
        .prepare(),
    ),
  };
}

/** The session's `meta` table (key → text value). */
const META_TABLE = "CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)";

/** The `meta` key of the first reply in hand (worker/pipeline/first-reply.ts `FirstSendRecord`, JSON). */
const FIRST_SEND_META = "first_send";

/**
 * The version of `SESSION_TABLES` a session's storage holds once its constructor set it up, kept in
 * `meta` ('schema'): an object whose storage says so skips the tables' DDL when it starts (issue 16).
 * Bump it with every change to `SESSION_TABLES` or to the upgrades of older storage.
 */
const SESSION_SCHEMA = "1";

/**
 * Every table and index of a session's storage (see the file header) but `pending_reactions`
 * (created by the first reaction waiting for its message) and `faults` (created where faults are
 * enabled, worker/lib/faults.ts), as one script: a new object's `runs` has `warnings` at once
 * (issue 16: was an ALTER per new contact). `handled` has no index on `at`: the hourly sweep reads
 * the few rows of one contact (older objects keep theirs).
 */
const SESSION_TABLES = [
  "CREATE TABLE IF NOT EXISTS runs (id TEXT PRIMARY KEY, flow_id TEXT NOT NULL, version INTEGER NOT NULL, company_id TEXT NOT NULL, contact_id TEXT NOT NULL, connection_id TEXT NOT NULL, ticket_id TEXT NOT NULL, status TEXT NOT NULL, node_type TEXT, state TEXT NOT NULL, depth INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, warnings TEXT)",
  "CREATE INDEX IF NOT EXISTS runs_status ON runs (status, created_at)",
  "CREATE TABLE IF NOT EXISTS timers (token TEXT PRIMARY KEY, run_id TEXT NOT NULL, at INTEGER NOT NULL)",
  "CREATE INDEX IF NOT EXISTS timers_at ON timers (at)",
  "CREATE TABLE IF NOT EXISTS outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL, item TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0)",
  "CREATE TABLE IF NOT EXISTS handled (external_id TEXT PRIMARY KEY, at INTEGER NOT NULL)",
].join(";\n");

/**
 * The table of reactions waiting for their message, created by the first one (`reaction`): almost
 * no contact ever has one (issue 16: one DDL less per new contact).
 */
const PENDING_REACTIONS_TABLE =
  "CREATE TABLE IF NOT EXISTS pending_reactions (connection_id TEXT NOT NULL, target TEXT NOT NULL, emoji TEXT NOT NULL, at INTEGER NOT NULL, created_at INTEGER NOT NULL, PRIMARY KEY (connection_id, target))";

export class ContactSession extends DurableObject<AppEnv> {
  /**
   * The tail of the events being handled. Input gates only hold other calls back during storage
   * operations, not while D1 answers, so without this chain concurrent webhooks of one contact
   * interleave (two "new" tickets, two greetings).
   */
  private queue: Promise<unknown> = Promise.resolve();
  /** Compiled published versions, by `flowId:version` (immutable, so safe to keep). */
  private readonly compiled = new Map<string, CompiledFlow>();
  private draining = false;
  /** When this instance last swept expired `handled` ids (ms UTC; 0: not yet). */
  private handledSweptAt = 0;
  /** When this instance last swept expired `pending_reactions` (ms UTC; 0: not yet). */
  private reactionsSweptAt = 0;
  /** The customer message being handled (see `Turn`); null between messages. */
  private turn: Turn | null = null;
  /** The last read batch, while it can route this contact's next message (see `RoutingSnapshot`). */
  private snapshot: RoutingSnapshot | null = null;
  /** This session's publishes to the company hub (`storeRouted`), in order. */
  private hubPublishes: Promise<unknown> = Promise.resolve();
  /**
   * The stub of the company's hub `publishToHub` calls, made once per instance (issue 16: an id
   * derived and a stub made for every message); dropped after a failed publish, so the next one
   * calls through a new stub.
   */
  private hubStub: { companyId: string; stub: ReturnType<typeof hubOf> } | null = null;
  /** What the `startFlow` being handled read (see `Starting`); null otherwise. */
  private starting: Starting | null = null;
  /**
   * True once `rearm` found no timer and no outbox item and cleared the alarm (or the object is
   * new), until a step is committed (`commitNow`, the only writer of `timers` and of the outbox but
   * for `begin`'s queued publish, which clears it too): `rearm` then has nothing to look up.
   */
  private scheduleIdle = false;
  /**
   * True once `activeRun` found no run in progress, until a run is inserted or a step committed
   * (the only writes that can make a run running or waiting).
   */
  private noActiveRun = false;
  /** This instance's copy of the `meta` table (see `metaTable`); null until first read. */
  private metaRows: Map<string, string> | null = null;
  /**
   * The provider id of the contact's last message routed here (`lastInboundId`); undefined until
   * this instance routes one or looks it up.
   */
  private lastInbound: string | null | undefined = undefined;
  /**
   * Whether `pending_reactions` may hold a row: false once a look-up found the table empty, true
   * again when a reaction is kept there (only this instance writes it). Null: not known yet.
   */
  private mayHavePendingReactions: boolean | null = null;
  /**
   * How many runs this object's storage has ever held, when known (a new object starts at 0 and
   * `begin` counts each insert); null for older storage. While it is at most ENDED_RUNS_KEPT,
   * `pruneRuns` has nothing to delete and skips its statement (issue 16: 0.36 ms of a new
   * contact's reply at concurrency 20, the DELETE prepared for the first time in every new object).
   */
  private runsEverHeld: number | null = null;

  constructor(ctx: DurableObjectState, env: AppEnv) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      const started = span(env, "session.start");
      const sql = this.ctx.storage.sql;
      // One exec when the storage is current (issue 16: every object start ran thirteen).
      const found = sql
        .exec<{ v: string | null; runs: number; metaRows: number }>(
          `${META_TABLE}; SELECT (SELECT v FROM meta WHERE k = 'schema') AS v, EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'runs') AS runs, (SELECT COUNT(*) FROM meta) AS metaRows`,
        )
        .one();
      if (found.v === SESSION_SCHEMA) {
        // A fired alarm is used up; one lost in a restart is repaired from what storage says is due.
        await this.rearm();
        started();
        return;
      }
      // No `runs` table yet: a new object (nothing to upgrade, nothing due).
      const created = found.runs === 0;
      sql.exec(SESSION_TABLES);
      // Engine warnings and effects given up, kept on the run (issue 17); added to older storage.
      if (!created && !sql.exec<{ name: string }>("PRAGMA table_info(runs)").toArray().some((c) => c.name === "warnings")) {
        sql.exec("ALTER TABLE runs ADD COLUMN warnings TEXT");
      }
      // Messages stored before this table existed were routed by an older version: never again.
      const since = String(Date.now());
      sql.exec(
        "INSERT INTO meta (k, v) VALUES ('handled_since', ?), ('schema', ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v WHERE meta.k = 'schema'",
        since,
        SESSION_SCHEMA,
      );
      // An empty `meta` now holds exactly these two rows: this instance's copy needs no read.
      if (found.metaRows === 0) this.metaRows = new Map([["handled_since", since], ["schema", SESSION_SCHEMA]]);
      // A new object has no timer or outbox to re-arm for, no run and no waiting reaction (issue 16:
      // none of them looked up in its first turn); an older one's alarm is repaired.
      if (created) {
        this.scheduleIdle = true;
        this.noActiveRun = true;
        this.mayHavePendingReactions = false;
        this.runsEverHeld = 0;
      } else await this.rearm();
      started();
    });
  }

  /** Runs `task` after every event handed in before it (the contact's events stay in order). */
  private serialise<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Handles one inbound event for this contact on `connectionId`, after every event handed in
   * before it. Idempotent: the same provider message id stores nothing the second time; a reaction,
   * edit or revoke applied again leaves its target as it was. `connection`: the row the caller
   * read (not read again here); with `check`, a row the webhook route remembered for that route,
   * checked against D1 before anything is done (`stale` when it no longer holds; `handle`).
   */
  async ingest(connectionId: string, event: ContactEvent, connection?: ConnectionRow, check?: RouteCheck): Promise<IngestResult> {
    const waited = span(this.env, "session.wait-in-queue");
    return this.serialise(async () => {
      waited();
      const turn = span(this.env, "session.turn");
      try {
        return await this.handle(connectionId, event, connection, check);
      } finally {
        this.turn = null;
        const rearm = span(this.env, "session.rearm");
        await this.rearm();
        rearm();
        turn();
      }
    });
  }

  /**
   * Starts `flowId`'s published version for the contact in `ticketId` (a member's 'builder
   * started'); a run in progress is stopped first. `{ok: false}` when the flow has no published
   * version.
   */
  async startFlow(input: StartFlowInput): Promise<{ ok: true; runId: string } | { ok: false }> {
    return this.serialise(async () => {
      try {
        this.setMeta({ companyId: input.companyId, channel: input.channel, externalId: input.externalId });
        const db = getDb(this.env.DB);
        const read = span(this.env, "flow.start-reads");
        const { ticket, starting } = await this.startReads(db, input);
        read();
        if (!ticket) return { ok: false };
        this.starting = starting;
        if (input.runId && this.run(input.runId)) {
          await this.drain(db);
          return { ok: true, runId: input.runId };
        }
        const runId = await this.begin(db, { companyId: input.companyId, contactId: ticket.contactId, connectionId: input.connectionId, ticketId: ticket.id, flowId: input.flowId, depth: 0, runId: input.runId });
        await this.drain(db);
        return runId ? { ok: true, runId } : { ok: false };
      } finally {
        this.starting = null;
        await this.rearm();
      }
    });
  }

  /**
   * `startFlow`'s reads in one D1 batch: the ticket (unless `input.ticket` is the one), the
   * company's published flows (flow id → version), the connection and the ticket's contact (id and
   * phone), all filtered on `input.companyId`. Single-table selects only (drizzle maps a batch's rows
   * by column name); the contact is found through a sub-select of the ticket's contact id.
   */
  private async startReads(db: Db, input: StartFlowInput): Promise<{ ticket: Pick<TicketRow, "id" | "companyId" | "contactId"> | undefined; starting: Starting }> {
    const given = input.ticket && input.ticket.id === input.ticketId && input.ticket.companyId === input.companyId ? input.ticket : undefined;
    const publishedOf = (rows: { id: string; publishedVersion: number | null }[]) =>
      new Map(rows.flatMap((r) => (r.publishedVersion === null ? [] : [[r.id, r.publishedVersion] as const])));
    const publishedQuery = db.select({ id: flows.id, publishedVersion: flows.publishedVersion }).from(flows).where(and(eq(flows.companyId, input.companyId), isNotNull(flows.publishedVersion)));
    const connectionQuery = db.select().from(connections).where(and(eq(connections.id, input.connectionId), eq(connections.companyId, input.companyId))).limit(1);
    if (given) {
      // The contact is known: the run's first context comes in the same round trip (its first
      // query is the contact row, filtered on the company).
      const [publishedRows, connectionRows, ...context] = await db.batch([publishedQuery, connectionQuery, ...contextQueries(db, input.companyId, given.contactId, input.flowId, input.connectionId)]);
      const connection = connectionRows[0];
      const contact = context[0][0];
      return {
        ticket: given,
        starting: {
          published: publishedOf(publishedRows),
          routed: connection && contact ? { connection, contact } : undefined,
          context: { contactId: given.contactId, flowId: input.flowId, connectionId: input.connectionId, rows: context },
        },
      };
    }
    const byTicket = and(eq(tickets.id, input.ticketId), eq(tickets.companyId, input.companyId));
    const [ticketRows, publishedRows, connectionRows, contactRows] = await db.batch([
      db.select({ id: tickets.id, companyId: tickets.companyId, contactId: tickets.contactId }).from(tickets).where(byTicket).limit(1),
      publishedQuery,
      connectionQuery,
      db
        .select({ id: contacts.id, phone: contacts.phone })
        .from(contacts)
        .where(and(eq(contacts.companyId, input.companyId), inArray(contacts.id, db.select({ id: tickets.contactId }).from(tickets).where(byTicket))))
        .limit(1),
    ]);
    const ticket = ticketRows[0];
    const connection = connectionRows[0];
    const contact = contactRows[0];
    return {
      ticket,
      starting: {
        published: publishedOf(publishedRows),
        routed: connection && contact && ticket && contact.id === ticket.contactId ? { connection, contact } : undefined,
      },
    };
  }

  /** The contact's runs here, newest first (the one in progress and the last ended ones). */
  async listRuns(): Promise<RunView[]> {
    const rows = this.ctx.storage.sql.exec<RunRow>("SELECT * FROM runs ORDER BY created_at DESC LIMIT ?", ENDED_RUNS_KEPT + 1).toArray();
    return rows.map((row) => {
      const state = readState(row);
      return {
        id: row.id,
        flowId: row.flow_id,
        version: row.version,
        nodeId: state.nodeId,
        nodeType: row.node_type,
        status: state.status,
        waitingFor: state.status === "waiting" && state.wait ? state.wait.kind : null,
        since: state.since,
        error: state.error,
        warnings: row.warnings ? (JSON.parse(row.warnings) as RunWarning[]) : [],
        startedAt: row.created_at,
        updatedAt: row.updated_at,
      };
    });
  }

  /**
   * Arms `n` failures of `op` (`effect` or `alarm`) for this contact (worker/lib/faults.ts): the
   * next `n` outbox effects or alarms throw. False outside local/test (nothing is stored).
   */
  async armFaults(op: FaultOp, n: number): Promise<boolean> {
    return armFault(this.env, this.ctx.storage.sql, op, n);
  }

  /** Consumes one armed failure of `op` here (a job's fault scope, worker/lib/faults.ts). */
  async takeFault(op: FaultOp): Promise<boolean> {
    return takeArmedFault(this.env, this.ctx.storage.sql, op);
  }

  /** A member stops the run `runId`; false when there is no such run in progress here. */
  async stopRun(runId: string): Promise<boolean> {
    return this.serialise(async () => {
      try {
        const run = this.run(runId);
        if (!run || !isActive(run)) return false;
        const db = getDb(this.env.DB);
        await this.advance(db, run, { kind: "stop" });
        await this.drain(db);
        return true;
      } finally {
        await this.rearm();
      }
    });
  }

  /** Fires the due timers (delays, reply deadlines), then finishes the outbox. Idempotent. */
  override async alarm(): Promise<void> {
    await this.serialise(async () => {
      const db = getDb(this.env.DB);
      let failed = false;
      try {
        maybeFailHere(this.env, this.ctx.storage.sql, "alarm");
        // A first reply an earlier instance or a failed effect left in hand goes to its room first.
        await handOverLeftSend(this.env, this.firstReplies);
        await this.drain(db);
        const due = this.ctx.storage.sql.exec<{ token: string; run_id: string; at: number }>("SELECT token, run_id, at FROM timers WHERE at <= ? ORDER BY at", Date.now()).toArray();
        for (const timer of due) {
          const run = this.run(timer.run_id);
          if (!run || !isActive(run)) {
            this.ctx.storage.sql.exec("DELETE FROM timers WHERE token = ?", timer.token);
            continue;
          }
          await this.advance(db, run, { kind: "timer", token: timer.token }, timer.token);
          await this.drain(db);
        }
      } catch (error) {
        // Nothing is lost: the timer is still stored and the outbox still holds what was not done.
        // The retry is ours (below), a few seconds out, instead of a tight loop on a due timer.
        console.error("[contact-session] alarm failed; retrying", error);
        failed = true;
      } finally {
        // Set as late as possible (platform-limits A3).
        await this.rearm(failed ? Date.now() + OUTBOX_RETRY_MS : undefined);
      }
    });
  }

  /**
   * `given`: the connection row the caller read for this very delivery (the webhook route), so it
   * is not read again here (issue 16); read from D1 when absent. With `check`, `given` is a row
   * the webhook route remembered: a message's read batch reads the connection again and the turn
   * answers `stale` (nothing done) when D1's row no longer holds the route (deleted, renumbered);
   * any other event reads it first.
   */
  private async handle(connectionId: string, contactEvent: ContactEvent, given?: ConnectionRow, check?: RouteCheck): Promise<IngestResult> {
    const db = getDb(this.env.DB);
    const remembered = check && given && given.id === connectionId ? given : undefined;
    let connection = given && given.id === connectionId && (!remembered || contactEvent.kind === "message") ? given : await db.query.connections.findFirst({ where: eq(connections.id, connectionId) });
    if (!connection) return { status: check ? "stale" : "ignored" };
    if (remembered && contactEvent.kind !== "message" && !routeStillHolds(connection, remembered, check!)) return { status: "stale" };
    if (contactEvent.kind === "presence") return this.presence(db, connection, contactEvent);
    if (contactEvent.kind === "revoke") return this.revoke(db, connection, contactEvent);
    if (contactEvent.kind === "reaction") return this.reaction(db, connection, contactEvent);
    let event: InboundMessage = contactEvent.kind === "edit" ? contactEvent.message : contactEvent;
    if (contactEvent.kind === "edit") {
      const applied = await this.edit(db, connection, contactEvent);
      if (applied) return applied;
      // The edited message was never stored here: its new content is kept as a message of its own.
      event = { ...contactEvent.message, payload: { ...(contactEvent.message.payload ?? {}), editOf: contactEvent.targetExternalId } };
    }

    let seen: Preloaded["seen"];
    if (contactEvent.kind === "message") {
      const quick = await this.routeOnSnapshot(db, connection, event, remembered, check);
      if (quick) return quick;
      const preloaded = span(this.env, "session.preload");
      const pre = await this.preload(db, connection, event);
      preloaded();
      if (remembered) {
        if (!routeStillHolds(pre.connection, remembered, check!)) return { status: "stale" };
        // D1's row from now on (a changed token or name applies at once).
        connection = pre.connection;
      }
      this.keepSnapshot(pre, connection);
      seen = pre.seen;
      this.turn = { pre, openContactId: pre.known?.contact.id ?? null, open: pre.open, touchedContactId: null, fresh: !seen };
    } else {
      seen = await db.query.messages.findFirst({
        where: and(eq(messages.connectionId, connection.id), eq(messages.externalId, event.externalId)),
        columns: { id: true, ticketId: true, createdAt: true },
      });
    }
    if (seen && !this.mayRouteAgain(event.externalId, seen.createdAt)) return { status: "duplicate", messageId: seen.id, ticketId: seen.ticketId };
    let routed: IngestResult;
    try {
      routed = await this.route(db, connection, event, seen !== undefined);
    } catch (error) {
      // Whatever the turn did before it failed, the next message reads D1 again.
      this.snapshot = null;
      throw error;
    }
    this.keepCreatedSnapshot(connection);
    // Every path that leaves a stored message's publish to a run hands it on or publishes it; this
    // is the net under them.
    await this.flushPublish();
    this.markHandled(event.externalId);
    return routed;
  }

  /**
   * Routes a customer message on the routing snapshot (`RoutingSnapshot`) when its routing ends in
   * the snapshot's open ticket (`snapshotRoutes`): no read batch, and the room's insert checks the
   * snapshot's epochs. Null when the snapshot cannot route it, or when the room would not store it
   * (an epoch moved, or D1 held the message): the snapshot is dropped then and the caller routes
   * the message from D1, which does everything this turn did again (its writes before the insert,
   * the contact's identities and phone, and the `meta` row, are idempotent).
   */
  private async routeOnSnapshot(db: Db, given: ConnectionRow, event: InboundMessage, remembered?: ConnectionRow, check?: RouteCheck): Promise<IngestResult | null> {
    const snapshot = this.snapshot;
    if (!snapshot || snapshot.connectionId !== given.id) return null;
    const { pre } = snapshot;
    // The connection as the snapshot read it: its epoch is checked with the insert.
    const connection = pre.connection!;
    if (remembered && !routeStillHolds(connection, remembered, check!)) return null;
    if (!(await this.snapshotRoutes(db, pre, connection, event))) return null;
    const routedOn = span(this.env, "session.snapshot");
    this.turn = { pre, openContactId: pre.known!.contact.id, open: pre.open, touchedContactId: null, fresh: true, guard: snapshot.guard };
    try {
      const routed = await this.route(db, connection, event);
      await this.flushPublish();
      this.markHandled(event.externalId);
      routedOn();
      return routed;
    } catch (error) {
      this.snapshot = null;
      if (!(error instanceof StaleSnapshot)) throw error;
      span(this.env, "session.snapshot-stale")();
      this.turn = null;
      return null;
    }
  }

  /**
   * Whether `route` would place `event` in the snapshot's open ticket (step 3 of the file header) on
   * the snapshot's reads: its steps 1 to 2b in the same order, each found not to take the message.
   * Only such a message is routed on the snapshot, because every other step writes before the
   * message's insert could check the epochs. Keep it in step with `route`. (A message stored
   * already, a redelivery, is not looked for here: its insert conflicts, the room answers `stale`,
   * and the read batch's `seen` then answers it.)
   */
  private async snapshotRoutes(db: Db, pre: Preloaded, connection: ConnectionRow, event: InboundMessage): Promise<boolean> {
    const contact = pre.known?.contact;
    const open = pre.open;
    if (!contact || !open || open.contactId !== contact.id || open.connectionId !== connection.id) return false;
    if (event.type === "system") return false;
    // A stop word opts the contact out (`applyOptOut`, a write).
    if (event.type === "text" && event.body.length <= 100 && pre.optOutWords && isStopWord(event.body, pre.optOutWords.optOutWords)) return false;
    // 1. A run in progress; 1b. a flow the channel named.
    if (this.activeRun() || event.startFlowId) return false;
    // 2. A keyword trigger (even one whose flow has no published version: `route` decides that).
    if (await matchKeyword(db, connection.companyId, event.body, pre.keywords)) return false;
    // 2a. Outside operating hours (`routeOutsideHours` then looks at the ticket).
    if (!event.isGroup && (await outsideHoursAction(db, connection.companyId, connection.id, event.timestamp, pre.hours))) return false;
    // 2b. A campaign flow, unless a member has the conversation open.
    if ((await defaultFlowsOf(db, connection.companyId, connection.id, pre.flows)).campaignFlowId && open.status !== "open") return false;
    return true;
  }

  /**
   * After a turn that created its contact (no snapshot: its read batch knew no contact), keeps the
   * snapshot the contact's next message is routed on: the turn's reads with the contact, its
   * identity and its pending ticket as the new contact's batch inserted them, and the contact's epoch
   * read in that batch. Only while the turn still holds that ticket as the contact's open one (a
   * flow it started may have moved it); anything changed since moves an epoch, which the next
   * insert finds.
   */
  private keepCreatedSnapshot(connection: ConnectionRow): void {
    const turn = this.turn;
    const made = turn?.created;
    if (!turn || !made || this.snapshot || turn.openContactId !== made.contact.id || turn.open?.id !== made.ticketId) return;
    this.keepSnapshot({ ...turn.pre, known: { identity: made.identity, contact: made.contact }, open: turn.open, epochs: { company: turn.pre.epochs.company, contact: made.epoch } }, connection);
  }

  /** Keeps `pre` as the routing snapshot when its contact has an open or pending ticket on `connection` (else none). */
  private keepSnapshot(pre: Preloaded, connection: ConnectionRow): void {
    const contact = pre.known?.contact;
    this.snapshot =
      contact && pre.open && pre.connection?.id === connection.id
        ? {
            connectionId: connection.id,
            pre: { ...pre, seen: undefined },
            guard: { companyScope: `company:${connection.companyId}`, companyEpoch: pre.epochs.company, contactScope: `contact:${contact.id}`, contactEpoch: pre.epochs.contact },
          }
        : null;
  }

  /**
   * The reads of routing `event` in one read-only D1 batch (see `Preloaded`; the contact's
   * `last_message_at` moves in the room's batch that stores the message, so no write transaction
   * here: issue 16). Its statements are built once per isolate with placeholders (issue 16:
   * drizzle built them again for every message, a tenth of the inbound path's CPU).
   */
  private async preload(db: Db, connection: ConnectionRow, event: InboundMessage): Promise<Preloaded> {
    const q = preloadQueries(db);
    const values = { companyId: connection.companyId, connectionId: connection.id, channel: connection.channel, from: event.from, externalId: event.externalId };
    const [seen, identities, senderContacts, phoneContacts, open, company, publishedRows, keywordRows, hours, flowRow, subscriptions, onlineRows, connectionRows, epochRows] = await batchPrepared(db, [
      [q.seen, values],
      [q.identity, values],
      [q.contact, values],
      [q.byPhone, { ...values, phone: event.phone ?? null }],
      [q.open, values],
      [q.company, values],
      [q.published, values],
      [q.keywords, values],
      [q.hours, values],
      [q.flows, values],
      [q.subscriptions, values],
      [q.online, values],
      [q.connection, values],
      [q.epochs, values],
    ]);
    const epochOf = (scope: string) => epochRows.find((r) => r.scope === scope)?.epoch ?? 0;
    return {
      seen: seen[0],
      known: identities[0] && senderContacts[0] ? { identity: identities[0], contact: senderContacts[0] } : undefined,
      byPhone: phoneContacts[0],
      open: open[0],
      optOutWords: company[0],
      published: new Map(publishedRows.flatMap((r) => (r.publishedVersion === null ? [] : [[r.id, r.publishedVersion] as const]))),
      keywords: keywordRows,
      hours,
      flows: flowRow[0] ?? null,
      subscriptions,
      online: onlineRows.map((r) => r.id),
      connection: connectionRows[0],
      epochs: { company: epochOf(`company:${connection.companyId}`), contact: senderContacts[0] ? epochOf(`contact:${senderContacts[0].id}`) : 0 },
    };
  }

  /**
   * The contact's open or pending ticket on the connection: the one the message's batch read while
   * nothing since may have changed it, else from D1.
   */
  private async openTicket(db: Db, connection: ConnectionRow, contactId: string): Promise<TicketRow | undefined> {
    const turn = this.turn;
    if (turn && turn.openContactId === contactId) return turn.open;
    // The new contact's ticket inserted with it is not open to routing until `ticketFor` hands it out.
    if (turn?.insertedTicket && turn.insertedTicket.contactId === contactId) return undefined;
    return openTicketOf(db, connection, contactId);
  }

  /** Flows may close, open or move tickets: the preloaded open ticket no longer answers. */
  private forgetOpenTicket(): void {
    if (this.turn) this.turn.openContactId = null;
  }

  /**
   * Whether a message D1 already holds must be routed again: this object never marked it handled
   * (it died between storing the message and committing its step), and it is recent and newer than
   * the `handled` table (file header).
   */
  private mayRouteAgain(externalId: string, storedAt: number): boolean {
    const sql = this.ctx.storage.sql;
    if (sql.exec("SELECT 1 FROM handled WHERE external_id = ?", externalId).toArray().length > 0) return false;
    const since = Number(this.meta("handled_since") ?? Number.MAX_SAFE_INTEGER);
    return storedAt >= since && storedAt > Date.now() - HANDLED_TTL_MS;
  }

  /**
   * Remembers that the message `externalId` was routed (see `handled` in the file header). The
   * table's newest row is also the contact's last message (`lastInboundId`): one statement and one
   * storage commit per message (issue 16).
   */
  private markHandled(externalId: string): void {
    const sql = this.ctx.storage.sql;
    const at = Date.now();
    sql.exec("INSERT INTO handled (external_id, at) VALUES (?, ?) ON CONFLICT(external_id) DO NOTHING", externalId, at);
    // Expired ids are swept at most once an hour per instance (issue 16: not a write per message).
    if (at - this.handledSweptAt >= 3_600_000) {
      sql.exec("DELETE FROM handled WHERE at < ?", at - HANDLED_TTL_MS);
      this.handledSweptAt = at;
    }
  }

  /**
   * Routes one customer message (steps 1–5 of the file header). `again`: D1 holds it already (a
   * redelivery after a restart cut its routing short); a ticket this very message opened then does
   * not take it at step 3, so routing ends where it would have the first time.
   */
  private async route(db: Db, connection: ConnectionRow, event: InboundMessage, again = false): Promise<IngestResult> {

    const contact = await this.upsertContact(db, connection, event, this.turn?.pre);
    if (this.turn) this.turn.routed = { connection, contact };
    this.setMeta({ companyId: connection.companyId, channel: connection.channel, externalId: event.from });
    this.lastInbound = event.externalId;
    const companyId = connection.companyId;
    // A number or user-id change is an event in the conversation, not a customer's message: no
    // flow, keyword or greeting sees it.
    if (event.type === "system") return this.system(db, connection, contact, event);
    // A stop word opts the contact out (issue 10, worker/lib/opt-out.ts); the message is still stored and routed.
    if (event.type === "text") await applyOptOut(this.env, db, companyId, contact.id, event.body, this.turn?.pre.optOutWords);
    const replyId = typeof event.payload?.replyId === "string" ? event.payload.replyId : undefined;
    const reply: FlowEvent = { kind: "reply", type: event.type, body: event.body, ...(replyId ? { replyId } : {}) };

    // 1. A run in progress takes the message (or, past its reply deadline, takes its no-answer path
    //    and lets the message be routed as a new one).
    // (A contact identity is shared by the connections of one channel; a run answers on its own.)
    const active = this.activeRun();
    if (active && active.connection_id === connection.id) {
      const prepared = await this.prepare(db, active, reply);
      if (prepared?.result.accepted) {
        const { ticket, created } = await this.ticketFor(db, connection, contact, event);
        const stored = await this.storeInbound(db, connection, contact, ticket, event, created);
        if (ticket.id !== active.ticket_id) this.ctx.storage.sql.exec("UPDATE runs SET ticket_id = ? WHERE id = ?", ticket.id, active.id);
        this.commit(active, prepared, undefined, event.externalId);
        await this.drain(db);
        return { ...stored, runId: active.id };
      }
      if (prepared && prepared.result.effects.length > 0) {
        this.commit(active, prepared);
        await this.drain(db);
      }
    }

    // 1b. A flow the channel named for this message (issue 15: an Instagram story mention, a DM
    //     answering a comment's private reply), unless a member has the conversation open.
    const named = event.startFlowId;
    if (named && (await this.openTicket(db, connection, contact.id))?.status !== "open" && (await this.version(db, companyId, named, null))) {
      return this.startFromMessage(db, connection, contact, event, named);
    }

    // 2. A keyword trigger.
    const keyword = await matchKeyword(db, companyId, event.body, this.turn?.pre.keywords);
    if (keyword) {
      const version = await this.version(db, companyId, keyword.flowId, null);
      if (version) {
        this.readContextAhead(db, companyId, contact.id, keyword.flowId);
        return this.startFromMessage(db, connection, contact, event, keyword.flowId, () => countKeywordMessage(db, companyId, keyword.id));
      }
    }

    // Outside operating hours (issue 12, worker/lib/operating-hours-inbound.ts): the conversation
    // gets the outside-hours message or flow once, instead of the default flow and greeting.
    const afterHours = await routeOutsideHours(this.env, db, { connection, contact, event }, {
      ticketFor: () => this.ticketFor(db, connection, contact, event),
      store: (ticket, created) => this.storeInbound(db, connection, contact, ticket, event, created),
      startFlow: async (ticket, flowId) => {
        const runId = await this.begin(db, { companyId, contactId: contact.id, connectionId: connection.id, ticketId: ticket.id, flowId, depth: 0, handles: event.externalId });
        await this.drain(db);
        return runId;
      },
    }, this.turn?.pre.hours);
    if (afterHours) return afterHours;
    const preFlows = this.turn ? this.turn.pre.flows : undefined;

    // 2b. The first reply to a broadcast sent in the last 24 h goes to the connection's campaign
    //     flow (issue 10), unless a member has the conversation open.
    const campaignFlowId = (await defaultFlowsOf(db, companyId, connection.id, preFlows)).campaignFlowId;
    if (
      campaignFlowId &&
      (await this.openTicket(db, connection, contact.id))?.status !== "open" &&
      (await this.version(db, companyId, campaignFlowId, null)) &&
      (await claimBroadcastReply(db, companyId, contact.id, connection.id, Date.now()))
    ) {
      return this.startFromMessage(db, connection, contact, event, campaignFlowId);
    }

    // 3. The open or pending ticket.
    const existing = await this.openTicket(db, connection, contact.id);
    if (existing && !(again && (await openedBy(db, existing, event.externalId)))) return this.storeInbound(db, connection, contact, existing, event, false);

    // 4. The connection's default flow.
    const flowId = defaultFlowFor(await defaultFlowsOf(db, companyId, connection.id, preFlows), event);
    if (flowId && (await this.version(db, companyId, flowId, null))) {
      this.readContextAhead(db, companyId, contact.id, flowId);
      return this.startFromMessage(db, connection, contact, event, flowId);
    }

    // 5. A new pending ticket, with the greeting.
    const { ticket, created } = await this.ticketFor(db, connection, contact, event);
    const stored = await this.storeInbound(db, connection, contact, ticket, event, created);
    if (created && connection.greetingMessage.trim()) {
      await sendToTicket(this.env, { ticket, connection, recipientExternalId: event.from, recipientPhone: contact.phone }, { type: "text", body: connection.greetingMessage }, null);
    }
    return stored;
  }

  /**
   * Routing's end when the message starts `flowId` (steps 1b, 2, 2b and 4 of the file header): the
   * message is stored in its ticket (`ticketFor`), `beforeBegin` runs (a keyword's count), and the
   * run begins with its first step, the message marked handled with it; then its effects are
   * performed. A message stored with its new contact is published by the room with the run's first
   * send (`storeInbound`'s `deferPublish`; issue 16), or alone when the run does not take it.
   */
  private async startFromMessage(db: Db, connection: ConnectionRow, contact: ContactRow, event: InboundMessage, flowId: string, beforeBegin?: () => Promise<unknown>): Promise<IngestResult> {
    const companyId = connection.companyId;
    const { ticket, created } = await this.ticketFor(db, connection, contact, event);
    const stored = await this.storeInbound(db, connection, contact, ticket, event, created, true);
    await beforeBegin?.();
    const runId = await this.begin(db, { companyId, contactId: contact.id, connectionId: connection.id, ticketId: ticket.id, flowId, depth: 0, handles: event.externalId });
    await this.flushPublish();
    await this.drain(db);
    return { ...stored, ...(runId ? { runId } : {}) };
  }

  /**
   * Publishes the turn's `unpublished` message through its room (`publishStored`) when nothing took
   * it over; a no-op otherwise.
   */
  private async flushPublish(): Promise<void> {
    const publish = this.turn?.unpublished;
    if (!publish) return;
    this.turn!.unpublished = undefined;
    const published = span(this.env, "session.room-publish");
    await roomOf(this.env, publish.row.ticketId).publishStored(publish.row, publish.ticket, publish.alsoPublish);
    published();
  }

  /**
   * Stores the inbound message in `ticket` (after its media), publishing a ticket just created. An
   * ad `referral` is kept on the contact (the latest) and on the ticket (the one it began with); a
   * reaction that waited for this message is applied to it. A message the new contact's batch
   * stored already (`Turn.prestored`) is only published by the room; with `deferPublish` (a run
   * starts next) not even that: it is left in `Turn.unpublished` for the run's first send.
   */
  private async storeInbound(db: Db, connection: ConnectionRow, contact: ContactRow, ticket: TicketRow, event: InboundMessage, created: boolean, deferPublish = false): Promise<IngestResult> {
    if (event.referral) {
      await db.batch([
        db.update(contacts).set({ referral: event.referral, updatedAt: Date.now() }).where(and(eq(contacts.id, contact.id), eq(contacts.companyId, connection.companyId))),
        db
          .update(tickets)
          .set({ referral: event.referral, updatedAt: Date.now() })
          .where(and(eq(tickets.id, ticket.id), eq(tickets.companyId, connection.companyId), isNull(tickets.referral))),
      ]);
    }
    // A new ticket's `ticket.waiting` alert for the online members goes to the hub with the room's
    // publish of this message (issue 16: one hub call, not a third hop awaited in this turn).
    const online = this.turn?.pre.online;
    const waiting = created && online && online.length > 0 ? waitingTicketEvent(ticket, contact.name, online) : undefined;
    const prestored = this.turn?.prestored;
    if (prestored && prestored.row.ticketId === ticket.id && prestored.row.externalId === event.externalId) {
      // Stored already, in the new contact's own batch (`upsertContact`): the room publishes it.
      this.turn!.prestored = undefined;
      const publish = storedPublish(connection, prestored, waiting);
      if (deferPublish) {
        // With the run's first send, one room call for both (`begin`, `drain`).
        this.turn!.unpublished = publish;
        const [message] = await presentMessages(this.env, db, [publish.row]);
        return this.afterStored(db, connection, contact, ticket, event, created, { message: message!, duplicate: false }, online, waiting, null);
      }
      const published = span(this.env, "session.room-publish");
      const result = await roomOf(this.env, ticket.id).publishStored(publish.row, publish.ticket, publish.alsoPublish);
      published();
      return this.afterStored(db, connection, contact, ticket, event, created, result, online, waiting, null);
    }
    const media = await this.storeInboundMedia(connection, event);
    const quoted = event.quotedExternalId
      ? await db.query.messages.findFirst({
          where: and(eq(messages.connectionId, connection.id), eq(messages.externalId, event.quotedExternalId)),
          columns: { id: true },
        })
      : undefined;
    const appended = span(this.env, "session.room-append");
    const input = inboundInput(connection, contact.id, ticket.id, event, media, quoted?.id ?? null);
    // The contact's `last_message_at` moves in the message's own batch (issue 16: the message's read
    // batch writes nothing), unless this turn inserted the contact with this message's time.
    const touchContact = this.turn?.touchedContactId !== contact.id ? { contactId: contact.id, at: event.timestamp } : undefined;
    // Routed on the snapshot: stored here, only if its epochs hold (`routeOnSnapshot` routes it
    // again from D1 otherwise, and a duplicate too, which the read batch's `seen` then answers).
    const guard = this.turn?.guard;
    let result: AppendResult;
    if (guard) {
      const stored = await this.storeRouted(db, input, touchContact, guard);
      if (!stored) throw new StaleSnapshot();
      result = stored;
    } else {
      result = await roomOf(this.env, ticket.id).append(input, {
        fresh: this.turn?.fresh === true,
        // D1 held this message already (routed again: an earlier attempt died after storing it,
        // maybe before its publish): the room publishes the stored row again (issue 16).
        ...(this.turn && !this.turn.fresh ? { republish: true } : {}),
        // The ticket was inserted by this turn, so the room need not look for earlier messages.
        newTicket: created,
        ...(waiting ? { alsoPublish: waiting } : {}),
        ...(touchContact ? { touchContact } : {}),
      });
    }
    appended();
    return this.afterStored(db, connection, contact, ticket, event, created, result, online, waiting, media.key);
  }

  /**
   * Stores a customer's message routed on the routing snapshot itself, without its ticket's room
   * (issue 16: one object call fewer per message; the room stays the writer of everything else).
   * One D1 batch (`insertMessage`): the message with the seq after the ticket's highest, computed by
   * D1 (`seq: "next"`; `messages_ticket_seq_uq` keeps it apart from the room's), only if no epoch
   * of `guard` moved and D1 does not hold the message yet; the ticket's list entry; the contact's
   * `last_message_at` (`touch`, ms UTC); the list entry read back. The message and its list entry
   * then go to the company's hub (`publishToHub`). Null when nothing was stored: the caller routes
   * the message again from D1.
   */
  private async storeRouted(db: Db, input: AppendInput, touch: { contactId: string; at: number } | undefined, guard: RoutingGuard): Promise<AppendResult | null> {
    const at = Date.now();
    // `seq` is D1's (the insert computes it); 0 until the insert answers it.
    const row: MessageRow = { ...input, id: input.id ?? newId(), seq: 0, createdAt: at, updatedAt: at };
    const stored = await insertMessage(db, row, { seq: "next", routing: guard, ...(touch ? { touch } : {}), at });
    if (!stored.inserted) return null;
    const [message] = await presentMessages(this.env, db, [{ ...row, seq: stored.seq }]);
    if (stored.entry) this.publishToHub(row, messageGroups(row.ticketId, { type: "message.created", message: message! }, presentTicketListRow(stored.entry)), message!);
    return { message: message!, duplicate: false };
  }

  /**
   * Publishes a customer message this session stored itself (`storeRouted`) to the company's hub:
   * `groups` (the message, its ticket's list entry, anything that goes with them), after this
   * session's earlier publishes and in the background, as a room's are; the hub hands `message`
   * to the ticket's room when a member has it open (`CompanyHub.publishMessage`). A failure is
   * logged, never thrown: the message is stored.
   */
  private publishToHub(row: MessageRow, groups: HubGroup[], message: MessageAnswer): void {
    if (this.hubStub?.companyId !== row.companyId) this.hubStub = { companyId: row.companyId, stub: hubOf(this.env, row.companyId) };
    const held = this.hubStub;
    const relay = { ticketId: row.ticketId, message };
    this.hubPublishes = this.hubPublishes
      .then(() => held.stub.publishMessage(groups, relay))
      .catch((error: unknown) => {
        if (this.hubStub === held) this.hubStub = null;
        console.error("[contact-session] hub publish failed", error);
      });
    this.ctx.waitUntil(this.hubPublishes);
  }

  /**
   * What follows a message's store in `storeInbound`: the turn's notes, the waiting alert when the
   * room's publish did not carry it, a reaction that waited for it, the event subscriptions and a
   * rejected event's record. `mediaKey`: the stored media's R2 key, or null.
   */
  private async afterStored(
    db: Db,
    connection: ConnectionRow,
    contact: ContactRow,
    ticket: TicketRow,
    event: InboundMessage,
    created: boolean,
    result: AppendResult,
    online: string[] | undefined,
    waiting: HubGroup | undefined,
    mediaKey: string | null,
  ): Promise<IngestResult> {
    if (this.turn) this.turn.touchedContactId = contact.id;
    // A contact this turn created has this one message: its last message and media (issue 16).
    if (this.turn && !result.duplicate && this.turn.createdContactId === contact.id) this.turn.stored = { contactId: contact.id, body: event.body, mediaKey };
    const after = span(this.env, "session.after-append");
    // A ticket just created reaches the hub's lists with its first message: the room's publish of
    // the message carries the ticket's list entry read after the insert (issue 16: no second
    // `ticket.updated`, no extra read and hop before the reply).
    const announced = span(this.env, "session.announce-waiting");
    // Only members who are online are alerted about a conversation waiting (issue 12 "Online status").
    // (The room publishes `waiting` only with a stored message: a duplicate's ticket is announced here.)
    if (created && (!waiting || result.duplicate)) await announceWaitingTicket(this.env, db, connection.companyId, ticket, contact.name, online);
    announced();
    if (!result.duplicate) await this.applyPendingReaction(connection, ticket.id, result.message.id, event.externalId);
    // Outbound event subscriptions (worker/lib/event-subscriptions.ts); emitEvent never throws.
    const subscriptions = this.turn?.pre.subscriptions;
    if (created) await emitEvent(this.env, connection.companyId, "ticket.created", { ticket: { id: ticket.id, contactId: contact.id, connectionId: connection.id, status: ticket.status, createdAt: ticket.createdAt } }, subscriptions);
    if (!result.duplicate) {
      const m = result.message;
      await emitEvent(this.env, connection.companyId, "message.received", {
        message: { id: m.id, ticketId: ticket.id, contactId: contact.id, connectionId: connection.id, type: m.type, body: m.body, sentAt: m.sentAt },
        contact: { id: contact.id, name: contact.name, phone: contact.phone },
      }, subscriptions);
    }
    if (!result.duplicate && event.rejected) {
      await keepRejected(this.env, db, { companyId: connection.companyId, connectionId: connection.id, channel: connection.channel, ...event.rejected });
    }
    after();
    return { status: result.duplicate ? "duplicate" : "stored", messageId: result.message.id, ticketId: ticket.id };
  }

  /** A reaction that arrived before `externalId` was stored (this contact's), applied now. */
  private async applyPendingReaction(connection: ConnectionRow, ticketId: string, messageId: string, externalId: string): Promise<void> {
    const sql = this.ctx.storage.sql;
    // Almost no contact has a waiting reaction: an empty table is known once per instance, not
    // looked up for every message (issue 16).
    this.mayHavePendingReactions ??=
      sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'pending_reactions'").toArray().length > 0 &&
      sql.exec("SELECT 1 FROM pending_reactions LIMIT 1").toArray().length > 0;
    if (!this.mayHavePendingReactions) return;
    const now = Date.now();
    // Expired reactions are swept at most once an hour per instance (issue 16: not a write per
    // message); the look-up ignores them meanwhile.
    if (now - this.reactionsSweptAt >= 3_600_000) {
      sql.exec("DELETE FROM pending_reactions WHERE created_at < ?", now - PENDING_REACTION_TTL_MS);
      this.reactionsSweptAt = now;
    }
    const pending = sql
      .exec<{ emoji: string; at: number }>(
        "SELECT emoji, at FROM pending_reactions WHERE connection_id = ? AND target = ? AND created_at >= ?",
        connection.id,
        externalId,
        now - PENDING_REACTION_TTL_MS,
      )
      .toArray()[0];
    if (!pending) return;
    // The message reaches the screens before its reaction.
    await this.flushPublish();
    await roomOf(this.env, ticketId).updateMessage(connection.companyId, ticketId, messageId, { kind: "reaction", from: "contact", emoji: pending.emoji, at: pending.at });
    sql.exec("DELETE FROM pending_reactions WHERE connection_id = ? AND target = ?", connection.id, externalId);
  }

  /** The message of this connection with provider id `externalId` (either direction). */
  private async target(db: Db, connection: ConnectionRow, externalId: string) {
    return db.query.messages.findFirst({
      where: and(eq(messages.connectionId, connection.id), eq(messages.companyId, connection.companyId), eq(messages.externalId, externalId)),
      columns: { id: true, ticketId: true, direction: true, contactId: true },
    });
  }

  /**
   * The customer's reaction: shown on its target message (theirs or ours), one per side, the newer
   * replacing the older, an empty emoji removing it; no bubble, no unread count. A reaction to a
   * message not stored yet waits here for it and is kept as a rejected event meanwhile.
   */
  private async reaction(db: Db, connection: ConnectionRow, event: InboundReaction): Promise<IngestResult> {
    const target = await this.target(db, connection, event.targetExternalId);
    if (target) {
      await roomOf(this.env, target.ticketId).updateMessage(connection.companyId, target.ticketId, target.id, { kind: "reaction", from: "contact", emoji: event.emoji, at: event.timestamp });
      return { status: "stored", messageId: target.id, ticketId: target.ticketId };
    }
    const sql = this.ctx.storage.sql;
    sql.exec(PENDING_REACTIONS_TABLE);
    const known = sql.exec<{ at: number }>("SELECT at FROM pending_reactions WHERE connection_id = ? AND target = ?", connection.id, event.targetExternalId).toArray()[0];
    // The same (or an older) reaction again: Meta's redelivery; kept once.
    if (known && known.at >= event.timestamp) return { status: "duplicate" };
    this.mayHavePendingReactions = true;
    sql.exec(
      "INSERT INTO pending_reactions (connection_id, target, emoji, at, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT(connection_id, target) DO UPDATE SET emoji = excluded.emoji, at = excluded.at",
      connection.id,
      event.targetExternalId,
      event.emoji,
      event.timestamp,
      Date.now(),
    );
    await keepRejected(this.env, db, {
      companyId: connection.companyId,
      connectionId: connection.id,
      channel: connection.channel,
      reason: "reaction_target_unknown",
      detail: `A reaction ${event.emoji ? `(${event.emoji}) ` : "removed "}to message ${event.targetExternalId}, which is not stored; it is applied if the message arrives.`,
      payload: event.raw ?? JSON.stringify(event),
    });
    return { status: "rejected" };
  }

  /** The customer edited their message: the target shows the new text with an "edited" mark. Null when the target is unknown. */
  private async edit(db: Db, connection: ConnectionRow, event: InboundEdit): Promise<IngestResult | null> {
    const target = await this.target(db, connection, event.targetExternalId);
    if (!target || target.direction !== "in") return null;
    await roomOf(this.env, target.ticketId).updateMessage(connection.companyId, target.ticketId, target.id, { kind: "edit", body: event.message.body, at: event.timestamp });
    return { status: "stored", messageId: target.id, ticketId: target.ticketId };
  }

  /**
   * A `system` event (the customer changed number or user id): the contact is also known by the new
   * identity (and phone, unless another contact has it), and the event is shown in the contact's
   * open ticket on this connection, else its latest one, else a new pending ticket. Not unread.
   */
  private async system(db: Db, connection: ConnectionRow, contact: ContactRow, event: InboundMessage): Promise<IngestResult> {
    const change = event.identityChange;
    if (change) {
      const at = Date.now();
      await db
        .insert(contactIdentities)
        .values({ id: newId(), companyId: connection.companyId, contactId: contact.id, channel: connection.channel, externalId: change.externalId, createdAt: at })
        .onConflictDoNothing();
      if (change.phone && change.phone !== contact.phone) {
        try {
          await db.update(contacts).set({ phone: change.phone, updatedAt: at }).where(and(eq(contacts.id, contact.id), eq(contacts.companyId, connection.companyId)));
        } catch (error) {
          // Another contact of the company has the new number: the identity still joins this one.
          if (!isUniqueViolation(error)) throw error;
        }
      }
      this.setMeta({ companyId: connection.companyId, channel: connection.channel, externalId: change.externalId });
    }
    const open = await this.openTicket(db, connection, contact.id);
    const latest =
      open ??
      (await db.query.tickets.findFirst({
        where: and(eq(tickets.companyId, connection.companyId), eq(tickets.contactId, contact.id), eq(tickets.connectionId, connection.id)),
        orderBy: desc(tickets.createdAt),
      }));
    if (latest) return this.storeInbound(db, connection, contact, latest, event, false);
    const { ticket, created } = await this.ticketFor(db, connection, contact, event);
    return this.storeInbound(db, connection, contact, ticket, event, created);
  }

  // -------------------------------------------------------------------------------------------
  // Runs
  // -------------------------------------------------------------------------------------------

  /**
   * Writes the `meta` rows that differ from `meta` (a message changes none once its contact's first
   * is routed), compared with this instance's copy of the table (`metaRows`), so a message reads
   * nothing here (issue 16: was a SELECT of the table per message), in one statement.
   */
  private setMeta(meta: { companyId: string; channel: string; externalId: string }): void {
    const current = this.metaTable();
    const changed = Object.entries(meta).filter((entry) => current.get(entry[0]) !== entry[1]);
    if (changed.length === 0) return;
    for (const [k, v] of changed) current.set(k, v);
    // One statement for every changed row (a new contact's first message writes three).
    this.ctx.storage.sql.exec(`INSERT INTO meta (k, v) VALUES ${changed.map(() => "(?, ?)").join(", ")} ON CONFLICT(k) DO UPDATE SET v = excluded.v`, ...changed.flat());
  }

  /**
   * The provider id of the contact's last message routed by this object (the typing indicator's
   * `message_id`, WhatsApp Cloud API): the one this instance routed last, else the newest `handled`
   * row (kept HANDLED_TTL_MS), else the `meta` row an older version wrote; null when none.
   */
  private lastInboundId(): string | null {
    if (this.lastInbound === undefined) {
      const newest = this.ctx.storage.sql.exec<{ external_id: string }>("SELECT external_id FROM handled ORDER BY at DESC, rowid DESC LIMIT 1").toArray()[0];
      this.lastInbound = newest?.external_id ?? this.meta("lastInbound");
    }
    return this.lastInbound;
  }

  /**
   * This object's part in a new contact's first reply (worker/pipeline/first-reply.ts): the record
   * in hand kept in `meta` ('first_send'), the lease alarm (never moving an earlier alarm later;
   * `rearm` puts the alarm right once the turn ends), durable writes and its armed `send` faults.
   */
  private readonly firstReplies: FirstReplyStore = {
    read: () => {
      const value = this.metaTable().get(FIRST_SEND_META);
      return value ? (JSON.parse(value) as FirstSendRecord) : null;
    },
    write: (record) => {
      const table = this.metaTable();
      if (record) {
        const value = JSON.stringify(record);
        this.ctx.storage.sql.exec("INSERT INTO meta (k, v) VALUES (?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v", FIRST_SEND_META, value);
        table.set(FIRST_SEND_META, value);
      } else if (table.has(FIRST_SEND_META)) {
        this.ctx.storage.sql.exec("DELETE FROM meta WHERE k = ?", FIRST_SEND_META);
        table.delete(FIRST_SEND_META);
      }
    },
    leaseAlarm: async (at) => {
      const current = await this.ctx.storage.getAlarm();
      if (current === null || current > at) await this.ctx.storage.setAlarm(at);
      this.scheduleIdle = false;
    },
    sync: () => this.ctx.storage.sync(),
    sendFault: () => takeArmedFault(this.env, this.ctx.storage.sql, "send"),
  };

  /** Stores and sends a new contact's first reply from this object (`Carried.firstSend`). */
  private readonly firstSender: FirstSender = (input, outbound, recipient, connection, stats, publish) =>
    sendFirstReply(this.env, this.firstReplies, input, outbound, recipient, connection, stats, publish);

  /** One `meta` value (see the file header), from this instance's copy of the table. */
  private meta(k: "companyId" | "channel" | "externalId" | "lastInbound" | "handled_since"): string | null {
    return this.metaTable().get(k) ?? null;
  }

  /**
   * This instance's copy of the `meta` table (key → value), read once per instance: only
   * `setMeta`, `firstReplies` and the constructor (before any read) write the table, outside any
   * transaction that could roll back.
   */
  private metaTable(): Map<string, string> {
    this.metaRows ??= new Map(this.ctx.storage.sql.exec<{ k: string; v: string }>("SELECT k, v FROM meta").toArray().map((r) => [r.k, r.v]));
    return this.metaRows;
  }

  private run(id: string): RunRow | undefined {
    return this.ctx.storage.sql.exec<RunRow>("SELECT * FROM runs WHERE id = ?", id).toArray()[0];
  }

  /** The run in progress (running or waiting), if any; not looked up while `noActiveRun` holds. */
  private activeRun(): RunRow | undefined {
    if (this.noActiveRun) return undefined;
    const row = this.ctx.storage.sql.exec<RunRow>("SELECT * FROM runs WHERE status IN ('running', 'waiting') ORDER BY created_at DESC LIMIT 1").toArray()[0];
    this.noActiveRun = row === undefined;
    return row;
  }

  /**
   * A published version of a flow, compiled once per object. `version` null: the newest, which
   * while a message is handled is the one its read batch saw published (then compiled once per
   * isolate, see `publishedVersions`), else read from D1.
   */
  private async version(db: Db, companyId: string, flowId: string, version: number | null): Promise<{ version: number; flow: CompiledFlow } | null> {
    const published = this.turn?.pre.published ?? this.starting?.published;
    if (version === null && published) {
      const wanted = published.get(flowId);
      if (wanted === undefined) return null;
      const key = `${companyId}:${flowId}:${wanted}`;
      const shared = publishedVersions.get(key);
      if (shared) {
        this.compiled.set(`${flowId}:${wanted}`, shared);
        return { version: wanted, flow: shared };
      }
      const loading = span(this.env, "flow.load-version");
      const loaded = await loadVersion(db, companyId, flowId, wanted);
      loading();
      if (!loaded) return null;
      if (publishedVersions.size >= PUBLISHED_VERSIONS_KEPT) publishedVersions.delete(publishedVersions.keys().next().value!);
      publishedVersions.set(key, loaded.compiled);
      this.compiled.set(`${flowId}:${wanted}`, loaded.compiled);
      return { version: wanted, flow: loaded.compiled };
    }
    if (version !== null) {
      const cached = this.compiled.get(`${flowId}:${version}`);
      if (cached) return { version, flow: cached };
    }
    const loading = span(this.env, "flow.load-version");
    const loaded = await loadVersion(db, companyId, flowId, version);
    loading();
    if (!loaded) return null;
    this.compiled.set(`${flowId}:${loaded.version}`, loaded.compiled);
    return { version: loaded.version, flow: loaded.compiled };
  }

  /**
   * Starts a run of `flowId`'s published version in `ticketId`, stopping the run in progress
   * first, and commits its first step. Answers the run id, or null when the flow has no published
   * version. A chain of flow connections deeper than MAX_FLOW_CHAIN is refused with a failed run.
   */
  private async begin(
    db: Db,
    input: { companyId: string; contactId: string; connectionId: string; ticketId: string; flowId: string; depth: number; handles?: string; runId?: string },
  ): Promise<string | null> {
    const loaded = await this.version(db, input.companyId, input.flowId, null);
    if (!loaded) return null;
    this.forgetOpenTicket();
    const active = this.activeRun();
    if (active) await this.advance(db, active, { kind: "stop" });
    const at = Date.now();
    const id = input.runId ?? newId();
    const state: FlowRunState = initialRunState();
    if (input.depth > MAX_FLOW_CHAIN) {
      Object.assign(state, {
        status: "failed",
        startedAt: at,
        updatedAt: at,
        error: { code: "loop_guard", message: `Flows were connected to each other more than ${MAX_FLOW_CHAIN} times in a row; the run was stopped.`, nodeId: null },
      });
    }
    const row: RunRow = {
      id,
      flow_id: input.flowId,
      version: loaded.version,
      company_id: input.companyId,
      contact_id: input.contactId,
      connection_id: input.connectionId,
      ticket_id: input.ticketId,
      status: state.status,
      node_type: null,
      state: JSON.stringify(state),
      warnings: null,
      depth: input.depth,
      created_at: at,
      updated_at: at,
    };
    const insert = () => {
      this.noActiveRun = false;
      if (this.runsEverHeld !== null) this.runsEverHeld += 1;
      return this.ctx.storage.sql.exec(
        "INSERT INTO runs (id, flow_id, version, company_id, contact_id, connection_id, ticket_id, status, node_type, state, depth, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?)",
        row.id,
        row.flow_id,
        row.version,
        row.company_id,
        row.contact_id,
        row.connection_id,
        row.ticket_id,
        row.status,
        row.state,
        row.depth,
        at,
        at,
      );
    };
    const prepared = state.status === "running" ? await this.prepare(db, row, { kind: "start" }) : null;
    maybeFailHere(this.env, this.ctx.storage.sql, "step");
    // The run, its first step and the message it answers are stored together: a restart leaves all
    // of them or none (then the message's redelivery starts the run; file header, `handled`).
    // The message's own publish, when `storeInbound` left it to this run, goes first in the outbox,
    // committed with the step: a restart after this finishes it from the outbox, one before leaves
    // the message to its redelivery, which is routed again and publishes it (issue 16).
    const unpublished = input.handles && this.turn?.unpublished?.row.ticketId === input.ticketId ? this.turn.unpublished : undefined;
    this.ctx.storage.transactionSync(() => {
      insert();
      if (unpublished) this.ctx.storage.sql.exec("INSERT INTO outbox (run_id, item) VALUES (?, ?)", id, JSON.stringify({ type: "publish", publish: unpublished } satisfies OutboxItem));
      if (prepared && (prepared.result.accepted || prepared.result.effects.length > 0)) this.commitNow(row, prepared, undefined, input.handles);
      else if (input.handles) this.markHandled(input.handles);
    });
    if (unpublished) {
      this.turn!.unpublished = undefined;
      // The outbox is no longer empty (see `rearm`).
      this.scheduleIdle = false;
    }
    this.pruneRuns();
    // The flow or the contact vanished while preparing: the stored run is failed with the reason.
    if (state.status === "running" && !prepared) await this.prepare(db, this.run(id)!, { kind: "start" });
    return id;
  }

  /**
   * What the message being handled holds already for the first context of `run` (issue 16): its
   * routed contact and connection and the company's time zone from its read batch; only for a
   * start, before any effect of this turn ran. Undefined otherwise (everything is read).
   */
  private knownContext(run: RunRow, event: FlowEvent): KnownContext | undefined {
    const turn = this.turn;
    const routed = turn?.routed;
    const zone = turn?.pre.optOutWords;
    if (event.kind !== "start" || !turn || turn.effected || !routed || !zone) return undefined;
    if (routed.contact.id !== run.contact_id || routed.contact.companyId !== run.company_id) return undefined;
    if (routed.connection.id !== run.connection_id || routed.connection.companyId !== run.company_id) return undefined;
    const created = turn.createdContactId === run.contact_id;
    const stored = created && turn.stored?.contactId === run.contact_id ? { body: turn.stored.body, mediaKey: turn.stored.mediaKey } : undefined;
    const ahead = turn.contextReads;
    const prefetched = stored && ahead && ahead.companyId === run.company_id && ahead.contactId === run.contact_id && ahead.flowId === run.flow_id ? ahead.rows : undefined;
    // Used once: a later start (a connected flow) reads its own.
    if (prefetched) turn.contextReads = undefined;
    return { contact: routed.contact, timezone: zone.timezone, channel: routed.connection.channel, created, ...(stored ? { stored } : {}), ...(prefetched ? { prefetched } : {}) };
  }

  /**
   * The flow a new contact's message most likely starts, for reading its first context ahead: the
   * connection's default flow for the message (step 4 of the file header) when the message's read
   * batch saw it published; null otherwise (then nothing is read ahead).
   */
  private async likelyFirstFlow(db: Db, connection: ConnectionRow, event: InboundMessage): Promise<string | null> {
    const pre = this.turn?.pre;
    if (!pre) return null;
    const flowId = defaultFlowFor(await defaultFlowsOf(db, connection.companyId, connection.id, pre.flows), event);
    return flowId && pre.published.has(flowId) ? flowId : null;
  }

  /**
   * Starts the reads of the first context of `flowId` for `contactId` when this turn created that
   * contact (`createdContextReads`: its fields and the flow's rotary counters), so the D1 round trip
   * runs while the message is stored instead of after it (issue 16). A failure surfaces where the
   * context is built (never as an unhandled rejection).
   */
  private readContextAhead(db: Db, companyId: string, contactId: string, flowId: string): void {
    const turn = this.turn;
    if (!turn || turn.createdContactId !== contactId || turn.effected) return;
    const read = turn.contextReads;
    // Read already, with the new contact's insert (`likelyFirstFlow`).
    if (read && read.companyId === companyId && read.contactId === contactId && read.flowId === flowId) return;
    const rows = createdContextReads(db, companyId, flowId);
    rows.catch(() => undefined);
    turn.contextReads = { companyId, contactId, flowId, rows };
  }

  /** Computes one step of `run` (pure; nothing stored). Null when the flow or contact is gone (the run is failed). */
  private async prepare(db: Db, run: RunRow, event: FlowEvent): Promise<Prepared | null> {
    const loaded = await this.version(db, run.company_id, run.flow_id, run.version);
    const building = span(this.env, "flow.context");
    // A start whose context `startFlow` read with its other reads (see `Starting`) uses it, once.
    const early = this.starting?.context;
    const mine = event.kind === "start" && early && early.contactId === run.contact_id && early.flowId === run.flow_id && early.connectionId === run.connection_id ? early : undefined;
    if (mine) this.starting!.context = undefined;
    const context = !loaded
      ? null
      : mine
        ? await contextOf(this.env, db, mine.rows, Date.now(), run.connection_id)
        : await buildContext(this.env, db, run.company_id, run.contact_id, run.flow_id, Date.now(), run.connection_id, this.knownContext(run, event));
    building();
    if (!loaded || !context) {
      const state = readState(run);
      if (state.status === "waiting" || state.status === "running") {
        const at = Date.now();
        const failed: FlowRunState = {
          ...state,
          status: "failed",
          wait: null,
          queue: [],
          updatedAt: at,
          error: { code: "missing_block", message: loaded ? "The contact no longer exists." : `Version ${run.version} of the flow no longer exists.`, nodeId: state.nodeId },
        };
        this.ctx.storage.transactionSync(() => {
          this.ctx.storage.sql.exec("UPDATE runs SET status = ?, state = ?, updated_at = ? WHERE id = ?", failed.status, JSON.stringify(failed), at, run.id);
          this.ctx.storage.sql.exec("DELETE FROM timers WHERE run_id = ?", run.id);
        });
      }
      return null;
    }
    return { result: step(loaded.flow, readState(run), event, context), flow: loaded.flow };
  }

  /**
   * Stores a computed step in one transaction: the run's new state, its timers, the fired timer
   * `firedToken` gone, and its effects (plus the stats of the blocks it passed) in the outbox.
   */
  private commit(run: RunRow, prepared: Prepared, firedToken?: string, handles?: string): void {
    // Fault switch (issue 17): a restart between storing a message and committing its step.
    maybeFailHere(this.env, this.ctx.storage.sql, "step");
    this.ctx.storage.transactionSync(() => this.commitNow(run, prepared, firedToken, handles));
  }

  /** The writes of `commit`, inside the caller's storage transaction. */
  private commitNow(run: RunRow, prepared: Prepared, firedToken?: string, handles?: string): void {
    // Timers, outbox items or a run's status may change here (see `scheduleIdle`, `noActiveRun`).
    this.scheduleIdle = false;
    this.noActiveRun = false;
    const { result, flow } = prepared;
    const { state } = result;
    const ended = state.status === "done" || state.status === "failed";
    const nodeType = state.nodeId ? (flow.node(state.nodeId)?.type ?? null) : null;
    const sql = this.ctx.storage.sql;
    {
      // The message this step consumes is handled with the step, never apart from it (file header).
      if (handles) this.markHandled(handles);
      if (firedToken) sql.exec("DELETE FROM timers WHERE token = ?", firedToken);
      sql.exec("UPDATE runs SET status = ?, node_type = ?, state = ?, updated_at = ? WHERE id = ?", state.status, nodeType, JSON.stringify(state), Date.now(), run.id);
      for (const effect of result.effects) {
        if (effect.type === "set_timer") sql.exec("INSERT INTO timers (token, run_id, at) VALUES (?, ?, ?) ON CONFLICT(token) DO UPDATE SET at = excluded.at", effect.token, run.id, effect.at);
        else if (effect.type === "cancel_timer") sql.exec("DELETE FROM timers WHERE token = ?", effect.token);
        else if (effect.type !== "wait_reply") sql.exec("INSERT INTO outbox (run_id, item) VALUES (?, ?)", run.id, JSON.stringify(effect));
      }
      if (ended) sql.exec("DELETE FROM timers WHERE run_id = ?", run.id);
      if (result.visited.length > 0 || ended) {
        const stats: OutboxItem = { type: "stats", visited: result.visited, stoppedAt: ended ? state.nodeId : null };
        sql.exec("INSERT INTO outbox (run_id, item) VALUES (?, ?)", run.id, JSON.stringify(stats));
      }
    }
  }

  /** Prepares and commits one event for `run` (when it concerns the run). */
  private async advance(db: Db, run: RunRow, event: FlowEvent, firedToken?: string, handles?: string): Promise<void> {
    const prepared = await this.prepare(db, run, event);
    if (!prepared) return;
    if (prepared.result.accepted || prepared.result.effects.length > 0) this.commit(run, prepared, firedToken, handles);
    else if (firedToken) this.ctx.storage.sql.exec("DELETE FROM timers WHERE token = ?", firedToken);
  }

  /**
   * Performs the outbox in order, deleting each effect once done; follow-ups (an HTTP answer, a
   * connected flow) are committed as new steps whose effects join the same loop. An effect that
   * throws stays for a retry (the alarm comes back after `effectRetryDelayMs`) and holds the later
   * ones back, until MAX_EFFECT_ATTEMPTS: then it is dropped with a warning on its run. A stored
   * message's publish (`begin`) goes with the send of its run right after it, in one room call,
   * else alone (issue 16).
   */
  private async drain(db: Db): Promise<void> {
    this.forgetOpenTicket();
    if (this.draining) return;
    this.draining = true;
    const targets = new Map<string, RunTarget | null>();
    try {
      for (;;) {
        // The head and the two entries after it (a publish, its send, the send's stats): one read.
        const head = this.ctx.storage.sql.exec<OutboxRow>("SELECT * FROM outbox ORDER BY seq LIMIT 3").toArray();
        const after = (seq: number) => head.find((r) => r.seq > seq);
        let row = head[0];
        if (!row) break;
        let item: OutboxItem = JSON.parse(row.item);
        let publish: { seq: number; publish: StoredPublish } | undefined;
        if (item.type === "publish") {
          const next = after(row.seq);
          const nextItem: OutboxItem | undefined = next && next.run_id === row.run_id ? JSON.parse(next.item) : undefined;
          if (next && nextItem?.type === "send" && this.run(next.run_id)) {
            publish = { seq: row.seq, publish: item.publish };
            row = next;
            item = nextItem;
          }
        }
        const run = this.run(row.run_id);
        // A send followed by its step's stats carries them into the batch that stores its message
        // (issue 16: no D1 round trip of their own); both leave the outbox together once counted.
        const stats = item.type === "send" && run ? statsAfter(run, after(row.seq)) : undefined;
        const carried: Carried | undefined =
          stats || publish
            ? { ...(stats ? { stats: stats.stats } : {}), recorded: false, ...(publish ? { publish: publish.publish, firstSend: this.firstSender } : {}), published: false }
            : undefined;
        let followUp: FollowUp = null;
        try {
          if (item.type === "publish") {
            // Alone: the run's first step sends nothing first (or its send was given up).
            const published = span(this.env, "session.room-publish");
            await roomOf(this.env, item.publish.row.ticketId).publishStored(item.publish.row, item.publish.ticket, item.publish.alsoPublish);
            published();
          } else {
            maybeFailHere(this.env, this.ctx.storage.sql, "effect");
            if (run) followUp = await this.perform(db, run, item, row.seq, targets, carried);
          }
        } catch (error) {
          console.error(`[contact-session] effect ${item.type} of run ${row.run_id} failed (attempt ${row.attempts + 1})`, error);
          if (row.attempts + 1 < MAX_EFFECT_ATTEMPTS) {
            // A publish taken along counts the attempt too (the outbox's head: `rearm`'s backoff).
            this.ctx.storage.sql.exec("UPDATE outbox SET attempts = attempts + 1 WHERE seq IN (?, ?)", row.seq, publish?.seq ?? row.seq);
            break;
          }
          this.warn(row.run_id, {
            nodeId: "nodeId" in item && typeof item.nodeId === "string" ? item.nodeId : null,
            code: "effect_failed",
            message: `The step "${item.type}" failed ${MAX_EFFECT_ATTEMPTS} times and was skipped: ${error instanceof Error ? error.message : String(error)}`.slice(0, 500),
          });
        }
        const done = [row.seq];
        if (stats && carried?.recorded) done.push(stats.seq);
        // Not published with the send (the send stored nothing, or was given up): alone, next.
        if (publish && carried?.published) done.push(publish.seq);
        this.ctx.storage.sql.exec(`DELETE FROM outbox WHERE seq IN (${done.map(() => "?").join(", ")})`, ...done);
        if (followUp && run) {
          if (followUp.kind === "http_result") {
            const fresh = this.run(run.id);
            if (fresh) await this.advance(db, fresh, { kind: "http_result", token: followUp.token, ...followUp.result });
          } else {
            await this.begin(db, { companyId: run.company_id, contactId: run.contact_id, connectionId: run.connection_id, ticketId: run.ticket_id, flowId: followUp.flowId, depth: run.depth + 1 });
          }
        }
      }
    } finally {
      this.draining = false;
    }
  }

  private async perform(db: Db, run: RunRow, item: Exclude<OutboxItem, { type: "publish" }>, seq: number, targets: Map<string, RunTarget | null>, carried?: Carried): Promise<FollowUp> {
    if (this.turn) this.turn.effected = true;
    if (item.type === "stats") {
      const recorded = span(this.env, "flow.stats");
      await recordStats(db, run.company_id, run.flow_id, item.visited, item.stoppedAt);
      recorded();
      return null;
    }
    // An engine warning is kept on the run (and still logged by performEffect).
    if (item.type === "warning") this.warn(run.id, { nodeId: item.nodeId, code: item.code, message: item.message });
    const key = `${run.id}:${run.ticket_id}`;
    const targeting = span(this.env, "flow.target");
    if (!targets.has(key)) targets.set(key, await this.targetOf(db, run));
    targeting();
    const target = targets.get(key);
    if (!target) {
      console.warn(`[contact-session] run ${run.id}: its connection or contact is gone; ${item.type} skipped`);
      return null;
    }
    const performed = span(this.env, `flow.effect-${item.type}`);
    try {
      return await performEffect(this.env, db, target, item, `flow:${run.id}:${seq}`, carried);
    } finally {
      performed();
    }
  }

  /** Appends a warning to run `runId` (the newest RUN_WARNINGS_KEPT are kept). */
  private warn(runId: string, warning: Omit<RunWarning, "at">): void {
    const row = this.ctx.storage.sql.exec<{ warnings: string | null }>("SELECT warnings FROM runs WHERE id = ?", runId).toArray()[0];
    if (!row) return;
    const list: RunWarning[] = row.warnings ? JSON.parse(row.warnings) : [];
    list.push({ at: Date.now(), ...warning });
    this.ctx.storage.sql.exec("UPDATE runs SET warnings = ? WHERE id = ?", JSON.stringify(list.slice(-RUN_WARNINGS_KEPT)), runId);
  }

  private async targetOf(db: Db, run: RunRow): Promise<RunTarget | null> {
    // The message being handled routed this very connection and contact: no look-up (issue 16).
    const routed = this.turn?.routed ?? this.starting?.routed;
    const known = routed && routed.connection.id === run.connection_id && routed.connection.companyId === run.company_id && routed.contact.id === run.contact_id ? routed : undefined;
    const connection = known
      ? known.connection
      : await db.query.connections.findFirst({ where: and(eq(connections.id, run.connection_id), eq(connections.companyId, run.company_id)) });
    const contact = known
      ? { phone: known.contact.phone }
      : await db.query.contacts.findFirst({ where: and(eq(contacts.id, run.contact_id), eq(contacts.companyId, run.company_id)), columns: { phone: true } });
    const externalId = this.meta("externalId");
    if (!connection || !contact || !externalId) return null;
    return {
      runId: run.id,
      flowId: run.flow_id,
      companyId: run.company_id,
      contactId: run.contact_id,
      ticketId: run.ticket_id,
      connection,
      recipientExternalId: externalId,
      recipientPhone: contact.phone,
      lastInboundExternalId: this.lastInboundId(),
    };
  }

  /**
   * Keeps the run in progress and the last ENDED_RUNS_KEPT ended runs; nothing to do while this
   * object is known to have held no more runs than that (`runsEverHeld`).
   */
  private pruneRuns(): void {
    if (this.runsEverHeld !== null && this.runsEverHeld <= ENDED_RUNS_KEPT) return;
    this.ctx.storage.sql.exec(
      "DELETE FROM runs WHERE status NOT IN ('running', 'waiting') AND id NOT IN (SELECT id FROM runs WHERE status NOT IN ('running', 'waiting') ORDER BY created_at DESC LIMIT ?)",
      ENDED_RUNS_KEPT,
    );
  }

  /**
   * Sets the one alarm to the earliest timer (soon, when the outbox still holds effects), or clears
   * it; never earlier than `notBefore` (ms UTC) when given (a retry after a failure).
   */
  private async rearm(notBefore?: number): Promise<void> {
    // Nothing was due and nothing has been scheduled since (issue 16: three storage reads per
    // message of a contact with no flow running, before).
    if (this.scheduleIdle && notBefore === undefined) return;
    const sql = this.ctx.storage.sql;
    const head = sql.exec<{ attempts: number }>("SELECT attempts FROM outbox ORDER BY seq LIMIT 1").toArray()[0];
    const next = sql.exec<{ at: number | null }>("SELECT MIN(at) AS at FROM timers").one().at;
    const earliest = head ? Math.min(next ?? Infinity, Date.now() + effectRetryDelayMs(head.attempts)) : next;
    const at = earliest === null || notBefore === undefined ? earliest : Math.max(earliest, notBefore);
    if (at === null) {
      if ((await this.ctx.storage.getAlarm()) !== null) await this.ctx.storage.deleteAlarm();
      this.scheduleIdle = true;
      return;
    }
    if ((await this.ctx.storage.getAlarm()) !== at) await this.ctx.storage.setAlarm(at);
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

  /**
   * The customer deleted their message for everyone: it shows as 'Message deleted.'. A revoke of a
   * message never stored is kept as a rejected event.
   */
  private async revoke(db: Db, connection: ConnectionRow, event: InboundRevoke): Promise<IngestResult> {
    const target = await this.target(db, connection, event.externalId);
    if (target && target.direction === "in") {
      await roomOf(this.env, target.ticketId).updateMessage(connection.companyId, target.ticketId, target.id, { kind: "revoke", at: event.timestamp });
      return { status: "stored", messageId: target.id, ticketId: target.ticketId };
    }
    await keepRejected(this.env, db, {
      companyId: connection.companyId,
      connectionId: connection.id,
      channel: connection.channel,
      reason: "revoke_target_unknown",
      detail: `The customer deleted message ${event.externalId}, which is not stored.`,
      payload: event.raw ?? JSON.stringify(event),
    });
    return { status: "rejected" };
  }

  /**
   * Finds the contact by its channel identity, else by phone (adding the identity), else creates
   * both. A profile name replaces a name that was only the phone number.
   */
  private async upsertContact(db: Db, connection: ConnectionRow, event: InboundMessage, pre?: Preloaded): Promise<ContactRow> {
    const companyId = connection.companyId;
    const at = Date.now();
    // `pre`: the sender's identity and its contact from the message's read batch (issue 16).
    const identity = pre
      ? pre.known?.identity
      : await db.query.contactIdentities.findFirst({
          where: and(eq(contactIdentities.companyId, companyId), eq(contactIdentities.channel, connection.channel), eq(contactIdentities.externalId, event.from)),
        });
    // The same customer may be known by their business-scoped user id (a message that withheld the
    // phone) before the wa_id appears, or the reverse: either identity finds the contact.
    const alias =
      !identity && event.userId && event.userId !== event.from
        ? await db.query.contactIdentities.findFirst({
            where: and(eq(contactIdentities.companyId, companyId), eq(contactIdentities.channel, connection.channel), eq(contactIdentities.externalId, event.userId)),
          })
        : undefined;
    const known = identity ?? alias;
    let contact: ContactRow | undefined =
      identity && pre?.known
        ? pre.known.contact
        : known
          ? await db.query.contacts.findFirst({ where: and(eq(contacts.id, known.contactId), eq(contacts.companyId, companyId)) })
          : undefined;
    if (contact && !contact.phone && event.phone) {
      try {
        await db.update(contacts).set({ phone: event.phone, updatedAt: at }).where(eq(contacts.id, contact.id));
        contact = { ...contact, phone: event.phone };
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
    }
    if (!contact && event.phone) {
      // The message's read batch looked the phone up when no identity named the sender (issue 16).
      contact = pre && !identity ? pre.byPhone : await db.query.contacts.findFirst({ where: and(eq(contacts.companyId, companyId), eq(contacts.phone, event.phone)) });
    }
    // The identities the contact is not known by yet (the sender's id, and its user id).
    const add = [...new Set([event.from, event.userId])].filter((id): id is string => id !== undefined && id !== known?.externalId && !(id === event.from && identity));
    // Prepared once per isolate (issue 16), as the new contact's other inserts.
    const identityIds = new Map(add.map((externalId) => [externalId, newId()] as const));
    const identityRows = (contactId: string) =>
      add.map((externalId) => boundInsert(db, contactIdentities, { id: identityIds.get(externalId)!, companyId, contactId, channel: connection.channel, externalId, createdAt: at }, { onConflictDoNothing: true }));
    let identitiesAdded = false;
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
        referral: null,
        optedOutAt: null,
        createdAt: at,
        updatedAt: at,
      };
      try {
        const created = span(this.env, "session.new-contact");
        // The company's contact count moves in the same transaction (issue 4: a maintained count).
        // The dashboard's new-contacts counter too (issue 12), and its identities (issue 16: one round trip).
        // A customer's message from a new contact always opens a pending ticket (every routing step
        // but a system event's stores it in one, and a new contact has none): it goes in the same
        // batch (issue 16: one round trip, not two), handed out by the turn's first `ticketFor`.
        const ticket = this.turn?.fresh && event.type !== "system" ? newTicketRow(connection, row.id, event, at) : undefined;
        // The message itself joins them when the room would only insert it (issue 16: its append
        // was a round trip of its own before the flow's first reply): seq 1 of the new ticket,
        // which carries its preview and unread count as the room's update would set them.
        const message = ticket && storedWithContact(event) ? inboundRow(connection, row.id, ticket.id, event, { key: null, mime: "", size: null }, null, { id: newId(), seq: 1, at }) : undefined;
        if (message && ticket) {
          ticket.lastMessagePreview = previewOf(message);
          ticket.unreadCount = 1;
        }
        // The inserts are prepared once per isolate (issue 16: drizzle built them for every new contact).
        const writes = [
          boundInsert(db, contacts, row),
          ...d1Statements(db, [
            adjustContactCount(db, companyId, 1),
            // The dashboard's day counts the new contact and the ticket its message opened (a receptive
            // attendance, issue 12) in one upsert of the company's day row (issue 16: one statement, not two).
            dayCountsStatement(companyId, await companyDay(db, companyId, at), { newContacts: 1, ...(ticket ? { ticketsReceptive: 1 } : {}) }),
          ]),
          ...identityRows(row.id),
          ...(ticket ? [boundInsert(db, tickets, ticket)] : []),
          ...(message ? [boundInsert(db, messages, message)] : []),
        ];
        // The first context of the flow a new contact's message most likely starts (the connection's
        // default flow) is read in the same batch, after the writes (issue 16: no round trip of its own).
        const ahead = this.turn && event.type !== "system" ? await this.likelyFirstFlow(db, connection, event) : null;
        if (ahead) {
          const rows = await createdContextReads(db, companyId, ahead, writes);
          this.turn!.contextReads = { companyId, contactId: row.id, flowId: ahead, rows: Promise.resolve(rows) };
        } else if (this.turn && ticket && add.includes(event.from)) {
          // The new contact's routing epoch as the inserts left it, read in the same batch: the
          // routing snapshot can then route the contact's next message (`keepCreatedSnapshot`).
          const results = await db.$client.batch([...writes, (db.$client as D1Database).prepare("SELECT epoch FROM routing_epochs WHERE scope = ?").bind(`contact:${row.id}`)]);
          const epoch = (results.at(-1)?.results[0] as { epoch: number } | undefined)?.epoch ?? 0;
          this.turn.created = { identity: { id: identityIds.get(event.from)!, companyId, contactId: row.id, channel: connection.channel, externalId: event.from, createdAt: at }, contact: row, ticketId: ticket.id, epoch };
        } else await db.$client.batch(writes);
        contact = row;
        identitiesAdded = true;
        if (this.turn) {
          this.turn.createdContactId = row.id;
          // A new contact has no open ticket but the one just inserted (not handed out yet).
          this.turn.openContactId = row.id;
          this.turn.open = undefined;
          if (ticket) this.turn.insertedTicket = ticket;
          if (message && ticket) this.turn.prestored = { row: message, ticket, contact: row };
        }
        // Inserted with this message's time as its last message: nothing to move after storing it.
        if (this.turn) this.turn.touchedContactId = row.id;
        created();
        const emitted = span(this.env, "session.emit-contact-created");
        // The subscriptions the message's read batch found (none read again).
        await emitEvent(this.env, companyId, "contact.created", { contact: { id: row.id, name: row.name, phone: row.phone, email: row.email } }, this.turn?.pre.subscriptions);
        emitted();
      } catch (error) {
        if (!isUniqueViolation(error) || !event.phone) throw error;
        contact = await db.query.contacts.findFirst({ where: and(eq(contacts.companyId, companyId), eq(contacts.phone, event.phone)) });
        if (!contact) throw error;
      }
    } else if (event.profileName?.trim() && (contact.name === contact.phone || contact.name === event.from)) {
      await db.update(contacts).set({ name: event.profileName.trim(), updatedAt: at }).where(eq(contacts.id, contact.id));
      contact = { ...contact, name: event.profileName.trim() };
    }
    if (!identitiesAdded && add.length > 0) {
      const added = span(this.env, "session.new-identity");
      await db.$client.batch(identityRows(contact.id));
      added();
    }
    return contact;
  }

  /** The contact's open or pending ticket on this connection, or a new pending one. */
  private async ticketFor(db: Db, connection: ConnectionRow, contact: ContactRow, event: InboundMessage): Promise<{ ticket: TicketRow; created: boolean }> {
    const existing = await this.openTicket(db, connection, contact.id);
    if (existing) return { ticket: existing, created: false };
    const inserted = this.turn?.insertedTicket;
    if (inserted && inserted.contactId === contact.id && inserted.connectionId === connection.id) {
      // Inserted with the new contact (see `upsertContact`): handed out once, as created by this turn.
      this.turn!.insertedTicket = undefined;
      this.turn!.openContactId = contact.id;
      this.turn!.open = inserted;
      return { ticket: inserted, created: true };
    }
    const ticket = newTicketRow(connection, contact.id, event, Date.now());
    // The customer's message opened it: a receptive attendance on the dashboard (issue 12), counted in the same batch.
    const opened = span(this.env, "session.new-ticket");
    await runBatch(db, await newTicketStatements(db, ticket));
    opened();
    if (this.turn) {
      this.turn.openContactId = contact.id;
      this.turn.open = ticket;
    }
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
        return { key: stored.key, mime: stored.mime, size: stored.size };
      }
      const fetched = await adapterFor(this.env, connection).fetchMedia(connection, media);
      if (fetched.bytes.byteLength > MAX_MEDIA_BYTES) return { key: null, mime: fetched.mime, size: null, error: "too_large" };
      const stored = await storeMedia(this.env.FILES, connection.companyId, fetched.bytes, fetched.mime, media.fileName);
      return { key: stored.key, mime: stored.mime, size: stored.size };
    } catch (error) {
      // The message is kept (never lost) without its media; the reason is shown instead.
      console.error("[contact-session] media download failed", error);
      return { key: null, mime: media.mime, size: null, error: "download_failed" };
    }
  }
}

/**
 * The connection's default flow for `event` (step 4 of the file header): the media flow for a media
 * message (else the default flow), the default flow for any other; null when none is set.
 */
function defaultFlowFor(defaults: Pick<ConnectionFlowsRow, "defaultFlowId" | "mediaFlowId">, event: InboundMessage): string | null {
  const isMedia = ["image", "audio", "video", "document", "sticker", "ptv"].includes(event.type);
  return isMedia ? (defaults.mediaFlowId ?? defaults.defaultFlowId) : defaults.defaultFlowId;
}

/**
 * Whether a new contact's message is stored in the contact's own batch (`upsertContact`, issue 16)
 * rather than appended by the room after it: one with nothing to do before its insert (no media to
 * store, no quoted message to look up, no ad referral to keep) that the lists show as unread.
 */
function storedWithContact(event: InboundMessage): boolean {
  return !event.media && !event.quotedExternalId && !event.referral && event.type !== "system" && event.type !== "reaction";
}

/**
 * The row of an inbound message (`storeInbound`): `media`, what `storeInboundMedia` stored (key null:
 * none, `error` kept in the payload); `quotedId`, the quoted message's id or null.
 */
function inboundInput(connection: ConnectionRow, contactId: string, ticketId: string, event: InboundMessage, media: { key: string | null; mime: string; size: number | null; error?: string }, quotedId: string | null): AppendInput {
  return {
    companyId: connection.companyId,
    ticketId,
    contactId,
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
    quotedId,
    status: "received",
    errorCode: null,
    errorMessage: null,
    sentAt: event.timestamp,
    senderMemberId: null,
    senderName: null,
    idempotencyKey: null,
    deletedAt: null,
    editedAt: null,
    forwarded: event.forwarded ?? false,
    reactions: null,
    errorDetails: null,
    apiKeyId: null,
  };
}

/** `inboundInput` as a full row: its id, its seq in the ticket and its insert time `at` (ms UTC). */
function inboundRow(
  connection: ConnectionRow,
  contactId: string,
  ticketId: string,
  event: InboundMessage,
  media: { key: string | null; mime: string; size: number | null },
  quotedId: string | null,
  ids: { id: string; seq: number; at: number },
): MessageRow {
  return { ...inboundInput(connection, contactId, ticketId, event, media, quotedId), id: ids.id, seq: ids.seq, createdAt: ids.at, updatedAt: ids.at };
}

/**
 * A message stored with its new contact (`Turn.prestored`) as its room publishes it: the row, the
 * ticket's list entry built from the rows just inserted (no read back) and `waiting` with it.
 */
function storedPublish(connection: ConnectionRow, prestored: NonNullable<Turn["prestored"]>, waiting: HubGroup | undefined): StoredPublish {
  const { row, ticket, contact } = prestored;
  const entry = presentTicket(ticket, { id: contact.id, name: contact.name, phone: contact.phone, email: contact.email, imageKey: contact.imageKey }, { id: connection.id, name: connection.name, channel: connection.channel }, null);
  return { row, ticket: entry, ...(waiting ? { alsoPublish: waiting } : {}) };
}

/** A new pending ticket of the contact `contactId` on `connection`, opened by `event` at `at` (ms UTC). */
function newTicketRow(connection: ConnectionRow, contactId: string, event: InboundMessage, at: number): TicketRow {
  return {
    id: newId(),
    companyId: connection.companyId,
    contactId,
    connectionId: connection.id,
    status: "pending",
    assignedMemberId: null,
    servedByMemberId: null,
    isGroup: event.isGroup ?? false,
    unreadCount: 0,
    lastMessageAt: event.timestamp,
    lastMessagePreview: "",
    version: 0,
    closedAt: null,
    referral: null,
    outsideHoursAt: null,
    origin: "customer",
    firstResponseAt: null,
    createdAt: at,
    updatedAt: at,
  };
}

/** The statements inserting a new pending ticket: the row and its receptive attendance on the dashboard (issue 12). */
async function newTicketStatements(db: Db, ticket: TicketRow) {
  return [db.insert(tickets).values(ticket), ticketOpenedStatement(db, ticket.companyId, "customer", await companyDay(db, ticket.companyId, ticket.createdAt))];
}

/**
 * Whether the message `externalId` is the first of `ticket` (the ticket was opened for it); used
 * when a redelivered message is routed again after a restart.
 */
async function openedBy(db: Db, ticket: TicketRow, externalId: string): Promise<boolean> {
  const first = await db
    .select({ externalId: messages.externalId })
    .from(messages)
    .where(and(eq(messages.ticketId, ticket.id), eq(messages.companyId, ticket.companyId)))
    .orderBy(asc(messages.seq))
    .limit(1);
  return first[0]?.externalId === externalId;
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

/**
 * The stats item `next` (the outbox entry right after a send of `run`) when it is `run`'s (the
 * step's stats that follow its send), as a send carries them (`Carried`), with its own seq;
 * undefined otherwise.
 */
function statsAfter(run: RunRow, next: OutboxRow | undefined): { seq: number; stats: FlowStepStats } | undefined {
  if (!next || next.run_id !== run.id) return undefined;
  const item: OutboxItem = JSON.parse(next.item);
  if (item.type !== "stats") return undefined;
  return { seq: next.seq, stats: { companyId: run.company_id, flowId: run.flow_id, visited: item.visited, stoppedAt: item.stoppedAt } };
}

/** A stored run's engine state (written by `commit`, always a FlowRunState of this code). */
function readState(row: Pick<RunRow, "state">): FlowRunState {
  const state: FlowRunState = JSON.parse(row.state);
  return state;
}

function isActive(row: Pick<RunRow, "status">): boolean {
  return row.status === "running" || row.status === "waiting";
}
