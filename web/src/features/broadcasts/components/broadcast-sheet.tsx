/**
 * The broadcast slide-over (spec §2 "each entity is edited in a slide-over form", §3 Broadcast):
 * name, connection, the published flow each recipient is started in, the audience filters with
 * the number of contacts they match now (POST /api/broadcasts/audience, asked again 400 ms after
 * the filters stop changing), the delay preset with its range, an optional schedule on the
 * company's wall clock, and — for WhatsApp Cloud API connections — an approved template. Problems
 * are shown under their field, the API's 400 `fields` too. A started or paused broadcast may only
 * change its name and delay.
 */
import { useMemo } from "react";
import { Controller, useForm, type Path, type UseFormReturn } from "react-hook-form";
import { useQuery } from "@tanstack/react-query";
import { Plural, useLingui } from "@lingui/react/macro";
import { msg } from "@lingui/core/macro";
import { z } from "zod";
import { Users } from "lucide-react";
import { FormSheet, FormSheetForm } from "@/components/form-sheet";
import { Alert } from "@/components/ui/alert";
import { DatePicker } from "@/components/ui/date-picker";
import { TimeField } from "@/components/ui/time-field";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { Spinner } from "@/components/ui/spinner";
import { isApiError } from "@/lib/api";
import { formatTimeZone, viewerTimeZone } from "@/lib/dates";
import { applyServerErrors } from "@/lib/form-errors";
import { useDebounced } from "@/lib/use-debounced";
import { useActiveCompany } from "@/features/companies/hooks/use-companies";
import { useCustomFields, useTags } from "@/features/registers/hooks/use-registers";
import { BROADCAST_DELAYS, broadcastFilterSchema, type BroadcastDelay, type BroadcastDetail } from "../../../../../schema/validation/broadcasts";
import { audienceQuery, connectionOptionsQuery, crmColumnOptionsQuery, flowOptionsQuery } from "../api/broadcasts-api";
import { useSaveBroadcast } from "../hooks/use-broadcasts";
import { completeFilters, filterableFields } from "../lib/filters";
import { editableFully, initialFormValues, toBroadcastBody, type BroadcastFormValues } from "../lib/form";
import { DELAY_LABELS } from "../lib/labels";
import { FiltersBuilder } from "./filters-builder";
import { TemplatePicker } from "./template-picker";

/** The live count asks again this long after the last change of the filters (ms). */
const AUDIENCE_DEBOUNCE_MS = 400;

/** The debounced filters, read back from their settled JSON. */
const settledFilters = z.array(broadcastFilterSchema).catch([]);

/** What the sheet edits: a new broadcast, or an existing one. */
export type BroadcastSheetTarget = { kind: "new" } | { kind: "edit"; broadcast: BroadcastDetail };

function isDelay(value: string): value is BroadcastDelay {
  return (BROADCAST_DELAYS as readonly string[]).includes(value);
}

/** The number of contacts the complete filters match now. */
function AudienceCount({ connectionId, form }: { connectionId: string; form: UseFormReturn<BroadcastFormValues> }) {
  const { t } = useLingui();
  const drafts = form.watch("filters");
  const { filters, incomplete } = completeFilters(drafts);
  const key = useDebounced(JSON.stringify(filters), AUDIENCE_DEBOUNCE_MS);
  const settled = useMemo(() => settledFilters.parse(JSON.parse(key)), [key]);
  const audience = useQuery({ ...audienceQuery(connectionId, settled), enabled: connectionId !== "", placeholderData: (previous) => previous });
  const count = audience.data?.count ?? 0;
  return (
    <div className="flex items-start gap-2 rounded-md bg-muted px-3 py-2 text-sm" aria-live="polite" data-testid="audience-count" data-count={audience.data?.count ?? ""}>
      <Users className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
      <div className="grid gap-0.5">
        {!connectionId ? (
          <span className="text-muted-foreground">{t`Choose a connection to count the recipients.`}</span>
        ) : audience.isError ? (
          <span className="text-muted-foreground">{t`Could not count the recipients.`}</span>
        ) : audience.data === undefined ? (
          <span className="flex items-center gap-2 text-muted-foreground">
            <Spinner />
            {t`Counting recipients…`}
          </span>
        ) : (
          <span className="font-medium">
            <Plural value={count} one="# contact matches now" other="# contacts match now" />
            {audience.isFetching ? <Spinner className="ml-2 inline size-3" /> : null}
          </span>
        )}
        {incomplete > 0 ? <span className="text-xs text-muted-foreground">{t`Filters not filled in yet are left out of the count.`}</span> : null}
      </div>
    </div>
  );
}

