/**
 * WhatsApp's sending rules, enforced in code for broadcasts (issue 10; shared/reference/
 * platform-limits.md B1):
 * - throughput: at most `throughput_mps` messages per second per business number (Meta: 80 by
 *   default), shared by every broadcast of the connection — each send takes the connection's turn
 *   from its pacer row (`connection_send_limits`) in ONE atomic D1 statement and holds it (a lease)
 *   until the send is handed off, so two sends of one connection never overlap;
 * - the delay preset: a random pause in the preset's range (spec §9) between two sends of the
 *   connection, checked in that same statement against the last hand-off;
 * - the pair rate (error 131056): at least PAIR_GAP_MS between two messages to one user;
 * - the messaging tier: unique users reached outside a customer service window in a moving 24 h
 *   (`daily_limit`; Meta's starting tier, 250, until the tier is read from the Graph API);
 * - the 24-hour customer service window: a user's last message opens it for 24 h.
 * The sandbox channel has none of them except the delay preset.
 *
 * BROADCAST_DELAY_SCALE (local and test only, like the fault switch) multiplies the delay preset's
 * pause and the pair gap, so tests and the benchmark run in seconds; production always uses 1.
 */
import { and, desc, eq, gt, sql, type Placeholder, type SQL } from "drizzle-orm";
import { broadcastRecipients, connectionSendLimits, messages, type ConnectionRow } from "../../schema";
import { DELAY_RANGES, type BroadcastDelay } from "../../schema/validation/broadcasts";
import type { AppEnv } from "../env";
import type { Db } from "./db";
import { faultsEnabled } from "./faults";

/** Meta's default throughput per business number (messages per second). */
export const DEFAULT_THROUGHPUT_MPS = 80;
/** The pair rate: about one message every 6 s to one user (error 131056), in ms. */
export const PAIR_GAP_MS = 6_000;
/** The customer service window (ms). */
export const SERVICE_WINDOW_MS = 24 * 3600 * 1000;
/** Meta's starting messaging tier: unique users outside a window per moving 24 h. */
export const DEFAULT_DAILY_LIMIT = 250;

/**
 * The factor applied to the delay presets and the pair gap: BROADCAST_DELAY_SCALE (0 < x ≤ 1) when
 * ENVIRONMENT is local or test, else 1.
 */
export function delayScale(env: Pick<AppEnv, "ENVIRONMENT" | "BROADCAST_DELAY_SCALE">): number {
  if (!faultsEnabled(env) || !env.BROADCAST_DELAY_SCALE) return 1;
  const scale = Number(env.BROADCAST_DELAY_SCALE);
  return Number.isFinite(scale) && scale > 0 && scale <= 1 ? scale : 1;
}

/** The smallest pause of a preset after scaling (ms). */
export function minDelayMs(delay: BroadcastDelay, scale: number): number {
  return DELAY_RANGES[delay].min * 1000 * scale;
}

/** A random pause in the preset's range (spec §9), scaled, in whole ms (never below the scaled minimum). */
export function pickDelayMs(delay: BroadcastDelay, scale: number, random: () => number = Math.random): number {
  const { min, max } = DELAY_RANGES[delay];
  return Math.ceil((min + (max - min) * random()) * 1000 * scale);
}

/** The scaled pair gap (ms). */
export function pairGapMs(scale: number): number {
  return Math.ceil(PAIR_GAP_MS * scale);
}

/**
 * The daily limit of a messaging tier as Meta names it (`TIER_250` → 250, `TIER_2K` → 2,000,
 * `TIER_100K` → 100,000): unique users reachable outside a service window per moving 24 h.
 * `TIER_UNLIMITED` → Infinity; anything unreadable → null (the caller keeps DEFAULT_DAILY_LIMIT).
 * Source: platform-limits.md "Messaging limits", wire-formats-wave2.md §4.4.
 */
export function tierDailyLimit(tier: string | null | undefined): number | null {
  if (!tier) return null;
  if (tier === "TIER_UNLIMITED") return Number.POSITIVE_INFINITY;
  const match = /^TIER_(\d+)(K?)$/.exec(tier);
  if (!match) return null;
  return Number(match[1]) * (match[2] ? 1000 : 1);
}

