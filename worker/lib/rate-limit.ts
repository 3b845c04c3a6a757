/**
 * Limits kept in D1 (`rate_limits`), 429 `rate_limited` with Retry-After:
 * - fixed windows (`hit`): password-reset mails, registration, invites, codes;
 * - growing-delay throttles (`claimAttempt`): login, per (address, client) pair (issue 8 point 6),
 *   so failures from one client never block the right password from another.
 */
import { and, eq, isNotNull, sql } from "drizzle-orm";
import { rateLimits } from "../../schema";
import { AppError } from "./errors";
import type { Db } from "./db";

export type Limit = { key: string; max: number; windowMs: number };

/**
 * Counts one hit against each limit; throws 429 `rate_limited` with `Retry-After` (seconds) when
 * any limit is already spent. The upsert is one statement per key, so concurrent hits count right.
 */
export async function hit(db: Db, limits: Limit[], at = Date.now()): Promise<void> {
  for (const limit of limits) {
    const row = await countHit(db, limit, at);
    if (row && row.count > limit.max) {
      const retryAfter = Math.max(1, Math.ceil((row.windowStart + limit.windowMs - at) / 1000));
      throw new AppError("rate_limited", "Too many attempts. Try again later.", undefined, {
        "Retry-After": String(retryAfter),
      });
    }
  }
}

/**
 * Counts one hit against `limit`'s fixed window (one upsert statement, so concurrent hits count
 * right); answers the window's count including this hit and when the window started (ms UTC).
 * `hit` throws on top of it; the public API reads it for its RateLimit-* headers.
 */
export async function countHit(db: Db, limit: Limit, at = Date.now()): Promise<{ count: number; windowStart: number } | undefined> {
  const rows = await db
    .insert(rateLimits)
    .values({ key: limit.key, windowStart: at, count: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`CASE WHEN ${rateLimits.windowStart} <= ${at - limit.windowMs} THEN 1 ELSE ${rateLimits.count} + 1 END`,
        windowStart: sql`CASE WHEN ${rateLimits.windowStart} <= ${at - limit.windowMs} THEN ${at} ELSE ${rateLimits.windowStart} END`,
      },
    })
    .returning();
  const row = rows[0];
  return row ? { count: row.count, windowStart: row.windowStart } : undefined;
}

/** Clears limits after a success (e.g. a good login resets the e-mail's counter). */
export async function clear(db: Db, key: string): Promise<void> {
  await db.delete(rateLimits).where(sql`${rateLimits.key} = ${key}`);
}

/** Clears every limit whose key starts with `prefix` (e.g. all login throttles of one address). */
export async function clearPrefix(db: Db, prefix: string): Promise<void> {
  await db.delete(rateLimits).where(sql`substr(${rateLimits.key}, 1, ${prefix.length}) = ${prefix}`);
}

/**
 * A growing-delay throttle: the first `freeFailures - 1` failures cost nothing; the
 * `freeFailures`-th blocks the key for `baseDelayMs`, each further one doubles it, up to
 * `maxDelayMs`. A key idle for `forgetAfterMs` starts over.
 */
export type Throttle = { freeFailures: number; baseDelayMs: number; maxDelayMs: number; forgetAfterMs: number };

/** The block (ms) after the `failures`-th failure under `rule`: 0 while free, then base·2^k, capped. */
export function throttleDelay(rule: Throttle, failures: number): number {
  if (failures < rule.freeFailures) return 0;
  return Math.min(rule.maxDelayMs, rule.baseDelayMs * 2 ** Math.min(failures - rule.freeFailures, 40));
}

/**
 * Claims one attempt against `key` before the caller checks it, counting it as a failure in
 * advance (and setting the block that failure earns); the caller `clear`s the key when the attempt
 * succeeds. While the key is blocked nothing is counted and 429 `rate_limited` is thrown with
 * `Retry-After` (whole seconds until the block ends). One upsert statement, so concurrent attempts
 * cannot slip past a block: only the attempt that finds the key free is counted and let through.
 */
export async function claimAttempt(db: Db, key: string, rule: Throttle, at = Date.now()): Promise<void> {
  const fresh = sql`${rateLimits.windowStart} <= ${at - rule.forgetAfterMs}`;
  const failures = sql`(CASE WHEN ${fresh} THEN 1 ELSE ${rateLimits.count} + 1 END)`;
  const shift = sql`min(${failures} - ${rule.freeFailures}, 40)`;
  const firstBlock = throttleDelay(rule, 1);
  const claimed = await db
    .insert(rateLimits)
    .values({ key, windowStart: at, count: 1, blockedUntil: firstBlock ? at + firstBlock : null })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: failures,
        windowStart: at,
        blockedUntil: sql`CASE WHEN ${failures} >= ${rule.freeFailures} THEN ${at} + min(${rule.maxDelayMs}, ${rule.baseDelayMs} * (1 << ${shift})) ELSE NULL END`,
      },
      setWhere: sql`${rateLimits.blockedUntil} IS NULL OR ${rateLimits.blockedUntil} <= ${at}`,
    })
    .returning({ key: rateLimits.key });
  if (claimed.length) return;
  const row = await db.query.rateLimits.findFirst({ where: and(eq(rateLimits.key, key), isNotNull(rateLimits.blockedUntil)) });
  const retryAfter = Math.max(1, Math.ceil(((row?.blockedUntil ?? at) - at) / 1000));
  throw new AppError("rate_limited", "Too many attempts. Try again later.", undefined, { "Retry-After": String(retryAfter) });
}
