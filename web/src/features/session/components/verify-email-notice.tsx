import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useLingui } from "@lingui/react/macro";
import { MailCheck } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { isApiError } from "@/lib/api";
import { errorMessage } from "@/lib/error-messages";
import { cn } from "@/lib/utils";
import { verifyEmailInput } from "../../../../../schema/validation/auth";
import { useResendVerificationCode, useVerifyEmail } from "../hooks/use-session";

/**
 * "Verify your e-mail" (issue 8 point 4): the 6-digit code mailed at registration, a field to enter
 * it (POST /api/me/verify-email) and "Resend code" (POST /api/me/verify-email/resend). Shown in the
 * layout and in the invitations list while GET /api/me says `emailVerified: false`; until then
 * invitations are hidden and cannot be answered. `compact` stacks it for narrow places (a popover).
 */
export function VerifyEmailNotice({ email, compact = false }: { email: string; compact?: boolean }) {
  const { t, i18n } = useLingui();
  const verify = useVerifyEmail();
  const resend = useResendVerificationCode();
  const form = useForm({ resolver: zodResolver(verifyEmailInput), defaultValues: { code: "" } });
  const onSubmit = form.handleSubmit(async ({ code }) => {
    try {
      await verify.mutateAsync(code);
    } catch (error) {
      const fieldCode = isApiError(error) ? error.fields.code : undefined;
      if (fieldCode) form.setError("code", { type: "server", message: fieldCode });
      else form.setError("root", { type: "server", message: i18n._(errorMessage(error)) });
    }
  });
  return (
    <Alert variant="warning" className={cn("flex-col", !compact && "sm:flex-row sm:items-center")}>
      <MailCheck />
      <div className="flex-1">
        <p className="font-medium">{t`Verify your email`}</p>
        <p className="text-xs opacity-90">
          {t`Enter the 6-digit code we sent to ${email}. Invitations to join a company appear once your email is verified.`}
        </p>
        {form.formState.errors.root?.message ? <p className="mt-1 text-xs font-medium text-destructive">{form.formState.errors.root.message}</p> : null}
      </div>
      <div className="flex flex-wrap items-start gap-2">
        <form onSubmit={onSubmit} className="flex items-start gap-2" noValidate>
          <FormField label={<span className="sr-only">{t`Verification code`}</span>} error={form.formState.errors.code?.message} className="gap-1">
            <Input
              {...form.register("code")}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              placeholder="000000"
              className="w-28 bg-background text-foreground tracking-widest"
            />
          </FormField>
          <Button type="submit" disabled={verify.isPending}>
            {verify.isPending ? <Spinner /> : null}
            {t`Verify`}
          </Button>
        </form>
        <Button type="button" variant="outline" className="bg-background text-foreground" disabled={resend.isPending} onClick={() => resend.mutate()}>
          {resend.isPending ? <Spinner /> : null}
          {t`Resend code`}
        </Button>
      </div>
    </Alert>
  );
}
