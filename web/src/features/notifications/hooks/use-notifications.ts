/**
 * The tab's flow notifications: a small store (kept across layouts for this session, emptied when
 * another user signs in) fed by the hub's `notification` events.
 */
import { useCallback, useEffect, useSyncExternalStore } from "react";
import { useHubEvents } from "@/lib/realtime";
import { useMe } from "@/features/session/hooks/use-session";
import { addNotification, emptyNotifications, forOwner, markAllRead, type FlowNotificationBody, type NotificationList } from "../lib/notification-list";

let current: NotificationList = emptyNotifications();
const listeners = new Set<() => void>();

function update(next: NotificationList): void {
  if (next === current) return;
  current = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The signed-in member's recent notifications, kept current from the hub (the shell keeps its
 * socket open); `onNew` is called once per new notification (the toast).
 */
export function useFlowNotifications(onNew: (notification: FlowNotificationBody) => void) {
  const me = useMe();
  const owner = me.data?.id ?? null;
  useEffect(() => {
    if (owner) update(forOwner(current, owner));
  }, [owner]);
  useHubEvents((event) => {
    if (event.type !== "notification") return;
    const before = current;
    update(addNotification(current, event.notification, event.at));
    if (current !== before) onNew(event.notification);
  });
  const list = useSyncExternalStore(subscribe, () => current, () => current);
  const markRead = useCallback(() => update(markAllRead(current)), []);
  const clear = useCallback(() => update(emptyNotifications(current.owner)), []);
  return { list, markRead, clear };
}
