/**
 * /franchise/email (spec §2 franchise tab "email", §3 mailUser, mailHost, mailPort, mailPassword;
 * issue 14): the franchise's own SMTP server, through which its companies' e-mails go out. The
 * password is write-only: the screen only says whether one is stored; typing a new one replaces
 * it, "Remove password" deletes it. "Send test e-mail" sends one through the saved settings and
 * shows the result.
 */
import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { CircleCheck, CircleX, KeyRound, Send } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { applyServerErrors } from "@/lib/form-errors";
import { errorMessage } from "@/lib/error-messages";
import { isApiError } from "@/lib/api";
import { SettingsFormFooter } from "@/features/settings/components/settings-form-footer";
import type { FranchiseSettingsAnswer } from "../../../../../schema/validation/franchise";
import { sendTestEmail } from "../api/franchise-api";
import { buildEmailForm, emailDefaults, emailFormSchema, type EmailValues } from "../lib/franchise-form";
import { useFranchiseSettings, useUpdateFranchise } from "../hooks/use-franchise";
import { FranchiseQueryState } from "./franchise-query-state";

const FORM_FIELDS = ["mailUser", "mailHost", "mailPort", "mailPassword"] as const;

function EmailForm({ settings }: { settings: FranchiseSettingsAnswer }) {
  const { t } = useLingui();
  const update = useUpdateFranchise();
  const [removePassword, setRemovePassword] = useState(false);
  const form = useForm<EmailValues>({ resolver: zodResolver(emailFormSchema), defaultValues: emailDefaults(settings) });
  const { errors, isDirty } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const saved = await update.mutateAsync(buildEmailForm(values, removePassword));
      setRemovePassword(false);
      form.reset(emailDefaults(saved));
    } catch (error) {
      applyServerErrors(form.setError, error, FORM_FIELDS);
    }
  });

  const passwordState = removePassword ? (
    <Badge variant="destructive">{t`Will be removed when you save`}</Badge>
  ) : settings.mailPasswordSet ? (
    <Badge variant="secondary" data-testid="mail-password-set">
      <KeyRound className="size-3" aria-hidden />
      {t`Password set`}
    </Badge>
  ) : (
    <Badge variant="outline">{t`No password`}</Badge>
  );

  return (
    <Card>
      <form onSubmit={onSubmit} noValidate>
        <CardHeader>
          <CardTitle as="h2">{t`E-mail server (SMTP)`}</CardTitle>
          <CardDescription>{t`Invitations, password resets and payment reminders of your companies are sent from this server, with your name. Without it, the product's server sends them.`}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          {errors.root?.server?.message ? <Alert variant="destructive">{errors.root.server.message}</Alert> : null}
          <FormField label={t`User (sender address)`} error={errors.mailUser?.message} hint={t`Usually the e-mail address the messages come from.`}>
            <Input autoComplete="off" {...form.register("mailUser")} />
          </FormField>
          <div className="grid gap-5 sm:grid-cols-[1fr_8rem]">
            <FormField label={t`Host`} error={errors.mailHost?.message} hint={t`E.g. smtp.example.com`}>
              <Input autoComplete="off" spellCheck={false} {...form.register("mailHost")} />
            </FormField>
            <FormField label={t`Port`} error={errors.mailPort?.message} hint={t`587 or 465`}>
              <Input inputMode="numeric" {...form.register("mailPort")} />
            </FormField>
          </div>
          <div className="grid gap-2">
            <FormField
              label={t`Password`}
              error={errors.mailPassword?.message}
              hint={settings.mailPasswordSet ? t`Stored encrypted and never shown. Type a new one to replace it; leave blank to keep it.` : t`Stored encrypted and never shown again.`}
            >
              <Input type="password" autoComplete="new-password" disabled={removePassword} {...form.register("mailPassword")} />
            </FormField>
            <div className="flex flex-wrap items-center gap-2">
              {passwordState}
              {settings.mailPasswordSet ? (
                <Button type="button" variant="ghost" size="sm" onClick={() => setRemovePassword((value) => !value)}>
                  {removePassword ? t`Undo` : t`Remove password`}
                </Button>
              ) : null}
            </div>
          </div>
        </CardContent>
        <SettingsFormFooter
          changed={isDirty || removePassword}
          saving={update.isPending}
          onDiscard={() => {
            form.reset();
            setRemovePassword(false);
          }}
        />
      </form>
    </Card>
  );
}

/** "Send test e-mail": to the address typed (default: the admin's own), through the saved settings. */
function TestEmailCard({ configured }: { configured: boolean }) {
  const { t, i18n } = useLingui();
  const [to, setTo] = useState("");
  const test = useMutation({ mutationFn: () => sendTestEmail(to.trim() ? { to: to.trim() } : {}) });
  const sentTo = test.data?.to ?? "";
  const failure = test.error ? (isApiError(test.error) && test.error.message && test.error.status < 500 ? test.error.message : i18n._(errorMessage(test.error))) : null;
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">{t`Send test e-mail`}</CardTitle>
        <CardDescription>{t`Checks the saved settings by sending a message through your server.`}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <FormField label={t`Send to`} hint={t`Leave blank to send it to your own address.`}>
          <Input type="email" autoComplete="email" value={to} onChange={(event) => setTo(event.target.value)} />
        </FormField>
        <div aria-live="polite" data-testid="email-test-result">
          {test.isSuccess ? (
            <Alert>
              <CircleCheck className="text-primary" />
              <p>{t`Test e-mail sent to ${sentTo}.`}</p>
            </Alert>
          ) : failure ? (
            <Alert variant="destructive">
              <CircleX />
              <p>{t`The test e-mail could not be sent: ${failure}`}</p>
            </Alert>
          ) : null}
        </div>
      </CardContent>
      <CardFooter className="justify-end">
        <Button type="button" onClick={() => test.mutate()} disabled={test.isPending || !configured}>
          {test.isPending ? <Spinner /> : <Send />}
          {t`Send test e-mail`}
        </Button>
      </CardFooter>
    </Card>
  );
}

/** The franchise e-mail tab. */
export function FranchiseEmailPage() {
  const { t } = useLingui();
  const settings = useFranchiseSettings();
  return (
    <section aria-label={t`Email`} className="grid max-w-3xl gap-4">
      <FranchiseQueryState pending={settings.isPending} error={settings.error} onRetry={() => void settings.refetch()} rows={5}>
        {() =>
          settings.data && (
            <>
              <EmailForm key={settings.data.updatedAt} settings={settings.data} />
              <TestEmailCard configured={settings.data.mailHost !== null} />
            </>
          )
        }
      </FranchiseQueryState>
    </section>
  );
}
