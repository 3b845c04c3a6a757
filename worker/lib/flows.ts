/**
 * The flow builder's data layer, shared by the routes (/api/folders, /api/flows, /api/keywords,
 * default flows, runs) and the ContactSession Durable Object that runs flows: presenting builders,
 * loading a published version, keyword matching, per-block stats and rotary counters, and the
 * default flows of a connection. Every function takes the company id and filters on it (STYLE
 * habit 2).
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { connectionFlows, flowStats, flowVersions, flows, keywords, type ConnectionFlowsRow, type FlowRow, type KeywordRow } from "../../schema";
import type { FlowAnswer, FlowSummary, KeywordAnswer } from "../../schema/flow-api";
import { emptyFlow, parseFlow, type FlowDocument } from "../../schema/flows";
import { compileFlow, type CompiledFlow } from "../flows";
import { foldText } from "../flows/executors/waiting";
import type { Db } from "./db";
import { notFound } from "./errors";

/** The app path of a builder's share page (spec §2 /share-flow/{id}). */
export function shareUrlOf(flowId: string): string {
  return `/share-flow/${flowId}`;
}

/** The stored draft as a document (a stored draft always parses; an unreadable one shows empty). */
export function draftOf(row: Pick<FlowRow, "draft">): FlowDocument {
  try {
    const parsed = parseFlow(JSON.parse(row.draft));
    return parsed.ok ? parsed.flow : emptyFlow();
  } catch {
    return emptyFlow();
  }
}

export function presentFlowSummary(row: FlowRow): FlowSummary {
  return {
    id: row.id,
    name: row.name,
    folderId: row.folderId,
    type: row.type,
    shareActive: row.shareActive,
    cloneActive: row.cloneActive,
    restrictCompanies: row.restrictCompanies,
    allowedCompanyIds: row.allowedCompanyIds,
    shareUrl: shareUrlOf(row.id),
    publishedVersion: row.publishedVersion,
    publishedAt: row.publishedAt,
    updatedAt: row.updatedAt,
  };
}

/** A builder with its draft and the draft's current problems (validateFlow). */
export function presentFlow(row: FlowRow): FlowAnswer {
  const draft = draftOf(row);
  const parsed = parseFlow(draft);
  return { ...presentFlowSummary(row), draft, problems: parsed.problems };
}

/** The builder of the company, or a 404. */
export async function findFlow(db: Db, companyId: string, id: string): Promise<FlowRow> {
  const row = await db.query.flows.findFirst({ where: and(eq(flows.id, id), eq(flows.companyId, companyId)) });
  if (!row) throw notFound("Flow");
  return row;
}

/** Which of `ids` are builders of the company. */
export async function existingFlowIds(db: Db, companyId: string, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db.select({ id: flows.id }).from(flows).where(and(eq(flows.companyId, companyId), inArray(flows.id, ids)));
  return new Set(rows.map((r) => r.id));
}

/**
 * A published version of a builder of the company, compiled; `version` null means the newest.
 * Null when the flow does not exist, was never published, or the version does not compile.
 * `flow`: the flow's row, read only when `version` is null (undefined otherwise).
 */
export async function loadVersion(db: Db, companyId: string, flowId: string, version: number | null): Promise<{ flow: FlowRow | undefined; version: number; compiled: CompiledFlow } | null> {
  // A known version reads only its own row (issue 16: the flow's row was read for nothing; `flow` is
  // then undefined, which no caller of a known version uses).
  const row = version === null ? await db.query.flows.findFirst({ where: and(eq(flows.id, flowId), eq(flows.companyId, companyId)) }) : undefined;
  const wanted = version ?? row?.publishedVersion ?? null;
  if (wanted === null) return null;
  const [stored] = await db
    .select({ document: flowVersions.document })
    .from(flowVersions)
    .where(and(eq(flowVersions.flowId, flowId), eq(flowVersions.companyId, companyId), eq(flowVersions.version, wanted)))
    .limit(1);
  if (!stored) return null;
  const compiled = compileFlow(JSON.parse(stored.document));
  return compiled.ok ? { flow: row, version: wanted, compiled: compiled.flow } : null;
}

// ---------------------------------------------------------------------------------------------
// Keywords
// ---------------------------------------------------------------------------------------------

