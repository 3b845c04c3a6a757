import { describe, expect, it } from "vitest";
import {
  addNotification,
  badgeText,
  emptyNotifications,
  forOwner,
  markAllRead,
  NOTIFICATION_LIMIT,
  notificationTarget,
  unreadCount,
  type FlowNotificationBody,
} from "./notification-list";

const note = (id: string, ticketId: string | null = "t1"): FlowNotificationBody => ({ id, text: `Hello ${id}`, flowId: "f1", contactId: "c1", ticketId });

describe("flow notifications", () => {
  it("keeps new notifications on top, unread, with their time", () => {
    let list = emptyNotifications("u1");
    list = addNotification(list, note("a"), 100);
    list = addNotification(list, note("b"), 200);
    expect(list.items.map((item) => item.id)).toEqual(["b", "a"]);
    expect(list.items[0]).toMatchObject({ at: 200, read: false, text: "Hello b" });
    expect(unreadCount(list)).toBe(2);
  });

  it("ignores a notification it already has", () => {
    const list = addNotification(emptyNotifications(), note("a"), 100);
    expect(addNotification(list, note("a"), 300)).toBe(list);
  });

  it("keeps only the last 20", () => {
    let list = emptyNotifications();
    for (let i = 0; i < 25; i++) list = addNotification(list, note(`n${i}`), i);
    expect(list.items).toHaveLength(NOTIFICATION_LIMIT);
    expect(list.items[0]?.id).toBe("n24");
    expect(list.items.at(-1)?.id).toBe("n5");
    expect(unreadCount(list)).toBe(20);
  });

  it("marks everything read, and counts new ones after that", () => {
    let list = addNotification(addNotification(emptyNotifications(), note("a"), 1), note("b"), 2);
    list = markAllRead(list);
    expect(unreadCount(list)).toBe(0);
    expect(markAllRead(list)).toBe(list);
    list = addNotification(list, note("c"), 3);
    expect(unreadCount(list)).toBe(1);
  });

  it("starts empty for another user in the same tab", () => {
    const list = addNotification(emptyNotifications("u1"), note("a"), 1);
    expect(forOwner(list, "u1")).toBe(list);
    expect(forOwner(list, "u2")).toEqual({ owner: "u2", items: [] });
  });

  it("links to the conversation or the contact, as the member's permissions allow", () => {
    expect(notificationTarget(note("a", "t 1"), new Set(["tickets", "contacts"]))).toEqual({ kind: "ticket", to: "/chats?ticket=t%201" });
    expect(notificationTarget(note("a", null), new Set(["tickets", "contacts"]))).toEqual({ kind: "contact", to: "/contacts?contact=c1" });
    expect(notificationTarget(note("a"), new Set(["contacts"]))).toEqual({ kind: "contact", to: "/contacts?contact=c1" });
    expect(notificationTarget(note("a", null), new Set(["tickets"]))).toBeNull();
    expect(notificationTarget(note("a"), new Set())).toBeNull();
  });

  it("leads a webhook's spam alert to the webhook, for members who manage webhooks", () => {
    const spam = { id: "s1", kind: "webhook_spam", webhookId: "w 1", webhookName: "Loja", limit: 60 } as const;
    expect(notificationTarget(spam, new Set(["webhooks"]))).toEqual({ kind: "webhook", to: "/webhook/w%201" });
    expect(notificationTarget(spam, new Set(["tickets", "contacts"]))).toBeNull();
  });

  it("shows the count as a badge", () => {
    expect(badgeText(3)).toBe("3");
    expect(badgeText(10)).toBe("9+");
  });
});