/** Messages per second of Meta's throughput level: `HIGH` 1,000, otherwise (STANDARD, unknown) 80. */
export function throughputOfLevel(level: string | null | undefined): number {
  return level === "HIGH" ? 1000 : DEFAULT_THROUGHPUT_MPS;
}

/** The daily limit the broadcast scheduler applies for a limits row (DEFAULT_DAILY_LIMIT until the tier was read). */
export function dailyLimitOf(limits: { tier: string | null; dailyLimit: number | null }): number {
  if (limits.tier === "TIER_UNLIMITED") return Number.POSITIVE_INFINITY;
  return limits.dailyLimit ?? DEFAULT_DAILY_LIMIT;
}

/**
 * Stores what the Graph API said about the number's limits (tier, its daily limit, throughput),
 * read when its token proved it (create, token change, refresh): the broadcast scheduler then
 * paces and counts by them, and the connection shows them.
 */
export async function recordNumberLimits(
  db: Db,
  connection: Pick<ConnectionRow, "id" | "companyId">,
  proof: { messagingTier: string | null; throughputLevel: string | null },
): Promise<void> {
  const at = Date.now();
  const limit = tierDailyLimit(proof.messagingTier);
  const values = {
    tier: proof.messagingTier,
    dailyLimit: limit === null || !Number.isFinite(limit) ? null : limit,
    throughputMps: throughputOfLevel(proof.throughputLevel),
    checkedAt: at,
    updatedAt: at,
  };
  await db
    .insert(connectionSendLimits)
    .values({ connectionId: connection.id, companyId: connection.companyId, ...values })
    .onConflictDoUpdate({ target: connectionSendLimits.connectionId, set: values });
}

/** The connection's limits row, created with Meta's defaults when missing. */
export async function limitsOf(db: Db, connection: Pick<ConnectionRow, "id" | "companyId">) {
  await db
    .insert(connectionSendLimits)
    .values({ connectionId: connection.id, companyId: connection.companyId, throughputMps: DEFAULT_THROUGHPUT_MPS, updatedAt: Date.now() })
    .onConflictDoNothing();
  const [row] = await db.select().from(connectionSendLimits).where(eq(connectionSendLimits.connectionId, connection.id));
  if (!row) throw new Error(`connection_send_limits row of ${connection.id} vanished`);
  return row;
}

/** How long a pacer lease lasts when its holder never releases it (a scheduler cut off mid-send), ms. */
export const LEASE_MS = 30_000;

/**
 * Takes the connection's turn for one send: succeeds (one atomic statement, so two schedulers can
 * never both succeed) when no other send of the connection is under way (no live lease) and the
 * connection's last send was handed off at least `gapMs` (the delay preset's pause) and at least
 * 1000 / throughput ms ago. The winner holds a lease (`leaseId`) until `releaseTurn` or LEASE_MS.
 * Otherwise answers when to try again (ms UTC).
 */
export async function takeTurn(
  db: Db,
  connection: Pick<ConnectionRow, "id" | "companyId">,
  gapMs: number,
  now: number,
  leaseId: string,
): Promise<{ ok: true } | { ok: false; at: number }> {
  await db
    .insert(connectionSendLimits)
    .values({ connectionId: connection.id, companyId: connection.companyId, throughputMps: DEFAULT_THROUGHPUT_MPS, updatedAt: now })
    .onConflictDoNothing();
  const spacing = sql`MAX(${gapMs}, 1000.0 / MAX(${connectionSendLimits.throughputMps}, 1))`;
  return claimTurn(db, connection.id, spacing, { leaseUntil: now + LEASE_MS, leaseId, updatedAt: now }, now, leaseId);
}

/**
 * The one atomic claim behind `takeTurn` and `takeWindowTurn`: sets `changes` on the connection's
 * row when no other lease is live and its last send is at least `spacing` ms old; otherwise answers
 * when to try again (ms UTC): the other lease's end or the spacing's, whichever is later.
 */
async function claimTurn(
  db: Db,
  connectionId: string,
  spacing: SQL,
  changes: Partial<typeof connectionSendLimits.$inferInsert>,
  now: number,
  leaseId: string,
): Promise<{ ok: true } | { ok: false; at: number }> {
  const taken = await claimQuery(db, connectionId, spacing, changes, now, leaseId);
  if (taken.length > 0) return { ok: true };
  return { ok: false, at: await turnDueAt(db, connectionId, spacing, now, leaseId) };
}

