/**
 * Custom field and tag hooks (spec §8 success toasts created, edited, deleted). A change of either
 * list also refreshes the contact screens, which show fields and tags (keys ["contacts", …]).
 */
import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { notifySuccess } from "@/lib/notify";
import type { CustomFieldInput, CustomFieldUpdate } from "../../../../../schema/validation/contacts";
import {
  createCustomField,
  createTag,
  customFieldsQuery,
  deleteCustomField,
  deleteTag,
  registerKeys,
  tagsQuery,
  updateCustomField,
  updateTag,
  type TagFields,
} from "../api/registers-api";

/** Every custom field, built-ins first. */
export function useCustomFields() {
  return useQuery(customFieldsQuery());
}

/** The company's contact tags. */
export function useTags() {
  return useQuery(tagsQuery());
}

async function refresh(queryClient: QueryClient, key: readonly string[]) {
  await Promise.all([queryClient.invalidateQueries({ queryKey: key }), queryClient.invalidateQueries({ queryKey: ["contacts"] })]);
}

/** What a custom field save sends: a new field, or the changes of an existing one. */
export type SaveCustomField = { id: null; input: CustomFieldInput } | { id: string; input: CustomFieldUpdate };

/** Creates or edits a custom field; toasts 'Created successfully.' or 'Changes saved.'. */
export function useSaveCustomField() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (save: SaveCustomField) => (save.id === null ? createCustomField(save.input) : updateCustomField(save.id, save.input)),
    onSuccess: async (_, save) => {
      notifySuccess(save.id ? "edited" : "created");
      await refresh(queryClient, registerKeys.fields);
    },
  });
}

/** Deletes a custom field (and every contact's value of it); toasts 'Deleted successfully.'. */
export function useDeleteCustomField() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCustomField,
    onSuccess: async () => {
      notifySuccess("deleted");
      await refresh(queryClient, registerKeys.fields);
    },
  });
}

/** Creates (`id` null) or edits a tag; toasts 'Created successfully.' or 'Changes saved.'. */
export function useSaveTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string | null; input: TagFields }) => (id ? updateTag(id, input) : createTag(input)),
    onSuccess: async (_, { id }) => {
      notifySuccess(id ? "edited" : "created");
      await refresh(queryClient, registerKeys.tags);
    },
  });
}

/** Deletes a tag; toasts 'Deleted successfully.'. */
export function useDeleteTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTag,
    onSuccess: async () => {
      notifySuccess("deleted");
      await refresh(queryClient, registerKeys.tags);
    },
  });
}
