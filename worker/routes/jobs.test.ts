/**
 * Contact import and export through the API and the real `jobs` queue (issue 4 "Import and
 * export"): upload → preview → start → progress → report; the export's file; bad files; tenancy
 * and permissions.
 */
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:test";
import { strToU8, unzipSync, zipSync } from "fflate";
import type { ImportUploadAnswer, JobAnswer } from "../../schema/api-types";
import { activeCompanyId, call, countRows, expectError, expectInvalid, expectStatus, member, register, until, type Account } from "../test/helpers";
import { chartFirstXlsx, contactRows, damageSheet, emptySharedStringXlsx, excelLikeXlsx, headerOnRow3Xlsx, workbookXlsx, xlsxOf, zipBombXlsx } from "../test/xlsx-fixtures";
import { openXlsx, type XlsxRow } from "../lib/xlsx-reader";
import { memorySource } from "../lib/zip-reader";
import type { XlsxCell } from "../lib/xlsx-writer";

const XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

function upload(token: string, bytes: Uint8Array, name = "contacts.xlsx", type = XLSX_MIME): Promise<Response> {
  const data = new FormData();
  data.append("file", new File([bytes], name, { type }));
  return call("POST", "/api/contacts/import", { token, form: data });
}

async function uploaded(token: string, rows: XlsxCell[][]): Promise<ImportUploadAnswer> {
  return expectStatus<ImportUploadAnswer>(await upload(token, xlsxOf(rows)), 201);
}

async function start(token: string, jobId: string, mapping: Record<string, string>): Promise<JobAnswer> {
  return expectStatus<JobAnswer>(await call("POST", `/api/jobs/${jobId}/start`, { token, body: { mapping } }), 200);
}

