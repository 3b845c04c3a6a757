/**
 * The `jobs` consumer and its handlers called directly (STYLE habit 4): redelivery never counts
 * twice, a failing handler is retried with backoff, the dead-letter handler fails the job naming
 * what was written, malformed messages are dropped.
 */
import { describe, expect, it } from "vitest";
import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import type { ImportUploadAnswer, JobAnswer } from "../../schema/api-types";
import { getDb } from "../lib/db";
import { activeCompanyId, call, countRows, expectStatus, register } from "../test/helpers";
import { xlsxOf } from "../test/xlsx-fixtures";
import { CHUNK_MAX_ROWS, runImportChunk, runImportFinish, runImportParse, type JobDeps } from "../jobs/import";
import { backoffSeconds, consumeJobs, type JobMessage } from "./jobs";

/** Uploads rows and sets the job up as `start` would, without enqueueing (the handlers are driven by hand). */
async function stagedImport(rows: (string | number)[][]) {
  const owner = await register();
  const companyId = await activeCompanyId(owner.token);
  const data = new FormData();
  data.append("file", new File([xlsxOf([["Name", "Phone"], ...rows])], "c.xlsx"));
  const upload = await expectStatus<ImportUploadAnswer>(await call("POST", "/api/contacts/import", { token: owner.token, form: data }), 201);
  await env.DB.prepare(`UPDATE jobs SET status = 'queued', params = json_set(params, '$.mapping', json('{"0":"name","1":"phone"}')) WHERE id = ?`).bind(upload.jobId).run();
  const sent: JobMessage[] = [];
  const deps: JobDeps = { env, db: getDb(env.DB), send: async (m) => void sent.push(m) };
  return { owner, companyId, jobId: upload.jobId, sent, deps };
}

async function jobOf(token: string, id: string): Promise<JobAnswer> {
  return expectStatus<JobAnswer>(await call("GET", `/api/jobs/${id}`, { token }), 200);
}

const phone = (i: number) => `+55119${String(i).padStart(8, "0")}`;

describe("jobs queue handlers", () => {
  it("a redelivered parse or chunk message never counts rows twice", async () => {
    const { owner, companyId, jobId, sent, deps } = await stagedImport([
      ["Ana", phone(1)],
      ["Bia", phone(2)],
      ["Caio", "nope"],
    ]);
    const message = { jobId, companyId };
    await runImportParse(deps, message);
    await runImportParse(deps, message); // redelivered: already staged, only re-enqueues chunk 0
    expect(sent).toEqual([
      { type: "import.chunk", jobId, companyId, chunk: 0 },
      { type: "import.chunk", jobId, companyId, chunk: 0 },
    ]);
    await runImportChunk(deps, { ...message, chunk: 0 });
    await runImportChunk(deps, { ...message, chunk: 0 }); // redelivered after it was counted
    const counted = await jobOf(owner.token, jobId);
    expect(counted).toMatchObject({ status: "running", processed: 3, total: 3, errors: 1 });
    expect(sent.slice(2)).toEqual([
      { type: "import.finish", jobId, companyId },
      { type: "import.finish", jobId, companyId },
    ]);
    await runImportFinish(deps, message);
    await runImportFinish(deps, message);
    expect(await jobOf(owner.token, jobId)).toMatchObject({ status: "done", processed: 3, errors: 1 });
    expect(await countRows("contacts", "company_id = ?", companyId)).toBe(2);
  });

  it("a handler that throws is retried with exponential backoff; the rest of the batch is acked", async () => {
    const { companyId, jobId } = await stagedImport([["Ana", phone(1)]]);
    // Chunk 3 of a job that has not staged anything yet: the handler throws (out of order).
    await env.DB.prepare(`UPDATE jobs SET status = 'running', params = json_set(params, '$.chunks', 5, '$.nextChunk', 0) WHERE id = ?`).bind(jobId).run();
    const batch = createMessageBatch<JobMessage | { nonsense: true }>("jobs", [
      { id: "m1", timestamp: new Date(), attempts: 3, body: { type: "import.chunk", jobId, companyId, chunk: 3 } },
      { id: "m2", timestamp: new Date(), attempts: 1, body: { nonsense: true } },
    ]);
    const ctx = createExecutionContext();
    await consumeJobs(batch, env);
    const result = await getQueueResult(batch, ctx);
    expect(result.retryMessages.map((m) => m.msgId)).toEqual(["m1"]);
    expect(result.explicitAcks).toEqual(["m2"]);
    // getQueueResult does not carry the delay: a hand-made batch records what retry() was given.
    const retries: (QueueRetryOptions | undefined)[] = [];
    const message: Message<JobMessage> = {
      id: "m3",
      timestamp: new Date(),
      attempts: 3,
      body: { type: "import.chunk", jobId, companyId, chunk: 3 },
      ack: () => undefined,
      retry: (options) => void retries.push(options),
    };
    const metadata = { metrics: { backlogCount: 1, backlogBytes: 0 } };
    await consumeJobs({ queue: "jobs", metadata, messages: [message], ackAll: () => undefined, retryAll: () => undefined }, env);
    expect(retries).toEqual([{ delaySeconds: 40 }]);
    expect(backoffSeconds(1)).toBe(10);
    expect(backoffSeconds(20)).toBe(600);
  });

  it("the dead-letter handler fails the job, naming the rows that were written and reporting the refused ones", async () => {
    const rows = Array.from({ length: 1500 }, (_, i) => [`C${i}`, i === 3 ? "bad" : phone(i)]);
    const { owner, companyId, jobId, deps } = await stagedImport(rows);
    await runImportParse(deps, { jobId, companyId });
    await runImportChunk(deps, { jobId, companyId, chunk: 0 }); // one chunk (CHUNK_MAX_ROWS rows) written; chunk 1 never succeeds
    const batch = createMessageBatch<JobMessage>("jobs-dlq", [{ id: "d1", timestamp: new Date(), attempts: 6, body: { type: "import.chunk", jobId, companyId, chunk: 1 } }]);
    await consumeJobs(batch, env, true);
    expect((await getQueueResult(batch, createExecutionContext())).explicitAcks).toEqual(["d1"]);
    const job = await jobOf(owner.token, jobId);
    expect(job.status).toBe("failed");
    expect(job.errorMessage).toMatch(/several failed attempts/);
    const last = CHUNK_MAX_ROWS + 1;
    expect(job.errorMessage).toContain(`Rows 2 to ${last} were imported (${CHUNK_MAX_ROWS - 1} contacts, 1 refused); rows after ${last} were not.`);
    expect(await countRows("contacts", "company_id = ?", companyId)).toBe(CHUNK_MAX_ROWS - 1);
    expect(job.reportUrl).not.toBeNull();
    const staged = await env.FILES.list({ prefix: `jobs/${jobId}/` });
    expect(staged.objects).toEqual([]);
  });
});
