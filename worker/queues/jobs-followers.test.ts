/**
 * Import chunks run in their predecessor's invocation (issue 16, `handleWithFollowers`) and the
 * throttled progress push (`progressPushDue`): up to CHUNKS_PER_INVOCATION chunks in one
 * invocation, each counted once; a chunk that fails there goes to the queue on its own; a
 * redelivered chunk whose invocation stopped midway sends the chunk the job waits for.
 */
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:test";
import type { ImportUploadAnswer } from "../../schema/api-types";
import { getDb } from "../lib/db";
import { activeCompanyId, call, countRows, expectStatus, register } from "../test/helpers";
import { xlsxOf } from "../test/xlsx-fixtures";
import { CHUNK_MAX_ROWS, CHUNKS_PER_INVOCATION, PROGRESS_PUSH_MS, progressPushDue, runImportChunk, runImportParse, type JobDeps } from "../jobs/import";
import { handleWithFollowers, type JobMessage } from "./jobs";

const phone = (i: number) => `+55219${String(i).padStart(8, "0")}`;

/** An import of `rows` contacts staged in chunks by hand (no queue), with an env whose JOBS queue records what is sent. */
async function stagedChunks(rows: number) {
  const owner = await register();
  const companyId = await activeCompanyId(owner.token);
  const data = new FormData();
  data.append("file", new File([xlsxOf([["Name", "Phone"], ...Array.from({ length: rows }, (_, i) => [`C${i}`, phone(i)])])], "c.xlsx"));
  const upload = await expectStatus<ImportUploadAnswer>(await call("POST", "/api/contacts/import", { token: owner.token, form: data }), 201);
  const jobId = upload.jobId;
  await env.DB.prepare(`UPDATE jobs SET status = 'queued', params = json_set(params, '$.mapping', json('{"0":"name","1":"phone"}')) WHERE id = ?`).bind(jobId).run();
  const deps: JobDeps = { env, db: getDb(env.DB), send: async () => undefined };
  await runImportParse(deps, { jobId, companyId });
  const queued: JobMessage[] = [];
  const jobs = { send: async (message: JobMessage) => void queued.push(message), sendBatch: async () => undefined } as unknown as Queue;
  return { companyId, jobId, queued, jobsEnv: { ...env, JOBS: jobs } };
}

const progressOf = (jobId: string) => env.DB.prepare("SELECT processed, json_extract(params, '$.nextChunk') AS next FROM jobs WHERE id = ?").bind(jobId).first<{ processed: number; next: number }>();

describe("import chunks in one invocation", () => {
  it("a chunk message runs the chunks after it, up to CHUNKS_PER_INVOCATION, then queues the next", { timeout: 60_000 }, async () => {
    const chunks = CHUNKS_PER_INVOCATION + 2;
    const { companyId, jobId, queued, jobsEnv } = await stagedChunks(chunks * CHUNK_MAX_ROWS);
    await handleWithFollowers(jobsEnv, { type: "import.chunk", jobId, companyId, chunk: 0 });
    expect(await progressOf(jobId)).toEqual({ processed: CHUNKS_PER_INVOCATION * CHUNK_MAX_ROWS, next: CHUNKS_PER_INVOCATION });
    expect(queued).toEqual([{ type: "import.chunk", jobId, companyId, chunk: CHUNKS_PER_INVOCATION }]);
    expect(await countRows("contacts", "company_id = ?", companyId)).toBe(CHUNKS_PER_INVOCATION * CHUNK_MAX_ROWS);
  });

  it("a chunk that fails in its predecessor's invocation is queued on its own; a redelivered predecessor sends the chunk the job waits for", { timeout: 60_000 }, async () => {
    const { companyId, jobId, queued, jobsEnv } = await stagedChunks(4 * CHUNK_MAX_ROWS);
    // R2 fails for chunk 2 only: chunks 0 and 1 are written, chunk 2 goes to the queue.
    const files = env.FILES;
    const failing = {
      head: files.head.bind(files),
      put: files.put.bind(files),
      list: files.list.bind(files),
      delete: files.delete.bind(files),
      get: (key: string, options?: R2GetOptions) => (key.endsWith("/chunk-2.json") ? Promise.reject(new Error("R2 hiccup")) : files.get(key, options)),
    } as unknown as R2Bucket;
    await handleWithFollowers({ ...jobsEnv, FILES: failing }, { type: "import.chunk", jobId, companyId, chunk: 0 });
    expect(await progressOf(jobId)).toEqual({ processed: 2 * CHUNK_MAX_ROWS, next: 2 });
    expect(queued).toEqual([{ type: "import.chunk", jobId, companyId, chunk: 2 }]);

    // Chunk 0 delivered again (its invocation had stopped before acking): nothing counts twice,
    // and the chunk the job waits for is sent.
    const sent: JobMessage[] = [];
    await runImportChunk({ env, db: getDb(env.DB), send: async (m) => void sent.push(m) }, { jobId, companyId, chunk: 0 });
    expect(sent).toEqual([{ type: "import.chunk", jobId, companyId, chunk: 2 }]);
    expect(await progressOf(jobId)).toEqual({ processed: 2 * CHUNK_MAX_ROWS, next: 2 });
    expect(await countRows("contacts", "company_id = ?", companyId)).toBe(2 * CHUNK_MAX_ROWS);
  });
});

describe("progressPushDue", () => {
  it("pushes a job's progress at most every PROGRESS_PUSH_MS, and always for its last chunk", () => {
    const job = crypto.randomUUID();
    expect(progressPushDue(job, 0, 10, 1_000)).toBe(true);
    expect(progressPushDue(job, 1, 10, 1_000 + PROGRESS_PUSH_MS - 1)).toBe(false);
    expect(progressPushDue(job, 2, 10, 1_000 + PROGRESS_PUSH_MS)).toBe(true);
    expect(progressPushDue(job, 3, 10, 1_000 + PROGRESS_PUSH_MS + 1)).toBe(false);
    expect(progressPushDue(job, 9, 10, 1_000 + PROGRESS_PUSH_MS + 2)).toBe(true);
    // Another job is not held back by this one's pushes.
    expect(progressPushDue(crypto.randomUUID(), 0, 10, 1_000 + PROGRESS_PUSH_MS + 2)).toBe(true);
  });
});
