/**
 * Keeps the internal chat's cached data current from the company hub (issue 12): new messages join
 * the open conversation and move the list (preview, order, unread badge), read marks from the
 * member's other tabs clear badges, renamed or re-membered conversations are refetched, and typing
 * indicators come and go. The hub sends these events to the conversation's members only and replays
 * what a reconnecting tab missed (web/src/lib/realtime.ts); a `reset` refetches everything.
 */
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useHubEvents } from "@/lib/realtime";
import { useMe } from "@/features/session/hooks/use-session";
import type { InternalChatPage, InternalMessageAnswer, InternalMessagePage } from "../../../../../schema/validation/internal-chats";
import { internalChatKeys, internalChatMembersQuery, markInternalChatRead } from "../api/internal-chats-api";
import { applyTyping, chatRead, chatWithMessage, hasChat, mapChatPages, stopTyping, typingNames, withMessage, type Pages, type TypingState } from "../lib/internal-chats";

// --- typing indicators: a small store shared by the list and the conversation -------------------

let typing: TypingState = new Map();
const typingListeners = new Set<() => void>();

function setTyping(next: TypingState): void {
  if (next === typing) return;
  typing = next;
  for (const listener of typingListeners) listener();
}

/** The names typing in `chatId` now (refreshed every second while someone types). */
export function useTypingNames(chatId: string | null): string[] {
  const state = useSyncExternalStore(
    (listener) => {
      typingListeners.add(listener);
      return () => typingListeners.delete(listener);
    },
    () => typing,
    () => typing,
  );
  const [now, setNow] = useState(() => Date.now());
  const names = chatId ? typingNames(state, chatId, now) : [];
  const active = chatId !== null && state.has(chatId);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return names;
}

// --- who the viewer is -----------------------------------------------------------------------------

/** The signed-in member's id in the active company (from the members list, matched by user id). */
export function useOwnMemberId(): string | null {
  const me = useMe();
  const members = useQuery(internalChatMembersQuery());
  const userId = me.data?.id ?? null;
  return members.data?.find((m) => m.userId === userId)?.memberId ?? null;
}

// --- cache updates -----------------------------------------------------------------------------------

function updateLists(queryClient: QueryClient, chatId: string, update: Parameters<typeof mapChatPages>[2]): boolean {
  let found = false;
  for (const [key, data] of queryClient.getQueriesData<Pages<InternalChatPage>>({ queryKey: internalChatKeys.lists() })) {
    if (!data) continue;
    if (hasChat(data, chatId)) found = true;
    queryClient.setQueryData(key, mapChatPages(data, chatId, update));
  }
  return found;
}

function applyMessage(queryClient: QueryClient, message: InternalMessageAnswer, memberId: string | null, openChatId: string | null): void {
  const open = openChatId === message.chatId && typeof document !== "undefined" && document.visibilityState === "visible";
  const listed = updateLists(queryClient, message.chatId, (chat) => chatWithMessage(chat, message, memberId, open));
  // A conversation not in the lists yet (a new one, or an older page): the lists are refetched.
  if (!listed) void queryClient.invalidateQueries({ queryKey: internalChatKeys.lists() });
  queryClient.setQueryData<Pages<InternalMessagePage>>(internalChatKeys.messages(message.chatId), (data) => (data ? withMessage(data, message) : data));
  setTyping(stopTyping(typing, message.chatId, message.sender.memberId));
  if (open && message.sender.memberId !== memberId) void markInternalChatRead(message.chatId).catch(() => undefined);
}

/**
 * Subscribes the screen to the hub's internal-chat events. `openChatId` is the conversation in front
 * of the member: its new messages are marked read at once.
 */
export function useLiveInternalChats(openChatId: string | null): void {
  const queryClient = useQueryClient();
  const memberId = useOwnMemberId();
  const memberRef = useRef(memberId);
  const openRef = useRef(openChatId);
  memberRef.current = memberId;
  openRef.current = openChatId;
  const onReset = useCallback(() => void queryClient.invalidateQueries({ queryKey: internalChatKeys.all }), [queryClient]);
  useHubEvents((event) => {
    switch (event.type) {
      case "internal_chat.message":
        applyMessage(queryClient, event.message, memberRef.current, openRef.current);
        break;
      case "internal_chat.read":
        if (event.memberId === memberRef.current) updateLists(queryClient, event.chatId, (chat) => chatRead(chat, event.lastReadSeq));
        break;
      case "internal_chat.updated":
        void queryClient.invalidateQueries({ queryKey: internalChatKeys.lists() });
        void queryClient.invalidateQueries({ queryKey: internalChatKeys.detail(event.chatId) });
        break;
      case "internal_chat.typing":
        if (event.memberId !== memberRef.current) setTyping(applyTyping(typing, event, Date.now()));
        break;
      default:
        break;
    }
  }, onReset);
}
