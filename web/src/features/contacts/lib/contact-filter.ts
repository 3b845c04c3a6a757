/**
 * The contact list's filter (issue 4: search by name, phone or e-mail; tags, ANY of them; custom
 * field values, exact) and how it becomes the list's query string (`search`, `tags=a,b`,
 * `field.<id>=`) or the `filter` object of the bulk actions and the export
 * (schema/validation/contacts.ts `contactFilterSchema`).
 */
import type { CustomFieldAnswer } from "../../../../../schema/api-types";
import { MAX_FIELD_FILTERS, MAX_TAG_FILTERS, normalizeFieldValue, searchSchema, type ContactFilter } from "../../../../../schema/validation/contacts";

/** One field filter as the screen keeps it (the value as typed). */
export type FieldFilter = { fieldId: string; value: string };

/** The filter as the screen keeps it. */
export type ContactFilterState = { search: string; tags: string[]; fields: FieldFilter[] };

/** No filter: every contact. */
export const EMPTY_FILTER: ContactFilterState = { search: "", tags: [], fields: [] };

/** The custom fields a list may be filtered by (and an import may fill): per-contact, not computed. */
export function filterableFields(fields: readonly CustomFieldAnswer[]): CustomFieldAnswer[] {
  return fields.filter((field) => field.kind === "user" && field.formula === null);
}

/** Whether the search text is within what the API accepts (40 characters, 48 bytes escaped). */
export function isSearchValid(search: string): boolean {
  return searchSchema.safeParse(search).success;
}

/**
 * The filter the API gets: a trimmed, valid search; at most MAX_TAG_FILTERS tags; the field filters
 * whose field still exists and whose value is valid for the field's type (an unfinished value, such
 * as `abc` on a number field, is left out instead of failing the whole list).
 */
export function toApiFilter(state: ContactFilterState, fields: readonly CustomFieldAnswer[], timeZone = "UTC"): ContactFilter {
  const filter: ContactFilter = {};
  const search = state.search.trim();
  if (search && isSearchValid(search)) filter.search = search;
  if (state.tags.length) filter.tags = [...new Set(state.tags)].slice(0, MAX_TAG_FILTERS);
  const byId = new Map(filterableFields(fields).map((field) => [field.id, field]));
  const valid: FieldFilter[] = [];
  for (const entry of state.fields) {
    const field = byId.get(entry.fieldId);
    const value = entry.value.trim();
    if (!field || !value || !normalizeFieldValue(field.type, value, timeZone).ok) continue;
    if (valid.some((v) => v.fieldId === entry.fieldId)) continue;
    valid.push({ fieldId: entry.fieldId, value });
  }
  if (valid.length) filter.fields = valid.slice(0, MAX_FIELD_FILTERS);
  return filter;
}

/** Whether `filter` narrows the list at all. */
export function isFiltering(filter: ContactFilter): boolean {
  return Boolean(filter.search || filter.tags?.length || filter.fields?.length);
}

/** The query string of GET /api/contacts for `filter`, one page of `limit` after `cursor`. */
export function listQueryParams(filter: ContactFilter, cursor: string | null, limit: number): Record<string, string | number | undefined> {
  const query: Record<string, string | number | undefined> = { limit };
  if (filter.search) query.search = filter.search;
  if (filter.tags?.length) query.tags = filter.tags.join(",");
  for (const entry of filter.fields ?? []) query[`field.${entry.fieldId}`] = entry.value;
  if (cursor) query.cursor = cursor;
  return query;
}
