/**
 * /broadcasts and /broadcasts/history (spec §2 Broadcasts "tabs current and history, with flow,
 * sent messages and rejected counts", §4 Broadcast status; permission `broadcasts`; the tabs are
 * the `broadcasts` layout's). Each row: name, status badge, flow, connection, sent and rejected
 * counts, a progress bar and the scheduled (or finished) date; on the current tab the actions start,
 * pause, resume, edit and delete (confirmed: cancels it into history); in history, delete removes it. Counts and statuses move live through the company hub;
 * a row opens its recipients. "New broadcast" opens the slide-over form.
 */
import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { Megaphone, Pause, Pencil, Play, Plus, Trash2 } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Progress } from "@/components/ui/progress";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { formatCompanyDateTime, formatDateTime, viewerTimeZone } from "@/lib/dates";
import { notifyError } from "@/lib/notify";
import { useActiveCompany } from "@/features/companies/hooks/use-companies";
import type { BroadcastListItem } from "../../../../../schema/validation/broadcasts";
import { broadcastQuery, type BroadcastAction, type BroadcastTab } from "../api/broadcasts-api";
import { useBroadcastAction, useBroadcastList, useDeleteBroadcast, useLiveBroadcasts } from "../hooks/use-broadcasts";
import { progressPercent } from "../lib/progress";
import { SCHEDULED_LABEL, STATUS_LABELS } from "../lib/labels";
import { BroadcastSheet, type BroadcastSheetTarget } from "./broadcast-sheet";
import { RecipientsDrawer } from "./recipients-drawer";

function StatusBadge({ broadcast, testId = true }: { broadcast: BroadcastListItem; testId?: boolean }) {
  const { i18n } = useLingui();
  const label = broadcast.status === "waiting" && broadcast.scheduledDate !== null ? SCHEDULED_LABEL : STATUS_LABELS[broadcast.status];
  const variant = broadcast.status === "started" ? "default" : broadcast.status === "cancelled" ? "destructive" : broadcast.status === "done" ? "outline" : "secondary";
  return (
    <Badge variant={variant} data-testid={testId ? "broadcast-status" : undefined} data-status={broadcast.status}>
      {i18n._(label)}
    </Badge>
  );
}

