/**
 * The import's finish (issue 16: it yields instead of holding the isolate): the report reads only
 * the chunks that have refusals, in chunk order (R2 lists `refused-10` before `refused-2`), and
 * still has every refused row in sheet order; the staging is deleted whole in slices.
 */
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:test";
import type { ImportUploadAnswer, JobAnswer } from "../../schema/api-types";
import { getDb } from "../lib/db";
import { openXlsx } from "../lib/xlsx-reader";
import { memorySource } from "../lib/zip-reader";
import { activeCompanyId, call, expectStatus, register } from "../test/helpers";
import { xlsxOf } from "../test/xlsx-fixtures";
import { DELETE_KEYS_PER_CALL, deleteStaging, stagingPrefix } from "./common";
import { refusalMessage, refusedParts, runImportFinish, type JobDeps } from "./import";

/** An uploaded import set to `running` with `chunks` chunks counted and `errors` refused rows. */
async function countedImport(chunks: number, errors: number) {
  const owner = await register();
  const companyId = await activeCompanyId(owner.token);
  const data = new FormData();
  data.append("file", new File([xlsxOf([["Name", "Phone"], ["Ana", "+5511900000001"]])], "c.xlsx"));
  const upload = await expectStatus<ImportUploadAnswer>(await call("POST", "/api/contacts/import", { token: owner.token, form: data }), 201);
  await env.DB.prepare(`UPDATE jobs SET status = 'running', total = ?, processed = ?, errors = ?, params = json_set(params, '$.chunks', ?, '$.nextChunk', ?) WHERE id = ?`)
    .bind(chunks * 10, chunks * 10, errors, chunks, chunks, upload.jobId)
    .run();
  const deps: JobDeps = { env, db: getDb(env.DB), send: async () => undefined };
  return { owner, companyId, jobId: upload.jobId, deps };
}

describe("import finish", () => {
  it("refusedParts: the chunks below `chunks` that have refusals, in numeric order", async () => {
    const jobId = crypto.randomUUID();
    const prefix = stagingPrefix(jobId);
    for (const n of [11, 2, 10, 0, 1, 20]) await env.FILES.put(`${prefix}refused-${n}.json`, "[]");
    await env.FILES.put(`${prefix}chunk-3.json`, "{}");
    expect(await refusedParts(env.FILES, jobId, 12)).toEqual([0, 1, 2, 10, 11]);
    expect(await refusedParts(env.FILES, jobId, 2)).toEqual([0, 1]);
    expect(await refusedParts(env.FILES, crypto.randomUUID(), 12)).toEqual([]);
    await deleteStaging(env.FILES, jobId);
  });

  it("a report over many parts has every refused row in sheet order; the staging is deleted", { timeout: 120_000 }, async () => {
    // 120 chunks, refusals in every third one (some with several rows), plus the chunk objects:
    // more staged keys than one deletion call takes.
    const chunks = 120;
    const expected: { row: number; reason: string; detail?: string; phone?: string }[] = [];
    const { owner, jobId, companyId, deps } = await countedImport(chunks, 0);
    const prefix = stagingPrefix(jobId);
    const puts: Promise<unknown>[] = [];
    for (let n = 0; n < chunks; n++) {
      puts.push(env.FILES.put(`${prefix}chunk-${n}.json`, "{}"));
      if (n % 3 !== 1) continue;
      const refused = Array.from({ length: 1 + (n % 4) }, (_, i) => {
        const row = 2 + n * 10 + i * 2;
        return i % 2 ? { row, reason: "duplicate_in_file", phone: `+55119${row}`, detail: `Same phone as row ${row - 1}.` } : { row, reason: "invalid_phone", phone: "12345" };
      });
      expected.push(...refused);
      puts.push(env.FILES.put(`${prefix}refused-${n}.json`, JSON.stringify(refused)));
    }
    await Promise.all(puts);
    expect(chunks + expected.length).toBeGreaterThan(DELETE_KEYS_PER_CALL);
    await env.DB.prepare("UPDATE jobs SET errors = ? WHERE id = ?").bind(expected.length, jobId).run();

    await runImportFinish(deps, { jobId, companyId });

    const job = await expectStatus<JobAnswer>(await call("GET", `/api/jobs/${jobId}`, { token: owner.token }), 200);
    expect(job).toMatchObject({ status: "done", errors: expected.length });
    if (!job.reportUrl) throw new Error("no report");
    const res = await call("GET", job.reportUrl);
    expect(res.status).toBe(200);
    const rows: string[][] = [];
    for await (const row of (await openXlsx(memorySource(new Uint8Array(await res.arrayBuffer())))).rows()) rows.push(row.cells);
    expect(rows[0]).toEqual(["Row", "Reason", "Message", "Name", "Phone", "Email", "Document"]);
    expect(rows.slice(1)).toEqual(
      expected.map((r) => [String(r.row), r.reason, r.detail ? `${refusalMessage(r.reason)} ${r.detail}` : refusalMessage(r.reason), "", ...(r.phone ? [r.phone] : [])]),
    );
    expect((await env.FILES.list({ prefix })).objects).toEqual([]);
  });
});
