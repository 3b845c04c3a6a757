/**
 * Data cleanup (spec §4 "Data cleanup", §7 `/companies/delete-data`; issue 12): deletes one category
 * of a company's data — contacts, custom fields, tags, flows — or all four, on the `jobs` queue.
 *
 * A cleanup is a `jobs` row of type `cleanup` (params: the category, its phases, the phase under
 * way and the next step number). Each `cleanup.step` message runs ONE bounded chunk of the current
 * phase (at most a few dozen D1 statements: D1's per-invocation limits, platform-limits A1), then
 * advances the job with a conditional UPDATE on `params.step = n` (a redelivered message never
 * advances it twice; the deletes themselves are idempotent) and enqueues step n + 1, like the
 * import's chunks. Progress (`processed` of `total`, the rows counted when the job started) is
 * pushed to the CompanyHub as `job.updated` after every step.
 *
 * What each category removes, always only the company's rows:
 * - contacts: every contact with its tickets, messages, tags, field values, channel identities and
 *   custom events (worker/lib/contacts.ts `deleteContacts` keeps the contact counter right), the R2
 *   objects of their messages' media and their pictures (media a flow or a quick message still
 *   refers to is kept), then the finished import/export jobs with their files (they hold contact
 *   data: the uploaded .xlsx, the export, the refused-rows report);
 * - custom_fields: every field value, then every custom field;
 * - tags: every tag link, then every tag;
 * - flows: every flow with its versions, stats, keywords and default-flow slots (set to none), the
 *   R2 objects its documents refer to (`r2:media/<companyId>/…`) unless a stored message shows them,
 *   then the flow folders, and outside-hours actions naming a flow become "none".
 * One cleanup at a time per company: POST answers 409 while one is queued or running.
 */
