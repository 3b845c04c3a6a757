/**
 * The contact export (issue 4 "Import and export"): one `export` message streams the contacts
 * matching the job's filter, newest first, in keyset pages (EXPORT_PAGE rows, each page ONE query
 * with the tags and field values folded in by subqueries), into an .xlsx written to R2 as it grows
 * (multipart upload, ~5 MiB in memory), at `media/<companyId>/<jobId>.xlsx`.
 *
 * Queries: 1,048,575 rows (Excel's limit, the most one sheet holds) / 2,000 per page is 525 page
 * queries plus one progress UPDATE per 10 pages: under D1's 1,000 per invocation. A redelivered
 * message restarts the export from the top (the object is rewritten at the same key).
 */
import { and, count, desc, eq, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { contacts, jobs, type JobRow } from "../../schema";
import { contactFilterSchema } from "../../schema/validation/contacts";
import { filterWhere, loadFields, resolveFilter } from "../lib/contacts";
import { yieldToOthers } from "./import";
import { now } from "../lib/db";
import { AppError } from "../lib/errors";
import { R2ObjectWriter } from "../lib/r2-writer";
import { XlsxWriter } from "../lib/xlsx-writer";
import { failJob, JobFailure, loadJob, publishJob } from "./common";
import { outputKey, type JobDeps } from "./import";

/** Contacts per page query. */
export const EXPORT_PAGE = 2000;
/** Progress is written and pushed every this many pages. */
const PROGRESS_EVERY_PAGES = 10;
/** Data rows one sheet holds (Excel: 1,048,576 rows, one of them the header). */
export const MAX_EXPORT_ROWS = 1_048_575;

/** `jobs.params` of an export. */
export const exportParamsSchema = z.object({ filter: contactFilterSchema });

const fieldValuesJson = z.record(z.string(), z.string());

/** ISO date-time (UTC) of ms, for the "Created at" column. */
const isoOf = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace("T", " ");

/**
 * `export`: writes the file, marks the job done with `resultKey`, publishing progress on the way.
 * A filter naming a tag or field that no longer exists, or more rows than a sheet holds, fails the
 * job; D1 or R2 errors are thrown for the queue to retry.
 */
export async function runExport(deps: JobDeps, message: { jobId: string; companyId: string }): Promise<void> {
  const { env, db } = deps;
  const job = await loadJob(db, message.companyId, message.jobId);
  if (!job || job.type !== "export" || (job.status !== "queued" && job.status !== "running")) return;
  const companyId = job.companyId;
  let where: SQL;
  let total: number;
  try {
    const params = exportParamsSchema.safeParse(job.params);
    if (!params.success) throw new JobFailure("The export's filter is missing; export again.");
    const resolved = await resolveFilter(db, companyId, params.data.filter).catch((error: unknown) => {
      if (error instanceof AppError) throw new JobFailure("The filter names a tag or field that no longer exists; export again.");
      throw error;
    });
    where = filterWhere(companyId, resolved);
    const [counted] = await db.select({ n: count() }).from(contacts).where(where);
    total = counted?.n ?? 0;
    if (total > MAX_EXPORT_ROWS) throw new JobFailure(`More than ${MAX_EXPORT_ROWS.toLocaleString("en-US")} contacts match, more than a spreadsheet holds; narrow the filter.`);
  } catch (error) {
    if (error instanceof JobFailure) {
      await failJob(env, db, companyId, job.id, error.message);
      return;
    }
    throw error;
  }

  const [running] = await db
    .update(jobs)
    .set({ status: "running", processed: 0, total, updatedAt: now() })
    .where(and(eq(jobs.id, job.id), eq(jobs.companyId, companyId)))
    .returning();
  if (running) await publishJob(env, running);

  const fields = [...(await loadFields(db, companyId)).values()].filter((f) => f.kind === "user" && !f.formula).sort((a, b) => a.name.localeCompare(b.name));
  const key = outputKey(companyId, job.id);
  const writer = new XlsxWriter({ sheetName: "Contacts" });
  const upload = new R2ObjectWriter(env.FILES, key, {
    httpMetadata: {
      contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      contentDisposition: `attachment; filename="contacts-${new Date().toISOString().slice(0, 10)}.xlsx"`,
    },
  });
  let processed = 0;
  try {
    writer.addRow(["Name", "Phone", "Email", "Document", "Tags", "Created at", ...fields.map((f) => f.name)], { header: true });
    let cursor: { createdAt: number; id: string } | null = null;
    for (let page = 1; ; page++) {
      const rows: ExportRow[] = await db
        .select({
          id: contacts.id,
          name: contacts.name,
          phone: contacts.phone,
          email: contacts.email,
          document: contacts.document,
          createdAt: contacts.createdAt,
          // Written out with aliases: drizzle leaves columns unqualified inside select-list SQL,
          // which would bind "id" to the subquery's own table. The unary `+` keeps the company
          // term off the index: without statistics SQLite otherwise walks the company-leading
          // index (every tag link of the company, per contact) instead of the primary key.
          tags: sql<string | null>`(SELECT group_concat(t.name, ', ') FROM contact_tags AS ct JOIN tags AS t ON t.id = ct.tag_id WHERE ct.contact_id = "contacts"."id" AND +ct.company_id = ${companyId})`,
          fields: sql<string | null>`(SELECT json_group_object(v.field_id, v.value) FROM contact_field_values AS v WHERE v.contact_id = "contacts"."id" AND +v.company_id = ${companyId})`,
        })
        .from(contacts)
        .where(cursor ? and(where, sql`(${contacts.createdAt}, ${contacts.id}) < (${cursor.createdAt}, ${cursor.id})`) : where)
        .orderBy(desc(contacts.createdAt), desc(contacts.id))
        .limit(EXPORT_PAGE);
      for (const row of rows) {
        const values = parseValues(row.fields);
        writer.addRow([row.name, row.phone, row.email, row.document, row.tags, isoOf(row.createdAt), ...fields.map((f) => values[f.id])]);
      }
      processed += rows.length;
      await upload.writeAll(writer.take());
      // The rest of the isolate's work goes first between pages (issue 16).
      await yieldToOthers();
      const last = rows[rows.length - 1];
      if (!last || rows.length < EXPORT_PAGE || processed >= MAX_EXPORT_ROWS) break;
      cursor = { createdAt: last.createdAt, id: last.id };
      if (page % PROGRESS_EVERY_PAGES === 0) {
        const [progress] = await db.update(jobs).set({ processed, updatedAt: now() }).where(and(eq(jobs.id, job.id), eq(jobs.status, "running"))).returning();
        if (!progress) throw new JobFailure("The export was stopped.");
        await publishJob(env, progress);
      }
    }
    await upload.writeAll(writer.finish());
    await upload.close();
  } catch (error) {
    await upload.abort();
    if (error instanceof JobFailure) return;
    throw error;
  }
  const [done] = await db
    .update(jobs)
    .set({ status: "done", processed, total: Math.max(total, processed), resultKey: key, updatedAt: now() })
    .where(and(eq(jobs.id, job.id), eq(jobs.companyId, companyId), eq(jobs.status, "running")))
    .returning();
  if (done) await publishJob(env, done);
}

type ExportRow = { id: string; name: string; phone: string | null; email: string | null; document: string | null; createdAt: number; tags: string | null; fields: string | null };

function parseValues(json: string | null): Record<string, string> {
  if (!json) return {};
  try {
    const parsed = fieldValuesJson.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/** The dead-letter end of an export. */
export async function failExport(deps: JobDeps, job: JobRow, cause: string): Promise<void> {
  await failJob(deps.env, deps.db, job.companyId, job.id, cause);
}
