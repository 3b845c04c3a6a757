/**
 * The Kanban board (issue 4 "CRM board"): columns side by side, scrolling sideways; cards dragged
 * between and within columns, columns dragged to reorder (dnd-kit, mouse, touch and keyboard).
 * While a card is dragged the board shown is a local copy where the card follows the pointer from
 * column to column; on drop the move is committed optimistically to the query cache and sent.
 */
import { useMemo, useState } from "react";
import { useNavigate } from "react-router";
import {
  DndContext,
  DragOverlay,
  MeasuringStrategy,
  closestCenter,
  closestCorners,
  pointerWithin,
  rectIntersection,
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
  type DragOverEvent,
  type DragStartEvent,
  type UniqueIdentifier,
} from "@dnd-kit/core";
import { SortableContext, horizontalListSortingStrategy, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { useLingui } from "@lingui/react/macro";
import { useBoardSensors } from "../lib/sensors";
import type { CrmBoardColumn, CrmCardAnswer } from "../../../../../schema/api-types";
import {
  cardDragId,
  columnDragId,
  columnOfItem,
  findCard,
  moveColumn,
  parseDragId,
  placementFromOrder,
  reorderIds,
  samePlacement,
  shiftCardDuringDrag,
  type Board,
  type DragItem,
  type Placement,
} from "../lib/board";
import { useLoadMoreCards, useMoveCard, useRemoveCard, useReorderColumns } from "../hooks/use-crm-board";
import { CardOverlay, ColumnOverlay, SortableCard, SortableColumn } from "./board-parts";

/** Column drags only look at columns; card drags prefer the card under the pointer, then its column. */
const collisionDetection: CollisionDetection = (args) => {
  const active = parseDragId(args.active.id);
  if (active?.kind === "column") {
    return closestCenter({ ...args, droppableContainers: args.droppableContainers.filter((c) => parseDragId(c.id)?.kind === "column") });
  }
  const pointer = pointerWithin(args);
  const hits = pointer.length ? pointer : rectIntersection(args);
  const cards = hits.filter((hit) => parseDragId(hit.id)?.kind === "card");
  if (cards.length) return cards;
  if (hits.length) return hits;
  return closestCorners(args);
};

/** Props of {@link CrmBoard}. */
export type CrmBoardProps = {
  board: Board;
  canManage: boolean;
  onAddContact: (column: CrmBoardColumn) => void;
  onEditColumn: (column: CrmBoardColumn) => void;
  onDeleteColumn: (column: CrmBoardColumn) => void;
};

/** The board of columns and cards; read-only (no handles, no menus) unless `canManage`. */
export function CrmBoard({ board, canManage, onAddContact, onEditColumn, onDeleteColumn }: CrmBoardProps) {
  const { t } = useLingui();
  const move = useMoveCard();
  const remove = useRemoveCard();
  const reorder = useReorderColumns();
  const { loadMore, loading } = useLoadMoreCards();
  const navigate = useNavigate();
  const [dragBoard, setDragBoard] = useState<Board | null>(null);
  const [active, setActive] = useState<DragItem | null>(null);
  const shown = dragBoard ?? board;

  const sensors = useBoardSensors();

  const nameOf = (id: UniqueIdentifier | undefined): string => {
    const item = parseDragId(id);
    if (!item) return "";
    if (item.kind === "column") return shown.columns.find((column) => column.id === item.id)?.name ?? "";
    return findCard(shown, item.id)?.card.name ?? "";
  };
  const columnNameOf = (id: UniqueIdentifier | undefined): string => {
    const item = parseDragId(id);
    const columnId = item ? columnOfItem(shown, item) : null;
    return shown.columns.find((column) => column.id === columnId)?.name ?? "";
  };

  const announcements: Announcements = {
    onDragStart: ({ active: a }) => {
      const name = nameOf(a.id);
      return t`Picked up ${name}.`;
    },
    onDragOver: ({ active: a, over }) => {
      const name = nameOf(a.id);
      const column = columnNameOf(over?.id);
      return over ? t`${name} is over ${column}.` : t`${name} is no longer over a column.`;
    },
    onDragEnd: ({ active: a, over }) => {
      const name = nameOf(a.id);
      const column = columnNameOf(over?.id);
      return over ? t`${name} was dropped on ${column}.` : t`${name} was dropped.`;
    },
    onDragCancel: ({ active: a }) => {
      const name = nameOf(a.id);
      return t`Moving ${name} was cancelled.`;
    },
  };

  const sendCardMove = (card: CrmCardAnswer, placement: Placement) => {
    const before = findCard(board, card.id);
    if (before && before.columnId === placement.columnId) {
      const ids = board.columns.find((column) => column.id === before.columnId)?.contacts.map((c) => c.id) ?? [];
      if (samePlacement(placementFromOrder(before.columnId, ids, card.id), placement)) return;
    }
    move.mutate({ card, placement });
  };

  const onDragStart = ({ active: a }: DragStartEvent) => {
    setActive(parseDragId(a.id));
    setDragBoard(board);
  };

  const onDragOver = ({ active: a, over }: DragOverEvent) => {
    const item = parseDragId(a.id);
    const target = parseDragId(over?.id);
    if (item?.kind !== "card" || !target || !over) return;
    const translated = a.rect.current.translated;
    const below = translated !== null && translated.top > over.rect.top + over.rect.height / 2;
    setDragBoard((current) => (current ? shiftCardDuringDrag(current, item.id, target, below) : current));
  };

  const endDrag = () => {
    setDragBoard(null);
    setActive(null);
  };

  const onDragEnd = ({ active: a, over }: DragEndEvent) => {
    const item = parseDragId(a.id);
    const target = parseDragId(over?.id);
    const local = dragBoard ?? board;
    endDrag();
    if (!item || !target) return;
    if (item.kind === "column") {
      const overColumn = columnOfItem(board, target);
      if (!overColumn || overColumn === item.id) return;
      reorder.mutate(moveColumn(board, item.id, overColumn).columns.map((column) => column.id));
      return;
    }
    const found = findCard(local, item.id);
    if (!found) return;
    let ids = local.columns.find((column) => column.id === found.columnId)?.contacts.map((card) => card.id) ?? [];
    if (target.kind === "card" && ids.includes(target.id)) ids = reorderIds(ids, item.id, target.id);
    const original = findCard(board, item.id)?.card ?? found.card;
    sendCardMove(original, placementFromOrder(found.columnId, ids, item.id));
  };

  const activeCard = active?.kind === "card" ? (findCard(shown, active.id)?.card ?? null) : null;
  const activeColumn = active?.kind === "column" ? (shown.columns.find((column) => column.id === active.id) ?? null) : null;
  const columnIds = useMemo(() => shown.columns.map((column) => columnDragId(column.id)), [shown]);

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={collisionDetection}
      measuring={{ droppable: { strategy: MeasuringStrategy.Always } }}
      onDragStart={onDragStart}
      onDragOver={onDragOver}
      onDragEnd={onDragEnd}
      onDragCancel={endDrag}
      accessibility={{
        announcements,
        screenReaderInstructions: {
          draggable: t`To pick up an item, press Space or Enter. Use the arrow keys to move it, Space or Enter to drop it, and Escape to cancel.`,
        },
      }}
    >
      <div className="relative -mx-4 flex min-h-0 max-w-[100vw] min-w-0 flex-1 items-start gap-3 overflow-x-auto overscroll-x-contain px-4 pb-3 sm:mx-0 sm:max-w-none sm:px-0" data-testid="crm-board">
        <SortableContext items={columnIds} strategy={horizontalListSortingStrategy}>
          {shown.columns.map((column) => (
            <SortableColumn
              key={column.id}
              column={column}
              canManage={canManage}
              loadingMore={loading.has(column.id)}
              onLoadMore={() => {
                if (column.cursor) void loadMore(column.id, column.cursor);
              }}
              onAdd={() => onAddContact(column)}
              onEdit={() => onEditColumn(column)}
              onDelete={() => onDeleteColumn(column)}
            >
              <SortableContext items={column.contacts.map((card) => cardDragId(card.id))} strategy={verticalListSortingStrategy}>
                <ol className="grid gap-2" aria-label={t`Contacts in ${column.name}`}>
                  {column.contacts.map((card) => (
                    <SortableCard
                      key={card.id}
                      card={card}
                      columns={shown.columns}
                      canManage={canManage}
                      onMoveTo={(columnId) => sendCardMove(card, { columnId })}
                      onRemove={() => remove.mutate(card)}
                      onOpen={() => void navigate(`/contacts?contact=${encodeURIComponent(card.id)}`)}
                    />
                  ))}
                </ol>
              </SortableContext>
            </SortableColumn>
          ))}
        </SortableContext>
      </div>
      <DragOverlay>{activeCard ? <CardOverlay card={activeCard} /> : activeColumn ? <ColumnOverlay column={activeColumn} /> : null}</DragOverlay>
    </DndContext>
  );
}
