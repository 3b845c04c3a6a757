/**
 * The contact's flow runs on its page (issue 5 "Runs are visible: on the contact (which flow, which
 * block, since when) and stoppable by a member"): GET /api/contacts/{id}/runs, newest first, each
 * with its flow (a link to the editor for members with `flow`), the block it is on, what it waits
 * for, since when, its error when it failed, and "Stop" (confirmed) while it is in progress.
 */
import { useState } from "react";
import { Link } from "react-router";
import { useLingui } from "@lingui/react/macro";
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { toast } from "sonner";
import { CircleAlert, OctagonX, Workflow } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ErrorState } from "@/components/ui/error-state";
import { Skeleton } from "@/components/ui/skeleton";
import { isApiError } from "@/lib/api";
import { formatMoment, formatRelative, type ValueFormat } from "@/lib/field-values";
import { notifyError, TOAST_DURATION_MS } from "@/lib/notify";
import { usePermissions } from "@/features/session/hooks/use-session";
import { BLOCK_LABELS } from "@/features/flows/lib/labels";
import { isBlockType } from "../../../../../schema/flows";
import type { FlowRunAnswer } from "../../../../../schema/flow-api";
import { useContactRuns, useStopRun } from "../hooks/use-contacts";

const RUN_STATUS_LABELS: Record<FlowRunAnswer["status"], MessageDescriptor> = {
  running: msg`Running`,
  waiting: msg`Waiting`,
  done: msg`Finished`,
  failed: msg`Failed`,
};

const WAITING_LABELS: Record<NonNullable<FlowRunAnswer["waitingFor"]>, MessageDescriptor> = {
  reply: msg`Waiting for the contact's reply`,
  timer: msg`Waiting for a timer`,
  http: msg`Waiting for an HTTP answer`,
};

/** The engine's run errors (worker/flows/types.ts RunErrorCode); others show the worker's message. */
const RUN_ERRORS: Record<string, MessageDescriptor> = {
  loop_guard: msg`The run went through too many blocks without waiting for the contact; the flow probably loops without a waiting block.`,
  missing_block: msg`The run was on a block this version of the flow no longer has.`,
};

/** True while the run can still be stopped. */
export function isRunActive(run: FlowRunAnswer): boolean {
  return run.status === "running" || run.status === "waiting";
}

function RunItem({ run, format, canOpenFlow, onStop }: { run: FlowRunAnswer; format: ValueFormat; canOpenFlow: boolean; onStop: () => void }) {
  const { t, i18n } = useLingui();
  const flowName = run.flowName || t`Deleted flow`;
  const version = run.version;
  const block = run.nodeType ? (isBlockType(run.nodeType) ? i18n._(BLOCK_LABELS[run.nodeType]) : run.nodeType) : null;
  const errorCode = run.error?.code;
  const errorText = run.error ? (errorCode && RUN_ERRORS[errorCode] ? i18n._(RUN_ERRORS[errorCode]) : run.error.message) : null;
  return (
    <li className="grid gap-1.5 rounded-md border p-3" data-testid="contact-run" data-status={run.status}>
      <div className="flex flex-wrap items-center gap-2">
        <Badge variant={run.status === "failed" ? "destructive" : isRunActive(run) ? "secondary" : "outline"}>{i18n._(RUN_STATUS_LABELS[run.status])}</Badge>
        {canOpenFlow && run.flowName ? (
          <Link to={`/flows/${encodeURIComponent(run.flowId)}`} className="min-w-0 truncate text-sm font-medium underline-offset-4 outline-none hover:underline focus-visible:underline">
            {flowName}
          </Link>
        ) : (
          <span className="min-w-0 truncate text-sm font-medium">{flowName}</span>
        )}
        <span className="text-xs text-muted-foreground">{t`v${version}`}</span>
        {run.since !== null ? (
          <time className="ml-auto text-xs text-muted-foreground" dateTime={new Date(run.since).toISOString()} title={formatMoment(run.since, format)}>
            {formatRelative(run.since, Date.now(), format.locale)}
          </time>
        ) : null}
      </div>
      <p className="text-sm text-muted-foreground">
        {block ? t`On the ${block} block` : t`Not on a block`}
        {run.status === "waiting" && run.waitingFor ? <> · {i18n._(WAITING_LABELS[run.waitingFor])}</> : null}
      </p>
      {errorText ? (
        <p className="flex gap-1.5 text-sm text-destructive">
          <CircleAlert className="mt-0.5 size-3.5 shrink-0" aria-hidden />
          <span className="break-words">{errorText}</span>
        </p>
      ) : null}
      {run.warnings.length > 0 ? (
        <ul className="grid gap-1 text-xs text-amber-700 dark:text-amber-300" aria-label={t`Warnings of this run`}>
          {run.warnings.map((warning, i) => (
            <li key={`${i}-${warning.at}`} className="flex gap-1.5" data-testid="run-warning">
              <CircleAlert className="mt-0.5 size-3 shrink-0" aria-hidden />
              <span className="break-words" title={warning.message}>
                {warning.code === "effect_failed" ? t`A step kept failing and was skipped.` : warning.message}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {isRunActive(run) ? (
        <div>
          <Button variant="outline" size="sm" className="text-destructive hover:text-destructive" onClick={onStop} aria-label={t`Stop the flow ${flowName}`}>
            <OctagonX />
            {t`Stop`}
          </Button>
        </div>
      ) : null}
    </li>
  );
}

/** The "Flows" section's content: the contact's runs with loading, empty and error states. */
export function ContactRuns({ contactId, format }: { contactId: string; format: ValueFormat }) {
  const { t } = useLingui();
  const permissions = usePermissions();
  const canOpenFlow = permissions.data?.has("flow") === true;
  const runs = useContactRuns(contactId);
  const stop = useStopRun(contactId);
  const [stopping, setStopping] = useState<FlowRunAnswer | null>(null);
  if (runs.isPending) {
    return (
      <div className="grid gap-2" aria-busy>
        <Skeleton className="h-20 w-full" />
      </div>
    );
  }
  if (runs.isError) return <ErrorState title={t`Could not load the flows of this contact.`} onRetry={() => void runs.refetch()} />;
  if (!runs.data.length) {
    return (
      <p className="flex items-center gap-2 text-sm text-muted-foreground">
        <Workflow className="size-4" aria-hidden />
        {t`No flow has run for this contact yet.`}
      </p>
    );
  }
  const stoppingName = stopping ? stopping.flowName || t`Deleted flow` : "";
  return (
    <>
      <ul className="grid gap-2" aria-label={t`Flows`}>
        {runs.data.map((run) => (
          <RunItem key={run.id} run={run} format={format} canOpenFlow={canOpenFlow} onStop={() => setStopping(run)} />
        ))}
      </ul>
      <ConfirmDialog
        open={stopping !== null}
        onOpenChange={(open) => (open ? undefined : setStopping(null))}
        title={t`Stop the flow ${stoppingName} for this contact?`}
        description={t`The bot stops answering this contact from this flow. Messages already sent stay.`}
        confirmLabel={t`Stop flow`}
        pending={stop.isPending}
        onConfirm={() => {
          if (!stopping) return;
          stop.mutate(stopping.id, {
            onSuccess: () => {
              setStopping(null);
              toast.success(t`Flow stopped.`, { duration: TOAST_DURATION_MS });
            },
            onError: (error) => {
              setStopping(null);
              if (isApiError(error) && error.status === 404) toast.info(t`This flow had already ended.`, { duration: TOAST_DURATION_MS });
              else notifyError(error);
            },
          });
        }}
      />
    </>
  );
}
