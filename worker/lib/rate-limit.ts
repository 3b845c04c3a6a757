/**
 * Fixed-window rate limits kept in D1 (`rate_limits`). Used against brute force on login and
 * password reset (issue "Foundation": limited per e-mail and per IP, 429 with Retry-After).
 */
import { sql } from "drizzle-orm";
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
    if (row && row.count > limit.max) {
      const retryAfter = Math.max(1, Math.ceil((row.windowStart + limit.windowMs - at) / 1000));
      throw new AppError("rate_limited", "Too many attempts. Try again later.", undefined, {
        "Retry-After": String(retryAfter),
      });
    }
  }
}

/** Clears limits after a success (e.g. a good login resets the e-mail's counter). */
export async function clear(db: Db, key: string): Promise<void> {
  await db.delete(rateLimits).where(sql`${rateLimits.key} = ${key}`);
}