/** Polls GET /api/jobs/{id} until the job is done or failed. */
async function settled(token: string, id: string, timeoutMs = 60_000): Promise<JobAnswer> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await expectStatus<JobAnswer>(await call("GET", `/api/jobs/${id}`, { token }), 200);
    if (job.status === "done" || job.status === "failed") return job;
    if (Date.now() > deadline) throw new Error(`job still ${job.status}: ${JSON.stringify(job)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Downloads a signed URL and reads it as an .xlsx. */
async function download(url: string | null): Promise<{ rows: XlsxRow[]; bytes: Uint8Array }> {
  if (!url) throw new Error("no URL");
  const res = await call("GET", url);
  if (res.status !== 200) throw new Error(`download ${res.status}: ${await res.text()}`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  const rows: XlsxRow[] = [];
  for await (const row of (await openXlsx(memorySource(bytes))).rows()) rows.push(row);
  return { rows, bytes };
}

async function createField(companyId: string, name: string, key: string, type: string): Promise<string> {
  const id = crypto.randomUUID();
  await env.DB.prepare("INSERT INTO custom_fields (id, company_id, name, key, type, kind, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'user', ?, ?)")
    .bind(id, companyId, name, key, type, Date.now(), Date.now())
    .run();
  return id;
}

/** Opens the company hub and collects `job.updated` frames. */
async function hubFrames(token: string) {
  const res = await call("GET", `/api/ws/hub?access_token=${encodeURIComponent(token)}`, { headers: { Upgrade: "websocket" } });
  const ws = res.webSocket;
  if (!ws) throw new Error(`no WebSocket: ${res.status}`);
  const frames: { type: string; job?: JobAnswer }[] = [];
  ws.accept();
  ws.addEventListener("message", (e) => frames.push(JSON.parse(String(e.data))));
  return { ws, frames };
}

const phone = (i: number) => `+55119${String(i).padStart(8, "0")}`;

describe("POST /api/contacts/import and the import job", { timeout: 60_000 }, () => {
  it("previews, imports through the queue, pushes progress, and reports refused rows with their reasons", async () => {
    const owner = await register();
    const companyId = await activeCompanyId(owner.token);
    const age = await createField(companyId, "Idade", "idade", "number");
    const hub = await hubFrames(owner.token);
    const rows: XlsxCell[][] = [
      ["Nome", "Telefone", "E-mail", "Tags", "Idade", "Observação"],
      ["Ana Souza", "+55 11 98765-0001", "ana@example.com", "vip, cliente", 31, "x"],
      ["Bruno", "(11) 98765-0002", "", "cliente", "", ""],
      ["Carla", "not a phone", "carla@example.com", "", "", ""],
      ["Duda", "+55 11 98765-0001", "", "", "", ""],
      ["Eva", "11987650005", "not-an-email", "", "", ""],
      ["Fábio", "11987650006", "", "", "abc", ""],
      ["=cmd|' /C calc'!A0", "11987650007", "", "", "", ""],
    ];
    const answer = await uploaded(owner.token, rows);
    expect(answer.headers).toEqual(rows[0]);
    expect(answer.preview).toHaveLength(5);
    expect(answer.preview[0]).toEqual(["Ana Souza", "+55 11 98765-0001", "ana@example.com", "vip, cliente", "31", "x"]);
    expect(answer.suggestedMapping).toEqual({ "0": "name", "1": "phone", "2": "email", "3": "tags", "4": `field:${age}`, "5": "ignore" });

    const queued = await start(owner.token, answer.jobId, answer.suggestedMapping);
    expect(queued.status).toBe("queued");
    const job = await settled(owner.token, answer.jobId);
    expect(job, JSON.stringify(job)).toMatchObject({ type: "import", status: "done", processed: 7, total: 7, errors: 4, errorMessage: null, resultUrl: null });

    expect(await countRows("contacts", "company_id = ?", companyId)).toBe(3);
    const ana = await env.DB.prepare("SELECT id, name, email FROM contacts WHERE company_id = ? AND phone = ?").bind(companyId, "+5511987650001").first<{ id: string; name: string; email: string }>();
    expect(ana).toMatchObject({ name: "Ana Souza", email: "ana@example.com" });
    expect(await countRows("contact_tags", "contact_id = ?", ana?.id)).toBe(2);
    const value = await env.DB.prepare("SELECT value FROM contact_field_values WHERE contact_id = ? AND field_id = ?").bind(ana?.id, age).first<{ value: string }>();
    expect(value?.value).toBe("31");
    // A formula-like name is stored as text, exactly.
    expect(await countRows("contacts", "company_id = ? AND name = ?", companyId, "=cmd|' /C calc'!A0")).toBe(1);

    const report = await download(job.reportUrl);
    expect(report.rows.map((r) => r.cells.slice(0, 2))).toEqual([
      ["Row", "Reason"],
      ["4", "invalid_phone"],
      ["5", "duplicate_in_file"],
      ["6", "invalid_email"],
      ["7", "invalid_number:idade"],
    ]);
    expect(report.rows[2]?.cells[2]).toMatch(/Same phone as row 2/);
    expect(report.rows[2]?.cells[3]).toBe("Duda");

    // Progress reached the hub, ending with the done state.
    await until(() => hub.frames.some((f) => f.type === "job.updated" && f.job?.status === "done"), 3_000, "the done state on the hub");
    const updates = hub.frames.filter((f) => f.type === "job.updated").map((f) => f.job?.status);
    expect(updates).toContain("running");
    expect(updates[updates.length - 1]).toBe("done");
    hub.ws.close(1000, "done");
  });

  it("reads an Excel-style file (shared strings, dates, phone stored as a number)", async () => {
    const owner = await register();
    const answer = await expectStatus<ImportUploadAnswer>(await upload(owner.token, excelLikeXlsx(), "planilha.XLSX"), 201);
    expect(answer.headers).toEqual(["Nome", "Telefone", "Nascimento", "VIP", "", "Tags"]);
    expect(answer.preview[0]).toEqual(["José da Silva", "5511987654321", "2024-01-01", "TRUE", "2", " inline & co "]);
    expect(answer.suggestedMapping).toMatchObject({ "0": "name", "1": "phone", "5": "tags" });
    await start(owner.token, answer.jobId, { "0": "name", "1": "phone" });
    const job = await settled(owner.token, answer.jobId);
    expect(job).toMatchObject({ status: "done", processed: 2, errors: 0, reportUrl: null });
    const companyId = await activeCompanyId(owner.token);
    expect(await countRows("contacts", "company_id = ? AND phone IN ('+5511987654321', '+5511988887777')", companyId)).toBe(2);
  });

  it("a file that is not an .xlsx answers 400 'The file must be .xlsx', whatever its name", async () => {
    const owner = await register();
    const csv = new TextEncoder().encode("name,phone\nAna,+5511987654321\n");
    const body = await expectInvalid(await upload(owner.token, csv, "contacts.xlsx"), "file", "not_xlsx");
    expect(body.error.message).toBe("The file must be .xlsx");
    const png = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="), (c) => c.charCodeAt(0));
    await expectInvalid(await upload(owner.token, png, "photo.xlsx", "image/png"), "file", "not_xlsx");
    await expectInvalid(await call("POST", "/api/contacts/import", { token: owner.token, body: {} }), "file");
    expect(await countRows("jobs", "company_id = ?", await activeCompanyId(owner.token))).toBe(0);
  });

  it("an empty file, an empty sheet and a header-only sheet answer 400 naming file", async () => {
    const owner = await register();
    const empty = await expectInvalid(await upload(owner.token, new Uint8Array(0)), "file", "empty_file");
    expect(empty.error.message).toBe("The file is empty.");
    await expectInvalid(await upload(owner.token, xlsxOf([])), "file", "empty_sheet");
    const headerOnly = await expectInvalid(await upload(owner.token, xlsxOf([["Nome", "Telefone"]])), "file", "no_rows");
    expect(headerOnly.error.message).toMatch(/header row but no contacts/);
  });

  it("a truncated zip answers 400 damaged with a fixed sentence, never the reader's detail", async () => {
    const owner = await register();
    const bytes = xlsxOf([["Name", "Phone"], ["Ana", phone(1)]]);
    const body = await expectInvalid(await upload(owner.token, bytes.slice(0, bytes.length - 30)), "file", "damaged");
    expect(body.error.message).toBe("The file is damaged or is not a valid spreadsheet.");
    // Malformed XML: the parser's own words stay inside the worker too.
    const bad = unzipSync(xlsxOf([["Name", "Phone"], ["Ana", phone(1)]]));
    bad["xl/worksheets/sheet1.xml"] = strToU8("<worksheet><sheetData><row><c></row></sheetData>");
    const xml = await expectInvalid(await upload(owner.token, zipSync(bad)), "file", "damaged");
    expect(xml.error.message).toBe("The file is damaged or is not a valid spreadsheet.");
  });

  it("damage past the preview fails the job with a clear message and writes no contact", async () => {
    const owner = await register();
    const rows = [["Name", "Phone"], ...Array.from({ length: 20_000 }, (_, i) => [`Contact ${i}`, phone(i)])];
    const answer = await expectStatus<ImportUploadAnswer>(await upload(owner.token, await damageSheet(xlsxOf(rows), 0.7)), 201);
    await start(owner.token, answer.jobId, { "0": "name", "1": "phone" });
    const job = await settled(owner.token, answer.jobId);
    expect(job).toMatchObject({ status: "failed", errorCode: "damaged", errorMessage: "The file is damaged or is not a valid spreadsheet." });
    expect(job.processed).toBe(0);
    expect(await countRows("contacts", "company_id = ?", await activeCompanyId(owner.token))).toBe(0);
    const staged = await env.FILES.list({ prefix: `jobs/${answer.jobId}/` });
    expect(staged.objects).toEqual([]);
  });

  it("a zip bomb fails the job with a clear message; the worker keeps answering", async () => {
    const owner = await register();
    const answer = await expectStatus<ImportUploadAnswer>(await upload(owner.token, zipBombXlsx(40)), 201);
    expect(answer.preview).toEqual([["Ana", "+5511987650001"], ["Bia", "+5511987650002"]]);
    await start(owner.token, answer.jobId, { "0": "name", "1": "phone" });
    const job = await settled(owner.token, answer.jobId);
    expect(job).toMatchObject({ status: "failed", errorCode: "zip_bomb", errorMessage: "The file expands to too much data to be read safely." });
    expect(await countRows("contacts", "company_id = ?", await activeCompanyId(owner.token))).toBe(0);
    await expectStatus(await call("GET", `/api/jobs/${answer.jobId}`, { token: owner.token }), 200);
  });

  it("a valid file whose first shared string is empty (<si><t/></si>) is previewed and imported, not called damaged", async () => {
    const owner = await register();
    const answer = await expectStatus<ImportUploadAnswer>(await upload(owner.token, emptySharedStringXlsx()), 201);
    expect(answer.headers).toEqual(["Nome", "Telefone", "Obs"]);
    expect(answer.preview).toEqual([
      ["Ana", "+5511970000001", ""],
      ["", "+5511970000002", "sem nome"],
    ]);
    await start(owner.token, answer.jobId, { "0": "name", "1": "phone" });
    expect(await settled(owner.token, answer.jobId)).toMatchObject({ status: "done", processed: 2, errors: 0, errorCode: null });
    expect(await countRows("contacts", "company_id = ? AND phone IN ('+5511970000001', '+5511970000002')", await activeCompanyId(owner.token))).toBe(2);
  });

  it("a chart sheet and an empty sheet in front: the first worksheet with data is read, and every sheet is listed", async () => {
    const owner = await register();
    const answer = await expectStatus<ImportUploadAnswer>(await upload(owner.token, chartFirstXlsx()), 201);
    expect(answer.sheets).toEqual([
      { index: 0, name: "Gráfico", kind: "chartsheet", hidden: false },
      { index: 1, name: "Vazia", kind: "worksheet", hidden: false },
      { index: 2, name: "Contatos", kind: "worksheet", hidden: false },
    ]);
    expect(answer).toMatchObject({ sheet: 2, headerRow: 1, headers: ["Nome", "Telefone"], previewRows: [2, 3, 4] });
    expect(answer.suggestedMapping).toEqual({ "0": "name", "1": "phone" });
    await start(owner.token, answer.jobId, answer.suggestedMapping);
    expect(await settled(owner.token, answer.jobId)).toMatchObject({ status: "done", processed: 3, errors: 0 });
    expect(await countRows("contacts", "company_id = ?", await activeCompanyId(owner.token))).toBe(3);
  });

  it("the mapping step picks the header row: a title above the header is not imported", async () => {
    const owner = await register();
    const answer = await expectStatus<ImportUploadAnswer>(await upload(owner.token, headerOnRow3Xlsx()), 201);
    expect(answer).toMatchObject({ sheet: 0, headerRow: 1, headers: ["Lista de clientes — novembro", ""] });
    expect(answer.headerCandidates.slice(0, 3)).toEqual([
      { row: 1, text: "Lista de clientes — novembro" },
      { row: 3, text: "Nome · Telefone" },
      { row: 4, text: "Cliente 1 · +5511970000001" },
    ]);
    const preview = (body: unknown) => call("POST", `/api/jobs/${answer.jobId}/preview`, { token: owner.token, body });
    const chosen = await expectStatus<ImportUploadAnswer>(await preview({ headerRow: 3 }), 200);
    expect(chosen).toMatchObject({ jobId: answer.jobId, sheet: 0, headerRow: 3, headers: ["Nome", "Telefone"], previewRows: [4, 5, 6, 7] });
    expect(chosen.preview[0]).toEqual(["Cliente 1", "+5511970000001"]);
    expect(chosen.suggestedMapping).toEqual({ "0": "name", "1": "phone" });
    await start(owner.token, answer.jobId, chosen.suggestedMapping);
    expect(await settled(owner.token, answer.jobId)).toMatchObject({ status: "done", processed: 4, errors: 0 });
    const companyId = await activeCompanyId(owner.token);
    expect(await countRows("contacts", "company_id = ?", companyId)).toBe(4);
    expect(await countRows("contacts", "company_id = ? AND name = 'Nome'", companyId)).toBe(0);
  });

  it("the mapping step picks the sheet; a chart sheet, an empty sheet, an empty header row and bad values answer 400 naming the field", async () => {
    const owner = await register();
    const file = workbookXlsx([
      { name: "Resumo", kind: "chartsheet" },
      { name: "Loja A", rows: contactRows(1, 2, ["Name", "Phone"]) },
      { name: "Vazia", rows: [] },
      { name: "Loja B", rows: [{ row: 1, cells: ["Telefone", "Nome"] }, { row: 2, cells: ["+5511971111111", "Bruna"] }] },
    ]);
    const answer = await expectStatus<ImportUploadAnswer>(await upload(owner.token, file), 201);
    expect(answer).toMatchObject({ sheet: 1, headers: ["Name", "Phone"] });
    const preview = (body: unknown) => call("POST", `/api/jobs/${answer.jobId}/preview`, { token: owner.token, body });
    await expectInvalid(await preview({ sheet: 0 }), "sheet", "invalid_sheet");
    await expectInvalid(await preview({ sheet: 9 }), "sheet", "invalid_sheet");
    await expectInvalid(await preview({ sheet: 2 }), "sheet", "empty_sheet");
    await expectInvalid(await preview({ sheet: -1 }), "sheet", "invalid_sheet");
    await expectInvalid(await preview({ sheet: 3, headerRow: 5 }), "headerRow", "header_row_empty");
    await expectInvalid(await preview({ headerRow: 0 }), "headerRow", "invalid_header_row");
    await expectInvalid(await preview({ headerRow: "3" }), "headerRow", "invalid_header_row");
    const b = await expectStatus<ImportUploadAnswer>(await preview({ sheet: 3 }), 200);
    expect(b).toMatchObject({ sheet: 3, headerRow: 1, headers: ["Telefone", "Nome"], preview: [["+5511971111111", "Bruna"]] });
    // Another company's job, a member without the permission, a job already started.
    const other = await register();
    await expectError(await call("POST", `/api/jobs/${answer.jobId}/preview`, { token: other.token, body: { sheet: 3 } }), 404, "not_found");
    const agent = await member(owner, ["tickets"]);
    await expectError(await call("POST", `/api/jobs/${answer.jobId}/preview`, { token: agent.token, body: { sheet: 3 } }), 403, "forbidden");
    await start(owner.token, answer.jobId, { "0": "phone", "1": "name" });
    await expectError(await preview({ sheet: 1 }), 409, "conflict");
    expect(await settled(owner.token, answer.jobId)).toMatchObject({ status: "done", processed: 1, errors: 0 });
    const companyId = await activeCompanyId(owner.token);
    expect(await countRows("contacts", "company_id = ? AND phone = '+5511971111111' AND name = 'Bruna'", companyId)).toBe(1);
    expect(await countRows("contacts", "company_id = ?", companyId)).toBe(1);
  });

  it("start needs exactly one phone column: 400 naming mapping; bad targets, columns and fields too", async () => {
    const owner = await register();
    const answer = await uploaded(owner.token, [["Name", "Phone"], ["Ana", phone(1)]]);
    const path = `/api/jobs/${answer.jobId}/start`;
    await expectInvalid(await call("POST", path, { token: owner.token, body: { mapping: { "0": "name" } } }), "mapping", "phone_required");
    await expectInvalid(await call("POST", path, { token: owner.token, body: { mapping: { "0": "phone", "1": "phone" } } }), "mapping", "duplicate_target");
    await expectInvalid(await call("POST", path, { token: owner.token, body: { mapping: { "0": "name", "1": "phone", "2": "email" } } }), "mapping", "invalid_column");
    await expectInvalid(await call("POST", path, { token: owner.token, body: { mapping: { "0": "nickname", "1": "phone" } } }), "mapping.0", "invalid_target");
    await expectInvalid(await call("POST", path, { token: owner.token, body: { mapping: { "0": `field:${crypto.randomUUID()}`, "1": "phone" } } }), "mapping", "unknown_field");
    await expectInvalid(await call("POST", path, { token: owner.token, body: {} }), "mapping", "required");
    await start(owner.token, answer.jobId, { "0": "name", "1": "phone" });
    await expectError(await call("POST", path, { token: owner.token, body: { mapping: { "1": "phone" } } }), 409, "conflict");
    await settled(owner.token, answer.jobId);
  });

  it("another company's job answers 404 (read and start)", async () => {
    const a = await register();
    const b = await register();
    const answer = await uploaded(a.token, [["Name", "Phone"], ["Ana", phone(1)]]);
    await expectError(await call("GET", `/api/jobs/${answer.jobId}`, { token: b.token }), 404, "not_found");
    await expectError(await call("POST", `/api/jobs/${answer.jobId}/start`, { token: b.token, body: { mapping: { "1": "phone" } } }), 404, "not_found");
    await expectError(await call("GET", `/api/jobs/${crypto.randomUUID()}`, { token: a.token }), 404, "not_found");
    await expectStatus(await call("GET", `/api/jobs/${answer.jobId}`, { token: a.token }), 200);
  });

  it("without the contacts permission import, export and jobs answer 403", async () => {
    const owner = await register();
    const agent: Account = await member(owner, ["tickets"]);
    const answer = await uploaded(owner.token, [["Name", "Phone"], ["Ana", phone(1)]]);
    await expectError(await upload(agent.token, xlsxOf([["Name", "Phone"], ["Ana", phone(1)]])), 403, "forbidden");
    await expectError(await call("POST", "/api/contacts/export", { token: agent.token, body: {} }), 403, "forbidden");
    await expectError(await call("GET", `/api/jobs/${answer.jobId}`, { token: agent.token }), 403, "forbidden");
    await expectError(await call("POST", `/api/jobs/${answer.jobId}/start`, { token: agent.token, body: { mapping: { "1": "phone" } } }), 403, "forbidden");
    const allowed = await member(owner, ["contacts"]);
    await expectStatus(await call("GET", `/api/jobs/${answer.jobId}`, { token: allowed.token }), 200);
  });
});

describe("POST /api/contacts/export", { timeout: 60_000 }, () => {
  it("exports the filtered contacts to an .xlsx whose formula-like cells are escaped and that round-trips through the reader", async () => {
    const owner = await register();
    const companyId = await activeCompanyId(owner.token);
    const code = await createField(companyId, "Código", "codigo", "text");
    const names = ["=1+1", "+SUM(A1:A2)", "-2+3", "@cmd", "Plain Name"];
    const answer = await uploaded(owner.token, [["Nome", "Telefone", "Tags", "Código"], ...names.map((n, i) => [n, phone(100 + i), i % 2 ? "vip" : "", `=X${i}`])]);
    await start(owner.token, answer.jobId, { "0": "name", "1": "phone", "2": "tags", "3": `field:${code}` });
    expect((await settled(owner.token, answer.jobId)).status).toBe("done");

    const all = await expectStatus<JobAnswer>(await call("POST", "/api/contacts/export", { token: owner.token, body: {} }), 201);
    expect(all).toMatchObject({ type: "export", status: "queued" });
    const done = await settled(owner.token, all.id);
    expect(done).toMatchObject({ status: "done", processed: 5, total: 5, reportUrl: null });
    expect(done.resultUrl).toMatch(/^\/api\/media\/media\//);
    const file = await download(done.resultUrl);
    const [header, ...data] = file.rows.map((r) => r.cells);
    expect(header).toEqual(["Name", "Phone", "Email", "Document", "Tags", "Created at", "Código"]);
    expect(data.map((r) => r[0]).sort()).toEqual([...names].sort());
    const plus = data.find((r) => r[0] === "+SUM(A1:A2)");
    expect(plus?.[1]).toBe(phone(101));
    expect(plus?.[4]).toBe("vip");
    expect(plus?.[6]).toBe("=X1");
    const sheet = new TextDecoder().decode(unzipSync(file.bytes)["xl/worksheets/sheet1.xml"]);
    expect(sheet).not.toContain("<f>");
    for (const match of sheet.matchAll(/<c r="[A-Z]+\d+" t="inlineStr"( s="\d")?><is><t[^>]*>([^<]*)<\/t>/g)) {
      const text = match[2] ?? "";
      if (/^[=+\-@]/.test(text)) expect(match[1], text).toMatch(/ s="[13]"/);
    }

    const tagId = (await env.DB.prepare("SELECT id FROM tags WHERE company_id = ? AND name = 'vip'").bind(companyId).first<{ id: string }>())?.id;
    const vip = await expectStatus<JobAnswer>(await call("POST", "/api/contacts/export", { token: owner.token, body: { filter: { tags: [tagId] } } }), 201);
    const vipDone = await settled(owner.token, vip.id);
    expect(vipDone).toMatchObject({ status: "done", processed: 2 });
    const vipFile = await download(vipDone.resultUrl);
    expect(vipFile.rows.slice(1).map((r) => r.cells[0]).sort()).toEqual(["+SUM(A1:A2)", "@cmd"]);
  });

  it("a filter naming another company's tag answers 400 naming tags", async () => {
    const owner = await register();
    await expectInvalid(await call("POST", "/api/contacts/export", { token: owner.token, body: { filter: { tags: [crypto.randomUUID()] } } }), "tags", "invalid_id");
  });

  it("another company's export answers 404 and its signed URL does not open with a forged signature", async () => {
    const a = await register();
    const b = await register();
    const job = await expectStatus<JobAnswer>(await call("POST", "/api/contacts/export", { token: a.token, body: {} }), 201);
    const done = await settled(a.token, job.id);
    await expectError(await call("GET", `/api/jobs/${job.id}`, { token: b.token }), 404, "not_found");
    const forged = (done.resultUrl ?? "").replace(/sig=[0-9a-f]+/, `sig=${"0".repeat(64)}`);
    expect((await call("GET", forged)).status).toBe(403);
  });
});
