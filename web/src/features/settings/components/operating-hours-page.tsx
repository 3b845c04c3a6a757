import { useMemo, useState, type CSSProperties, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";
import { CalendarPlus, Clock, Plus, Trash2 } from "lucide-react";
import { DayPicker } from "react-day-picker";
import "react-day-picker/style.css";
import { Alert } from "@/components/ui/alert";
import { CALENDAR_THEME } from "@/components/ui/date-picker";
import { calendarLocale } from "@/lib/calendar";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ErrorState } from "@/components/ui/error-state";
import { Input } from "@/components/ui/input";
import { TimeField } from "@/components/ui/time-field";
import { NativeSelect } from "@/components/ui/native-select";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import { isApiError } from "@/lib/api";
import { fieldErrorMessage } from "@/lib/error-messages";
import { notifyError, notifySuccess } from "@/lib/notify";
import { connectionsQuery } from "@/features/connections/api/connections-api";
import { everyFlowQuery } from "@/features/flows/api/flows-api";
import {
  operatingHoursInput,
  type OperatingHoursAnswer,
  type OperatingHoursInput,
  type OutsideHoursAction,
  type ScheduleException,
  type TimeRange,
  type Weekday,
} from "../../../../../schema/validation/operating-hours";
import { operatingHoursQuery, saveOperatingHours, workspaceSettingsKeys } from "../api/operating-hours-api";
import { SettingsFormFooter } from "./settings-form-footer";
import { SettingsFormSkeleton } from "./settings-form-skeleton";

/** Weekdays as the editor lists them (Monday first). */
const DAYS: Weekday[] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];

const DAY_LABELS: Record<Weekday, MessageDescriptor> = {
  mon: msg`Monday`,
  tue: msg`Tuesday`,
  wed: msg`Wednesday`,
  thu: msg`Thursday`,
  fri: msg`Friday`,
  sat: msg`Saturday`,
  sun: msg`Sunday`,
};

/** This screen's field codes (schema/validation/operating-hours.ts); others use the shared table. */
const CODE_MESSAGES: Record<string, MessageDescriptor> = {
  inverted_range: msg`The closing time must be after the opening time.`,
  overlapping_range: msg`This range overlaps another one of the same day.`,
  invalid_time: msg`Enter a time as HH:MM.`,
  too_many_ranges: msg`At most 6 ranges a day.`,
  duplicate_date: msg`This date is already in the list.`,
  unknown_flow: msg`This flow no longer exists.`,
  unknown_connection: msg`This connection no longer exists.`,
};

type Errors = Record<string, string>;

/** The editable part of the answer. */
function inputOf(answer: OperatingHoursAnswer): OperatingHoursInput {
  return { enabled: answer.enabled, weekly: answer.weekly, exceptions: answer.exceptions, outside: answer.outside };
}

/** "24:00" (end of day) shows as 00:00 in a time input; a closing 00:00 is stored as 24:00. */
const shownClose = (close: string) => (close === "24:00" ? "00:00" : close);
const storedClose = (value: string) => (value === "00:00" ? "24:00" : value);

