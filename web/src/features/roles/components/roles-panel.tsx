import { useState } from "react";
import { Plural, useLingui } from "@lingui/react/macro";
import { Eye, Lock, Pencil, Plus, ShieldCheck, Trash2 } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Skeleton } from "@/components/ui/skeleton";
import { notifyError } from "@/lib/notify";
import type { RoleAnswer } from "../../../../../schema/api-types";
import { useDeleteRole, useRoles } from "../hooks/use-roles";
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
 * The company's roles (spec §2 settings tab "roles", §6; permission settings_company): list,
 * create and edit in a slide-over, delete after confirmation; the Owner role is read-only.
 */
export function RolesPanel() {
  const { t } = useLingui();
  const roles = useRoles();
  const remove = useDeleteRole();
  const [target, setTarget] = useState<RoleSheetTarget | null>(null);
  const [deleting, setDeleting] = useState<RoleAnswer | null>(null);
  const deletingName = deleting?.name ?? "";
  const custom = roles.data?.filter((role) => !role.isOwner) ?? [];

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
              {roles.data.map((role) => (
                <RoleRow key={role.id} role={role} onOpen={() => setTarget({ kind: "edit", role })} onDelete={() => setDeleting(role)} />
              ))}
            </ul>
            {custom.length === 0 ? (
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
