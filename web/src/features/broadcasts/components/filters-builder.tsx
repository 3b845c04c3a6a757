/**
 * The audience filters of the broadcast form (issue 10): rows of item → condition → value (a tag, a
 * custom field and its value, a CRM column, the created date, a channel); every row must match
 * (AND). The conditions and the value's input follow the item and the field's type (lib/filters.ts).
 */
import type { I18n } from "@lingui/core";
import { useLingui } from "@lingui/react/macro";
import { Plus, X } from "lucide-react";
import { useFieldArray, type UseFormReturn } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { DatePicker, DateTimeField } from "@/components/ui/date-picker";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { fieldErrorMessage } from "@/lib/error-messages";
import { fieldDisplayName } from "@/features/registers/lib/labels";
import type { CrmColumnAnswer, CustomFieldAnswer, TagAnswer } from "../../../../../schema/api-types";
import { FILTER_CHANNELS, FILTER_ITEMS, MAX_BROADCAST_FILTERS, type FilterItem } from "../../../../../schema/validation/broadcasts";
import { conditionsFor, newFilter, valueInputFor, withField, withItem, type FilterDraft } from "../lib/filters";
import { CHANNEL_LABELS, CONDITION_LABELS, ITEM_LABELS } from "../lib/labels";
import type { BroadcastFormValues } from "../lib/form";

/** What the rows pick from. */
export type FilterOptions = { tags: readonly TagAnswer[]; fields: readonly CustomFieldAnswer[]; columns: readonly CrmColumnAnswer[] };

function isFilterItem(value: string): value is FilterItem {
  return (FILTER_ITEMS as readonly string[]).includes(value);
}

function ValueInput({ row, field, options, position, error, disabled, onChange, i18n }: {
  row: FilterDraft;
  field: CustomFieldAnswer | undefined;
  options: FilterOptions;
  position: number;
  error: string | undefined;
  disabled: boolean;
  onChange: (next: FilterDraft) => void;
  i18n: I18n;
}) {
  const { t } = useLingui();
  const kind = valueInputFor(row.item, field?.type);
  const common = { "aria-invalid": error ? true : undefined, disabled, className: "min-w-0 flex-1 basis-40" } as const;
  switch (kind) {
    case "tag":
      return (
        <NativeSelect {...common} aria-label={t`Tag of filter ${position}`} value={row.tag ?? ""} onChange={(event) => onChange({ ...row, tag: event.target.value || undefined })}>
          <option value="">{options.tags.length ? t`Choose a tag` : t`No tags exist yet`}</option>
          {options.tags.map((tag) => (
            <option key={tag.id} value={tag.id}>
              {tag.name}
            </option>
          ))}
        </NativeSelect>
      );
    case "crm_column":
      return (
        <NativeSelect {...common} aria-label={t`CRM column of filter ${position}`} value={row.value ?? ""} onChange={(event) => onChange({ ...row, value: event.target.value || undefined })}>
          <option value="">{t`Choose a column`}</option>
          {options.columns.map((column) => (
            <option key={column.id} value={column.id}>
              {column.name}
            </option>
          ))}
        </NativeSelect>
      );
    case "channel":
      return (
        <NativeSelect {...common} aria-label={t`Channel of filter ${position}`} value={row.value ?? ""} onChange={(event) => onChange({ ...row, value: event.target.value || undefined })}>
          <option value="">{t`Choose a channel`}</option>
          {FILTER_CHANNELS.map((channel) => (
            <option key={channel} value={channel}>
              {i18n._(CHANNEL_LABELS[channel])}
            </option>
          ))}
        </NativeSelect>
      );
    case "date":
    case "datetime": {
      // Days and times in the app's language, not the browser's (issue 9): the same values as the
      // native inputs gave (`YYYY-MM-DD`, `YYYY-MM-DDTHH:MM`).
      const label = t`Value of filter ${position}`;
      const off = disabled || (row.item === "custom_field" && !row.fieldId);
      return (
        <div className={common.className}>
          {kind === "date" ? (
            <DatePicker value={row.value ?? ""} onChange={(value) => onChange({ ...row, value })} aria-label={label} aria-invalid={common["aria-invalid"]} disabled={off} />
          ) : (
            <DateTimeField value={row.value ?? ""} onChange={(value) => onChange({ ...row, value })} aria-label={label} aria-invalid={common["aria-invalid"]} disabled={off} />
          )}
        </div>
      );
    }
    default:
      return (
        <div className={common.className}>
          <Input
            aria-label={t`Value of filter ${position}`}
            aria-invalid={common["aria-invalid"]}
            disabled={disabled || (row.item === "custom_field" && !row.fieldId)}
            type={kind === "number" ? "number" : "text"}
            step={kind === "number" ? "any" : undefined}
            maxLength={200}
            value={row.value ?? ""}
            onChange={(event) => onChange({ ...row, value: event.target.value })}
          />
        </div>
      );
  }
}

