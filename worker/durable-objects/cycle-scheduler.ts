/**
 * CycleScheduler: one per company. Keeps the company's shipping-cycle enrolments and runs their
 * steps on time (issue 10 "Timers"; spec §3 Shipping cycle). The cycles themselves (name, active,
 * steps) are read from D1 when a step is due, so an edit applies to the next step.
 *
 * Storage (SQLite):
 * - `enrolments`: one per (cycle, contact): the next step's index, its time (`next_at`, ms UTC) and
 *   a status — `waiting` (for `next_at`), `held` (the cycle is inactive; `next_at` kept),
 *   `running` (its step is committed to the outbox, not yet performed) or `done` (kept for the
 *   contact's page). This is the timer table: ONE alarm is set to the earliest waiting `next_at`.
 * - `outbox`: steps committed and not yet performed, keyed `<enrolmentId>:<stepIndex>`;
 * - `done`: the keys of the steps performed (the idempotency keys; pruned after 90 days);
 * - `faults`: armed faults of the fault switch (local and test only, worker/lib/faults.ts).
 *
 * Alarms are at-least-once, so a due step is first committed (outbox row in, enrolment `running`,
 * in one storage transaction), then performed (its flow started, worker/lib/shipping-cycles.ts
 * runCycleStep), then its key stored in `done` at once, then the enrolment moved to its next step.
 * A retried alarm or a restart finishes the outbox and never starts a step whose key is done; a
 * crash between the flow start and the `done` write is covered too: the outbox row carries the run
 * id chosen at commit, and the ContactSession starts a run of that id at most once.
 *
 * The next step's wait counts from the LAST ACTION of the previous step's flow (spec §3 "start flow
 * timing after the last action"): the enrolment keeps that run (`prev_run_id`, `prev_session`), and
 * when the next step falls due (its wait after the previous step started, the earliest it can be)
 * the run is looked up in its ContactSession. A run still acting (running, or waiting on a delay or
 * an HTTP answer) moves the step one wait further; an ended run, or one idle waiting for the
 * customer's reply, moves it to its last action (`updatedAt`) plus the wait when that is later.
 */
import { DurableObject } from "cloudflare:workers";
import { and, eq, inArray } from "drizzle-orm";
import { shippingCycles, type ShippingCycleRow } from "../../schema";
import type { EnrolmentStatus } from "../../schema/validation/shipping-cycles";
import type { AppEnv } from "../env";
import { companyTimeZone } from "../lib/contacts";
import { getDb, type Db } from "../lib/db";
import { FAULTS_TABLE, armFault, maybeFailHere, type FaultOp } from "../lib/faults";
import { newId } from "../lib/ids";
import { contactSessionOf } from "../lib/realtime";
import { addWait, runCycleStep } from "../lib/shipping-cycles";
import type { CycleWait } from "../../schema/validation/shipping-cycles";

/** Due enrolments committed per alarm; more re-arm the alarm at once. */
const DUE_BATCH = 50;
/** A step whose perform failed this many times is given up (the cycle goes on). */
const MAX_STEP_ATTEMPTS = 5;
/** Delay before an alarm that failed runs again (ms). */
const RETRY_MS = 2_000;
/** How long a performed step's key is kept (ms). */
const DONE_KEPT_MS = 90 * 24 * 3600 * 1000;

/** One enrolment as stored; times ms UTC. */
export type EnrolmentRow = {
  id: string;
  cycle_id: string;
  contact_id: string;
  step_index: number;
  status: "waiting" | "held" | "running" | "done";
  next_at: number | null;
  last_run_at: number | null;
  created_at: number;
  updated_at: number;
} & PreviousRun;

/** An enrolment as the contact's page shows it (the route adds the cycle's name and step count). */
export type EnrolmentView = { cycleId: string; status: EnrolmentStatus; stepIndex: number; nextRunAt: number | null; lastRunAt: number | null; enrolledAt: number };

type OutboxRow = { key: string; enrolment_id: string; contact_id: string; flow_id: string; step_index: number; attempts: number; run_id: string | null };

/** The previous step's run, as the enrolment keeps it. */
type PreviousRun = { prev_run_id: string | null; prev_session: string | null };

