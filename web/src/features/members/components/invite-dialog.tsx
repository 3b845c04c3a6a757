import { Controller, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Link } from "react-router";
import { useLingui } from "@lingui/react/macro";
import { Send } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { applyServerErrors } from "@/lib/form-errors";
import { inviteInput } from "../../../../../schema/validation/company";
import type { RoleAnswer } from "../../../../../schema/api-types";
import { useInviteMember } from "../hooks/use-team";
import { RoleChecklist } from "./role-checklist";

/**
 * "Invite member" (spec §7 POST /companies/invite {email, roles}; §5 "inviting requires an
 * email"): an e-mail and at least one role. On success the dialog closes with 'Invitation sent.'.
 */
export function InviteDialog({
  open,
  onOpenChange,
  roles,
  canManageRoles,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  roles: readonly RoleAnswer[];
  /** Whether to offer a link to the Roles tab when no role can be given yet. */
  canManageRoles: boolean;
}) {
  const { t } = useLingui();
  const invite = useInviteMember();
  const form = useForm({ resolver: zodResolver(inviteInput), defaultValues: { email: "", roles: [] } });
  const { errors } = form.formState;
  const assignable = roles.filter((role) => !role.isOwner);

  const close = (next: boolean) => {
    if (invite.isPending) return;
    onOpenChange(next);
    if (!next) form.reset();
  };

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await invite.mutateAsync(values);
      close(false);
    } catch (error) {
      applyServerErrors(form.setError, error, ["email", "roles"]);
    }
  });

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>{t`Invite member`}</DialogTitle>
          <DialogDescription>{t`We will email an invitation. The person joins once they accept it.`}</DialogDescription>
        </DialogHeader>
        {assignable.length === 0 ? (
          <Alert>
            <p>
              {t`There is no role to give yet.`}{" "}
              {canManageRoles ? (
                <Link to="/settings/roles" className="font-medium text-primary underline-offset-4 hover:underline">
                  {t`Create a role first.`}
                </Link>
              ) : (
                t`Ask an administrator to create a role first.`
              )}
            </p>
          </Alert>
        ) : (
          <form onSubmit={onSubmit} className="grid gap-4" noValidate>
            {errors.root?.server?.message ? <Alert variant="destructive">{errors.root.server.message}</Alert> : null}
            <FormField label={t`Email`} error={errors.email?.message}>
              <Input type="email" autoComplete="off" autoFocus {...form.register("email")} />
            </FormField>
            <Controller
              control={form.control}
              name="roles"
              render={({ field }) => (
                <RoleChecklist roles={roles} value={field.value} onChange={field.onChange} error={errors.roles?.message} disabled={invite.isPending} />
              )}
            />
            <DialogFooter>
              <Button variant="outline" onClick={() => close(false)} disabled={invite.isPending}>
                {t`Cancel`}
              </Button>
              <Button type="submit" disabled={invite.isPending}>
                {invite.isPending ? <Spinner /> : <Send />}
                {t`Send invitation`}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
