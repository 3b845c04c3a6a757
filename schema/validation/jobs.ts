/**
 * Inputs of the contact import and export jobs (issue 4 "Import and export"). Shared by the worker
 * and the web's mapping screen.
 *
 * Reason codes (values of `error.fields` in a 400): `phone_required` (no column mapped to phone),
 * `duplicate_target` (name, phone, email, document or one field mapped twice), `invalid_target`,
 * `invalid_column`.
 */
import { z } from "zod";
import type { ImportTarget } from "../api-types";
import { contactFilterSchema } from "./contacts";
import { isImportTarget } from "./import-targets";

/** Largest .xlsx accepted for import (bytes). */
export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;
/** Most data rows (header excluded) one import takes. */
export const MAX_IMPORT_ROWS = 500_000;
/** Columns an import maps (indexes 0..MAX_IMPORT_COLUMNS-1). */
export const MAX_IMPORT_COLUMNS = 1024;

/** Whether `value` names an import target (in ./import-targets.ts, which imports nothing heavy, for the web). */
export { isImportTarget } from "./import-targets";

const targetSchema = z.custom<ImportTarget>(isImportTarget, { error: "invalid_target" });

/**
 * POST /api/jobs/{id}/start: `{mapping: {[columnIndex]: target}}`. Exactly one column maps to
 * `phone`; `name`, `email`, `document` and each `field:<id>` at most once; `tags` may repeat (their
 * names are merged; cells split on `,` or `;`). Unlisted columns are ignored.
 */
export const importStartInput = z.object({
  mapping: z
    .record(z.string().regex(/^\d{1,4}$/, { error: "invalid_column" }), targetSchema, { error: "required" })
    .superRefine((mapping, ctx) => {
      const targets = Object.values(mapping);
      if (!targets.includes("phone")) ctx.addIssue({ code: "custom", message: "phone_required" });
      const seen = new Set<string>();
      for (const target of targets) {
        if (target === "tags" || target === "ignore") continue;
        if (seen.has(target)) ctx.addIssue({ code: "custom", message: "duplicate_target" });
        seen.add(target);
      }
      for (const column of Object.keys(mapping)) {
        if (Number(column) >= MAX_IMPORT_COLUMNS) ctx.addIssue({ code: "custom", message: "invalid_column" });
      }
    }),
});
export type ImportStartInput = z.infer<typeof importStartInput>;

/** The highest header row the mapping step offers (the header must sit near the top of the sheet). */
export const MAX_HEADER_ROW = 1000;

/**
 * POST /api/jobs/{id}/preview: `{sheet?, headerRow?}`: the index of the worksheet to read (as
 * listed in the upload's `sheets`) and the sheet row that holds the column names (1-based). Both
 * optional: the first worksheet with data, its first non-empty row.
 */
export const importPreviewInput = z.object({
  sheet: z.number({ error: "invalid_sheet" }).int({ error: "invalid_sheet" }).min(0, { error: "invalid_sheet" }).max(10_000, { error: "invalid_sheet" }).optional(),
  headerRow: z
    .number({ error: "invalid_header_row" })
    .int({ error: "invalid_header_row" })
    .min(1, { error: "invalid_header_row" })
    .max(MAX_HEADER_ROW, { error: "invalid_header_row" })
    .optional(),
});
export type ImportPreviewInput = z.infer<typeof importPreviewInput>;

/** POST /api/contacts/export: `{filter?}`, the contact list's filter (all contacts when absent). */
export const contactExportInput = z.object({ filter: contactFilterSchema.default({}) });
export type ContactExportInput = z.infer<typeof contactExportInput>;
