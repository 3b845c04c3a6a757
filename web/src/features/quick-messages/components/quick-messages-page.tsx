/**
 * /quick-messages (spec §2 Quick messages "manage saved texts", §3 Quick message; permission
 * `quick_messages`): the company's quick messages by name with a search, create and edit in a
 * slide-over, delete after confirmation.
 */
import { useState } from "react";
import { useLingui } from "@lingui/react/macro";
import { Paperclip, Pencil, Plus, Search, Trash2, Zap } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { useDebounced } from "@/lib/use-debounced";
import type { QuickMessageAnswer } from "../../../../../schema/api-types";
import { useDeleteQuickMessage, useQuickMessages } from "../hooks/use-quick-messages";
import { QuickMessageSheet, type QuickMessageSheetTarget } from "./quick-message-sheet";

function QuickMessageRow({ message, onEdit, onDelete }: { message: QuickMessageAnswer; onEdit: () => void; onDelete: () => void }) {
  const { t } = useLingui();
  const name = message.name;
  const attachment = message.media?.name ?? t`Attached file`;
  return (
    <li aria-label={name} data-testid="quick-message-row" className="flex flex-col gap-3 p-4 sm:flex-row sm:items-start">
      <div className="grid min-w-0 flex-1 gap-1">
        <p className="flex items-center gap-2 text-sm font-medium">
          <span className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs text-muted-foreground" aria-hidden>
            /
          </span>
          <span className="truncate">{name}</span>
        </p>
        {message.text ? <p className="line-clamp-2 text-sm whitespace-pre-line text-muted-foreground">{message.text}</p> : null}
        {message.media ? (
          <p className="flex items-center gap-1 text-xs text-muted-foreground">
            <Paperclip className="size-3.5" aria-hidden />
            <span className="sr-only">{t`Attachment:`}</span>
            <span className="truncate">{attachment}</span>
          </p>
        ) : null}
      </div>
      <div className="flex shrink-0 gap-2">
        <Button variant="outline" size="sm" onClick={onEdit} aria-label={t`Edit ${name}`}>
          <Pencil />
          {t`Edit`}
        </Button>
        <Button variant="ghost" size="sm" className="text-destructive hover:text-destructive" onClick={onDelete} aria-label={t`Delete ${name}`}>
          <Trash2 />
          <span className="sm:sr-only">{t`Delete`}</span>
        </Button>
      </div>
    </li>
  );
}

/** The Quick messages screen. */
export function QuickMessagesPage() {
  const { t } = useLingui();
  const [text, setText] = useState("");
  const search = useDebounced(text.trim(), 300);
  const list = useQuickMessages(search);
  const remove = useDeleteQuickMessage();
  const [target, setTarget] = useState<QuickMessageSheetTarget | null>(null);
  const [deleting, setDeleting] = useState<QuickMessageAnswer | null>(null);
  const messages = list.data?.pages.flatMap((page) => page.results) ?? [];
  const total = list.data?.pages[0]?.total ?? 0;
  const deletingName = deleting?.name ?? "";
  const create = () => setTarget({ kind: "new" });

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight">{t`Quick messages`}</h1>
          <p className="text-sm text-muted-foreground">{t`Saved texts your team inserts in chats by typing / followed by the name.`}</p>
        </div>
        <Button onClick={create}>
          <Plus />
          {t`New quick message`}
        </Button>
      </div>

      <div className="relative max-w-sm">
        <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
        <Input
          type="search"
          value={text}
          maxLength={40}
          onChange={(event) => setText(event.target.value)}
          aria-label={t`Search quick messages`}
          placeholder={t`Search by name`}
          className="pl-9"
        />
      </div>

      {list.isPending ? (
        <Card aria-busy>
          <ul className="divide-y">
            {Array.from({ length: 4 }, (_, index) => (
              <li key={index} className="grid gap-2 p-4">
                <Skeleton className="h-4 w-40" />
                <Skeleton className="h-3 w-3/4" />
              </li>
            ))}
          </ul>
          <span className="sr-only">{t`Loading quick messages…`}</span>
        </Card>
      ) : list.isError ? (
        <Card>
          <ErrorState title={t`Could not load the quick messages.`} onRetry={() => void list.refetch()} />
        </Card>
      ) : messages.length === 0 ? (
        <Card>
          {search ? (
            <EmptyState icon={<Search />} title={t`No quick messages match "${search}"`} description={t`Try another name.`} />
          ) : (
            <EmptyState
              icon={<Zap />}
              title={t`No quick messages yet`}
              description={t`Save the answers your team gives most often, then type / in a chat to insert them.`}
              action={
                <Button onClick={create}>
                  <Plus />
                  {t`New quick message`}
                </Button>
              }
            />
          )}
        </Card>
      ) : (
        <Card>
          <ul className="divide-y" aria-label={t`Quick messages`}>
            {messages.map((message) => (
              <QuickMessageRow key={message.id} message={message} onEdit={() => setTarget({ kind: "edit", message })} onDelete={() => setDeleting(message)} />
            ))}
          </ul>
          <div className="flex items-center justify-between gap-3 border-t px-4 py-3 text-xs text-muted-foreground">
            <span>{t`${messages.length} of ${total}`}</span>
            {list.hasNextPage ? (
              <Button variant="outline" size="sm" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
                {list.isFetchingNextPage ? <Spinner /> : null}
                {t`Load more`}
              </Button>
            ) : null}
          </div>
        </Card>
      )}

      <QuickMessageSheet target={target} onClose={() => setTarget(null)} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title={t`Delete the quick message ${deletingName}?`}
        description={t`It will no longer be offered in chats. This cannot be undone.`}
        confirmLabel={t`Delete`}
        pending={remove.isPending}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting.id, { onSettled: () => setDeleting(null) });
        }}
      />
    </div>
  );
}
