/**
 * The folders screen's mutations (create, rename, duplicate, move, delete a builder or a folder),
 * each refreshing the flow builder's lists and toasting the spec §8 message.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { notifyError, notifySuccess } from "@/lib/notify";
import type { FlowType } from "../../../../../schema/flow-builders";
import { createFlow, createFolder, deleteFlow, deleteFolder, duplicateFlow, flowKeys, moveFlow, updateFlow, updateFolder, type FlowUpdate } from "../api/flows-api";
import { copyName } from "../lib/copy-name";

/** One mutation of the folders screen, refreshing every flow list when done. */
function useFlowMutation<TInput, TAnswer>(run: (input: TInput) => Promise<TAnswer>, success: "created" | "edited" | "deleted" | null, toastErrors = true) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: async () => {
      if (success) notifySuccess(success);
      await queryClient.invalidateQueries({ queryKey: flowKeys.all });
    },
    onError: toastErrors ? (error) => notifyError(error) : undefined,
  });
}

/** POST /api/folders. Errors go to the form. */
export const useCreateFolder = () => useFlowMutation((input: { name: string; parentId: string | null }) => createFolder(input.name, input.parentId), "created", false);
/** PUT /api/folders/{id}. Errors go to the form. */
export const useRenameFolder = () => useFlowMutation((input: { id: string; name: string }) => updateFolder(input.id, { name: input.name }), "edited", false);
/** DELETE /api/folders/{id} (409 while not empty: the caller explains). */
export const useDeleteFolder = () => useFlowMutation((id: string) => deleteFolder(id), "deleted", false);
/** POST /api/flows. Errors go to the form. */
export const useCreateFlow = () => useFlowMutation((input: { name: string; type: FlowType; folderId: string | null }) => createFlow(input), "created", false);
/** PUT /api/flows/{id} (rename, type, sharing). Errors go to the form. */
export const useUpdateFlow = (success: "edited" | null = "edited") => useFlowMutation((input: { id: string; update: FlowUpdate }) => updateFlow(input.id, input.update), success, false);
/** POST /api/flows/{id}/duplicate, the copy named "<name> (copy)" in the user's language. */
export const useDuplicateFlow = () => useFlowMutation((flow: { id: string; name: string }) => duplicateFlow(flow.id, copyName(flow.name)), "created");
/** POST /api/flows/{id}/move. */
export const useMoveFlow = () => useFlowMutation((input: { id: string; folderId: string | null }) => moveFlow(input.id, input.folderId), "edited");
/** DELETE /api/flows/{id}. */
export const useDeleteFlow = () => useFlowMutation((id: string) => deleteFlow(id), "deleted");
