import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useLingui } from "@lingui/react/macro";
import { KeyRound } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { isApiError } from "@/lib/api";
import { errorMessage } from "@/lib/error-messages";
import { activeCodeInput } from "../../../../../schema/validation/company";
import { useActivateCompany } from "../hooks/use-companies";

/**
 * Company activation by a 6-digit code (spec §2 "Company activation: by code"; POST
 * /api/companies/active-code). Shown while the active company is not activated; only members with
 * settings_company may activate, others are told to ask.
 */
export function ActivationNotice({ canActivate }: { canActivate: boolean }) {
  const { t, i18n } = useLingui();
  const activate = useActivateCompany();
  const form = useForm({ resolver: zodResolver(activeCodeInput), defaultValues: { code: "" } });
  const onSubmit = form.handleSubmit(async ({ code }) => {
    try {
      await activate.mutateAsync(code);
    } catch (error) {
      const fieldCode = isApiError(error) ? error.fields.code : undefined;
      if (fieldCode) form.setError("code", { type: "server", message: fieldCode });
      else form.setError("root", { type: "server", message: i18n._(errorMessage(error)) });
    }
  });
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
        {form.formState.errors.root?.message ? <p className="mt-1 text-xs font-medium text-destructive">{form.formState.errors.root.message}</p> : null}
      </div>
      {canActivate ? (
        <form onSubmit={onSubmit} className="flex items-start gap-2" noValidate>
          <FormField label={<span className="sr-only">{t`Activation code`}</span>} error={form.formState.errors.code?.message} className="gap-1">
            <Input
              {...form.register("code")}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              placeholder="000000"
              className="w-28 bg-background text-foreground tracking-widest"
            />
          </FormField>
          <Button type="submit" disabled={activate.isPending}>
            {activate.isPending ? <Spinner /> : null}
            {t`Activate`}
          </Button>
        </form>
      ) : null}
    </Alert>
  );
}
