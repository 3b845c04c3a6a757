import { Controller, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useLingui } from "@lingui/react/macro";
import { Lock, X } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Sheet, SheetClose, SheetContent, SheetDescription, SheetTitle } from "@/components/ui/sheet";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import { applyServerErrors } from "@/lib/form-errors";
import { fieldErrorMessage } from "@/lib/error-messages";
import { roleInput, type RoleInput } from "../../../../../schema/validation/company";
import type { RoleAnswer } from "../../../../../schema/api-types";
import { useSaveRole } from "../hooks/use-roles";
import { PermissionChecklist } from "./permission-checklist";

/** What the sheet shows: a new role, or an existing one (read-only when it is the Owner role). */
export type RoleSheetTarget = { kind: "new" } | { kind: "edit"; role: RoleAnswer };

function RoleForm({ target, onDone }: { target: RoleSheetTarget; onDone: () => void }) {
  const { t, i18n } = useLingui();
  const save = useSaveRole();
  const role = target.kind === "edit" ? target.role : null;
  const readOnly = role?.isOwner === true;
  const form = useForm<RoleInput>({
    resolver: zodResolver(roleInput),
    defaultValues: { name: role?.name ?? "", description: role?.description ?? "", permissions: role?.permissions ?? [] },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    if (readOnly) return;
    try {
      await save.mutateAsync({ id: role?.id ?? null, input: values });
      onDone();
    } catch (error) {
      applyServerErrors(form.setError, error, ["name", "description", "permissions"]);
    }
  });

  const permissionsError = errors.permissions?.message ?? errors.permissions?.root?.message;

  return (
    <form onSubmit={onSubmit} className="flex min-h-0 flex-1 flex-col" noValidate>
      <div className="grid flex-1 content-start gap-4 overflow-y-auto p-5">
        {readOnly ? (
          <Alert>
            <Lock />
            <p>{t`The Owner role has every permission and cannot be changed.`}</p>
          </Alert>
        ) : null}
        {errors.root?.server?.message ? <Alert variant="destructive">{errors.root.server.message}</Alert> : null}
        <FormField label={t`Name`} error={errors.name?.message}>
          <Input autoFocus={!readOnly} readOnly={readOnly} {...form.register("name")} />
        </FormField>
        <FormField label={t`Description`} error={errors.description?.message} hint={readOnly ? undefined : t`Optional. Helps others choose the right role.`}>
          <Textarea rows={3} readOnly={readOnly} {...form.register("description")} />
        </FormField>
        <Controller
          control={form.control}
          name="permissions"
          render={({ field }) => (
            <PermissionChecklist
              value={field.value}
              onChange={field.onChange}
              disabled={readOnly || save.isPending}
              error={permissionsError ? i18n._(fieldErrorMessage(permissionsError)) : undefined}
            />
          )}
        />
      </div>
      <div className="flex flex-col-reverse gap-2 border-t p-4 sm:flex-row sm:justify-end">
        <SheetClose asChild>
          <Button variant="outline" disabled={save.isPending}>
            {readOnly ? t`Close` : t`Cancel`}
          </Button>
        </SheetClose>
        {readOnly ? null : (
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? <Spinner /> : null}
            {role ? t`Save changes` : t`Create role`}
          </Button>
        )}
      </div>
    </form>
  );
}

/**
 * The role slide-over (spec §2 "each entity is edited in a slide-over form", §6): name,
 * description and the permission checklist with "mark all". The Owner role opens read-only.
 * A name already used answers 409 `name_in_use`, shown under the name field.
 */
export function RoleSheet({ target, onClose }: { target: RoleSheetTarget | null; onClose: () => void }) {
  const { t } = useLingui();
  const role = target?.kind === "edit" ? target.role : null;
  const title = !target ? "" : target.kind === "new" ? t`New role` : role?.isOwner ? t`Owner role` : t`Edit role`;
  return (
    <Sheet open={target !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <SheetContent side="right" className="w-full max-w-xl">
        <div className="flex items-start justify-between gap-3 border-b p-5">
          <div className="grid gap-1">
            <SheetTitle className="text-lg leading-tight font-semibold">{title}</SheetTitle>
            <SheetDescription className="text-sm text-muted-foreground">
              {t`Members with this role get the permissions checked below.`}
            </SheetDescription>
          </div>
          <SheetClose asChild>
            <Button variant="ghost" size="icon" aria-label={t`Close`}>
              <X />
            </Button>
          </SheetClose>
        </div>
        {target ? <RoleForm key={role?.id ?? "new"} target={target} onDone={onClose} /> : null}
      </SheetContent>
    </Sheet>
  );
}
