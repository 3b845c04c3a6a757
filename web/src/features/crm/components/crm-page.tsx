/**
 * /crm (spec §2 CRM "manage columns", §3 CRM column, §6 `crm` views and `crm_manager` manages;
 * issue 4 "CRM board"): the pipeline board with live updates from every member. Managers create,
 * edit, reorder and delete columns, put contacts on the board and move them; viewers only look.
 */
import { useState } from "react";
import { Plural, useLingui } from "@lingui/react/macro";
import { Columns3, Eye, Plus, WifiOff } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Skeleton } from "@/components/ui/skeleton";
import { useHubStatus } from "@/lib/realtime";
import type { CrmBoardColumn } from "../../../../../schema/api-types";
import { useCrmAccess, useCrmBoard, useDeleteColumn, useMoveCard } from "../hooks/use-crm-board";
import { AddContactDialog } from "./add-contact-dialog";
import { ColumnDialog, type ColumnDialogTarget } from "./column-dialog";
import { CrmBoard } from "./crm-board";

function BoardSkeleton() {
  const { t } = useLingui();
  return (
    <div className="flex gap-3 overflow-hidden" aria-busy>
      {Array.from({ length: 4 }, (_, column) => (
        <div key={column} className="grid w-72 shrink-0 content-start gap-2 rounded-xl border bg-muted/40 p-2">
          <Skeleton className="h-6 w-32" />
          {Array.from({ length: 3 - (column % 2) }, (_, card) => (
            <Skeleton key={card} className="h-16" />
          ))}
        </div>
      ))}
      <span className="sr-only">{t`Loading the board…`}</span>
    </div>
  );
}

/** The CRM screen. */
export function CrmPage() {
  const { t } = useLingui();
  const board = useCrmBoard();
  const access = useCrmAccess();
  const hubStatus = useHubStatus();
  const removeColumn = useDeleteColumn();
  const move = useMoveCard();
  const [columnTarget, setColumnTarget] = useState<ColumnDialogTarget | null>(null);
  const [deleting, setDeleting] = useState<CrmBoardColumn | null>(null);
  const [adding, setAdding] = useState<CrmBoardColumn | null>(null);
  const canManage = access.canManage;
  const columns = board.data?.columns ?? [];
  const deletingName = deleting?.name ?? "";
  const deletingTotal = deleting?.total ?? 0;

  const newColumn = (
    <Button onClick={() => setColumnTarget({ kind: "new" })}>
      <Plus />
      {t`New column`}
    </Button>
  );

  return (
    <div className="flex min-h-[calc(100dvh-8.5rem)] flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="grid gap-1">
          <h1 className="flex items-center gap-2 text-2xl font-semibold tracking-tight">
            {t`CRM`}
            {access.ready && !canManage ? (
              <Badge variant="outline" className="font-normal">
                <Eye className="size-3" aria-hidden />
                {t`View only`}
              </Badge>
            ) : null}
          </h1>
          <p className="text-sm text-muted-foreground">
            {canManage ? t`Drag contacts through your pipeline. Everyone watching sees changes as they happen.` : t`Follow contacts through your pipeline. Only CRM managers can change the board.`}
          </p>
        </div>
        <div className="flex items-center gap-2">
          {hubStatus === "closed" && board.isSuccess ? (
            <span className="flex items-center gap-1 text-xs text-muted-foreground" role="status">
              <WifiOff className="size-3.5" aria-hidden />
              {t`Reconnecting…`}
            </span>
          ) : null}
          {canManage && columns.length ? newColumn : null}
        </div>
      </div>

      {board.isPending ? (
        <BoardSkeleton />
      ) : board.isError ? (
        <Card>
          <ErrorState title={t`Could not load the board.`} onRetry={() => void board.refetch()} />
        </Card>
      ) : columns.length === 0 ? (
        <Card>
          <EmptyState
            icon={<Columns3 />}
            title={t`No columns yet`}
            description={canManage ? t`Create columns such as "New lead", "Negotiating" and "Won", then put contacts on them.` : t`A CRM manager has not set up the board yet.`}
            action={canManage ? newColumn : undefined}
          />
        </Card>
      ) : (
        <CrmBoard
          board={board.data}
          canManage={canManage}
          onAddContact={setAdding}
          onEditColumn={(column) => setColumnTarget({ kind: "edit", column })}
          onDeleteColumn={setDeleting}
        />
      )}

      <ColumnDialog target={columnTarget} onClose={() => setColumnTarget(null)} />
      <AddContactDialog
        column={adding}
        columns={columns}
        onClose={() => setAdding(null)}
        onPick={(card, fromColumnId) => {
          const columnId = adding?.id;
          setAdding(null);
          if (columnId) move.mutate({ card, placement: { columnId }, fromColumnId });
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title={t`Delete the column ${deletingName}?`}
        description={
          deletingTotal > 0 ? (
            <Plural
              value={deletingTotal}
              one="Its # contact leaves the board (the contact itself is kept). This cannot be undone."
              other="Its # contacts leave the board (the contacts themselves are kept). This cannot be undone."
            />
          ) : (
            t`The column is removed from the board. This cannot be undone.`
          )
        }
        confirmLabel={t`Delete column`}
        pending={removeColumn.isPending}
        onConfirm={() => {
          if (deleting) removeColumn.mutate(deleting.id, { onSettled: () => setDeleting(null) });
        }}
      />
    </div>
  );
}