/** `claimTurn`'s atomic statement, not yet run (one row `{id}` when the turn was taken, else none). */
function claimQuery(db: Db, connectionId: string, spacing: SQL, changes: Partial<typeof connectionSendLimits.$inferInsert>, now: number, leaseId: string) {
  return db
    .update(connectionSendLimits)
    .set(changes)
    .where(
      and(
        eq(connectionSendLimits.connectionId, connectionId),
        sql`(${connectionSendLimits.leaseUntil} <= ${now} OR ${connectionSendLimits.leaseId} = ${leaseId})`,
        sql`${connectionSendLimits.lastSendAt} + ${spacing} <= ${now}`,
      ),
    )
    .returning({ id: connectionSendLimits.connectionId });
}

/** When a turn refused at `now` may be tried again (ms UTC): the other lease's end or the spacing's, whichever is later. */
async function turnDueAt(db: Db, connectionId: string, spacing: SQL, now: number, leaseId: string): Promise<number> {
  const [row] = await db
    .select({ at: sql<number>`MAX(CASE WHEN ${connectionSendLimits.leaseId} = ${leaseId} THEN 0 ELSE ${connectionSendLimits.leaseUntil} END, ${connectionSendLimits.lastSendAt} + ${spacing})` })
    .from(connectionSendLimits)
    .where(eq(connectionSendLimits.connectionId, connectionId));
  return Math.max(now + 1, Math.ceil(row?.at ?? now + 1));
}

/** Sends in flight at most per connection in window mode: a fifth of its throughput, at most this many. */
export const MAX_WINDOW = 16;

/**
 * How many sends of the connection may be in flight at once (handed to the ticket rooms, not yet
 * taken by the provider) for a broadcast with `delay` at `scale`: 1 (the turn is held until the
 * provider took the send, so the preset's pause is measured between the provider's receipts)
 * unless even the preset's longest pause is shorter than the connection's throughput spacing, so
 * the throughput is the only pace. Then W = min(MAX_WINDOW, throughput / 5), and the sends start at
 * most (throughput − W) per second: in any second the provider receives at most the sends started
 * in it plus those in flight when it began, (throughput − W) + W = throughput. In production the
 * presets' pauses (1 s and up) always bind, so W is 1; it opens only for a high throughput level
 * with short presets, or under BROADCAST_DELAY_SCALE (local and test).
 */
export function sendWindow(delay: BroadcastDelay, scale: number, throughputMps: number): number {
  const window = Math.min(MAX_WINDOW, Math.floor(throughputMps / 5));
  if (window < 2) return 1;
  const longest = DELAY_RANGES[delay].max * 1000 * scale;
  return longest < 1000 / (throughputMps - window) ? window : 1;
}

/**
 * The window mode's turn (see `sendWindow`): like `takeTurn`, but the holder of the lease takes a
 * turn per send while it keeps up to `window` sends in flight, each at least MAX(`gapMs`,
 * 1000 / (throughput − window)) ms after the previous start; the start is the connection's last
 * send (`lastSendAt` = `now`) and the lease is renewed. One atomic statement, as in `takeTurn`: no
 * other scheduler sends on the connection while the lease is held, so the window is the
 * connection's. The holder ends it with `releaseTurn` once its sends in flight were all taken.
 */
export async function takeWindowTurn(
  db: Db,
  connection: Pick<ConnectionRow, "id" | "companyId">,
  gapMs: number,
  now: number,
  leaseId: string,
  window: number,
): Promise<{ ok: true } | { ok: false; at: number }> {
  return claimTurn(db, connection.id, windowSpacing(gapMs, window), { leaseUntil: now + LEASE_MS, leaseId, lastSendAt: now, updatedAt: now }, now, leaseId);
}

function windowSpacing(gapMs: number, window: number): SQL {
  return sql`MAX(${gapMs}, 1000.0 / MAX(${connectionSendLimits.throughputMps} - ${window}, 1))`;
}

/**
 * `takeWindowTurn` as a statement not yet run (one row `{id}` when taken, else none), so the
 * caller's commit goes in the same D1 batch (one transaction, issue 10), guarded by
 * `windowTurnHeld` with the same `now`. When it was refused, `windowTurnDueAt` answers when to try
 * again.
 */
