/**
 * The `jobs` queue (DESIGN.md "Queues"; STYLE habit 4): contact import and export, data cleanup.
 *
 * Messages are a discriminated union on `type`, parsed with zod on arrival (a malformed message is
 * logged and acknowledged, never retried forever). The consumer switches on the type, calls that
 * type's handler (worker/jobs/*: each takes its dependencies and the message, nothing of the queue
 * runtime), then acks; a thrown error (D1, R2 or a Durable Object unavailable) retries the message
 * with exponential backoff (`backoffSeconds`; the fault switch, worker/lib/faults.ts, can make a
 * message fail first, locally and in tests). Failures that retrying cannot fix (a bad file, a
 * limit) are settled inside the handlers as a failed job. After `max_retries` (wrangler.toml) a
 * message lands on `jobs-dlq`, whose own handler marks its job failed with a clear message.
 *
 * Delivery is at least once: every handler is idempotent (see worker/jobs/import.ts).
 */
import { z } from "zod";
import type { AppEnv } from "../env";
import { getDb } from "../lib/db";
import { FaultInjected, maybeFailJob } from "../lib/faults";
import { idSchema } from "../../schema/validation/common";
import { loadJob } from "../jobs/common";
import { failExport, runExport } from "../jobs/export";
import { CHUNKS_PER_INVOCATION, failImport, runImportChunk, runImportFinish, runImportParse, type JobDeps } from "../jobs/import";
import { failCleanup, runCleanupStep } from "../lib/data-cleanup";

const base = { jobId: idSchema, companyId: idSchema };

/** Messages of the `jobs` queue. */
export const jobMessageSchema = z.discriminatedUnion("type", [
  /** Read the uploaded .xlsx, stage its mapped rows. */
  z.object({ type: z.literal("import.parse"), ...base }),
  /** Upsert staged chunk `chunk`. */
  z.object({ type: z.literal("import.chunk"), ...base, chunk: z.number().int().min(0) }),
  /** Write the report, mark the import done. */
  z.object({ type: z.literal("import.finish"), ...base }),
  /** Write the export file. */
  z.object({ type: z.literal("export"), ...base }),
  /** Data cleanup (issue 12): one chunk of step `step` (worker/lib/data-cleanup.ts). */
  z.object({ type: z.literal("cleanup.step"), ...base, step: z.number().int().min(0) }),
]);
export type JobMessage = z.infer<typeof jobMessageSchema>;

/** Queue names (wrangler.toml). */
export const JOBS_QUEUE = "jobs";
export const JOBS_DLQ = "jobs-dlq";

/** Delay before retry `attempts` (1-based): 10 s, 20 s, 40 s … capped at 10 minutes. */
export function backoffSeconds(attempts: number): number {
  return Math.min(600, 10 * 2 ** Math.max(0, attempts - 1));
}

/**
 * The redelivery delay of a failed message: `backoffSeconds`, except for a fault injected in the
 * worker tests (ENVIRONMENT "test"), which the platform redelivers at once so a test sees a message
 * exhaust `max_retries` and reach the dead-letter queue in seconds.
 */
export function retryDelaySeconds(env: Pick<AppEnv, "ENVIRONMENT">, attempts: number, error: unknown): number {
  return env.ENVIRONMENT === "test" && error instanceof FaultInjected ? 0 : backoffSeconds(attempts);
}

/** Enqueues a job message on JOBS. */
export async function sendJob(env: AppEnv, message: JobMessage): Promise<void> {
  await env.JOBS.send(message, { contentType: "json" });
}

/** The handler of each message type. */
export async function handleJobMessage(deps: JobDeps, message: JobMessage): Promise<void> {
  switch (message.type) {
    case "import.parse":
      return runImportParse(deps, message);
    case "import.chunk":
      return runImportChunk(deps, message);
    case "import.finish":
      return runImportFinish(deps, message);
    case "export":
      return runExport(deps, message);
    case "cleanup.step":
      return runCleanupStep(deps, message);
  }
}

