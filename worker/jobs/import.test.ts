/**
 * The import at scale (issue 4 "Tests"): a 100,000-row .xlsx generated here goes through the API
 * and the real `jobs` queue; every valid row lands, every refused row is in the report with its
 * reason, and nothing is counted twice. Slow in workerd (about a minute): one test.
 */
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:test";
import type { ImportUploadAnswer, JobAnswer } from "../../schema/api-types";
import { activeCompanyId, call, countRows, expectStatus, register } from "../test/helpers";
import { xlsxOf } from "../test/xlsx-fixtures";
import { openXlsx } from "../lib/xlsx-reader";
import { memorySource } from "../lib/zip-reader";
import type { XlsxCell } from "../lib/xlsx-writer";

const ROWS = 100_000;
const phone = (i: number) => `+55119${String(i).padStart(8, "0")}`;

describe("contact import at scale", () => {
  it("a 100,000-row .xlsx: all valid rows in, refused rows reported with reasons, counts exact", { timeout: 600_000 }, async () => {
    const owner = await register();
    const companyId = await activeCompanyId(owner.token);
    const city = crypto.randomUUID();
    await env.DB.prepare("INSERT INTO custom_fields (id, company_id, name, key, type, kind, created_at, updated_at) VALUES (?, ?, 'Cidade', 'cidade', 'text', 'user', ?, ?)")
      .bind(city, companyId, Date.now(), Date.now())
      .run();

    const expected = new Map<number, string>(); // sheet row → reason
    const rows: XlsxCell[][] = [["Nome", "Telefone", "Email", "Tags", "Cidade"]];
    for (let i = 0; i < ROWS; i++) {
      const sheetRow = i + 2;
      let tel = phone(i);
      let email = `c${i}@example.com`;
      if (i % 1000 === 7) {
        tel = "12345";
        expected.set(sheetRow, "invalid_phone");
      } else if (i % 997 === 500) {
        tel = phone(i - 1); // the row just above (never itself refused)
        expected.set(sheetRow, "duplicate_in_file");
      } else if (i % 2500 === 11) {
        email = "not-an-email";
        expected.set(sheetRow, "invalid_email");
      }
      rows.push([`Contact ${i}`, tel, email, `lote-${i % 5}`, `City ${i % 50}`]);
    }
    const bytes = xlsxOf(rows);
    const data = new FormData();
    data.append("file", new File([bytes], "big.xlsx"));
    const upload = await expectStatus<ImportUploadAnswer>(await call("POST", "/api/contacts/import", { token: owner.token, form: data }), 201);
    expect(upload.preview).toHaveLength(5);

    await expectStatus(await call("POST", `/api/jobs/${upload.jobId}/start`, { token: owner.token, body: { mapping: { "0": "name", "1": "phone", "2": "email", "3": "tags", "4": `field:${city}` } } }), 200);
    const started = Date.now();
    let job: JobAnswer;
    for (;;) {
      job = await expectStatus<JobAnswer>(await call("GET", `/api/jobs/${upload.jobId}`, { token: owner.token }), 200);
      if (job.status === "done" || job.status === "failed") break;
      if (Date.now() - started > 580_000) throw new Error(`still ${JSON.stringify(job)}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    console.log(`[import 100k] ${((Date.now() - started) / 1000).toFixed(1)} s, ${JSON.stringify(job)}`);
    expect(job).toMatchObject({ status: "done", processed: ROWS, total: ROWS, errors: expected.size, errorMessage: null });

    expect(await countRows("contacts", "company_id = ?", companyId)).toBe(ROWS - expected.size);
    expect(await countRows("contact_field_values", "company_id = ? AND field_id = ?", companyId, city)).toBe(ROWS - expected.size);
    expect(await countRows("contact_tags", "company_id = ?", companyId)).toBe(ROWS - expected.size);
    expect(await countRows("tags", "company_id = ?", companyId)).toBe(5);

    if (!job.reportUrl) throw new Error("no report");
    const res = await call("GET", job.reportUrl);
    expect(res.status).toBe(200);
    const reported = new Map<number, string>();
    let header = true;
    for await (const row of (await openXlsx(memorySource(new Uint8Array(await res.arrayBuffer())))).rows()) {
      if (header) {
        header = false;
        continue;
      }
      reported.set(Number(row.cells[0]), row.cells[1] ?? "");
    }
    expect(reported.size).toBe(expected.size);
    expect([...reported.entries()].sort((a, b) => a[0] - b[0])).toEqual([...expected.entries()].sort((a, b) => a[0] - b[0]));
    const staged = await env.FILES.list({ prefix: `jobs/${upload.jobId}/` });
    expect(staged.objects).toEqual([]);
  });
});
