import { useState } from "react";
import { Plural, useLingui } from "@lingui/react/macro";
import { useInfiniteQuery } from "@tanstack/react-query";
import { Eye, Lock, Pencil, Plus, Search, ShieldCheck, Trash2 } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { useDebounced } from "@/lib/use-debounced";
import { notifyError } from "@/lib/notify";
import type { RoleAnswer } from "../../../../../schema/api-types";
import { useDeleteRole } from "../hooks/use-roles";
import { rolesPageQuery } from "../api/roles-api";
import { RoleSheet, type RoleSheetTarget } from "./role-sheet";

function RoleRow({ role, onOpen, onDelete }: { role: RoleAnswer; onOpen: () => void; onDelete: () => void }) {
  const { t } = useLingui();
  const name = role.name;
  const count = role.permissions.length;
  const noteId = `role-note-${role.id}`;
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center">
      <div className="grid min-w-0 flex-1 gap-1">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium">
          <span className="truncate">{role.name}</span>
          {role.isOwner ? (
            <Badge variant="outline">
              <Lock className="size-3" aria-hidden />
              {t`Read-only`}
            </Badge>
          ) : null}
        </p>
        {role.description ? <p className="text-xs text-muted-foreground">{role.description}</p> : null}
        <p className="text-xs text-muted-foreground">
          <Plural value={count} one="# permission" other="# permissions" />
        </p>
      </div>
      <div className="flex shrink-0 flex-col gap-1 sm:items-end">
        <div className="flex gap-2">
          <Button variant="outline" size="sm" onClick={onOpen} aria-label={role.isOwner ? t`View ${name}` : t`Edit ${name}`}>
            {role.isOwner ? <Eye /> : <Pencil />}
            {role.isOwner ? t`View` : t`Edit`}
          </Button>
          <Button
            variant="outline"
            size="sm"
            className="text-destructive hover:text-destructive"
            onClick={onDelete}
            disabled={role.isOwner}
            aria-label={t`Delete ${name}`}
            aria-describedby={role.isOwner ? noteId : undefined}
          >
            <Trash2 />
            {t`Delete`}
          </Button>
        </div>
        {role.isOwner ? (
          <p id={noteId} className="text-xs text-muted-foreground">
            {t`The Owner role cannot be changed or deleted.`}
          </p>
        ) : null}
      </div>
    </li>
  );
}

/**
 * The company's roles (spec §2 settings tab "roles", §6; permission settings_company): list (paged
 * by cursor with a search by name, spec §3; issue 14), create and edit in a slide-over, delete
 * after confirmation; the Owner role is read-only.
 */
export function RolesPanel() {
  const { t } = useLingui();
  const [text, setText] = useState("");
  const search = useDebounced(text.trim(), 300);
  // The spec §3 cursor page with a search by name (issue 14), Owner first then by name.
  const roles = useInfiniteQuery(rolesPageQuery(search));
  const remove = useDeleteRole();
  const [target, setTarget] = useState<RoleSheetTarget | null>(null);
  const [deleting, setDeleting] = useState<RoleAnswer | null>(null);
  const deletingName = deleting?.name ?? "";
  const loaded = roles.data?.pages.flatMap((answer) => answer.results) ?? [];
  const total = roles.data?.pages[0]?.total ?? 0;
  const custom = loaded.filter((role) => !role.isOwner);

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1.5">
          <CardTitle as="h2">{t`Roles`}</CardTitle>
          <CardDescription>{t`A role groups permissions; members get them through their roles.`}</CardDescription>
        </div>
        <Button onClick={() => setTarget({ kind: "new" })}>
          <Plus />
          {t`New role`}
        </Button>
      </CardHeader>
      <CardContent className="p-0 pt-4">
        <div className="relative mx-4 mb-4 max-w-sm">
          <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
          <Input type="search" value={text} maxLength={120} onChange={(event) => setText(event.target.value)} aria-label={t`Search roles`} placeholder={t`Search by name`} className="pl-9" />
        </div>
        {roles.isPending ? (
          <div className="grid gap-3 p-4" aria-busy>
            {Array.from({ length: 3 }, (_, index) => (
              <div key={index} className="flex items-center gap-3">
                <div className="grid flex-1 gap-2">
                  <Skeleton className="h-4 w-40" />
                  <Skeleton className="h-3 w-64" />
                </div>
                <Skeleton className="h-8 w-32" />
              </div>
            ))}
          </div>
        ) : roles.isError ? (
          <ErrorState title={t`Could not load the roles.`} onRetry={() => void roles.refetch()} />
        ) : (
          <>
            <ul className="divide-y border-t">
              {loaded.map((role) => (
                <RoleRow key={role.id} role={role} onOpen={() => setTarget({ kind: "edit", role })} onDelete={() => setDeleting(role)} />
              ))}
            </ul>
            {search && loaded.length === 0 ? (
              <EmptyState className="border-t py-8" icon={<Search />} title={t`No roles match "${search}"`} description={t`Try another name.`} />
            ) : null}
            {roles.hasNextPage ? (
              <div className="flex items-center justify-between gap-3 border-t px-4 py-3 text-xs text-muted-foreground">
                <span>{t`${loaded.length} of ${total}`}</span>
                <Button variant="outline" size="sm" onClick={() => void roles.fetchNextPage()} disabled={roles.isFetchingNextPage}>
                  {roles.isFetchingNextPage ? <Spinner /> : null}
                  {t`Load more`}
                </Button>
              </div>
            ) : null}
            {!search && custom.length === 0 ? (
              <EmptyState
                className="border-t py-8"
                icon={<ShieldCheck />}
                title={t`No roles of your own yet`}
                description={t`Create roles such as "Attendant" or "Supervisor" to give members only what they need.`}
              />
            ) : null}
          </>
        )}
      </CardContent>
      <RoleSheet target={target} onClose={() => setTarget(null)} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title={t`Delete the role ${deletingName}?`}
        description={t`Members with this role lose its permissions. This cannot be undone.`}
        confirmLabel={t`Delete role`}
        pending={remove.isPending}
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(deleting.id, { onSuccess: () => setDeleting(null), onError: (error) => notifyError(error) });
        }}
      />
    </Card>
  );
}