/** The dead-letter handler: the job of a message that exhausted its retries fails, saying so. */
export async function handleDeadJobMessage(deps: JobDeps, message: JobMessage): Promise<void> {
  const job = await loadJob(deps.db, message.companyId, message.jobId);
  if (!job || job.status === "done" || job.status === "failed") return;
  const cause = "The job stopped after several failed attempts (a temporary error kept recurring); try again later.";
  if (job.type === "import") await failImport(deps.env, deps.db, job, cause);
  else if (job.type === "cleanup") await failCleanup(deps.env, deps.db, job, cause);
  else await failExport(deps, job, cause);
}

function depsOf(env: AppEnv): JobDeps {
  return { env, db: getDb(env.DB), send: (message) => sendJob(env, message) };
}

/**
 * Pause between two chunks run in one invocation, in ms (issue 16): the queue hop it replaces left
 * the isolate idle for a few milliseconds between chunks, and requests waiting on the isolate ran
 * in that gap; run back to back, the chunks kept it busy and the rest of the API waited more
 * (bench:contacts, 100,000-row import, 2026-11-24: /api/health p95 40.7 ms back to back against
 * 32.3 through the queue, both before the upsert's writes left the query builder; after it, with
 * this gap 27.8 ms at 1,722 rows/s, with 6 ms 27.6 ms at 1,473 rows/s: no better, only slower).
 */
export const FOLLOWER_GAP_MS = 4;

/**
 * Handles `message`, then, when it is an import chunk, the chunk messages its handling sends, in
 * this invocation: up to CHUNKS_PER_INVOCATION chunks in all, with a turn for the isolate's other
 * work between two (issue 16: the queue hop between two chunks was about a fifth of a chunk's time).
 * Every other message, and the chunk after the last, go through the queue. A chunk run here that
 * throws goes through the queue as its predecessor sent it, and is retried there on its own.
 */
export async function handleWithFollowers(env: AppEnv, message: JobMessage): Promise<void> {
  const followers: JobMessage[] = [];
  let room = message.type === "import.chunk" ? CHUNKS_PER_INVOCATION - 1 : 0;
  const deps: JobDeps = {
    ...depsOf(env),
    send: async (next) => {
      if (next.type === "import.chunk" && room > 0) {
        room -= 1;
        followers.push(next);
      } else await sendJob(env, next);
    },
  };
  // The fault switch (local and test only): the message fails as a D1 hiccup would.
  await maybeFailJob(env, message.jobId);
  await handleJobMessage(deps, message);
  for (let next = followers.shift(); next; next = followers.shift()) {
    try {
      await new Promise((resolve) => setTimeout(resolve, FOLLOWER_GAP_MS));
      await maybeFailJob(env, next.jobId);
      await handleJobMessage(deps, next);
    } catch (error) {
      console.error(`[jobs] ${next.type} of job ${next.jobId} failed in its predecessor's invocation; queued on its own`, error);
      // What it sent before failing is dropped: its own delivery runs it again.
      followers.length = 0;
      await sendJob(env, next);
    }
  }
}

/**
 * The consumer of `jobs` (and, with `dead`, of `jobs-dlq`): each message is parsed, handled (an
 * import chunk with the chunks after it, `handleWithFollowers`), then acked, or retried with
 * backoff when its handler throws.
 */
export async function consumeJobs(batch: MessageBatch, env: AppEnv, dead = false): Promise<void> {
  const deps = depsOf(env);
  for (const msg of batch.messages) {
    const parsed = jobMessageSchema.safeParse(msg.body);
    if (!parsed.success) {
      console.error(`[jobs] malformed message on ${batch.queue}, dropped`, msg.id, JSON.stringify(msg.body).slice(0, 500));
      msg.ack();
      continue;
    }
    try {
      if (dead) await handleDeadJobMessage(deps, parsed.data);
      else await handleWithFollowers(env, parsed.data);
      msg.ack();
    } catch (error) {
      console.error(`[jobs] ${parsed.data.type} of job ${parsed.data.jobId} failed (attempt ${msg.attempts}); retrying`, error);
      msg.retry({ delaySeconds: retryDelaySeconds(env, msg.attempts, error) });
    }
  }
}
