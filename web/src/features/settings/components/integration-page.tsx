import { useId, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { Ban, BookOpen, Building2, Copy, KeyRound, Plus } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { fieldErrorMessage } from "@/lib/error-messages";
import { applyServerErrors } from "@/lib/form-errors";
import { notifyError, notifySuccess } from "@/lib/notify";
import { cn } from "@/lib/utils";
import { useActiveCompany } from "@/features/companies/hooks/use-companies";
import { API_KEY_SCOPES, type ApiKeyScope } from "../../../../../schema/enums";
import {
  PUBLIC_API_ROUTES,
  apiKeyCreateInput,
  type ApiKeyAnswer,
  type ApiKeyCreateInput,
  type ApiKeyCreatedAnswer,
} from "../../../../../schema/validation/api-keys";
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from "../hooks/use-settings";
import { formatDateTime } from "@/lib/dates";
import { EventSubscriptionsCard } from "./event-subscriptions-card";
import { SecretShownOnce, copyText } from "./secret-shown-once";

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

/** What each scope lets a key do (the create form's checkboxes and the list's badges). */
const SCOPE_LABELS: Record<ApiKeyScope, MessageDescriptor> = {
  "contacts:read": msg`Read contacts, tags and custom fields`,
  "contacts:write": msg`Create and update contacts`,
  "tickets:read": msg`Read tickets and their messages`,
  "messages:send": msg`Send messages to tickets`,
  "flows:start": msg`List flows and start one on a ticket`,
};

/** The create form: a name and the scopes, with the key's one-time display handed to `onCreated`. */
function CreateApiKeyForm({ onCreated }: { onCreated: (created: ApiKeyCreatedAnswer) => void }) {
  const { t, i18n } = useLingui();
  const create = useCreateApiKey();
  const scopesId = useId();
  const form = useForm<ApiKeyCreateInput>({ resolver: zodResolver(apiKeyCreateInput), defaultValues: { name: "", scopes: [] } });
  const { errors } = form.formState;
  const scopesError = errors.scopes?.message ?? errors.scopes?.root?.message;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      onCreated(await create.mutateAsync(values));
    } catch (error) {
      applyServerErrors(form.setError, error, ["name", "scopes"]);
    }
  });

  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      {errors.root?.server?.message ? <Alert variant="destructive">{errors.root.server.message}</Alert> : null}
      <FormField label={t`Name`} error={errors.name?.message} hint={t`Where the key is used, e.g. ERP or online store.`}>
        <Input autoFocus maxLength={120} {...form.register("name")} />
      </FormField>
      <Controller
        control={form.control}
        name="scopes"
        render={({ field }) => (
          <fieldset className="grid gap-2" aria-describedby={scopesError ? `${scopesId}-error` : undefined}>
            <legend className="mb-1 text-sm font-medium">{t`What the key may do`}</legend>
            {API_KEY_SCOPES.map((scope) => {
              const id = `${scopesId}-${scope}`;
              const checked = field.value.includes(scope);
              return (
                <div key={scope} className="flex items-center gap-3">
                  <Checkbox
                    id={id}
                    checked={checked}
                    disabled={create.isPending}
                    onCheckedChange={() => field.onChange(checked ? field.value.filter((s) => s !== scope) : API_KEY_SCOPES.filter((s) => s === scope || field.value.includes(s)))}
                  />
                  <label htmlFor={id} className="text-sm">
                    {i18n._(SCOPE_LABELS[scope])} <code className="font-mono text-xs text-muted-foreground">{scope}</code>
                  </label>
                </div>
              );
            })}
            {scopesError ? (
              <p id={`${scopesId}-error`} className="text-xs font-medium text-destructive">
                {i18n._(fieldErrorMessage(scopesError))}
              </p>
            ) : null}
          </fieldset>
        )}
      />
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline" disabled={create.isPending}>
            {t`Cancel`}
          </Button>
        </DialogClose>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? <Spinner /> : <KeyRound />}
          {t`Create key`}
        </Button>
      </DialogFooter>
    </form>
  );
}

