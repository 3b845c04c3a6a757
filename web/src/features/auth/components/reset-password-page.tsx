import { Link, useSearchParams } from "react-router";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useLingui } from "@lingui/react/macro";
import { twMerge } from "tailwind-merge";
import { z } from "zod";
import { LinkIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { setClassMerge } from "@/lib/utils";
import { startSession } from "@/lib/session";
import { resetPasswordInput } from "../../../../../schema/validation/auth";
import { resetPassword } from "../api/auth-api";
import { useServerErrors } from "../hooks/use-server-errors";
import { AuthCard } from "./auth-card";

// This page's empty state overrides its padding, which needs tailwind-merge (not loaded by /login).
setClassMerge(twMerge);

/** The reset schema plus a confirmation the user types twice (client-side only). */
const resetForm = resetPasswordInput
  .extend({ confirm: z.string() })
  .refine((values) => values.password === values.confirm, { path: ["confirm"], error: "passwords_mismatch" });

/** /reset-password?token=...: choose a new password; success signs the user in (spec §4). */
export function ResetPasswordPage() {
  const { t } = useLingui();
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const form = useForm({ resolver: zodResolver(resetForm), defaultValues: { token, password: "", confirm: "" } });
  const applyErrors = useServerErrors(form, ["password"], "reset");
  const { errors, isSubmitting } = form.formState;
  const back = (
    <Link to="/forgot-password" className="font-medium text-primary underline-offset-4 hover:underline">
      {t`Request a new link`}
    </Link>
  );
  if (!resetPasswordInput.shape.token.safeParse(token).success) {
    return (
      <AuthCard title={t`Reset password`} footer={back}>
        <EmptyState className="py-4" icon={<LinkIcon />} title={t`This link is invalid or has expired.`} description={t`Ask for a new password recovery email.`} />
      </AuthCard>
    );
  }
  const onSubmit = form.handleSubmit(async ({ token: resetToken, password }) => {
    try {
      const answer = await resetPassword({ token: resetToken, password });
      startSession(answer.token);
    } catch (error) {
      applyErrors(error);
    }
  });
  return (
    <AuthCard title={t`Reset password`} description={t`Choose a new password for your account.`} error={errors.root?.server?.message} footer={back}>
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <FormField label={t`New password`} error={errors.password?.message} hint={t`At least 8 characters.`}>
          <Input type="password" autoComplete="new-password" autoFocus {...form.register("password")} />
        </FormField>
        <FormField label={t`Confirm the new password`} error={errors.confirm?.message}>
          <Input type="password" autoComplete="new-password" {...form.register("confirm")} />
        </FormField>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? <Spinner /> : null}
          {t`Save new password`}
        </Button>
      </form>
    </AuthCard>
  );
}
