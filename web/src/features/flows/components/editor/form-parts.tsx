/**
 * Pieces the block forms share: the live apply of a form's values to the editor store, the
 * description and message fields, the waiting blocks' response time / error message / error limit,
 * media upload (POST /api/flows/{id}/media), and the pickers of custom fields.
 */
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useQuery } from "@tanstack/react-query";
import type { UseFormRegisterReturn } from "react-hook-form";
import { useLingui } from "@lingui/react/macro";
import { FileUp, Trash2 } from "lucide-react";
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
