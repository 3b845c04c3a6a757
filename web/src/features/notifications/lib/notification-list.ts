/**
 * The in-app notifications of flows (issue 5: the notification block "alerts chosen members in the
 * app"): the hub sends `{type: "notification"}` only to the members the block names. The header's
 * bell keeps the last {@link NOTIFICATION_LIMIT} of this session, newest first, with an unread count.
 * Pure state: the store (hooks/use-notifications.ts) applies these functions.
 */
import type { HubEventBody } from "../../../../../schema/realtime";

/** A notification as the hub sends it (schema/realtime.ts). */
export type FlowNotificationBody = Extract<HubEventBody, { type: "notification" }>["notification"];

/** A notification as the bell keeps it: when it arrived (the hub event's `at`) and whether it was seen. */
export type FlowNotification = FlowNotificationBody & { at: number; read: boolean };

/** The bell's list: whose it is (a new user in the tab starts empty) and the items, newest first. */
export type NotificationList = { owner: string | null; items: readonly FlowNotification[] };

/** How many notifications the bell keeps. */
export const NOTIFICATION_LIMIT = 20;

/** The empty list of `owner`. */
export function emptyNotifications(owner: string | null = null): NotificationList {
  return { owner, items: [] };
}

/** The list for `owner`: the same list when it is theirs, else an empty one (another user signed in). */
export function forOwner(list: NotificationList, owner: string | null): NotificationList {
  return list.owner === owner ? list : emptyNotifications(owner);
}

/** Adds an unread notification on top, ignoring one already kept (same id), keeping the newest `limit`. */
export function addNotification(list: NotificationList, notification: FlowNotificationBody, at: number, limit = NOTIFICATION_LIMIT): NotificationList {
  if (list.items.some((item) => item.id === notification.id)) return list;
  return { ...list, items: [{ ...notification, at, read: false }, ...list.items].slice(0, Math.max(0, limit)) };
}

/** Marks every notification as seen (the bell was opened). */
export function markAllRead(list: NotificationList): NotificationList {
  if (list.items.every((item) => item.read)) return list;
  return { ...list, items: list.items.map((item) => (item.read ? item : { ...item, read: true })) };
}

/** How many notifications were not seen yet. */
export function unreadCount(list: NotificationList): number {
  return list.items.reduce((count, item) => count + (item.read ? 0 : 1), 0);
}

/** Where a notification leads: the conversation when there is a ticket, else the contact, if the member may open it. */
export function notificationTarget(notification: FlowNotificationBody, permissions: ReadonlySet<string>): { kind: "ticket" | "contact" | "webhook" | "internal_chat"; to: string } | null {
  // An @mention in the internal chat (issue 12) leads to that conversation.
  if ("kind" in notification && notification.kind === "internal_mention") {
    return permissions.has("internal_chats") ? { kind: "internal_chat", to: `/internal-chats?chat=${encodeURIComponent(notification.chatId)}` } : null;
  }
  // A webhook switched to test mode by a burst (issue 11) leads to that webhook.
  if ("kind" in notification) return permissions.has("webhooks") ? { kind: "webhook", to: `/webhook/${encodeURIComponent(notification.webhookId)}` } : null;
  if (notification.ticketId && permissions.has("tickets")) return { kind: "ticket", to: `/chats?ticket=${encodeURIComponent(notification.ticketId)}` };
  if (permissions.has("contacts")) return { kind: "contact", to: `/contacts?contact=${encodeURIComponent(notification.contactId)}` };
  return null;
}

/** The unread count as the bell's badge shows it ("9+" beyond nine). */
export function badgeText(count: number): string {
  return count > 9 ? "9+" : String(count);
}
