import { useMemo } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { z } from "zod";
import { useLingui } from "@lingui/react/macro";
import { CircleCheck, CircleAlert, Lock } from "lucide-react";
import { FormSheet, FormSheetForm } from "@/components/form-sheet";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import { applyServerErrors } from "@/lib/form-errors";
import { fieldErrorMessage } from "@/lib/error-messages";
import { inputTypeOf, toInputValue } from "@/lib/field-values";
import { useActiveCompany } from "@/features/companies/hooks/use-companies";
import { CUSTOM_FIELD_TYPES, type CustomFieldType } from "../../../../../schema/enums";
import type { CustomFieldAnswer } from "../../../../../schema/api-types";
import { MAX_FORMULA_LENGTH, type FormulaFieldInfo } from "../../../../../schema/formula";
import { fieldKeySchema, keyFromName, normalizeFieldValue } from "../../../../../schema/validation/contacts";
import { useSaveCustomField } from "../hooks/use-registers";
import { checkFormulaSource, formulaFields, numericKeys } from "../lib/formula-check";
import { FIELD_KIND_LABELS, FIELD_TYPE_LABELS, fieldDisplayName } from "../lib/labels";

/** How a variable looks in messages (literal braces stay out of the translated text: ICU reads them). */
const VARIABLE_SAMPLE = "{{key}}";

/** What the sheet shows: a new field, or an existing one (read-only when built-in). */
export type CustomFieldSheetTarget = { kind: "new" } | { kind: "edit"; field: CustomFieldAnswer };

type FormValues = {
  name: string;
  key: string;
  type: CustomFieldType;
  kind: "user" | "bot";
  computed: boolean;
  formula: string;
  value: string;
};

function formSchema(infos: ReadonlyMap<string, FormulaFieldInfo>, timeZone: string) {
  return z
    .object({
      name: z.string().trim().min(1, { error: "required" }).max(60, { error: "too_long" }),
      key: z.string().trim(),
      type: z.enum(CUSTOM_FIELD_TYPES),
      kind: z.enum(["user", "bot"]),
      computed: z.boolean(),
      formula: z.string(),
      value: z.string(),
    })
    .superRefine((values, ctx) => {
      if (values.key) {
        const key = fieldKeySchema.safeParse(values.key);
        if (!key.success) ctx.addIssue({ code: "custom", path: ["key"], message: key.error.issues[0]?.message ?? "invalid_key" });
      }
      if (values.computed) {
        if (values.type !== "number") ctx.addIssue({ code: "custom", path: ["formula"], message: "needs_number_type" });
        const check = checkFormulaSource(values.formula, infos);
        if (!check.ok) ctx.addIssue({ code: "custom", path: ["formula"], message: check.code });
      } else if (values.kind === "bot" && values.value.trim()) {
        const normal = normalizeFieldValue(values.type, values.value, timeZone);
        if (!normal.ok) ctx.addIssue({ code: "custom", path: ["value"], message: normal.reason });
      }
    });
}

