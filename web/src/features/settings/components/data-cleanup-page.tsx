import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { msg, plural } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";
import { CheckCircle2, Trash2, TriangleAlert } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { ErrorState } from "@/components/ui/error-state";
import { Input } from "@/components/ui/input";
import { Progress } from "@/components/ui/progress";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { notifyError } from "@/lib/notify";
import { useHubEvents } from "@/lib/realtime";
import { useActiveCompany } from "@/features/companies/hooks/use-companies";
import { CLEANUP_TYPES, type CleanupType, type DataCleanupAnswer } from "../../../../../schema/validation/data-cleanup";
import { dataCleanupQuery, startDataCleanup, workspaceSettingsKeys } from "../api/operating-hours-api";

const TYPE_LABELS: Record<CleanupType, MessageDescriptor> = {
  contacts: msg`Contacts`,
  custom_fields: msg`Custom fields`,
  tags: msg`Tags`,
  flows: msg`Flows`,
  all: msg`Clear all`,
};

const TYPE_DESCRIPTIONS: Record<CleanupType, MessageDescriptor> = {
  contacts: msg`Every contact with its conversations, messages and media, and the files of past imports and exports.`,
  custom_fields: msg`Every custom field and the values contacts have in them.`,
  tags: msg`Every tag; contacts lose their tags.`,
  flows: msg`Every flow with its versions, keywords and media; connections keep no default flow.`,
  all: msg`Contacts, custom fields, tags and flows.`,
};

/** Poll interval while a cleanup runs (a safety net for a missed hub event), ms. */
const POLL_MS = 2000;

const isRunning = (state: DataCleanupAnswer | undefined) => state?.status === "queued" || state?.status === "running";

/** The deleting state: progress bar while it runs, the outcome once it ended. */
function CleanupState({ state }: { state: DataCleanupAnswer }) {
  const { t, i18n } = useLingui();
  if (state.status === "none" || !state.type) return null;
  const what = i18n._(TYPE_LABELS[state.type]);
  if (isRunning(state)) {
    return (
      <div className="grid gap-2 rounded-lg border p-4" aria-live="polite" data-testid="cleanup-state" data-status={state.status}>
        <p className="text-sm font-medium">{state.status === "queued" ? t`Deletion started: ${what}` : t`Deleting: ${what}`}</p>
        <Progress value={state.status === "queued" ? null : state.progress} aria-label={t`Cleanup progress`} />
        <p className="text-xs text-muted-foreground">{t`${state.progress}% · ${plural(state.total, { one: `${state.processed} of # item`, other: `${state.processed} of # items` })}`}</p>
      </div>
    );
  }
  if (state.status === "failed") {
    return (
      <Alert variant="destructive" data-testid="cleanup-state" data-status={state.status}>
        {state.errorMessage ?? t`The cleanup stopped before the end.`}
      </Alert>
    );
  }
  const when = state.updatedAt ? new Date(state.updatedAt).toLocaleString(i18n.locale, { dateStyle: "short", timeStyle: "short" }) : "";
  return (
    <div className="grid gap-2 rounded-lg border p-4 text-sm" aria-live="polite" data-testid="cleanup-state" data-status={state.status}>
      <p className="flex items-start gap-2">
        <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
        {t`Last cleanup finished (${what}, ${when}): ${state.processed} items deleted.`}
      </p>
      <Progress value={100} aria-label={t`Cleanup progress`} />
    </div>
  );
}

/** The confirmation: the company's name typed exactly. */
function ConfirmCleanup({ open, onOpenChange, type, companyName }: { open: boolean; onOpenChange: (open: boolean) => void; type: CleanupType; companyName: string }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const [typed, setTyped] = useState("");
  const start = useMutation({
    mutationFn: startDataCleanup,
    onSuccess: (state) => {
      queryClient.setQueryData(workspaceSettingsKeys.dataCleanup(), state);
      onOpenChange(false);
    },
    onError: (error) => notifyError(error),
  });
  const matches = typed.trim() === companyName.trim();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (matches && !start.isPending) start.mutate(type);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (start.isPending) return;
        if (!next) setTyped("");
        onOpenChange(next);
      }}
    >
      <DialogContent>
        <form onSubmit={submit} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>{t`Delete data: ${i18n._(TYPE_LABELS[type])}`}</DialogTitle>
            <DialogDescription>{t`This cannot be undone. To confirm, type the company's name: ${companyName}`}</DialogDescription>
          </DialogHeader>
          <Input aria-label={t`Company name`} autoComplete="off" value={typed} onChange={(event) => setTyped(event.target.value)} />
          <DialogFooter>
            <Button type="button" variant="outline" disabled={start.isPending} onClick={() => onOpenChange(false)}>
              {t`Cancel`}
            </Button>
            <Button type="submit" variant="destructive" disabled={!matches || start.isPending} data-testid="cleanup-confirm">
              {start.isPending ? <Spinner /> : null}
              {t`Delete permanently`}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/**
 * /settings/data-cleanup (spec §2, §4 "Data cleanup": confirm, deletion started, deleting;
 * permission settings_company; issue 12): choose what to delete (contacts, custom fields, tags,
 * flows or all), confirm by typing the company's name, follow the progress bar live (the hub's
 * `job.updated` events of the cleanup, with polling as a fallback).
 */