export function windowTurnQuery(db: Db, connection: Pick<ConnectionRow, "id">, gapMs: number, now: number, leaseId: string, window: number) {
  return claimQuery(db, connection.id, windowSpacing(gapMs, window), { leaseUntil: now + LEASE_MS, leaseId, lastSendAt: now, updatedAt: now }, now, leaseId);
}

/**
 * True (SQL) right after `windowTurnQuery(…, now, leaseId, …)` took the turn in the same batch:
 * the connection's row holds lease `leaseId` with its last send at `now`. A refused claim leaves
 * `lastSendAt` older than `now` (a turn taken earlier in the same ms is impossible: the spacing is
 * at least 1 ms), so the guarded statement does nothing then.
 */
export function windowTurnHeld(connectionId: string, leaseId: string, now: number): SQL {
  return sql`EXISTS (SELECT 1 FROM ${connectionSendLimits} WHERE ${connectionSendLimits.connectionId} = ${connectionId} AND ${connectionSendLimits.leaseId} = ${leaseId} AND ${connectionSendLimits.lastSendAt} = ${now})`;
}

/** When a refused `windowTurnQuery` may be tried again (ms UTC). */
export function windowTurnDueAt(db: Db, connection: Pick<ConnectionRow, "id">, gapMs: number, now: number, leaseId: string, window: number): Promise<number> {
  return turnDueAt(db, connection.id, windowSpacing(gapMs, window), now, leaseId);
}

/** Ends the lease `leaseId`: the send was handed off at `at` (ms UTC), the next one counts from then. */
export async function releaseTurn(db: Db, connectionId: string, leaseId: string, at: number): Promise<void> {
  await db
    .update(connectionSendLimits)
    .set({ lastSendAt: sql`MAX(${connectionSendLimits.lastSendAt}, ${at})`, leaseUntil: 0, leaseId: null, updatedAt: at })
    .where(and(eq(connectionSendLimits.connectionId, connectionId), eq(connectionSendLimits.leaseId, leaseId)));
}

/** ms UTC of the contact's last inbound message on the connection, or null. */
export async function lastInboundAt(db: Db, companyId: string, contactId: string, connectionId: string): Promise<number | null> {
  const [row] = await lastMessageQuery(db, companyId, contactId, connectionId, "in");
  return row?.sentAt ?? null;
}

/**
 * The contact's last message on the connection in `direction` (`sentAt`, `updatedAt`; one row or
 * none) as a plain select not yet run, for a caller's D1 batch (issue 10). `lastInboundAt` reads
 * `sentAt` of the `in` one; `outboundAtOf` turns the `out` one into `lastOutboundAt`'s answer.
 * The ids may be drizzle placeholders (SQL built once).
 */
export function lastMessageQuery(db: Db, companyId: string | Placeholder, contactId: string | Placeholder, connectionId: string | Placeholder, direction: "in" | "out") {
  return db
    .select({ sentAt: messages.sentAt, updatedAt: messages.updatedAt })
    .from(messages)
    .where(and(eq(messages.contactId, contactId), eq(messages.companyId, companyId), eq(messages.connectionId, connectionId), eq(messages.direction, direction)))
    .orderBy(desc(messages.sentAt))
    .limit(1);
}

/** `lastOutboundAt`'s answer from `lastMessageQuery`'s `out` row (the later of stored and last changed), or null. */
export function outboundAtOf(row: { sentAt: number; updatedAt: number } | undefined): number | null {
  return row ? Math.max(row.sentAt, row.updatedAt) : null;
}

/**
 * ms UTC of the last message the company sent the contact on the connection, or null: the later
 * of when it was stored and when its status last changed (the provider's acceptance comes after
 * the store, so the pair gap is never counted from too early).
 */
export async function lastOutboundAt(db: Db, companyId: string, contactId: string, connectionId: string): Promise<number | null> {
  const [row] = await lastMessageQuery(db, companyId, contactId, connectionId, "out");
  return outboundAtOf(row);
}

/** Unique users reached outside a service window on the connection by broadcasts since `since` (ms UTC). */
export async function usersOutsideWindowSince(db: Db, connectionId: string, since: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`COUNT(DISTINCT ${broadcastRecipients.contactId})` })
    .from(broadcastRecipients)
    .where(and(eq(broadcastRecipients.connectionId, connectionId), eq(broadcastRecipients.outsideWindow, 1), gt(broadcastRecipients.doneAt, since)));
  return row?.n ?? 0;
}
