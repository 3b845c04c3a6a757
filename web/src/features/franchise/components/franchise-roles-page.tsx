/**
 * /franchise/roles (spec §2 franchise tab "roles", §3 "Franchise role", §6; issue 14): the
 * franchise's roles, a bundle of the franchise-grantable features each, paged by cursor with a
 * search by name; created and edited in a slide-over with a checkbox per feature of GET
 * /api/franchise/permissions; deleted after confirmation (refused with a message while companies
 * hold the role).
 */
import { useId, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Plural, useLingui } from "@lingui/react/macro";
import { Pencil, Plus, Search, ShieldCheck, Trash2 } from "lucide-react";
import { toast } from "sonner";
import { FormSheet, FormSheetForm } from "@/components/form-sheet";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { applyServerErrors } from "@/lib/form-errors";
import { fieldErrorMessage } from "@/lib/error-messages";
import { notifyError, notifySuccess, TOAST_DURATION_MS } from "@/lib/notify";
import { useDebounced } from "@/lib/use-debounced";
import type { FranchisePermission } from "../../../../../schema/permissions";
import { franchiseRoleInput, type FranchiseRoleAnswer, type FranchiseRoleInput } from "../../../../../schema/validation/franchise";
import {
  createFranchiseRole,
  deleteFranchiseRole,
  franchiseKeys,
  franchisePermissionsQuery,
  franchiseRolesQuery,
  updateFranchiseRole,
} from "../api/franchise-api";
import { FEATURE_LABELS } from "../lib/labels";
import { roleInUseMessage, toggleFeature } from "../lib/role-form";
import { FranchiseQueryState } from "./franchise-query-state";
import { ListFooter, ListSearch } from "./paged-list";

