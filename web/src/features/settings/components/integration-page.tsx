import { useState } from "react";
import { useLingui } from "@lingui/react/macro";
import { Building2, Copy, KeyRound, RefreshCw, TriangleAlert } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { notifyError, notifySuccess } from "@/lib/notify";
import { useActiveCompany } from "@/features/companies/hooks/use-companies";
import type { CompanyAnswer } from "../../../../../schema/api-types";
import { useGenerateApiKey } from "../hooks/use-settings";

/** Copies `text` to the clipboard with the spec's 'Copied to clipboard.' toast. */
async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    notifySuccess("copied");
  } catch (error) {
    notifyError(error);
  }
}

/** A block of code with a copy button. */
function CodeBlock({ code, copyLabel }: { code: string; copyLabel: string }) {
  return (
    <div className="relative">
      <pre className="overflow-x-auto rounded-md border bg-muted/50 p-3 pr-12 font-mono text-xs leading-relaxed">
        <code>{code}</code>
      </pre>
      <Button variant="ghost" size="icon" className="absolute top-1 right-1 size-8" onClick={() => void copyText(code)} aria-label={copyLabel}>
        <Copy />
      </Button>
    </div>
  );
}

function ApiKeyCard({ company }: { company: CompanyAnswer }) {
  const { t } = useLingui();
  const generate = useGenerateApiKey();
  const [confirming, setConfirming] = useState(false);
  const [fresh, setFresh] = useState<string | null>(null);
  const hasKey = company.apiKeyHint !== null;

  const run = () =>
    generate.mutate(undefined, {
      onSuccess: ({ apiKey }) => {
        setFresh(apiKey);
        setConfirming(false);
      },
      onError: (error) => {
        setConfirming(false);
        notifyError(error);
      },
    });

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">{t`API key`}</CardTitle>
        <CardDescription>{t`The key lets your systems call the public API on behalf of this company. Keep it secret.`}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {fresh ? (
          <Alert variant="warning" className="flex-col gap-3">
            <div className="flex items-start gap-3">
              <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
              <p className="font-medium">{t`Copy your new key now. For your security it will not be shown again.`}</p>
            </div>
            <div className="flex w-full flex-col gap-2 sm:flex-row">
              <Input
                readOnly
                value={fresh}
                aria-label={t`New API key`}
                className="bg-background font-mono text-xs text-foreground"
                onFocus={(event) => event.currentTarget.select()}
              />
              <Button onClick={() => void copyText(fresh)}>
                <Copy />
                {t`Copy key`}
              </Button>
            </div>
            <Button variant="outline" size="sm" className="self-start" onClick={() => setFresh(null)}>
              {t`I have copied it`}
            </Button>
          </Alert>
        ) : null}
        <div className="flex flex-wrap items-center gap-3 rounded-md border p-3">
          <KeyRound className="size-4 text-muted-foreground" aria-hidden />
          {hasKey ? (
            <>
              <span className="text-sm text-muted-foreground">{t`Current key`}</span>
              <code className="font-mono text-sm">{company.apiKeyHint}</code>
            </>
          ) : (
            <span className="text-sm text-muted-foreground">{t`No API key has been generated yet.`}</span>
          )}
        </div>
      </CardContent>
      <CardFooter>
        <Button onClick={() => (hasKey ? setConfirming(true) : run())} disabled={generate.isPending}>
          {generate.isPending ? <Spinner /> : <RefreshCw />}
          {hasKey ? t`Generate new key` : t`Generate key`}
        </Button>
      </CardFooter>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t`Generate a new API key?`}
        description={t`The current key stops working immediately. Every integration using it must be updated with the new key.`}
        confirmLabel={t`Generate new key`}
        pending={generate.isPending}
        onConfirm={run}
      />
    </Card>
  );
}

function DocumentationCard() {
  const { t } = useLingui();
  const base = `${window.location.origin}/api`;
  const curl = `curl -H "X-Api-Key: YOUR_API_KEY" \\\n  ${base}/companies/active`;
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">{t`Documentation`}</CardTitle>
        <CardDescription>{t`How to call the API with your key.`}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5 text-sm">
        <div className="grid gap-2">
          <h3 className="font-medium">{t`Base URL`}</h3>
          <p className="text-muted-foreground">{t`Every path of the API starts here.`}</p>
          <CodeBlock code={base} copyLabel={t`Copy the base URL`} />
        </div>
        <div className="grid gap-2">
          <h3 className="font-medium">{t`Authentication`}</h3>
          <p className="text-muted-foreground">
            {t`Send the key in the X-Api-Key header of every request. The call acts as the company's owner, inside this company only; an unknown key answers 401.`}
          </p>
          <CodeBlock code="X-Api-Key: YOUR_API_KEY" copyLabel={t`Copy the header`} />
        </div>
        <div className="grid gap-2">
          <h3 className="font-medium">{t`Example`}</h3>
          <p className="text-muted-foreground">{t`Reads this company's details. Answers are JSON; a failed call answers an "error" object with a code and a message.`}</p>
          <CodeBlock code={curl} copyLabel={t`Copy the example`} />
        </div>
      </CardContent>
    </Card>
  );
}

/**
 * /settings/integration (spec §2 "integration (API key and documentation link)"; permission
 * settings_company): the masked key, generating a new one (shown once, with copy; confirmation
 * first when a key exists, since the old one stops working) and a short in-app documentation.
 */
export function IntegrationSettingsPage() {
  const { t } = useLingui();
  const company = useActiveCompany();
  return (
    <section aria-label={t`Integration`} className="grid max-w-3xl gap-4">
      {company.isPending ? (
        <>
          <Skeleton className="h-48 w-full rounded-xl" />
          <Skeleton className="h-64 w-full rounded-xl" />
        </>
      ) : company.isError ? (
        <Card>
          <ErrorState title={t`Could not load the company.`} onRetry={() => void company.refetch()} />
        </Card>
      ) : company.data === null ? (
        <Card>
          <EmptyState icon={<Building2 />} title={t`You are not part of any company!`} />
        </Card>
      ) : (
        <>
          <ApiKeyCard company={company.data} />
          <DocumentationCard />
        </>
      )}
    </section>
  );
}
