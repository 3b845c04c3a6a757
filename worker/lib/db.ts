/** Drizzle over the D1 binding, with every table of schema/. */
import { fillPlaceholders, getTableColumns, getTableName, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
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

/**
 * A drizzle query that can run prepared: `getQuery()` (its SQL and params, `sql.placeholder`s
 * among them) and `mapResult` (a D1 result into drizzle's rows), as `.prepare()` answers.
 */
type PreparedLike = { getQuery(): { sql: string; params: unknown[] }; mapResult(response: unknown, isFromBatch?: boolean): unknown; execute(values?: Record<string, unknown>): Promise<unknown> };

/** Queries built once per drizzle instance, by name (see `prepared`). */
const preparedQueries = new WeakMap<object, Map<string, PreparedLike>>();

/**
 * The query `build` makes, built and prepared once per drizzle instance and name (issue 16: the
 * inbound path's CPU profile showed drizzle building the same SQL for every message). `build`
 * must use `sql.placeholder(name)` for every value that changes between calls; run the answer
 * with `batchPrepared`.
 */
export function prepared<P extends PreparedLike>(db: Db, name: string, build: () => P): P {
  let byName = preparedQueries.get(db);
  if (!byName) {
    byName = new Map();
    preparedQueries.set(db, byName);
  }
  let query = byName.get(name) as P | undefined;
  if (!query) {
    query = build();
    byName.set(name, query);
  }
  return query;
}

/** The rows (or run result) one prepared query of `batchPrepared` answers. */
type PreparedResult<P> = P extends { execute(values?: Record<string, unknown>): Promise<infer R> } ? R : never;

/**
 * Runs prepared queries (from `prepared`) with their placeholder values as ONE D1 batch, answering
 * each query's result as drizzle's `db.batch` would (the same mapping, the same one round trip).
 * `before` and `after`: statements run first and last in the same batch (and transaction), their
 * results not answered (issue 16: a caller's writes and the reads that follow them in one round trip).
 */
export async function batchPrepared<const T extends readonly (readonly [PreparedLike, Record<string, unknown>])[]>(
  db: Db,
  items: T,
  before: readonly D1PreparedStatement[] = [],
  after: readonly D1PreparedStatement[] = [],
): Promise<{ -readonly [K in keyof T]: PreparedResult<T[K][0]> }> {
  const client = db.$client as D1Database;
  const statements = items.map(([query, values]) => boundPrepared(db, query, values));
  const results = (await client.batch([...before, ...statements, ...after])).slice(before.length, before.length + statements.length);
  return results.map((result, i) => items[i]![0].mapResult(result, true)) as { -readonly [K in keyof T]: PreparedResult<T[K][0]> };
}

/**
 * Prepared query `query` (from `prepared`) as a D1 statement bound to `values`, for a caller's own
 * batch (`batchPrepared`'s `before`/`after`, `runBatch`-style lists of D1 statements).
 */
export function boundPrepared(db: Db, query: PreparedLike, values: Record<string, unknown>): D1PreparedStatement {
  const { sql: text, params } = query.getQuery();
  // `stmt`: the D1 statement drizzle prepared once for this query (public in drizzle's JS, not in its types).
  const stmt = (query as unknown as { stmt?: D1PreparedStatement }).stmt ?? (db.$client as D1Database).prepare(text);
  return params.length > 0 ? stmt.bind(...fillPlaceholders(params, values)) : stmt;
}

/**
 * An INSERT of `row` into `table`, prepared once per drizzle instance, table, key set and options
 * (issue 16: drizzle built every new contact's, ticket's and message's insert again for each one),
 * with the row's values to run it with: each column's driver value encoded as drizzle encodes an
 * insert's (JSON, booleans), null kept NULL (drizzle's own encoding of a placeholder would store a
 * JSON null as the text 'null'). Keys of `row` that are not columns, or undefined, are left out.
 * `onConflictDoNothing`: a conflicting row inserts nothing; `returningId`: the inserted row's `id`
 * is answered (`[{ id }]`, or `[]` when nothing was inserted); `unless`: conditions under which
 * nothing is inserted (`InsertGuard`, one or several); `guardValues`: values of the guards' keys that
 * are not the row's (added to the answered values). Run it with `batchPrepared`, or bind it with
 * `boundPrepared`.
 */
export function preparedInsert(
  db: Db,
  table: SQLiteTable,
  row: Record<string, unknown>,
  options: {
    onConflictDoNothing?: boolean;
    returningId?: boolean;
    unless?: InsertGuard | readonly InsertGuard[];
    guardValues?: Record<string, unknown>;
    /** Columns whose value D1 computes in the statement (`ComputedColumn`), in place of the row's. */
    computed?: readonly ComputedColumn[];
  } = {},
): readonly [PreparedLike & { execute(values?: Record<string, unknown>): Promise<{ id: string }[]> }, Record<string, unknown>] {
  const columns = getTableColumns(table) as Record<string, { name: string; mapToDriverValue(value: unknown): unknown }>;
  const keys = Object.keys(row).filter((k) => k in columns && row[k] !== undefined);
  const guards = options.unless === undefined ? [] : Array.isArray(options.unless) ? (options.unless as readonly InsertGuard[]) : [options.unless as InsertGuard];
  const computed = options.computed ?? [];
  const name = `insert:${getTableName(table)}:${options.onConflictDoNothing ? "ignore" : "plain"}:${options.returningId ? "id" : "-"}:${guards.length ? `unless ${guards.map((g) => g.name).join("+")}` : "-"}:${computed.length ? `computed ${computed.map((c) => c.name).join("+")}` : "-"}:${keys.join(",")}`;
  const query = prepared(db, name, () => {
    if (guards.length || computed.length) return selectInsert(db, getTableName(table), keys.map((k) => [k, columns[k]!.name] as const), guards, { ...options, computed });
    const insert = db.insert(table).values(Object.fromEntries(keys.map((k) => [k, sql`${sql.placeholder(k)}`])) as never);
    const guarded = options.onConflictDoNothing ? insert.onConflictDoNothing() : insert;
    if (!options.returningId) return guarded.prepare() as unknown as PreparedLike;
    const idColumn = getTableColumns(table).id;
    if (!idColumn) throw new Error(`table ${getTableName(table)} has no id column to return`);
    return guarded.returning({ id: idColumn }).prepare() as unknown as PreparedLike;
  });
  const values: Record<string, unknown> = {};
  for (const key of keys) values[key] = row[key] === null ? null : columns[key]!.mapToDriverValue(row[key]);
  if (options.guardValues) Object.assign(values, options.guardValues);
  return [query as PreparedLike & { execute(values?: Record<string, unknown>): Promise<{ id: string }[]> }, values] as const;
}

/**
 * A condition under which `preparedInsert` inserts nothing: `exists` is the SQL of a subquery
 * (`SELECT 1 FROM … WHERE …`) whose `?`s take the row's values named by `keys`, in order; `name`
 * tells the prepared statements apart. The insert becomes `INSERT … SELECT … WHERE NOT EXISTS
 * (exists)`, one statement, so the check and the insert see the same database (D1 runs one
 * statement at a time). Several guards are joined with AND (`… WHERE NOT EXISTS (a) AND NOT EXISTS
 * (b)`); a key that is not a column of the row takes its value from `preparedInsert`'s `guardValues`.
 */
export type InsertGuard = { name: string; exists: string; keys: readonly string[] };

/**
 * A column of `preparedInsert`'s row whose value D1 computes in the insert itself: `key` is the
 * row's key (its value in the row is ignored), `expression` the SQL of a scalar subquery whose `?`s
 * take the row's values named by `keys`, in order; `name` tells the prepared statements apart. With
 * `returningId`, the computed columns are answered too (by key, next to `id`).
 */
export type ComputedColumn = { name: string; key: string; expression: string; keys: readonly string[] };

/**
 * `preparedInsert`'s statement when it has guards (`InsertGuard`) or computed columns
 * (`ComputedColumn`): an `INSERT … SELECT` (`WHERE true` without guards, which SQLite's upsert
 * needs after a SELECT), answering as drizzle's prepared queries answer.
 */
function selectInsert(
  db: Db,
  table: string,
  keys: readonly (readonly [string, string])[],
  guards: readonly InsertGuard[],
  options: { onConflictDoNothing?: boolean; returningId?: boolean; computed?: readonly ComputedColumn[] },
): PreparedLike {
  const computed = new Map((options.computed ?? []).map((c) => [c.key, c]));
  const returned = [["id", "id"] as const, ...keys.filter(([key]) => computed.has(key))];
  const text =
    `insert into "${table}" (${keys.map(([, column]) => `"${column}"`).join(", ")}) select ${keys.map(([key]) => (computed.has(key) ? `(${computed.get(key)!.expression})` : "?")).join(", ")}` +
    `${guards.length ? ` where ${guards.map((g) => `not exists (${g.exists})`).join(" and ")}` : " where true"}` +
    `${options.onConflictDoNothing ? " on conflict do nothing" : ""}${options.returningId ? ` returning ${returned.map(([key, column]) => `"${column}" as "${key}"`).join(", ")}` : ""}`;
  const params = [
    ...keys.flatMap(([key]) => (computed.has(key) ? computed.get(key)!.keys.map((k) => sql.placeholder(k)) : [sql.placeholder(key)])),
    ...guards.flatMap((g) => g.keys.map((key) => sql.placeholder(key))),
  ];
  const client = db.$client as D1Database;
  const rows = (result: unknown) => ((result as { results?: unknown[] }).results ?? []) as { id: string }[];
  const stmt = client.prepare(text);
  const query = {
    // Read by `boundPrepared`, as drizzle's own prepared queries carry theirs.
    stmt,
    getQuery: () => ({ sql: text, params }),
    mapResult: (result: unknown) => (options.returningId ? rows(result) : result),
    execute: async (values: Record<string, unknown> = {}) => {
      const result = await stmt.bind(...fillPlaceholders(params, values)).all();
      return options.returningId ? rows(result) : result;
    },
  };
  return query;
}

/**
 * `preparedInsert`'s insert of `row` into `table` as a D1 statement bound to the row's values, for a
 * caller's own list of D1 statements (a batch of writes, `batchPrepared`'s `before`).
 */
export function boundInsert(db: Db, table: SQLiteTable, row: Record<string, unknown>, options: { onConflictDoNothing?: boolean } = {}): D1PreparedStatement {
  return boundPrepared(db, ...preparedInsert(db, table, row, options));
}