/** One key of the list: name, masked key, scopes, dates, and revoke (with confirmation). */
function ApiKeyRow({ apiKey, onRevoke }: { apiKey: ApiKeyAnswer; onRevoke: (key: ApiKeyAnswer) => void }) {
  const { t, i18n } = useLingui();
  const date = (ms: number) => formatDateTime(ms, { locale: i18n.locale });
  const created = date(apiKey.createdAt);
  const revoked = apiKey.revokedAt !== null;
  return (
    <li className={cn("grid gap-2 rounded-md border p-3 sm:grid-cols-[1fr_auto] sm:items-start", revoked && "opacity-60")}>
      <div className="grid min-w-0 gap-1.5">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium break-all">{apiKey.name}</span>
          <code className="font-mono text-xs text-muted-foreground">{apiKey.hint}</code>
          {revoked ? <Badge variant="destructive">{t`Revoked`}</Badge> : null}
        </div>
        <ul className="flex flex-wrap gap-1" aria-label={t`Scopes`}>
          {apiKey.scopes.map((scope) => (
            <li key={scope}>
              <Badge variant="secondary" title={i18n._(SCOPE_LABELS[scope])}>
                {scope}
              </Badge>
            </li>
          ))}
        </ul>
        <p className="text-xs text-muted-foreground">
          {t`Created ${created}`}
          {" · "}
          {apiKey.lastUsedAt === null ? t`Never used` : t`Last used ${date(apiKey.lastUsedAt)}`}
          {apiKey.revokedAt !== null ? ` · ${t`Revoked ${date(apiKey.revokedAt)}`}` : null}
        </p>
      </div>
      {revoked ? null : (
        <Button variant="outline" size="sm" className="justify-self-start" onClick={() => onRevoke(apiKey)}>
          <Ban />
          {t`Revoke`}
        </Button>
      )}
    </li>
  );
}

