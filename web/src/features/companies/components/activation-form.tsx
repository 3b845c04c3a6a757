import { useLingui } from "@lingui/react/macro";
import { KeyRound } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { useActivateCompany } from "../hooks/use-companies";
import { CodeForm, useCodeForm } from "@/components/code-form";

/**
 * Company activation by a 6-digit code (spec §2 "Company activation: by code"; POST
 * /api/companies/active-code). Shown while the active company is not activated; only members with
 * settings_company may activate, others are told to ask.
 */
export function ActivationNotice({ canActivate }: { canActivate: boolean }) {
  const { t } = useLingui();
  const activate = useActivateCompany();
  const code = useCodeForm((value) => activate.mutateAsync(value));
  return (
    <Alert variant="warning" className="flex-col sm:flex-row sm:items-center">
      <KeyRound />
      <div className="flex-1">
        <p className="font-medium">{t`Your account is not activated yet.`}</p>
        <p className="text-xs opacity-90">
          {canActivate
            ? t`Enter the 6-digit activation code you received by email.`
            : t`Ask the company owner to activate the account.`}
        </p>
        {code.rootError ? <p className="mt-1 text-xs font-medium text-destructive">{code.rootError}</p> : null}
      </div>
      {canActivate ? (
        <CodeForm state={code} label={t`Activation code`} submitLabel={t`Activate`} pending={activate.isPending} />
      ) : null}
    </Alert>
  );
}
