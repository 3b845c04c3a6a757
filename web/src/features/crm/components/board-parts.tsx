/**
 * The pieces of the CRM board: a contact's card and a column, each sortable with dnd-kit (a card's
 * handle is a button stretched over its whole body, a column's a grip button in its header, so mouse, touch and keyboard — Space to lift, arrows to move, Space to drop,
 * Escape to cancel — all work), plus plain versions for the drag overlay. Read-only viewers get
 * neither handles nor menus.
 */
import { useEffect, useRef, type CSSProperties, type ReactNode } from "react";
import { useSortable } from "@dnd-kit/sortable";
import { Plural, useLingui } from "@lingui/react/macro";
import { ArrowRightLeft, GripVertical, MoreHorizontal, Pencil, Plus, Trash2, UserMinus } from "lucide-react";
import { Avatar } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/lib/utils";
import type { CrmBoardColumn, CrmCardAnswer } from "../../../../../schema/api-types";
import { cardDragId, columnDragId } from "../lib/board";
import { formatPhone } from "@/lib/phone";

/** Most tags shown on a card; the rest are counted. */
const MAX_TAGS = 3;

function translate(transform: ReturnType<typeof useSortable>["transform"]): string | undefined {
  return transform ? `translate3d(${Math.round(transform.x)}px, ${Math.round(transform.y)}px, 0)` : undefined;
}

function CardBody({ card, handle, menu }: { card: CrmCardAnswer; handle?: ReactNode; menu?: ReactNode }) {
  const { t } = useLingui();
  const extra = card.tags.length - MAX_TAGS;
  return (
    <div className="flex items-start gap-2 p-2.5">
      {handle}
      <Avatar name={card.name} src={card.image} className="mt-0.5 size-8" />
      <div className="grid min-w-0 flex-1 gap-1">
        <p className="truncate text-sm font-medium">{card.name}</p>
        {card.phone ? <p className="truncate text-xs text-muted-foreground">{formatPhone(card.phone)}</p> : null}
        {card.tags.length ? (
          <ul className="flex flex-wrap gap-1" aria-label={t`Tags`}>
            {card.tags.slice(0, MAX_TAGS).map((tag) => (
              <li
                key={tag.id}
                className="inline-flex max-w-full items-center gap-1 truncate rounded-full border px-1.5 py-0.5 text-[11px] leading-none"
                style={{ borderColor: `${tag.color}66`, backgroundColor: `${tag.color}1a` }}
              >
                <span className="size-1.5 shrink-0 rounded-full" style={{ backgroundColor: tag.color }} aria-hidden />
                <span className="truncate">{tag.name}</span>
              </li>
            ))}
            {extra > 0 ? <li className="px-1 text-[11px] text-muted-foreground">+{extra}</li> : null}
          </ul>
        ) : null}
      </div>
      {menu}
    </div>
  );
}

const cardClass = "rounded-lg border bg-card text-card-foreground shadow-xs";

/** Props of {@link SortableCard}. */
export type SortableCardProps = {
  card: CrmCardAnswer;
  columns: readonly CrmBoardColumn[];
  canManage: boolean;
  onMoveTo: (columnId: string) => void;
  onRemove: () => void;
  /** Opens the contact (a click or tap on the card that did not become a drag). */
  onOpen: () => void;
};

/**
 * A contact's card: avatar or initials, name, phone and tags. Managers drag it by its whole body
 * ("Move contact {name}": mouse after 5 px, a finger after a 250 ms hold, Space/Enter on the
 * focused card — see ../lib/sensors) or use its menu to move it to a column or off the board; a
 * click or tap that does not become a drag opens the contact.
 */
export function SortableCard({ card, columns, canManage, onMoveTo, onRemove, onOpen }: SortableCardProps) {
  const { t } = useLingui();
  const name = card.name;
  const sortable = useSortable({ id: cardDragId(card.id), disabled: !canManage, attributes: { roleDescription: t`draggable card` } });
  const style: CSSProperties = { transform: translate(sortable.transform), transition: sortable.transition };
  const others = columns.filter((column) => column.id !== card.columnId);
  return (
    <li ref={sortable.setNodeRef} style={style} className={cn(sortable.isDragging && "opacity-40")}>
      <article aria-label={t`Contact ${name}`} data-testid="crm-card" className={cn(cardClass, "relative")}>
        <CardBody
          card={card}
          handle={
            <button
              type="button"
              ref={canManage ? sortable.setActivatorNodeRef : undefined}
              {...(canManage ? sortable.attributes : {})}
              {...(canManage ? sortable.listeners : {})}
              onClick={onOpen}
              aria-label={canManage ? t`Move contact ${name}` : t`Open contact ${name}`}
              className={cn(
                "absolute inset-0 rounded-lg outline-none focus-visible:ring-2 focus-visible:ring-ring",
                canManage ? "cursor-grab touch-manipulation active:cursor-grabbing" : "cursor-pointer",
              )}
            />
          }
          menu={
            canManage ? (
              <DropdownMenu>
                <DropdownMenuTrigger asChild>
                  <Button variant="ghost" size="icon" className="relative z-10 -mr-1 size-7 shrink-0" aria-label={t`Actions for ${name}`}>
                    <MoreHorizontal />
                  </Button>
                </DropdownMenuTrigger>
                <DropdownMenuContent>
                  {others.length ? (
                    <>
                      <DropdownMenuLabel>{t`Move to`}</DropdownMenuLabel>
                      {others.map((column) => (
                        <DropdownMenuItem key={column.id} onSelect={() => onMoveTo(column.id)}>
                          <ArrowRightLeft aria-hidden />
                          <span className="size-2 shrink-0 rounded-full" style={{ backgroundColor: column.color }} aria-hidden />
                          <span className="truncate">{column.name}</span>
                        </DropdownMenuItem>
                      ))}
                      <DropdownMenuSeparator />
                    </>
                  ) : null}
                  <DropdownMenuItem onSelect={onRemove} className="text-destructive focus:text-destructive">
                    <UserMinus aria-hidden />
                    {t`Remove from board`}
                  </DropdownMenuItem>
                </DropdownMenuContent>
              </DropdownMenu>
            ) : null
          }
        />
      </article>
    </li>
  );
}