function BroadcastForm({ target, onDone }: { target: BroadcastSheetTarget; onDone: () => void }) {
  const { t, i18n } = useLingui();
  const broadcast = target.kind === "edit" ? target.broadcast : null;
  const company = useActiveCompany();
  const timeZone = company.data?.timezone ?? viewerTimeZone();
  const connections = useQuery(connectionOptionsQuery());
  const flows = useQuery(flowOptionsQuery());
  const columns = useQuery(crmColumnOptionsQuery());
  const tags = useTags();
  const fields = useCustomFields();
  const save = useSaveBroadcast();
  const form = useForm<BroadcastFormValues>({ defaultValues: initialFormValues(broadcast, timeZone) });
  const { errors } = form.formState;
  const full = editableFully(broadcast?.status ?? null);
  const connectionId = form.watch("connectionId");
  const connection = (connections.data ?? []).find((option) => option.id === connectionId);
  const channel = connection?.channel ?? broadcast?.connection.channel ?? null;
  const published = (flows.data ?? []).filter((flow) => flow.publishedVersion !== null);
  const flowChoices = broadcast && !published.some((flow) => flow.id === broadcast.flow.id) ? [...published, { id: broadcast.flow.id, name: broadcast.flow.name }] : published;
  const connectionChoices = broadcast && !(connections.data ?? []).some((c) => c.id === broadcast.connection.id) ? [...(connections.data ?? []), { ...broadcast.connection, status: "" }] : (connections.data ?? []);
  const fieldOptions = filterableFields(fields.data ?? []);
  const variableFields = (fields.data ?? []).filter((field) => field.kind === "user");
  const zoneName = formatTimeZone(timeZone, { locale: i18n.locale });

  const submit = form.handleSubmit(async (values) => {
    form.clearErrors();
    const result = toBroadcastBody(values, { status: broadcast?.status ?? null, timeZone, now: Date.now(), channel });
    if (!result.body) {
      for (const problem of result.problems) {
        if (problem.path === "root") form.setError("root.server", { type: "client", message: i18n._(ROOT_PROBLEM) });
        else form.setError(problem.path, { type: "client", message: problem.code });
      }
      return;
    }
    try {
      await save.mutateAsync(broadcast ? { id: broadcast.id, input: result.body } : result.full ? { id: null, input: result.body } : { id: null, input: { ...result.body, connectionId: values.connectionId, flowId: values.flowId, delay: values.delay, name: values.name.trim(), filters: [] } });
      onDone();
    } catch (error) {
      // The route's own codes name their field even when `fields` does not.
      if (isApiError(error) && !Object.keys(error.fields).length) {
        const field: Path<BroadcastFormValues> | null =
          error.code === "invalid_flow" ? "flowId" : error.code === "invalid_scheduled_date" ? "schedule.date" : error.code === "invalid_connection" ? "connectionId" : error.code === "invalid_template" ? "template" : null;
        if (field) {
          form.setError(field, { type: "server", message: error.code });
          return;
        }
      }
      const serverFields = isApiError(error) ? Object.keys(error.fields) : [];
      const mapped = serverFields.map((name) => (name === "scheduledDate" ? "schedule.date" : name)).filter((name): name is Path<BroadcastFormValues> => /^(name|connectionId|flowId|delay|schedule\.date|template|filters\.\d+\.(value|tag|fieldId|condition))$/.test(name));
      if (isApiError(error) && error.fields.scheduledDate) form.setError("schedule.date", { type: "server", message: error.fields.scheduledDate });
      applyServerErrors(form.setError, error, mapped);
    }
  });

  return (
    <FormSheetForm onSubmit={submit} serverError={errors.root?.server?.message} pending={save.isPending} submitLabel={broadcast ? t`Save changes` : t`Create broadcast`}>
      {!full ? <Alert>{t`This broadcast has started: only its name and delay can change.`}</Alert> : null}
      <FormField label={t`Name`} error={errors.name?.message}>
        <Input autoFocus maxLength={100} {...form.register("name")} />
      </FormField>
      <FormField label={t`Connection`} error={errors.connectionId?.message} hint={connections.isError ? t`Could not load the connections.` : undefined}>
        <NativeSelect
          {...form.register("connectionId", {
            onChange: () => {
              form.setValue("template", null);
              form.clearErrors("template");
            },
          })}
          disabled={!full || connections.isPending}
        >
          <option value="">{t`Choose a connection`}</option>
          {connectionChoices.map((option) => (
            <option key={option.id} value={option.id}>
              {option.name}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      <FormField
        label={t`Flow`}
        error={errors.flowId?.message}
        hint={flows.isError ? t`Could not load the flows` : !flows.isPending && !published.length ? t`Publish a flow first: each recipient is started in it.` : t`Each recipient is started in this flow; its first message is the broadcast's message.`}
      >
        <NativeSelect {...form.register("flowId")} disabled={!full || flows.isPending}>
          <option value="">{t`Choose a flow`}</option>
          {flowChoices.map((flow) => (
            <option key={flow.id} value={flow.id}>
              {flow.name}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      <FiltersBuilder form={form} options={{ tags: tags.data?.results ?? [], fields: fieldOptions, columns: columns.data ?? [] }} disabled={!full} />
      {full ? <AudienceCount connectionId={connectionId} form={form} /> : null}
      <Controller
        control={form.control}
        name="delay"
        render={({ field }) => (
          <FormField label={t`Pause between two messages`} error={errors.delay?.message} hint={t`A random pause in this range between two sends of the connection.`}>
            <NativeSelect value={field.value} onChange={(event) => (isDelay(event.target.value) ? field.onChange(event.target.value) : undefined)} onBlur={field.onBlur}>
              {BROADCAST_DELAYS.map((delay) => (
                <option key={delay} value={delay}>
                  {i18n._(DELAY_LABELS[delay])}
                </option>
              ))}
            </NativeSelect>
          </FormField>
        )}
      />
      <fieldset className="grid gap-2" disabled={!full}>
        <legend className="text-sm font-medium">{t`Schedule (optional)`}</legend>
        <div className="grid grid-cols-2 gap-2">
          <FormField label={t`Date`} error={errors.schedule?.date?.message}>
            <Controller
              control={form.control}
              name="schedule.date"
              render={({ field }) => (
                <DatePicker
                  value={field.value ?? ""}
                  clearable
                  aria-label={t`Date`}
                  aria-invalid={errors.schedule?.date ? true : undefined}
                  onChange={(day) => {
                    field.onChange(day);
                    form.clearErrors("schedule.date");
                  }}
                />
              )}
            />
          </FormField>
          <Controller
            control={form.control}
            name="schedule.time"
            render={({ field }) => (
              <FormField label={t`Time`} error={errors.schedule?.time?.message}>
                <TimeField
                  value={field.value ?? ""}
                  className="w-full"
                  onBlur={field.onBlur}
                  ref={field.ref}
                  onChange={(time) => {
                    field.onChange(time);
                    form.clearErrors("schedule.date");
                  }}
                />
              </FormField>
            )}
          />
        </div>
        <p className="text-xs text-muted-foreground">{t`In the company's time zone, ${zoneName}. Leave empty to start it yourself.`}</p>
      </fieldset>
      {channel === "whatsapp-cloud" && connectionId ? <TemplatePicker form={form} connectionId={connectionId} fields={variableFields} disabled={!full} /> : null}
    </FormSheetForm>
  );
}

/** The form-level message when a problem has no field of its own (the spec's generic wording). */
const ROOT_PROBLEM = msg`An error occurred. Check the data and try again.`;

/** The broadcast slide-over; `target` null keeps it closed. */
export function BroadcastSheet({ target, onClose }: { target: BroadcastSheetTarget | null; onClose: () => void }) {
  const { t } = useLingui();
  const broadcast = target?.kind === "edit" ? target.broadcast : null;
  return (
    <FormSheet open={target !== null} onClose={onClose} title={broadcast ? t`Edit broadcast` : t`New broadcast`} description={t`Send a flow to the contacts your filters choose, at a pace WhatsApp accepts.`}>
      {target ? <BroadcastForm key={broadcast?.id ?? "new"} target={target} onDone={onClose} /> : null}
    </FormSheet>
  );
}
