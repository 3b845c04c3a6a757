/** Drizzle over the D1 binding, with every table of schema/. */
import { drizzle } from "drizzle-orm/d1";
import * as schema from "../../schema";
import { countingD1 } from "./d1-count";

export function getDb(d1: D1Database) {
  // countingD1 is the identity unless a test counts round trips (worker/lib/d1-count.ts).
  return drizzle(countingD1(d1), { schema });
}

export type Db = ReturnType<typeof getDb>;

/** ms since the epoch, UTC. One place so tests and handlers agree on units. */
export const now = () => Date.now();

/** True when a D1 error is a UNIQUE constraint failure (the race behind a pre-check). */
export function isUniqueViolation(error: unknown): boolean {
  const text = String((error as { message?: unknown })?.message ?? error);
  const cause = String((error as { cause?: { message?: unknown } })?.cause?.message ?? "");
  return /UNIQUE constraint failed/i.test(text) || /UNIQUE constraint failed/i.test(cause);
}
