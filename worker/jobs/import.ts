/**
 * The contact import (issue 4 "Import and export"): an .xlsx uploaded to R2, previewed, mapped by
 * the user, then run on the `jobs` queue in three kinds of message.
 *
 * 1. `import.parse`: streams the whole sheet once (worker/lib/xlsx-reader.ts), maps each row's
 *    columns, refuses later duplicates of a phone inside the file, and stages the rows in R2 as
 *    chunks (`jobs/<jobId>/chunk-<n>.json`, at most CHUNK_MAX_ROWS rows or CHUNK_MAX_STATEMENTS
 *    estimated D1 statements each). No contact is written in this step, so a bad file (zip bomb,
 *    damage found halfway, more than MAX_IMPORT_ROWS rows) fails the job with nothing written.
 * 2. `import.chunk` n: upserts chunk n through upsertContactsByPhone (one D1 batch), keeps its
 *    refused rows (`refused-<n>.json`), and advances the job with a conditional UPDATE on
 *    `params.nextChunk = n`, so a redelivered message never counts a chunk twice; then pushes
 *    `job.updated` (at most every PROGRESS_PUSH_MS, always for the last chunk) and sends chunk
 *    n + 1 (or finish). The consumer runs the chunks sent that way in the same invocation, up to
 *    CHUNKS_PER_INVOCATION, each exactly as its own message would run, which keeps an invocation
 *    under D1's 1,000 queries (platform-limits A1); the next one goes through the queue.
 * 3. `import.finish`: writes the report of refused rows (.xlsx: row, reason code, message, values)
 *    to `media/<companyId>/<jobId>.xlsx`, deletes the staging objects and marks the job done.
 *
 * If the job fails after some chunks were written (retries exhausted: the dead-letter handler), its
 * message names the last row written, and the rows before it are exactly the written ones.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { customFields, jobs, type JobRow } from "../../schema";
import type { ImportTarget } from "../../schema/api-types";
import { isImportTarget, MAX_IMPORT_COLUMNS, MAX_IMPORT_ROWS } from "../../schema/validation/jobs";
import type { AppEnv } from "../env";
import { type ContactImportRow, normalizeContactPhone, upsertContactsByPhone } from "../lib/contacts";
import type { Db } from "../lib/db";
import { now } from "../lib/db";
import { span } from "../lib/bench-trace";
import { R2ObjectWriter } from "../lib/r2-writer";
import { openXlsx, XlsxError, type XlsxLimits, type XlsxSheetInfo, type XlsxWorkbook, DEFAULT_XLSX_LIMITS, yieldToOthers } from "../lib/xlsx-reader";
import { XlsxWriter } from "../lib/xlsx-writer";
import { type ByteSource, r2Source } from "../lib/zip-reader";
import { deleteStaging, failJob, JobFailure, loadJob, publishJob, stagingPrefix } from "./common";
import type { JobMessage } from "../queues/jobs";

/**
 * Rows read between two yields of the parse step (issue 16): the .xlsx reader parses each inflated
 * piece synchronously and a `for await` only yields to microtasks, so without a real yield a
 * 500,000-row sheet holds the isolate (and every request it serves) for seconds. One chunk's rows
 * (each row's phone is parsed, and a chunk is written to R2): with 200 (and 100-row chunks),
 * /api/health requests while a 10,000-row file was read took 30 ms or more for 13 of 18; with 50
 * (and 50-row chunks), for 5 of 32 (bench:contacts, 2026-11-24).
 */
export const ROWS_PER_YIELD = 50;

/**
 * Lets the isolate's other work (requests, other queue messages) run before going on: a macrotask
 * turn (a zero timer), not a microtask. Used between chunks by the export job; the .xlsx reader
 * also yields every XML_BYTES_PER_YIELD bytes it parses.
 */
export { yieldToOthers };

/**
 * Pause between two round trips of one import chunk, in ms (issue 16: the rest of the API keeps
 * answering while a 500,000-row file is imported). A chunk makes four or five round trips in a row
 * (the job row, its staged rows from R2, the upsert's reads and its write batch, the job's
 * advance). With only a zero timer between them, a request that arrived during one of them
 * still waited behind the next ones: locally D1, R2 and the worker share workerd's one thread, and
 * a request needs several turns of it (the entry worker, the worker, the answer back), each queued
 * behind the chunk's next step. A pause a few ms long lets such a request finish first. In
 * production the same pause leaves the company's D1 database, which runs one query at a time
 * (platform-limits: D1), free for live traffic between an import's writes.
 * Measured with bench:contacts (100,000-row import on 100,000 contacts, 2026-12-03): zero timers,
 * /api/health p95 30.9 ms during the import at 1,652 rows/s; 25-row chunks, 29.6 ms at 932 rows/s;
 * a 30 ms gap between chunks instead, 26.5 ms at 921 rows/s (the chunk's own steps still ran back
 * to back); 3 ms between every step (and the upsert's reads in one batch), 22.9 ms against 9.4
 * idle (2.44×) at 995 rows/s; 6 ms, 22.5 ms at 776 rows/s. 500,000 rows with 3 ms: 24.4 and
 * 24.7 ms during the import (1.45× and 2.00×; 2.10× and 1.61× against the idle before it alone) at
 * 985–994 rows/s, where zero timers gave 30.0–38.6 ms (3.17–3.89×).
 */
export const STEP_PAUSE_MS = 3;

