/**
 * The broadcast form's filters builder (issue 10: filters `{item, condition, tag?, value?}` over
 * tags, custom fields, CRM column, created date and channel, with the conditions fitting each
 * type): which conditions an item (and a custom field's type) offers, which input its value takes,
 * how a change of item or field keeps the row consistent, and which rows are complete enough to be
 * sent (the live audience count leaves out a row still being filled in). The rules themselves are
 * the API's (schema/validation/broadcasts.ts FILTER_CONDITIONS, CUSTOM_FIELD_CONDITIONS,
 * broadcastFilterSchema), so the screen never offers what the worker refuses.
 */
import type { CustomFieldAnswer } from "../../../../../schema/api-types";
import type { CustomFieldType } from "../../../../../schema/custom-fields";
import {
  CUSTOM_FIELD_CONDITIONS,
  FILTER_CONDITIONS,
  broadcastFilterSchema,
  type BroadcastFilter,
  type FilterCondition,
  type FilterItem,
} from "../../../../../schema/validation/broadcasts";

/** A filter row as the form keeps it: every part optional text until chosen. */
export type FilterDraft = { item: FilterItem; condition: FilterCondition; tag?: string; fieldId?: string; value?: string };

/** The built-in fields a filter may compare (`default:<key>`): the contact's own columns. */
export const FILTERABLE_BUILT_INS = ["full_name", "email", "document", "phone"] as const;

/** What kind of input the value of a row takes. */
export type ValueInput = "tag" | "text" | "number" | "date" | "datetime" | "crm_column" | "channel";

/**
 * The custom fields a filter may compare: the company's own per-contact fields (not formulas,
 * not bot-wide values) and the built-ins of FILTERABLE_BUILT_INS.
 */
export function filterableFields(fields: readonly CustomFieldAnswer[]): CustomFieldAnswer[] {
  return fields.filter((field) =>
    field.kind === "default" ? (FILTERABLE_BUILT_INS as readonly string[]).includes(field.key) : field.kind === "user" && field.formula === null,
  );
}

/** The conditions a row may use: the item's, narrowed by the custom field's type when it has one. */
export function conditionsFor(item: FilterItem, fieldType?: CustomFieldType | null): readonly FilterCondition[] {
  if (item === "custom_field" && fieldType) return CUSTOM_FIELD_CONDITIONS[fieldType] ?? FILTER_CONDITIONS.custom_field;
  return FILTER_CONDITIONS[item];
}

/** The input of a row's value. */
export function valueInputFor(item: FilterItem, fieldType?: CustomFieldType | null): ValueInput {
  switch (item) {
    case "tag":
      return "tag";
    case "crm_column":
      return "crm_column";
    case "channel":
      return "channel";
    case "created_date":
      return "date";
    case "custom_field":
      if (fieldType === "number") return "number";
      if (fieldType === "date") return "date";
      if (fieldType === "datetime") return "datetime";
      return "text";
  }
}

/** A new row for `item`: its first fitting condition, nothing chosen yet. */
export function newFilter(item: FilterItem = "tag"): FilterDraft {
  return { item, condition: FILTER_CONDITIONS[item][0] ?? "is" };
}

/** The row with another item: a fresh row of that item (a tag id means nothing to a date). */
export function withItem(draft: FilterDraft, item: FilterItem): FilterDraft {
  return draft.item === item ? draft : newFilter(item);
}

/**
 * The row comparing another custom field: the condition stays when the new field's type allows it,
 * else becomes its first; the value is cleared when the kind of input changes (`12` means nothing
 * to a date field).
 */
export function withField(draft: FilterDraft, field: Pick<CustomFieldAnswer, "id" | "type"> | null, previous?: Pick<CustomFieldAnswer, "type"> | null): FilterDraft {
  if (!field) return { item: draft.item, condition: draft.condition };
  const allowed = conditionsFor("custom_field", field.type);
  const condition = allowed.includes(draft.condition) ? draft.condition : (allowed[0] ?? "is");
  const keepValue = previous ? valueInputFor("custom_field", previous.type) === valueInputFor("custom_field", field.type) : false;
  return { item: "custom_field", condition, fieldId: field.id, ...(keepValue && draft.value ? { value: draft.value } : {}) };
}

/** The filter as the API takes it (only the parts its item uses), or null when the row is not complete or not valid. */
export function toApiFilter(draft: FilterDraft): BroadcastFilter | null {
  const candidate: BroadcastFilter = { item: draft.item, condition: draft.condition };
  if (draft.item === "tag") candidate.tag = draft.tag || undefined;
  else {
    if (draft.item === "custom_field") candidate.fieldId = draft.fieldId || undefined;
    const value = draft.value?.trim();
    if (value) candidate.value = value;
  }
  const parsed = broadcastFilterSchema.safeParse(candidate);
  return parsed.success ? parsed.data : null;
}

/** The complete rows as the API takes them, and how many rows are left out as incomplete. */
export function completeFilters(drafts: readonly FilterDraft[]): { filters: BroadcastFilter[]; incomplete: number } {
  const filters: BroadcastFilter[] = [];
  let incomplete = 0;
  for (const draft of drafts) {
    const filter = toApiFilter(draft);
    if (filter) filters.push(filter);
    else incomplete += 1;
  }
  return { filters, incomplete };
}

/** A saved filter back as a row of the form. */
export function fromApiFilter(filter: BroadcastFilter): FilterDraft {
  const draft: FilterDraft = { item: filter.item, condition: filter.condition };
  if (filter.tag) draft.tag = filter.tag;
  if (filter.fieldId) draft.fieldId = filter.fieldId;
  if (filter.value) draft.value = filter.value;
  return draft;
}
