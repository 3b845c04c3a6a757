/**
 * Sidebar entries of the default layout. Each entry's permission is read from ROUTE_PERMISSIONS,
 * so the navigation shows exactly what the has-permission guard lets through.
 */
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { LucideIcon } from "lucide-react";
import {
  Cable,
  Contact,
  Columns3,
  Hash,
  LayoutDashboard,
  Megaphone,
  MessageCircle,
  MessagesSquare,
  Repeat,
  Settings,
  Tags,
  Workflow,
  Webhook,
  Zap,
  Building2,
  ShieldCheck,
} from "lucide-react";
import { permissionFor } from "./route-permissions";

/** One sidebar link. `permission` undefined: shown to every signed-in user. */
export type NavItem = { to: string; label: MessageDescriptor; icon: LucideIcon; permission?: string; end?: boolean };

function item(to: string, label: MessageDescriptor, icon: LucideIcon, end = false): NavItem {
  return { to, label, icon, permission: permissionFor(to), end };
}

/** The main navigation, in display order. */
export const NAV_ITEMS: NavItem[] = [
  item("/", msg`Dashboard`, LayoutDashboard, true),
  item("/chats", msg`Chats`, MessageCircle),
  item("/internal-chats", msg`Internal chat`, MessagesSquare),
  item("/contacts", msg`Contacts`, Contact),
  item("/crm", msg`CRM`, Columns3),
  item("/broadcasts", msg`Broadcasts`, Megaphone),
  item("/shipping-cycle", msg`Shipping cycles`, Repeat),
  item("/folders", msg`Flows`, Workflow),
  item("/keywords", msg`Keywords`, Hash),
  item("/quick-messages", msg`Quick messages`, Zap),
  item("/registers", msg`Registers`, Tags),
  item("/webhook", msg`Webhooks`, Webhook),
  item("/connections", msg`Connections`, Cable),
  item("/settings", msg`Settings`, Settings),
];

/** Shown only to platform administrators (`platformAdmin` of GET /api/me; issue 12). */
export const ADMIN_NAV_ITEM: NavItem = { to: "/admin/announcements", label: msg`Admin`, icon: ShieldCheck };

/** Shown only when franchise mode is on (spec §1) and the user administers a franchise (`franchiseAdmin` of GET /api/me; issue 14). */
export const FRANCHISE_NAV_ITEM: NavItem = item("/franchise", msg`Franchise`, Building2);

/** The entries a user with `permissions` may open. */
export function visibleNavItems(items: readonly NavItem[], permissions: ReadonlySet<string>): NavItem[] {
  return items.filter((entry) => !entry.permission || permissions.has(entry.permission));
}

/**
 * Where a user lands when the dashboard is not theirs (no `dashboard` permission): the first
 * navigation entry their permissions open, other than the dashboard. /settings needs no
 * permission, so there is always one.
 */
export function firstPermittedPath(permissions: readonly string[]): string | null {
  return visibleNavItems(NAV_ITEMS, new Set(permissions)).find((entry) => entry.to !== "/")?.to ?? null;
}