/** Waits STEP_PAUSE_MS (a timer): the import's turn-taking between a chunk's round trips. */
export function pauseForOthers(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, STEP_PAUSE_MS));
}

/**
 * Most rows per staged chunk (one upsert call, one D1 batch). Small enough that one chunk's batch
 * never holds D1, or the isolate, long (issue 16: the API keeps answering during a 500,000-row import).
 * Measured with bench:contacts (100,000-row import on 100,000 contacts, 2026-11-24): 250 rows,
 * /api/health p95 100.5 ms against 12.8 ms idle (7.8×), 2,546 rows/s; 100 rows, 44.3 against 12.5 ms
 * (3.5×), 2,060 rows/s; 50 rows, 33.4 against 9.7 ms (3.5×) but 1,345 rows/s (each chunk also pays
 * its fixed round trips: the job row, R2, the progress push, the next message). Those fixed costs
 * then went down (CHUNKS_PER_INVOCATION chunks an invocation, PROGRESS_PUSH_MS, the upsert's reads
 * in two batches and its writes without the query builder), and at 50 rows (2026-11-24, 20:43 UTC,
 * quiet machine): 500,000-row import 29.1 against 9.8 ms (2.96×), 8,866 requests, the longest
 * 263 ms, 1,596 rows/s; 10,000 rows 29.3 against 8.9 ms (3.30×), 182 requests, 1,460 rows/s
 * (two other runs of the same code: 32.0 against 9.4 ms, 3.39×; 35.1 against 8.5 ms, 4.12×).
 * 2026-12-03: 25-row chunks again, 29.6 ms against 30.9 at 50 rows, at 932 rows/s against 1,652;
 * what helped was a pause between a chunk's round trips (STEP_PAUSE_MS), so 50 stays.
 */
export const CHUNK_MAX_ROWS = 50;
/**
 * Least time between two progress pushes (`job.updated` to the CompanyHub) of one import's chunks,
 * in ms (issue 16). Each push is a call into the hub and a write of its event log; one per chunk
 * was 5,000 of them in a 500,000-row import, a slice of the isolate's time each, for a progress bar
 * that moves no faster than people read it. The chunk that counts the last rows always pushes, and
 * the parse and finish steps push their own changes, so the screen never misses a state.
 */
export const PROGRESS_PUSH_MS = 500;

/**
 * When this isolate last pushed each running import's progress (job id → Date.now()). Kept in
 * memory only: an isolate that has not seen the job pushes at once, so a job moving between
 * isolates pushes early rather than late. Entries go with the job's last chunk; the map is cleared
 * if jobs that failed midway ever leave PROGRESS_PUSH_ENTRIES of them.
 */
const lastProgressPush = new Map<string, number>();
const PROGRESS_PUSH_ENTRIES = 1000;

/**
 * Whether chunk `n` of `chunks` of job `jobId` pushes its progress now (at most every
 * PROGRESS_PUSH_MS per isolate, always the last chunk), recording the push when it does (issue 16).
 */
export function progressPushDue(jobId: string, n: number, chunks: number, at = Date.now()): boolean {
  if (n + 1 >= chunks) {
    lastProgressPush.delete(jobId);
    return true;
  }
  const last = lastProgressPush.get(jobId);
  if (last !== undefined && at - last < PROGRESS_PUSH_MS) return false;
  if (lastProgressPush.size >= PROGRESS_PUSH_ENTRIES) lastProgressPush.clear();
  lastProgressPush.set(jobId, at);
  return true;
}

/**
 * Most import chunks one invocation of the `jobs` consumer runs (issue 16): the message of chunk n
 * runs chunk n, then the chunk messages its handling sends are run in the same invocation, each as
 * its own message would be (the job read, the upsert, the conditional UPDATE), until this many
 * chunks ran; the next goes through the queue (worker/queues/jobs.ts `handleWithFollowers`). What
 * goes is the queue hop between two chunks, about a fifth of a 50-row chunk's time locally. Within
 * D1's 1,000 queries per invocation (platform-limits A1), counting every statement of a batch: a
 * chunk's write batch is at most CHUNK_MAX_STATEMENTS statements plus one for the rounding of each
 * kind (36), the tags it creates at most 30 × 48 links / 14 names a statement + 1 read (104), and
 * its other queries 6 (the job, one read batch of four, the job's UPDATE): 6 × 146 = 876 at
 * worst, about 6 × 20 for a usual file.
 */
export const CHUNKS_PER_INVOCATION = 6;

/** Most D1 statements a chunk's upsert is estimated to take (0.6 a row at most, as with 100-row chunks); a chunk closes before it. */
export const CHUNK_MAX_STATEMENTS = 30;
/** Data rows shown in the upload's preview. */
export const PREVIEW_ROWS = 5;
/** Sheet XML read for a preview at most (bytes): a preview never reads a whole large file. */
const PREVIEW_BUDGET_BYTES = 8 * 1024 * 1024;

/** Reader limits of imports: the defaults (tests may pass smaller ones to the handlers). */
export type ImportOptions = { limits?: XlsxLimits; maxRows?: number };

// ---------------------------------------------------------------------------------------------
// Upload: preview and suggested mapping
// ---------------------------------------------------------------------------------------------

/**
 * Why an upload (or a sheet / header-row choice) is refused before the import starts: 400 naming
 * `field` (`file`, `sheet` or `headerRow`) with `reason`. `message` is a fixed English sentence.
 */
