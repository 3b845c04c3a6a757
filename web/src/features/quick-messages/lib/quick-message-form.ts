/**
 * The quick message form (spec §3 Quick message: name, text; optional attachment): the worker's
 * rules (schema/validation/contacts.ts `quickMessageInput`) with FormField's codes, the variables
 * helper's list and inserting a variable where the cursor is.
 */
import { z } from "zod";
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";

/** Longest text (worker validation). */
export const MAX_QUICK_MESSAGE_TEXT = 4096;

/** Name 1–60 characters, text up to 4096 (both trimmed). Text or a file is required (checked on submit). */
export const quickMessageForm = z.object({
  name: z.string().trim().min(1, { error: "required" }).max(60, { error: "too_long" }),
  text: z.string().trim().max(MAX_QUICK_MESSAGE_TEXT, { error: "too_long" }),
});

/** The values of {@link quickMessageForm}. */
export type QuickMessageFormValues = z.infer<typeof quickMessageForm>;

/** The built-in variables (schema/template.ts), with their names in the user's language. */
export const BUILT_IN_VARIABLES: readonly { key: string; label: MessageDescriptor }[] = [
  { key: "first_name", label: msg`First name` },
  { key: "full_name", label: msg`Full name` },
  { key: "last_name", label: msg`Last name` },
  { key: "email", label: msg`Email` },
  { key: "phone", label: msg`Phone` },
  { key: "document", label: msg`Document` },
  { key: "last_message", label: msg`Last message` },
  { key: "last_media", label: msg`Last media` },
  { key: "last_campaign", label: msg`Last campaign` },
];

/** A variable offered by the helper: its key and the name shown (null: a built-in, named by key). */
export type TemplateVariable = { key: string; name: string | null };

/**
 * The helper's variables: the built-ins in a fixed order (first_name first), then the company's
 * own fields (any `kind` but `default`) by the order given, each key once.
 */
export function templateVariables(fields: readonly { key: string; name: string; kind: string }[]): TemplateVariable[] {
  const builtIn = new Set(BUILT_IN_VARIABLES.map((v) => v.key));
  const seen = new Set<string>();
  const custom: TemplateVariable[] = [];
  for (const field of fields) {
    if (field.kind === "default" || builtIn.has(field.key) || seen.has(field.key)) continue;
    seen.add(field.key);
    custom.push({ key: field.key, name: field.name });
  }
  return [...BUILT_IN_VARIABLES.map((v) => ({ key: v.key, name: null })), ...custom];
}

/**
 * `insert` put in place of `text[start, end)` (the selection, or the caret when equal), answering
 * the new text and where the caret goes (after the insert).
 */
export function insertAt(text: string, start: number, end: number, insert: string): { text: string; caret: number } {
  const from = Math.max(0, Math.min(start, text.length));
  const to = Math.max(from, Math.min(end, text.length));
  return { text: text.slice(0, from) + insert + text.slice(to), caret: from + insert.length };
}

/** A size in bytes as "512 B", "1.5 KB", "12 MB"; "" when unknown. */
export function formatFileSize(bytes: number | null): string {
  if (bytes === null) return "";
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 10 ? Math.round(value) : Math.round(value * 10) / 10} ${units[unit]}`;
}
