/**
 * BroadcastScheduler: one per broadcast (named by its id). It holds the broadcast's schedule and
 * sends it, one recipient at a time, from ONE alarm (issue 10; DESIGN.md "Durable Objects";
 * platform-limits A3):
 *
 * 1. At the start (a member's start, or the alarm at `scheduledDate`) the contacts the filters
 *    match are listed into D1 `broadcast_recipients` as `pending`, in keyset chunks of
 *    MATERIALISE_CHUNK (one INSERT … SELECT each, at most MATERIALISE_CHUNKS_PER_ALARM per alarm,
 *    far below D1's per-invocation limits); the total is stored when the listing ends.
 * 2. Each alarm then takes the next recipient by keyset (the `sending` one left by a cut-off
 *    alarm first, else the first `pending` by contact id): never the whole list in memory.
 * 3. Rejections need no turn: deleted contact, opted out (`contacts.opted_out_at`), no identity on
 *    the channel, outside the 24 h customer service window without a template (WhatsApp Cloud API
 *    only), the messaging tier's daily count used up.
 * 4. A send first honours the pair rate (PAIR_GAP_MS since the last message to the user) and
 *    takes the connection's turn (no other send of the connection under way, the delay preset's
 *    random pause since the connection's last hand-off, never above its throughput;
 *    worker/lib/broadcasts-limits.ts), held as a lease until this send is handed off. The pause
 *    drawn for a recipient is kept in this object's storage, so waiting and restarts reuse it.
 * 5. The send is COMMITTED in D1 before it is performed: the recipient becomes `sending` with its
 *    idempotency key, the id of the flow run to start (`run_id`). Then the broadcast's flow starts
 *    for the contact in its ContactSession with that run id: a second start with the same id is
 *    answered with the first run, so a retried alarm or a restart never sends twice; the
 *    `sending` row is taken first by the next alarm, so nothing is skipped. The connection's turn
 *    is held until the flow's first message has left the ticket room (taken by the provider, after
 *    its retries: 131056 and other transient errors back off there); then `sent` (or `rejected`
 *    with `send_failed` and the provider's reason when it failed for good).
 * 6. Window mode (worker/lib/broadcasts-limits.ts `sendWindow`): when even the delay preset's
 *    longest pause is shorter than the connection's throughput spacing (never with the production
 *    presets; under BROADCAST_DELAY_SCALE in local and test), the throughput is the only pace, and
 *    waiting for each acceptance would waste it. The alarm then holds the connection's lease for
 *    its whole run and keeps up to W sends in flight (each still checked, paced by its own turn
 *    and committed with its run id before it is handed off; at most throughput − W started per
 *    second, so the provider never gets more than the throughput in any second); before the alarm
 *    ends every send in flight is settled and the lease is given back. Opted-out recipients are
 *    rejected a keyset page at a time in one D1 batch (`rejectOptedOut`).
 * 7. Per recipient (issue 10, CPU per send): its checks' reads are ONE D1 batch (`readRecipient`,
 *    SQL built once per isolate); in window mode the turn and the commit are one batch; a new
 *    company ticket is not announced by its room (its first message publishes its list entry);
 *    the company's event subscriptions and the tier's limit are read once per alarm; sends in
 *    flight are checked at a cadence that backs off while none settles.
 * Pause stops at once (the loop reads the state kept here before each recipient; the alarm is
 * deleted); resume continues with the next recipient; delete cancels. The live counts go to the
 * company hub at most every PUBLISH_EVERY_MS and at every change of status.
 *
 * Storage (SQLite): `meta` (k → v): `broadcastId`, `companyId`, `state` (`active` | `paused` |
 * `cancelled`), `listedAfter` (the listing's keyset cursor), `plan` (JSON {contactId, gapMs}: the
 * pause drawn for the next send), `lease` (the id of the connection turn held); `faults` (the fault
 * switch, local and test only).
 */
import { DurableObject } from "cloudflare:workers";
import { and, eq, gt, inArray, like, sql } from "drizzle-orm";
import {
  broadcastRecipients,
  broadcasts,
  connectionTemplates,
  connections,
  contactFieldValues,
  contacts,
  messages,
  tickets,
  type BroadcastRow,
  type ConnectionRow,
  type ContactRow,
  type TicketRow,
} from "../../schema";
import type { BroadcastTemplate, RejectReason } from "../../schema/validation/broadcasts";
import { buttonSubType, type TemplateButtonParam } from "../../schema/validation/templates";
import { adapterFor } from "../channels";
import type { AppEnv } from "../env";
import { audienceWhere, materialiseChunk, publishProgress } from "../lib/broadcasts";
import {
  dailyLimitOf,
  SERVICE_WINDOW_MS,
  delayScale,
  lastMessageQuery,
  limitsOf,
  outboundAtOf,
  pairGapMs,
  pickDelayMs,
  releaseTurn,
  sendWindow,
  takeTurn,
  usersOutsideWindowSince,
  windowTurnDueAt,
  windowTurnHeld,
  windowTurnQuery,
} from "../lib/broadcasts-limits";
import { batchPrepared, getDb, prepared, type Db } from "../lib/db";
import { FAULTS_TABLE, armFault, maybeFailHere, type FaultOp } from "../lib/faults";
import { identitiesQuery, pickReachable } from "../lib/identities";
import { newId } from "../lib/ids";
import { contactSessionOf } from "../lib/realtime";
import { splitName } from "../lib/contacts";
import { announceTicket, companyTicketOf, openCompanyTicketQuery } from "../lib/company-tickets";
import { emitEvent, subscriptionsQuery } from "../lib/event-subscriptions";
import { storeSentTemplate } from "../lib/template-messages";
import { span } from "../lib/bench-trace";

/** Contacts listed per INSERT … SELECT (keyset chunk). */
export const MATERIALISE_CHUNK = 5_000;
/** Chunks listed per alarm (each alarm stays well inside D1's 1,000 queries and 30 s). */
const MATERIALISE_CHUNKS_PER_ALARM = 10;
/** Recipients handled per alarm at most (each costs about ten D1 queries). */
const RECIPIENTS_PER_ALARM = 60;
/** Wall time one alarm spends sending before it re-arms (ms). */
const ALARM_BUDGET_MS = 15_000;
/** A turn due closer than this is waited for inside the alarm instead of re-arming (ms). */
const INLINE_WAIT_MS = 250;
/** How often a send handed to the ticket room is checked until the provider took it (ms). */
const SETTLE_POLL_MS = 25;
/**
 * Window mode: after a check that settled nothing the next one waits twice as long, up to this
 * (ms); a check that settled something goes back to SETTLE_POLL_MS. A send is in flight for about
 * a tenth of a second (its flow start and the provider's answer), so the window's W sends still
 * allow W / (that + this) sends per second, above the connection's throughput share.
 */
