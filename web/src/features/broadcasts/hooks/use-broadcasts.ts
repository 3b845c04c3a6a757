/**
 * Broadcast hooks: the lists kept live from the company hub (`broadcast.updated`, schema/realtime.ts),
 * the start/pause/resume actions, delete, and the form's save (spec §8 success toasts created,
 * edited, deleted). Any write refreshes the lists (keys ["broadcasts", …]).
 */
import { useCallback } from "react";
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { useHubEvents } from "@/lib/realtime";
import { notifySuccess } from "@/lib/notify";
import type { HubEvent } from "../../../../../schema/realtime";
import type { BroadcastDetail } from "../../../../../schema/validation/broadcasts";
import {
  actOnBroadcast,
  broadcastKeys,
  broadcastListQuery,
  broadcastProgress,
  createBroadcast,
  deleteBroadcast,
  updateBroadcast,
  type BroadcastAction,
  type BroadcastTab,
  type BroadcastUpdateBody,
  type BroadcastWriteBody,
} from "../api/broadcasts-api";
import { applyProgress, type BroadcastPages } from "../lib/progress";

/** One tab's list, page after page. */
export function useBroadcastList(tab: BroadcastTab) {
  return useInfiniteQuery(broadcastListQuery(tab));
}

/**
 * Keeps the loaded lists and the open broadcast live while mounted: each `broadcast.updated` event
 * replaces the row's status and counts, moves a finished one to history, and refetches a list that
 * should hold a broadcast it has not loaded; a hub reset refetches everything.
 */
export function useLiveBroadcasts(): void {
  const queryClient = useQueryClient();
  const onEvent = useCallback(
    (event: HubEvent) => {
      if (event.type !== "broadcast.updated") return;
      const parsed = broadcastProgress.safeParse(event.broadcast);
      if (!parsed.success) return;
      const progress = parsed.data;
      for (const tab of ["current", "history"] as const) {
        const key = broadcastKeys.list(tab);
        const data = queryClient.getQueryData<BroadcastPages>(key);
        if (!data) continue;
        const outcome = applyProgress(data, progress, tab);
        if (outcome.unknown) void queryClient.invalidateQueries({ queryKey: key, exact: true });
        else if (outcome.changed) queryClient.setQueryData(key, outcome.data);
      }
      queryClient.setQueryData<BroadcastDetail>(broadcastKeys.detail(progress.id), (current) => (current ? { ...current, status: progress.status, counts: progress.counts } : current));
      // The drawer's recipient pages move between tabs as they are sent: reload the ones on screen.
      void queryClient.invalidateQueries({ queryKey: [...broadcastKeys.all, "recipients", progress.id] });
    },
    [queryClient],
  );
  const onReset = useCallback(() => void queryClient.invalidateQueries({ queryKey: broadcastKeys.all }), [queryClient]);
  useHubEvents(onEvent, onReset);
}

/** Starts, pauses or resumes a broadcast; the lists are refreshed whether it worked or not. */
export function useBroadcastAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: BroadcastAction }) => actOnBroadcast(id, action),
    onSuccess: (broadcast) => queryClient.setQueryData(broadcastKeys.detail(broadcast.id), broadcast),
    onSettled: () => queryClient.invalidateQueries({ queryKey: broadcastKeys.lists() }),
  });
}

/** Deletes a broadcast (one not finished is cancelled into history); toasts 'Deleted successfully.'. */
export function useDeleteBroadcast() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteBroadcast,
    onSuccess: async (_, id) => {
      notifySuccess("deleted");
      queryClient.removeQueries({ queryKey: broadcastKeys.detail(id) });
      await queryClient.invalidateQueries({ queryKey: broadcastKeys.lists() });
    },
  });
}

/** What a save sends: a new broadcast, or the changes of an existing one. */
export type SaveBroadcast = { id: null; input: BroadcastWriteBody } | { id: string; input: BroadcastUpdateBody };

/** Creates or edits a broadcast; toasts 'Created successfully.' or 'Changes saved.'. */
export function useSaveBroadcast() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (save: SaveBroadcast) => (save.id === null ? createBroadcast(save.input) : updateBroadcast(save.id, save.input)),
    onSuccess: async (broadcast, save) => {
      notifySuccess(save.id ? "edited" : "created");
      queryClient.setQueryData(broadcastKeys.detail(broadcast.id), broadcast);
      await queryClient.invalidateQueries({ queryKey: broadcastKeys.lists() });
    },
  });
}
