import { useLingui } from "@lingui/react/macro";
import { MailCheck } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/lib/utils";
import { useResendVerificationCode, useVerifyEmail } from "../hooks/use-session";
import { CodeForm, useCodeForm } from "@/components/code-form";

/**
 * "Verify your e-mail" (issue 8 point 4): the 6-digit code mailed at registration, a field to enter
 * it (POST /api/me/verify-email) and "Resend code" (POST /api/me/verify-email/resend). Shown in the
 * layout and in the invitations list while GET /api/me says `emailVerified: false`; until then
 * invitations are hidden and cannot be answered. `compact` stacks it for narrow places (a popover).
 */
export function VerifyEmailNotice({ email, compact = false }: { email: string; compact?: boolean }) {
  const { t } = useLingui();
  const verify = useVerifyEmail();
  const resend = useResendVerificationCode();
  const code = useCodeForm((value) => verify.mutateAsync(value));
  return (
    <Alert variant="warning" className={cn("flex-col", !compact && "sm:flex-row sm:items-center")}>
      <MailCheck />
      <div className="flex-1">
        <p className="font-medium">{t`Verify your email`}</p>
        <p className="text-xs opacity-90">
          {t`Enter the 6-digit code we sent to ${email}. Invitations to join a company appear once your email is verified.`}
        </p>
        {code.rootError ? <p className="mt-1 text-xs font-medium text-destructive">{code.rootError}</p> : null}
      </div>
      <div className="flex flex-wrap items-start gap-2">
        <CodeForm state={code} label={t`Verification code`} submitLabel={t`Verify`} pending={verify.isPending} />
        <Button type="button" variant="outline" className="bg-background text-foreground" disabled={resend.isPending} onClick={() => resend.mutate()}>
          {resend.isPending ? <Spinner /> : null}
          {t`Resend code`}
        </Button>
      </div>
    </Alert>
  );
}
