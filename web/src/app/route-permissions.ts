/**
 * The route → permission map (spec §2 and §6; the spec leaves most of it unshown, the issue
 * "Foundation" fixes it). One object shared by the has-permission guard and the navigation.
 * Keys are route patterns as registered in the router.
 */
import type { CompanyPermission } from "../../../schema/permissions";

/** Route pattern → the company permission its has-permission guard requires. */
export const ROUTE_PERMISSIONS = {
  "/": "dashboard",
  "/chats": "tickets",
  "/contacts": "contacts",
  "/crm": "crm",
  "/internal-chats": "internal_chats",
  "/keywords": "keywords",
  "/quick-messages": "quick_messages",
  // The spec calls this permission "channels" (spec §6); the permission list names it `connections`.
  "/connections": "connections",
  "/flows/:id": "flow",
  "/folders": "flow",
  "/folders/:id": "flow",
  "/share-flow/:id": "flow",
  "/shipping-cycle": "shipping_cycles",
  "/shipping-cycle/:id": "shipping_cycles",
  "/webhook": "webhooks",
  "/webhook/:id": "webhooks",
  "/broadcasts": "broadcasts",
  "/broadcasts/history": "broadcasts",
  "/registers": "custom_fields",
  "/registers/tags": "tags",
  "/settings/company": "settings_company",
  "/settings/roles": "settings_company",
  "/settings/members": "settings_members",
  "/settings/integration": "settings_company",
  "/settings/operating-hours": "settings_company",
  "/settings/data-cleanup": "settings_company",
  "/settings/subscription": "settings_company",
} as const satisfies Record<string, CompanyPermission>;

/** A route pattern that needs a permission. */
export type GuardedPath = keyof typeof ROUTE_PERMISSIONS;

/** The permission a route pattern needs, or undefined when it needs none. */
export function permissionFor(pattern: string): CompanyPermission | undefined {
  for (const [path, permission] of Object.entries(ROUTE_PERMISSIONS)) {
    if (path === pattern) return permission;
  }
  return undefined;
}
