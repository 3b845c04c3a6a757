/**
 * The role form's permission checklist (spec §6): the 22 company permissions of
 * schema/permissions.ts in groups a reader recognises, each with a translated label, and the
 * "mark all" logic shared by the whole list and each group.
 */
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { COMPANY_PERMISSIONS, type CompanyPermission } from "../../../../../schema/permissions";

/** A group of the checklist: a heading and its permissions, in display order. */
export type PermissionGroup = { id: string; label: MessageDescriptor; permissions: readonly CompanyPermission[] };

/** The checklist's groups; every permission appears in exactly one (a test holds this). */
export const PERMISSION_GROUPS: readonly PermissionGroup[] = [
  { id: "overview", label: msg`Overview`, permissions: ["dashboard"] },
  { id: "service", label: msg`Customer service`, permissions: ["tickets", "tickets_groups", "see_all_tickets", "internal_chats", "quick_messages"] },
  { id: "contacts", label: msg`Contacts and CRM`, permissions: ["contacts", "contacts_custom_fields", "contacts_tags", "contacts_shipping_cycles", "crm", "crm_manager"] },
  { id: "automation", label: msg`Automation and campaigns`, permissions: ["flow", "keywords", "broadcasts", "shipping_cycles", "webhooks"] },
  { id: "registers", label: msg`Registers`, permissions: ["custom_fields", "tags"] },
  { id: "administration", label: msg`Administration`, permissions: ["connections", "settings_company", "settings_members"] },
];

/** The human label of each permission (spec §6 wording). */
export const PERMISSION_LABELS: Record<CompanyPermission, MessageDescriptor> = {
  dashboard: msg`View the dashboard`,
  tickets: msg`Attend chats`,
  tickets_groups: msg`Attend groups`,
  see_all_tickets: msg`See all chats, including other members'`,
  internal_chats: msg`Internal chat`,
  quick_messages: msg`Quick messages`,
  contacts: msg`Contacts`,
  contacts_custom_fields: msg`Edit contacts' custom fields`,
  contacts_tags: msg`Tag contacts`,
  contacts_shipping_cycles: msg`Add contacts to shipping cycles`,
  crm: msg`View the CRM`,
  crm_manager: msg`Manage the CRM`,
  flow: msg`Flow builder`,
  keywords: msg`Keywords`,
  broadcasts: msg`Broadcasts`,
  shipping_cycles: msg`Shipping cycles`,
  webhooks: msg`Webhooks`,
  custom_fields: msg`Custom fields`,
  tags: msg`Tags`,
  connections: msg`Connections`,
  settings_company: msg`Company settings and roles`,
  settings_members: msg`Team: view, invite and edit members`,
};

/** State of a "mark all" box over `scope` given the chosen permissions. */
export type MarkAllState = boolean | "indeterminate";

/** true when every permission of `scope` is chosen, false when none, "indeterminate" otherwise. */
export function markAllState(selected: readonly CompanyPermission[], scope: readonly CompanyPermission[] = COMPANY_PERMISSIONS): MarkAllState {
  const chosen = scope.filter((permission) => selected.includes(permission)).length;
  if (chosen === 0) return false;
  return chosen === scope.length ? true : "indeterminate";
}

/**
 * The selection after clicking a "mark all" box over `scope`: all of `scope` removed when all
 * were chosen, else all of `scope` added. Permissions outside `scope` are kept; the result follows
 * the order of COMPANY_PERMISSIONS with no repeats.
 */
export function toggleMarkAll(selected: readonly CompanyPermission[], scope: readonly CompanyPermission[] = COMPANY_PERMISSIONS): CompanyPermission[] {
  const next = new Set(selected);
  if (markAllState(selected, scope) === true) for (const permission of scope) next.delete(permission);
  else for (const permission of scope) next.add(permission);
  return COMPANY_PERMISSIONS.filter((permission) => next.has(permission));
}

/** The selection with `permission` switched on (`on`) or off, in COMPANY_PERMISSIONS order. */
export function togglePermission(selected: readonly CompanyPermission[], permission: CompanyPermission, on: boolean): CompanyPermission[] {
  const next = new Set(selected);
  if (on) next.add(permission);
  else next.delete(permission);
  return COMPANY_PERMISSIONS.filter((item) => next.has(item));
}
