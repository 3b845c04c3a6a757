/**
 * Labels shared by the webhook screens: modes, request states and action types (msg maps, spec
 * words), the mode badge and the URL with its copy button.
 */
import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";
import { useLingui } from "@lingui/react/macro";
import { Copy } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { notifyError, notifySuccess } from "@/lib/notify";
import { cn } from "@/lib/utils";
import type { ConditionOperator, WebhookActionType, WebhookMode, WebhookRequestState } from "../../../../../schema/validation/webhooks";

export const MODE_LABELS: Record<WebhookMode, MessageDescriptor> = {
  test: msg`Test`,
  production: msg`Production`,
};

export const STATE_LABELS: Record<WebhookRequestState, MessageDescriptor> = {
  captured: msg`Captured`,
  pending: msg`Waiting`,
  processed: msg`Processed`,
  failed: msg`Failed`,
  spam: msg`Spam`,
};

export const ACTION_LABELS: Record<WebhookActionType, MessageDescriptor> = {
  start_flow: msg`Start a flow`,
  add_tag: msg`Add a tag`,
  remove_tag: msg`Remove a tag`,
  set_field: msg`Set a custom field`,
  add_to_cycle: msg`Add to a shipping cycle`,
  move_crm: msg`Move on the CRM board`,
};

export const OPERATOR_LABELS: Record<ConditionOperator, MessageDescriptor> = {
  equals: msg`equals`,
  not_equals: msg`does not equal`,
  contains: msg`contains`,
  exists: msg`exists`,
};

/** The mode as a badge: production is active (primary), test is inactive (muted). */
export function ModeBadge({ mode }: { mode: WebhookMode }) {
  const { i18n } = useLingui();
  return (
    <Badge variant={mode === "production" ? "default" : "secondary"} data-testid="webhook-mode" data-mode={mode}>
      {i18n._(MODE_LABELS[mode])}
    </Badge>
  );
}

const STATE_TONES: Record<WebhookRequestState, string> = {
  captured: "bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200",
  pending: "bg-muted text-muted-foreground",
  processed: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
  failed: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
  spam: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
};

/** A request's state as a coloured label. */
export function StateLabel({ state }: { state: WebhookRequestState }) {
  const { i18n } = useLingui();
  return (
    <span className={cn("rounded px-1.5 py-0.5 text-xs font-medium", STATE_TONES[state])} data-testid="request-state" data-state={state}>
      {i18n._(STATE_LABELS[state])}
    </span>
  );
}

/** The webhook's secret URL, selectable, with a copy button. */
export function UrlCopy({ url, className }: { url: string; className?: string }) {
  const { t } = useLingui();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      notifySuccess("copied");
    } catch (error) {
      notifyError(error);
    }
  };
  return (
    <div className={cn("flex min-w-0 items-center gap-1 rounded-md border bg-muted/40 pl-2", className)}>
      <code className="min-w-0 flex-1 truncate py-1.5 font-mono text-xs" data-testid="webhook-url" title={url}>
        {url}
      </code>
      <Button variant="ghost" size="icon" className="size-8 shrink-0" onClick={() => void copy()} aria-label={t`Copy the URL`}>
        <Copy />
      </Button>
    </div>
  );
}
