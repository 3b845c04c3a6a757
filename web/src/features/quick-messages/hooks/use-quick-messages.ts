/**
 * Quick message hooks: the searchable list, save (create or edit, with the attachment change) and
 * delete with the spec §8 toasts, and the variables the editor offers.
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { notifyError, notifySuccess } from "@/lib/notify";
import {
  createQuickMessage,
  deleteQuickMessage,
  quickMessageKeys,
  quickMessagesQuery,
  templateFieldsQuery,
  updateQuickMessage,
  type QuickMessageSave,
} from "../api/quick-messages-api";
import { templateVariables, type TemplateVariable } from "../lib/quick-message-form";

/** The quick messages whose name matches `search`, page by page. */
export function useQuickMessages(search: string) {
  return useInfiniteQuery(quickMessagesQuery(search));
}

/** Creates (no `id`) or edits a quick message; toasts 'Created successfully.' or 'Changes saved.' (errors go to the form). */
export function useSaveQuickMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string | null; input: QuickMessageSave }) => (id ? updateQuickMessage(id, input) : createQuickMessage(input)),
    onSuccess: async (_answer, { id }) => {
      notifySuccess(id ? "edited" : "created");
      await queryClient.invalidateQueries({ queryKey: quickMessageKeys.all });
    },
  });
}

/** Deletes a quick message; toasts 'Deleted successfully.' or the error. */
export function useDeleteQuickMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteQuickMessage(id),
    onSuccess: async () => {
      notifySuccess("deleted");
      await queryClient.invalidateQueries({ queryKey: quickMessageKeys.all });
    },
    onError: (error) => notifyError(error),
  });
}

/**
 * The variables the editor offers: the built-ins always, plus the company's fields when the member
 * may read them (GET /api/custom-fields needs a contacts, fields or flow permission).
 */
export function useTemplateVariables(): { variables: TemplateVariable[]; loading: boolean } {
  const fields = useQuery(templateFieldsQuery());
  return { variables: templateVariables(fields.data?.results ?? []), loading: fields.isPending };
}
