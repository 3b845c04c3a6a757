/**
 * The slide-over of the block being edited (spec §2 "each entity is edited in a slide-over form"):
 * non-modal, so the canvas stays usable beside it, and placed below the editor's toolbar so Publish
 * stays reachable; its problems on top, the type's form, delete.
 */
import { useLingui } from "@lingui/react/macro";
import { AlertTriangle, Trash2, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "@/components/ui/sheet";
import { BLOCKS } from "../../../../../../schema/flows";
import { BLOCK_HINTS, BLOCK_LABELS, problemText } from "../../lib/labels";
import { useBlock, useBlockProblems, useEditor } from "../../store/editor-store";
import { BLOCK_ICONS } from "./block-icons";
import { BlockForm } from "./block-forms";

function SheetBody({ id }: { id: string }) {
  const { t, i18n } = useLingui();
  const node = useBlock(id);
  const problems = useBlockProblems(id);
  const formRevision = useEditor((state) => state.formRevision);
  const setEditing = useEditor((state) => state.setEditing);
  const deleteBlock = useEditor((state) => state.deleteBlock);
  if (!node) return null;
  const Icon = BLOCK_ICONS[node.type];
  const label = i18n._(BLOCK_LABELS[node.type]);
  return (
    <>
      <div className="flex items-start justify-between gap-3 border-b p-4">
        <div className="flex min-w-0 items-start gap-3">
          <span className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-md bg-muted" aria-hidden>
            <Icon className="size-4" />
          </span>
          <div className="grid gap-0.5">
            <SheetTitle className="text-base leading-tight font-semibold">{t`Edit ${label}`}</SheetTitle>
            <SheetDescription className="text-xs text-muted-foreground">{i18n._(BLOCK_HINTS[node.type])}</SheetDescription>
          </div>
        </div>
        <Button variant="ghost" size="icon" aria-label={t`Close`} onClick={() => setEditing(null)}>
          <X />
        </Button>
      </div>
      <div className="grid flex-1 content-start gap-4 overflow-y-auto p-4">
        {problems.length ? (
          <ul className="grid gap-1 rounded-md border border-amber-500/40 bg-amber-500/10 p-3 text-xs" aria-label={t`Problems`}>
            {problems.map((problem, index) => (
              <li key={`${problem.code}-${problem.path ?? problem.detail ?? index}`} className="flex gap-2">
                <AlertTriangle className="mt-0.5 size-3.5 shrink-0 text-amber-600" aria-hidden />
                <span>{problemText(i18n, problem)}</span>
              </li>
            ))}
          </ul>
        ) : null}
        <BlockForm key={`${node.id}:${formRevision}`} node={node} />
      </div>
      <div className="flex justify-between gap-2 border-t p-4">
        {BLOCKS[node.type].hasInput ? (
          <Button type="button" variant="ghost" className="text-destructive hover:text-destructive" onClick={() => deleteBlock(node.id)}>
            <Trash2 />
            {t`Delete block`}
          </Button>
        ) : (
          <span />
        )}
        <Button type="button" onClick={() => setEditing(null)}>
          {t`Done`}
        </Button>
      </div>
    </>
  );
}

/**
 * The block form slide-over, open while a block is being edited. It is portalled into `container`
 * (the editor's area below the toolbar) and positioned inside it, so the toolbar — Publish, undo,
 * test run — stays visible and usable while a form is open.
 */
export function BlockSheet({ container }: { container: HTMLElement | null }) {
  const editingId = useEditor((state) => state.editingId);
  const setEditing = useEditor((state) => state.setEditing);
  if (!container) return null;
  return (
    <Sheet open={editingId !== null} modal={false} onOpenChange={(open) => (open ? undefined : setEditing(null))}>
      <SheetContent
        side="right"
        container={container}
        className="absolute z-40 w-full max-w-md"
        onInteractOutside={(event) => event.preventDefault()}
        onOpenAutoFocus={(event) => event.preventDefault()}
        data-testid="block-sheet"
      >
        {editingId ? <SheetBody id={editingId} /> : null}
      </SheetContent>
    </Sheet>
  );
}
