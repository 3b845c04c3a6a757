/**
 * The WhatsApp template of a broadcast (issue 10 "Templates"): shown for WhatsApp Cloud API
 * connections only. Outside the 24-hour customer service window only an approved template may start
 * the conversation, so the picker lists the connection's APPROVED templates
 * (GET /api/connections/{id}/templates, read again from Meta with "Sync templates"), shows the
 * chosen one's text and maps each of its variables to a contact column, a custom field or fixed
 * text.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { RefreshCw } from "lucide-react";
import type { UseFormReturn } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { Spinner } from "@/components/ui/spinner";
import { fieldErrorMessage } from "@/lib/error-messages";
import { formatDateTime } from "@/lib/dates";
import { notifyError } from "@/lib/notify";
import { fieldDisplayName } from "@/features/registers/lib/labels";
import type { CustomFieldAnswer } from "../../../../../schema/api-types";
import { CONTACT_VARIABLE_FIELDS } from "../../../../../schema/validation/broadcasts";
import { broadcastKeys, syncTemplates, templatesQuery } from "../api/broadcasts-api";
import { templateDraftOf, type BroadcastFormValues, type ContactVariableField, type VariableDraft } from "../lib/form";
import { CONTACT_VARIABLE_LABELS } from "../lib/labels";

const templateKey = (name: string, language: string) => `${name}|${language}`;

function isContactField(value: string): value is ContactVariableField {
  return (CONTACT_VARIABLE_FIELDS as readonly string[]).includes(value);
}

function VariableRow({ variable, position, fields, error, disabled, onChange }: {
  variable: VariableDraft;
  position: number;
  fields: readonly CustomFieldAnswer[];
  error: string | undefined;
  disabled: boolean;
  onChange: (next: VariableDraft) => void;
}) {
  const { t, i18n } = useLingui();
  const placeholder = `{{${variable.placeholder}}}`;
  return (
    <div className="grid gap-1.5 rounded-md border p-2.5" data-testid="template-variable">
      <p className="text-xs font-medium">{variable.component === "header" ? t`Variable ${placeholder} of the header` : t`Variable ${placeholder} of the body`}</p>
      <div className="flex flex-wrap gap-2">
        <NativeSelect
          aria-label={t`Source of variable ${position}`}
          className="min-w-0 flex-1 basis-32"
          value={variable.source}
          disabled={disabled}
          onChange={(event) => {
            const source = event.target.value;
            if (source === "contact" || source === "custom_field" || source === "text") onChange({ ...variable, source });
          }}
        >
          <option value="contact">{t`Contact field`}</option>
          <option value="custom_field">{t`Custom field`}</option>
          <option value="text">{t`Fixed text`}</option>
        </NativeSelect>
        {variable.source === "contact" ? (
          <NativeSelect
            aria-label={t`Contact field of variable ${position}`}
            className="min-w-0 flex-1 basis-32"
            value={variable.field}
            disabled={disabled}
            onChange={(event) => {
              if (isContactField(event.target.value)) onChange({ ...variable, field: event.target.value });
            }}
          >
            {CONTACT_VARIABLE_FIELDS.map((field) => (
              <option key={field} value={field}>
                {i18n._(CONTACT_VARIABLE_LABELS[field])}
              </option>
            ))}
          </NativeSelect>
        ) : variable.source === "custom_field" ? (
          <NativeSelect
            aria-label={t`Custom field of variable ${position}`}
            className="min-w-0 flex-1 basis-32"
            value={variable.fieldId}
            disabled={disabled}
            aria-invalid={error ? true : undefined}
            onChange={(event) => onChange({ ...variable, fieldId: event.target.value })}
          >
            <option value="">{t`Choose a field`}</option>
            {fields.map((field) => (
              <option key={field.id} value={field.id}>
                {fieldDisplayName(field, i18n)}
              </option>
            ))}
          </NativeSelect>
        ) : (
          <Input
            aria-label={t`Text of variable ${position}`}
            className="min-w-0 flex-1 basis-32"
            value={variable.text}
            maxLength={1000}
            disabled={disabled}
            aria-invalid={error ? true : undefined}
            onChange={(event) => onChange({ ...variable, text: event.target.value })}
          />
        )}
      </div>
      {error ? <p className="text-xs font-medium text-destructive">{i18n._(fieldErrorMessage(error))}</p> : null}
    </div>
  );
}

/** The template section of the broadcast form, for the chosen Cloud API connection. */
export function TemplatePicker({ form, connectionId, fields, disabled }: { form: UseFormReturn<BroadcastFormValues>; connectionId: string; fields: readonly CustomFieldAnswer[]; disabled: boolean }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const templates = useQuery(templatesQuery(connectionId));
  const sync = useMutation({
    mutationFn: () => syncTemplates(connectionId),
    onSuccess: (answer) => queryClient.setQueryData(broadcastKeys.templates(connectionId), answer),
    onError: (error) => notifyError(error),
  });
  const chosen = form.watch("template");
  const approved = (templates.data?.templates ?? []).filter((template) => template.status === "APPROVED");
  const selected = chosen ? approved.find((template) => template.name === chosen.name && template.language === chosen.language) : undefined;
  const body = selected?.components.find((component) => component.type === "BODY")?.text;
  const errors = form.formState.errors.template;
  const syncedAt = templates.data?.syncedAt ?? null;
  const syncedText = syncedAt !== null ? formatDateTime(syncedAt) : "";

  return (
    <fieldset className="grid gap-3 rounded-md border p-3" disabled={disabled} aria-describedby="broadcast-template-hint">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <legend className="text-sm font-medium">{t`WhatsApp template`}</legend>
        <Button type="button" variant="ghost" size="sm" onClick={() => sync.mutate()} disabled={disabled || sync.isPending}>
          {sync.isPending ? <Spinner /> : <RefreshCw />}
          {t`Sync templates`}
        </Button>
      </div>
      <p id="broadcast-template-hint" className="text-xs text-muted-foreground">
        {t`Outside the 24-hour window after a contact's last message, WhatsApp only delivers an approved template. Without one, those contacts are rejected.`}
      </p>
      <NativeSelect
        aria-label={t`Template`}
        value={chosen ? templateKey(chosen.name, chosen.language) : ""}
        disabled={disabled || templates.isPending}
        aria-invalid={errors?.message ? true : undefined}
        onChange={(event) => {
          const template = approved.find((option) => templateKey(option.name, option.language) === event.target.value);
          form.setValue("template", template ? templateDraftOf(template, chosen) : null, { shouldDirty: true });
          form.clearErrors("template");
        }}
      >
        <option value="">{templates.isError ? t`Could not load the templates` : approved.length ? t`No template` : t`No approved template`}</option>
        {approved.map((template) => (
          <option key={template.id} value={templateKey(template.name, template.language)}>
            {template.name} · {template.language}
          </option>
        ))}
        {chosen && !selected ? <option value={templateKey(chosen.name, chosen.language)}>{`${chosen.name} · ${chosen.language}`}</option> : null}
      </NativeSelect>
      {syncedText ? <p className="text-xs text-muted-foreground">{t`Read from Meta on ${syncedText}.`}</p> : null}
      {errors?.message ? <p className="text-xs font-medium text-destructive">{i18n._(fieldErrorMessage(errors.message))}</p> : null}
      {body ? <p className="rounded-md bg-muted px-3 py-2 text-sm whitespace-pre-wrap">{body}</p> : null}
      {chosen?.variables.map((variable, index) => (
        <VariableRow
          key={`${variable.component}-${variable.index}`}
          variable={variable}
          position={index + 1}
          fields={fields}
          disabled={disabled}
          error={errors?.variables?.[index]?.text?.message ?? errors?.variables?.[index]?.fieldId?.message}
          onChange={(next) => {
            const variables = chosen.variables.map((current, i) => (i === index ? next : current));
            form.setValue("template", { ...chosen, variables }, { shouldDirty: true });
          }}
        />
      ))}
    </fieldset>
  );
}
