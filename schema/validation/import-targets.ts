/**
 * The targets a column of a contact import maps to (issue 4 "Import and export"): a basic attribute
 * or `field:<custom field id>`. Apart from jobs.ts (which re-exports it) so the web's answer parsers
 * can check targets without loading the contact validation (issue 9 "Load only what a screen needs").
 */
import type { ImportTarget } from "../api-types";

const FIELD_TARGET = /^field:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BASIC_TARGETS = new Set(["name", "phone", "email", "document", "tags", "ignore"]);

/** Whether `value` names an import target. */
export function isImportTarget(value: unknown): value is ImportTarget {
  return typeof value === "string" && (BASIC_TARGETS.has(value) || FIELD_TARGET.test(value));
}
