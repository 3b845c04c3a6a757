/**
 * What every job handler shares: loading a job row of a company, presenting its progress, pushing
 * it to the CompanyHub (`job.updated`), failing it with a user-facing message, and deleting its
 * staging objects in R2 (`jobs/<jobId>/…`).
 */
import { and, eq } from "drizzle-orm";
import { jobs, type JobRow } from "../../schema";
import type { JobAnswer, JobProgress } from "../../schema/api-types";
import type { AppEnv } from "../env";
import type { Db } from "../lib/db";
import { now } from "../lib/db";
import { signedMediaUrl } from "../lib/media";
import { hubOf } from "../lib/realtime";
import { yieldToOthers } from "../lib/xlsx-reader";

/** A failure that ends a job (bad file, limits): the job is marked failed with `message`; never retried. */
export class JobFailure extends Error {}

/** R2 prefix of a job's temporary objects (import chunks, refused rows). */
export const stagingPrefix = (jobId: string) => `jobs/${jobId}/`;

/** The job `jobId` of `companyId`, or null. */
export async function loadJob(db: Db, companyId: string, jobId: string): Promise<JobRow | null> {
  return (await db.query.jobs.findFirst({ where: and(eq(jobs.id, jobId), eq(jobs.companyId, companyId)) })) ?? null;
}

/** The progress part of a job (hub event and API answer). */
export function jobProgress(row: JobRow): JobProgress {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    processed: row.processed,
    total: row.total,
    errors: row.errors,
    errorMessage: row.errorMessage,
    errorCode: row.status === "failed" && typeof row.params?.errorCode === "string" ? row.params.errorCode : null,
  };
}

/** GET /api/jobs/{id}: progress plus freshly signed download URLs. */
export async function presentJob(env: AppEnv, row: JobRow): Promise<JobAnswer> {
  return {
    ...jobProgress(row),
    resultUrl: row.resultKey ? await signedMediaUrl(env, row.resultKey) : null,
    reportUrl: row.reportKey ? await signedMediaUrl(env, row.reportKey) : null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Pushes the job's progress to its company's hub. A hub hiccup never fails the job: logged only. */
export async function publishJob(env: AppEnv, row: JobRow): Promise<void> {
  try {
    await hubOf(env, row.companyId).publish({ type: "job.updated", job: jobProgress(row) });
  } catch (error) {
    console.error("[jobs] publish failed", row.id, error);
  }
}

/**
 * Marks a job failed with `message` (and `extra` columns, e.g. a partial report) unless it already
 * ended, after deleting its staging objects, and publishes it. Answers whether this call failed it.
 */
export async function failJob(env: AppEnv, db: Db, companyId: string, jobId: string, message: string, extra: { reportKey?: string | null } = {}): Promise<boolean> {
  const row = await loadJob(db, companyId, jobId);
  if (!row || row.status === "done" || row.status === "failed") return false;
  // The staging goes before `failed`, as in the import's finish (issue 16): its deletion takes
  // turns with other work (hundreds of 50-row chunks), and whoever sees the job failed sees none.
  await deleteStaging(env.FILES, jobId);
  const [updated] = await db
    .update(jobs)
    .set({ status: "failed", errorMessage: message, ...extra, updatedAt: now() })
    .where(and(eq(jobs.id, jobId), eq(jobs.companyId, companyId), eq(jobs.status, row.status)))
    .returning();
  if (!updated) return false;
  await publishJob(env, updated);
  return true;
}

/**
 * Keys deleted per R2 call by deleteStaging (issue 16). R2 takes up to 1,000; locally one call
 * deletes every key in one SQLite statement and then starts one blob deletion per key at once, which
 * held the rest of the API for a moment at the end of a 500,000-row import (4,000 staged objects).
 */
export const DELETE_KEYS_PER_CALL = 100;

/**
 * Deletes every object under the job's staging prefix: listed 1,000 keys at a time, deleted
 * DELETE_KEYS_PER_CALL keys per call with a turn for the isolate's other work between calls
 * (issue 16).
 */
export async function deleteStaging(bucket: R2Bucket, jobId: string): Promise<void> {
  let cursor: string | undefined;
  for (;;) {
    const page = await bucket.list({ prefix: stagingPrefix(jobId), cursor, limit: 1000 });
    const keys = page.objects.map((o) => o.key);
    for (let at = 0; at < keys.length; at += DELETE_KEYS_PER_CALL) {
      await bucket.delete(keys.slice(at, at + DELETE_KEYS_PER_CALL));
      await yieldToOthers();
    }
    if (!page.truncated) break;
    cursor = page.cursor;
  }
}
