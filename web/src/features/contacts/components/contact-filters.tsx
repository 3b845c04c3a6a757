import { useState } from "react";
import { useLingui } from "@lingui/react/macro";
import { countText } from "@/lib/counts";
import { Columns3, ListFilter, Plus, Search, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { DropdownMenu, DropdownMenuCheckboxItem, DropdownMenuContent, DropdownMenuLabel, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { Input } from "@/components/ui/input";
import { MultiSelect } from "@/components/ui/multi-select";
import { NativeSelect } from "@/components/ui/native-select";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { fieldErrorMessage } from "@/lib/error-messages";
import { fieldInputError, inputTypeOf } from "@/lib/field-values";
import { fieldDisplayName } from "@/features/registers/lib/labels";
import type { CustomFieldAnswer, TagAnswer } from "../../../../../schema/api-types";
import { MAX_FIELD_FILTERS, MAX_SEARCH_CHARS } from "../../../../../schema/validation/contacts";
import { filterableFields, isSearchValid, type ContactFilterState, type FieldFilter } from "../lib/contact-filter";
import type { ColumnId } from "../lib/columns";

/** A column's name in the chooser and the table header. */
export type ColumnLabel = (column: ColumnId) => string;

function FieldFilterRow({
  entry,
  fields,
  timeZone,
  onChange,
  onRemove,
}: {
  entry: FieldFilter;
  fields: readonly CustomFieldAnswer[];
  timeZone: string;
  onChange: (entry: FieldFilter) => void;
  onRemove: () => void;
}) {
  const { t, i18n } = useLingui();
  const field = fields.find((f) => f.id === entry.fieldId);
  const error = field ? fieldInputError(field.type, entry.value, timeZone) : null;
  const name = field ? fieldDisplayName(field, i18n) : "";
  return (
    <div className="grid gap-1">
      <div className="flex items-center gap-2">
        <NativeSelect aria-label={t`Field`} className="w-40 shrink-0" value={entry.fieldId} onChange={(event) => onChange({ fieldId: event.target.value, value: "" })}>
          {fields.map((f) => (
            <option key={f.id} value={f.id}>
              {fieldDisplayName(f, i18n)}
            </option>
          ))}
        </NativeSelect>
        <Input
          aria-label={t`Value of ${name}`}
          type={field ? inputTypeOf(field.type) : "text"}
          step={field?.type === "number" ? "any" : undefined}
          value={entry.value}
          maxLength={200}
          aria-invalid={error ? true : undefined}
          onChange={(event) => onChange({ ...entry, value: event.target.value })}
        />
        <Button variant="ghost" size="icon" className="size-8 shrink-0" onClick={onRemove} aria-label={t`Remove the filter on ${name}`}>
          <X />
        </Button>
      </div>
      {error ? <p className="text-xs text-destructive">{i18n._(fieldErrorMessage(error))}</p> : null}
    </div>
  );
}

/**
 * The list's toolbar: search (name, phone or e-mail; the page debounces it), "Filter by tag"
 * (any of the chosen tags), custom field filters (exact values, typed per field) and the column
 * chooser.
 */
export function ContactFilters({
  filter,
  onChange,
  tags,
  fields,
  timeZone,
  columns,
  chosenColumns,
  columnLabel,
  onToggleColumn,
}: {
  filter: ContactFilterState;
  onChange: (filter: ContactFilterState) => void;
  tags: readonly TagAnswer[];
  fields: readonly CustomFieldAnswer[];
  timeZone: string;
  columns: readonly ColumnId[];
  chosenColumns: readonly ColumnId[];
  columnLabel: ColumnLabel;
  onToggleColumn: (column: ColumnId, shown: boolean) => void;
}) {
  const { t, i18n } = useLingui();
  const [fieldsOpen, setFieldsOpen] = useState(false);
  const filterable = filterableFields(fields);
  const searchTooLong = !isSearchValid(filter.search);
  const activeFieldFilters = filter.fields.filter((entry) => entry.value.trim()).length;
  const tagOptions = tags.map((tag) => ({ value: tag.id, label: tag.name, color: tag.color }));

  const addFieldFilter = () => {
    const unused = filterable.find((field) => !filter.fields.some((entry) => entry.fieldId === field.id)) ?? filterable[0];
    if (unused) onChange({ ...filter, fields: [...filter.fields, { fieldId: unused.id, value: "" }] });
  };

  return (
    <div className="flex flex-wrap items-start gap-2">
      <div className="grid min-w-56 flex-1 gap-1 sm:max-w-sm">
        <div className="relative">
          <Search className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
          <Input
            type="search"
            aria-label={t`Search contacts`}
            placeholder={t`Search by name, phone or email`}
            className="pl-8"
            maxLength={MAX_SEARCH_CHARS}
            value={filter.search}
            aria-invalid={searchTooLong ? true : undefined}
            onChange={(event) => onChange({ ...filter, search: event.target.value })}
          />
        </div>
        {searchTooLong ? <p className="text-xs text-destructive">{t`The search is too long.`}</p> : null}
      </div>
      <MultiSelect
        aria-label={t`Filter by tag`}
        className="w-auto min-w-40 max-w-64"
        options={tagOptions}
        value={filter.tags}
        onValueChange={(value) => onChange({ ...filter, tags: value })}
        placeholder={t`Filter by tag`}
        searchLabel={t`Search tags`}
        emptyText={t`No tag found.`}
        renderValue={(chosen) => (chosen.length === 1 ? chosen[0]?.label : countText(i18n, "tags", chosen.length))}
      />
      {filterable.length ? (
        <Popover open={fieldsOpen} onOpenChange={setFieldsOpen}>
          <PopoverTrigger asChild>
            <Button variant="outline">
              <ListFilter />
              {activeFieldFilters ? t`Field filters (${activeFieldFilters})` : t`Filter by field`}
            </Button>
          </PopoverTrigger>
          <PopoverContent align="start" className="grid w-[min(28rem,calc(100vw-2rem))] gap-3">
            <p className="text-sm font-medium">{t`Contacts whose field has exactly this value`}</p>
            {filter.fields.length === 0 ? <p className="text-xs text-muted-foreground">{t`No field filters.`}</p> : null}
            {filter.fields.map((entry, index) => (
              <FieldFilterRow
                key={index}
                entry={entry}
                fields={filterable}
                timeZone={timeZone}
                onChange={(next) => onChange({ ...filter, fields: filter.fields.map((e, i) => (i === index ? next : e)) })}
                onRemove={() => onChange({ ...filter, fields: filter.fields.filter((_, i) => i !== index) })}
              />
            ))}
            <div className="flex justify-between gap-2">
              <Button variant="outline" size="sm" onClick={addFieldFilter} disabled={filter.fields.length >= MAX_FIELD_FILTERS}>
                <Plus />
                {t`Add field filter`}
              </Button>
              {filter.fields.length ? (
                <Button variant="ghost" size="sm" onClick={() => onChange({ ...filter, fields: [] })}>
                  {t`Clear`}
                </Button>
              ) : null}
            </div>
          </PopoverContent>
        </Popover>
      ) : null}
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="outline" aria-label={t`Choose columns`}>
            <Columns3 />
            <span className="hidden sm:inline">{t`Columns`}</span>
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuLabel>{t`Columns shown`}</DropdownMenuLabel>
          {columns.map((column) => (
            <DropdownMenuCheckboxItem
              key={column}
              checked={chosenColumns.includes(column)}
              onCheckedChange={(checked) => onToggleColumn(column, checked === true)}
              onSelect={(event) => event.preventDefault()}
            >
              {columnLabel(column)}
            </DropdownMenuCheckboxItem>
          ))}
        </DropdownMenuContent>
      </DropdownMenu>
    </div>
  );
}
