/**
 * /folders and /folders/:id (spec §2 Flow builder; permission `flow`): breadcrumbs, the folders and
 * builders of one level; create a builder (name + type) or a folder; per builder: open, rename,
 * duplicate, share, move (to the root or a folder), delete; per folder: open, rename, delete.
 */
import { useState, type ReactNode } from "react";
import { Link, useParams } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { ChevronRight, Copy, Folder, FolderInput, FolderPlus, MoreHorizontal, Pencil, Plus, Share2, Trash2, Workflow } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Skeleton } from "@/components/ui/skeleton";
import { isApiError } from "@/lib/api";
import { notifyError } from "@/lib/notify";
import { toast } from "sonner";
import { TOAST_DURATION_MS } from "@/lib/notify";
import type { FlowSummary, FolderAnswer } from "../../../../../schema/flow-api";
import { flowsQuery, folderPathQuery, foldersQuery } from "../api/flows-api";
import { useDeleteFlow, useDeleteFolder, useDuplicateFlow, useMoveFlow } from "../hooks/use-folders";
import { FLOW_TYPE_LABELS } from "../lib/labels";
import { MoveDialog, NameDialog, type NameDialogTarget } from "./folder-dialogs";
import { ShareDialog } from "./share-dialog";

function Breadcrumbs({ folderId }: { folderId: string | null }) {
  const { t } = useLingui();
  const path = useQuery({ ...folderPathQuery(folderId ?? ""), enabled: folderId !== null });
  const crumbs = path.data ?? [];
  return (
    <nav aria-label={t`Breadcrumbs`}>
      <ol className="flex flex-wrap items-center gap-1 text-sm text-muted-foreground">
        <li>
          {folderId ? (
            <Link to="/folders" className="hover:text-foreground hover:underline">
              {t`Flows`}
            </Link>
          ) : (
            <span aria-current="page" className="font-medium text-foreground">
              {t`Flows`}
            </span>
          )}
        </li>
        {path.isPending && folderId ? (
          <li>
            <Skeleton className="h-4 w-24" />
          </li>
        ) : null}
        {crumbs.map((folder, index) => (
          <li key={folder.id} className="flex items-center gap-1">
            <ChevronRight className="size-3.5" aria-hidden />
            {index === crumbs.length - 1 ? (
              <span aria-current="page" className="font-medium text-foreground">
                {folder.name}
              </span>
            ) : (
              <Link to={`/folders/${folder.id}`} className="hover:text-foreground hover:underline">
                {folder.name}
              </Link>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

function RowMenu({ label, children }: { label: string; children: ReactNode }) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={label}>
          <MoreHorizontal />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>{children}</DropdownMenuContent>
    </DropdownMenu>
  );
}

function FolderRow({ folder, onRename, onDelete }: { folder: FolderAnswer; onRename: () => void; onDelete: () => void }) {
  const { t } = useLingui();
  const name = folder.name;
  return (
    <li className="flex items-center gap-3 px-4 py-3" data-testid="folder-row" aria-label={name}>
      <Folder className="size-5 shrink-0 text-amber-500" aria-hidden />
      <Link to={`/folders/${folder.id}`} className="min-w-0 flex-1 truncate font-medium hover:underline">
        {name}
      </Link>
      <RowMenu label={t`Actions for ${name}`}>
        <DropdownMenuItem onSelect={onRename}>
          <Pencil />
          {t`Rename`}
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={onDelete} className="text-destructive">
          <Trash2 />
          {t`Delete`}
        </DropdownMenuItem>
      </RowMenu>
    </li>
  );
}

function FlowRow({ flow, onRename, onShare, onMove, onDelete }: { flow: FlowSummary; onRename: () => void; onShare: () => void; onMove: () => void; onDelete: () => void }) {
  const { t, i18n } = useLingui();
  const duplicate = useDuplicateFlow();
  const move = useMoveFlow();
  const name = flow.name;
  const version = flow.publishedVersion;
  return (
    <li className="flex flex-wrap items-center gap-3 px-4 py-3" data-testid="flow-row" aria-label={name}>
      <Workflow className="size-5 shrink-0 text-primary" aria-hidden />
      <div className="grid min-w-0 flex-1 gap-0.5">
        <Link to={`/flows/${flow.id}`} className="truncate font-medium hover:underline">
          {name}
        </Link>
        <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
          <span>{i18n._(FLOW_TYPE_LABELS[flow.type])}</span>
          <span aria-hidden>·</span>
          <span>{version === null ? t`Not published` : t`Published v${version}`}</span>
          {flow.shareActive ? (
            <Badge variant="outline" className="text-[10px]">
              {t`Shared`}
            </Badge>
          ) : null}
        </div>
      </div>
      <Button asChild variant="outline" size="sm">
        <Link to={`/flows/${flow.id}`} aria-label={t`Open ${name}`}>
          <Pencil />
          {t`Edit`}
        </Link>
      </Button>
      <RowMenu label={t`Actions for ${name}`}>
        <DropdownMenuItem onSelect={onRename}>
          <Pencil />
          {t`Rename`}
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => duplicate.mutate({ id: flow.id, name: flow.name })}>
          <Copy />
          {t`Duplicate`}
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={onShare}>
          <Share2 />
          {t`Share`}
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={onMove}>
          <FolderInput />
          {t`Move to folder`}
        </DropdownMenuItem>
        {flow.folderId ? (
          <DropdownMenuItem onSelect={() => move.mutate({ id: flow.id, folderId: null })}>
            <FolderInput />
            {t`Move to root`}
          </DropdownMenuItem>
        ) : null}
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={onDelete} className="text-destructive">
          <Trash2 />
          {t`Delete`}
        </DropdownMenuItem>
      </RowMenu>
    </li>
  );
}

/** The /folders and /folders/:id screen. */
export function FoldersPage() {
  const { t } = useLingui();
  const { id } = useParams();
  const folderId = id ?? null;
  const folders = useQuery(foldersQuery(folderId));
  const flows = useQuery(flowsQuery(folderId));
  const deleteFlow = useDeleteFlow();
  const deleteFolder = useDeleteFolder();
  const [nameTarget, setNameTarget] = useState<NameDialogTarget | null>(null);
  const [sharing, setSharing] = useState<FlowSummary | null>(null);
  const [moving, setMoving] = useState<FlowSummary | null>(null);
  const [deleting, setDeleting] = useState<{ kind: "flow"; flow: FlowSummary } | { kind: "folder"; folder: FolderAnswer } | null>(null);
  const pending = folders.isPending || flows.isPending;
  const failed = folders.isError || flows.isError;
  const folderList = folders.data ?? [];
  const flowList = flows.data ?? [];
  const deletingName = deleting ? (deleting.kind === "flow" ? deleting.flow.name : deleting.folder.name) : "";
  const newBuilder = () => setNameTarget({ kind: "new-builder", folderId });
  const newFolder = () => setNameTarget({ kind: "new-folder", parentId: folderId });

  const confirmDelete = () => {
    if (!deleting) return;
    if (deleting.kind === "flow") deleteFlow.mutate(deleting.flow.id, { onSettled: () => setDeleting(null) });
    else
      deleteFolder.mutate(deleting.folder.id, {
        onError: (error) => {
          if (isApiError(error) && error.status === 409) toast.error(t`Empty the folder before deleting it.`, { duration: TOAST_DURATION_MS });
          else notifyError(error);
        },
        onSettled: () => setDeleting(null),
      });
  };

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="grid gap-1">
          <Breadcrumbs folderId={folderId} />
          <h1 className="text-2xl font-semibold tracking-tight">{t`Flow builder`}</h1>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={newFolder}>
            <FolderPlus />
            {t`New folder`}
          </Button>
          <Button onClick={newBuilder}>
            <Plus />
            {t`New builder`}
          </Button>
        </div>
      </div>

      {pending ? (
        <Card aria-busy>
          <ul className="divide-y">
            {Array.from({ length: 4 }, (_, index) => (
              <li key={index} className="flex items-center gap-3 p-4">
                <Skeleton className="size-5" />
                <Skeleton className="h-4 w-48" />
              </li>
            ))}
          </ul>
          <span className="sr-only">{t`Loading the flows…`}</span>
        </Card>
      ) : failed ? (
        <Card>
          <ErrorState
            title={t`Could not load the flows.`}
            onRetry={() => {
              void folders.refetch();
              void flows.refetch();
            }}
          />
        </Card>
      ) : folderList.length === 0 && flowList.length === 0 ? (
        <Card>
          <EmptyState
            icon={<Workflow />}
            title={folderId ? t`This folder is empty` : t`No builders yet`}
            description={t`Build a flow your bot runs: greet, ask, save the answers, tag and hand over to your team.`}
            action={
              <Button onClick={newBuilder}>
                <Plus />
                {t`New builder`}
              </Button>
            }
          />
        </Card>
      ) : (
        <Card>
          <ul className="divide-y" aria-label={t`Folders and builders`}>
            {folderList.map((folder) => (
              <FolderRow
                key={folder.id}
                folder={folder}
                onRename={() => setNameTarget({ kind: "rename-folder", id: folder.id, name: folder.name })}
                onDelete={() => setDeleting({ kind: "folder", folder })}
              />
            ))}
            {flowList.map((flow) => (
              <FlowRow
                key={flow.id}
                flow={flow}
                onRename={() => setNameTarget({ kind: "rename-builder", id: flow.id, name: flow.name })}
                onShare={() => setSharing(flow)}
                onMove={() => setMoving(flow)}
                onDelete={() => setDeleting({ kind: "flow", flow })}
              />
            ))}
          </ul>
        </Card>
      )}

      <NameDialog target={nameTarget} onClose={() => setNameTarget(null)} />
      <ShareDialog flow={sharing} onClose={() => setSharing(null)} />
      <MoveDialog flow={moving} onClose={() => setMoving(null)} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title={deleting?.kind === "folder" ? t`Delete the folder ${deletingName}?` : t`Delete the builder ${deletingName}?`}
        description={
          deleting?.kind === "folder"
            ? t`Only an empty folder can be deleted.`
            : t`Its keyword triggers are deleted and connections stop using it. Runs in progress finish. This cannot be undone.`
        }
        confirmLabel={t`Delete`}
        pending={deleteFlow.isPending || deleteFolder.isPending}
        onConfirm={confirmDelete}
      />
    </div>
  );
}