export class CycleScheduler extends DurableObject<AppEnv> {
  constructor(ctx: DurableObjectState, env: AppEnv) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      const sql = this.ctx.storage.sql;
      sql.exec("CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)");
      sql.exec(
        "CREATE TABLE IF NOT EXISTS enrolments (id TEXT PRIMARY KEY, cycle_id TEXT NOT NULL, contact_id TEXT NOT NULL, step_index INTEGER NOT NULL, status TEXT NOT NULL, next_at INTEGER, last_run_at INTEGER, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, UNIQUE (cycle_id, contact_id))",
      );
      sql.exec("CREATE INDEX IF NOT EXISTS enrolments_due ON enrolments (status, next_at)");
      sql.exec("CREATE INDEX IF NOT EXISTS enrolments_contact ON enrolments (contact_id)");
      sql.exec(
        "CREATE TABLE IF NOT EXISTS outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT NOT NULL UNIQUE, enrolment_id TEXT NOT NULL, contact_id TEXT NOT NULL, flow_id TEXT NOT NULL, step_index INTEGER NOT NULL, attempts INTEGER NOT NULL DEFAULT 0)",
      );
      sql.exec("CREATE TABLE IF NOT EXISTS done (key TEXT PRIMARY KEY, at INTEGER NOT NULL)");
      // Added after the first release of this object: columns of objects created before.
      const has = (table: string, column: string) => sql.exec<{ name: string }>(`PRAGMA table_info(${table})`).toArray().some((c) => c.name === column);
      if (!has("outbox", "run_id")) sql.exec("ALTER TABLE outbox ADD COLUMN run_id TEXT");
      if (!has("enrolments", "prev_run_id")) sql.exec("ALTER TABLE enrolments ADD COLUMN prev_run_id TEXT");
      if (!has("enrolments", "prev_session")) sql.exec("ALTER TABLE enrolments ADD COLUMN prev_session TEXT");
      sql.exec(FAULTS_TABLE);
      // A fired alarm is used up; one lost in a restart is repaired from what storage says is due.
      await this.rearm();
    });
  }

  /**
   * Enrols `contactIds` in `cycleId`, the first step due at `firstAt` (ms UTC), held when the cycle
   * is inactive. A contact already in the cycle (not done) is answered in `already`; one who
   * finished it starts again.
   */
  async enrol(input: { companyId: string; cycleId: string; contactIds: string[]; firstAt: number; active: boolean }): Promise<{ enrolled: string[]; already: string[] }> {
    this.setCompany(input.companyId);
    const sql = this.ctx.storage.sql;
    const enrolled: string[] = [];
    const already: string[] = [];
    const at = Date.now();
    this.ctx.storage.transactionSync(() => {
      for (const contactId of input.contactIds) {
        const existing = sql.exec<EnrolmentRow>("SELECT * FROM enrolments WHERE cycle_id = ? AND contact_id = ?", input.cycleId, contactId).toArray()[0];
        if (existing && existing.status !== "done") {
          already.push(contactId);
          continue;
        }
        if (existing) sql.exec("DELETE FROM enrolments WHERE id = ?", existing.id);
        sql.exec(
          "INSERT INTO enrolments (id, cycle_id, contact_id, step_index, status, next_at, last_run_at, created_at, updated_at) VALUES (?, ?, ?, 0, ?, ?, NULL, ?, ?)",
          newId(),
          input.cycleId,
          contactId,
          input.active ? "waiting" : "held",
          input.firstAt,
          at,
          at,
        );
        enrolled.push(contactId);
      }
    });
    await this.rearm();
    return { enrolled, already };
  }

  /** Takes `contactId` out of `cycleId` (its step not yet performed is dropped); false when not enrolled (or done). */
  async remove(cycleId: string, contactId: string): Promise<boolean> {
    const sql = this.ctx.storage.sql;
    const row = sql.exec<EnrolmentRow>("SELECT * FROM enrolments WHERE cycle_id = ? AND contact_id = ? AND status <> 'done'", cycleId, contactId).toArray()[0];
    if (!row) return false;
    this.ctx.storage.transactionSync(() => {
      sql.exec("DELETE FROM outbox WHERE enrolment_id = ?", row.id);
      sql.exec("DELETE FROM enrolments WHERE id = ?", row.id);
    });
    await this.rearm();
    return true;
  }

  /** Takes `contactId` out of every cycle (opt-out, a deleted contact); answers how many enrolments were not done. */
  async removeContact(contactId: string): Promise<number> {
    const sql = this.ctx.storage.sql;
    const live = sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM enrolments WHERE contact_id = ? AND status <> 'done'", contactId).one().n;
    this.ctx.storage.transactionSync(() => {
      sql.exec("DELETE FROM outbox WHERE contact_id = ?", contactId);
      sql.exec("DELETE FROM enrolments WHERE contact_id = ?", contactId);
    });
    await this.rearm();
    return live;
  }

  /** Drops every enrolment of a deleted cycle. */
  async removeCycle(cycleId: string): Promise<void> {
    const sql = this.ctx.storage.sql;
    this.ctx.storage.transactionSync(() => {
      sql.exec("DELETE FROM outbox WHERE enrolment_id IN (SELECT id FROM enrolments WHERE cycle_id = ?)", cycleId);
      sql.exec("DELETE FROM enrolments WHERE cycle_id = ?", cycleId);
    });
    await this.rearm();
  }

  /**
   * The cycle was turned off (`active: false`: waiting enrolments are held, their times kept) or on
   * (held ones wait again; a step whose time passed runs at the next alarm, at once).
   */
  async setCycleActive(cycleId: string, active: boolean): Promise<void> {
    const sql = this.ctx.storage.sql;
    if (active) sql.exec("UPDATE enrolments SET status = 'waiting', updated_at = ? WHERE cycle_id = ? AND status = 'held'", Date.now(), cycleId);
    else sql.exec("UPDATE enrolments SET status = 'held', updated_at = ? WHERE cycle_id = ? AND status = 'waiting'", Date.now(), cycleId);
    await this.rearm();
  }

  /** The contact's enrolments, newest first. A `running` one shows as waiting, due now. */
  async listForContact(contactId: string): Promise<EnrolmentView[]> {
    const rows = this.ctx.storage.sql.exec<EnrolmentRow>("SELECT * FROM enrolments WHERE contact_id = ? ORDER BY created_at DESC, id DESC", contactId).toArray();
    return rows.map((row) => ({
      cycleId: row.cycle_id,
      status: row.status === "running" ? "waiting" : row.status,
      stepIndex: row.step_index,
      nextRunAt: row.status === "waiting" ? row.next_at : row.status === "running" ? Date.now() : null,
      lastRunAt: row.last_run_at,
      enrolledAt: row.created_at,
    }));
  }

  /** Enrolments not done, by cycle id. */
  async counts(): Promise<Record<string, number>> {
    const rows = this.ctx.storage.sql.exec<{ cycle_id: string; n: number }>("SELECT cycle_id, COUNT(*) AS n FROM enrolments WHERE status <> 'done' GROUP BY cycle_id").toArray();
    return Object.fromEntries(rows.map((row) => [row.cycle_id, row.n]));
  }

  /** Arms `n` failures of `op` here (worker/lib/faults.ts): `alarm` fails the next alarms before anything, `effect` right after a step's flow started. */
  async armFaults(op: FaultOp, n: number): Promise<boolean> {
    return armFault(this.env, this.ctx.storage.sql, op, n);
  }

  /** Commits the due steps, then performs the outbox. Idempotent (see the header). */
  override async alarm(): Promise<void> {
    let failed = false;
    let more = false;
    try {
      maybeFailHere(this.env, this.ctx.storage.sql, "alarm");
      const db = getDb(this.env.DB);
      await this.drain(db);
      more = await this.commitDue(db);
      await this.drain(db);
    } catch (error) {
      // Nothing is lost: committed steps wait in the outbox, due enrolments are still due.
      console.error("[cycle-scheduler] alarm failed; retrying", error);
      failed = true;
    } finally {
      await this.rearm(failed ? Date.now() + RETRY_MS : more ? Date.now() : undefined);
    }
  }

  /** Commits up to DUE_BATCH due steps to the outbox; true when more are due. */
  private async commitDue(db: Db): Promise<boolean> {
    const sql = this.ctx.storage.sql;
    const due = sql.exec<EnrolmentRow>("SELECT * FROM enrolments WHERE status = 'waiting' AND next_at <= ? ORDER BY next_at LIMIT ?", Date.now(), DUE_BATCH + 1).toArray();
    const batch = due.slice(0, DUE_BATCH);
    if (batch.length === 0) return false;
    const cycles = await this.cycles(db, batch.map((row) => row.cycle_id));
    const companyId = this.company();
    const timeZone = batch.some((row) => row.prev_run_id) && companyId ? await companyTimeZone(db, companyId) : "UTC";
    const later = new Map<string, number>();
    for (const row of batch) {
      const step = cycles.get(row.cycle_id)?.steps[row.step_index];
      if (!step || !row.prev_run_id || !row.prev_session || !companyId) continue;
      const dueAt = await this.afterLastAction(companyId, row.prev_run_id, row.prev_session, step.wait, timeZone);
      if (dueAt > Date.now()) later.set(row.id, dueAt);
    }
    const at = Date.now();
    this.ctx.storage.transactionSync(() => {
      for (const row of batch) {
        const cycle = cycles.get(row.cycle_id);
        const deferTo = later.get(row.id);
        if (cycle?.active && deferTo !== undefined) {
          sql.exec("UPDATE enrolments SET next_at = ?, updated_at = ? WHERE id = ?", deferTo, at, row.id);
          continue;
        }
        if (!cycle) {
          sql.exec("DELETE FROM enrolments WHERE id = ?", row.id);
          continue;
        }
        if (!cycle.active) {
          sql.exec("UPDATE enrolments SET status = 'held', updated_at = ? WHERE id = ?", at, row.id);
          continue;
        }
        const step = cycle.steps[row.step_index];
        if (!step) {
          sql.exec("UPDATE enrolments SET status = 'done', next_at = NULL, updated_at = ? WHERE id = ?", at, row.id);
          continue;
        }
        sql.exec(
          "INSERT OR IGNORE INTO outbox (key, enrolment_id, contact_id, flow_id, step_index, run_id) VALUES (?, ?, ?, ?, ?, ?)",
          `${row.id}:${row.step_index}`,
          row.id,
          row.contact_id,
          step.flowId,
          row.step_index,
          newId(),
        );
        sql.exec("UPDATE enrolments SET status = 'running', updated_at = ? WHERE id = ?", at, row.id);
      }
    });
    return due.length > DUE_BATCH;
  }

  /**
   * Performs the outbox in order: starts each step's flow (once: its key goes to `done` right
   * after), then moves the enrolment to its next step, `wait` from now. A step that throws stays
   * for the retry and holds the later ones back, until MAX_STEP_ATTEMPTS: then it is given up.
   */
  private async drain(db: Db): Promise<void> {
    const sql = this.ctx.storage.sql;
    const companyId = this.company();
    if (!companyId) return;
    const cycleCache = new Map<string, ShippingCycleRow | undefined>();
    let timeZone: string | null = null;
    for (;;) {
      const item = sql.exec<OutboxRow>("SELECT * FROM outbox ORDER BY seq LIMIT 1").toArray()[0];
      if (!item) return;
      const enrolment = sql.exec<EnrolmentRow>("SELECT * FROM enrolments WHERE id = ?", item.enrolment_id).toArray()[0];
      if (!enrolment) {
        sql.exec("DELETE FROM outbox WHERE key = ?", item.key);
        continue;
      }
      let contactGone = false;
      let previous: { runId: string; session: string } | null = null;
      if (sql.exec("SELECT 1 FROM done WHERE key = ?", item.key).toArray().length === 0) {
        try {
          const outcome = await runCycleStep(this.env, companyId, item.contact_id, item.flow_id, item.run_id ?? undefined);
          contactGone = outcome.status === "contact_gone";
          if (outcome.status === "started") previous = { runId: outcome.runId, session: `${outcome.channel}:${outcome.externalId}` };
          if (outcome.status === "skipped") console.warn(`[cycle-scheduler] step ${item.key}: ${outcome.reason}, skipped`);
        } catch (error) {
          if (item.attempts + 1 < MAX_STEP_ATTEMPTS) {
            sql.exec("UPDATE outbox SET attempts = attempts + 1 WHERE key = ?", item.key);
            throw error;
          }
          console.error(`[cycle-scheduler] step ${item.key} failed ${MAX_STEP_ATTEMPTS} times; given up`, error);
        }
        sql.exec("INSERT OR IGNORE INTO done (key, at) VALUES (?, ?)", item.key, Date.now());
        // The fault switch's `effect`: the alarm dies right after the step ran (tests prove the retry
        // does not run it again).
        maybeFailHere(this.env, sql, "effect");
      }
      if (contactGone) {
        this.ctx.storage.transactionSync(() => {
          sql.exec("DELETE FROM outbox WHERE key = ?", item.key);
          sql.exec("DELETE FROM enrolments WHERE id = ?", enrolment.id);
        });
        continue;
      }
      if (!cycleCache.has(enrolment.cycle_id)) cycleCache.set(enrolment.cycle_id, (await this.cycles(db, [enrolment.cycle_id])).get(enrolment.cycle_id));
      const cycle = cycleCache.get(enrolment.cycle_id);
      timeZone ??= await companyTimeZone(db, companyId);
      const nextIndex = item.step_index + 1;
      const nextStep = cycle?.steps[nextIndex];
      const at = Date.now();
      this.ctx.storage.transactionSync(() => {
        sql.exec("DELETE FROM outbox WHERE key = ?", item.key);
        if (!cycle) {
          sql.exec("DELETE FROM enrolments WHERE id = ?", enrolment.id);
          return;
        }
        sql.exec(
          "UPDATE enrolments SET step_index = ?, status = ?, next_at = ?, last_run_at = ?, updated_at = ?, prev_run_id = ?, prev_session = ? WHERE id = ?",
          nextIndex,
          nextStep ? (cycle.active ? "waiting" : "held") : "done",
          nextStep ? addWait(at, nextStep.wait, timeZone ?? "UTC") : null,
          at,
          at,
          previous?.runId ?? null,
          previous?.session ?? null,
          enrolment.id,
        );
      });
    }
  }

  /**
   * When a step may start after the previous step's run `runId` (in the ContactSession
   * `<channel>:<externalId>` of `session`): `wait` after its last action (ms UTC). A run still acting
   * (running, or waiting on a delay or an HTTP answer) answers one wait from now (looked at again
   * then); a run the session no longer keeps answers 0 (start now).
   */
  private async afterLastAction(companyId: string, runId: string, session: string, wait: CycleWait, timeZone: string): Promise<number> {
    const split = session.indexOf(":");
    const runs = await contactSessionOf(this.env, companyId, session.slice(0, split), session.slice(split + 1)).listRuns();
    const run = runs.find((r) => r.id === runId);
    if (!run) return 0;
    const acting = run.status === "running" || (run.status === "waiting" && run.waitingFor !== "reply");
    return addWait(acting ? Date.now() : run.updatedAt, wait, timeZone);
  }

  /** The company's cycles among `ids`, from D1. */
  private async cycles(db: Db, ids: string[]): Promise<Map<string, ShippingCycleRow>> {
    const companyId = this.company();
    const unique = [...new Set(ids)];
    if (!companyId || unique.length === 0) return new Map();
    const rows = await db.select().from(shippingCycles).where(and(eq(shippingCycles.companyId, companyId), inArray(shippingCycles.id, unique)));
    return new Map(rows.map((row) => [row.id, row]));
  }

  private setCompany(companyId: string): void {
    this.ctx.storage.sql.exec("INSERT INTO meta (k, v) VALUES ('companyId', ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v", companyId);
  }

  private company(): string | null {
    return this.ctx.storage.sql.exec<{ v: string }>("SELECT v FROM meta WHERE k = 'companyId'").toArray()[0]?.v ?? null;
  }

  /**
   * Sets the one alarm to the earliest waiting step (soon, when the outbox holds steps), or clears
   * it; never earlier than `notBefore` (ms UTC) when given.
   */
  private async rearm(notBefore?: number): Promise<void> {
    const sql = this.ctx.storage.sql;
    sql.exec("DELETE FROM done WHERE at < ?", Date.now() - DONE_KEPT_MS);
    const pending = sql.exec("SELECT 1 FROM outbox LIMIT 1").toArray().length > 0;
    const next = sql.exec<{ at: number | null }>("SELECT MIN(next_at) AS at FROM enrolments WHERE status = 'waiting'").one().at;
    const earliest = pending ? Math.min(next ?? Infinity, Date.now() + RETRY_MS) : next;
    const at = earliest === null || notBefore === undefined ? earliest : Math.max(earliest, notBefore);
    if (at === null) {
      if ((await this.ctx.storage.getAlarm()) !== null) await this.ctx.storage.deleteAlarm();
      return;
    }
    if ((await this.ctx.storage.getAlarm()) !== at) await this.ctx.storage.setAlarm(at);
  }
}
