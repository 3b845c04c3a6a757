/**
 * The palette: the 22 block types in their five categories (spec §3). Drag one onto the canvas, or
 * click it ("Add <block>"): it goes after the selected block, connected from its first free output,
 * or in the middle of the view. A flow has one start block, so Start is offered only when it has none.
 * Labels wrap onto a second line rather than being cut (long names in pt-BR and es).
 */
import type { DragEvent } from "react";
import { useLingui } from "@lingui/react/macro";
import { BLOCK_CATEGORIES, blockTypesOf, type BlockType } from "../../../../../../schema/flows";
import { BLOCK_HINTS, BLOCK_LABELS, CATEGORY_LABELS } from "../../lib/labels";
import { BLOCK_ICONS } from "./block-icons";

/** The drag-and-drop data type of a palette item. */
export const BLOCK_DRAG_TYPE = "application/x-conversa-block";

/** The palette; `onAdd` adds a block of the clicked type. */
export function Palette({ onAdd, hasStart }: { onAdd: (type: BlockType) => void; hasStart: boolean }) {
  const { t, i18n } = useLingui();
  const startDrag = (event: DragEvent<HTMLButtonElement>, type: BlockType) => {
    event.dataTransfer.setData(BLOCK_DRAG_TYPE, type);
    event.dataTransfer.effectAllowed = "move";
  };
  return (
    <nav aria-label={t`Blocks`} className="grid content-start gap-4 p-3">
      {BLOCK_CATEGORIES.map((category) => (
        <section key={category} className="grid gap-1.5">
          <h2 className="px-1 text-xs font-semibold tracking-wide text-muted-foreground uppercase">{i18n._(CATEGORY_LABELS[category])}</h2>
          <ul className="grid grid-cols-2 gap-1.5">
            {blockTypesOf(category).map((type) => {
                const Icon = BLOCK_ICONS[type];
                const label = i18n._(BLOCK_LABELS[type]);
                return (
                  <li key={type}>
                    <button
                      type="button"
                      draggable={!(type === "start" && hasStart)}
                      disabled={type === "start" && hasStart}
                      onDragStart={(event) => startDrag(event, type)}
                      onClick={() => onAdd(type)}
                      aria-label={t`Add ${label}`}
                      title={i18n._(BLOCK_HINTS[type])}
                      data-testid={`palette-${type}`}
                      className="flex h-full min-h-8 w-full items-center gap-2 rounded-md border bg-background px-2 py-1.5 text-left text-xs leading-tight outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-50"
                    >
                      <Icon className="size-3.5 shrink-0 text-muted-foreground" aria-hidden />
                      <span className="min-w-0 break-words hyphens-auto">{label}</span>
                    </button>
                  </li>
                );
              })}
          </ul>
        </section>
      ))}
    </nav>
  );
}