const SETTLE_POLL_MAX_MS = 100;
/** The longest the connection's turn waits for that (ms); then the recipient counts as sent. */
const SETTLE_MAX_MS = 20_000;
/** Live counts are pushed to the hub at most this often while sending (ms). */
const PUBLISH_EVERY_MS = 1_000;
/** The alarm after a failure comes back this much later (ms, scaled in local/test). */
const RETRY_MS = 2_000;

/** Pending recipients read per keyset page in window mode. */
const PREFETCH = 50;
/** Keyset pages read per alarm in window mode (each costs two or three D1 statements besides its recipients'). */
const PAGES_PER_ALARM = 100;

/**
 * A committed send in flight (window mode): its ticket once handed to the contact's session
 * (`ticketId`); `open`, the contact's open ticket read with its checks (null: none, a new one is
 * created at the hand-off).
 */
type Flight = { contactId: string; contact: ContactRow; externalId: string; runId: string; outside: boolean; sendingAt: number; open: TicketRow | null; ticketId: string | null };

/**
 * What a recipient's checks read, in ONE D1 batch (`readRecipient`): the contact (undefined when
 * deleted), the identity to send to, its last inbound and outbound message times on the
 * connection (ms UTC or null) and its open ticket there (null: none).
 */
type RecipientReads = { contact: ContactRow | undefined; externalId: string | undefined; lastIn: number | null; lastOut: number | null; open: TicketRow | null };

/** The company's event subscriptions, read once per alarm (`ticket.created` of new tickets). */
type Subscriptions = Awaited<ReturnType<typeof subscriptionsQuery>>;

type RecipientRow = { contactId: string; status: string; runId: string | null; outsideWindow: number; sendingAt: number | null };

/** What handling one recipient came to: done (sent or rejected), or wait until `at`. */
type Step = { kind: "done" } | { kind: "wait"; at: number };

export class BroadcastScheduler extends DurableObject<AppEnv> {
  private lastPublish = 0;
  /**
   * `meta` as last read or written by this instance (null: no row). Only this object writes its
   * storage, so the copy is exact; it spares the send loop a storage read per step (issue 10).
   */
  private readonly metaCache = new Map<string, string | null>();
  /** The `now` of this object's last window-mode turn claim (ms UTC; see `commitOne`). */
  private lastClaimAt = 0;
  /** The most sends in flight at once and the most prefetched recipients held at once since the object woke (inspect). */
  private peakInFlight = 0;
  private peakQueued = 0;

