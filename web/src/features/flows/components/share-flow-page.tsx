/**
 * /share-flow/:id (spec §2, §4 Flow "shared, cloned"): a builder another company shared — its
 * name, its company, a read-only preview of its canvas — and "Clone into my company" when sharing
 * and cloning are on and the company is allowed; otherwise the reason it cannot be cloned.
 */
import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { ReactFlowProvider } from "@xyflow/react";
import { Ban, CopyPlus, Workflow } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { isApiError } from "@/lib/api";
import { fieldErrorMessage } from "@/lib/error-messages";
import { SHARE_REFUSALS, type SharedFlowDetail } from "@/lib/answers";
import { notifyError, notifySuccess } from "@/lib/notify";
import type { ShareRefusal } from "../../../../../schema/flow-api";
import { cloneSharedFlow, sharedFlowQuery } from "../api/flows-api";
import { FLOW_TYPE_LABELS } from "../lib/labels";
import { createEditorStore, EditorStoreProvider } from "../store/editor-store";
import { FlowCanvas } from "./editor/flow-canvas";

function refusalOf(value: unknown): ShareRefusal | null {
  return SHARE_REFUSALS.find((reason) => reason === value) ?? null;
}

function Preview({ shared }: { shared: SharedFlowDetail }) {
  const [store] = useState(() => createEditorStore({ flowId: shared.flow.id, doc: shared.draft, readOnly: true }));
  return (
    <ReactFlowProvider>
      <EditorStoreProvider store={store}>
        <FlowCanvas />
      </EditorStoreProvider>
    </ReactFlowProvider>
  );
}

/** The /share-flow/:id screen. */
export function ShareFlowPage() {
  const { t, i18n } = useLingui();
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const shared = useQuery({ ...sharedFlowQuery(id), enabled: id !== "" });
  const clone = useMutation({
    mutationFn: () => cloneSharedFlow(id),
    onSuccess: (flow) => {
      notifySuccess("created");
      void navigate(`/flows/${flow.id}`);
    },
    onError: (error) => {
      if (!(isApiError(error) && error.status === 403)) notifyError(error);
    },
  });

  if (shared.isPending) {
    return (
      <div className="grid gap-3" aria-busy>
        <Skeleton className="h-10 w-72" />
        <Skeleton className="h-[50vh] w-full" />
        <span className="sr-only">{t`Loading the shared flow…`}</span>
      </div>
    );
  }
  if (shared.isError) {
    const reason = isApiError(shared.error) ? refusalOf(shared.error.fields.reason) : null;
    const missing = isApiError(shared.error) && shared.error.status === 404;
    return (
      <Card>
        {reason || missing ? (
          <EmptyState
            icon={<Ban />}
            title={missing ? t`This flow does not exist or is no longer shared.` : i18n._(fieldErrorMessage(reason ?? "share_inactive"))}
            description={t`Ask the flow's owner for a new link.`}
            action={
              <Button asChild variant="outline">
                <Link to="/folders">{t`Back to the flows`}</Link>
              </Button>
            }
          />
        ) : (
          <ErrorState title={t`Could not load the shared flow.`} onRetry={() => void shared.refetch()} />
        )}
      </Card>
    );
  }

  const { flow, canClone } = shared.data;
  const cloneRefusal = clone.isError && isApiError(clone.error) ? refusalOf(clone.error.fields.reason) : null;
  const reason = cloneRefusal ?? (canClone ? null : refusalOf(shared.data.reason));
  const company = flow.companyName;
  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1">
          <p className="text-sm text-muted-foreground">{t`Shared flow`}</p>
          <h1 className="flex items-center gap-2 text-2xl font-semibold tracking-tight">
            <Workflow className="size-6 text-primary" aria-hidden />
            {flow.name}
          </h1>
          <p className="text-sm text-muted-foreground">
            {t`By ${company}`} · {i18n._(FLOW_TYPE_LABELS[flow.type])}
          </p>
        </div>
        {canClone && !cloneRefusal ? (
          <Button onClick={() => clone.mutate()} disabled={clone.isPending}>
            {clone.isPending ? <Spinner /> : <CopyPlus />}
            {t`Clone into my company`}
          </Button>
        ) : null}
      </div>
      {reason ? (
        <Alert variant="destructive" data-testid="share-refusal">
          {i18n._(fieldErrorMessage(reason))}
        </Alert>
      ) : canClone ? (
        <p className="text-sm text-muted-foreground">{t`Cloning copies the flow into your company, with the custom fields and tags it uses.`}</p>
      ) : null}
      <div className="h-[60vh] min-h-80 overflow-hidden rounded-xl border" aria-label={t`Preview`}>
        <Preview shared={shared.data} />
      </div>
    </div>
  );
}