/** A local date "YYYY-MM-DD" of a calendar day. */
function isoDate(day: Date): string {
  return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, "0")}-${String(day.getDate()).padStart(2, "0")}`;
}

function ErrorText({ code }: { code: string | undefined }) {
  const { i18n } = useLingui();
  if (!code) return null;
  return <p className="text-xs font-medium text-destructive">{i18n._(CODE_MESSAGES[code] ?? fieldErrorMessage(code))}</p>;
}

/** The ranges of one day (weekday or exception), with add and remove. `path` prefixes error keys. */
function RangesEditor({ ranges, onChange, path, errors, dayLabel }: { ranges: TimeRange[]; onChange: (ranges: TimeRange[]) => void; path: string; errors: Errors; dayLabel: string }) {
  const { t } = useLingui();
  const update = (index: number, range: TimeRange) => onChange(ranges.map((r, i) => (i === index ? range : r)));
  const add = () => {
    const last = ranges[ranges.length - 1];
    const open = last && last.close !== "24:00" && last.close < "23:00" ? last.close : "09:00";
    const close = last ? (open < "22:00" ? `${String(Number(open.slice(0, 2)) + 1).padStart(2, "0")}${open.slice(2)}` : "24:00") : "18:00";
    onChange([...ranges, { open, close }]);
  };
  return (
    <div className="grid gap-2">
      {ranges.length === 0 ? <p className="text-sm text-muted-foreground">{t`Closed`}</p> : null}
      {ranges.map((range, index) => (
        <div key={index} className="grid gap-1">
          <div className="flex flex-wrap items-center gap-2">
            <TimeField
              className="w-[7.5rem]"
              aria-label={t`${dayLabel}, range ${index + 1}: opens at`}
              aria-invalid={errors[`${path}.${index}.open`] ? true : undefined}
              value={range.open}
              onChange={(open) => update(index, { ...range, open })}
            />
            <span aria-hidden className="text-muted-foreground">
              –
            </span>
            <TimeField
              className="w-[7.5rem]"
              aria-label={t`${dayLabel}, range ${index + 1}: closes at`}
              aria-invalid={errors[`${path}.${index}.close`] ? true : undefined}
              value={shownClose(range.close)}
              onChange={(close) => update(index, { ...range, close: storedClose(close) })}
            />
            <Button type="button" variant="ghost" size="icon" aria-label={t`Remove ${dayLabel} range ${index + 1}`} onClick={() => onChange(ranges.filter((_, i) => i !== index))}>
              <Trash2 />
            </Button>
          </div>
          <ErrorText code={errors[`${path}.${index}`] ?? errors[`${path}.${index}.open`] ?? errors[`${path}.${index}.close`]} />
        </div>
      ))}
      <ErrorText code={errors[path]} />
      <div>
        <Button type="button" variant="outline" size="sm" onClick={add} disabled={ranges.length >= 6} aria-label={t`Add a range on ${dayLabel}`}>
          <Plus />
          {t`Add range`}
        </Button>
      </div>
    </div>
  );
}

/** One outside-hours action: nothing, a message or a flow (`inherit`: "same as for all"). */
function ActionEditor({
  label,
  value,
  onChange,
  inherit,
  flows,
  path,
  errors,
}: {
  label: string;
  value: OutsideHoursAction | null;
  onChange: (action: OutsideHoursAction | null) => void;
  inherit: boolean;
  flows: { id: string; name: string }[] | null;
  path: string;
  errors: Errors;
}) {
  const { t } = useLingui();
  const kind = value === null ? "inherit" : value.type;
  return (
    <div className="grid gap-2">
      <label className="grid gap-1.5 text-sm font-medium">
        {label}
        <NativeSelect
          value={kind}
          onChange={(event) => {
            const next = event.target.value;
            if (next === "inherit") onChange(null);
            else if (next === "message") onChange({ type: "message", message: value?.type === "message" ? value.message : "" });
            else if (next === "flow") onChange({ type: "flow", flowId: value?.type === "flow" ? value.flowId : (flows?.[0]?.id ?? "") });
            else onChange({ type: "none" });
          }}
        >
          {inherit ? <option value="inherit">{t`Same as for all connections`}</option> : null}
          <option value="none">{t`Only mark the conversation`}</option>
          <option value="message">{t`Send a message`}</option>
          {flows && flows.length > 0 ? <option value="flow">{t`Start a flow`}</option> : null}
        </NativeSelect>
      </label>
      {value?.type === "message" ? (
        <>
          <Textarea
            aria-label={t`Outside-hours message for ${label}`}
            rows={3}
            maxLength={4096}
            value={value.message}
            placeholder={t`E.g. We are closed now; we answer from 9 a.m.`}
            onChange={(event) => onChange({ type: "message", message: event.target.value })}
          />
          <ErrorText code={errors[`${path}.message`]} />
        </>
      ) : null}
      {value?.type === "flow" ? (
        <>
          <NativeSelect aria-label={t`Outside-hours flow for ${label}`} value={value.flowId} onChange={(event) => onChange({ type: "flow", flowId: event.target.value })}>
            {(flows ?? []).map((flow) => (
              <option key={flow.id} value={flow.id}>
                {flow.name}
              </option>
            ))}
          </NativeSelect>
          <ErrorText code={errors[`${path}.flowId`]} />
        </>
      ) : null}
      <ErrorText code={errors[path]} />
    </div>
  );
}

function ExceptionRow({ exception, index, onChange, onRemove, errors }: { exception: ScheduleException; index: number; onChange: (e: ScheduleException) => void; onRemove: () => void; errors: Errors }) {
  const { t, i18n } = useLingui();
  const shown = new Date(`${exception.date}T12:00:00`).toLocaleDateString(i18n.locale, { weekday: "short", day: "numeric", month: "long", year: "numeric" });
  const closedAllDay = exception.ranges.length === 0;
  const path = `exceptions.${index}`;
  return (
    <li className="grid gap-3 rounded-lg border p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm font-medium">{shown}</p>
        <Button type="button" variant="ghost" size="icon" aria-label={t`Remove the exception of ${shown}`} onClick={onRemove}>
          <Trash2 />
        </Button>
      </div>
      <ErrorText code={errors[`${path}.date`]} />
      <label className="grid gap-1.5 text-sm">
        {t`Name (optional)`}
        <Input value={exception.name} maxLength={80} placeholder={t`E.g. Christmas`} onChange={(event) => onChange({ ...exception, name: event.target.value })} />
      </label>
      <div className="flex items-center gap-2">
        <Switch
          id={`closed-${exception.date}`}
          checked={closedAllDay}
          onCheckedChange={(checked) => onChange({ ...exception, ranges: checked ? [] : [{ open: "09:00", close: "13:00" }] })}
        />
        <label htmlFor={`closed-${exception.date}`} className="text-sm">
          {t`Closed all day`}
        </label>
      </div>
      {closedAllDay ? null : <RangesEditor ranges={exception.ranges} onChange={(ranges) => onChange({ ...exception, ranges })} path={`${path}.ranges`} errors={errors} dayLabel={shown} />}
    </li>
  );
}

function OperatingHoursForm({ saved }: { saved: OperatingHoursAnswer }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const initial = useMemo(() => inputOf(saved), [saved]);
  const [draft, setDraft] = useState<OperatingHoursInput>(initial);
  const [errors, setErrors] = useState<Errors>({});
  const [picking, setPicking] = useState(false);
  const connections = useQuery({ ...connectionsQuery(), retry: false });
  const flowsList = useQuery({ ...everyFlowQuery(), retry: false });
  const flows = flowsList.data ? flowsList.data.map((f) => ({ id: f.id, name: f.name })) : null;
  const save = useMutation({
    mutationFn: saveOperatingHours,
    onSuccess: (answer) => {
      queryClient.setQueryData(workspaceSettingsKeys.operatingHours(), answer);
      notifySuccess("edited");
    },
  });
  const changed = JSON.stringify(draft) !== JSON.stringify(initial);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = operatingHoursInput.safeParse(draft);
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues) found[issue.path.join(".")] ??= /^[a-z_]+$/.test(issue.message) ? issue.message : issue.code;
      setErrors(found);
      return;
    }
    setErrors({});
    try {
      await save.mutateAsync(parsed.data);
    } catch (error) {
      if (isApiError(error) && Object.keys(error.fields).length) setErrors(error.fields);
      else notifyError(error);
    }
  };

  const setOutside = (outside: OperatingHoursInput["outside"]) => setDraft({ ...draft, outside });
  const exceptions = [...draft.exceptions].sort((a, b) => a.date.localeCompare(b.date));
  const hasErrors = Object.keys(errors).length > 0;

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <Card>
        <CardHeader>
          <CardTitle as="h2">{t`Operating hours`}</CardTitle>
          <CardDescription>{t`When the team answers. A customer who writes outside these hours gets your outside-hours answer once per conversation, and the chat list marks the conversation.`}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {hasErrors ? <Alert variant="destructive">{t`Some fields need your attention.`}</Alert> : null}
          <div className="flex items-start justify-between gap-4 rounded-lg border p-4">
            <div className="grid gap-1">
              <label htmlFor="operating-hours-enabled" className="text-sm leading-none font-medium">
                {t`Use operating hours`}
              </label>
              <p className="text-xs text-muted-foreground">{t`Off: the company is always open.`}</p>
            </div>
            <Switch id="operating-hours-enabled" checked={draft.enabled} onCheckedChange={(enabled) => setDraft({ ...draft, enabled })} />
          </div>
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <Clock className="size-4 text-muted-foreground" aria-hidden />
            <span>{t`Time zone: ${saved.timezone}`}</span>
            <span className="text-muted-foreground">{t`(changed in Settings → Company)`}</span>
            {saved.enabled ? <Badge variant={saved.openNow ? "default" : "secondary"}>{saved.openNow ? t`Open now` : t`Closed now`}</Badge> : null}
          </div>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle as="h2">{t`Weekly schedule`}</CardTitle>
          <CardDescription>{t`Ranges of each day; a day without ranges is closed. A closing time of 00:00 means midnight.`}</CardDescription>
        </CardHeader>
        <CardContent>
          <ul className="grid gap-4">
            {DAYS.map((day) => {
              const label = i18n._(DAY_LABELS[day]);
              return (
                <li key={day} className="grid gap-2 border-b pb-4 last:border-b-0 last:pb-0 sm:grid-cols-[8rem_1fr]">
                  <p className="text-sm font-medium">{label}</p>
                  <RangesEditor
                    ranges={draft.weekly[day]}
                    onChange={(ranges) => setDraft({ ...draft, weekly: { ...draft.weekly, [day]: ranges } })}
                    path={`weekly.${day}`}
                    errors={errors}
                    dayLabel={label}
                  />
                </li>
              );
            })}
          </ul>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle as="h2">{t`Exceptions`}</CardTitle>
          <CardDescription>{t`Holidays and days with special hours replace the weekly schedule on their date.`}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3">
          {exceptions.length === 0 ? <p className="text-sm text-muted-foreground">{t`No exceptions.`}</p> : null}
          <ul className="grid gap-3">
            {exceptions.map((exception) => {
              const index = draft.exceptions.indexOf(exception);
              return (
                <ExceptionRow
                  key={exception.date}
                  exception={exception}
                  index={index}
                  errors={errors}
                  onChange={(next) => setDraft({ ...draft, exceptions: draft.exceptions.map((e, i) => (i === index ? next : e)) })}
                  onRemove={() => setDraft({ ...draft, exceptions: draft.exceptions.filter((_, i) => i !== index) })}
                />
              );
            })}
          </ul>
          <div>
            <Popover open={picking} onOpenChange={setPicking}>
              <PopoverTrigger asChild>
                <Button type="button" variant="outline" size="sm">
                  <CalendarPlus />
                  {t`Add exception`}
                </Button>
              </PopoverTrigger>
              <PopoverContent align="start" className="w-auto p-2">
                <DayPicker
                  mode="single"
                  style={CALENDAR_THEME}
                  locale={calendarLocale(i18n.locale)}
                  disabled={draft.exceptions.map((e) => new Date(`${e.date}T12:00:00`))}
                  onSelect={(day) => {
                    if (!day) return;
                    const date = isoDate(day);
                    if (!draft.exceptions.some((e) => e.date === date)) setDraft({ ...draft, exceptions: [...draft.exceptions, { date, name: "", ranges: [] }] });
                    setPicking(false);
                  }}
                />
              </PopoverContent>
            </Popover>
          </div>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle as="h2">{t`Outside hours`}</CardTitle>
          <CardDescription>{t`What a customer who writes outside hours gets, once per conversation, instead of the greeting and the default flow.`}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          <ActionEditor
            label={t`All connections`}
            value={draft.outside.all}
            inherit={false}
            flows={flows}
            path="outside.all"
            errors={errors}
            onChange={(action) => setOutside({ ...draft.outside, all: action ?? { type: "none" } })}
          />
          {connections.data && connections.data.length > 0 ? (
            <div className="grid gap-4 border-t pt-4">
              <p className="text-sm text-muted-foreground">{t`Per connection (overrides the setting for all):`}</p>
              {connections.data.map((connection) => (
                <ActionEditor
                  key={connection.id}
                  label={connection.name}
                  value={draft.outside.connections[connection.id] ?? null}
                  inherit
                  flows={flows}
                  path={`outside.connections.${connection.id}`}
                  errors={errors}
                  onChange={(action) => {
                    const next = { ...draft.outside.connections };
                    if (action === null) delete next[connection.id];
                    else next[connection.id] = action;
                    setOutside({ ...draft.outside, connections: next });
                  }}
                />
              ))}
            </div>
          ) : null}
        </CardContent>
        <SettingsFormFooter
          changed={changed}
          saving={save.isPending}
          onDiscard={() => {
            setDraft(initial);
            setErrors({});
          }}
        />
      </Card>
    </form>
  );
}

/**
 * /settings/operating-hours (spec §2; permission settings_company; issue 12): the weekly schedule
 * (ranges per day), dated exceptions picked on a calendar, the company's time zone, and the
 * outside-hours answer (a message or a flow) for all connections and per connection.
 */
export function OperatingHoursSettingsPage() {
  const { t } = useLingui();
  const query = useQuery(operatingHoursQuery());
  return (
    <section aria-label={t`Operating hours`} className="grid max-w-3xl gap-4">
      {query.isPending ? (
        <SettingsFormSkeleton rows={6} />
      ) : query.isError ? (
        <Card>
          <ErrorState title={t`Could not load the operating hours.`} onRetry={() => void query.refetch()} />
        </Card>
      ) : (
        <OperatingHoursForm key={query.dataUpdatedAt} saved={query.data} />
      )}
    </section>
  );
}
