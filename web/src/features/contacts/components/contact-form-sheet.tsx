import { useMemo } from "react";
import { Controller, useForm, type Path } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useLingui } from "@lingui/react/macro";
import { Lock } from "lucide-react";
import { FormSheet, FormSheetForm } from "@/components/form-sheet";
import { Alert } from "@/components/ui/alert";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { MultiSelect } from "@/components/ui/multi-select";
import { applyServerErrors } from "@/lib/form-errors";
import { inputTypeOf } from "@/lib/field-values";
import { usePermissions } from "@/features/session/hooks/use-session";
import { fieldDisplayName } from "@/features/registers/lib/labels";
import type { ContactAnswer, CustomFieldAnswer, TagAnswer } from "../../../../../schema/api-types";
import { useSaveContact } from "../hooks/use-contacts";
import { buildContactWrite, contactFormDefaults, contactFormSchema, editableFields, type ContactFormValues } from "../lib/contact-form";
import { formatTimeZone } from "@/lib/dates";

/** What the sheet edits: a new contact or an existing one. */
export type ContactSheetTarget = { kind: "new" } | { kind: "edit"; contact: ContactAnswer };

function ContactForm({
  contact,
  fields,
  tags,
  timeZone,
  onDone,
}: {
  contact: ContactAnswer | null;
  fields: readonly CustomFieldAnswer[];
  tags: readonly TagAnswer[];
  timeZone: string;
  onDone: () => void;
}) {
  const { t, i18n } = useLingui();
  const save = useSaveContact();
  const permissions = usePermissions();
  const rights = { tags: permissions.data?.has("contacts_tags") === true, fields: permissions.data?.has("contacts_custom_fields") === true };
  const editable = useMemo(() => editableFields(fields), [fields]);
  const computed = fields.filter((field) => field.kind === "user" && field.formula !== null);
  const initial = useMemo(() => contactFormDefaults(contact, fields, timeZone), [contact, fields, timeZone]);
  const schema = useMemo(() => contactFormSchema(fields, timeZone), [fields, timeZone]);
  const zoneLabel = formatTimeZone(timeZone, { locale: i18n.locale });
  const form = useForm<ContactFormValues>({ resolver: zodResolver(schema), defaultValues: initial });
  const { errors } = form.formState;
  const tagOptions = tags.map((tag) => ({ value: tag.id, label: tag.name, color: tag.color }));

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync({ id: contact?.id ?? null, input: buildContactWrite(values, initial, rights, contact === null) });
      onDone();
    } catch (error) {
      const paths: Path<ContactFormValues>[] = ["name", "phone", "email", "document", "tags", ...editable.map((field): Path<ContactFormValues> => `fields.${field.id}`)];
      applyServerErrors(form.setError, error, paths);
    }
  });

  return (
    <FormSheetForm onSubmit={onSubmit} serverError={errors.root?.server?.message} pending={save.isPending} submitLabel={contact ? t`Save changes` : t`Create contact`}>
      <FormField label={t`Name`} error={errors.name?.message}>
        <Input autoFocus autoComplete="off" maxLength={120} {...form.register("name")} />
      </FormField>
      <FormField label={t`Phone`} error={errors.phone?.message} hint={t`With area code; add + and the country code outside Brazil.`}>
        <Input type="tel" autoComplete="off" inputMode="tel" maxLength={32} {...form.register("phone")} />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label={t`Email`} error={errors.email?.message}>
          <Input type="email" autoComplete="off" {...form.register("email")} />
        </FormField>
        <FormField label={t`Document`} error={errors.document?.message} hint={t`CPF, CNPJ, DNI, NIE or CUIT.`}>
          <Input autoComplete="off" maxLength={32} {...form.register("document")} />
        </FormField>
      </div>
      {rights.tags ? (
        <Controller
          control={form.control}
          name="tags"
          render={({ field }) => (
            <FormField label={t`Tags`} error={errors.tags?.message}>
              <MultiSelect
                options={tagOptions}
                value={field.value}
                onValueChange={field.onChange}
                placeholder={tags.length ? t`No tags` : t`No tags exist yet`}
                searchLabel={t`Search tags`}
                emptyText={t`No tag found.`}
              />
            </FormField>
          )}
        />
      ) : null}
      {editable.length || computed.length ? (
        <fieldset className="grid gap-4 border-t pt-4">
          <legend className="pt-4 text-sm font-semibold">{t`Custom fields`}</legend>
          {!rights.fields && editable.length ? (
            <Alert>
              <Lock />
              <p>{t`You may see custom field values but not change them.`}</p>
            </Alert>
          ) : null}
          {editable.map((field) => {
            const type = inputTypeOf(field.type);
            // The zone by name and offset, never its id (issue 9); named like the message's placeholder.
            const timeZone = zoneLabel;
            return (
              <FormField
                key={field.id}
                label={fieldDisplayName(field, i18n)}
                error={errors.fields?.[field.id]?.message}
                hint={field.type === "datetime" ? t`In the company's time zone (${timeZone}).` : undefined}
              >
                <Input type={type} step={type === "number" ? "any" : undefined} readOnly={!rights.fields} autoComplete="off" {...form.register(`fields.${field.id}`)} />
              </FormField>
            );
          })}
          {computed.map((field) => (
            <div key={field.id} className="grid gap-1 text-sm">
              <span className="font-medium">{fieldDisplayName(field, i18n)}</span>
              <span className="text-xs text-muted-foreground">{t`Computed by a formula; shown on the contact's page.`}</span>
            </div>
          ))}
        </fieldset>
      ) : null}
    </FormSheetForm>
  );
}

/**
 * The contact slide-over (spec §2 "a slide-over form to create and edit"): name, phone, e-mail,
 * document, tags and the custom field values typed per field (number, date, date and time in the
 * company's time zone…); computed fields are left to the contact's page. A phone in use answers 409
 * `phone_in_use`, shown under the phone.
 */
export function ContactFormSheet({
  target,
  fields,
  tags,
  timeZone,
  onClose,
}: {
  target: ContactSheetTarget | null;
  fields: readonly CustomFieldAnswer[];
  tags: readonly TagAnswer[];
  timeZone: string;
  onClose: () => void;
}) {
  const { t } = useLingui();
  const contact = target?.kind === "edit" ? target.contact : null;
  return (
    <FormSheet open={target !== null} onClose={onClose} title={contact ? t`Edit contact` : t`New contact`} description={t`The phone number identifies the contact: one contact per number.`}>
      {target ? <ContactForm key={contact?.id ?? "new"} contact={contact} fields={fields} tags={tags} timeZone={timeZone} onDone={onClose} /> : null}
    </FormSheet>
  );
}
