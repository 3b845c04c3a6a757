import { useState } from "react";
import { useLingui } from "@lingui/react/macro";
import { countText } from "@/lib/counts";
import { Repeat, Tag, Tags, Trash2, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Label } from "@/components/ui/label";
import { MultiSelect } from "@/components/ui/multi-select";
import { Spinner } from "@/components/ui/spinner";
import { notifyError } from "@/lib/notify";
import type { TagAnswer } from "../../../../../schema/api-types";
import { usePermissions } from "@/features/session/hooks/use-session";
import { AddToCycleDialog } from "@/features/shipping-cycles/components/add-to-cycle-dialog";
import { contactIdPages, type BulkTarget } from "../api/contacts-api";
import { useBulkAction } from "../hooks/use-contacts";

/**
 * The bar shown while contacts are selected (issue 4 "bulk selection"): add tags, remove tags,
 * add to a shipping cycle (issue 10), delete (after confirmation), clear the selection. `count`
 * is how many are selected (a lower bound when `capped`); `target` is the chosen ids or, for "all
 * matching", the list's filter.
 */
export function BulkActions({
  count,
  capped,
  target,
  tags,
  canTag,
  onDone,
}: {
  count: number;
  capped: boolean;
  target: BulkTarget;
  tags: readonly TagAnswer[];
  canTag: boolean;
  onDone: () => void;
}) {
  const { t, i18n } = useLingui();
  const bulk = useBulkAction();
  const [tagging, setTagging] = useState<"tag" | "untag" | null>(null);
  const [tagIds, setTagIds] = useState<string[]>([]);
  const [deleting, setDeleting] = useState(false);
  const [enrolling, setEnrolling] = useState(false);
  const permissions = usePermissions();
  const canEnrol = permissions.data?.has("contacts_shipping_cycles") === true || permissions.data?.has("shipping_cycles") === true;
  const shown = `${i18n.number(count)}${capped ? "+" : ""}`;
  const tagOptions = tags.map((tag) => ({ value: tag.id, label: tag.name, color: tag.color }));

  const applyTags = () => {
    if (!tagging || !tagIds.length) return;
    bulk.mutate(
      { target, action: { action: tagging, tagIds } },
      {
        onSuccess: () => {
          setTagging(null);
          setTagIds([]);
          onDone();
        },
        onError: (error) => notifyError(error),
      },
    );
  };

  return (
    <div role="region" aria-label={t`Bulk actions`} className="flex flex-wrap items-center gap-2 rounded-md border bg-muted/50 px-3 py-2">
      <p className="mr-auto text-sm font-medium" aria-live="polite">
        {countText(i18n, "contactsSelected", count, { shown })}
      </p>
      {canTag ? (
        <>
          <Button variant="outline" size="sm" onClick={() => setTagging("tag")}>
            <Tag />
            {t`Add tags`}
          </Button>
          <Button variant="outline" size="sm" onClick={() => setTagging("untag")}>
            <Tags />
            {t`Remove tags`}
          </Button>
        </>
      ) : null}
      {canEnrol ? (
        <Button variant="outline" size="sm" onClick={() => setEnrolling(true)}>
          <Repeat />
          {t`Add to shipping cycle`}
        </Button>
      ) : null}
      <Button variant="outline" size="sm" className="text-destructive hover:text-destructive" onClick={() => setDeleting(true)}>
        <Trash2 />
        {t`Delete selected`}
      </Button>
      <Button variant="ghost" size="sm" onClick={onDone}>
        <X />
        {t`Clear selection`}
      </Button>
      <Dialog open={tagging !== null} onOpenChange={(open) => (open || bulk.isPending ? undefined : setTagging(null))}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{countText(i18n, tagging === "untag" ? "removeTagsFrom" : "addTagsTo", count, { shown })}</DialogTitle>
            <DialogDescription>{t`Choose one or more tags.`}</DialogDescription>
          </DialogHeader>
          <div className="grid gap-1.5">
            <Label htmlFor="bulk-tags">{t`Tags`}</Label>
            <MultiSelect
              id="bulk-tags"
              options={tagOptions}
              value={tagIds}
              onValueChange={setTagIds}
              placeholder={tags.length ? t`Choose tags` : t`No tags exist yet`}
              searchLabel={t`Search tags`}
              emptyText={t`No tag found.`}
            />
          </div>
          <DialogFooter>
            <Button variant="outline" onClick={() => setTagging(null)} disabled={bulk.isPending}>
              {t`Cancel`}
            </Button>
            <Button onClick={applyTags} disabled={bulk.isPending || !tagIds.length}>
              {bulk.isPending ? <Spinner /> : null}
              {tagging === "untag" ? t`Remove tags` : t`Add tags`}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
      {canEnrol ? <AddToCycleDialog open={enrolling} onOpenChange={setEnrolling} count={count} pages={() => contactIdPages(target)} onDone={onDone} /> : null}
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title={countText(i18n, "deleteContacts", count, { shown })}
        description={t`Their tickets and messages are deleted too. This cannot be undone.`}
        confirmLabel={t`Delete contacts`}
        pending={bulk.isPending}
        onConfirm={() =>
          bulk.mutate(
            { target, action: { action: "delete" } },
            {
              onSuccess: () => {
                setDeleting(false);
                onDone();
              },
              onError: (error) => notifyError(error),
            },
          )
        }
      />
    </div>
  );
}
