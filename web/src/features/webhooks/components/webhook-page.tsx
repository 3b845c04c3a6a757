/**
 * /webhook/{id} (spec §2 Webhooks "a request list, an actions list and test/production mode", §3
 * Webhook, §4 Webhook mode, §5 Webhook phone rules; permission `webhooks`):
 * - the URL with copy, the mode switch (test: inactive, requests only captured; production: acted
 *   on), and a notice when a burst switched it to test;
 * - the mapping (phone, name, e-mail paths), picked by clicking fields of a received body shown as
 *   a tree (the latest request, or the one chosen in the list);
 * - the ordered actions with their conditions;
 * - settings (name, requests per minute before falling back to test);
 * - the requests received, newest first, refreshed every few seconds, with their state and what
 *   each did (contact created or updated, each action's outcome, or why it failed).
 * "Save" and the mode switch save everything on the screen.
 */
import { useEffect, useMemo, useState } from "react";
import { Link, useParams } from "react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { AlertTriangle, ArrowLeft, Inbox } from "lucide-react";
import { NotFoundPage } from "@/app/routes/not-found";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { Switch } from "@/components/ui/switch";
import { isApiError } from "@/lib/api";
import { isNotFound } from "@/lib/error-messages";
import { notifyError, notifySuccess } from "@/lib/notify";
import { formatRelative } from "@/lib/relative-time";
import type { WebhookAction, WebhookAnswer, WebhookInput, WebhookMapping, WebhookMode, WebhookRequestAnswer } from "../../../../../schema/validation/webhooks";
import { updateWebhook, webhookKeys, webhookQuery, webhookRequestsQuery } from "../api/webhooks-api";
import { ActionsEditor } from "./actions-editor";
import { BodyTree, type PickChoice, type PickTarget } from "./body-tree";
import { ACTION_LABELS, ModeBadge, StateLabel, UrlCopy } from "./labels";

/** How often the requests list is refreshed while the screen is open (ms). */
const REQUESTS_REFRESH_MS = 3_000;

type Draft = Pick<WebhookInput, "name" | "mode" | "mapping" | "actions" | "spamLimit">;

function draftOf(webhook: WebhookAnswer): Draft {
  return { name: webhook.name, mode: webhook.mode, mapping: webhook.mapping, actions: webhook.actions, spamLimit: webhook.spamLimit };
}

/** One received request: when, state, what it did; its body can be shown in the tree. */
function RequestItem({ request, shown, onShow }: { request: WebhookRequestAnswer; shown: boolean; onShow: () => void }) {
  const { t, i18n } = useLingui();
  const [open, setOpen] = useState(false);
  const contact = request.result?.contact ?? null;
  const contactName = contact?.name ?? "";
  return (
    <li className="grid gap-2 p-3" data-testid="webhook-request" data-state={request.state}>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <StateLabel state={request.state} />
        <time className="text-muted-foreground" dateTime={new Date(request.receivedAt).toISOString()}>
          {formatRelative(request.receivedAt, Date.now(), i18n.locale)}
        </time>
        {contact ? <span className="min-w-0 truncate">{contact.created ? t`Contact created: ${contactName}` : t`Contact updated: ${contactName}`}</span> : null}
        <div className="ml-auto flex gap-1">
          <Button type="button" variant={shown ? "secondary" : "ghost"} size="sm" onClick={onShow} aria-pressed={shown} data-testid="show-request-body">
            {t`Map from this`}
          </Button>
          <Button type="button" variant="ghost" size="sm" onClick={() => setOpen(!open)} aria-expanded={open}>
            {open ? t`Hide details` : t`Details`}
          </Button>
        </div>
      </div>
      {request.error ? <p className="text-sm text-destructive">{request.error}</p> : null}
      {open ? (
        <div className="grid gap-2 text-sm">
          {request.result ? (
            <ul className="grid gap-1">
              {request.result.actions.map((outcome) => {
                const n = outcome.index + 1;
                const label = i18n._(ACTION_LABELS[outcome.type]);
                return (
                  <li key={outcome.index} className="flex flex-wrap gap-1">
                    <span className="font-medium">
                      #{n} {label}:
                    </span>
                    <span className={outcome.status === "failed" ? "text-destructive" : outcome.status === "skipped" ? "text-muted-foreground" : undefined}>
                      {outcome.status === "done" ? t`done` : outcome.status === "skipped" ? t`skipped` : t`failed`}
                    </span>
                    {outcome.detail ? <span className="text-muted-foreground">({outcome.detail})</span> : null}
                  </li>
                );
              })}
              {request.result.notes.map((note) => (
                <li key={note} className="text-muted-foreground">
                  {note}
                </li>
              ))}
            </ul>
          ) : null}
          <dl className="grid gap-1 text-xs text-muted-foreground">
            {Object.entries(request.headers).map(([name, value]) => (
              <div key={name} className="flex min-w-0 gap-2">
                <dt className="shrink-0 font-mono">{name}</dt>
                <dd className="min-w-0 truncate font-mono">{value}</dd>
              </div>
            ))}
          </dl>
          <pre className="max-h-64 overflow-auto rounded-md border bg-muted/40 p-2 font-mono text-xs">{JSON.stringify(request.body, null, 2)}</pre>
        </div>
      ) : null}
    </li>
  );
}

