/**
 * Registers (spec §2 Registers, §3 Custom field and Tag; worker/routes/custom-fields.ts and
 * worker/routes/tags.ts): custom fields (built-ins first, read-only) and contact tags. The contact
 * screens read both lists too, so their query options are this feature's public surface.
 */
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/session";
import { customFieldAnswer, customFieldList, tagAnswer, tagPage } from "@/lib/answers";
import type { CustomFieldAnswer, TagAnswer } from "../../../../../schema/api-types";
import type { CustomFieldInput, CustomFieldUpdate } from "../../../../../schema/validation/contacts";

/** Query keys of custom fields and tags. */
export const registerKeys = {
  fields: ["custom-fields"] as const,
  fieldList: () => [...registerKeys.fields, "list"] as const,
  tags: ["tags"] as const,
  tagList: () => [...registerKeys.tags, "list"] as const,
};

/** Most tags one request lists (the API's maximum page size). */
export const TAG_LIST_LIMIT = 200;

/** GET /api/custom-fields → every field: the nine built-ins first, then the company's by name. */
export const customFieldsQuery = () =>
  queryOptions({
    queryKey: registerKeys.fieldList(),
    queryFn: async ({ signal }) => (await api.call("GET", "/custom-fields", customFieldList, { signal })).results,
  });

/** POST /api/custom-fields → 201 CustomFieldAnswer; 409 `name_in_use` naming `name` or `key`. */
export function createCustomField(input: CustomFieldInput): Promise<CustomFieldAnswer> {
  return api.call("POST", "/custom-fields", customFieldAnswer, { body: input });
}

/** PUT /api/custom-fields/{id} → CustomFieldAnswer (a bot field's company-wide `value` too). */
export function updateCustomField(id: string, input: CustomFieldUpdate): Promise<CustomFieldAnswer> {
  return api.call("PUT", `/custom-fields/${encodeURIComponent(id)}`, customFieldAnswer, { body: input });
}

/** DELETE /api/custom-fields/{id} → 204; 409 `conflict` while a formula refers to it. */
export function deleteCustomField(id: string): Promise<void> {
  return api.send("DELETE", `/custom-fields/${encodeURIComponent(id)}`);
}

/** GET /api/tags?limit=200 → the company's contact tags by name (first page). */
export const tagsQuery = () =>
  queryOptions({
    queryKey: registerKeys.tagList(),
    queryFn: ({ signal }) => api.call("GET", "/tags", tagPage, { query: { limit: TAG_LIST_LIMIT }, signal }),
  });

/** Tag fields as sent: a name and a `#rrggbb` colour. */
export type TagFields = { name: string; color: string };

/** POST /api/tags → 201 TagAnswer; 409 `name_in_use` (field `name`). */
export function createTag(input: TagFields): Promise<TagAnswer> {
  return api.call("POST", "/tags", tagAnswer, { body: input });
}

/** PUT /api/tags/{id} → TagAnswer; 409 `name_in_use`. */
export function updateTag(id: string, input: TagFields): Promise<TagAnswer> {
  return api.call("PUT", `/tags/${encodeURIComponent(id)}`, tagAnswer, { body: input });
}

/** DELETE /api/tags/{id} → 204; contacts lose the tag. */
export function deleteTag(id: string): Promise<void> {
  return api.send("DELETE", `/tags/${encodeURIComponent(id)}`);
}
