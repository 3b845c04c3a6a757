/**
 * Custom fields and their values on contacts (spec §3 Custom field, §5 formula).
 * - kind `default`: the built-ins every company has (full name, first name, last name, document,
 *   email, phone, last message, last media, last campaign), read-only and computed from the
 *   contact and its conversation; they are not rows of this table.
 * - kind `user`: one value per contact (contact_field_values).
 * - kind `bot`: one company-wide value (a variable of the bots), kept in `value`.
 * A field with a `formula` is computed: numbers, numeric fields and + - * / with parentheses.
 */
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "./columns";

import { CUSTOM_FIELD_TYPES } from "./enums";

/** Value types and kinds of a field (defined in schema/enums.ts, which the web imports without drizzle). */
export { CUSTOM_FIELD_KINDS, CUSTOM_FIELD_TYPES, type CustomFieldKind, type CustomFieldType } from "./enums";

export const customFields = sqliteTable(
  "custom_fields",
  {
    id: id(),
    companyId: text("company_id").notNull(),
    name: text("name").notNull(),
    /** Variable key used in messages as {{key}} (lower-case, underscores), unique per company. */
    key: text("key").notNull(),
    type: text("type", { enum: CUSTOM_FIELD_TYPES }).notNull(),
    kind: text("kind", { enum: ["user", "bot"] }).notNull(),
    /** Formula source (spec §5), or null. */
    formula: text("formula"),
    /** A bot field's company-wide value, normalised like contact values. */
    value: text("value"),
    ...timestamps,
  },
  (t) => [
    // Names and keys are unique in a company (409 name_in_use).
    uniqueIndex("custom_fields_company_name_uq").on(t.companyId, t.name),
    uniqueIndex("custom_fields_company_key_uq").on(t.companyId, t.key),
  ],
);

/**
 * A contact's value of a `user` field. `value` is the normalised text (numbers as decimal text, dates
 * as YYYY-MM-DD, datetimes as ms UTC text); `valueNumber` mirrors numbers, dates (days) and datetimes
 * (ms) so filters compare them as numbers.
 */
export const contactFieldValues = sqliteTable(
  "contact_field_values",
  {
    companyId: text("company_id").notNull(),
    contactId: text("contact_id").notNull(),
    fieldId: text("field_id").notNull(),
    value: text("value").notNull(),
    valueNumber: real("value_number"),
    /** ms UTC of the last write. */
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.contactId, t.fieldId] }),
    // Filters `field.<id>=` on the contact list.
    index("contact_field_values_filter_idx").on(t.companyId, t.fieldId, t.value),
  ],
);

export type CustomFieldRow = typeof customFields.$inferSelect;
export type ContactFieldValueRow = typeof contactFieldValues.$inferSelect;