export class PreviewRefusal extends Error {
  constructor(
    readonly reason: string,
    message: string,
    readonly field: "file" | "sheet" | "headerRow" = "file",
  ) {
    super(message);
  }
}

/**
 * The user-facing sentence of each reader failure (XlsxError `reason`). The reader's own messages
 * name parts and parser errors, fine for logs but not for people: answers and failed jobs carry
 * only the code (the web translates it) and this sentence.
 */
export const READER_FAILURE_MESSAGES: Record<string, string> = {
  not_xlsx: "The file must be .xlsx",
  not_zip: "The file must be .xlsx",
  damaged: "The file is damaged or is not a valid spreadsheet.",
  encrypted: "The file is protected by a password. Save it without one and try again.",
  unsupported: "This spreadsheet format is not supported.",
  zip_bomb: "The file expands to too much data to be read safely.",
  no_worksheet: "This sheet holds no cells (it is a chart or another kind of sheet).",
};

/** A reader failure as the stable code shown to the user and its fixed sentence. */
export function readerFailure(error: XlsxError): { code: string; message: string } {
  const code = error.reason === "not_zip" ? "not_xlsx" : error.reason;
  return { code, message: READER_FAILURE_MESSAGES[code] ?? READER_FAILURE_MESSAGES.damaged! };
}

/** Header candidates offered in the mapping step: the first non-empty rows of the sheet. */
export const HEADER_CANDIDATES = 10;

/**
 * The chosen sheet, its header row and the first data rows of an upload. `sheets` lists every
 * sheet of the workbook; `sheet` is the index read; `previewRows` the sheet row number of each
 * preview row; `headerCandidates` the first non-empty rows (number and a short text) to pick
 * another header row from.
 */
export type ImportPreview = {
  sheets: XlsxSheetInfo[];
  sheet: number;
  headerRow: number;
  headers: string[];
  preview: string[][];
  previewRows: number[];
  headerCandidates: { row: number; text: string }[];
  columns: number;
};

/** What the user chose in the mapping step (default: the first worksheet with data, its first row). */
export type PreviewChoice = { sheet?: number; headerRow?: number };

