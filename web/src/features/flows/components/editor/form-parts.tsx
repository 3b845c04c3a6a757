/**
 * Pieces the block forms share: the form of a block with the live apply of its values to the
 * editor store, the description and message fields, the waiting blocks' response time / error
 * message / error limit, media upload (POST /api/flows/{id}/media), the lists of options with
 * add/remove, and the pickers of custom fields.
 */
import { useEffect, useRef, useState, type ComponentProps, type ReactNode } from "react";
import { useQuery } from "@tanstack/react-query";
import { Controller, useForm, useWatch, type DefaultValues, type FieldValues, type UseFormRegisterReturn, type UseFormReturn } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import type { MessageDescriptor } from "@lingui/core";
import { useLingui } from "@lingui/react/macro";
import { FileUp, Plus, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import { notifyError } from "@/lib/notify";
import { MAX_ERROR_LIMIT, MAX_MESSAGE_LENGTH, type BlockMedia } from "../../../../../../schema/flows";
import { flowFieldsQuery, uploadFlowMedia } from "../../api/flows-api";
import { useEditor } from "../../store/editor-store";

/** Writes a form's watched values to block `id` whenever they change (invalid values are ignored by the store). */
export function useApply(id: string, values: unknown): void {
  const setBlockData = useEditor((state) => state.setBlockData);
  useEffect(() => {
    setBlockData(id, values);
  }, [id, values, setBlockData]);
}

/**
 * A block's form on its type's schema (react-hook-form + zodResolver, validated on change) whose
 * watched values apply to block `id` as they change.
 */
export function useBlockForm<Input extends FieldValues, Output extends FieldValues>(node: { id: string; data: DefaultValues<Input> }, schema: z.ZodType<Output, Input>) {
  const form = useForm<Input, unknown, Output>({ resolver: zodResolver(schema), defaultValues: node.data, mode: "onChange" });
  const values = useWatch({ control: form.control });
  useApply(node.id, values);
  return { form, values, errors: form.formState.errors };
}

/** A block form's fields, stacked, with the description field last. */
export function BlockFields<Input extends { description?: string }, Output>({ form, children }: { form: UseFormReturn<Input, unknown, Output>; children: ReactNode }) {
  return (
    <div className="grid gap-4">
      {children}
      <BlockDescription form={form} />
    </div>
  );
}

/** The description field wired to a block form's `description`. */
export function BlockDescription<Input extends { description?: string }, Output>({ form }: { form: UseFormReturn<Input, unknown, Output> }) {
  const described = form as unknown as UseFormReturn<{ description: string }>;
  return <DescriptionField registration={described.register("description")} error={described.formState.errors.description?.message} />;
}

/** A group of fields with a small heading. */
export function Section({ title, children, action }: { title: ReactNode; children: ReactNode; action?: ReactNode }) {
  return (
    <fieldset className="grid gap-3 rounded-md border p-3">
      <div className="flex items-center justify-between gap-2">
        <legend className="text-sm font-medium">{title}</legend>
        {action}
      </div>
      {children}
    </fieldset>
  );
}

/** The variables hint under message fields. */
export function useVariablesHint(): string {
  const { t } = useLingui();
  const example = "{{first_name}}";
  const fieldExample = "{{field_key}}";
  return t`Use variables such as ${example} or ${fieldExample}.`;
}

/** Units of the duration field, largest first (seconds per unit). */
const UNITS = [86_400, 3_600, 60, 1] as const;

/**
 * A duration in seconds shown as an amount and a unit (days, hours, minutes, seconds); `nullable`
 * adds "no limit" as an empty amount.
 */
export function DurationInput({ value, onChange, id, nullable, ...aria }: { value: number | null; onChange: (seconds: number | null) => void; id?: string; nullable?: boolean; "aria-invalid"?: boolean; "aria-describedby"?: string }) {
  const { t } = useLingui();
  const initialUnit = value === null ? 60 : (UNITS.find((unit) => value % unit === 0) ?? 1);
  const [unit, setUnit] = useState<number>(initialUnit);
  const [text, setText] = useState(value === null ? "" : String(value / initialUnit));
  const labels: Record<number, string> = { 86400: t`days`, 3600: t`hours`, 60: t`minutes`, 1: t`seconds` };
  const emit = (nextText: string, nextUnit: number) => {
    const amount = Number(nextText);
    if (nextText.trim() === "") onChange(nullable ? null : 1);
    else if (Number.isFinite(amount) && amount > 0) onChange(Math.round(amount * nextUnit));
  };
  return (
    <div className="flex gap-2">
      <Input
        id={id}
        type="number"
        min={1}
        inputMode="numeric"
        value={text}
        placeholder={nullable ? t`No limit` : undefined}
        onChange={(event) => {
          setText(event.target.value);
          emit(event.target.value, unit);
        }}
        {...aria}
        className="flex-1"
      />
      <NativeSelect
        aria-label={t`Unit`}
        value={String(unit)}
        onChange={(event) => {
          const next = Number(event.target.value);
          setUnit(next);
          emit(text, next);
        }}
        className="w-32"
      >
        {UNITS.map((option) => (
          <option key={option} value={option}>
            {labels[option]}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}

/** The waiting blocks' fields (spec §3 Block fields: response time, error message, error limit), uncontrolled parts wired by the caller. */
export function WaitFields({
  responseTime,
  onResponseTime,
  errorMessage,
  errorLimit,
  errors,
}: {
  responseTime: number | null;
  onResponseTime: (seconds: number | null) => void;
  errorMessage: ReactNode;
  errorLimit: ReactNode;
  errors?: { responseTimeSeconds?: string };
}) {
  const { t } = useLingui();
  return (
    <Section title={t`Waiting for the answer`}>
      <FormField label={t`Response time`} error={errors?.responseTimeSeconds} hint={t`After this time without an answer, the run takes the "No answer" output. Empty: wait forever.`}>
        <DurationInput value={responseTime} onChange={onResponseTime} nullable />
      </FormField>
      {errorMessage}
      {errorLimit}
    </Section>
  );
}

/** The props `register` gives a control. */
type Registered = UseFormRegisterReturn;

/** The "Message" textarea with the variables hint. */
export function MessageField({ label, error, registration, rows = 4, maxLength = MAX_MESSAGE_LENGTH }: { label?: ReactNode; error?: string; registration: Registered; rows?: number; maxLength?: number }) {
  const { t } = useLingui();
  const hint = useVariablesHint();
  return (
    <FormField label={label ?? t`Message`} error={error} hint={hint}>
      <Textarea rows={rows} maxLength={maxLength} {...registration} />
    </FormField>
  );
}

/** The waiting blocks' fields (response time, error message, error limit) wired to a block form. */
export function BlockWaitFields<Input extends { responseTimeSeconds?: number | null; errorMessage?: string; errorLimit?: number }, Output>({ form }: { form: UseFormReturn<Input, unknown, Output> }) {
  const waiting = form as unknown as UseFormReturn<{ responseTimeSeconds: number | null; errorMessage: string; errorLimit: number }>;
  const responseTime = useWatch({ control: waiting.control, name: "responseTimeSeconds" });
  const { errors } = waiting.formState;
  const waits = useErrorFields({
    messageRegistration: waiting.register("errorMessage"),
    limitRegistration: waiting.register("errorLimit", { valueAsNumber: true }),
    errors: { errorMessage: errors.errorMessage?.message, errorLimit: errors.errorLimit?.message },
  });
  return (
    <WaitFields
      responseTime={responseTime ?? null}
      onResponseTime={(seconds) => waiting.setValue("responseTimeSeconds", seconds, { shouldValidate: true })}
      errorMessage={waits.errorMessage}
      errorLimit={waits.errorLimit}
    />
  );
}

/** The "Error message" textarea and the "Error limit" number of waiting blocks. */
export function useErrorFields({ messageRegistration, limitRegistration, errors }: { messageRegistration: Registered; limitRegistration: Registered; errors?: { errorMessage?: string; errorLimit?: string } }) {
  const { t } = useLingui();
  return {
    errorMessage: (
      <FormField label={t`Error message`} error={errors?.errorMessage} hint={t`Sent when the answer is not valid; empty sends nothing.`}>
        <Textarea rows={2} maxLength={MAX_MESSAGE_LENGTH} {...messageRegistration} />
      </FormField>
    ),
    errorLimit: (
      <FormField label={t`Error limit`} error={errors?.errorLimit} hint={t`Invalid answers retried before the "Invalid answer" output.`}>
        <Input type="number" min={0} max={MAX_ERROR_LIMIT} {...limitRegistration} />
      </FormField>
    ),
  };
}

/** The description field every block has. */
export function DescriptionField({ registration, error }: { registration: Registered; error?: string }) {
  const { t } = useLingui();
  return (
    <FormField label={t`Description`} error={error} hint={t`A note for your team; the contact never sees it.`}>
      <Input maxLength={500} {...registration} />
    </FormField>
  );
}

/** What the media field accepts per block type. */
export type MediaKind = "image" | "audio" | "video" | "file" | "ptv";
const ACCEPT: Record<MediaKind, string> = { image: "image/*", audio: "audio/*", video: "video/*", ptv: "video/*", file: "" };
/** Largest upload the worker takes (100 MB). */
const MAX_MEDIA_BYTES = 100 * 1024 * 1024;

/** The block's file: the current one, an upload button (POST /api/flows/{id}/media), remove. */
export function MediaField({ kind, value, onChange, error }: { kind: MediaKind; value: BlockMedia; onChange: (media: BlockMedia) => void; error?: string }) {
  const { t } = useLingui();
  const flowId = useEditor((state) => state.flowId);
  const input = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const [tooLarge, setTooLarge] = useState(false);
  const pick = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > MAX_MEDIA_BYTES) {
      setTooLarge(true);
      return;
    }
    setTooLarge(false);
    setUploading(true);
    try {
      const stored = await uploadFlowMedia(flowId, file);
      onChange({ url: stored.url, mime: stored.mime, fileName: stored.name });
    } catch (failure) {
      notifyError(failure);
    } finally {
      setUploading(false);
    }
  };
  const name = value.fileName || value.url;
  return (
    <div className="grid gap-1.5">
      <span className="text-sm font-medium">{t`File`}</span>
      {value.url ? (
        <div className="flex items-center gap-2 rounded-md border bg-muted/50 px-3 py-2 text-sm">
          <span className="min-w-0 flex-1 truncate" data-testid="flow-media-name">
            {name}
          </span>
          <span className="shrink-0 text-xs text-muted-foreground">{value.mime}</span>
          <Button type="button" variant="ghost" size="icon" className="size-7" aria-label={t`Remove file`} onClick={() => onChange({ url: "", mime: "" })}>
            <Trash2 />
          </Button>
        </div>
      ) : (
        <p className="text-xs text-muted-foreground">{t`No file yet (up to 100 MB).`}</p>
      )}
      <div>
        <Button type="button" variant="outline" size="sm" disabled={uploading} onClick={() => input.current?.click()}>
          {uploading ? <Spinner /> : <FileUp />}
          {value.url ? t`Replace file` : t`Upload file`}
        </Button>
      </div>
      <input
        ref={input}
        type="file"
        accept={ACCEPT[kind] || undefined}
        className="hidden"
        tabIndex={-1}
        aria-label={t`Upload file`}
        onChange={(event) => {
          void pick(event.target.files?.[0]);
          event.target.value = "";
        }}
      />
      {tooLarge ? <p className="text-xs font-medium text-destructive">{t`The file is larger than 100 MB.`}</p> : null}
      {error ? <p className="text-xs font-medium text-destructive">{error}</p> : null}
    </div>
  );
}

/** The media field wired to a block form's `media`. */
export function BlockMediaField<Input extends { media?: Partial<BlockMedia> }, Output>({ form, kind }: { form: UseFormReturn<Input, unknown, Output>; kind: MediaKind }) {
  const withMedia = form as unknown as UseFormReturn<{ media: Partial<BlockMedia> | undefined }>;
  return (
    <Controller
      control={withMedia.control}
      name="media"
      render={({ field }) => <MediaField kind={kind} value={{ url: field.value?.url ?? "", mime: field.value?.mime ?? "", fileName: field.value?.fileName }} onChange={field.onChange} />}
    />
  );
}

/** A list item's remove button. */
export function RemoveButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <Button type="button" variant="ghost" size="icon" className="size-8 shrink-0 text-muted-foreground hover:text-destructive" aria-label={label} onClick={onClick}>
      <Trash2 />
    </Button>
  );
}

/** A list's add button. */
export function AddButton({ label, onClick, disabled }: { label: string; onClick: () => void; disabled?: boolean }) {
  return (
    <Button type="button" variant="outline" size="sm" onClick={onClick} disabled={disabled}>
      <Plus />
      {label}
    </Button>
  );
}

/**
 * A section listing a block's items (buttons, responses, options, outputs, headers, tests…) with
 * an add button (disabled at `max` items) and a remove button per item. `row` renders an item's
 * fields beside its remove button; with `details`, the item is boxed and its details go below.
 */
export function ItemList({
  title,
  list,
  max,
  addLabel,
  onAdd,
  removeLabel,
  empty,
  row,
  details,
}: {
  title: ReactNode;
  /** The `useFieldArray` of the items (with `keyName: "key"`). */
  list: { fields: { key: string }[]; remove: (index: number) => void };
  max: number;
  addLabel: string;
  onAdd: () => void;
  removeLabel: (position: number) => string;
  empty?: ReactNode;
  row: (index: number, position: number) => ReactNode;
  details?: (index: number, position: number) => ReactNode;
}) {
  return (
    <Section title={title} action={<AddButton label={addLabel} disabled={list.fields.length >= max} onClick={onAdd} />}>
      {empty && list.fields.length === 0 ? <p className="text-xs text-muted-foreground">{empty}</p> : null}
      {list.fields.map((item, index) => {
        const position = index + 1;
        const line = (
          <div key={item.key} className="flex items-end gap-2">
            {row(index, position)}
            <RemoveButton label={removeLabel(position)} onClick={() => list.remove(index)} />
          </div>
        );
        return details ? (
          <div key={item.key} className="grid gap-2 rounded-md bg-muted/40 p-2">
            {line}
            {details(index, position)}
          </div>
        ) : (
          line
        );
      })}
    </Section>
  );
}

/** `<option>`s of a record of labels (value: its key), in the record's order. */
export function LabelOptions({ labels }: { labels: Record<string, MessageDescriptor> }) {
  const { i18n } = useLingui();
  return (
    <>
      {Object.entries(labels).map(([value, label]) => (
        <option key={value} value={value}>
          {i18n._(label)}
        </option>
      ))}
    </>
  );
}

/**
 * The select of an item's kind (an action's, a test's), labelled `label`: choosing a kind that
 * `isKind` accepts calls `onKind` with it.
 */
export function KindSelect<Kind extends string>({ label, value, labels, isKind, onKind }: { label: string; value: Kind; labels: Record<Kind, MessageDescriptor>; isKind: (value: string) => value is Kind; onKind: (kind: Kind) => void }) {
  return (
    <FormField label={label} className="flex-1">
      <NativeSelect
        value={value}
        onChange={(event) => {
          const kind = event.target.value;
          if (isKind(kind)) onKind(kind);
        }}
      >
        <LabelOptions labels={labels} />
      </NativeSelect>
    </FormField>
  );
}

/**
 * A select of the company's fields (see `useFieldOptions`) with its registration; other props (the
 * id and aria attributes a `FormField` gives its control) go to the select.
 */
export function FieldSelect({
  registration,
  fields,
  current,
  disabled,
  ...control
}: { registration: Registered; fields: { options: { key: string; name: string }[] }; current: string; disabled?: boolean } & Omit<ComponentProps<typeof NativeSelect>, "disabled">) {
  return (
    <NativeSelect {...control} {...registration} disabled={disabled}>
      <FieldOptions options={fields.options} current={current} />
    </NativeSelect>
  );
}

/** The company's fields a block can save into or test (formula fields excluded), for selects. */
export function useFieldOptions(): { options: { key: string; name: string }[]; loading: boolean } {
  const fields = useQuery(flowFieldsQuery());
  const options = (fields.data ?? []).filter((field) => field.formula === null).map((field) => ({ key: field.key, name: field.name }));
  return { options, loading: fields.isPending };
}

/** `<option>`s of the company's fields, with a first empty choice. */
export function FieldOptions({ options, current }: { options: { key: string; name: string }[]; current: string }) {
  const { t } = useLingui();
  const known = options.some((option) => option.key === current);
  return (
    <>
      <option value="">{t`Choose a field`}</option>
      {options.map((option) => (
        <option key={option.key} value={option.key}>
          {option.name} ({`{{${option.key}}}`})
        </option>
      ))}
      {current && !known ? <option value={current}>{`{{${current}}}`}</option> : null}
    </>
  );
}