/** The formula editor: a textarea checked as the user types, with the parser's verdict under it. */
function FormulaEditor({
  value,
  onChange,
  infos,
  serverError,
  disabled,
}: {
  value: string;
  onChange: (value: string) => void;
  infos: ReadonlyMap<string, FormulaFieldInfo>;
  serverError?: string;
  disabled: boolean;
}) {
  const { t, i18n } = useLingui();
  const check = checkFormulaSource(value, infos);
  const keys = numericKeys(infos);
  const id = "custom-field-formula";
  const position = check.ok ? 0 : check.position + 1;
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{t`Formula`}</Label>
      <Textarea
        id={id}
        rows={3}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        maxLength={MAX_FORMULA_LENGTH}
        disabled={disabled}
        spellCheck={false}
        className="font-mono"
        placeholder="({{price}} - {{discount}}) * 1.1"
        aria-invalid={!check.ok || serverError ? true : undefined}
        aria-describedby={`${id}-status ${id}-help`}
      />
      <p id={`${id}-status`} role="status" aria-live="polite" className="flex items-start gap-1.5 text-xs font-medium">
        {check.ok && !serverError ? (
          <span className="flex items-center gap-1.5 text-green-700 dark:text-green-400">
            <CircleCheck className="size-3.5" aria-hidden />
            {t`Valid formula.`}
          </span>
        ) : (
          <span className="flex items-start gap-1.5 text-destructive">
            <CircleAlert className="mt-px size-3.5 shrink-0" aria-hidden />
            <span>
              {i18n._(fieldErrorMessage(check.ok ? serverError : check.code))}
              {!check.ok && check.code !== "empty" && check.code !== "division_by_zero" ? ` ${t`(at character ${position})`}` : ""}
            </span>
          </span>
        )}
      </p>
      <div id={`${id}-help`} className="grid gap-1 text-xs text-muted-foreground">
        <p>{t`Use numbers, number fields as ${VARIABLE_SAMPLE}, the operators + - * / and parentheses.`}</p>
        {keys.length ? (
          <div className="flex flex-wrap items-center gap-1">
            <span>{t`Insert:`}</span>
            {keys.map((key) => (
              <Button
                key={key}
                type="button"
                variant="outline"
                size="sm"
                className="h-6 px-2 font-mono text-xs"
                disabled={disabled}
                onClick={() => onChange(`${value}${value && !value.endsWith(" ") ? " " : ""}{{${key}}}`)}
              >
                {`{{${key}}}`}
              </Button>
            ))}
          </div>
        ) : (
          <p>{t`No number fields to refer to yet.`}</p>
        )}
      </div>
    </div>
  );
}

