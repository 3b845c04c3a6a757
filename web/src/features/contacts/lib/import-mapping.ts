/**
 * The import's column-mapping step (issue 4 "the user maps columns to name, phone, email, document,
 * tags and custom fields"): the suggested mapping preselected, one choice per column, and the rules
 * of POST /api/jobs/{id}/start (schema/validation/jobs.ts `importStartInput`): exactly one column
 * on Phone; Name, Email, Document and each field at most once; Tags on any number of columns.
 */
import type { MessageDescriptor } from "@lingui/core";
import { fieldErrorMessage, KNOWN_FIELD_CODES } from "@/lib/error-messages";
import type { ImportTarget, JobProgress } from "../../../../../schema/api-types";
import { importStartInput, isImportTarget } from "../../../../../schema/validation/jobs";

/** Column index (as text) → where the column goes. */
export type ColumnMapping = Record<string, ImportTarget>;

/** Targets a column may take only once. */
function isSingle(target: ImportTarget): boolean {
  return target !== "tags" && target !== "ignore";
}

/**
 * The mapping the screen starts with: each column's suggestion, or `ignore` when there is none, it
 * names a field that cannot be imported into (`fieldIds`), or an earlier column took it already.
 */
export function initialMapping(headers: readonly string[], suggested: Readonly<Record<string, ImportTarget>>, fieldIds: ReadonlySet<string>): ColumnMapping {
  const mapping: ColumnMapping = {};
  const used = new Set<ImportTarget>();
  headers.forEach((_, index) => {
    const column = String(index);
    let target: ImportTarget = suggested[column] ?? "ignore";
    if (!isImportTarget(target)) target = "ignore";
    if (target.startsWith("field:") && !fieldIds.has(target.slice("field:".length))) target = "ignore";
    if (isSingle(target) && used.has(target)) target = "ignore";
    used.add(target);
    mapping[column] = target;
  });
  return mapping;
}

/**
 * The mapping with `column` sent to `target`. A target that takes one column moves: the column
 * that had it goes back to `ignore`, so the mapping never holds a duplicate.
 */
export function assignTarget(mapping: ColumnMapping, column: string, target: ImportTarget): ColumnMapping {
  const next: ColumnMapping = {};
  for (const [key, value] of Object.entries(mapping)) next[key] = isSingle(target) && value === target && key !== column ? "ignore" : value;
  next[column] = target;
  return next;
}

/** What keeps the import from starting, as the API's reason codes (empty when it can start). */
export function mappingProblems(mapping: ColumnMapping): string[] {
  const parsed = importStartInput.safeParse({ mapping: toStartMapping(mapping) });
  if (parsed.success) return [];
  return [...new Set(parsed.error.issues.map((issue) => issue.message))];
}

/** The body's `mapping`: ignored columns left out (the API ignores unlisted columns). */
export function toStartMapping(mapping: ColumnMapping): ColumnMapping {
  const out: ColumnMapping = {};
  for (const [column, target] of Object.entries(mapping)) if (target !== "ignore") out[column] = target;
  return out;
}

/** Whether a job is over (done or failed). */
export function isJobFinished(job: Pick<JobProgress, "status">): boolean {
  return job.status === "done" || job.status === "failed";
}

/** A job's progress in percent (0..100), or null while its total is unknown. */
export function jobPercent(job: Pick<JobProgress, "status" | "processed" | "total">): number | null {
  if (job.status === "done") return 100;
  if (job.total <= 0) return null;
  return Math.max(0, Math.min(100, Math.floor((job.processed / job.total) * 100)));
}

/** Rows an import took in (`processed` counts every row read, `errors` the refused ones). */
export function importedCount(job: Pick<JobProgress, "processed" | "errors">): number {
  return Math.max(0, job.processed - job.errors);
}

/** Whether a file name looks like an .xlsx (the server checks the content too). */
export function hasXlsxExtension(name: string): boolean {
  return /\.xlsx$/i.test(name.trim());
}

/**
 * What to show for a failed job: the translated message of its `errorCode` when the web knows the
 * code (the import's reader failures: damaged, encrypted, zip_bomb…), else null (show the job's
 * own `errorMessage`).
 */
export function jobFailureMessage(job: Pick<JobProgress, "errorCode">): MessageDescriptor | null {
  return job.errorCode && KNOWN_FIELD_CODES.includes(job.errorCode) ? fieldErrorMessage(job.errorCode) : null;
}