/** The card as it follows the pointer while dragged. */
export function CardOverlay({ card }: { card: CrmCardAnswer }) {
  return (
    <div className={cn(cardClass, "w-68 cursor-grabbing shadow-lg ring-2 ring-primary/40")}>
      <CardBody card={card} />
    </div>
  );
}

function LoadMore({ loading, onLoad }: { loading: boolean; onLoad: () => void }) {
  const { t } = useLingui();
  const ref = useRef<HTMLButtonElement>(null);
  const onLoadRef = useRef(onLoad);
  onLoadRef.current = onLoad;
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) onLoadRef.current();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return (
    <Button ref={ref} variant="ghost" size="sm" className="w-full" onClick={onLoad} disabled={loading}>
      {loading ? <Spinner /> : null}
      {t`Load more`}
    </Button>
  );
}

/** Props of {@link SortableColumn}. */
export type SortableColumnProps = {
  column: CrmBoardColumn;
  canManage: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  onAdd: () => void;
  onEdit: () => void;
  onDelete: () => void;
  children: ReactNode;
};

/**
 * A column: a region named after it, its colour, name and count, its cards (loaded page by page as
 * the list scrolls), and for managers a handle ("Move column {name}"), a menu (edit, delete) and
 * "Add contact to {name}".
 */
export function SortableColumn({ column, canManage, loadingMore, onLoadMore, onAdd, onEdit, onDelete, children }: SortableColumnProps) {
  const { t } = useLingui();
  const name = column.name;
  const total = column.total;
  const sortable = useSortable({
    id: columnDragId(column.id),
    disabled: { draggable: !canManage, droppable: false },
    attributes: { roleDescription: t`draggable column` },
  });
  const style: CSSProperties = { transform: translate(sortable.transform), transition: sortable.transition };
  return (
    <section
      ref={sortable.setNodeRef}
      style={style}
      aria-label={name}
      data-testid="crm-column"
      className={cn(
        "flex max-h-[calc(100dvh-12rem)] min-h-40 w-72 shrink-0 flex-col rounded-xl border bg-muted/40 dark:bg-muted/20",
        sortable.isDragging && "opacity-40",
      )}
    >
      <header className="flex items-center gap-1.5 border-b px-2 py-2">
        {canManage ? (
          <button
            type="button"
            ref={sortable.setActivatorNodeRef}
            {...sortable.attributes}
            {...sortable.listeners}
            aria-label={t`Move column ${name}`}
            className="flex h-7 w-5 shrink-0 cursor-grab touch-none items-center justify-center rounded text-muted-foreground outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring active:cursor-grabbing"
          >
            <GripVertical className="size-4" aria-hidden />
          </button>
        ) : null}
        <span className="ml-1 size-2.5 shrink-0 rounded-full" style={{ backgroundColor: column.color }} aria-hidden />
        <h2 className="min-w-0 flex-1 truncate text-sm font-semibold">{name}</h2>
        <span className="shrink-0 rounded-full bg-background px-2 py-0.5 text-xs text-muted-foreground tabular-nums">
          <span aria-hidden>{total}</span>
          <span className="sr-only">
            <Plural value={total} one="# contact" other="# contacts" />
          </span>
        </span>
        {canManage ? (
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button variant="ghost" size="icon" className="size-7" aria-label={t`Actions for column ${name}`}>
                <MoreHorizontal />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent>
              <DropdownMenuItem onSelect={onEdit}>
                <Pencil aria-hidden />
                {t`Edit column`}
              </DropdownMenuItem>
              <DropdownMenuItem onSelect={onDelete} className="text-destructive focus:text-destructive">
                <Trash2 aria-hidden />
                {t`Delete column`}
              </DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>
        ) : null}
      </header>
      <div className="min-h-24 flex-1 overflow-y-auto p-2">
        {children}
        {column.contacts.length === 0 && !column.cursor ? (
          <p className="px-2 py-6 text-center text-xs text-muted-foreground">{canManage ? t`Drop contacts here` : t`No contacts`}</p>
        ) : null}
        {column.cursor ? (
          <div className="pt-2">
            <LoadMore loading={loadingMore} onLoad={() => (loadingMore ? undefined : onLoadMore())} />
          </div>
        ) : null}
      </div>
      {canManage ? (
        <footer className="border-t p-2">
          <Button variant="ghost" size="sm" className="w-full justify-start" onClick={onAdd} aria-label={t`Add contact to ${name}`}>
            <Plus />
            {t`Add contact`}
          </Button>
        </footer>
      ) : null}
    </section>
  );
}

/** The column as it follows the pointer while dragged. */
export function ColumnOverlay({ column }: { column: CrmBoardColumn }) {
  return (
    <div className="flex w-72 items-center gap-2 rounded-xl border bg-card px-3 py-2.5 shadow-lg ring-2 ring-primary/40">
      <GripVertical className="size-4 text-muted-foreground" aria-hidden />
      <span className="size-2.5 rounded-full" style={{ backgroundColor: column.color }} aria-hidden />
      <span className="truncate text-sm font-semibold">{column.name}</span>
      <span className="ml-auto text-xs text-muted-foreground tabular-nums">{column.total}</span>
    </div>
  );
}