export function DataCleanupSettingsPage() {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const company = useActiveCompany();
  const state = useQuery({ ...dataCleanupQuery(), refetchInterval: (q) => (isRunning(q.state.data) ? POLL_MS : false) });
  const [type, setType] = useState<CleanupType>("contacts");
  const [confirming, setConfirming] = useState(false);

  useHubEvents((event) => {
    if (event.type !== "job.updated" || event.job.type !== "cleanup") return;
    const job = event.job;
    queryClient.setQueryData<DataCleanupAnswer>(workspaceSettingsKeys.dataCleanup(), (current) => {
      if (!current || current.jobId !== job.id) return current;
      const total = Math.max(job.total, job.processed);
      const progress = job.status === "done" ? 100 : total === 0 ? 0 : Math.min(99, Math.floor((job.processed / total) * 100));
      return { ...current, status: job.status === "uploaded" ? "queued" : job.status, processed: job.processed, total, progress, errorMessage: job.errorMessage, updatedAt: Date.now() };
    });
    if (job.status === "done" || job.status === "failed") void queryClient.invalidateQueries({ queryKey: workspaceSettingsKeys.dataCleanup() });
  });

  const running = isRunning(state.data);
  const companyName = company.data?.name ?? "";

  return (
    <section aria-label={t`Data cleanup`} className="grid max-w-3xl gap-4">
      <Card>
        <CardHeader>
          <CardTitle as="h2">{t`Data cleanup`}</CardTitle>
          <CardDescription>{t`Delete a kind of the company's data for good. Members, connections and settings stay.`}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <Alert variant="destructive">
            <span className="flex items-start gap-2">
              <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
              {t`Deleted data cannot be recovered.`}
            </span>
          </Alert>
          {state.isPending ? (
            <Skeleton className="h-20 w-full" />
          ) : state.isError ? (
            <ErrorState title={t`Could not load the cleanup state.`} onRetry={() => void state.refetch()} />
          ) : (
            <CleanupState state={state.data} />
          )}
          <fieldset className="grid gap-2" disabled={running}>
            <legend className="mb-2 text-sm font-medium">{t`What to delete`}</legend>
            {CLEANUP_TYPES.map((value) => (
              <label key={value} className="flex cursor-pointer items-start gap-3 rounded-lg border p-3 has-[:checked]:border-primary has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-60">
                <input type="radio" name="cleanup-type" value={value} checked={type === value} onChange={() => setType(value)} className="mt-1 accent-[var(--primary)]" />
                <span className="grid gap-0.5">
                  <span className="text-sm font-medium">{i18n._(TYPE_LABELS[value])}</span>
                  <span className="text-xs text-muted-foreground">{i18n._(TYPE_DESCRIPTIONS[value])}</span>
                </span>
              </label>
            ))}
          </fieldset>
        </CardContent>
        <CardFooter className="justify-end">
          <Button type="button" variant="destructive" disabled={running || !companyName || state.isPending} onClick={() => setConfirming(true)} data-testid="cleanup-start">
            <Trash2 />
            {t`Delete data`}
          </Button>
        </CardFooter>
      </Card>
      {companyName ? <ConfirmCleanup open={confirming} onOpenChange={setConfirming} type={type} companyName={companyName} /> : null}
    </section>
  );
}
