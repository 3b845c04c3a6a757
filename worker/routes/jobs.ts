/**
 * Contact import and export (issue 4 "Import and export"), permission `contacts`:
 * - POST /api/contacts/import (multipart `file`, an .xlsx ≤ 50 MB) → 201 ImportUploadAnswer;
 * - POST /api/jobs/{id}/preview {sheet?, headerRow?} → 200 ImportUploadAnswer (another sheet or
 *   header row of the uploaded file, chosen in the mapping step);
 * - POST /api/jobs/{id}/start {mapping} → 200 JobAnswer (status `queued`);
 * - POST /api/contacts/export {filter?} → 201 JobAnswer (status `queued`);
 * - GET /api/jobs/{id} → JobAnswer, with signed, expiring download URLs.
 * Another company's job answers 404. The work itself runs on the `jobs` queue (worker/queues/jobs.ts).
 */
import { Hono } from "hono";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { jobs } from "../../schema";
import type { ImportUploadAnswer } from "../../schema/api-types";
import { idSchema } from "../../schema/validation/common";
import { contactExportInput, importPreviewInput, importStartInput, MAX_IMPORT_BYTES } from "../../schema/validation/jobs";
import type { HonoEnv } from "../middleware/context";
import { requireCompany, requirePermission, requireSubscription, requireUser } from "../middleware/auth";
import { now } from "../lib/db";
import { AppError, notFound, validationError } from "../lib/errors";
import { newId } from "../lib/ids";
import { resolveFilter } from "../lib/contacts";
import { XlsxError } from "../lib/xlsx-reader";
import { r2Source } from "../lib/zip-reader";
import { zv } from "../lib/validate";
import { readForm } from "../lib/multipart";
import { span } from "../lib/bench-trace";
import { loadJob, presentJob } from "../jobs/common";
import { importableFields, importParamsSchema, PreviewRefusal, previewImport, readerFailure, suggestMapping, type ImportPreview } from "../jobs/import";
import { sendJob } from "../queues/jobs";

const idParam = z.object({ id: idSchema });
const importForm = z.object({ file: z.instanceof(File, { error: "file_required" }) });

/**
 * A preview failure as the 400 answer: the reader's reason (or the refusal's) as the code of the
 * field it concerns, with a fixed sentence; the reader's own detail never reaches the user.
 */
function previewError(error: unknown): unknown {
  if (error instanceof XlsxError) {
    const failure = readerFailure(error);
    return new AppError("validation_failed", failure.message, { [failure.code === "no_worksheet" ? "sheet" : "file"]: failure.code });
  }
  if (error instanceof PreviewRefusal) return new AppError("validation_failed", error.message, { [error.field]: error.reason });
  return error;
}

/** The upload answer of a preview. */
async function uploadAnswer(db: HonoEnv["Variables"]["db"], companyId: string, jobId: string, preview: ImportPreview): Promise<ImportUploadAnswer> {
  return {
    jobId,
    headers: preview.headers,
    preview: preview.preview,
    suggestedMapping: suggestMapping(preview.headers, await importableFields(db, companyId)),
    sheets: preview.sheets,
    sheet: preview.sheet,
    headerRow: preview.headerRow,
    previewRows: preview.previewRows,
    headerCandidates: preview.headerCandidates,
  };
}

