/**
 * Shipping cycle hooks (spec §8 success toasts created, edited, deleted). Any write refreshes the
 * cycles (keys ["shipping-cycles", …]), which also hold the contacts' enrolments.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { notifySuccess } from "@/lib/notify";
import type { CycleEnrolAnswer, ShippingCycleInput, ShippingCycleUpdate } from "../../../../../schema/validation/shipping-cycles";
import { MAX_ENROL_CONTACTS } from "../../../../../schema/validation/shipping-cycles";
import { contactCyclesQuery, createCycle, cycleKeys, cycleQuery, cyclesQuery, deleteCycle, enrolContacts, removeEnrolment, updateCycle } from "../api/shipping-cycles-api";

/** Every cycle of the company; idle when `enabled` is false (no permission). */
export function useCycles(enabled = true) {
  return useQuery({ ...cyclesQuery(), enabled });
}

/** One cycle; idle while `id` is null (a new cycle). */
export function useCycle(id: string | null) {
  return useQuery({ ...cycleQuery(id ?? ""), enabled: id !== null });
}

/** What a save sends: a new cycle, or the changes of an existing one. */
export type SaveCycle = { id: null; input: ShippingCycleInput } | { id: string; input: ShippingCycleUpdate };

/** Creates or edits a cycle; toasts 'Created successfully.' or 'Changes saved.'. */
export function useSaveCycle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (save: SaveCycle) => (save.id === null ? createCycle(save.input) : updateCycle(save.id, save.input)),
    onSuccess: async (_, save) => {
      notifySuccess(save.id ? "edited" : "created");
      await queryClient.invalidateQueries({ queryKey: cycleKeys.all });
    },
  });
}

/** Deletes a cycle (its enrolments end); toasts 'Deleted successfully.'. */
export function useDeleteCycle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCycle,
    onSuccess: async (_, id) => {
      notifySuccess("deleted");
      queryClient.removeQueries({ queryKey: cycleKeys.detail(id) });
      await queryClient.invalidateQueries({ queryKey: cycleKeys.all });
    },
  });
}

/** A contact's enrolments; idle while `contactId` is null. */
export function useContactCycles(contactId: string | null, enabled = true) {
  return useQuery({ ...contactCyclesQuery(contactId ?? ""), enabled: enabled && contactId !== null });
}

/** Takes a contact out of a cycle; the enrolments are reloaded whether it worked or not. */
export function useRemoveEnrolment(contactId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (cycleId: string) => removeEnrolment(cycleId, contactId),
    onSuccess: () => notifySuccess("edited"),
    onSettled: () => queryClient.invalidateQueries({ queryKey: cycleKeys.all }),
  });
}

/**
 * Enrols contacts in a cycle, MAX_ENROL_CONTACTS per call; `contactIds` may be an async source of
 * id pages (every contact matching a filter, read page by page). Answers the merged outcome.
 */
export function useEnrolContacts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ cycleId, pages }: { cycleId: string; pages: AsyncIterable<string[]> | Iterable<string[]> }): Promise<CycleEnrolAnswer> => {
      const outcome: CycleEnrolAnswer = { enrolled: [], skipped: [] };
      for await (const page of pages) {
        for (let start = 0; start < page.length; start += MAX_ENROL_CONTACTS) {
          const chunk = page.slice(start, start + MAX_ENROL_CONTACTS);
          if (!chunk.length) continue;
          const answer = await enrolContacts(cycleId, chunk);
          outcome.enrolled.push(...answer.enrolled);
          outcome.skipped.push(...answer.skipped);
        }
      }
      return outcome;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: cycleKeys.all }),
  });
}
