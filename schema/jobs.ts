/**
 * Background jobs on the `jobs` queue (DESIGN.md "Queues"): contact import (.xlsx), contact export,
 * data cleanup. A job records its progress here and pushes it to the CompanyHub.
 */
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { id, timestamps, type Json } from "./columns";

export const JOB_TYPES = ["import", "export", "cleanup"] as const;
export const JOB_STATUSES = ["uploaded", "queued", "running", "done", "failed"] as const;
export type JobType = (typeof JOB_TYPES)[number];
export type JobStatus = (typeof JOB_STATUSES)[number];

export const jobs = sqliteTable(
  "jobs",
  {
    id: id(),
    companyId: text("company_id").notNull(),
    type: text("type", { enum: JOB_TYPES }).notNull(),
    status: text("status", { enum: JOB_STATUSES }).notNull(),
    /** Rows (or items) handled so far and in all. */
    processed: integer("processed").notNull().default(0),
    total: integer("total").notNull().default(0),
    /** Rows refused so far. */
    errors: integer("errors").notNull().default(0),
    /** Why a failed job failed (a clear, user-facing sentence). */
    errorMessage: text("error_message"),
    /** R2 keys: the uploaded file, the result (export), the refused-rows report (import). */
    fileKey: text("file_key"),
    resultKey: text("result_key"),
    reportKey: text("report_key"),
    /** Import column mapping, export filter, cleanup categories. */
    params: text("params", { mode: "json" }).$type<{ [key: string]: Json } | null>(),
    createdBy: text("created_by").notNull(),
    ...timestamps,
  },
  (t) => [index("jobs_company_idx").on(t.companyId, t.createdAt)],
);

export type JobRow = typeof jobs.$inferSelect;

/** Maintained counters (e.g. a company's contact count), so lists never COUNT(*) per request. */
export const counters = sqliteTable(
  "counters",
  {
    companyId: text("company_id").notNull(),
    name: text("name").notNull(),
    value: integer("value").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.name] })],
);
