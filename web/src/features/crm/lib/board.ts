/**
 * Pure state of the CRM board (issue 4 "CRM board"; worker/routes/crm.ts): the board as GET
 * /api/crm/board answers it, with further pages of a column appended in place, and every change
 * applied to it — the hub's `crm.columns` and `crm.card` events, optimistic moves (and their
 * rollback), column reorders — as functions that answer a new board and never mutate their input.
 *
 * Cards of a column are kept in the worker's order `(position, id)`. A column whose `cursor` is not
 * null has cards not loaded yet after its last loaded card; a card that sorts there is counted in
 * `total` but not shown, so "load more" never shows it twice or out of order.
 */
import type { CrmBoardColumn, CrmCardAnswer, CrmColumnAnswer, Page } from "../../../../../schema/api-types";

/** The board: its columns in order, each with its loaded cards, `cursor` and `total`. */
export type Board = { columns: CrmBoardColumn[] };

/** The hub's `crm.card` event body (schema/realtime.ts). */
export type CardEvent = { contactId: string; fromColumnId: string | null; card: CrmCardAnswer | null };

/**
 * Where a card goes: its column and, optionally, the card it goes before or after (neither: the
 * end of the column). The body of PUT /api/crm/contacts/{contactId}.
 */
export type Placement = { columnId: string; beforeId?: string; afterId?: string };