/** The company's API keys: the list, creating one (shown once, with copy) and revoking one. */
function ApiKeysCard() {
  const { t } = useLingui();
  const keys = useApiKeys();
  const revoke = useRevokeApiKey();
  const [creating, setCreating] = useState(false);
  const [fresh, setFresh] = useState<ApiKeyCreatedAnswer | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyAnswer | null>(null);

  const confirmRevoke = () => {
    if (!revoking) return;
    revoke.mutate(revoking.id, {
      onSuccess: () => {
        setRevoking(null);
        notifySuccess("deleted");
      },
      onError: (error) => {
        setRevoking(null);
        notifyError(error);
      },
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">{t`API keys`}</CardTitle>
        <CardDescription>
          {t`Each key lets one of your systems call the public API for this company, only with the permissions chosen for it. Keep keys secret; revoke one you no longer use.`}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {fresh ? (
          <SecretShownOnce
            value={fresh.key}
            notice={t`Copy your new key now. For your security it will not be shown again.`}
            label={t`New API key`}
            copyLabel={t`Copy key`}
            onDone={() => setFresh(null)}
          />
        ) : null}
        {keys.isPending ? (
          <div className="grid gap-2" aria-busy>
            <Skeleton className="h-20 w-full" />
            <Skeleton className="h-20 w-full" />
          </div>
        ) : keys.isError ? (
          <ErrorState title={t`Could not load the API keys.`} onRetry={() => void keys.refetch()} />
        ) : keys.data.length === 0 ? (
          <EmptyState icon={<KeyRound />} title={t`No API key has been created yet.`} />
        ) : (
          <ul className="grid gap-2" aria-label={t`API keys`}>
            {keys.data.map((apiKey) => (
              <ApiKeyRow key={apiKey.id} apiKey={apiKey} onRevoke={setRevoking} />
            ))}
          </ul>
        )}
      </CardContent>
      <CardFooter>
        <Button onClick={() => setCreating(true)}>
          <Plus />
          {t`New key`}
        </Button>
      </CardFooter>
      <Dialog open={creating} onOpenChange={setCreating}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{t`New API key`}</DialogTitle>
            <DialogDescription>{t`Choose a name and what the key may do. The key is shown once, right after it is created.`}</DialogDescription>
          </DialogHeader>
          {creating ? (
            <CreateApiKeyForm
              onCreated={(created) => {
                setFresh(created);
                setCreating(false);
              }}
            />
          ) : null}
        </DialogContent>
      </Dialog>
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => (open ? undefined : setRevoking(null))}
        title={t`Revoke this API key?`}
        description={t`The key stops working immediately. Every integration using it must be given a new key.`}
        confirmLabel={t`Revoke`}
        destructive
        pending={revoke.isPending}
        onConfirm={confirmRevoke}
      />
    </Card>
  );
}

function DocumentationCard() {
  const { t, i18n } = useLingui();
  const base = `${window.location.origin}/api`;
  const curl = `curl -H "X-Api-Key: YOUR_API_KEY" \\\n  ${base}/contacts`;
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">{t`Documentation`}</CardTitle>
        <CardDescription>{t`How to call the API with your key.`}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5 text-sm">
        <div className="grid gap-2">
          <p className="text-muted-foreground">{t`The versioned public API (/api/v1) is described route by route, with every field, in its reference.`}</p>
          <Button asChild variant="outline" className="justify-self-start">
            <a href="/docs/api" target="_blank" rel="noopener">
              <BookOpen />
              {t`API documentation`}
            </a>
          </Button>
        </div>
        <div className="grid gap-2">
          <h3 className="font-medium">{t`Base URL`}</h3>
          <p className="text-muted-foreground">{t`Every path of the API starts here.`}</p>
          <CodeBlock code={base} copyLabel={t`Copy the base URL`} />
        </div>
        <div className="grid gap-2">
          <h3 className="font-medium">{t`Authentication`}</h3>
          <p className="text-muted-foreground">
            {t`Send the key in the X-Api-Key header of every request. A key acts for this company only and is recorded as the author of what it does; an unknown or revoked key answers 401, a route outside the list below or outside the key's scopes answers 403.`}
          </p>
          <CodeBlock code="X-Api-Key: YOUR_API_KEY" copyLabel={t`Copy the header`} />
        </div>
        <div className="grid gap-2">
          <h3 className="font-medium">{t`Routes`}</h3>
          <div className="overflow-x-auto rounded-md border">
            <table className="w-full text-left text-xs">
              <thead className="bg-muted/50 text-muted-foreground">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">{t`Route`}</th>
                  <th scope="col" className="px-3 py-2 font-medium">{t`Scope`}</th>
                </tr>
              </thead>
              <tbody>
                {PUBLIC_API_ROUTES.map((route) => (
                  <tr key={`${route.method} ${route.path}`} className="border-t">
                    <td className="px-3 py-2 font-mono whitespace-nowrap">
                      {route.method} {route.path.replace(/^\/api/, "")}
                    </td>
                    <td className="px-3 py-2">
                      <code className="font-mono">{route.scope}</code>
                      <span className="text-muted-foreground"> · {i18n._(SCOPE_LABELS[route.scope])}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
        <div className="grid gap-2">
          <h3 className="font-medium">{t`Example`}</h3>
          <p className="text-muted-foreground">{t`Lists this company's contacts (scope contacts:read). Answers are JSON; a failed call answers an "error" object with a code and a message.`}</p>
          <CodeBlock code={curl} copyLabel={t`Copy the example`} />
        </div>
      </CardContent>
    </Card>
  );
}

/**
 * /settings/integration (spec §2 "integration (API key and documentation link)"; permission
 * settings_company): the company's API keys (issue 8 §6: each with a name and scopes; created with
 * the key shown once, with copy; revoked after a confirmation) and a short in-app documentation of
 * the public API's routes and scopes.
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
          <ApiKeysCard />
          <DocumentationCard />
          <EventSubscriptionsCard />
        </>
      )}
    </section>
  );
}
