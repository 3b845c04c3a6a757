/** Drizzle over the D1 binding, with every table of schema/. */
import { drizzle } from "drizzle-orm/d1";
import * as schema from "../../schema";
import { countingD1 } from "./d1-count";

function makeDb(d1: D1Database) {
  return drizzle(d1, { schema });
}

/**
 * One drizzle instance per D1 binding object (issue 16: building one reads the relational config
 * of every table of schema/, which the CPU profile of the inbound path showed on every call).
 */
const instances = new WeakMap<D1Database, ReturnType<typeof makeDb>>();

/** Drizzle over `d1`, with every table of schema/; the same instance for the same binding. */
export function getDb(d1: D1Database) {
  // countingD1 is the identity unless a test counts round trips (worker/lib/d1-count.ts); a
  // counting wrapper is new each time and never cached.
  const target = countingD1(d1);
  if (target !== d1) return makeDb(target);
  let db = instances.get(d1);
  if (!db) {
    db = makeDb(d1);
    instances.set(d1, db);
  }
  return db;
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