function CustomFieldForm({ target, fields, onDone }: { target: CustomFieldSheetTarget; fields: readonly CustomFieldAnswer[]; onDone: () => void }) {
  const { t, i18n } = useLingui();
  const save = useSaveCustomField();
  const company = useActiveCompany();
  const timeZone = company.data?.timezone ?? "UTC";
  const field = target.kind === "edit" ? target.field : null;
  const readOnly = field?.readOnly === true;
  const infos = useMemo(() => formulaFields(fields, field?.id ?? null), [fields, field?.id]);
  const schema = useMemo(() => formSchema(infos, timeZone), [infos, timeZone]);
  const form = useForm<FormValues>({
    resolver: zodResolver(schema),
    defaultValues: {
      name: field ? fieldDisplayName(field, i18n) : "",
      key: field?.key ?? "",
      type: field?.type ?? "text",
      kind: field?.kind === "bot" ? "bot" : "user",
      computed: Boolean(field?.formula),
      formula: field?.formula ?? "",
      value: field ? toInputValue(field.type, field.value, timeZone) : "",
    },
  });
  const { errors } = form.formState;
  const [name, type, kind, computed] = useWatch({ control: form.control, name: ["name", "type", "kind", "computed"] });

  const onSubmit = form.handleSubmit(async (values) => {
    if (readOnly) return;
    const formula = values.computed ? values.formula.trim() : null;
    const value = values.kind === "bot" && !formula ? values.value.trim() || null : undefined;
    const key = values.key.trim() || undefined;
    try {
      if (field) await save.mutateAsync({ id: field.id, input: { name: values.name, key, formula, value } });
      else await save.mutateAsync({ id: null, input: { name: values.name, key, type: values.type, kind: values.kind, formula, value } });
      onDone();
    } catch (error) {
      applyServerErrors(form.setError, error, ["name", "key", "type", "kind", "formula", "value"]);
    }
  });

  if (readOnly && field) {
    const variable = `{{${field.key}}}`;
    return (
      <div className="grid content-start gap-4 overflow-y-auto p-5">
        <Alert>
          <Lock />
          <p>{t`Built-in fields exist for every company and are filled in from the contact and its conversation. They cannot be changed or deleted, but you can use them in messages as ${variable}.`}</p>
        </Alert>
        <dl className="grid gap-3 text-sm">
          <div>
            <dt className="text-xs text-muted-foreground">{t`Name`}</dt>
            <dd>{fieldDisplayName(field, i18n)}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">{t`Variable`}</dt>
            <dd className="font-mono">{`{{${field.key}}}`}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">{t`Type`}</dt>
            <dd>{i18n._(FIELD_TYPE_LABELS[field.type])}</dd>
          </div>
        </dl>
      </div>
    );
  }

  return (
    <FormSheetForm onSubmit={onSubmit} serverError={errors.root?.server?.message} pending={save.isPending} submitLabel={field ? t`Save changes` : t`Create field`}>
      <FormField label={t`Name`} error={errors.name?.message}>
        <Input autoFocus {...form.register("name")} />
      </FormField>
      <FormField
        label={t`Variable key`}
        error={errors.key?.message}
        hint={t`Used in messages as ${VARIABLE_SAMPLE}. Leave empty to make one from the name.`}
      >
        <Input className="font-mono" maxLength={40} placeholder={name.trim() ? keyFromName(name) : "data_de_nascimento"} {...form.register("key")} />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label={t`Type`} error={errors.type?.message} hint={field ? t`The type cannot change.` : undefined}>
          <NativeSelect disabled={field !== null} {...form.register("type")}>
            {CUSTOM_FIELD_TYPES.map((value) => (
              <option key={value} value={value}>
                {i18n._(FIELD_TYPE_LABELS[value])}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <FormField label={t`Kind`} error={errors.kind?.message} hint={field ? t`The kind cannot change.` : undefined}>
          <NativeSelect disabled={field !== null} {...form.register("kind")}>
            <option value="user">{i18n._(FIELD_KIND_LABELS.user)}</option>
            <option value="bot">{i18n._(FIELD_KIND_LABELS.bot)}</option>
          </NativeSelect>
        </FormField>
      </div>
      <p className="text-xs text-muted-foreground">
        {kind === "bot"
          ? t`A company-wide field has one value shared by every conversation, for your bots to read and write.`
          : t`A per-contact field keeps one value for each contact.`}
      </p>
      {type === "number" ? (
        <Controller
          control={form.control}
          name="computed"
          render={({ field: control }) => (
            <div className="flex items-center justify-between gap-3 rounded-md border p-3">
              <div className="grid gap-0.5">
                <Label htmlFor="custom-field-computed">{t`Computed by a formula`}</Label>
                <p className="text-xs text-muted-foreground">{t`The value is calculated from other number fields and cannot be typed in.`}</p>
              </div>
              <Switch id="custom-field-computed" checked={control.value} onCheckedChange={control.onChange} />
            </div>
          )}
        />
      ) : null}
      {type === "number" && computed ? (
        <Controller
          control={form.control}
          name="formula"
          render={({ field: control }) => (
            <FormulaEditor value={control.value} onChange={control.onChange} infos={infos} serverError={errors.formula?.type === "server" ? errors.formula.message : undefined} disabled={save.isPending} />
          )}
        />
      ) : null}
      {kind === "bot" && !(type === "number" && computed) ? (
        <FormField label={t`Value`} error={errors.value?.message} hint={t`Shared by the whole company. Leave empty for no value.`}>
          <Input type={inputTypeOf(type)} step={type === "number" ? "any" : undefined} {...form.register("value")} />
        </FormField>
      ) : null}
    </FormSheetForm>
  );
}

/**
 * The custom field slide-over (spec §3 Custom field; issue 4): name, variable key, type and kind
 * (fixed once created), an optional formula checked live with the worker's own parser, and a bot
 * field's company-wide value. Built-ins open read-only with an explanation. A name in use answers
 * 409 `name_in_use`, shown under the name.
 */
export function CustomFieldSheet({ target, fields, onClose }: { target: CustomFieldSheetTarget | null; fields: readonly CustomFieldAnswer[]; onClose: () => void }) {
  const { t } = useLingui();
  const field = target?.kind === "edit" ? target.field : null;
  const title = !target ? "" : !field ? t`New custom field` : field.readOnly ? t`Built-in field` : t`Edit custom field`;
  return (
    <FormSheet open={target !== null} onClose={onClose} title={title} description={t`Custom fields keep extra information about contacts for messages, filters and flows.`}>
      {target ? <CustomFieldForm key={field?.id ?? "new"} target={target} fields={fields} onDone={onClose} /> : null}
    </FormSheet>
  );
}
