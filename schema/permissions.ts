/**
 * The company permissions of spec §6, one shared list for the worker's permission middleware and
 * the web's has-permission guard.
 */
export const COMPANY_PERMISSIONS = [
  "dashboard",
  "tickets",
  "tickets_groups",
  "see_all_tickets",
  "internal_chats",
  "broadcasts",
  "shipping_cycles",
  "crm",
  "crm_manager",
  "keywords",
  "webhooks",
  "custom_fields",
  "tags",
  "quick_messages",
  "contacts",
  "contacts_custom_fields",
  "contacts_tags",
  "contacts_shipping_cycles",
  "flow",
  "connections",
  "settings_company",
  "settings_members",
] as const;

export type CompanyPermission = (typeof COMPANY_PERMISSIONS)[number];

/** Franchise-grantable feature permissions (spec §6). */
export const FRANCHISE_PERMISSIONS = [
  "internal_chats",
  "broadcasts",
  "shipping_cycles",
  "crm",
  "keywords",
  "webhooks",
  "quick_messages",
  "flow",
  "integration",
] as const;

export type FranchisePermission = (typeof FRANCHISE_PERMISSIONS)[number];

/** Narrowing check for untrusted strings. */
export function isCompanyPermission(value: string): value is CompanyPermission {
  return (COMPANY_PERMISSIONS as readonly string[]).includes(value);
}
