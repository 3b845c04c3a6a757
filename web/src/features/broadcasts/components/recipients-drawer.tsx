/**
 * A broadcast's recipients as a slide-over (issue 10: GET /api/broadcasts/{id}/recipients with
 * status tabs pending, sent and rejected, each rejected one with the reason): one keyset page after
 * another ("Load more"), the counts on the tabs kept live by the hub (the rows reload as they move).
 */
import { useState } from "react";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { Inbox, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { ErrorState } from "@/components/ui/error-state";
import { Sheet, SheetClose, SheetContent, SheetDescription, SheetTitle } from "@/components/ui/sheet";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { formatDateTime } from "@/lib/dates";
import { formatPhone } from "@/lib/phone";
import { cn } from "@/lib/utils";
import type { BroadcastCounts, BroadcastListItem } from "../../../../../schema/validation/broadcasts";
import { broadcastQuery, recipientsQuery, type RecipientTab } from "../api/broadcasts-api";
import { REJECT_REASON_LABELS } from "../lib/labels";

const TABS: { value: RecipientTab; label: MessageDescriptor }[] = [
  { value: "pending", label: msg({ message: "Pending", context: "broadcast recipients" }) },
  { value: "sent", label: msg({ message: "Sent", context: "broadcast recipients" }) },
  { value: "rejected", label: msg({ message: "Rejected", context: "broadcast recipients" }) },
];

function RecipientList({ broadcastId, status }: { broadcastId: string; status: RecipientTab }) {
  const { t, i18n } = useLingui();
  const recipients = useInfiniteQuery(recipientsQuery(broadcastId, status));
  if (recipients.isPending) {
    return (
      <div className="grid gap-2 p-5" aria-busy>
        <Skeleton className="h-12 w-full" />
        <Skeleton className="h-12 w-full" />
      </div>
    );
  }
  if (recipients.isError) return <ErrorState title={t`Could not load the recipients.`} onRetry={() => void recipients.refetch()} />;
  const rows = recipients.data.pages.flatMap((page) => page.results);
  if (!rows.length) {
    return (
      <p className="flex items-center gap-2 p-5 text-sm text-muted-foreground">
        <Inbox className="size-4" aria-hidden />
        {status === "pending" ? t`No recipient is waiting.` : status === "sent" ? t`Nothing sent yet.` : t`No recipient was rejected.`}
      </p>
    );
  }
  return (
    <div className="grid gap-2 p-5">
      <ul className="divide-y rounded-md border" aria-label={t`Recipients`}>
        {rows.map((row) => (
          <li key={row.contactId} className="grid gap-0.5 px-3 py-2" data-testid="broadcast-recipient" data-status={row.status}>
            <div className="flex flex-wrap items-baseline gap-x-2">
              <span className="min-w-0 truncate text-sm font-medium">{row.name}</span>
              {row.phone ? <span className="text-xs text-muted-foreground">{formatPhone(row.phone)}</span> : null}
              {row.doneAt !== null ? <span className="ml-auto text-xs text-muted-foreground">{formatDateTime(row.doneAt)}</span> : null}
            </div>
            {row.status === "rejected" ? (
              <p className="text-xs text-destructive" data-testid="rejection-reason">
                {row.reason ? i18n._(REJECT_REASON_LABELS[row.reason]) : t`Rejected.`}
                {row.detail ? <span className="block text-muted-foreground">{row.detail}</span> : null}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
      {recipients.hasNextPage ? (
        <Button variant="outline" size="sm" className="justify-self-center" onClick={() => void recipients.fetchNextPage()} disabled={recipients.isFetchingNextPage}>
          {recipients.isFetchingNextPage ? <Spinner /> : null}
          {t`Load more`}
        </Button>
      ) : null}
    </div>
  );
}

function tabCount(counts: BroadcastCounts, tab: RecipientTab): number | null {
  if (tab === "sent") return counts.sent;
  if (tab === "rejected") return counts.rejected;
  return counts.total === null ? null : counts.pending;
}

/** The recipients slide-over of `broadcast` (a row of the list); null keeps it closed. */
export function RecipientsDrawer({ broadcast, onClose }: { broadcast: BroadcastListItem | null; onClose: () => void }) {
  const { t, i18n } = useLingui();
  const [tab, setTab] = useState<RecipientTab>("pending");
  // The detail is kept live by the hub (use-broadcasts.ts), so the tab counts move while open.
  const detail = useQuery({ ...broadcastQuery(broadcast?.id ?? ""), enabled: broadcast !== null });
  const counts = detail.data?.counts ?? broadcast?.counts ?? null;
  const name = broadcast?.name ?? "";
  return (
    <Sheet open={broadcast !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <SheetContent side="right" className="w-full max-w-xl">
        <div className="flex items-start justify-between gap-3 border-b p-5">
          <div className="grid min-w-0 gap-1">
            <SheetTitle className="truncate text-lg leading-tight font-semibold">{t`Recipients of ${name}`}</SheetTitle>
            <SheetDescription className="text-sm text-muted-foreground">{t`Who is still waiting, who received it and who was rejected, and why.`}</SheetDescription>
          </div>
          <SheetClose asChild>
            <Button variant="ghost" size="icon" aria-label={t`Close`}>
              <X />
            </Button>
          </SheetClose>
        </div>
        <div role="tablist" aria-label={t`Recipients by status`} className="flex gap-1 overflow-x-auto border-b px-5">
          {TABS.map((entry) => {
            const count = counts ? tabCount(counts, entry.value) : null;
            return (
              <button
                key={entry.value}
                type="button"
                role="tab"
                aria-selected={tab === entry.value}
                className={cn(
                  "-mb-px inline-flex h-10 items-center gap-1.5 border-b-2 px-3 text-sm font-medium outline-none focus-visible:ring-2 focus-visible:ring-ring",
                  tab === entry.value ? "border-primary text-foreground" : "border-transparent text-muted-foreground hover:text-foreground",
                )}
                onClick={() => setTab(entry.value)}
              >
                {i18n._(entry.label)}
                {count !== null ? <span className="rounded-full bg-muted px-1.5 text-xs tabular-nums">{i18n.number(count)}</span> : null}
              </button>
            );
          })}
        </div>
        <div role="tabpanel" className="min-h-0 flex-1 overflow-y-auto">
          {broadcast ? <RecipientList key={`${broadcast.id}-${tab}`} broadcastId={broadcast.id} status={tab} /> : null}
        </div>
      </SheetContent>
    </Sheet>
  );
}
