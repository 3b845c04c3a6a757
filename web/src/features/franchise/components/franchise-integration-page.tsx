/**
 * /franchise/integration (spec §2 franchise tab "integrations"; issue 14): the franchise's Asaas
 * API key, with which it charges its own companies (payment tab). Write-only: the screen says
 * whether a key is stored, never shows it; a new key replaces it; "Remove key" deletes it.
 */
import { useState } from "react";
import { useLingui } from "@lingui/react/macro";
import { KeyRound, Trash2 } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { isApiError } from "@/lib/api";
import { errorMessage } from "@/lib/error-messages";
import { notifyError } from "@/lib/notify";
import { useFranchiseSettings, useUpdateIntegrations } from "../hooks/use-franchise";
import { FranchiseQueryState } from "./franchise-query-state";

function AsaasKeyCard({ keySet }: { keySet: boolean }) {
  const { t, i18n } = useLingui();
  const update = useUpdateIntegrations();
  const [key, setKey] = useState("");
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [confirmRemove, setConfirmRemove] = useState(false);
  const generalError = update.error && !(isApiError(update.error) && update.error.fields.asaasApiKey) ? i18n._(errorMessage(update.error)) : null;

  const save = () => {
    setFieldError(undefined);
    if (key.trim().length < 8) {
      setFieldError(key.trim() === "" ? "required" : "too_short");
      return;
    }
    update.mutate(
      { asaasApiKey: key.trim() },
      {
        onSuccess: () => setKey(""),
        onError: (error) => setFieldError(isApiError(error) ? error.fields.asaasApiKey : undefined),
      },
    );
  };

  return (
    <Card>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          save();
        }}
      >
        <CardHeader>
          <CardTitle as="h2">{t`Asaas`}</CardTitle>
          <CardDescription>{t`The API key of your Asaas account: your companies' invoices are charged through it, and the money goes to you.`}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {generalError ? <Alert variant="destructive">{generalError}</Alert> : null}
          <div className="flex flex-wrap items-center gap-2">
            {keySet ? (
              <Badge variant="secondary" data-testid="asaas-key-set">
                <KeyRound className="size-3" aria-hidden />
                {t`Key set`}
              </Badge>
            ) : (
              <Badge variant="outline">{t`No key`}</Badge>
            )}
            {keySet ? (
              <Button type="button" variant="ghost" size="sm" className="text-destructive hover:text-destructive" onClick={() => setConfirmRemove(true)}>
                <Trash2 />
                {t`Remove key`}
              </Button>
            ) : null}
          </div>
          <FormField
            label={keySet ? t`New API key` : t`API key`}
            error={fieldError}
            hint={t`Stored encrypted and never shown again. In Asaas: Integrations → API key.`}
          >
            <Input type="password" autoComplete="off" spellCheck={false} value={key} onChange={(event) => setKey(event.target.value)} />
          </FormField>
        </CardContent>
        <CardFooter className="justify-end">
          <Button type="submit" disabled={update.isPending || key.trim() === ""}>
            {update.isPending ? <Spinner /> : null}
            {keySet ? t`Replace key` : t`Save key`}
          </Button>
        </CardFooter>
      </form>
      <ConfirmDialog
        open={confirmRemove}
        onOpenChange={setConfirmRemove}
        title={t`Remove the Asaas key?`}
        description={t`Your companies' invoices can no longer be charged until you set a key again.`}
        confirmLabel={t`Remove key`}
        pending={update.isPending}
        onConfirm={() => update.mutate({ asaasApiKey: null }, { onSuccess: () => setConfirmRemove(false), onError: (error) => notifyError(error) })}
      />
    </Card>
  );
}

/** The franchise integrations tab. */
export function FranchiseIntegrationPage() {
  const { t } = useLingui();
  const settings = useFranchiseSettings();
  return (
    <section aria-label={t`Integrations`} className="grid max-w-3xl gap-4">
      <FranchiseQueryState pending={settings.isPending} error={settings.error} onRetry={() => void settings.refetch()}>
        {() => settings.data && <AsaasKeyCard keySet={settings.data.asaasApiKeySet} />}
      </FranchiseQueryState>
    </section>
  );
}
