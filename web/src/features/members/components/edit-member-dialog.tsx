import { Controller, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useLingui } from "@lingui/react/macro";
import { Alert } from "@/components/ui/alert";
import { Avatar } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Spinner } from "@/components/ui/spinner";
import { applyServerErrors } from "@/lib/form-errors";
import { memberUpdateInput } from "../../../../../schema/validation/company";
import type { MemberAnswer, RoleAnswer } from "../../../../../schema/api-types";
import { useUpdateMemberRoles } from "../hooks/use-team";
import { RoleChecklist } from "./role-checklist";

function EditMemberForm({ member, roles, onDone }: { member: MemberAnswer; roles: readonly RoleAnswer[]; onDone: () => void }) {
  const { t } = useLingui();
  const update = useUpdateMemberRoles();
  const form = useForm({
    resolver: zodResolver(memberUpdateInput),
    defaultValues: { roles: member.roles.map((role) => role.id) },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await update.mutateAsync({ id: member.id, roles: values.roles });
      onDone();
    } catch (error) {
      applyServerErrors(form.setError, error, ["roles"]);
    }
  });
  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <div className="flex items-center gap-3 rounded-md bg-muted/50 p-3">
        <Avatar name={member.name} src={member.image} className="size-9" />
        <div className="min-w-0">
          <p className="truncate text-sm font-medium">{member.name}</p>
          <p className="truncate text-xs text-muted-foreground">{member.email}</p>
        </div>
      </div>
      {errors.root?.server?.message ? <Alert variant="destructive">{errors.root.server.message}</Alert> : null}
      <Controller
        control={form.control}
        name="roles"
        render={({ field }) => (
          <RoleChecklist roles={roles} value={field.value} onChange={field.onChange} error={errors.roles?.message} disabled={update.isPending} />
        )}
      />
      <DialogFooter>
        <Button variant="outline" onClick={onDone} disabled={update.isPending}>
          {t`Cancel`}
        </Button>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? <Spinner /> : null}
          {t`Save changes`}
        </Button>
      </DialogFooter>
    </form>
  );
}

/**
 * "Edit roles" of a member (spec §7 PUT /companies/members/{id} {roles}; §5 "member update
 * requires an id"). Closed when `member` is null. 'Changes saved.' on success.
 */
export function EditMemberDialog({
  member,
  roles,
  onClose,
}: {
  member: MemberAnswer | null;
  roles: readonly RoleAnswer[];
  onClose: () => void;
}) {
  const { t } = useLingui();
  return (
    <Dialog open={member !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>{t`Edit roles`}</DialogTitle>
          <DialogDescription>{t`The member's permissions are the sum of the chosen roles.`}</DialogDescription>
        </DialogHeader>
        {member ? <EditMemberForm key={member.id} member={member} roles={roles} onDone={onClose} /> : null}
      </DialogContent>
    </Dialog>
  );
}