import { and, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { z } from "zod";
import { connectionFlows, contacts, customEvents, flowFolders, flows, flowStats, flowVersions, jobs, keywords, messages, operatingHours, quickMessages, type JobRow } from "../../schema";
import { CLEANUP_TYPES, type CleanupType, type DataCleanupAnswer } from "../../schema/validation/data-cleanup";
import type { OutsideHours, OutsideHoursAction } from "../../schema/validation/operating-hours";
import type { AppEnv } from "../env";
import { deleteContacts } from "./contacts";
import { chunk } from "./cursor";
import type { Db } from "./db";
import { now } from "./db";
import { AppError } from "./errors";
import { newId } from "./ids";
import { deleteStaging, loadJob, publishJob } from "../jobs/common";

/** The phases of each category, in order ("all": contacts first, so their messages no longer hold flow media). */
export const CLEANUP_PHASES = ["contacts", "custom_fields", "tags", "flows"] as const;
export type CleanupPhase = (typeof CLEANUP_PHASES)[number];

/** Contacts deleted per step (five atomic batches of 90 in deleteContacts). */
export const CONTACTS_PER_STEP = 450;
/** Link rows (field values, tag links) deleted per statement, and statements per step. */
export const LINKS_PER_STATEMENT = 2000;
const LINK_STATEMENTS_PER_STEP = 5;
/** Flows deleted per step. */
export const FLOWS_PER_STEP = 20;

/** The `cleanup.step` message of the jobs queue (worker/queues/jobs.ts). */
export type CleanupStepMessage = { type: "cleanup.step"; jobId: string; companyId: string; step: number };

/** What a step needs: the bindings, the database and a way to enqueue the next step. */
export type CleanupDeps = { env: AppEnv; db: Db; send(message: CleanupStepMessage): Promise<void> };

/** `jobs.params` of a cleanup. */
export const cleanupParamsSchema = z.object({
  category: z.enum(CLEANUP_TYPES),
  phases: z.array(z.enum(CLEANUP_PHASES)),
  /** Index in `phases` of the phase under way. */
  phase: z.number().int().min(0),
  /** The step number the next `cleanup.step` message must carry. */
  step: z.number().int().min(0),
});
export type CleanupParams = z.infer<typeof cleanupParamsSchema>;

/** The phases of a category. */
export function phasesOf(type: CleanupType): CleanupPhase[] {
  return type === "all" ? [...CLEANUP_PHASES] : [type];
}

// ---------------------------------------------------------------------------------------------
// Starting and presenting
// ---------------------------------------------------------------------------------------------

/** The company's latest cleanup job, or null. */
export async function latestCleanup(db: Db, companyId: string): Promise<JobRow | null> {
  return (await db.query.jobs.findFirst({ where: and(eq(jobs.companyId, companyId), eq(jobs.type, "cleanup")), orderBy: desc(jobs.createdAt) })) ?? null;
}

/** The deleting state of GET/POST /api/companies/delete-data. */
export function presentCleanup(row: JobRow | null): DataCleanupAnswer {
  if (!row) return { jobId: null, type: null, status: "none", progress: 0, processed: 0, total: 0, errorMessage: null, startedAt: null, updatedAt: null };
  const params = cleanupParamsSchema.safeParse(row.params);
  const total = Math.max(row.total, row.processed);
  const progress = row.status === "done" ? 100 : total === 0 ? 0 : Math.min(99, Math.floor((row.processed / total) * 100));
  return {
    jobId: row.id,
    type: params.success ? params.data.category : null,
    status: row.status === "uploaded" ? "queued" : row.status,
    progress,
    processed: row.processed,
    total,
    errorMessage: row.errorMessage,
    startedAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * Starts a cleanup of `type` for the company: inserts the job (only when no cleanup of the company
 * is queued or running: one atomic INSERT … WHERE NOT EXISTS) and enqueues its step 0. Throws 409
 * `conflict` while another cleanup is under way. Answers the job row.
 */
export async function startCleanup(env: AppEnv, db: Db, companyId: string, memberId: string, type: CleanupType): Promise<JobRow> {
  const id = newId();
  const at = now();
  const params: CleanupParams = { category: type, phases: phasesOf(type), phase: 0, step: 0 };
  const inserted = await env.DB.prepare(
    `INSERT INTO jobs (id, company_id, type, status, processed, total, errors, params, created_by, created_at, updated_at)
     SELECT ?1, ?2, 'cleanup', 'queued', 0, 0, 0, ?3, ?4, ?5, ?5
     WHERE NOT EXISTS (SELECT 1 FROM jobs WHERE company_id = ?2 AND type = 'cleanup' AND status IN ('uploaded', 'queued', 'running'))`,
  )
    .bind(id, companyId, JSON.stringify(params), memberId, at)
    .run();
  if (!inserted.meta.changes) throw new AppError("conflict", "A data cleanup is already under way; wait for it to finish.");
  const row = await loadJob(db, companyId, id);
  if (!row) throw new Error("cleanup job insert returned nothing");
  try {
    await env.JOBS.send({ type: "cleanup.step", jobId: id, companyId, step: 0 } satisfies CleanupStepMessage, { contentType: "json" });
  } catch (error) {
    await db.delete(jobs).where(and(eq(jobs.id, id), eq(jobs.companyId, companyId)));
    throw error;
  }
  return row;
}

// ---------------------------------------------------------------------------------------------
// The queue step
// ---------------------------------------------------------------------------------------------

/**
 * Rows a phase will delete, counted when the job starts (its `total`). After a contacts phase no
 * field value or tag link is left (they went with their contacts): only the fields and tags count.
 */
async function countPhase(env: AppEnv, companyId: string, phase: CleanupPhase, afterContacts: boolean): Promise<number> {
  const count = async (table: string) =>
    (await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE company_id = ?`).bind(companyId).first<{ n: number }>())?.n ?? 0;
  switch (phase) {
    case "contacts":
      return count("contacts");
    case "custom_fields":
      return (afterContacts ? 0 : await count("contact_field_values")) + (await count("custom_fields"));
    case "tags":
      return (afterContacts ? 0 : await count("contact_tags")) + (await count("tags"));
    case "flows":
      return count("flows");
  }
}

/**
 * `cleanup.step` n: runs one chunk of the phase under way, advances the job exactly once (a
 * conditional UPDATE on `params.step = n`), publishes its progress, and enqueues step n + 1 (or
 * marks the job done after the last phase). A step already counted only repairs the chain (its
 * next message re-sent) when nothing further happened; an early step is retried.
 */
export async function runCleanupStep(deps: CleanupDeps, message: CleanupStepMessage): Promise<void> {
  const { env, db } = deps;
  const job = await loadJob(db, message.companyId, message.jobId);
  if (!job || job.type !== "cleanup" || (job.status !== "queued" && job.status !== "running")) return;
  const parsed = cleanupParamsSchema.safeParse(job.params);
  if (!parsed.success) {
    await finish(env, db, job, "failed", "The cleanup's settings are missing; start it again.");
    return;
  }
  const params = parsed.data;
  const n = message.step;
  if (params.step > n) {
    if (params.step === n + 1) await deps.send({ ...message, step: n + 1 });
    return;
  }
  if (params.step < n) throw new Error(`cleanup step ${n} arrived before step ${params.step} of job ${job.id}`);

  if (job.status === "queued") {
    let total = 0;
    for (const [index, phase] of params.phases.entries()) total += await countPhase(env, job.companyId, phase, params.phases.slice(0, index).includes("contacts"));
    const [running] = await db
      .update(jobs)
      .set({ status: "running", total, updatedAt: now() })
      .where(and(eq(jobs.id, job.id), eq(jobs.companyId, job.companyId), eq(jobs.status, "queued")))
      .returning();
    if (running) await publishJob(env, running);
  }

  const phase = params.phases[params.phase];
  const result = phase ? await runPhaseChunk(env, db, job.companyId, phase) : { deleted: 0, finished: true };
  const nextPhase = result.finished ? params.phase + 1 : params.phase;
  const done = nextPhase >= params.phases.length;
  const [updated] = await db
    .update(jobs)
    .set({
      processed: sql`${jobs.processed} + ${result.deleted}`,
      params: sql`json_set(${jobs.params}, '$.step', ${n + 1}, '$.phase', ${nextPhase})`,
      ...(done ? { status: "done" as const } : {}),
      updatedAt: now(),
    })
    .where(and(eq(jobs.id, job.id), eq(jobs.companyId, job.companyId), eq(jobs.status, "running"), sql`json_extract(${jobs.params}, '$.step') = ${n}`))
    .returning();
  if (!updated) return;
  await publishJob(env, updated);
  if (!done) await deps.send({ ...message, step: n + 1 });
}

/** Ends a cleanup as `status` (with a user-facing `message` when failed) and publishes it. */
async function finish(env: AppEnv, db: Db, job: JobRow, status: "done" | "failed", message: string | null): Promise<void> {
  const [updated] = await db
    .update(jobs)
    .set({ status, errorMessage: message, updatedAt: now() })
    .where(and(eq(jobs.id, job.id), eq(jobs.companyId, job.companyId), eq(jobs.status, job.status)))
    .returning();
  if (updated) await publishJob(env, updated);
}

/** One chunk of `phase`: rows deleted (counted in `total`'s units) and whether the phase is over. */
export async function runPhaseChunk(env: AppEnv, db: Db, companyId: string, phase: CleanupPhase): Promise<{ deleted: number; finished: boolean }> {
  switch (phase) {
    case "contacts":
      return contactsChunk(env, db, companyId);
    case "custom_fields":
      return linksChunk(env, companyId, "contact_field_values", "custom_fields");
    case "tags":
      return linksChunk(env, companyId, "contact_tags", "tags");
    case "flows":
      return flowsChunk(env, db, companyId);
  }
}

// ---------------------------------------------------------------------------------------------
// Phases
// ---------------------------------------------------------------------------------------------

/** Deletes R2 objects, 1,000 keys per call (R2's limit). */
async function deleteObjects(bucket: R2Bucket, keys: Iterable<string>): Promise<void> {
  for (const part of chunk([...new Set(keys)], 1000)) if (part.length) await bucket.delete(part);
}

/**
 * Of `keys` (the company's media keys of outbound messages), those a flow document or a quick
 * message still refers to: they stay in R2.
 */
async function stillReferenced(env: AppEnv, companyId: string, keys: string[]): Promise<Set<string>> {
  const kept = new Set<string>();
  for (const part of chunk(keys, 50)) {
    const { results } = await env.DB.prepare(
      `SELECT k.value AS key FROM json_each(?1) k
       WHERE EXISTS (SELECT 1 FROM quick_messages q WHERE q.company_id = ?2 AND q.media_key = k.value)
          OR EXISTS (SELECT 1 FROM flows f WHERE f.company_id = ?2 AND instr(f.draft, 'r2:' || k.value) > 0)
          OR EXISTS (SELECT 1 FROM flow_versions v WHERE v.company_id = ?2 AND instr(v.document, 'r2:' || k.value) > 0)`,
    )
      .bind(JSON.stringify(part), companyId)
      .all<{ key: string }>();
    for (const row of results) kept.add(row.key);
  }
  return kept;
}

/**
 * Up to CONTACTS_PER_STEP contacts with everything hanging on them and their R2 objects. When no
 * contact is left: the finished import/export jobs and their files.
 */
async function contactsChunk(env: AppEnv, db: Db, companyId: string): Promise<{ deleted: number; finished: boolean }> {
  const batch = await db
    .select({ id: contacts.id, imageKey: contacts.imageKey })
    .from(contacts)
    .where(eq(contacts.companyId, companyId))
    .orderBy(contacts.createdAt, contacts.id)
    .limit(CONTACTS_PER_STEP);
  if (!batch.length) {
    await deleteContactFiles(env, db, companyId);
    return { deleted: 0, finished: true };
  }
  const ids = batch.map((c) => c.id);
  const inbound = new Set<string>();
  const outbound = new Set<string>();
  for (const part of chunk(ids, 90)) {
    const rows = await db
      .selectDistinct({ key: messages.mediaKey, direction: messages.direction })
      .from(messages)
      .where(and(inArray(messages.contactId, part), eq(messages.companyId, companyId), isNotNull(messages.mediaKey)));
    for (const row of rows) if (row.key) (row.direction === "in" ? inbound : outbound).add(row.key);
    await db.delete(customEvents).where(and(eq(customEvents.companyId, companyId), inArray(customEvents.contactId, part)));
  }
  const deleted = await deleteContacts(db, companyId, ids);
  const candidates = [...outbound].filter((key) => !inbound.has(key));
  const kept = await stillReferenced(env, companyId, candidates);
  const pictures = batch.flatMap((c) => (c.imageKey ? [c.imageKey] : []));
  await deleteObjects(env.FILES, [...inbound, ...candidates.filter((key) => !kept.has(key)), ...pictures]);
  return { deleted, finished: false };
}

/** The company's finished contact imports and exports, their files in R2 and their staging objects. */
async function deleteContactFiles(env: AppEnv, db: Db, companyId: string): Promise<void> {
  const rows = await db
    .select({ id: jobs.id, fileKey: jobs.fileKey, resultKey: jobs.resultKey, reportKey: jobs.reportKey })
    .from(jobs)
    .where(and(eq(jobs.companyId, companyId), inArray(jobs.type, ["import", "export"]), inArray(jobs.status, ["uploaded", "done", "failed"])));
  for (const part of chunk(rows, 90)) {
    await deleteObjects(env.FILES, part.flatMap((r) => [r.fileKey, r.resultKey, r.reportKey].filter((k): k is string => k !== null)));
    for (const row of part) await deleteStaging(env.FILES, row.id);
    await db.delete(jobs).where(and(eq(jobs.companyId, companyId), inArray(jobs.id, part.map((r) => r.id))));
  }
}

/**
 * Up to LINK_STATEMENTS_PER_STEP × LINKS_PER_STATEMENT rows of `links` (field values or tag links);
 * once none is left, every row of `owners` (the fields or tags) in one statement.
 */
async function linksChunk(env: AppEnv, companyId: string, links: "contact_field_values" | "contact_tags", owners: "custom_fields" | "tags"): Promise<{ deleted: number; finished: boolean }> {
  let deleted = 0;
  for (let i = 0; i < LINK_STATEMENTS_PER_STEP; i++) {
    const result = await env.DB.prepare(`DELETE FROM ${links} WHERE rowid IN (SELECT rowid FROM ${links} WHERE company_id = ? LIMIT ${LINKS_PER_STATEMENT})`).bind(companyId).run();
    deleted += result.meta.changes;
    if (result.meta.changes < LINKS_PER_STATEMENT) {
      const owned = await env.DB.prepare(`DELETE FROM ${owners} WHERE company_id = ?`).bind(companyId).run();
      return { deleted: deleted + owned.meta.changes, finished: true };
    }
  }
  return { deleted, finished: false };
}

/** `r2:media/<companyId>/…` references in a flow document's text. */
function mediaRefs(companyId: string, text: string): string[] {
  const pattern = new RegExp(`r2:(media/${companyId}/[0-9A-Za-z._-]{1,80})`, "g");
  return [...text.matchAll(pattern)].map((m) => m[1]!);
}

/**
 * Up to FLOWS_PER_STEP flows with their versions, stats, keywords and default-flow slots, and the
 * R2 objects their documents refer to that no stored message shows. When no flow is left: the
 * folders, and outside-hours actions naming a flow become "none".
 */
async function flowsChunk(env: AppEnv, db: Db, companyId: string): Promise<{ deleted: number; finished: boolean }> {
  const batch = await db.select({ id: flows.id, draft: flows.draft }).from(flows).where(eq(flows.companyId, companyId)).limit(FLOWS_PER_STEP);
  if (!batch.length) {
    await db.delete(flowFolders).where(eq(flowFolders.companyId, companyId));
    await clearOutsideHoursFlows(db, companyId);
    return { deleted: 0, finished: true };
  }
  const ids = batch.map((f) => f.id);
  const refs = new Set(batch.flatMap((f) => mediaRefs(companyId, f.draft)));
  const versions = await db.select({ document: flowVersions.document }).from(flowVersions).where(and(eq(flowVersions.companyId, companyId), inArray(flowVersions.flowId, ids)));
  for (const v of versions) for (const ref of mediaRefs(companyId, v.document)) refs.add(ref);
  const at = now();
  await db.batch([
    db.delete(keywords).where(and(eq(keywords.companyId, companyId), inArray(keywords.flowId, ids))),
    db.update(connectionFlows).set({ defaultFlowId: null, updatedAt: at }).where(and(eq(connectionFlows.companyId, companyId), inArray(connectionFlows.defaultFlowId, ids))),
    db.update(connectionFlows).set({ mediaFlowId: null, updatedAt: at }).where(and(eq(connectionFlows.companyId, companyId), inArray(connectionFlows.mediaFlowId, ids))),
    db.update(connectionFlows).set({ campaignFlowId: null, updatedAt: at }).where(and(eq(connectionFlows.companyId, companyId), inArray(connectionFlows.campaignFlowId, ids))),
    db.update(connectionFlows).set({ storyFlowId: null, updatedAt: at }).where(and(eq(connectionFlows.companyId, companyId), inArray(connectionFlows.storyFlowId, ids))),
    db.delete(flowStats).where(and(eq(flowStats.companyId, companyId), inArray(flowStats.flowId, ids))),
    db.delete(flowVersions).where(and(eq(flowVersions.companyId, companyId), inArray(flowVersions.flowId, ids))),
    db.delete(flows).where(and(eq(flows.companyId, companyId), inArray(flows.id, ids))),
  ]);
  // Media a stored message shows (a flow sent it) stays with the conversation.
  const shown = new Set<string>();
  for (const part of chunk([...refs], 90)) {
    const rows = await db.select({ key: messages.mediaKey }).from(messages).where(and(inArray(messages.mediaKey, part), eq(messages.companyId, companyId)));
    for (const row of rows) if (row.key) shown.add(row.key);
    const quick = await db.select({ key: quickMessages.mediaKey }).from(quickMessages).where(and(eq(quickMessages.companyId, companyId), inArray(quickMessages.mediaKey, part)));
    for (const row of quick) if (row.key) shown.add(row.key);
  }
  await deleteObjects(env.FILES, [...refs].filter((key) => !shown.has(key)));
  return { deleted: ids.length, finished: false };
}

/** Outside-hours actions that name a flow become "none" (the flows are gone). */
async function clearOutsideHoursFlows(db: Db, companyId: string): Promise<void> {
  const row = await db.query.operatingHours.findFirst({ where: eq(operatingHours.companyId, companyId) });
  if (!row) return;
  const clear = (action: OutsideHoursAction): OutsideHoursAction => (action.type === "flow" ? { type: "none" } : action);
  const outside: OutsideHours = {
    all: clear(row.outside.all),
    connections: Object.fromEntries(Object.entries(row.outside.connections).map(([id, action]) => [id, clear(action)])),
  };
  await db.update(operatingHours).set({ outside, updatedAt: now() }).where(eq(operatingHours.companyId, companyId));
}

/** The dead-letter end of a cleanup: failed with `cause` (what was deleted stays deleted). */
export async function failCleanup(env: AppEnv, db: Db, job: JobRow, cause: string): Promise<void> {
  await finish(env, db, job, "failed", `${cause} ${job.processed} of ${Math.max(job.total, job.processed)} items were deleted before it stopped.`);
}