export function presentKeyword(row: KeywordRow): KeywordAnswer {
  return { id: row.id, name: row.name, turnOn: row.turnOn, rules: row.rules, flowId: row.flowId, createdMessages: row.createdMessages, createdAt: row.createdAt, updatedAt: row.updatedAt };
}

/**
 * Whether `text` matches one of the keyword's rules, case- and accent-insensitively (both sides
 * folded: NFD, marks removed, lower-case, trimmed, inner spaces collapsed). `start_with` and
 * `contains` match on word boundaries ("oi" starts "oi, tudo bem" but not "oito").
 */
export function keywordMatches(row: Pick<KeywordRow, "rules">, text: string): boolean {
  const folded = fold(text);
  if (!folded) return false;
  return row.rules.some((rule) =>
    rule.words.some((raw) => {
      const word = fold(raw);
      if (!word) return false;
      if (rule.type === "is") return folded === word;
      const at = rule.type === "start_with" ? (folded.startsWith(word) ? 0 : -1) : boundedIndex(folded, word);
      if (at < 0) return false;
      return isBoundary(folded[at + word.length]);
    }),
  );
}

function fold(text: string): string {
  return foldText(text).replace(/\s+/g, " ");
}

function isBoundary(char: string | undefined): boolean {
  return char === undefined || !/[\p{L}\p{N}]/u.test(char);
}

/** The first index of `word` in `text` that starts on a word boundary, or -1. */
function boundedIndex(text: string, word: string): number {
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    if (isBoundary(at === 0 ? undefined : text[at - 1]) && isBoundary(text[at + word.length])) return at;
  }
  return -1;
}

/** The company's first trigger (oldest) that is on and matches `text`, or undefined. */
export async function matchKeyword(db: Db, companyId: string, text: string, preloaded?: KeywordRow[]): Promise<KeywordRow | undefined> {
  if (!text.trim()) return undefined;
  const rows = preloaded ?? (await activeKeywordsQuery(db, companyId));
  return rows.find((row) => keywordMatches(row, text));
}

/**
 * The company's triggers that are on, oldest first (the order `matchKeyword` tries them); a query
 * the inbound path may put in its one read batch (issue 16) and hand to `matchKeyword`.
 */
export function activeKeywordsQuery(db: Db, companyId: string) {
  return db.select().from(keywords).where(and(eq(keywords.companyId, companyId), eq(keywords.turnOn, true))).orderBy(asc(keywords.createdAt));
}

/** Counts one message that started the trigger's flow. */
export async function countKeywordMessage(db: Db, companyId: string, keywordId: string): Promise<void> {
  await db
    .update(keywords)
    .set({ createdMessages: sql`${keywords.createdMessages} + 1` })
    .where(and(eq(keywords.id, keywordId), eq(keywords.companyId, companyId)));
}

// ---------------------------------------------------------------------------------------------
// Default flows, stats, rotary counters
// ---------------------------------------------------------------------------------------------

/** The default flows of a connection (all null when none were set). */
export async function defaultFlowsOf(
  db: Db,
  companyId: string,
  connectionId: string,
  /** The row when the caller read it already (null: none; the inbound path's one batch, issue 16). */
  preloaded?: ConnectionFlowsRow | null,
): Promise<Omit<ConnectionFlowsRow, "updatedAt" | "companyId">> {
  const row = preloaded !== undefined ? preloaded : await db.query.connectionFlows.findFirst({ where: and(eq(connectionFlows.connectionId, connectionId), eq(connectionFlows.companyId, companyId)) });
  return {
    connectionId,
    defaultFlowId: row?.defaultFlowId ?? null,
    mediaFlowId: row?.mediaFlowId ?? null,
    campaignFlowId: row?.campaignFlowId ?? null,
    storyFlowId: row?.storyFlowId ?? null,
  };
}

/**
 * The blocks a step passed, as the session's outbox keeps them (issue 16): `visited` node ids (a
 * block entered twice counts twice) and `stoppedAt`, the block a run ended on (null: not ended), of
 * flow `flowId` of company `companyId`.
 */
export type FlowStepStats = { companyId: string; flowId: string; visited: readonly string[]; stoppedAt: string | null };

/**
 * Adds to the per-block stats of a flow: +1 `reached` for every entry of `visited` (a block entered
 * twice counts twice), +1 `stopped` on `stoppedAt` (the block a run ended on).
 */