/** The feature checkboxes: one per permission of the catalogue. */
function FeatureChecklist({
  catalogue,
  value,
  onChange,
  disabled,
  error,
}: {
  catalogue: readonly FranchisePermission[];
  value: readonly FranchisePermission[];
  onChange: (next: FranchisePermission[]) => void;
  disabled: boolean;
  error?: string;
}) {
  const { t, i18n } = useLingui();
  const id = useId();
  return (
    <fieldset className="grid gap-2" aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="mb-2 text-sm leading-none font-medium">{t`Features`}</legend>
      <p className="text-xs text-muted-foreground">{t`Companies with this role see only these features; the rest leaves their navigation.`}</p>
      {error ? (
        <p id={`${id}-error`} className="text-xs font-medium text-destructive">
          {error}
        </p>
      ) : null}
      <ul className="grid gap-1 rounded-md border p-3 sm:grid-cols-2">
        {catalogue.map((permission) => {
          const itemId = `${id}-${permission}`;
          return (
            <li key={permission} className="flex items-center gap-2 py-1">
              <Checkbox
                id={itemId}
                data-testid={`feature-${permission}`}
                checked={value.includes(permission)}
                disabled={disabled}
                onCheckedChange={(checked) => onChange(toggleFeature(value, permission, checked === true))}
              />
              <label htmlFor={itemId} className="text-sm">
                {i18n._(FEATURE_LABELS[permission])}
              </label>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}

/** What the sheet edits: a new role or an existing one. */
type RoleTarget = { kind: "new" } | { kind: "edit"; role: FranchiseRoleAnswer };

function RoleForm({ target, onDone }: { target: RoleTarget; onDone: () => void }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const catalogue = useQuery(franchisePermissionsQuery());
  const role = target.kind === "edit" ? target.role : null;
  const form = useForm<FranchiseRoleInput>({
    resolver: zodResolver(franchiseRoleInput),
    defaultValues: { name: role?.name ?? "", permissions: role?.permissions ?? [] },
  });
  const save = useMutation({
    mutationFn: (input: FranchiseRoleInput) => (role ? updateFranchiseRole(role.id, input) : createFranchiseRole(input)),
    onSuccess: async () => {
      notifySuccess(role ? "edited" : "created");
      await queryClient.invalidateQueries({ queryKey: franchiseKeys.all });
    },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync(values);
      onDone();
    } catch (error) {
      applyServerErrors(form.setError, error, ["name", "permissions"]);
    }
  });
  const permissionsError = errors.permissions?.message ?? errors.permissions?.root?.message;
  return (
    <FormSheetForm onSubmit={onSubmit} serverError={errors.root?.server?.message} pending={save.isPending} submitLabel={role ? t`Save changes` : t`Create role`}>
      <FormField label={t`Name`} error={errors.name?.message}>
        <Input autoFocus {...form.register("name")} />
      </FormField>
      {catalogue.isPending ? (
        <Skeleton className="h-40" />
      ) : (
        <Controller
          control={form.control}
          name="permissions"
          render={({ field }) => (
            <FeatureChecklist
              catalogue={catalogue.data ?? []}
              value={field.value}
              onChange={field.onChange}
              disabled={save.isPending}
              error={permissionsError ? i18n._(fieldErrorMessage(permissionsError)) : undefined}
            />
          )}
        />
      )}
    </FormSheetForm>
  );
}

function RoleRow({ role, onEdit, onDelete }: { role: FranchiseRoleAnswer; onEdit: () => void; onDelete: () => void }) {
  const { t, i18n } = useLingui();
  const name = role.name;
  const companies = role.companies;
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center" data-testid="franchise-role-row" aria-label={name}>
      <div className="grid min-w-0 flex-1 gap-1">
        <p className="truncate text-sm font-medium">{name}</p>
        <div className="flex flex-wrap gap-1">
          {role.permissions.length === 0 ? (
            <span className="text-xs text-muted-foreground">{t`No features`}</span>
          ) : (
            role.permissions.map((permission) => (
              <Badge key={permission} variant="secondary">
                {i18n._(FEATURE_LABELS[permission])}
              </Badge>
            ))
          )}
        </div>
        <p className="text-xs text-muted-foreground">
          <Plural value={companies} _0="No company holds it" one="Held by # company" other="Held by # companies" />
        </p>
      </div>
      <div className="flex shrink-0 gap-2">
        <Button variant="outline" size="sm" onClick={onEdit} aria-label={t`Edit ${name}`}>
          <Pencil />
          {t`Edit`}
        </Button>
        <Button variant="outline" size="sm" className="text-destructive hover:text-destructive" onClick={onDelete} aria-label={t`Delete ${name}`}>
          <Trash2 />
          {t`Delete`}
        </Button>
      </div>
    </li>
  );
}

/** The franchise roles tab. */
export function FranchiseRolesPage() {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const [text, setText] = useState("");
  const search = useDebounced(text.trim(), 300);
  const list = useInfiniteQuery(franchiseRolesQuery(search));
  const [target, setTarget] = useState<RoleTarget | null>(null);
  const [deleting, setDeleting] = useState<FranchiseRoleAnswer | null>(null);
  const remove = useMutation({
    mutationFn: (role: FranchiseRoleAnswer) => deleteFranchiseRole(role.id),
    onSuccess: async () => {
      notifySuccess("deleted");
      setDeleting(null);
      await queryClient.invalidateQueries({ queryKey: franchiseKeys.all });
    },
    onError: (error, role) => {
      setDeleting(null);
      const inUse = roleInUseMessage(i18n, error, role.companies);
      if (inUse) toast.error(inUse, { duration: TOAST_DURATION_MS });
      else notifyError(error);
    },
  });
  const roles = list.data?.pages.flatMap((answer) => answer.results) ?? [];
  const total = list.data?.pages[0]?.total ?? 0;
  const deletingName = deleting?.name ?? "";
  const create = () => setTarget({ kind: "new" });
  const editing = target?.kind === "edit" ? target.role : null;

  return (
    <section aria-label={t`Roles`} className="grid max-w-5xl gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="max-w-2xl text-sm text-muted-foreground">{t`A franchise role is the set of features a company may use. Each of your companies holds one.`}</p>
        <Button onClick={create} data-testid="new-franchise-role">
          <Plus />
          {t`New role`}
        </Button>
      </div>
      <ListSearch value={text} onChange={setText} label={t`Search roles`} placeholder={t`Search by name`} />
      <FranchiseQueryState pending={list.isPending} error={list.error} onRetry={() => void list.refetch()}>
        {() => (
          <Card>
            {roles.length === 0 ? (
              search ? (
                <EmptyState icon={<Search />} title={t`No roles match "${search}"`} description={t`Try another name.`} />
              ) : (
                <EmptyState
                  icon={<ShieldCheck />}
                  title={t`No roles yet`}
                  description={t`Create roles such as "Basic" or "Complete" to choose which features your companies get.`}
                  action={
                    <Button variant="outline" onClick={create}>
                      <Plus />
                      {t`New role`}
                    </Button>
                  }
                />
              )
            ) : (
              <>
                <ul className="divide-y" aria-label={t`Roles`}>
                  {roles.map((role) => (
                    <RoleRow key={role.id} role={role} onEdit={() => setTarget({ kind: "edit", role })} onDelete={() => setDeleting(role)} />
                  ))}
                </ul>
                <ListFooter shown={roles.length} total={total} hasMore={list.hasNextPage} loading={list.isFetchingNextPage} onMore={() => void list.fetchNextPage()} />
              </>
            )}
          </Card>
        )}
      </FranchiseQueryState>
      <FormSheet
        open={target !== null}
        onClose={() => setTarget(null)}
        title={editing ? t`Edit role` : t`New role`}
        description={t`Companies holding this role get the features checked below.`}
      >
        {target ? <RoleForm key={editing?.id ?? "new"} target={target} onDone={() => setTarget(null)} /> : null}
      </FormSheet>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title={t`Delete the role ${deletingName}?`}
        description={t`This cannot be undone. A role held by companies cannot be deleted.`}
        confirmLabel={t`Delete role`}
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
      />
    </section>
  );
}
