/**
 * /registers/tags (spec §2 Registers tab "tags"; permission `tags`): the company's contact tags with
 * their colour; create and edit in a slide-over, delete after confirmation (contacts lose the tag).
 */
import { useState } from "react";
import { useLingui } from "@lingui/react/macro";
import { countText } from "@/lib/counts";
import { Pencil, Plus, Tag as TagIcon, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Skeleton } from "@/components/ui/skeleton";
import { notifyError } from "@/lib/notify";
import type { TagAnswer } from "../../../../../schema/api-types";
import { TAG_LIST_LIMIT } from "../api/registers-api";
import { useDeleteTag, useTags } from "../hooks/use-registers";
import { readableTextColor } from "../lib/tag-colors";
import { TagSheet, type TagSheetTarget } from "./tag-sheet";

/** A tag as a coloured pill. */
export function TagPill({ tag }: { tag: Pick<TagAnswer, "name" | "color"> }) {
  return (
    <span className="inline-flex max-w-full items-center truncate rounded-full px-2 py-0.5 text-xs font-medium" style={{ backgroundColor: tag.color, color: readableTextColor(tag.color) }}>
      {tag.name}
    </span>
  );
}

/** The tags tab of /registers. */
export function TagsPage() {
  const { t, i18n } = useLingui();
  const tags = useTags();
  const remove = useDeleteTag();
  const [target, setTarget] = useState<TagSheetTarget | null>(null);
  const [deleting, setDeleting] = useState<TagAnswer | null>(null);
  const deletingName = deleting?.name ?? "";
  const total = tags.data?.total ?? 0;

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1.5">
          <CardTitle as="h2">{t`Tags`}</CardTitle>
          <CardDescription>{t`Tags group contacts for filters, broadcasts and flows.`}</CardDescription>
        </div>
        <Button onClick={() => setTarget({ kind: "new" })}>
          <Plus />
          {t`New tag`}
        </Button>
      </CardHeader>
      <CardContent className="p-0 pt-4">
        {tags.isPending ? (
          <div className="grid gap-3 p-4" aria-busy>
            {Array.from({ length: 4 }, (_, index) => (
              <div key={index} className="flex items-center gap-3">
                <Skeleton className="h-5 w-28 rounded-full" />
                <div className="flex-1" />
                <Skeleton className="h-8 w-40" />
              </div>
            ))}
          </div>
        ) : tags.isError ? (
          <ErrorState title={t`Could not load the tags.`} onRetry={() => void tags.refetch()} />
        ) : tags.data.results.length === 0 ? (
          <EmptyState
            className="border-t"
            icon={<TagIcon />}
            title={t`No tags yet`}
            description={t`Create tags such as "Customer" or "Lead" and put them on contacts.`}
            action={
              <Button variant="outline" size="sm" onClick={() => setTarget({ kind: "new" })}>
                <Plus />
                {t`New tag`}
              </Button>
            }
          />
        ) : (
          <>
            <ul className="divide-y border-t" aria-label={t`Tags`}>
              {tags.data.results.map((tag) => {
                const name = tag.name;
                return (
                  <li key={tag.id} className="flex flex-wrap items-center gap-3 p-4">
                    <div className="flex min-w-0 flex-1 items-center gap-3">
                      <TagPill tag={tag} />
                      <span className="font-mono text-xs text-muted-foreground">{tag.color}</span>
                    </div>
                    <div className="flex shrink-0 gap-2">
                      <Button variant="outline" size="sm" onClick={() => setTarget({ kind: "edit", tag })} aria-label={t`Edit ${name}`}>
                        <Pencil />
                        {t`Edit`}
                      </Button>
                      <Button variant="outline" size="sm" className="text-destructive hover:text-destructive" onClick={() => setDeleting(tag)} aria-label={t`Delete ${name}`}>
                        <Trash2 />
                        {t`Delete`}
                      </Button>
                    </div>
                  </li>
                );
              })}
            </ul>
            {total > TAG_LIST_LIMIT ? <p className="border-t p-4 text-xs text-muted-foreground">{countText(i18n, "firstTags", total, { limit: TAG_LIST_LIMIT })}</p> : null}
          </>
        )}
      </CardContent>
      <TagSheet target={target} onClose={() => setTarget(null)} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title={t`Delete the tag ${deletingName}?`}
        description={t`Contacts with this tag lose it. This cannot be undone.`}
        confirmLabel={t`Delete tag`}
        pending={remove.isPending}
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(deleting.id, { onSuccess: () => setDeleting(null), onError: (error) => notifyError(error) });
        }}
      />
    </Card>
  );
}