function Editor({ webhook }: { webhook: WebhookAnswer }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => draftOf(webhook));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [shownId, setShownId] = useState<string | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const requests = useQuery({ ...webhookRequestsQuery(webhook.id, cursor), refetchInterval: cursor ? false : REQUESTS_REFRESH_MS });
  useEffect(() => setDraft(draftOf(webhook)), [webhook]);

  const save = useMutation({
    mutationFn: (next: Draft) => updateWebhook(webhook.id, next),
    onSuccess: async (saved) => {
      setErrors({});
      notifySuccess("edited");
      queryClient.setQueryData(webhookKeys.one(webhook.id), saved);
      await queryClient.invalidateQueries({ queryKey: webhookKeys.list() });
    },
    onError: (error) => {
      if (isApiError(error) && Object.keys(error.fields).length) setErrors(error.fields);
      notifyError(error);
    },
  });

  const list = requests.data?.results ?? [];
  const shown = list.find((r) => r.id === shownId) ?? list.find((r) => r.state === "captured") ?? list[0] ?? null;
  const setMapping = (key: keyof WebhookMapping, value: string) => setDraft((d) => ({ ...d, mapping: { ...d.mapping, [key]: value } }));
  const setActions = (actions: WebhookAction[]) => setDraft((d) => ({ ...d, actions }));

  const choices: PickChoice[] = useMemo(() => {
    const base: PickChoice[] = [
      { target: { kind: "phone" }, label: t`Use as the phone`, testId: "pick-phone" },
      { target: { kind: "name" }, label: t`Use as the name`, testId: "pick-name" },
      { target: { kind: "email" }, label: t`Use as the e-mail`, testId: "pick-email" },
    ];
    draft.actions.forEach((action, index) => {
      const n = index + 1;
      const label = i18n._(ACTION_LABELS[action.type]);
      base.push({ target: { kind: "condition", index }, label: t`Condition of action ${n} (${label})`, testId: `pick-condition-${index}` });
      if (action.type === "set_field") base.push({ target: { kind: "value", index }, label: t`Value of action ${n} (${label})`, testId: `pick-value-${index}` });
    });
    return base;
  }, [draft.actions, t, i18n]);

  const marks = useMemo(() => {
    const out = new Map<string, string[]>();
    const add = (path: string, label: string) => path && out.set(path, [...(out.get(path) ?? []), label]);
    add(draft.mapping.phone, t`phone`);
    add(draft.mapping.name, t`name`);
    add(draft.mapping.email, t`e-mail`);
    draft.actions.forEach((action, index) => {
      if (action.condition?.path) add(action.condition.path, `#${index + 1}`);
      if (action.type === "set_field" && action.path) add(action.path, `#${index + 1}`);
    });
    return out;
  }, [draft, t]);

  const pick = (path: string, text: string, target: PickTarget) => {
    if (target.kind !== "condition" && target.kind !== "value") {
      setMapping(target.kind, path);
      return;
    }
    const { index, kind } = target;
    setActions(
      draft.actions.map((action, i) => {
        if (i !== index) return action;
        if (kind === "condition") return { ...action, condition: { path, operator: action.condition?.operator ?? "equals", value: action.condition?.value || text } };
        return action.type === "set_field" ? { type: "set_field", customFieldId: action.customFieldId, path, condition: action.condition } : action;
      }),
    );
  };

  const setMode = (mode: WebhookMode) => {
    const next = { ...draft, mode };
    setDraft(next);
    save.mutate(next);
  };
  const spamAt = webhook.spamAt;
  const limit = webhook.spamLimit;
  const since = spamAt ? formatRelative(spamAt, Date.now(), i18n.locale) : "";

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center gap-3">
        <Button asChild variant="ghost" size="icon" aria-label={t`Back to webhooks`}>
          <Link to="/webhook">
            <ArrowLeft />
          </Link>
        </Button>
        <h1 className="min-w-0 flex-1 truncate text-2xl font-semibold tracking-tight">{webhook.name}</h1>
        <ModeBadge mode={webhook.mode} />
        <label className="flex items-center gap-2 text-sm">
          <Switch checked={draft.mode === "production"} onCheckedChange={(on) => setMode(on ? "production" : "test")} disabled={save.isPending} data-testid="mode-switch" aria-label={t`Production mode`} />
          {t`Production`}
        </label>
      </div>
      {spamAt && webhook.mode === "test" ? (
        <div className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200" role="status">
          <AlertTriangle className="mt-0.5 size-4 shrink-0" />
          <p>{t`More than ${limit} requests arrived in a minute ${since}: the webhook was switched to test mode. Switch it back to production when the burst is over.`}</p>
        </div>
      ) : null}
      <Card>
        <CardHeader>
          <CardTitle as="h2">{t`Request URL`}</CardTitle>
          <CardDescription>
            {draft.mode === "production"
              ? t`Production: each request creates or updates the contact and runs the actions.`
              : t`Test: requests are only captured, so you can map their fields. Nothing is done with them.`}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-2">
          <UrlCopy url={webhook.url} />
          <p className="text-xs text-muted-foreground">{t`Send JSON, a form (url-encoded) or multipart with POST, up to 1 MiB. Keep the URL secret: whoever has it can send requests.`}</p>
        </CardContent>
      </Card>
      <form
        className="grid gap-4 lg:grid-cols-2"
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate(draft);
        }}
      >
        <Card className="lg:self-start">
          <CardHeader>
            <CardTitle as="h2">{t`Received body`}</CardTitle>
            <CardDescription>{t`Click a field to use it as the phone, name or e-mail, or in an action.`}</CardDescription>
          </CardHeader>
          <CardContent>
            {shown ? (
              <BodyTree body={shown.body} choices={choices} onPick={pick} marks={marks} />
            ) : (
              <EmptyState icon={<Inbox />} title={t`No request yet`} description={t`Send a test request to the URL above; it appears here within seconds.`} />
            )}
          </CardContent>
        </Card>
        <div className="grid content-start gap-4">
          <Card>
            <CardHeader>
              <CardTitle as="h2">{t`Contact`}</CardTitle>
              <CardDescription>{t`The phone is country code + area code + number (other characters are ignored; Brazil when no country code). A blank name or e-mail leaves the contact's as they are.`}</CardDescription>
            </CardHeader>
            <CardContent className="grid gap-3">
              <FormField label={t`Phone`} error={errors["mapping.phone"]}>
                <Input value={draft.mapping.phone} onChange={(event) => setMapping("phone", event.target.value)} className="font-mono" placeholder="buyer.phone" data-testid="mapping-phone" />
              </FormField>
              <FormField label={t`Name`} error={errors["mapping.name"]}>
                <Input value={draft.mapping.name} onChange={(event) => setMapping("name", event.target.value)} className="font-mono" placeholder="buyer.name" data-testid="mapping-name" />
              </FormField>
              <FormField label={t`E-mail`} error={errors["mapping.email"]}>
                <Input value={draft.mapping.email} onChange={(event) => setMapping("email", event.target.value)} className="font-mono" placeholder="buyer.email" data-testid="mapping-email" />
              </FormField>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle as="h2">{t`Actions`}</CardTitle>
              <CardDescription>{t`Run in this order for each request in production.`}</CardDescription>
            </CardHeader>
            <CardContent>
              <ActionsEditor actions={draft.actions} onChange={setActions} errors={errors} />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle as="h2">{t`Settings`}</CardTitle>
            </CardHeader>
            <CardContent className="grid gap-3 sm:grid-cols-2">
              <FormField label={t`Name`} error={errors.name}>
                <Input value={draft.name} onChange={(event) => setDraft((d) => ({ ...d, name: event.target.value }))} maxLength={100} required />
              </FormField>
              <FormField label={t`Requests per minute before test mode`} error={errors.spamLimit} hint={t`Above this, the webhook is suspected of spam and switched to test mode.`}>
                <Input type="number" min={1} max={10000} value={draft.spamLimit} onChange={(event) => setDraft((d) => ({ ...d, spamLimit: Number(event.target.value) || 1 }))} />
              </FormField>
            </CardContent>
          </Card>
          <Button type="submit" className="justify-self-end" disabled={save.isPending} data-testid="save-webhook">
            {t`Save`}
          </Button>
        </div>
      </form>
      <Card>
        <CardHeader>
          <CardTitle as="h2">{t`Requests`}</CardTitle>
          <CardDescription>{t`Newest first. Captured: test mode. Spam: beyond the limit per minute, not processed.`}</CardDescription>
        </CardHeader>
        <CardContent className="p-0">
          {requests.isPending ? (
            <div className="grid gap-2 p-4" aria-busy>
              <Skeleton className="h-6 w-full" />
              <Skeleton className="h-6 w-full" />
              <span className="sr-only">{t`Loading requests…`}</span>
            </div>
          ) : requests.isError ? (
            <ErrorState title={t`Could not load the requests.`} onRetry={() => void requests.refetch()} />
          ) : list.length === 0 ? (
            <p className="p-4 text-sm text-muted-foreground">{t`No request received yet.`}</p>
          ) : (
            <ul className="divide-y" aria-label={t`Requests`}>
              {list.map((request) => (
                <RequestItem key={request.id} request={request} shown={shown?.id === request.id} onShow={() => setShownId(request.id)} />
              ))}
            </ul>
          )}
          <div className="flex justify-end gap-2 p-3">
            {cursor ? (
              <Button type="button" variant="outline" size="sm" onClick={() => setCursor(null)}>
                {t`Newest`}
              </Button>
            ) : null}
            {requests.data?.cursor ? (
              <Button type="button" variant="outline" size="sm" onClick={() => setCursor(requests.data?.cursor ?? null)}>
                {t`Older`}
              </Button>
            ) : null}
          </div>
        </CardContent>
      </Card>
    </div>
  );
}

/** The Webhook screen. */
export function WebhookPage() {
  const { t } = useLingui();
  const { id = "" } = useParams();
  const webhook = useQuery(webhookQuery(id));
  if (webhook.isPending) {
    return (
      <div className="grid gap-4" aria-busy>
        <Skeleton className="h-8 w-64" />
        <Skeleton className="h-24 w-full" />
        <Skeleton className="h-64 w-full" />
        <span className="sr-only">{t`Loading the webhook…`}</span>
      </div>
    );
  }
  if (webhook.isError) {
    if (isNotFound(webhook.error)) return <NotFoundPage />;
    return (
      <Card>
        <ErrorState title={t`Could not load the webhook.`} onRetry={() => void webhook.refetch()} />
      </Card>
    );
  }
  return <Editor key={webhook.data.id} webhook={webhook.data} />;
}
