/**
 * CRM board hooks: the board query kept live through the company hub (`crm.columns` applies the
 * columns and reloads the cards; `crm.card` moves one card), per-column "load more", optimistic
 * card moves and column reorders rolled back when the call fails, column create/edit/delete, and
 * whether the viewer may manage the board (spec §6: `crm` views, `crm_manager` manages).
 */
import { useCallback, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { notifyError, notifySuccess } from "@/lib/notify";
import { useHubEvents } from "@/lib/realtime";
import { usePermissions } from "@/features/session/hooks/use-session";
import type { HubEvent } from "../../../../../schema/realtime";
import type { CrmCardAnswer } from "../../../../../schema/api-types";
import {
  boardQuery,
  createColumn,
  crmKeys,
  deleteColumn,
  fetchColumnCards,
  moveContact,
  reorderColumns,
  updateColumn,
  type ColumnInput,
} from "../api/crm-api";
import { appendPage, applyCardEvent, applyColumns, orderColumns, planMove, type Board, type MovePlan, type Placement } from "../lib/board";

/** The board, kept in step with every other member's changes while the screen is open. */
export function useCrmBoard() {
  const queryClient = useQueryClient();
  const query = useQuery(boardQuery());
  const onEvent = useCallback(
    (event: HubEvent) => {
      if (event.type === "crm.columns") {
        queryClient.setQueryData<Board>(crmKeys.board(), (board) => (board ? applyColumns(board, event.columns) : board));
        void queryClient.invalidateQueries({ queryKey: crmKeys.board() });
      } else if (event.type === "crm.card") {
        queryClient.setQueryData<Board>(crmKeys.board(), (board) => (board ? applyCardEvent(board, event) : board));
      }
    },
    [queryClient],
  );
  useHubEvents(onEvent, () => void queryClient.invalidateQueries({ queryKey: crmKeys.board() }));
  return query;
}

/** Whether the viewer may change the board (`crm_manager`); `ready` once permissions are known. */
export function useCrmAccess(): { canManage: boolean; ready: boolean } {
  const permissions = usePermissions();
  return { canManage: permissions.data?.has("crm_manager") === true, ready: permissions.data !== undefined };
}

/** Loads a column's next page into the board; `loading` holds the ids of columns loading now. */
export function useLoadMoreCards() {
  const queryClient = useQueryClient();
  const [loading, setLoading] = useState<ReadonlySet<string>>(new Set());
  const loadMore = useCallback(
    async (columnId: string, cursor: string) => {
      setLoading((current) => new Set(current).add(columnId));
      try {
        const page = await fetchColumnCards(columnId, cursor);
        queryClient.setQueryData<Board>(crmKeys.board(), (board) => {
          const column = board?.columns.find((c) => c.id === columnId);
          // A refetch or another page got there first: this page no longer follows what is shown.
          if (!board || column?.cursor !== cursor) return board;
          return appendPage(board, columnId, page);
        });
      } catch (error) {
        notifyError(error);
      } finally {
        setLoading((current) => {
          const next = new Set(current);
          next.delete(columnId);
          return next;
        });
      }
    },
    [queryClient],
  );
  return { loadMore, loading };
}

/**
 * Moves a contact's card (or puts a contact on the board): shown at once, sent as PUT
 * /api/crm/contacts/{id}, put back where it was with an error toast when the call fails.
 */
export function useMoveCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ card, placement }: { card: CrmCardAnswer; placement: Placement; fromColumnId?: string | null }) => moveContact(card.id, placement),
    onMutate: async ({ card, placement, fromColumnId }): Promise<{ plan: MovePlan | null }> => {
      await queryClient.cancelQueries({ queryKey: crmKeys.board() });
      const board = queryClient.getQueryData<Board>(crmKeys.board());
      if (!board) return { plan: null };
      const plan = planMove(board, card, placement, fromColumnId ?? null);
      queryClient.setQueryData<Board>(crmKeys.board(), plan.next);
      return { plan };
    },
    onError: (error, _variables, context) => {
      const plan = context?.plan;
      if (plan) queryClient.setQueryData<Board>(crmKeys.board(), (board) => (board ? plan.rollback(board) : board));
      notifyError(error);
    },
    onSuccess: (answer, { placement }) => {
      // The worker's position replaces the provisional one (the hub's echo does the same).
      queryClient.setQueryData<Board>(crmKeys.board(), (board) =>
        board ? applyCardEvent(board, { contactId: answer.contactId, fromColumnId: placement.columnId, card: answer.card }) : board,
      );
    },
  });
}

/** Takes a contact off the board (PUT … {columnId: null}); toasts the error. */
export function useRemoveCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (card: CrmCardAnswer) => moveContact(card.id, null),
    onSuccess: (_answer, card) => {
      queryClient.setQueryData<Board>(crmKeys.board(), (board) =>
        board ? applyCardEvent(board, { contactId: card.id, fromColumnId: card.columnId, card: null }) : board,
      );
    },
    onError: (error) => notifyError(error),
  });
}

/** Reorders the columns: shown at once, sent as PUT /api/crm/columns/order, undone on failure. */
export function useReorderColumns() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => reorderColumns(ids),
    onMutate: async (ids): Promise<{ previous: string[] }> => {
      await queryClient.cancelQueries({ queryKey: crmKeys.board() });
      const board = queryClient.getQueryData<Board>(crmKeys.board());
      queryClient.setQueryData<Board>(crmKeys.board(), (current) => (current ? orderColumns(current, ids) : current));
      return { previous: board?.columns.map((column) => column.id) ?? [] };
    },
    onError: (error, _ids, context) => {
      const previous = context?.previous;
      if (previous) queryClient.setQueryData<Board>(crmKeys.board(), (board) => (board ? orderColumns(board, previous) : board));
      notifyError(error);
    },
    onSuccess: (columns) => {
      queryClient.setQueryData<Board>(crmKeys.board(), (board) => (board ? applyColumns(board, columns) : board));
    },
  });
}

/** Creates (no `id`) or edits a column; toasts 'Created successfully.' or 'Changes saved.'. */
export function useSaveColumn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string | null; input: ColumnInput }) => (id ? updateColumn(id, input) : createColumn(input)),
    onSuccess: (column, { id }) => {
      notifySuccess(id ? "edited" : "created");
      queryClient.setQueryData<Board>(crmKeys.board(), (board) => {
        if (!board) return board;
        const exists = board.columns.some((c) => c.id === column.id);
        return applyColumns(board, exists ? board.columns.map((c) => (c.id === column.id ? column : c)) : [...board.columns, column]);
      });
    },
  });
}

/** Deletes a column (its contacts leave the board); toasts 'Deleted successfully.' or the error. */
export function useDeleteColumn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteColumn(id),
    onSuccess: (_answer, id) => {
      notifySuccess("deleted");
      queryClient.setQueryData<Board>(crmKeys.board(), (board) => (board ? applyColumns(board, board.columns.filter((c) => c.id !== id)) : board));
    },
    onError: (error) => notifyError(error),
  });
}
