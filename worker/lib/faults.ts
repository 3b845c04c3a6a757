/**
 * The fault switch (issue 17): makes named operations fail on purpose, so the retry paths that keep
 * "no message lost, nothing done twice" are exercised by tests and by `npm run soak:faults`.
 *
 * Operations (`FaultOp`) and where they are hooked:
 * - `effect`: a ContactSession outbox effect (worker/durable-objects/contact-session.ts `drain`);
 * - `alarm`: a Durable Object alarm (ContactSession and TicketRoom `alarm`);
 * - `send`: a provider send in the channel adapters (whatsapp-cloud.ts, sandbox.ts) or, armed, in the
 *   TicketRoom (`deliver`), answered as a transient failure (`retryable: true`, code
 *   `fault_injected`) without reaching the provider (see `injectedSendAnswer`);
 * - `queue`: a `jobs` queue message (worker/queues/jobs.ts), whose handler throws before running.
 * - `step`: a ContactSession step commit (`commit`, and a new run's first step in `begin`), thrown
 *   after the inbound message was stored and before its step is committed: what a restart at that
 *   moment leaves behind (the message's redelivery must route it again).
 *
 * Every roll is an independent draw from the CSPRNG (`faultDraw`), so faults are never correlated
 * across attempts, messages or restarts.
 *
 * Two ways to turn faults on, both only when `ENVIRONMENT` is `local` or `test` (wrangler.toml sets
 * `ENVIRONMENT = "production"` for every deployed configuration, so a deploy never honours them):
 * - `FAULTS`, a rate per operation: `"effect:0.1,alarm:0.05,send:0.1,queue:0.1"` (each rate 0..1;
 *   unknown names and malformed parts are ignored);
 * - armed counters, "fail the next N of op": kept in a Durable Object's own SQLite storage (a
 *   `faults` table), so they belong to one contact, ticket or job and never leak between test files
 *   (no module-global state). ContactSession.armFaults sets them; `takeArmedFault` consumes one.
 */
import type { SendResult } from "../channels/types";
import type { AppEnv } from "../env";

/** The settings the switch reads (an AppEnv, or a plain object in tests; unset means "not local"). */
export type FaultEnv = { ENVIRONMENT?: string | undefined; FAULTS?: string | undefined };

/** The operations the switch can fail. */
export type FaultOp = "effect" | "alarm" | "send" | "queue" | "step";

const OPS: readonly FaultOp[] = ["effect", "alarm", "send", "queue", "step"];

/** The error an injected fault throws; its message names the operation. */
export class FaultInjected extends Error {
  constructor(readonly op: FaultOp) {
    super(`Injected fault (${op})`);
    this.name = "FaultInjected";
  }
}

/** Environments in which faults may be honoured (`ENVIRONMENT`). */
const FAULT_ENVIRONMENTS = new Set(["local", "test"]);

/** True when this environment may honour faults: `ENVIRONMENT` is `local` or `test`, nothing else. */
export function faultsEnabled(env: FaultEnv): boolean {
  return FAULT_ENVIRONMENTS.has(env.ENVIRONMENT ?? "");
}

/**
 * The rates of `FAULTS` (`op:rate` pairs separated by commas, rate 0..1), or an empty map when the
 * environment may not honour faults.
 */
export function faultRates(env: FaultEnv): Map<FaultOp, number> {
  const rates = new Map<FaultOp, number>();
  if (!faultsEnabled(env) || !env.FAULTS) return rates;
  for (const part of env.FAULTS.split(",")) {
    const [name, value] = part.split(":").map((s) => s.trim());
    const op = OPS.find((o) => o === name);
    const rate = Number(value);
    if (op && Number.isFinite(rate)) rates.set(op, Math.min(1, Math.max(0, rate)));
  }
  return rates;
}

/**
 * A uniform draw in [0, 1) from the platform's CSPRNG (`crypto.getRandomValues`), so every roll is
 * independent of every other: of other objects, of an instance started after a restart and of the
 * same message's earlier attempts (no seeded or shared sequence can make one message fail every time).
 */
export function faultDraw(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0]! / 2 ** 32;
}

/** True when `op` should fail now by its `FAULTS` rate (always false outside local/test). */
export function rolled(env: FaultEnv, op: FaultOp, draw: () => number = faultDraw): boolean {
  const rate = faultRates(env).get(op) ?? 0;
  return rate > 0 && draw() < rate;
}

/** Throws FaultInjected when `op` should fail now by its `FAULTS` rate. */
export function maybeFail(env: FaultEnv, op: FaultOp): void {
  if (rolled(env, op)) throw new FaultInjected(op);
}

/**
 * A provider send's injected answer: a transient failure (as a 5xx would be) when `send` should
 * fail now by its rate, else null (send for real).
 */
export function injectedSendFailure(env: FaultEnv): Extract<SendResult, { ok: false }> | null {
  if (!rolled(env, "send")) return null;
  return injectedSendAnswer();
}

