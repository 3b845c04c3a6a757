/**
 * The default flows of one connection (spec §3 Default flows per channel; GET/PUT
 * /api/companies/default-flows): the builder a new conversation starts, the one for media
 * messages, for campaigns and for story mentions. Builders of the matching type are listed first.
 */
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { NativeSelect } from "@/components/ui/native-select";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { api } from "@/lib/session";
import { defaultFlowsAnswer, flowSummaryList } from "@/lib/answers";
import { errorMessage } from "@/lib/error-messages";
import { notifySuccess } from "@/lib/notify";
import type { DefaultFlowsAnswer, FlowSummary } from "../../../../../schema/flow-api";
import type { FlowType } from "../../../../../schema/flow-builders";
import type { Connection } from "../api/connections-api";

type Slot = "defaultFlowId" | "mediaFlowId" | "campaignFlowId" | "storyFlowId";
const SLOT_TYPES: Record<Slot, FlowType> = { defaultFlowId: "default", mediaFlowId: "media", campaignFlowId: "campaign", storyFlowId: "story_mention" };
const SLOTS: readonly Slot[] = ["defaultFlowId", "mediaFlowId", "campaignFlowId", "storyFlowId"];

/** GET /api/companies/default-flows?id= for one connection. */
const defaultFlowsQuery = (connectionId: string) => ({
  queryKey: ["connections", "default-flows", connectionId] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) => api.call("GET", "/companies/default-flows", defaultFlowsAnswer, { query: { id: connectionId }, signal }),
});

function SlotSelect({ slot, label, hint, flows, value, onChange }: { slot: Slot; label: string; hint: string; flows: FlowSummary[]; value: string; onChange: (value: string) => void }) {
  const { t } = useLingui();
  const matching = flows.filter((flow) => flow.type === SLOT_TYPES[slot]);
  const others = flows.filter((flow) => flow.type !== SLOT_TYPES[slot]);
  return (
    <FormField label={label} hint={hint}>
      <NativeSelect value={value} onChange={(event) => onChange(event.target.value)} data-testid={`default-flow-${slot}`}>
        <option value="">{t`None`}</option>
        {matching.map((flow) => (
          <option key={flow.id} value={flow.id}>
            {flow.name}
          </option>
        ))}
        {others.length ? (
          <optgroup label={t`Other builders`}>
            {others.map((flow) => (
              <option key={flow.id} value={flow.id}>
                {flow.name}
              </option>
            ))}
          </optgroup>
        ) : null}
      </NativeSelect>
    </FormField>
  );
}

function DefaultFlowsForm({ connection, current, flows, onClose }: { connection: Connection; current: DefaultFlowsAnswer; flows: FlowSummary[]; onClose: () => void }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<Record<Slot, string>>({
    defaultFlowId: current.defaultFlowId ?? "",
    mediaFlowId: current.mediaFlowId ?? "",
    campaignFlowId: current.campaignFlowId ?? "",
    storyFlowId: current.storyFlowId ?? "",
  });
  const save = useMutation({
    mutationFn: () =>
      api.call("PUT", "/companies/default-flows", defaultFlowsAnswer, {
        body: {
          channelId: connection.id,
          defaultFlowId: values.defaultFlowId || null,
          mediaFlowId: values.mediaFlowId || null,
          campaignFlowId: values.campaignFlowId || null,
          storyFlowId: values.storyFlowId || null,
        },
      }),
    onSuccess: async () => {
      notifySuccess("edited");
      await queryClient.invalidateQueries({ queryKey: ["connections", "default-flows", connection.id] });
      onClose();
    },
  });
  const labels: Record<Slot, { label: string; hint: string }> = {
    defaultFlowId: { label: t`Default flow`, hint: t`Starts when a contact writes and no other flow or keyword applies.` },
    mediaFlowId: { label: t`Media flow`, hint: t`Starts when the message is an image, audio, video or file.` },
    campaignFlowId: { label: t`Campaign flow`, hint: t`Starts for contacts answering a campaign.` },
    storyFlowId: { label: t`Story mention flow`, hint: t`Starts when a contact mentions you in a story.` },
  };
  return (
    <div className="grid gap-4">
      {save.isError ? <Alert variant="destructive">{i18n._(errorMessage(save.error))}</Alert> : null}
      {SLOTS.map((slot) => (
        <SlotSelect key={slot} slot={slot} label={labels[slot].label} hint={labels[slot].hint} flows={flows} value={values[slot]} onChange={(value) => setValues((previous) => ({ ...previous, [slot]: value }))} />
      ))}
      <DialogFooter>
        <Button variant="outline" onClick={onClose}>
          {t`Cancel`}
        </Button>
        <Button onClick={() => save.mutate()} disabled={save.isPending}>
          {save.isPending ? <Spinner /> : null}
          {t`Save changes`}
        </Button>
      </DialogFooter>
    </div>
  );
}

function DialogBody({ connection, onClose }: { connection: Connection; onClose: () => void }) {
  const { t, i18n } = useLingui();
  const current = useQuery(defaultFlowsQuery(connection.id));
  const flows = useQuery({ queryKey: ["connections", "flows"] as const, queryFn: ({ signal }) => api.call("GET", "/flows", flowSummaryList, { signal }), staleTime: 30_000 });
  if (current.isPending || flows.isPending) {
    return (
      <div className="grid gap-3" aria-busy>
        {Array.from({ length: 4 }, (_, index) => (
          <Skeleton key={index} className="h-14" />
        ))}
      </div>
    );
  }
  if (current.isError || flows.isError) return <Alert variant="destructive">{i18n._(errorMessage(current.error ?? flows.error))}</Alert>;
  if (flows.data.length === 0) return <p className="text-sm text-muted-foreground">{t`Create a builder in the flow builder first.`}</p>;
  return <DefaultFlowsForm connection={connection} current={current.data} flows={flows.data} onClose={onClose} />;
}

/** The "Default flows" dialog of a connection. */
export function DefaultFlowsDialog({ connection, onClose }: { connection: Connection | null; onClose: () => void }) {
  const { t } = useLingui();
  const name = connection?.name ?? "";
  return (
    <Dialog open={connection !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t`Default flows of ${name}`}</DialogTitle>
          <DialogDescription>{t`The builders this connection starts by itself.`}</DialogDescription>
        </DialogHeader>
        {connection ? <DialogBody key={connection.id} connection={connection} onClose={onClose} /> : null}
      </DialogContent>
    </Dialog>
  );
}