  constructor(ctx: DurableObjectState, env: AppEnv) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)");
      ctx.storage.sql.exec(FAULTS_TABLE);
      // A fired alarm is used up (platform-limits A3): an active broadcast without one gets it back.
      if (this.meta("state") === "active" && (await ctx.storage.getAlarm()) === null) await ctx.storage.setAlarm(Date.now());
    });
  }

  /**
   * Arms the broadcast: its alarm fires at `at` (ms UTC; now for a start, `scheduledDate` for a
   * schedule). Called after the route stored the status (`started`, or `waiting` with a date).
   */
  async arm(broadcastId: string, companyId: string, at: number): Promise<void> {
    this.setMeta("broadcastId", broadcastId);
    this.setMeta("companyId", companyId);
    this.setMeta("state", "active");
    await this.ctx.storage.setAlarm(Math.max(at, Date.now()));
  }

  /** Pauses at once: no recipient is taken after this call; the alarm is deleted. */
  async pause(): Promise<void> {
    this.setMeta("state", "paused");
    await this.ctx.storage.deleteAlarm();
  }

  /** Cancels for good (the broadcast was deleted): nothing more is sent. */
  async cancel(): Promise<void> {
    this.setMeta("state", "cancelled");
    this.deleteMeta("plan");
    await this.ctx.storage.deleteAlarm();
  }

  /** Arms `n` failures of `op` (`alarm`) here (worker/lib/faults.ts); false outside local/test. */
  async armFaults(op: FaultOp, n: number): Promise<boolean> {
    return armFault(this.env, this.ctx.storage.sql, op, n);
  }

  /**
   * The state kept here and the next alarm (ms UTC or null), for tests and the benchmark: the
   * object's own storage (`storedBytes`, the SQLite file; `keys`, its `meta` rows) and what it holds
   * in memory while sending (`peakInFlight`, the most sends in flight at once since it woke;
   * `peakQueued`, the most prefetched recipients held at once).
   */
  async inspect(): Promise<{ state: string | null; alarm: number | null; storedBytes: number; keys: number; peakInFlight: number; peakQueued: number }> {
    const keys = this.ctx.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM meta").one().n;
    return { state: this.meta("state"), alarm: await this.ctx.storage.getAlarm(), storedBytes: this.ctx.storage.sql.databaseSize, keys, peakInFlight: this.peakInFlight, peakQueued: this.peakQueued };
  }

  /** Lists, then sends; re-armed explicitly at the end (as late as possible, platform-limits A3). */
  override async alarm(): Promise<void> {
    const broadcastId = this.meta("broadcastId");
    const companyId = this.meta("companyId");
    if (!broadcastId || !companyId || this.meta("state") !== "active") return;
    const db = getDb(this.env.DB);
    let next: number | null = null;
    try {
      next = await this.run(db, companyId, broadcastId);
    } catch (error) {
      // Nothing is lost: a committed `sending` recipient is taken first by the next alarm, and its
      // run id makes the start idempotent. The retry is ours, a little later.
      console.error(`[broadcast-scheduler] ${broadcastId}: alarm failed; retrying`, error);
      next = Date.now() + Math.max(50, RETRY_MS * delayScale(this.env));
    }
    if (next !== null && this.meta("state") === "active") await this.ctx.storage.setAlarm(next);
  }

  /** One alarm's work; answers when the next alarm is due (null: none, the broadcast is not running). */
  private async run(db: Db, companyId: string, broadcastId: string): Promise<number | null> {
    let row = await db.query.broadcasts.findFirst({ where: and(eq(broadcasts.id, broadcastId), eq(broadcasts.companyId, companyId)) });
    if (!row) return null;
    if (row.status === "waiting") {
      if (row.scheduledDate !== null && row.scheduledDate > Date.now()) return row.scheduledDate;
      const at = Date.now();
      await db.update(broadcasts).set({ status: "started", startedAt: at, updatedAt: at }).where(and(eq(broadcasts.id, row.id), eq(broadcasts.status, "waiting")));
      row = { ...row, status: "started", startedAt: at };
      await publishProgress(this.env, row);
    }
    if (row.status !== "started") return null;
    const connection = await db.query.connections.findFirst({ where: and(eq(connections.id, row.connectionId), eq(connections.companyId, companyId)) });
    if (row.total === null) return this.list(db, row, connection ?? null);
    // Window mode once no send is left `sending` by a cut-off alarm; those are settled one at a
    // time first (below, only them).
    let window = 1;
    if (connection) {
      const limits = await limitsOf(db, connection);
      window = sendWindow(row.delay, delayScale(this.env), limits.throughputMps);
      if (window > 1 && !(await this.hasSending(db, row.id))) return this.runWindow(db, row, connection, window, dailyLimitOf(limits));
    }
    const begun = Date.now();
    for (let handled = 0; handled < RECIPIENTS_PER_ALARM && Date.now() - begun < ALARM_BUDGET_MS; handled++) {
      if (this.meta("state") !== "active") return null;
      const recipient = await this.nextRecipient(db, row.id);
      if (!recipient) return this.finish(db, row);
      if (window > 1 && recipient.status !== "sending") break;
      const step = connection ? await this.handle(db, row, connection, recipient) : await this.reject(db, row, recipient.contactId, "send_failed", "The broadcast's connection no longer exists.");
      await this.maybePublish(db, row.id, false);
      if (step.kind === "wait") {
        if (step.at - Date.now() > INLINE_WAIT_MS) return step.at;
        await sleep(Math.max(0, step.at - Date.now()));
        handled--;
      }
    }
    await this.maybePublish(db, row.id, true);
    return Date.now();
  }

  /** Lists the next chunks of recipients; stores the total once the listing is complete. */
  private async list(db: Db, row: BroadcastRow, connection: ConnectionRow | null): Promise<number> {
    if (!connection) {
      await db.update(broadcasts).set({ total: 0, updatedAt: Date.now() }).where(eq(broadcasts.id, row.id));
      return Date.now();
    }
    let where;
    try {
      where = await audienceWhere(db, row.companyId, row.filters);
    } catch {
      // A tag, field or column named by a filter was deleted since: the filter matches nobody.
      where = sql`0`;
    }
    for (let i = 0; i < MATERIALISE_CHUNKS_PER_ALARM; i++) {
      const after = this.meta("listedAfter") ?? "";
      const { inserted, last } = await materialiseChunk(db, row, where, after, MATERIALISE_CHUNK);
      if (last) this.setMeta("listedAfter", last);
      if (inserted < MATERIALISE_CHUNK) {
        const [counted] = await db.select({ n: sql<number>`COUNT(*)` }).from(broadcastRecipients).where(eq(broadcastRecipients.broadcastId, row.id));
        await db.update(broadcasts).set({ total: counted?.n ?? 0, updatedAt: Date.now() }).where(eq(broadcasts.id, row.id));
        await this.maybePublish(db, row.id, true);
        break;
      }
    }
    return Date.now();
  }

  /** Whether a recipient was left `sending` (by a cut-off alarm): the next alarm settles it one at a time first. */
  private async hasSending(db: Db, broadcastId: string): Promise<boolean> {
    const [found] = await db
      .select({ contactId: broadcastRecipients.contactId })
      .from(broadcastRecipients)
      .where(and(eq(broadcastRecipients.broadcastId, broadcastId), eq(broadcastRecipients.status, "sending")))
      .limit(1);
    return found !== undefined;
  }

  /**
   * One alarm in window mode (worker/lib/broadcasts-limits.ts `sendWindow`): the connection's lease
   * is held for the alarm; each recipient is checked and committed one at a time as in `handle`
   * (the commit before the send, with its run id), each send takes its own spaced turn, and up to
   * `window` sends are in flight at once (handed to the contact's ContactSession, waiting for the
   * provider). Before the alarm ends every send in flight is settled (sent, or rejected with the
   * provider's reason) and the lease is given back, so the window never outlives the lease and two
   * broadcasts of one connection never add their windows. A failure in one send stops the loop,
   * waits for the others and throws (the alarm is retried; the `sending` rows are settled one at a
   * time by the next alarm, their run ids making the starts idempotent).
   * Memory: the prefetched page of at most PREFETCH recipients and at most `window` sends in flight.
   * Read once per alarm (at most ALARM_BUDGET_MS old): the tier's `dailyLimit` (from the
   * connection's limits row) and the company's event subscriptions (for `ticket.created`).
   */
  private async runWindow(db: Db, row: BroadcastRow, connection: ConnectionRow, window: number, dailyLimit: number): Promise<number | null> {
    const leaseId = this.meta("lease") ?? newId();
    this.setMeta("lease", leaseId);
    const subscriptions = await subscriptionsQuery(db, row.companyId);
    // The settle checks' cadence (SETTLE_POLL_MS doubling up to SETTLE_POLL_MAX_MS while nothing settles).
    let pollEvery = SETTLE_POLL_MS;
    let polledAt = 0;
    const flights = new Map<string, Flight>();
    const starting = new Set<Promise<void>>();
    let failure: unknown = null;
    let queue: RecipientRow[] = [];
    let cursor = "";
    let exhausted = false;
    let pages = 0;
    let next: number | null = null;
    const begun = Date.now();
    let started = 0;
    try {
      for (;;) {
        if (failure !== null) break;
        const open = next === null && !exhausted && started < RECIPIENTS_PER_ALARM && Date.now() - begun < ALARM_BUDGET_MS && this.meta("state") === "active";
        if (!open || flights.size >= window) {
          if (flights.size === 0) break;
          const due = polledAt + pollEvery - Date.now();
          const handed = [...flights.values()].some((f) => f.ticketId !== null);
          // Nothing to check yet (every send still being handed off), or not yet time: wait for a
          // hand-off to end (it may free a place) or for the check's time.
          if (!handed || due > 0) {
            await Promise.race([sleep(handed ? due : SETTLE_POLL_MAX_MS), ...starting]);
            continue;
          }
          const before = flights.size;
          polledAt = Date.now();
          await this.settleFlights(db, row, flights);
          pollEvery = flights.size < before ? SETTLE_POLL_MS : Math.min(SETTLE_POLL_MAX_MS, pollEvery * 2);
          continue;
        }
        if (queue.length === 0) {
          if (pages >= PAGES_PER_ALARM) {
            next = Date.now();
            continue;
          }
          pages++;
          const page = await db
            .select({ contactId: broadcastRecipients.contactId, status: broadcastRecipients.status, runId: broadcastRecipients.runId, outsideWindow: broadcastRecipients.outsideWindow, sendingAt: broadcastRecipients.sendingAt })
            .from(broadcastRecipients)
            .where(and(eq(broadcastRecipients.broadcastId, row.id), eq(broadcastRecipients.status, "pending"), gt(broadcastRecipients.contactId, cursor)))
            .orderBy(broadcastRecipients.contactId)
            .limit(PREFETCH);
          const last = page.at(-1)?.contactId;
          if (!last) {
            exhausted = true;
            continue;
          }
          const optedOut = await this.rejectOptedOut(db, row, cursor, last);
          cursor = last;
          queue = page.filter((r) => !optedOut.has(r.contactId));
          this.peakQueued = Math.max(this.peakQueued, page.length);
          continue;
        }
        const recipient = queue.shift();
        if (!recipient) continue;
        const outsideInFlight = [...flights.values()].filter((f) => f.outside).length;
        const endCommit = span(this.env, "broadcast.commit");
        const step = await this.commitOne(db, row, connection, recipient, leaseId, window, outsideInFlight, dailyLimit);
        endCommit();
        await this.maybePublish(db, row.id, false);
        if (step.kind === "wait") {
          queue.unshift(recipient);
          if (step.at - Date.now() > INLINE_WAIT_MS) next = step.at;
          else await sleep(Math.max(0, step.at - Date.now()));
          continue;
        }
        started++;
        if (step.kind === "done") continue;
        const flight: Flight = { ...step.flight, ticketId: null };
        flights.set(flight.contactId, flight);
        this.peakInFlight = Math.max(this.peakInFlight, flights.size);
        const handing: Promise<void> = this.handOff(db, row, connection, flight, subscriptions)
          .then((ticketId) => {
            if (ticketId === null) flights.delete(flight.contactId);
            else flight.ticketId = ticketId;
          })
          .catch((error: unknown) => {
            failure ??= error;
            flights.delete(flight.contactId);
          })
          .finally(() => starting.delete(handing));
        starting.add(handing);
      }
      await Promise.allSettled([...starting]);
    } finally {
      await this.release(db, connection.id, Date.now());
    }
    if (failure !== null) throw failure;
    await this.maybePublish(db, row.id, true);
    if (this.meta("state") !== "active") return null;
    if (exhausted && !(await this.nextRecipient(db, row.id))) return this.finish(db, row);
    return next ?? Date.now();
  }

  /**
   * Rejects, in one D1 batch, the pending recipients with contact ids in (`after`, `upTo`] whose
   * contact opted out (`opted_out`, counted once: the count and the change are in one transaction
   * and both read `pending`); answers their contact ids. Rejections need no turn, so a page of them
   * costs two statements instead of a read and a batch per recipient.
   */
  private async rejectOptedOut(db: Db, row: BroadcastRow, after: string, upTo: string): Promise<Set<string>> {
    const at = Date.now();
    const inPage = and(
      eq(broadcastRecipients.broadcastId, row.id),
      eq(broadcastRecipients.status, "pending"),
      gt(broadcastRecipients.contactId, after),
      sql`${broadcastRecipients.contactId} <= ${upTo}`,
      sql`${broadcastRecipients.contactId} IN (SELECT ${contacts.id} FROM ${contacts} WHERE ${contacts.companyId} = ${row.companyId} AND ${contacts.optedOutAt} IS NOT NULL AND ${contacts.id} > ${after} AND ${contacts.id} <= ${upTo})`,
    );
    const [, rejected] = await db.batch([
      db
        .update(broadcasts)
        .set({ rejectedCount: sql`${broadcasts.rejectedCount} + (SELECT COUNT(*) FROM ${broadcastRecipients} WHERE ${inPage})`, updatedAt: at })
        .where(eq(broadcasts.id, row.id)),
      db.update(broadcastRecipients).set({ status: "rejected", reason: "opted_out", detail: null, doneAt: at }).where(inPage).returning({ contactId: broadcastRecipients.contactId }),
    ]);
    return new Set(rejected.map((r) => r.contactId));
  }

  /**
   * The window mode's checks and commit for one recipient (the same rules and order as `handle`):
   * rejected (`done`), a wait (the pair gap, the connection's next turn), or committed as
   * `sending` with its run id after taking a spaced turn (`flight`). `outsideInFlight` counts the
   * sends in flight outside the service window towards the tier's daily limit (`limit`, read once
   * per alarm). The checks' reads are one D1 batch (`readRecipient`). The pause drawn is not
   * stored: in window mode it is shorter than the throughput spacing (`sendWindow`), which is the
   * pace, so a restart that draws again changes nothing.
   */
  private async commitOne(
    db: Db,
    row: BroadcastRow,
    connection: ConnectionRow,
    recipient: RecipientRow,
    leaseId: string,
    window: number,
    outsideInFlight: number,
    limit: number,
  ): Promise<Step | { kind: "flight"; flight: Omit<Flight, "ticketId"> }> {
    const { contact, externalId, lastIn, lastOut, open } = await this.readRecipient(db, row, connection, recipient.contactId);
    if (!contact) return this.reject(db, row, recipient.contactId, "contact_deleted", null);
    if (contact.optedOutAt !== null) return this.reject(db, row, contact.id, "opted_out", null);
    if (!externalId) return this.reject(db, row, contact.id, "no_identity", null);
    const now = Date.now();
    let outside = false;
    const scale = delayScale(this.env);
    if (connection.channel === "whatsapp-cloud") {
      outside = lastIn === null || now - lastIn > SERVICE_WINDOW_MS;
      if (outside && !row.template) return this.reject(db, row, contact.id, "outside_window", "No message from the contact in the last 24 hours and no approved template.");
      if (outside) {
        if ((await usersOutsideWindowSince(db, connection.id, now - SERVICE_WINDOW_MS)) + outsideInFlight >= limit) {
          return this.reject(db, row, contact.id, "daily_limit", `The messaging tier allows ${limit} users outside a service window per 24 hours.`);
        }
      }
      if (lastOut !== null && now - lastOut < pairGapMs(scale)) return { kind: "wait", at: lastOut + pairGapMs(scale) };
    }
    const gapMs = this.plannedGap(contact.id) ?? pickDelayMs(row.delay, scale);
    // The turn and the commit (as in `handle`: from here on this recipient is sent with this run
    // id) in ONE D1 batch: the commit happens only when this very claim took the turn. A turn due
    // soon (the throughput spacing) is waited for here, without checking again.
    let committed: { runId: string | null; sendingAt: number | null }[];
    for (;;) {
      // Strictly increasing per object, so `windowTurnHeld` can only see this claim's own mark.
      const at = Math.max(Date.now(), this.lastClaimAt + 1);
      this.lastClaimAt = at;
      const [taken, commit] = await db.batch([
        windowTurnQuery(db, connection, gapMs, at, leaseId, window),
        db
          .update(broadcastRecipients)
          .set({ status: "sending", runId: newId(), sendingAt: at, outsideWindow: outside ? 1 : 0 })
          .where(and(eq(broadcastRecipients.broadcastId, row.id), eq(broadcastRecipients.contactId, contact.id), eq(broadcastRecipients.status, "pending"), windowTurnHeld(connection.id, leaseId, at)))
          .returning({ runId: broadcastRecipients.runId, sendingAt: broadcastRecipients.sendingAt }),
      ]);
      if (taken.length > 0) {
        committed = commit;
        break;
      }
      const due = await windowTurnDueAt(db, connection, gapMs, at, leaseId, window);
      if (due - Date.now() > INLINE_WAIT_MS) return { kind: "wait", at: due };
      await sleep(Math.max(0, due - Date.now()));
    }
    const runId = committed[0]?.runId;
    if (!runId) return { kind: "done" };
    return { kind: "flight", flight: { contactId: contact.id, contact, externalId, runId, outside, sendingAt: committed[0]?.sendingAt ?? Date.now(), open } };
  }

  /**
   * A recipient's reads for its checks and its hand-off, in ONE D1 batch (issue 10; was four to
   * five round trips): the contact (of the broadcast's company), its identities on the channel
   * (the reachable one is picked: worker/lib/identities.ts), its last inbound and last outbound
   * message on the connection (the service window and the pair gap; broadcasts-limits.ts) and its
   * open ticket there (worker/lib/company-tickets.ts). A contact without an identity on a phone
   * channel is sent to its phone (digits).
   */
  private async readRecipient(db: Db, row: BroadcastRow, connection: ConnectionRow, contactId: string): Promise<RecipientReads> {
    const values = { companyId: row.companyId, contactId, connectionId: connection.id, channel: connection.channel };
    const reads = recipientReads(db);
    const [contactRows, identities, inRows, outRows, openRows] = await batchPrepared(db, [
      [reads.contact, values],
      [reads.identities, values],
      [reads.lastIn, values],
      [reads.lastOut, values],
      [reads.open, values],
    ] as const);
    const contact = contactRows[0];
    const externalId = pickReachable(identities)?.externalId ?? (connection.channel !== "instagram" ? contact?.phone?.replace(/^\+/, "") : undefined);
    return {
      contact,
      externalId,
      lastIn: inRows[0]?.sentAt ?? null,
      lastOut: outboundAtOf(outRows[0]),
      open: openRows[0] ?? null,
    };
  }

  /**
   * Performs a committed send (window mode): the contact's ticket, the template when outside the
   * window, the flow started with the recipient's run id. Answers the ticket id to watch, or null
   * when the recipient was rejected here (template or flow failed). A new ticket is created quiet
   * (its list entry is published with its first message by the ticket room: README "The hot
   * paths"); when no message follows (rejected here, or a flow that sends none) it is announced
   * here or by `settleFlights`. `subscriptions`: the company's, read once per alarm.
   */
  private async handOff(db: Db, row: BroadcastRow, connection: ConnectionRow, flight: Flight, subscriptions: Subscriptions): Promise<string | null> {
    const endTicket = span(this.env, "broadcast.ticket");
    const { ticket } = await companyTicketOf(this.env, db, connection, flight.contactId, { open: flight.open, quiet: true, subscriptions });
    const ticketId = ticket.id;
    endTicket();
    if (flight.outside) {
      const failed = await this.sendTemplate(db, row, connection, flight.contact, flight.externalId, ticketId);
      if (failed) {
        await announceTicket(this.env, row.companyId, ticketId);
        await this.reject(db, row, flight.contactId, "send_failed", failed);
        return null;
      }
    }
    const endStart = span(this.env, "broadcast.startFlow");
    const started = await contactSessionOf(this.env, row.companyId, connection.channel, flight.externalId).startFlow({
      companyId: row.companyId,
      channel: connection.channel,
      externalId: flight.externalId,
      connectionId: connection.id,
      ticketId,
      ticket: { id: ticket.id, companyId: ticket.companyId, contactId: ticket.contactId },
      flowId: row.flowId,
      runId: flight.runId,
    });
    endStart();
    maybeFailHere(this.env, this.ctx.storage.sql, "alarm");
    if (!started.ok) {
      await announceTicket(this.env, row.companyId, ticketId);
      await this.reject(db, row, flight.contactId, "flow_failed", "The broadcast's flow is not published.");
      return null;
    }
    return ticketId;
  }

  /**
   * Reads, in one query, the first message of every handed-off send in flight; those the provider
   * took (or that failed for good, or waited SETTLE_MAX_MS) are marked `sent` (two statements for
   * all of them, one D1 batch) or `rejected` with `send_failed`, and leave `flights`.
   */
  private async settleFlights(db: Db, row: BroadcastRow, flights: Map<string, Flight>): Promise<void> {
    const handed = [...flights.values()].filter((f): f is Flight & { ticketId: string } => f.ticketId !== null);
    if (handed.length === 0) return;
    const endSettle = span(this.env, "broadcast.settle");
    const found = await db
      .select({ ticketId: messages.ticketId, key: messages.idempotencyKey, status: messages.status, errorCode: messages.errorCode, errorMessage: messages.errorMessage, seq: messages.seq })
      .from(messages)
      .where(and(eq(messages.companyId, row.companyId), inArray(messages.ticketId, [...new Set(handed.map((f) => f.ticketId))]), eq(messages.direction, "out"), like(messages.idempotencyKey, "flow:%")))
      .orderBy(messages.seq);
    const at = Date.now();
    const sent: string[] = [];
    let rejected = 0;
    for (const flight of handed) {
      const first = found.find((m) => m.ticketId === flight.ticketId && m.key?.startsWith(`flow:${flight.runId}:`));
      if (first?.status === "pending" && at - flight.sendingAt < SETTLE_MAX_MS) continue;
      flights.delete(flight.contactId);
      // The flow sent nothing (yet): the ticket's list entry was not published with a message.
      if (!first) await announceTicket(this.env, row.companyId, flight.ticketId);
      if (first?.status === "failed") {
        rejected++;
        await this.reject(db, row, flight.contactId, "send_failed", `${first.errorCode ?? "failed"}: ${first.errorMessage ?? ""}`.slice(0, 500));
        continue;
      }
      sent.push(flight.contactId);
    }
    if (sent.length > 0) {
      // Two statements for all of them (one transaction): counted only while still `sending`.
      const settled = and(eq(broadcastRecipients.broadcastId, row.id), inArray(broadcastRecipients.contactId, sent), eq(broadcastRecipients.status, "sending"));
      await db.batch([
        db
          .update(broadcasts)
          .set({ sentCount: sql`${broadcasts.sentCount} + (SELECT COUNT(*) FROM ${broadcastRecipients} WHERE ${settled})`, updatedAt: at })
          .where(eq(broadcasts.id, row.id)),
        db.update(broadcastRecipients).set({ status: "sent", doneAt: at }).where(settled),
      ]);
    }
    endSettle();
    if (rejected > 0) await this.maybePublish(db, row.id, false);
  }

  /** The recipient left `sending` by a cut-off alarm, else the first `pending` one (keyset on the index). */
  private async nextRecipient(db: Db, broadcastId: string): Promise<RecipientRow | null> {
    const columns = { contactId: broadcastRecipients.contactId, status: broadcastRecipients.status, runId: broadcastRecipients.runId, outsideWindow: broadcastRecipients.outsideWindow, sendingAt: broadcastRecipients.sendingAt };
    for (const status of ["sending", "pending"] as const) {
      const [found] = await db
        .select(columns)
        .from(broadcastRecipients)
        .where(and(eq(broadcastRecipients.broadcastId, broadcastId), eq(broadcastRecipients.status, status)))
        .orderBy(broadcastRecipients.contactId)
        .limit(1);
      if (found) return found;
    }
    return null;
  }

  /** Checks, paces, commits and performs one recipient's send. */
  private async handle(db: Db, row: BroadcastRow, connection: ConnectionRow, recipient: RecipientRow): Promise<Step> {
    const { contact, externalId, lastIn, lastOut, open } = await this.readRecipient(db, row, connection, recipient.contactId);
    if (!contact) return this.reject(db, row, recipient.contactId, "contact_deleted", null);

    let runId = recipient.runId;
    let outsideWindow = recipient.outsideWindow === 1;
    let sendingAt = recipient.sendingAt;
    if (recipient.status !== "sending" || !runId) {
      if (contact.optedOutAt !== null) return this.reject(db, row, contact.id, "opted_out", null);
      if (!externalId) return this.reject(db, row, contact.id, "no_identity", null);
      const now = Date.now();
      let outside = false;
      if (connection.channel === "whatsapp-cloud") {
        outside = lastIn === null || now - lastIn > SERVICE_WINDOW_MS;
        if (outside && !row.template) return this.reject(db, row, contact.id, "outside_window", "No message from the contact in the last 24 hours and no approved template.");
        if (outside) {
          const limits = await limitsOf(db, connection);
          const limit = dailyLimitOf(limits);
          if ((await usersOutsideWindowSince(db, connection.id, now - SERVICE_WINDOW_MS)) >= limit) {
            return this.reject(db, row, contact.id, "daily_limit", `The messaging tier allows ${limit} users outside a service window per 24 hours.`);
          }
        }
      }
      const scale = delayScale(this.env);
      if (connection.channel === "whatsapp-cloud") {
        if (lastOut !== null && now - lastOut < pairGapMs(scale)) return { kind: "wait", at: lastOut + pairGapMs(scale) };
      }
      let gapMs = this.plannedGap(contact.id);
      if (gapMs === null) {
        gapMs = pickDelayMs(row.delay, scale);
        this.setMeta("plan", JSON.stringify({ contactId: contact.id, gapMs }));
      }
      const leaseId = this.meta("lease") ?? newId();
      this.setMeta("lease", leaseId);
      const turn = await takeTurn(db, connection, gapMs, Date.now(), leaseId);
      if (!turn.ok) return { kind: "wait", at: turn.at };
      // The commit: from here on this recipient is sent with this run id, whatever happens.
      runId = newId();
      const committed = await db
        .update(broadcastRecipients)
        .set({ status: "sending", runId, sendingAt: Date.now(), outsideWindow: outside ? 1 : 0 })
        .where(and(eq(broadcastRecipients.broadcastId, row.id), eq(broadcastRecipients.contactId, contact.id), eq(broadcastRecipients.status, "pending")))
        .returning({ runId: broadcastRecipients.runId });
      this.deleteMeta("plan");
      if (!committed[0]?.runId) {
        await this.release(db, connection.id, Date.now());
        return { kind: "done" };
      }
      runId = committed[0].runId;
      outsideWindow = outside;
      sendingAt = Date.now();
    }
    if (!externalId) return this.reject(db, row, contact.id, "no_identity", null);

    // Created quiet, as in `handOff`: the first message publishes the new ticket's list entry.
    const { ticket } = await companyTicketOf(this.env, db, connection, contact.id, { open, quiet: true });
    const ticketId = ticket.id;
    // Outside the window the approved template opens the conversation first (once per recipient).
    if (outsideWindow) {
      const failed = await this.sendTemplate(db, row, connection, contact, externalId, ticketId);
      if (failed) {
        await announceTicket(this.env, row.companyId, ticketId);
        await this.release(db, connection.id, Date.now());
        return this.reject(db, row, contact.id, "send_failed", failed);
      }
    }
    const started = await contactSessionOf(this.env, row.companyId, connection.channel, externalId).startFlow({
      companyId: row.companyId,
      channel: connection.channel,
      externalId,
      connectionId: connection.id,
      ticketId,
      ticket: { id: ticket.id, companyId: ticket.companyId, contactId: ticket.contactId },
      flowId: row.flowId,
      runId,
    });
    // The fault switch's "alarm throws halfway": the flow has started, the recipient is not yet
    // marked sent; the retried alarm must not start it again.
    maybeFailHere(this.env, this.ctx.storage.sql, "alarm");
    if (!started.ok) {
      await announceTicket(this.env, row.companyId, ticketId);
      await this.release(db, connection.id, Date.now());
      return this.reject(db, row, contact.id, "flow_failed", "The broadcast's flow is not published.");
    }
    // The connection's turn is held until the flow's first message left for real (the ticket room
    // sends it, retrying transient failures): only then may the next send of the connection start,
    // so the pause is measured between the provider's receipts, retries included.
    const first = await db
      .select({ status: messages.status, errorCode: messages.errorCode, errorMessage: messages.errorMessage })
      .from(messages)
      .where(and(eq(messages.ticketId, ticketId), eq(messages.companyId, row.companyId), eq(messages.direction, "out"), like(messages.idempotencyKey, `flow:${runId}:%`)))
      .orderBy(messages.seq)
      .limit(1);
    // Bounded: a send the ticket room keeps retrying (or holds in doubt after a restart) is its
    // business from SETTLE_MAX_MS on; the broadcast goes on.
    if (first[0]?.status === "pending" && Date.now() - (sendingAt ?? 0) < SETTLE_MAX_MS) return { kind: "wait", at: Date.now() + SETTLE_POLL_MS };
    // The flow sent nothing (yet): the ticket's list entry was not published with a message.
    if (!first[0]) await announceTicket(this.env, row.companyId, ticketId);
    if (first[0]?.status === "failed") {
      await this.release(db, connection.id, Date.now());
      return this.reject(db, row, contact.id, "send_failed", `${first[0].errorCode ?? "failed"}: ${first[0].errorMessage ?? ""}`.slice(0, 500));
    }
    const at = Date.now();
    // Counted only while the row is still `sending` (in the same transaction as the change), so a
    // retried alarm never counts a recipient twice.
    await db.batch([
      db
        .update(broadcasts)
        .set({ sentCount: sql`${broadcasts.sentCount} + 1`, updatedAt: at })
        .where(and(eq(broadcasts.id, row.id), sql`EXISTS (SELECT 1 FROM ${broadcastRecipients} WHERE ${pendingRow(row.id, contact.id, ["sending"])})`)),
      db
        .update(broadcastRecipients)
        .set({ status: "sent", doneAt: at })
        .where(and(eq(broadcastRecipients.broadcastId, row.id), eq(broadcastRecipients.contactId, contact.id), eq(broadcastRecipients.status, "sending"))),
    ]);
    await this.release(db, connection.id, at);
    return { kind: "done" };
  }

  /**
   * Sends the broadcast's approved template to the contact unless it already went out (marked on
   * the recipient row right after the provider accepted it), and keeps it in ticket `ticketId` as
   * sent (worker/lib/template-messages.ts), so the chat shows what opened the conversation. Its
   * header, body and button variables are filled from the contact's fields, custom fields or fixed
   * text; a button's kind (URL suffix, quick-reply payload, coupon code) comes from the synced
   * template. Answers null, or why it failed.
   */
  private async sendTemplate(db: Db, row: BroadcastRow, connection: ConnectionRow, contact: ContactRow, externalId: string, ticketId: string): Promise<string | null> {
    const template = row.template;
    if (!template) return "No template for a recipient outside the 24-hour window.";
    const [mark] = await db
      .select({ at: broadcastRecipients.templateSentAt })
      .from(broadcastRecipients)
      .where(and(eq(broadcastRecipients.broadcastId, row.id), eq(broadcastRecipients.contactId, contact.id)));
    if (mark?.at) return null;
    const adapter = adapterFor(this.env, connection);
    if (!adapter.sendTemplate) return "This channel cannot send templates.";
    const fieldIds = template.variables.flatMap((v) => (v.source.type === "custom_field" ? [v.source.fieldId] : []));
    const values = fieldIds.length
      ? new Map(
          (
            await db
              .select({ fieldId: contactFieldValues.fieldId, value: contactFieldValues.value })
              .from(contactFieldValues)
              .where(and(eq(contactFieldValues.companyId, row.companyId), eq(contactFieldValues.contactId, contact.id), inArray(contactFieldValues.fieldId, fieldIds)))
          ).map((v) => [v.fieldId, v.value]),
        )
      : new Map<string, string>();
    const { first, last } = splitName(contact.name);
    const contactValue: Record<string, string | null> = { full_name: contact.name, first_name: first, last_name: last, phone: contact.phone, email: contact.email, document: contact.document };
    const valueOf = (source: BroadcastTemplate["variables"][number]["source"]) =>
      source.type === "text" ? source.text : source.type === "contact" ? (contactValue[source.field] ?? "") : (values.get(source.fieldId) ?? "");
    const params = (component: "header" | "body") =>
      template.variables
        .filter((v) => v.component === component)
        .sort((a, b) => a.index - b.index)
        .map((v) => valueOf(v.source) || "-");
    const stored = await db.query.connectionTemplates.findFirst({
      where: and(eq(connectionTemplates.companyId, row.companyId), eq(connectionTemplates.connectionId, connection.id)),
    });
    const synced = stored?.templates.find((t) => t.name === template.name && t.language === template.language);
    const buttonParams: TemplateButtonParam[] = template.variables
      .filter((v) => v.component === "button")
      .sort((a, b) => (a.buttonIndex ?? 0) - (b.buttonIndex ?? 0) || a.index - b.index)
      .filter((v, i, all) => all.findIndex((o) => (o.buttonIndex ?? 0) === (v.buttonIndex ?? 0)) === i)
      .map((v) => ({ index: v.buttonIndex ?? 0, subType: buttonSubType(synced, v.buttonIndex ?? 0), text: valueOf(v.source) || "-" }));
    const send = { name: template.name, language: template.language, headerParams: params("header"), bodyParams: params("body"), ...(buttonParams.length ? { buttonParams } : {}) };
    const result = await adapter.sendTemplate(connection, { externalId, phone: contact.phone }, send);
    if (!result.ok) return `${result.errorCode}: ${result.errorMessage}`.slice(0, 500);
    await storeSentTemplate(this.env, { id: ticketId, companyId: row.companyId, contactId: contact.id }, connection.id, send, result.externalId, { name: null, apiKeyId: null });
    await db
      .update(broadcastRecipients)
      .set({ templateSentAt: Date.now() })
      .where(and(eq(broadcastRecipients.broadcastId, row.id), eq(broadcastRecipients.contactId, contact.id)));
    return null;
  }

  /** Marks a recipient rejected with `reason` and counts it. */
  private async reject(db: Db, row: BroadcastRow, contactId: string, reason: RejectReason, detail: string | null): Promise<Step> {
    const at = Date.now();
    await db.batch([
      db
        .update(broadcasts)
        .set({ rejectedCount: sql`${broadcasts.rejectedCount} + 1`, updatedAt: at })
        .where(and(eq(broadcasts.id, row.id), sql`EXISTS (SELECT 1 FROM ${broadcastRecipients} WHERE ${pendingRow(row.id, contactId, ["pending", "sending"])})`)),
      db
        .update(broadcastRecipients)
        .set({ status: "rejected", reason, detail, doneAt: at })
        .where(pendingRow(row.id, contactId, ["pending", "sending"])),
    ]);
    return { kind: "done" };
  }

  /** Every recipient is sent or rejected: the broadcast is done (history). */
  private async finish(db: Db, row: BroadcastRow): Promise<null> {
    const at = Date.now();
    const finished = await db
      .update(broadcasts)
      .set({ status: "done", finishedAt: at, updatedAt: at })
      .where(and(eq(broadcasts.id, row.id), eq(broadcasts.status, "started")))
      .returning({ sent: broadcasts.sentCount, rejected: broadcasts.rejectedCount });
    this.setMeta("state", "done");
    // Outbound event subscriptions (worker/lib/event-subscriptions.ts), once: only the call that finished it.
    if (finished[0]) await emitEvent(this.env, row.companyId, "broadcast.finished", { broadcast: { id: row.id, name: row.name, sent: finished[0].sent, rejected: finished[0].rejected, finishedAt: at } });
    await this.maybePublish(db, row.id, true);
    return null;
  }

  /** Pushes the counts to the hub when PUBLISH_EVERY_MS passed since the last push (or `force`). */
  private async maybePublish(db: Db, broadcastId: string, force: boolean): Promise<void> {
    if (!force && Date.now() - this.lastPublish < PUBLISH_EVERY_MS) return;
    this.lastPublish = Date.now();
    const fresh = await db.query.broadcasts.findFirst({ where: eq(broadcasts.id, broadcastId) });
    if (fresh) await publishProgress(this.env, fresh);
  }

  /** The pause drawn for `contactId`'s send before a wait or a restart, if any (ms). */
  private plannedGap(contactId: string): number | null {
    const raw = this.meta("plan");
    if (!raw) return null;
    const plan: { contactId?: unknown; gapMs?: unknown } = JSON.parse(raw);
    return plan.contactId === contactId && typeof plan.gapMs === "number" ? plan.gapMs : null;
  }

  /** Gives the connection's turn back (the send was handed off at `at`). */
  private async release(db: Db, connectionId: string, at: number): Promise<void> {
    const leaseId = this.meta("lease");
    if (!leaseId) return;
    await releaseTurn(db, connectionId, leaseId, at);
    this.deleteMeta("lease");
  }

  /** A `meta` value; read from storage once per instance, then from `metaCache`. */
  private meta(k: string): string | null {
    if (this.metaCache.has(k)) return this.metaCache.get(k) ?? null;
    const v = this.ctx.storage.sql.exec<{ v: string }>("SELECT v FROM meta WHERE k = ?", k).toArray()[0]?.v ?? null;
    this.metaCache.set(k, v);
    return v;
  }

  private setMeta(k: string, v: string): void {
    this.ctx.storage.sql.exec("INSERT INTO meta (k, v) VALUES (?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v", k, v);
    this.metaCache.set(k, v);
  }

  private deleteMeta(k: string): void {
    this.ctx.storage.sql.exec("DELETE FROM meta WHERE k = ?", k);
    this.metaCache.set(k, null);
  }
}