function Row({
  broadcast,
  tab,
  timeZone,
  pendingAction,
  onOpen,
  onAction,
  onEdit,
  onDelete,
}: {
  broadcast: BroadcastListItem;
  tab: BroadcastTab;
  timeZone: string;
  pendingAction: boolean;
  onOpen: () => void;
  onAction: (action: BroadcastAction) => void;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { t, i18n } = useLingui();
  const name = broadcast.name;
  const { counts } = broadcast;
  const percent = progressPercent(counts);
  const total = counts.total;
  const reached = counts.sent + counts.rejected;
  const progressText = total === null ? t`Not started` : `${i18n.number(reached)} / ${i18n.number(total)}`;
  const date =
    tab === "history"
      ? broadcast.finishedAt !== null
        ? formatDateTime(broadcast.finishedAt)
        : ""
      : broadcast.scheduledDate !== null
        ? formatCompanyDateTime(broadcast.scheduledDate, timeZone)
        : "";
  return (
    <tr className="align-top hover:bg-muted/40" data-testid="broadcast-row" data-status={broadcast.status} data-name={name}>
      <td className="px-4 py-3">
        <button type="button" className="max-w-56 truncate text-left font-medium outline-none hover:underline focus-visible:underline focus-visible:ring-2 focus-visible:ring-ring" onClick={onOpen} aria-label={t`Recipients of ${name}`}>
          {name}
        </button>
        <p className="mt-0.5 max-w-56 truncate text-xs text-muted-foreground md:hidden">
          {broadcast.flow.name} · {broadcast.connection.name}
        </p>
        <div className="mt-1 sm:hidden">
          <StatusBadge broadcast={broadcast} testId={false} />
        </div>
      </td>
      <td className="hidden px-3 py-3 sm:table-cell">
        <StatusBadge broadcast={broadcast} />
      </td>
      <td className="hidden max-w-44 truncate px-3 py-3 text-muted-foreground md:table-cell">{broadcast.flow.name}</td>
      <td className="hidden max-w-44 truncate px-3 py-3 text-muted-foreground lg:table-cell">{broadcast.connection.name}</td>
      <td className="px-3 py-3 text-right tabular-nums" data-testid="broadcast-sent">
        {i18n.number(counts.sent)}
      </td>
      <td className="px-3 py-3 text-right tabular-nums" data-testid="broadcast-rejected">
        {i18n.number(counts.rejected)}
      </td>
      <td className="hidden min-w-32 px-3 py-3 sm:table-cell">
        <Progress value={percent ?? 0} aria-label={t`Progress of ${name}`} aria-valuetext={progressText} />
        <p className="mt-1 text-xs text-muted-foreground tabular-nums">{progressText}</p>
      </td>
      <td className="hidden px-3 py-3 whitespace-nowrap text-muted-foreground xl:table-cell">{date}</td>
      <td className="px-3 py-3">
        {tab === "current" ? (
          <div className="flex flex-col items-end gap-1 sm:flex-row sm:justify-end">
            {broadcast.status === "waiting" ? (
              <Button variant="outline" size="sm" onClick={() => onAction("start")} disabled={pendingAction} aria-label={t`Start ${name} now`}>
                {pendingAction ? <Spinner /> : <Play />}
                <span className="hidden lg:inline">{t`Start now`}</span>
              </Button>
            ) : broadcast.status === "started" ? (
              <Button variant="outline" size="sm" onClick={() => onAction("pause")} disabled={pendingAction} aria-label={t`Pause ${name}`}>
                {pendingAction ? <Spinner /> : <Pause />}
                <span className="hidden lg:inline">{t`Pause`}</span>
              </Button>
            ) : broadcast.status === "paused" ? (
              <Button variant="outline" size="sm" onClick={() => onAction("resume")} disabled={pendingAction} aria-label={t`Resume ${name}`}>
                {pendingAction ? <Spinner /> : <Play />}
                <span className="hidden lg:inline">{t`Resume`}</span>
              </Button>
            ) : null}
            <Button variant="ghost" size="icon" className="size-8" onClick={onEdit} aria-label={t`Edit ${name}`}>
              <Pencil />
            </Button>
            <Button variant="ghost" size="icon" className="size-8 text-destructive hover:text-destructive" onClick={onDelete} aria-label={t`Delete ${name}`}>
              <Trash2 />
            </Button>
          </div>
        ) : (
          <div className="flex justify-end">
            <Button variant="ghost" size="icon" className="size-8 text-destructive hover:text-destructive" onClick={onDelete} aria-label={t`Delete ${name}`}>
              <Trash2 />
            </Button>
          </div>
        )}
      </td>
    </tr>
  );
}

function TableSkeleton() {
  return (
    <div className="grid gap-3 p-4" aria-busy>
      {Array.from({ length: 4 }, (_, index) => (
        <div key={index} className="flex items-center gap-4">
          <Skeleton className="h-4 w-40" />
          <Skeleton className="h-4 w-16" />
          <Skeleton className="hidden h-2 w-32 sm:block" />
        </div>
      ))}
    </div>
  );
}

/** The list of one tab, its recipients drawer, and (current tab) the form and confirmations. */
function BroadcastList({ tab }: { tab: BroadcastTab }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const company = useActiveCompany();
  const timeZone = company.data?.timezone ?? viewerTimeZone();
  const list = useBroadcastList(tab);
  useLiveBroadcasts();
  const act = useBroadcastAction();
  const remove = useDeleteBroadcast();
  const [sheet, setSheet] = useState<BroadcastSheetTarget | null>(null);
  const [opening, setOpening] = useState<string | null>(null);
  const [open, setOpen] = useState<BroadcastListItem | null>(null);
  const [deleting, setDeleting] = useState<BroadcastListItem | null>(null);
  const rows = list.data?.pages.flatMap((page) => page.results) ?? [];
  const deletingName = deleting?.name ?? "";
  // The drawer follows the live row (counts) while it is open.
  const openRow = open ? (rows.find((row) => row.id === open.id) ?? open) : null;

  const edit = async (row: BroadcastListItem) => {
    setOpening(row.id);
    try {
      const detail = await queryClient.fetchQuery(broadcastQuery(row.id));
      setSheet({ kind: "edit", broadcast: detail });
    } catch (error) {
      notifyError(error);
    } finally {
      setOpening(null);
    }
  };

  const create = () => setSheet({ kind: "new" });

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground">
          {tab === "current" ? t`Broadcasts waiting, sending or paused. Counts update as messages go out.` : t`Finished and cancelled broadcasts.`}
        </p>
        {tab === "current" ? (
          <Button onClick={create}>
            <Plus />
            {t`New broadcast`}
          </Button>
        ) : null}
      </div>
      <Card className="overflow-hidden p-0">
        {list.isPending ? (
          <TableSkeleton />
        ) : list.isError ? (
          <ErrorState title={t`Could not load the broadcasts.`} onRetry={() => void list.refetch()} />
        ) : rows.length === 0 ? (
          tab === "current" ? (
            <EmptyState
              icon={<Megaphone />}
              title={t`No broadcasts in progress`}
              description={t`Send a flow to many contacts at once, for example everyone with the tag "customers".`}
              action={
                <Button onClick={create}>
                  <Plus />
                  {t`New broadcast`}
                </Button>
              }
            />
          ) : (
            <EmptyState icon={<Megaphone />} title={t`No finished broadcasts yet`} description={t`Broadcasts move here once every recipient was reached, or when deleted.`} />
          )
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-sm">
              <caption className="sr-only">{tab === "current" ? t`Current broadcasts` : t`Broadcast history`}</caption>
              <thead className="border-b bg-muted/50 text-left text-xs text-muted-foreground">
                <tr>
                  <th scope="col" className="px-4 py-2 font-medium">
                    {t`Name`}
                  </th>
                  <th scope="col" className="hidden px-3 py-2 font-medium sm:table-cell">
                    {t`Status`}
                  </th>
                  <th scope="col" className="hidden px-3 py-2 font-medium md:table-cell">
                    {t`Flow`}
                  </th>
                  <th scope="col" className="hidden px-3 py-2 font-medium lg:table-cell">
                    {t`Connection`}
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    {t({ message: "Sent", context: "broadcast recipients" })}
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    {t({ message: "Rejected", context: "broadcast recipients" })}
                  </th>
                  <th scope="col" className="hidden px-3 py-2 font-medium sm:table-cell">
                    {t`Progress`}
                  </th>
                  <th scope="col" className="hidden px-3 py-2 font-medium xl:table-cell">
                    {tab === "current" ? t`Scheduled for` : t`Finished`}
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    <span className="sr-only">{t`Actions`}</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y">
                {rows.map((row) => (
                  <Row
                    key={row.id}
                    broadcast={row}
                    tab={tab}
                    timeZone={timeZone}
                    pendingAction={(act.isPending && act.variables.id === row.id) || opening === row.id}
                    onOpen={() => setOpen(row)}
                    onAction={(action) => act.mutate({ id: row.id, action }, { onError: (error) => notifyError(error) })}
                    onEdit={() => void edit(row)}
                    onDelete={() => setDeleting(row)}
                  />
                ))}
              </tbody>
            </table>
            {list.hasNextPage ? (
              <div className="flex justify-center p-3">
                <Button variant="ghost" size="sm" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
                  {list.isFetchingNextPage ? <Spinner /> : null}
                  {t`Load more`}
                </Button>
              </div>
            ) : null}
          </div>
        )}
      </Card>
      <RecipientsDrawer broadcast={openRow} onClose={() => setOpen(null)} />
      <BroadcastSheet target={sheet} onClose={() => setSheet(null)} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(next) => (next ? undefined : setDeleting(null))}
        title={t`Delete the broadcast ${deletingName}?`}
        description={
          tab === "current"
            ? t`Recipients not reached yet will not receive it. It stays in the history as cancelled.`
            : t`It is removed from the history with its list of recipients. This cannot be undone.`
        }
        confirmLabel={t`Delete`}
        pending={remove.isPending}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting.id, { onSettled: () => setDeleting(null), onError: (error) => notifyError(error) });
        }}
      />
    </div>
  );
}

/** The current tab: waiting, sending and paused broadcasts. */
export function BroadcastsPage() {
  return <BroadcastList tab="current" />;
}

/** The history tab: finished and cancelled broadcasts. */
export function BroadcastHistoryPage() {
  return <BroadcastList tab="history" />;
}
