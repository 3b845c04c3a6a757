/**
 * The CRM column form (spec §3 CRM column: name; the worker also keeps a colour): the same rules
 * as the worker's `crmColumnInput` (schema/validation/contacts.ts), with field codes FormField
 * translates, and the palette offered for colours.
 */
import { z } from "zod";
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";

/** The colours offered for a column, with their names (the swatches' accessible names). */
export const COLUMN_COLORS: readonly { value: string; label: MessageDescriptor }[] = [
  { value: "#64748b", label: msg`Grey` },
  { value: "#ef4444", label: msg`Red` },
  { value: "#f97316", label: msg`Orange` },
  { value: "#eab308", label: msg`Yellow` },
  { value: "#22c55e", label: msg`Green` },
  { value: "#14b8a6", label: msg`Teal` },
  { value: "#3b82f6", label: msg`Blue` },
  { value: "#8b5cf6", label: msg`Purple` },
  { value: "#ec4899", label: msg`Pink` },
];

/** A new column's colour (the worker's default). */
export const DEFAULT_COLUMN_COLOR = "#64748b";

/** Name 1–60 characters (trimmed), colour `#rrggbb`. */
export const columnForm = z.object({
  name: z.string().trim().min(1, { error: "required" }).max(60, { error: "too_long" }),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/, { error: "invalid_color" }),
});

/** The values of {@link columnForm}. */
export type ColumnFormValues = z.infer<typeof columnForm>;
