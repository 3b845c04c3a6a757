/**
 * The contact form (spec §3 Contact, §5): its values as typed, their checks (the worker's own
 * schemas: a valid name, a valid phone, an optional valid e-mail and CPF/CNPJ/DNI/NIE/CUIT, and each
 * custom field's value by its type) and the body it sends. Only what changed is sent on edit; tags
 * and field values only by a user allowed to change them (`contacts_tags`,
 * `contacts_custom_fields`), since the worker answers 403 otherwise.
 */
import { z } from "zod";
import { fieldInputError, toInputValue } from "@/lib/field-values";
import type { ContactAnswer, CustomFieldAnswer } from "../../../../../schema/api-types";
import { emailSchema } from "../../../../../schema/validation/common";
import { phoneSchema } from "../../../../../schema/validation/phone";
import { contactNameSchema, documentSchema } from "../../../../../schema/validation/contacts";
import type { ContactWrite } from "../api/contacts-api";

/** The form's values, all as typed. `fields`: field id → the input's text. */
export type ContactFormValues = { name: string; phone: string; email: string; document: string; tags: string[]; fields: Record<string, string> };

/** The custom fields the form edits: per-contact and not computed. */
export function editableFields(fields: readonly CustomFieldAnswer[]): CustomFieldAnswer[] {
  return fields.filter((field) => field.kind === "user" && field.formula === null);
}

/** The form's starting values for `contact` (null: a new contact). */
export function contactFormDefaults(contact: ContactAnswer | null, fields: readonly CustomFieldAnswer[], timeZone: string): ContactFormValues {
  const values: Record<string, string> = {};
  for (const field of editableFields(fields)) values[field.id] = toInputValue(field.type, contact?.fields[field.id], timeZone);
  return {
    name: contact?.name ?? "",
    phone: contact?.phone ?? "",
    email: contact?.email ?? "",
    document: contact?.document ?? "",
    tags: contact?.tags.map((tag) => tag.id) ?? [],
    fields: values,
  };
}

/** The form's schema: every check of the worker, each failure carrying the worker's reason code. */
export function contactFormSchema(fields: readonly CustomFieldAnswer[], timeZone: string) {
  const editable = editableFields(fields);
  return z
    .object({ name: z.string(), phone: z.string(), email: z.string(), document: z.string(), tags: z.array(z.string()), fields: z.record(z.string(), z.string()) })
    .superRefine((values, ctx) => {
      const check = (path: (string | number)[], schema: z.ZodType, value: string) => {
        const result = schema.safeParse(value);
        if (!result.success) ctx.addIssue({ code: "custom", path, message: result.error.issues[0]?.message ?? "invalid_value" });
      };
      check(["name"], contactNameSchema, values.name);
      check(["phone"], phoneSchema, values.phone);
      if (values.email.trim()) check(["email"], emailSchema, values.email);
      if (values.document.trim()) check(["document"], documentSchema, values.document);
      for (const field of editable) {
        const reason = fieldInputError(field.type, values.fields[field.id] ?? "", timeZone);
        if (reason) ctx.addIssue({ code: "custom", path: ["fields", field.id], message: reason });
      }
    });
}

/** What the user may change besides name, phone, e-mail and document. */
export type ContactWriteRights = { tags: boolean; fields: boolean };

/**
 * The body of POST (new) or PUT (edit) /api/contacts. Field values go only when changed from
 * `initial` ("" → null clears); tags only when changed (always on create when any).
 */
export function buildContactWrite(values: ContactFormValues, initial: ContactFormValues, rights: ContactWriteRights, isNew: boolean): ContactWrite {
  const body: ContactWrite = {
    name: values.name.trim(),
    phone: values.phone.trim(),
    email: values.email.trim() || null,
    document: values.document.trim() || null,
  };
  if (rights.tags) {
    const changed = values.tags.length !== initial.tags.length || values.tags.some((id) => !initial.tags.includes(id));
    if (changed || (isNew && values.tags.length)) body.tags = [...values.tags];
  }
  if (rights.fields) {
    const changed: Record<string, string | null> = {};
    for (const [id, raw] of Object.entries(values.fields)) {
      const before = initial.fields[id] ?? "";
      if (raw.trim() === before.trim()) continue;
      if (isNew && !raw.trim()) continue;
      changed[id] = raw.trim() || null;
    }
    if (Object.keys(changed).length) body.fields = changed;
  }
  return body;
}
