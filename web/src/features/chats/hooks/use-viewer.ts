/**
 * Who is looking at the chat centre: permissions (spec §6 tickets_groups, see_all_tickets) and the
 * member id in the active company. No call answers the member id directly; it is found in the online
 * members list by user id (the viewer is online while using the app), and learnt from the answers
 * of the viewer's own actions (an accepted ticket is assigned to them).
 */
import { useCallback, useMemo, useSyncExternalStore } from "react";
import { useQuery } from "@tanstack/react-query";
import { useMe, usePermissions } from "@/features/session/hooks/use-session";
import { transferMembersQuery } from "../api/chats-api";
import type { TicketViewer } from "../lib/ticket-list";

let learntMemberId: { userId: string; memberId: string } | null = null;
const learntListeners = new Set<() => void>();

/** Remembers the viewer's member id, learnt from an answer (e.g. the ticket they just accepted). */
export function learnMemberId(userId: string, memberId: string): void {
  if (learntMemberId?.memberId === memberId && learntMemberId.userId === userId) return;
  learntMemberId = { userId, memberId };
  for (const listener of learntListeners) listener();
}

/** The viewer of the chat centre and their permissions; `ready` once permissions are loaded. */
export function useChatViewer(): TicketViewer & { ready: boolean; userId: string | null; canManageMembers: boolean } {
  const me = useMe();
  const permissions = usePermissions();
  const online = useQuery(transferMembersQuery(false));
  const subscribe = useCallback((listener: () => void) => {
    learntListeners.add(listener);
    return () => learntListeners.delete(listener);
  }, []);
  const learnt = useSyncExternalStore(subscribe, () => learntMemberId, () => null);
  const userId = me.data?.id ?? null;
  const fromList = online.data?.find((m) => m.userId === userId)?.id ?? null;
  const memberId = fromList ?? (learnt && learnt.userId === userId ? learnt.memberId : null);
  const perms = permissions.data;
  return useMemo(
    () => ({
      memberId,
      userId,
      seeAll: perms?.has("see_all_tickets") === true,
      groups: perms?.has("tickets_groups") === true,
      canManageMembers: perms?.has("settings_members") === true,
      ready: perms !== undefined,
    }),
    [memberId, userId, perms],
  );
}
