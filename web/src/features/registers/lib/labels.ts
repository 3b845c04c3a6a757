/**
 * Names shown for custom field types, kinds and the built-in fields (spec §3 Custom field), in the
 * user's language. The worker names built-ins in English; the screen translates them by key.
 */
import type { I18n, MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { CustomFieldKind, CustomFieldType } from "../../../../../schema/custom-fields";
import type { CustomFieldAnswer } from "../../../../../schema/api-types";

/** Field type → its name. */
export const FIELD_TYPE_LABELS: Record<CustomFieldType, MessageDescriptor> = {
  text: msg`Text`,
  number: msg`Number`,
  date: msg`Date`,
  datetime: msg`Date and time`,
  name: msg`Name`,
  email: msg`Email`,
  document: msg`Document`,
};

/** Field kind → its name. */
export const FIELD_KIND_LABELS: Record<CustomFieldKind, MessageDescriptor> = {
  default: msg`Built-in`,
  user: msg`Per contact`,
  bot: msg`Company-wide (bot)`,
};

const BUILT_IN_NAMES: Record<string, MessageDescriptor> = {
  full_name: msg`Full name`,
  first_name: msg`First name`,
  last_name: msg`Last name`,
  document: msg`Document`,
  email: msg`Email`,
  phone: msg`Phone`,
  last_message: msg`Last message`,
  last_media: msg`Last media`,
  last_campaign: msg`Last campaign`,
};

/** A field's name as shown: built-ins translated by key, the company's fields as named. */
export function fieldDisplayName(field: Pick<CustomFieldAnswer, "kind" | "key" | "name">, i18n: I18n): string {
  const builtIn = field.kind === "default" ? BUILT_IN_NAMES[field.key] : undefined;
  return builtIn ? i18n._(builtIn) : field.name;
}