export async function recordStats(db: Db, companyId: string, flowId: string, visited: readonly string[], stoppedAt: string | null): Promise<void> {
  const statements = statsStatements(db, { companyId, flowId, visited, stoppedAt });
  if (statements.length === 0) return;
  if (statements.length === 1) await statements[0]!.run();
  else await db.$client.batch(statements);
}

/**
 * The statements of `recordStats`, for a caller's own D1 batch. `ifMessage`: they count only when
 * the message with this id exists when they run (issue 16: a flow's reply carries its step's stats
 * into the batch that inserts it, after the insert, so a send performed again, whose insert
 * conflicts, does not count them twice). No statement when the step passed no block.
 */
export function statsStatements(db: Db, stats: FlowStepStats, ifMessage?: string): D1PreparedStatement[] {
  const { companyId, flowId, visited, stoppedAt } = stats;
  const counts = new Map<string, { reached: number; stopped: number }>();
  for (const nodeId of visited) counts.set(nodeId, { reached: (counts.get(nodeId)?.reached ?? 0) + 1, stopped: 0 });
  if (stoppedAt) counts.set(stoppedAt, { reached: counts.get(stoppedAt)?.reached ?? 0, stopped: 1 });
  // A few statements in SQL written once, at most STATS_ROWS_PER_STATEMENT blocks each, in one
  // round trip (issue 16/10: building an upsert per block with the query builder was a visible
  // share of a broadcast's CPU per recipient).
  const rows = [...counts.entries()];
  // The condition's message id takes one of D1's 100 bound parameters.
  const perStatement = ifMessage === undefined ? STATS_ROWS_PER_STATEMENT : STATS_ROWS_PER_STATEMENT - 1;
  const statements: D1PreparedStatement[] = [];
  for (let at = 0; at < rows.length; at += perStatement) {
    const chunk = rows.slice(at, at + perStatement);
    const values = chunk.flatMap(([nodeId, c]) => [companyId, flowId, nodeId, c.reached, c.stopped]);
    const tuples = chunk.map(() => "(?, ?, ?, ?, ?, 0)").join(", ");
    statements.push(
      ifMessage === undefined
        ? db.$client.prepare(`${STATS_UPSERT_HEAD}VALUES ${tuples}${STATS_UPSERT_TAIL}`).bind(...values)
        : db.$client.prepare(`${STATS_UPSERT_HEAD}SELECT * FROM (VALUES ${tuples}) WHERE EXISTS (SELECT 1 FROM messages WHERE id = ?)${STATS_UPSERT_TAIL}`).bind(...values, ifMessage),
    );
  }
  return statements;
}

/** Blocks per stats statement: 5 bound values each, under D1's 100 bound parameters per statement. */
const STATS_ROWS_PER_STATEMENT = 20;
const STATS_UPSERT_HEAD = "INSERT INTO flow_stats (company_id, flow_id, node_id, reached, stopped, rotary) ";
const STATS_UPSERT_TAIL = " ON CONFLICT (flow_id, node_id) DO UPDATE SET reached = flow_stats.reached + excluded.reached, stopped = flow_stats.stopped + excluded.stopped";

/** The rotary counters of a flow's blocks (node id → contacts handed out). */
export async function rotaryCounters(db: Db, companyId: string, flowId: string): Promise<Record<string, number>> {
  const rows = await db
    .select({ nodeId: flowStats.nodeId, rotary: flowStats.rotary })
    .from(flowStats)
    .where(and(eq(flowStats.companyId, companyId), eq(flowStats.flowId, flowId), sql`${flowStats.rotary} > 0`));
  return Object.fromEntries(rows.map((r) => [r.nodeId, r.rotary]));
}

/** +1 on a rotary block's counter. */
export async function advanceRotary(db: Db, companyId: string, flowId: string, nodeId: string): Promise<void> {
  await db
    .insert(flowStats)
    .values({ companyId, flowId, nodeId, reached: 0, stopped: 0, rotary: 1 })
    .onConflictDoUpdate({ target: [flowStats.flowId, flowStats.nodeId], set: { rotary: sql`${flowStats.rotary} + 1` } });
}

/** Names of the company's builders by id (ids of other companies are left out). */
export async function flowNames(db: Db, companyId: string, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await db.select({ id: flows.id, name: flows.name }).from(flows).where(and(eq(flows.companyId, companyId), inArray(flows.id, [...new Set(ids)])));
  return new Map(rows.map((r) => [r.id, r.name]));
}
