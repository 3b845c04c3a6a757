/**
 * The contact list's column chooser: which optional columns show (the name always does), kept in
 * localStorage so the choice survives reloads. Custom field columns are `field:<id>`; a stored id
 * whose field no longer exists is simply not shown.
 */
import type { CustomFieldAnswer } from "../../../../../schema/api-types";

/** The fixed optional columns. */
export const BASE_COLUMNS = ["phone", "email", "document", "tags", "createdAt", "lastMessageAt"] as const;

/** A fixed column or a custom field's (`field:<id>`). */
export type ColumnId = (typeof BASE_COLUMNS)[number] | `field:${string}`;

/** Shown when nothing was chosen yet. */
export const DEFAULT_COLUMNS: readonly ColumnId[] = ["phone", "email", "tags", "createdAt"];

/** localStorage key of the choice, per company. */
export function columnsStorageKey(companyId: string): string {
  return `conversa.contacts.columns.${companyId}`;
}

function isColumnId(value: unknown): value is ColumnId {
  if (typeof value !== "string") return false;
  return BASE_COLUMNS.some((column) => column === value) || /^field:[\w:-]{1,80}$/.test(value);
}

/**
 * Every column the chooser offers: the fixed ones, then each custom field with a stored
 * per-contact value (computed fields are not in the list's answer; the contact's page shows them).
 */
export function availableColumns(fields: readonly CustomFieldAnswer[]): ColumnId[] {
  const custom = fields.filter((field) => field.kind === "user" && field.formula === null).map((field): ColumnId => `field:${field.id}`);
  return [...BASE_COLUMNS, ...custom];
}

/** The stored choice (a JSON list of ids), or the defaults when absent or unreadable. */
export function parseStoredColumns(raw: string | null): ColumnId[] {
  if (raw === null) return [...DEFAULT_COLUMNS];
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) return [...DEFAULT_COLUMNS];
    return [...new Set(parsed.filter(isColumnId))];
  } catch {
    return [...DEFAULT_COLUMNS];
  }
}

/** The columns to show: the chosen ones that exist, in the chooser's order. */
export function visibleColumns(chosen: readonly ColumnId[], available: readonly ColumnId[]): ColumnId[] {
  const set = new Set(chosen);
  return available.filter((column) => set.has(column));
}

/** The choice with `column` shown or hidden. */
export function toggleColumn(chosen: readonly ColumnId[], column: ColumnId, shown: boolean): ColumnId[] {
  const rest = chosen.filter((c) => c !== column);
  return shown ? [...rest, column] : rest;
}