/**
 * What an injected `send` fault answers: a transient failure with code `fault_injected`, made before
 * the request leaves, so the provider never sees it. It stands for an outbound request of ours that
 * failed (a connection refused or reset, a subrequest the runtime refused), not for an answer of the
 * provider: the TicketRoom retries it on its time budget for failures of ours, not against the
 * provider's attempt limit (worker/durable-objects/ticket-room.ts `isProviderAnswer`). The
 * provider's own transient answers are injected on the Graph API stand-in's side (its
 * `sendFailRate` and POST /__faults).
 */
export function injectedSendAnswer(): Extract<SendResult, { ok: false }> {
  return { ok: false, errorCode: "fault_injected", errorMessage: "Injected fault (send): the outbound request failed before reaching the provider.", retryable: true };
}

/**
 * The table of armed counters in a Durable Object's SQLite storage. The ContactSession and the
 * TicketRoom do not create it with their tables (issue 16: one DDL less for every new contact and
 * ticket in production, where faults are never honoured): `armFault` and `takeArmedFault` create it
 * on first use, only where faults are enabled.
 */
export const FAULTS_TABLE = "CREATE TABLE IF NOT EXISTS faults (op TEXT PRIMARY KEY, n INTEGER NOT NULL)";

/** The SQL storages whose `faults` table this isolate has made sure of. */
const faultsTableReady = new WeakSet<SqlStorage>();

/** Creates `sql`'s `faults` table unless this isolate did already (idempotent). */
function ensureFaultsTable(sql: SqlStorage): void {
  if (faultsTableReady.has(sql)) return;
  sql.exec(FAULTS_TABLE);
  faultsTableReady.add(sql);
}

/**
 * The objects whose `faults` table holds no armed failure, by their SQL storage (issue 10: the
 * hot paths no longer write to it on every alarm or send). Set when a take finds nothing armed,
 * cleared by `armFault`; faults are armed only through the object that takes them (its RPC
 * `armFaults`), so the mark is never stale. Kept per isolate; a new instance reads its table once.
 */
const nothingArmed = new WeakSet<SqlStorage>();

/**
 * Arms `n` failures of `op` in this object's storage (replacing what was armed). Refused (false)
 * outside local/test, so a deployed object never stores one.
 */
export function armFault(env: FaultEnv, sql: SqlStorage, op: FaultOp, n: number): boolean {
  if (!faultsEnabled(env)) return false;
  nothingArmed.delete(sql);
  ensureFaultsTable(sql);
  sql.exec("INSERT INTO faults (op, n) VALUES (?, ?) ON CONFLICT(op) DO UPDATE SET n = excluded.n", op, Math.max(0, Math.floor(n)));
  return true;
}

/**
 * Consumes one armed failure of `op` from this object's storage; true when one was armed. Once
 * the object's table holds none (of any op), answers false without touching storage until the
 * next `armFault` on it.
 */
export function takeArmedFault(env: FaultEnv, sql: SqlStorage, op: FaultOp): boolean {
  if (!faultsEnabled(env)) return false;
  if (nothingArmed.has(sql)) return false;
  ensureFaultsTable(sql);
  // A read first (no write when nothing is armed, the usual case), then the one consuming write.
  const armed = sql.exec<{ op: string }>("SELECT op FROM faults WHERE n > 0").toArray();
  if (armed.length === 0) {
    nothingArmed.add(sql);
    return false;
  }
  if (!armed.some((row) => row.op === op)) return false;
  return sql.exec<{ n: number }>("UPDATE faults SET n = n - 1 WHERE op = ? AND n > 0 RETURNING n", op).toArray()[0] !== undefined;
}

/**
 * The Durable Object that keeps armed faults of a scope with no object of its own (a job: scope
 * `job:<jobId>`): a ContactSession named `faults:<scope>`, used only for its `faults` table.
 */
export function faultScopeOf(env: AppEnv, scope: string) {
  return env.CONTACT_SESSION.get(env.CONTACT_SESSION.idFromName(`faults:${scope}`));
}

/**
 * Throws FaultInjected when a `queue` message of job `jobId` should fail now: one armed in its
 * scope (`faultScopeOf(env, "job:<jobId>").armFaults("queue", n)`), else by rate. Nothing happens,
 * and no object is called, outside local/test.
 */
export async function maybeFailJob(env: AppEnv, jobId: string): Promise<void> {
  if (!faultsEnabled(env)) return;
  if (await faultScopeOf(env, `job:${jobId}`).takeFault("queue")) throw new FaultInjected("queue");
  maybeFail(env, "queue");
}

/**
 * Throws FaultInjected when `op` should fail now: an armed failure in `sql` first, else by rate.
 * Nothing happens outside local/test.
 */
export function maybeFailHere(env: FaultEnv, sql: SqlStorage, op: FaultOp): void {
  if (!faultsEnabled(env)) return;
  if (takeArmedFault(env, sql, op)) throw new FaultInjected(op);
  maybeFail(env, op);
}
