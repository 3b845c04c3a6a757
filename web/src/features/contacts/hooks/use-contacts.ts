/**
 * Contact hooks (spec §8 success toasts created, edited, deleted). Any write refreshes the lists and
 * the contact's page (keys ["contacts", …]).
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { notifySuccess } from "@/lib/notify";
import type { ContactFilter } from "../../../../../schema/validation/contacts";
import {
  contactKeys,
  contactListQuery,
  contactQuery,
  contactRunsQuery,
  createContact,
  deleteContact,
  runBulk,
  stopContactRun,
  updateContact,
  type BulkAction,
  type BulkTarget,
  type ContactWrite,
} from "../api/contacts-api";

/** The contact list for `filter`, page after page. */
export function useContactList(filter: ContactFilter) {
  return useInfiniteQuery(contactListQuery(filter));
}

/** One contact with its values and tickets; idle while `id` is null. */
export function useContact(id: string | null) {
  return useQuery({ ...contactQuery(id ?? ""), enabled: id !== null });
}

/** Creates (`id` null) or edits a contact; toasts 'Created successfully.' or 'Changes saved.'. */
export function useSaveContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string | null; input: ContactWrite }) => (id ? updateContact(id, input) : createContact(input)),
    onSuccess: async (_, { id }) => {
      notifySuccess(id ? "edited" : "created");
      await queryClient.invalidateQueries({ queryKey: contactKeys.all });
    },
  });
}

/** Deletes one contact; toasts 'Deleted successfully.'. */
export function useDeleteContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteContact,
    onSuccess: async (_, id) => {
      notifySuccess("deleted");
      queryClient.removeQueries({ queryKey: contactKeys.detail(id) });
      await queryClient.invalidateQueries({ queryKey: contactKeys.lists() });
    },
  });
}

/** Tags, untags or deletes many contacts (repeating the call until done); toasts edited or deleted. */
export function useBulkAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ target, action }: { target: BulkTarget; action: BulkAction }) => runBulk(target, action),
    onSuccess: async (_, { action }) => {
      notifySuccess(action.action === "delete" ? "deleted" : "edited");
      await queryClient.invalidateQueries({ queryKey: contactKeys.all });
    },
  });
}

/** The contact's flow runs, newest first (reloaded while one is in progress). */
export function useContactRuns(contactId: string) {
  return useQuery(contactRunsQuery(contactId));
}

/** Stops one of the contact's runs; the runs are reloaded whether it worked or not (a 404 means it already ended). */
export function useStopRun(contactId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (runId: string) => stopContactRun(contactId, runId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: contactKeys.runs(contactId) }),
  });
}
