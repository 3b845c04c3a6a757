import { Controller, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { Lock } from "lucide-react";
import { FormSheet, FormSheetForm } from "@/components/form-sheet";
import { Alert } from "@/components/ui/alert";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { applyServerErrors } from "@/lib/form-errors";
import { fieldErrorMessage } from "@/lib/error-messages";
import { roleInput, type RoleInput } from "../../../../../schema/validation/company";
import type { RoleAnswer } from "../../../../../schema/api-types";
import { useSaveRole } from "../hooks/use-roles";
import { grantablePermissionsQuery } from "../api/roles-api";
import { PermissionChecklist } from "./permission-checklist";

/** What the sheet shows: a new role, or an existing one (read-only when it is the Owner role). */
export type RoleSheetTarget = { kind: "new" } | { kind: "edit"; role: RoleAnswer };

function RoleForm({ target, onDone }: { target: RoleSheetTarget; onDone: () => void }) {
  const { t, i18n } = useLingui();
  const save = useSaveRole();
  // What the company's roles may hold (issue 14: not the features its franchise role lacks).
  const grantable = useQuery(grantablePermissionsQuery());
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
    <FormSheetForm
      onSubmit={onSubmit}
      serverError={errors.root?.server?.message}
      pending={save.isPending}
      cancelLabel={readOnly ? t`Close` : undefined}
      submitLabel={readOnly ? null : role ? t`Save changes` : t`Create role`}
    >
      {/* A read-only (Owner) role is never submitted, so no server error comes before this notice. */}
      {readOnly ? (
        <Alert>
          <Lock />
          <p>{t`The Owner role has every permission and cannot be changed.`}</p>
        </Alert>
      ) : null}
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
            available={readOnly ? undefined : grantable.data}
            error={permissionsError ? i18n._(fieldErrorMessage(permissionsError)) : undefined}
          />
        )}
      />
    </FormSheetForm>
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
    <FormSheet open={target !== null} onClose={onClose} title={title} description={t`Members with this role get the permissions checked below.`}>
      {target ? <RoleForm key={role?.id ?? "new"} target={target} onDone={onClose} /> : null}
    </FormSheet>
  );
}