/**
 * `readRecipient`'s five selects (the contact, its identities on the channel, its last inbound and
 * outbound message on the connection, its open ticket there) with named placeholders (`companyId`,
 * `contactId`, `connectionId`, `channel`), built from the same query helpers and prepared once per
 * drizzle instance (`prepared` in worker/lib/db.ts; issue 10: building them was a large part of
 * each recipient's CPU).
 */
function recipientReads(db: Db) {
  const companyId = sql.placeholder("companyId");
  const contactId = sql.placeholder("contactId");
  const connectionId = sql.placeholder("connectionId");
  return {
    contact: prepared(db, "broadcast.contact", () =>
      db
        .select()
        .from(contacts)
        .where(and(eq(contacts.id, contactId), eq(contacts.companyId, companyId)))
        .limit(1)
        .prepare(),
    ),
    identities: prepared(db, "broadcast.identities", () => identitiesQuery(db, companyId, contactId, sql.placeholder("channel")).prepare()),
    lastIn: prepared(db, "broadcast.last-in", () => lastMessageQuery(db, companyId, contactId, connectionId, "in").prepare()),
    lastOut: prepared(db, "broadcast.last-out", () => lastMessageQuery(db, companyId, contactId, connectionId, "out").prepare()),
    open: prepared(db, "broadcast.open", () => openCompanyTicketQuery(db, { id: connectionId, companyId }, contactId).prepare()),
  };
}

/** The recipient row of `contactId` while it is in one of `statuses`. */
function pendingRow(broadcastId: string, contactId: string, statuses: ("pending" | "sending")[]) {
  return and(eq(broadcastRecipients.broadcastId, broadcastId), eq(broadcastRecipients.contactId, contactId), inArray(broadcastRecipients.status, statuses));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