/** The worker's card order: position, then id. */
export function compareCards(a: Pick<CrmCardAnswer, "position" | "id">, b: Pick<CrmCardAnswer, "position" | "id">): number {
  if (a.position !== b.position) return a.position - b.position;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Where a contact's card is on the loaded board, or null. */
export function findCard(board: Board, contactId: string): { columnId: string; index: number; card: CrmCardAnswer } | null {
  for (const column of board.columns) {
    const index = column.contacts.findIndex((card) => card.id === contactId);
    const card = column.contacts[index];
    if (card) return { columnId: column.id, index, card };
  }
  return null;
}

function withColumn(board: Board, columnId: string, change: (column: CrmBoardColumn) => CrmBoardColumn): Board {
  let changed = false;
  const columns = board.columns.map((column) => {
    if (column.id !== columnId) return column;
    changed = true;
    return change(column);
  });
  return changed ? { columns } : board;
}

/**
 * The board without a contact's card. When the card is loaded its column loses one from `total`;
 * otherwise `fromColumnId` (where the worker says it was) does, since it sat in the unloaded tail.
 */
export function removeCard(board: Board, contactId: string, fromColumnId: string | null = null): Board {
  const found = findCard(board, contactId);
  if (found) {
    return withColumn(board, found.columnId, (column) => ({
      ...column,
      contacts: column.contacts.filter((card) => card.id !== contactId),
      total: Math.max(0, column.total - 1),
    }));
  }
  if (fromColumnId) return withColumn(board, fromColumnId, (column) => ({ ...column, total: Math.max(0, column.total - 1) }));
  return board;
}

/**
 * The board with `card` added to its column (`card.columnId`) in `(position, id)` order; a card that
 * sorts after the last loaded one of a partly loaded column is only counted. An unknown column
 * leaves the board as it is.
 */
export function insertCard(board: Board, card: CrmCardAnswer): Board {
  return withColumn(board, card.columnId, (column) => {
    const contacts = column.contacts.filter((other) => other.id !== card.id);
    const at = contacts.findIndex((other) => compareCards(card, other) < 0);
    const total = column.total + 1;
    if (at < 0) {
      if (column.cursor !== null) return { ...column, contacts, total };
      return { ...column, contacts: [...contacts, card], total };
    }
    return { ...column, contacts: [...contacts.slice(0, at), card, ...contacts.slice(at)], total };
  });
}

/**
 * A `crm.card` event applied: the card leaves wherever this board has it (or its former column's
 * count drops) and, unless it left the board, joins its column in order. Applying the echo of a
 * move this tab already made optimistically gives the same board with the worker's position.
 */
export function applyCardEvent(board: Board, event: CardEvent): Board {
  const without = removeCard(board, event.contactId, event.fromColumnId);
  return event.card ? insertCard(without, event.card) : without;
}

/**
 * A `crm.columns` event applied: the columns in the worker's order with their new names and
 * colours, known columns keeping their loaded cards, new ones empty, deleted ones gone.
 */
export function applyColumns(board: Board, columns: readonly CrmColumnAnswer[]): Board {
  const known = new Map(board.columns.map((column) => [column.id, column]));
  return {
    columns: columns.map((column) => {
      const current = known.get(column.id);
      return current
        ? { ...current, name: column.name, color: column.color, position: column.position }
        : { ...column, contacts: [], cursor: null, total: 0 };
    }),
  };
}

/**
 * The next page of a column appended. Cards already on the board (moved there live since the page
 * was asked for) are skipped, so no card shows twice.
 */
export function appendPage(board: Board, columnId: string, page: Page<CrmCardAnswer>): Board {
  const shown = new Set(board.columns.flatMap((column) => column.contacts.map((card) => card.id)));
  return withColumn(board, columnId, (column) => ({
    ...column,
    contacts: [...column.contacts, ...page.results.filter((card) => !shown.has(card.id))],
    cursor: page.cursor,
    total: page.total,
  }));
}

/**
 * The placement of `contactId` given the final order of its column's card ids (the card among
 * them): before the card that follows it, else after the one before it, else the column's end.
 */
export function placementFromOrder(columnId: string, ids: readonly string[], contactId: string): Placement {
  const index = ids.indexOf(contactId);
  if (index < 0) return { columnId };
  const next = ids[index + 1];
  if (next !== undefined) return { columnId, beforeId: next };
  const previous = ids[index - 1];
  if (previous !== undefined) return { columnId, afterId: previous };
  return { columnId };
}

/** A position strictly between the neighbours' (±1 at an end), like the worker gives. */
function provisionalPosition(before: CrmCardAnswer | undefined, after: CrmCardAnswer | undefined): number {
  if (before && after) return (before.position + after.position) / 2;
  if (before) return before.position + 1;
  if (after) return after.position - 1;
  return 1;
}

/**
 * The board after putting `card` at `placement` (the optimistic side of PUT /api/crm/contacts):
 * the card leaves its place, then goes before/after its neighbour with a provisional position
 * between theirs, or at the column's end (only counted when the column is partly loaded). A
 * neighbour that is not loaded puts it at the end. An unknown column only removes the card.
 * `fromColumnId`: the column the card is on when it is not loaded (its count drops).
 */
export function applyMove(board: Board, card: CrmCardAnswer, placement: Placement, fromColumnId: string | null = null): Board {
  const without = removeCard(board, card.id, fromColumnId);
  return withColumn(without, placement.columnId, (column) => {
    const contacts = column.contacts;
    const neighbourId = placement.beforeId ?? placement.afterId;
    let at = neighbourId ? contacts.findIndex((other) => other.id === neighbourId) : -1;
    if (at >= 0 && placement.afterId) at += 1;
    const total = column.total + 1;
    if (at < 0) {
      if (column.cursor !== null) return { ...column, total };
      at = contacts.length;
    }
    const moved: CrmCardAnswer = { ...card, columnId: column.id, position: provisionalPosition(contacts[at - 1], contacts[at]) };
    return { ...column, contacts: [...contacts.slice(0, at), moved, ...contacts.slice(at)], total };
  });
}

/** An optimistic move: the board to show now and how to undo it on a failed call. */
export type MovePlan = {
  /** The board with the card already moved. */
  next: Board;
  /** Puts the card back where it was (or off the board) on the board as it is by then. */
  rollback: (current: Board) => Board;
};

/**
 * Plans the optimistic move of `card` to `placement`. The rollback re-applies the card's former
 * state as a `crm.card` event, so live changes that arrived meanwhile are kept. (A card that was
 * not loaded comes back only as a count: the worker's echo or a reload shows it again.)
 */
export function planMove(board: Board, card: CrmCardAnswer, placement: Placement, fromColumnId: string | null = null): MovePlan {
  const original = findCard(board, card.id)?.card ?? null;
  return {
    next: applyMove(board, card, placement, fromColumnId),
    rollback: (current) => applyCardEvent(current, { contactId: card.id, fromColumnId: placement.columnId, card: original }),
  };
}

/** The board with the column `activeId` moved to where `overId` is (dnd-kit's arrayMove semantics). */
export function moveColumn(board: Board, activeId: string, overId: string): Board {
  const from = board.columns.findIndex((column) => column.id === activeId);
  const to = board.columns.findIndex((column) => column.id === overId);
  const moving = board.columns[from];
  if (from < 0 || to < 0 || from === to || !moving) return board;
  const columns = board.columns.filter((column) => column.id !== activeId);
  columns.splice(to, 0, moving);
  return { columns };
}

/** The board's columns put in the order of `ids` (ids not on the board are ignored; missing columns keep their place at the end). */
export function orderColumns(board: Board, ids: readonly string[]): Board {
  const rank = new Map(ids.map((id, index) => [id, index]));
  const columns = [...board.columns].sort((a, b) => (rank.get(a.id) ?? Infinity) - (rank.get(b.id) ?? Infinity));
  return { columns };
}

/** What a dnd-kit id stands for: a column (`column:<id>`) or a card (`card:<id>`). */
export type DragItem = { kind: "column" | "card"; id: string };

/** The dnd-kit id of a column. */
export const columnDragId = (id: string) => `column:${id}`;
/** The dnd-kit id of a card. */
export const cardDragId = (id: string) => `card:${id}`;

/** Reads a dnd-kit id made by {@link columnDragId} or {@link cardDragId}; null for anything else. */
export function parseDragId(value: string | number | null | undefined): DragItem | null {
  if (typeof value !== "string") return null;
  const colon = value.indexOf(":");
  const kind = value.slice(0, colon);
  const id = value.slice(colon + 1);
  if (colon < 0 || !id) return null;
  if (kind === "column" || kind === "card") return { kind, id };
  return null;
}

/** The column a drag target belongs to: the column itself, or the column holding the card. */
export function columnOfItem(board: Board, item: DragItem): string | null {
  if (item.kind === "column") return board.columns.some((column) => column.id === item.id) ? item.id : null;
  return findCard(board, item.id)?.columnId ?? null;
}

/**
 * While a card is dragged over another column, the card shown there (dnd-kit's "multiple
 * containers" pattern): moved before the card under it (after it when `below`), or at the end
 * when over the column itself. Within its own column the sortable list shifts it, so the board is
 * answered unchanged.
 */
export function shiftCardDuringDrag(board: Board, contactId: string, over: DragItem, below: boolean): Board {
  const from = findCard(board, contactId);
  const toColumnId = columnOfItem(board, over);
  if (!from || !toColumnId || from.columnId === toColumnId) return board;
  const without = removeCard(board, contactId);
  return withColumn(without, toColumnId, (column) => {
    let at = over.kind === "card" ? column.contacts.findIndex((card) => card.id === over.id) : -1;
    if (at < 0) at = column.contacts.length;
    else if (below) at += 1;
    const moved = { ...from.card, columnId: column.id };
    return { ...column, contacts: [...column.contacts.slice(0, at), moved, ...column.contacts.slice(at)], total: column.total + 1 };
  });
}

/** The column's card ids with `activeId` moved to where `overId` is (same column; arrayMove semantics). */
export function reorderIds(ids: readonly string[], activeId: string, overId: string): string[] {
  const from = ids.indexOf(activeId);
  const to = ids.indexOf(overId);
  if (from < 0 || to < 0 || from === to) return [...ids];
  const next = ids.filter((id) => id !== activeId);
  next.splice(to, 0, activeId);
  return next;
}

/** Whether two placements put a card at the same spot. */
export function samePlacement(a: Placement, b: Placement): boolean {
  return a.columnId === b.columnId && a.beforeId === b.beforeId && a.afterId === b.afterId;
}