/** POST /api/contacts/import and /export (mounted under /api/contacts). */
export const contactFileRoutes = new Hono<HonoEnv>()
  .use("/import", requireUser, requireCompany, requireSubscription, requirePermission("contacts"))
  .use("/export", requireUser, requireCompany, requireSubscription, requirePermission("contacts"))
  /**
   * POST /api/contacts/import, multipart `file` → 201 ImportUploadAnswer {jobId, headers, preview,
   * suggestedMapping, sheets, sheet, headerRow, previewRows, headerCandidates}: the first worksheet
   * with data (a chart sheet or an empty sheet in front is passed over), its first non-empty row as
   * header. 400 naming `file`: `file_required`, `too_large` (> 50 MB), `empty_file`, `not_xlsx`
   * ('The file must be .xlsx', judged by content: a zip holding [Content_Types].xml and
   * xl/workbook.xml), `damaged`, `encrypted`, `unsupported`, `zip_bomb`, `empty_sheet` (no
   * worksheet has data), `no_rows` (only a header), `too_many_rows` (> 500,000 by the sheet's
   * dimension). Each with a fixed sentence: the reader's internal detail is never sent.
   */
  .post("/import", async (c) => {
    const declared = Number(c.req.header("Content-Length") ?? 0);
    if (declared > MAX_IMPORT_BYTES + 1024 * 1024) throw new AppError("validation_failed", "The file is larger than 50 MB.", { file: "too_large" });
    const read = span(c.env, "upload.form");
    const form = importForm.safeParse(await readForm(c, "file"));
    read();
    if (!form.success) throw validationError(form.error);
    const file = form.data.file;
    if (file.size > MAX_IMPORT_BYTES) throw new AppError("validation_failed", "The file is larger than 50 MB.", { file: "too_large" });
    if (file.size === 0) throw new AppError("validation_failed", "The file is empty.", { file: "empty_file" });
    const db = c.var.db;
    const companyId = c.var.company.id;
    const jobId = newId();
    const fileKey = `imports/${companyId}/${jobId}.xlsx`;
    // Straight from the parsed body to R2, then previewed by ranged reads: no second copy of the
    // file in the Worker's 128 MB.
    const put = span(c.env, "upload.put");
    await c.env.FILES.put(fileKey, file, { httpMetadata: { contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" } });
    put();
    const previewed = span(c.env, "upload.preview");
    const source = await r2Source(c.env.FILES, fileKey);
    if (!source) throw new Error("the uploaded file vanished from R2");
    const preview = await previewImport(source).catch(async (error: unknown) => {
      await c.env.FILES.delete(fileKey);
      throw previewError(error);
    });
    previewed();
    const at = now();
    await db.insert(jobs).values({
      id: jobId,
      companyId,
      type: "import",
      status: "uploaded",
      fileKey,
      params: { fileName: file.name.slice(0, 200), sheet: preview.sheet, headerRow: preview.headerRow, columns: preview.columns },
      createdBy: c.var.memberId,
      createdAt: at,
      updatedAt: at,
    });
    return c.json(await uploadAnswer(db, companyId, jobId, preview), 201);
  })
  /**
   * POST /api/contacts/export {filter?: {search?, tags?, fields?}} → 201 JobAnswer (queued). 400
   * naming the filter's unknown tags (`tags`) or fields (`filter.fields.<id>`).
   */
  .post("/export", zv("json", contactExportInput), async (c) => {
    const { filter } = c.req.valid("json");
    const db = c.var.db;
    const companyId = c.var.company.id;
    await resolveFilter(db, companyId, filter, (id) => `filter.fields.${id}`);
    const at = now();
    const [row] = await db
      .insert(jobs)
      .values({ id: newId(), companyId, type: "export", status: "queued", params: { filter }, createdBy: c.var.memberId, createdAt: at, updatedAt: at })
      .returning();
    if (!row) throw new Error("job insert returned nothing");
    await sendJob(c.env, { type: "export", jobId: row.id, companyId });
    return c.json(await presentJob(c.env, row), 201);
  });

/** /api/jobs. */
export const jobsRoutes = new Hono<HonoEnv>()
  .use(requireUser, requireCompany, requireSubscription, requirePermission("contacts"))
  /** GET /api/jobs/{id} → JobAnswer; 404 for an unknown id or another company's job. */
  .get("/:id", zv("param", idParam), async (c) => {
    const job = await loadJob(c.var.db, c.var.company.id, c.req.valid("param").id);
    if (!job) throw notFound("Job");
    return c.json(await presentJob(c.env, job));
  })
  /**
   * POST /api/jobs/{id}/preview {sheet?, headerRow?} → 200 ImportUploadAnswer: the uploaded file
   * read again at another worksheet (`sheet`, an index of the upload's `sheets`) and/or another
   * header row (`headerRow`, 1-based); the choice is kept for the import's start. 400 naming
   * `sheet` (`invalid_sheet`: not a worksheet of the file, `empty_sheet`) or `headerRow`
   * (`invalid_header_row`, `header_row_empty`: that row holds nothing), or `file` as on upload.
   * 409 `conflict` when the job is not an import waiting for its mapping.
   */
  .post("/:id/preview", zv("param", idParam), zv("json", importPreviewInput), async (c) => {
    const choice = c.req.valid("json");
    const db = c.var.db;
    const companyId = c.var.company.id;
    const job = await loadJob(db, companyId, c.req.valid("param").id);
    if (!job) throw notFound("Job");
    if (job.type !== "import" || job.status !== "uploaded" || !job.fileKey) throw new AppError("conflict", "This import has already started.");
    const params = importParamsSchema.safeParse(job.params);
    if (!params.success) throw new AppError("conflict", "This import cannot start; upload the file again.");
    const source = await r2Source(c.env.FILES, job.fileKey);
    if (!source) throw new AppError("conflict", "The uploaded file is no longer available; upload it again.");
    const preview = await previewImport(source, choice).catch((error: unknown) => {
      throw previewError(error);
    });
    const [updated] = await db
      .update(jobs)
      .set({ params: { ...params.data, sheet: preview.sheet, headerRow: preview.headerRow, columns: preview.columns }, updatedAt: now() })
      .where(and(eq(jobs.id, job.id), eq(jobs.companyId, companyId), eq(jobs.status, "uploaded")))
      .returning();
    if (!updated) throw new AppError("conflict", "This import has already started.");
    return c.json(await uploadAnswer(db, companyId, job.id, preview));
  })
  /**
   * POST /api/jobs/{id}/start {mapping: {[columnIndex]: target}} → 200 JobAnswer (queued). 400
   * naming `mapping`: `phone_required`, `duplicate_target`, `invalid_target`, `invalid_column`
   * (beyond the file's columns), `unknown_field` (not an importable field of the company). 409
   * `conflict` when the job is not an import waiting for its mapping.
   */
  .post("/:id/start", zv("param", idParam), zv("json", importStartInput), async (c) => {
    const { mapping } = c.req.valid("json");
    const db = c.var.db;
    const companyId = c.var.company.id;
    const job = await loadJob(db, companyId, c.req.valid("param").id);
    if (!job) throw notFound("Job");
    if (job.type !== "import" || job.status !== "uploaded") throw new AppError("conflict", "This import has already started.");
    const params = importParamsSchema.safeParse(job.params);
    if (!params.success) throw new AppError("conflict", "This import cannot start; upload the file again.");
    if (Object.keys(mapping).some((column) => Number(column) >= params.data.columns)) {
      throw new AppError("validation_failed", "The mapping names a column the file does not have.", { mapping: "invalid_column" });
    }
    const fieldIds = new Set((await importableFields(db, companyId)).map((f) => f.id));
    if (Object.values(mapping).some((target) => target.startsWith("field:") && !fieldIds.has(target.slice("field:".length)))) {
      throw new AppError("validation_failed", "The mapping names a custom field that does not exist.", { mapping: "unknown_field" });
    }
    const [queued] = await db
      .update(jobs)
      .set({ status: "queued", params: { ...params.data, mapping }, updatedAt: now() })
      .where(and(eq(jobs.id, job.id), eq(jobs.companyId, companyId), eq(jobs.status, "uploaded")))
      .returning();
    if (!queued) throw new AppError("conflict", "This import has already started.");
    try {
      await sendJob(c.env, { type: "import.parse", jobId: job.id, companyId });
    } catch (error) {
      await db.update(jobs).set({ status: "uploaded", updatedAt: now() }).where(eq(jobs.id, job.id));
      throw error;
    }
    return c.json(await presentJob(c.env, queued));
  });