/** The filters fieldset of the broadcast form. */
export function FiltersBuilder({ form, options, disabled }: { form: UseFormReturn<BroadcastFormValues>; options: FilterOptions; disabled: boolean }) {
  const { t, i18n } = useLingui();
  const rows = useFieldArray({ control: form.control, name: "filters" });
  const values = form.watch("filters");
  const errors = form.formState.errors.filters;
  const fieldsById = new Map(options.fields.map((field) => [field.id, field]));
  return (
    <fieldset className="grid gap-3" disabled={disabled}>
      <div className="flex items-center justify-between gap-2">
        <legend className="text-sm font-medium">{t`Who receives it`}</legend>
        <Button type="button" variant="outline" size="sm" disabled={disabled || rows.fields.length >= MAX_BROADCAST_FILTERS} onClick={() => rows.append(newFilter("tag"))}>
          <Plus />
          {t`Add filter`}
        </Button>
      </div>
      <p className="text-xs text-muted-foreground">{rows.fields.length ? t`Contacts matching every filter receive it.` : t`Without filters, every contact of the company receives it.`}</p>
      {rows.fields.map((entry, index) => {
        const row = values[index] ?? newFilter();
        const position = index + 1;
        const field = row.fieldId ? fieldsById.get(row.fieldId) : undefined;
        const rowErrors = errors?.[index];
        const error = rowErrors?.value?.message ?? rowErrors?.tag?.message ?? rowErrors?.fieldId?.message ?? rowErrors?.condition?.message ?? rowErrors?.item?.message;
        const update = (next: FilterDraft) => {
          rows.update(index, next);
          form.clearErrors(`filters.${index}`);
        };
        return (
          <div key={entry.id} className="grid gap-2 rounded-md border p-3" data-testid="broadcast-filter">
            <div className="flex items-start gap-2">
              <div className="flex min-w-0 flex-1 flex-wrap items-center gap-2">
                <NativeSelect
                  aria-label={t`What filter ${position} looks at`}
                  className="min-w-0 flex-1 basis-36"
                  value={row.item}
                  onChange={(event) => {
                    if (isFilterItem(event.target.value)) update(withItem(row, event.target.value));
                  }}
                >
                  {FILTER_ITEMS.map((item) => (
                    <option key={item} value={item}>
                      {i18n._(ITEM_LABELS[item])}
                    </option>
                  ))}
                </NativeSelect>
                {row.item === "custom_field" ? (
                  <NativeSelect
                    aria-label={t`Field of filter ${position}`}
                    className="min-w-0 flex-1 basis-36"
                    value={row.fieldId ?? ""}
                    onChange={(event) => update(withField(row, fieldsById.get(event.target.value) ?? null, field))}
                  >
                    <option value="">{t`Choose a field`}</option>
                    {options.fields.map((option) => (
                      <option key={option.id} value={option.id}>
                        {fieldDisplayName(option, i18n)}
                      </option>
                    ))}
                  </NativeSelect>
                ) : null}
              </div>
              <Button type="button" variant="ghost" size="icon" className="size-9 shrink-0" aria-label={t`Remove filter ${position}`} onClick={() => rows.remove(index)}>
                <X />
              </Button>
            </div>
            <div className="flex flex-wrap items-center gap-2">
              <NativeSelect
                aria-label={t`Condition of filter ${position}`}
                className="min-w-0 flex-1 basis-36"
                value={row.condition}
                onChange={(event) => {
                  const condition = conditionsFor(row.item, field?.type).find((option) => option === event.target.value);
                  if (condition) update({ ...row, condition });
                }}
              >
                {conditionsFor(row.item, field?.type).map((condition) => (
                  <option key={condition} value={condition}>
                    {i18n._(CONDITION_LABELS[condition])}
                  </option>
                ))}
              </NativeSelect>
              <ValueInput row={row} field={field} options={options} position={position} error={error} disabled={disabled} onChange={update} i18n={i18n} />
            </div>
            {error ? <p className="text-xs font-medium text-destructive">{i18n._(fieldErrorMessage(error))}</p> : null}
          </div>
        );
      })}
    </fieldset>
  );
}