/** A short text of a row for the header choice: its non-empty cells joined, at most 80 characters. */
function rowText(cells: string[]): string {
  const text = cells.map((c) => c.trim()).filter(Boolean).join(" · ");
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

type SheetScan = {
  candidates: { row: number; cells: string[] }[];
  header: { row: number; cells: string[] } | null;
  preview: { row: number; cells: string[] }[];
  complete: boolean;
  dimensionRows?: number;
};

/** Reads the start of one worksheet: candidates, the header (row `headerRow` or the first) and preview rows. */
async function scanSheet(workbook: XlsxWorkbook, sheet: number, headerRow: number | undefined): Promise<SheetScan> {
  const scan: { budgetBytes: number; complete?: boolean; dimensionRows?: number } = { budgetBytes: PREVIEW_BUDGET_BYTES };
  const out: SheetScan = { candidates: [], header: null, preview: [], complete: false };
  for await (const row of workbook.rows(scan, sheet)) {
    if (out.candidates.length < HEADER_CANDIDATES) out.candidates.push(row);
    if (!out.header) {
      if (headerRow === undefined || row.row === headerRow) out.header = row;
      else if (row.row > headerRow) break;
    } else if (out.preview.length < PREVIEW_ROWS) out.preview.push(row);
    if (out.header && out.preview.length >= PREVIEW_ROWS && out.candidates.length >= HEADER_CANDIDATES) break;
  }
  out.complete = scan.complete === true;
  out.dimensionRows = scan.dimensionRows;
  return out;
}

/**
 * Reads the header and up to PREVIEW_ROWS data rows of an upload. The sheet is `choice.sheet` or,
 * by default, the first worksheet that has a non-empty row (visible sheets first), so a chart sheet
 * or an empty sheet in front does not hide the data; the header is row `choice.headerRow` or the
 * sheet's first non-empty row.
 *
 * Throws XlsxError (not an .xlsx, damaged, encrypted, zip bomb…) or PreviewRefusal: `empty_sheet`
 * (no worksheet has data; field `sheet` when the chosen one is empty), `invalid_sheet` (field
 * `sheet`: not a worksheet of the file), `header_row_empty` (field `headerRow`: that row is empty
 * or beyond the start of the sheet), `no_rows` (a header and nothing else), `too_many_rows` (the
 * sheet's own dimension says so).
 */
export async function previewImport(source: ByteSource, options: ImportOptions & PreviewChoice = {}): Promise<ImportPreview> {
  const workbook = await openXlsx(source, options.limits);
  let sheet: number;
  let found: SheetScan;
  if (options.sheet !== undefined) {
    if (workbook.sheets[options.sheet]?.kind !== "worksheet") throw new PreviewRefusal("invalid_sheet", "This sheet holds no cells (it is a chart or another kind of sheet).", "sheet");
    sheet = options.sheet;
    found = await scanSheet(workbook, sheet, options.headerRow);
    if (!found.candidates.length) {
      if (!found.complete) throw new PreviewRefusal("no_rows", "No rows were found at the start of the spreadsheet.", "sheet");
      throw new PreviewRefusal("empty_sheet", "The spreadsheet is empty.", "sheet");
    }
  } else {
    const worksheets = workbook.sheets.filter((s) => s.kind === "worksheet").sort((a, b) => Number(a.hidden) - Number(b.hidden) || a.index - b.index);
    let chosen: { sheet: number; scan: SheetScan } | null = null;
    for (const candidate of worksheets) {
      const scanned = await scanSheet(workbook, candidate.index, options.headerRow);
      // Megabytes of markup without one non-empty row: not a sheet to guess past.
      if (!scanned.candidates.length && !scanned.complete) throw new PreviewRefusal("no_rows", "No rows were found at the start of the spreadsheet.");
      if (scanned.candidates.length) {
        chosen = { sheet: candidate.index, scan: scanned };
        break;
      }
    }
    if (!chosen) throw new PreviewRefusal("empty_sheet", "The spreadsheet is empty.");
    sheet = chosen.sheet;
    found = chosen.scan;
  }
  const header = found.header;
  if (!header) throw new PreviewRefusal("header_row_empty", "This row is empty; choose the row that holds the column names.", "headerRow");
  if (!found.preview.length && found.complete) throw new PreviewRefusal("no_rows", "The spreadsheet has a header row but no contacts.");
  const maxRows = options.maxRows ?? MAX_IMPORT_ROWS;
  if (found.dimensionRows !== undefined && found.dimensionRows - header.row > maxRows) {
    throw new PreviewRefusal("too_many_rows", `The spreadsheet has more than ${maxRows.toLocaleString("en-US")} rows; split it into smaller files.`);
  }
  const columns = Math.min(MAX_IMPORT_COLUMNS, Math.max(header.cells.length, ...found.preview.map((r) => r.cells.length)));
  const pad = (cells: string[]) => Array.from({ length: columns }, (_, i) => cells[i] ?? "");
  return {
    sheets: workbook.sheets,
    sheet,
    headerRow: header.row,
    headers: pad(header.cells),
    preview: found.preview.map((r) => pad(r.cells)),
    previewRows: found.preview.map((r) => r.row),
    headerCandidates: found.candidates.map((r) => ({ row: r.row, text: rowText(r.cells) })),
    columns,
  };
}

const fold = (text: string) =>
  text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");

/** Header words (accents and punctuation dropped) of each contact attribute, in pt, en and es. */
const HEADER_WORDS: Record<"name" | "phone" | "email" | "document" | "tags", string[]> = {
  name: ["nome", "name", "nombre", "nomecompleto", "fullname", "nombrecompleto", "contato", "contact", "contacto", "cliente", "customer"],
  phone: ["telefone", "phone", "celular", "whatsapp", "fone", "tel", "telefono", "movil", "mobile", "numero", "phonenumber", "numerodetelefone", "cel"],
  email: ["email", "mail", "correo", "correoelectronico", "emailaddress"],
  document: ["documento", "document", "cpf", "cnpj", "cpfcnpj", "dni", "nie", "cuit", "cuil", "taxid"],
  tags: ["tags", "tag", "etiquetas", "etiqueta", "marcadores", "labels"],
};

/**
 * A mapping guessed from the headers: contact attributes by their usual names in Portuguese,
 * English and Spanish, custom fields by name or key; each target once, the rest `ignore`.
 */
export function suggestMapping(headers: string[], fields: { id: string; name: string; key: string }[]): Record<string, ImportTarget> {
  const mapping: Record<string, ImportTarget> = {};
  const used = new Set<string>();
  headers.forEach((header, index) => {
    const word = fold(header);
    let target: ImportTarget = "ignore";
    if (word) {
      for (const [attribute, words] of Object.entries(HEADER_WORDS)) {
        if (words.includes(word) && isImportTarget(attribute) && !used.has(attribute)) {
          target = attribute;
          break;
        }
      }
      if (target === "ignore") {
        const field = fields.find((f) => fold(f.name) === word || fold(f.key) === word);
        if (field && !used.has(`field:${field.id}`)) target = `field:${field.id}`;
      }
    }
    if (target !== "ignore") used.add(target);
    mapping[String(index)] = target;
  });
  return mapping;
}

// ---------------------------------------------------------------------------------------------
// Job parameters and staged chunks
// ---------------------------------------------------------------------------------------------

/** `jobs.params` of an import. */
export const importParamsSchema = z.object({
  fileName: z.string(),
  /** Index of the worksheet read (workbook order); absent in jobs uploaded before sheets could be chosen: the first worksheet. */
  sheet: z.number().int().optional(),
  headerRow: z.number().int(),
  columns: z.number().int(),
  mapping: z.record(z.string(), z.custom<ImportTarget>(isImportTarget)).optional(),
  /** Set by the parse step: chunks staged; the next one to upsert; the last sheet row written. */
  chunks: z.number().int().optional(),
  nextChunk: z.number().int().optional(),
  lastRow: z.number().int().optional(),
  inserted: z.number().int().optional(),
  updated: z.number().int().optional(),
});
export type ImportParams = z.infer<typeof importParamsSchema>;

/** A refused row as the report shows it. */
export type Refusal = { row: number; reason: string; name?: string; phone?: string; email?: string; document?: string; detail?: string };

const refusalSchema = z.object({
  row: z.number().int(),
  reason: z.string(),
  name: z.string().optional(),
  phone: z.string().optional(),
  email: z.string().optional(),
  document: z.string().optional(),
  detail: z.string().optional(),
});

const importRowSchema = z.object({
  row: z.number().int(),
  name: z.string().optional(),
  phone: z.string(),
  email: z.string().optional(),
  document: z.string().optional(),
  tags: z.array(z.string()).optional(),
  fields: z.record(z.string(), z.string()).optional(),
});

/** A staged chunk: rows for upsertContactsByPhone, and rows the parse step refused itself. */
const chunkSchema = z.object({ rows: z.array(importRowSchema), refused: z.array(refusalSchema), lastRow: z.number().int() });
type Chunk = z.infer<typeof chunkSchema>;

const chunkKey = (jobId: string, n: number) => `${stagingPrefix(jobId)}chunk-${n}.json`;
const refusedKey = (jobId: string, n: number) => `${stagingPrefix(jobId)}refused-${n}.json`;
/** Where the report (import) or result (export) of a job lives: served by /api/media with a signed URL. */
export const outputKey = (companyId: string, jobId: string) => `media/${companyId}/${jobId}.xlsx`;

/** Column indexes of each target. */
type Plan = { phone: number; name?: number; email?: number; document?: number; tags: number[]; fields: [number, string][] };

function planOf(mapping: Record<string, ImportTarget>): Plan {
  const plan: Plan = { phone: -1, tags: [], fields: [] };
  for (const [column, target] of Object.entries(mapping)) {
    const index = Number(column);
    if (target === "phone") plan.phone = index;
    else if (target === "name" || target === "email" || target === "document") plan[target] = index;
    else if (target === "tags") plan.tags.push(index);
    else if (target.startsWith("field:")) plan.fields.push([index, target.slice("field:".length)]);
  }
  return plan;
}

function toImportRow(plan: Plan, row: number, cells: string[]): ContactImportRow {
  const cell = (i: number | undefined) => (i === undefined ? "" : (cells[i] ?? "").trim());
  const out: ContactImportRow = { row, phone: cell(plan.phone) };
  const name = cell(plan.name);
  const email = cell(plan.email);
  const document = cell(plan.document);
  if (name) out.name = name;
  if (email) out.email = email;
  if (document) out.document = document;
  const tags = plan.tags.flatMap((i) => cell(i).split(/[,;]/)).map((t) => t.trim()).filter(Boolean);
  if (tags.length) out.tags = [...new Set(tags)];
  for (const [i, fieldId] of plan.fields) {
    const value = cell(i);
    if (value) (out.fields ??= {})[fieldId] = value;
  }
  return out;
}

/**
 * D1 statements upsertContactsByPhone is estimated to run for a row (its chunk sizes: 11 contacts,
 * a counter pair per 90 new contacts, 48 tag links, 24 values per statement, 95 phones a read).
 */
function statementsOf(row: ContactImportRow): number {
  return 1 / 11 + 2 / 90 + (row.tags?.length ?? 0) / 48 + Object.keys(row.fields ?? {}).length / 24 + 1 / 95;
}

/**
 * Phones seen in the file (E.164 digits as numbers) → the row they were first seen on: an
 * open-addressing table in typed arrays, 12 bytes a slot, so 500,000 phones take ~12 MiB instead
 * of a Set of strings several times that.
 */
export class PhoneRows {
  private keys = new Float64Array(1 << 16);
  private rows = new Uint32Array(1 << 16);
  private size = 0;

  /** The row `phone` was first seen on, or null after recording `row` for it. `phone` is E.164. */
  firstRow(phone: string, row: number): number | null {
    const key = Number(phone.slice(1));
    if (!Number.isSafeInteger(key) || key <= 0) return null;
    if ((this.size + 1) * 2 > this.keys.length) this.grow();
    const mask = this.keys.length - 1;
    for (let i = this.hash(key) & mask; ; i = (i + 1) & mask) {
      const k = this.keys[i]!;
      if (k === 0) {
        this.keys[i] = key;
        this.rows[i] = row;
        this.size += 1;
        return null;
      }
      if (k === key) return this.rows[i]!;
    }
  }

  private hash(key: number): number {
    const lo = key % 4294967296 >>> 0;
    const hi = Math.floor(key / 4294967296) >>> 0;
    return Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b) ^ (lo >>> 15);
  }

  private grow(): void {
    const keys = this.keys;
    const rows = this.rows;
    this.keys = new Float64Array(keys.length * 2);
    this.rows = new Uint32Array(keys.length * 2);
    this.size = 0;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      if (k !== 0) this.firstRow(`+${k}`, rows[i]!);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Queue handlers
// ---------------------------------------------------------------------------------------------

/** What the handlers need: the bindings and a way to enqueue the next message. */
export type JobDeps = { env: AppEnv; db: Db; send(message: JobMessage): Promise<void> };

function paramsOf(job: JobRow): ImportParams {
  const parsed = importParamsSchema.safeParse(job.params);
  if (!parsed.success) throw new JobFailure("The import's settings are missing; upload the file again.");
  return parsed.data;
}

/**
 * `import.parse`: stages the mapped rows in R2 chunks, sets `total`, then enqueues chunk 0.
 * Idempotent: a job already staged only re-enqueues its next chunk. A bad file fails the job.
 */
export async function runImportParse(deps: JobDeps, message: { jobId: string; companyId: string }, options: ImportOptions = {}): Promise<void> {
  const { env, db } = deps;
  const job = await loadJob(db, message.companyId, message.jobId);
  if (!job || job.type !== "import" || (job.status !== "queued" && job.status !== "running")) return;
  try {
    const params = paramsOf(job);
    if (params.chunks !== undefined) {
      if (params.nextChunk === 0) await deps.send(nextMessage(job, params.chunks, 0));
      return;
    }
    if (!params.mapping || !job.fileKey) throw new JobFailure("The import has no column mapping; start it again.");
    if (job.status === "queued") {
      const [running] = await db.update(jobs).set({ status: "running", updatedAt: now() }).where(and(eq(jobs.id, job.id), eq(jobs.status, "queued"))).returning();
      if (running) await publishJob(env, running);
    }
    const source = await r2Source(env.FILES, job.fileKey);
    if (!source) throw new ImportFailure("file_missing", "The uploaded file is no longer available; upload it again.");
    const staged = await stageRows(env.FILES, job.id, source, params, options);
    const [updated] = await db
      .update(jobs)
      .set({
        total: staged.rows,
        params: { ...params, chunks: staged.chunks, nextChunk: 0, lastRow: params.headerRow, inserted: 0, updated: 0 },
        updatedAt: now(),
      })
      .where(and(eq(jobs.id, job.id), eq(jobs.status, "running"), isNull(sql`json_extract(${jobs.params}, '$.chunks')`)))
      .returning();
    if (!updated) return;
    await publishJob(env, updated);
    await deps.send(nextMessage(job, staged.chunks, 0));
  } catch (error) {
    const failure = importFailure(error);
    if (failure === null) throw error;
    // The code goes with the job (params.errorCode) so the screen shows it translated.
    await db
      .update(jobs)
      .set({ params: sql`json_set(coalesce(${jobs.params}, '{}'), '$.errorCode', ${failure.code})` })
      .where(and(eq(jobs.id, job.id), eq(jobs.companyId, job.companyId)));
    await failJob(env, db, job.companyId, job.id, failure.message);
  }
}

/** A failure that ends an import with a stable code the screen translates (e.g. `too_many_rows`). */
export class ImportFailure extends JobFailure {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The code and user-facing sentence of a failure that ends an import, or null for one worth retrying. */
export function importFailure(error: unknown): { code: string; message: string } | null {
  if (error instanceof XlsxError) return readerFailure(error);
  if (error instanceof ImportFailure) return { code: error.code, message: error.message };
  if (error instanceof JobFailure) return { code: "import_failed", message: error.message };
  return null;
}

/** The message after chunk `n - 1`: chunk n, or finish when every chunk is done. */
function nextMessage(job: JobRow, chunks: number, n: number): JobMessage {
  return n < chunks ? { type: "import.chunk", jobId: job.id, companyId: job.companyId, chunk: n } : { type: "import.finish", jobId: job.id, companyId: job.companyId };
}

/** The user-facing message of a failure that ends a job, or null for one worth retrying. */
export function failureMessage(error: unknown): string | null {
  return importFailure(error)?.message ?? null;
}

/** Streams the sheet into chunk objects; answers the data rows and chunks staged. */
async function stageRows(bucket: R2Bucket, jobId: string, source: ByteSource, params: ImportParams, options: ImportOptions): Promise<{ rows: number; chunks: number }> {
  const workbook = await openXlsx(source, options.limits ?? DEFAULT_XLSX_LIMITS);
  const plan = planOf(params.mapping ?? {});
  const maxRows = options.maxRows ?? MAX_IMPORT_ROWS;
  const phones = new PhoneRows();
  let chunks = 0;
  let rows = 0;
  let current: Chunk = { rows: [], refused: [], lastRow: 0 };
  let statements = 0;
  const flush = async () => {
    await bucket.put(chunkKey(jobId, chunks), JSON.stringify(current));
    chunks += 1;
    current = { rows: [], refused: [], lastRow: 0 };
    statements = 0;
  };
  for await (const row of workbook.rows({}, params.sheet)) {
    if (row.row <= params.headerRow) continue;
    rows += 1;
    if (rows % ROWS_PER_YIELD === 0) await yieldToOthers();
    if (rows > maxRows) throw new ImportFailure("too_many_rows", `The spreadsheet has more than ${maxRows.toLocaleString("en-US")} rows; split it into smaller files.`);
    const mapped = toImportRow(plan, row.row, row.cells);
    current.lastRow = row.row;
    const phone = mapped.phone ? normalizeContactPhone(mapped.phone) : null;
    const first = phone ? phones.firstRow(phone, row.row) : null;
    if (first !== null) {
      current.refused.push({ ...refusalValues(mapped), row: row.row, reason: "duplicate_in_file", detail: `Same phone as row ${first}.` });
    } else {
      current.rows.push(mapped);
      statements += statementsOf(mapped);
    }
    if (current.rows.length >= CHUNK_MAX_ROWS || statements >= CHUNK_MAX_STATEMENTS || current.refused.length >= CHUNK_MAX_ROWS * 4) await flush();
  }
  if (current.rows.length || current.refused.length) await flush();
  return { rows, chunks };
}

function refusalValues(row: ContactImportRow): Omit<Refusal, "row" | "reason"> {
  return { name: row.name, phone: row.phone, email: row.email, document: row.document };
}

/**
 * `import.chunk` n: upserts the chunk and advances the job exactly once (a conditional UPDATE on
 * `params.nextChunk = n`), then enqueues the next message and publishes progress. A redelivery of
 * a chunk already counted only re-enqueues the next message when nothing further has happened.
 */
export async function runImportChunk(deps: JobDeps, message: { jobId: string; companyId: string; chunk: number }): Promise<void> {
  const { env, db } = deps;
  const job = await loadJob(db, message.companyId, message.jobId);
  if (!job || job.type !== "import" || job.status !== "running") return;
  let params: ImportParams;
  try {
    params = paramsOf(job);
  } catch (error) {
    await failJob(env, db, job.companyId, job.id, failureMessage(error) ?? "The import failed.");
    return;
  }
  const n = message.chunk;
  const chunks = params.chunks ?? 0;
  const next = params.nextChunk ?? 0;
  if (next > n) {
    // Counted already; repair the chain if its next message was lost before being sent. The chunks
    // after n may have run in n's invocation (CHUNKS_PER_INVOCATION): a redelivered n whose
    // invocation stopped midway finds `next` up to that many chunks on, and nothing sent for it.
    if (next - n <= CHUNKS_PER_INVOCATION) await deps.send(nextMessage(job, chunks, next));
    return;
  }
  if (next < n) throw new Error(`chunk ${n} arrived before chunk ${next} of job ${job.id}`);

  // A pause before each round trip after the first (STEP_PAUSE_MS): requests waiting on the thread
  // run between the chunk's steps, not only after the whole chunk.
  await pauseForOthers();
  const loaded = span(env, "chunk.load");
  const object = await env.FILES.get(chunkKey(job.id, n));
  if (!object) {
    await failJob(env, db, job.companyId, job.id, `The import lost its place after row ${params.lastRow ?? params.headerRow}; rows up to there were imported.`);
    return;
  }
  const chunk = chunkSchema.parse(await object.json());
  loaded();
  await pauseForOthers();
  const upserted = span(env, "import.chunk.upsert");
  const result = await upsertContactsByPhone(env, db, job.companyId, chunk.rows, { pause: pauseForOthers });
  upserted();
  await pauseForOthers();
  const byRow = new Map(chunk.rows.map((r) => [r.row, r]));
  const refused: Refusal[] = [
    ...chunk.refused,
    ...result.refused.map((r) => {
      const source = byRow.get(r.row);
      return { ...(source ? refusalValues(source) : {}), row: r.row, reason: r.reason };
    }),
  ].sort((a, b) => a.row - b.row);
  const after = span(env, "chunk.refused+update");
  if (refused.length) await env.FILES.put(refusedKey(job.id, n), JSON.stringify(refused));

  const handled = chunk.rows.length + chunk.refused.length;
  const [updated] = await db
    .update(jobs)
    .set({
      processed: sql`${jobs.processed} + ${handled}`,
      errors: sql`${jobs.errors} + ${refused.length}`,
      params: sql`json_set(${jobs.params}, '$.nextChunk', ${n + 1}, '$.lastRow', ${chunk.lastRow}, '$.inserted', coalesce(json_extract(${jobs.params}, '$.inserted'), 0) + ${result.inserted}, '$.updated', coalesce(json_extract(${jobs.params}, '$.updated'), 0) + ${result.updated})`,
      updatedAt: now(),
    })
    .where(and(eq(jobs.id, job.id), eq(jobs.companyId, job.companyId), eq(jobs.status, "running"), sql`json_extract(${jobs.params}, '$.nextChunk') = ${n}`))
    .returning();
  after();
  if (!updated) return;
  if (progressPushDue(job.id, n, chunks)) {
    await pauseForOthers();
    const published = span(env, "chunk.publish");
    await publishJob(env, updated);
    published();
  }
  const sent = span(env, "chunk.send");
  await deps.send(nextMessage(job, chunks, n + 1));
  sent();
}

/** Report columns. */
const REPORT_HEADER = ["Row", "Reason", "Message", "Name", "Phone", "Email", "Document"];

/** A sentence for each refusal code of upsertContactsByPhone (the report's "Message" column). */
export function refusalMessage(reason: string): string {
  const [code, key] = reason.split(":", 2);
  const field = key ? ` (${key})` : "";
  switch (code) {
    case "missing_phone":
      return "The phone is missing.";
    case "invalid_phone":
      return "The phone is not a valid number.";
    case "duplicate_in_file":
      return "The phone appears on an earlier row of the file.";
    case "invalid_name":
      return "The name is not valid.";
    case "invalid_email":
      return key ? `The e-mail${field} is not valid.` : "The e-mail is not valid.";
    case "invalid_document":
      return "The document (CPF, CNPJ, DNI, NIE or CUIT) is not valid.";
    case "invalid_tag":
      return "A tag is longer than 40 characters.";
    case "too_many_tags":
      return "The row has more than 50 tags.";
    case "unknown_field":
      return "A mapped custom field no longer exists.";
    case "invalid_number":
      return `The value${field} is not a number.`;
    case "invalid_date":
      return `The value${field} is not a date.`;
    case "invalid_datetime":
      return `The value${field} is not a date and time.`;
    case "too_long":
      return `The value${field} is too long.`;
    default:
      return `The row was refused (${reason}).`;
  }
}

/**
 * The chunk numbers below `chunks` that have a refused-rows object, ascending (issue 16): one R2
 * list per 1,000 staged objects instead of one get per chunk (a 500,000-row import stages 2,000
 * chunks; with 0.2 % of its rows refused only about a quarter of them have refusals). Keys sort as
 * text in R2 (`refused-10` before `refused-2`), so the numbers are sorted here.
 */
export async function refusedParts(bucket: R2Bucket, jobId: string, chunks: number): Promise<number[]> {
  const prefix = `${stagingPrefix(jobId)}refused-`;
  const parts: number[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await bucket.list({ prefix, cursor, limit: 1000 });
    for (const object of page.objects) {
      const match = /^(\d+)\.json$/.exec(object.key.slice(prefix.length));
      const n = match ? Number(match[1]) : -1;
      if (n >= 0 && n < chunks) parts.push(n);
    }
    if (!page.truncated) break;
    cursor = page.cursor;
  }
  return parts.sort((a, b) => a - b);
}

/**
 * Writes the report of the refused rows of chunks 0..chunks-1 to `outputKey` (an .xlsx: row,
 * reason code, message, the row's values), streaming: one chunk's refusals in memory at a time,
 * in chunk order (so in sheet-row order). Only the chunks that have refusals are read
 * (`refusedParts`), and the isolate's other work runs between two of them (issue 16: the finish of
 * a 500,000-row import no longer holds the API); the writer deflates at most FLUSH_CHARS of XML at
 * a time.
 */
async function writeReport(env: AppEnv, job: JobRow, chunks: number): Promise<string> {
  const key = outputKey(job.companyId, job.id);
  const writer = new XlsxWriter({ sheetName: "Refused rows" });
  const upload = new R2ObjectWriter(env.FILES, key, {
    httpMetadata: {
      contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      contentDisposition: `attachment; filename="import-report-${job.id.slice(0, 8)}.xlsx"`,
    },
  });
  try {
    writer.addRow(REPORT_HEADER, { header: true });
    const listed = span(env, "import.finish.report.list");
    const parts = await refusedParts(env.FILES, job.id, chunks);
    listed();
    for (const n of parts) {
      const object = await env.FILES.get(refusedKey(job.id, n));
      if (!object) continue;
      for (const r of z.array(refusalSchema).parse(await object.json())) {
        const message = r.detail ? `${refusalMessage(r.reason)} ${r.detail}` : refusalMessage(r.reason);
        writer.addRow([r.row, r.reason, message, r.name, r.phone, r.email, r.document]);
      }
      await upload.writeAll(writer.take());
      await yieldToOthers();
    }
    await upload.writeAll(writer.finish());
    await upload.close();
  } catch (error) {
    await upload.abort();
    throw error;
  }
  return key;
}

/**
 * `import.finish`: writes the report of refused rows (when there are any), deletes the staging
 * objects, then marks the job done. Idempotent: the report key is fixed and a finished job is left
 * alone; a redelivery after the staging was deleted keeps the report already written (an R2 object
 * only exists once its upload completed) instead of writing it again from nothing. The staging
 * goes before `done` (issue 16) because its deletion now takes turns with other work: whoever sees
 * the job done sees no staging left.
 */
export async function runImportFinish(deps: JobDeps, message: { jobId: string; companyId: string }): Promise<void> {
  const { env, db } = deps;
  const job = await loadJob(db, message.companyId, message.jobId);
  if (!job || job.type !== "import" || job.status !== "running") return;
  const params = importParamsSchema.safeParse(job.params);
  const chunks = params.success ? (params.data.chunks ?? 0) : 0;
  const finished = span(env, "import.finish");
  const reported = span(env, "import.finish.report");
  let reportKey: string | null = null;
  if (job.errors > 0) {
    reportKey = outputKey(job.companyId, job.id);
    if (!(await env.FILES.head(reportKey))) await writeReport(env, job, chunks);
  }
  reported();
  const deleted = span(env, "import.finish.delete");
  await deleteStaging(env.FILES, job.id);
  deleted();
  const [done] = await db
    .update(jobs)
    .set({ status: "done", reportKey, updatedAt: now() })
    .where(and(eq(jobs.id, job.id), eq(jobs.companyId, job.companyId), eq(jobs.status, "running")))
    .returning();
  if (done) await publishJob(env, done);
  finished();
}

/**
 * The dead-letter end of an import: marks it failed, naming what was written (chunks are written
 * in row order, so every row up to `lastRow` was handled and none after it), with a report of the
 * rows refused up to there.
 */
export async function failImport(env: AppEnv, db: Db, job: JobRow, cause: string): Promise<void> {
  const params = importParamsSchema.safeParse(job.params);
  const lastRow = params.success ? params.data.lastRow : undefined;
  const headerRow = params.success ? params.data.headerRow : 1;
  const done = params.success ? (params.data.nextChunk ?? 0) : 0;
  const written =
    lastRow !== undefined && lastRow > headerRow
      ? ` Rows ${headerRow + 1} to ${lastRow} were imported (${job.processed - job.errors} contacts, ${job.errors} refused); rows after ${lastRow} were not.`
      : " No contact was imported.";
  let reportKey: string | null = null;
  if (job.errors > 0 && done > 0) {
    try {
      reportKey = await writeReport(env, job, done);
    } catch (error) {
      console.error("[jobs] partial report failed", job.id, error);
    }
  }
  await failJob(env, db, job.companyId, job.id, `${cause}${written}`, { reportKey });
}

/** Fields a mapping may target: the company's `user` fields without a formula. */
export async function importableFields(db: Db, companyId: string): Promise<{ id: string; name: string; key: string }[]> {
  const rows = await db
    .select({ id: customFields.id, name: customFields.name, key: customFields.key, formula: customFields.formula })
    .from(customFields)
    .where(and(eq(customFields.companyId, companyId), eq(customFields.kind, "user")));
  return rows.filter((r) => !r.formula).map(({ id, name, key }) => ({ id, name, key }));
}
