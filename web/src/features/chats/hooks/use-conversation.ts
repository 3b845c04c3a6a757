/**
 * The open conversation: its pages of messages (newest page first, older ones on demand), live
 * updates from the room socket (and the hub, as a second path), optimistic sends with an
 * idempotency key, and marking the ticket read while it is viewed.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { notifyError } from "@/lib/notify";
import type { MessageAnswer, TicketAnswer } from "../../../../../schema/realtime";
import { chatKeys, messagesQuery, sendMessage, ticketAction } from "../api/chats-api";
import { flattenMessages, localMessageOf, withLocalMessages, type ChatMessage, type Draft, type LocalMessage } from "../lib/messages";
import type { TicketViewer } from "../lib/ticket-list";
import { applyMessage, applyTicket } from "./use-live-tickets";
import { useTicketRoom, type ContactPresence } from "./use-ticket-room";

/** What the conversation view needs. */
export type Conversation = {
  messages: ChatMessage[];
  isPending: boolean;
  isError: boolean;
  refetch: () => void;
  hasOlder: boolean;
  loadingOlder: boolean;
  loadOlder: () => void;
  send: (draft: Draft) => void;
  retry: (key: string) => void;
  discard: (key: string) => void;
  contactPresence: ContactPresence;
  sendTyping: (state: "typing" | "recording" | "paused") => void;
};

/** Delay before a new inbound message seen on screen is reported read (ms). */
const READ_DELAY_MS = 800;

/** The conversation of `ticket` (null: none open). */
export function useConversation(ticket: TicketAnswer | null, viewer: TicketViewer, senderName: string | null): Conversation {
  const queryClient = useQueryClient();
  const ticketId = ticket?.id ?? null;
  const query = useInfiniteQuery({ ...messagesQuery(ticketId ?? ""), enabled: ticketId !== null });
  const [local, setLocal] = useState<LocalMessage[]>([]);
  const localRef = useRef(local);
  localRef.current = local;

  // Read marking: when opened with unread messages, and when the customer writes while it is viewed.
  const read = useMutation({
    mutationFn: (id: string) => ticketAction(id, "read"),
    onSuccess: (answer) => applyTicket(queryClient, answer, viewer),
  });
  const readRef = useRef(read.mutate);
  readRef.current = read.mutate;
  const readTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const scheduleRead = useCallback((id: string) => {
    if (typeof document !== "undefined" && document.visibilityState !== "visible") return;
    if (readTimer.current) clearTimeout(readTimer.current);
    readTimer.current = setTimeout(() => readRef.current(id), READ_DELAY_MS);
  }, []);
  const unread = ticket?.unreadCount ?? 0;
  useEffect(() => {
    if (ticketId && unread > 0) scheduleRead(ticketId);
  }, [ticketId, unread, scheduleRead]);
  useEffect(() => {
    if (!ticketId) return;
    const onVisible = () => {
      const current = queryClient.getQueryData<TicketAnswer>(chatKeys.detail(ticketId));
      if (document.visibilityState === "visible" && current && current.unreadCount > 0) scheduleRead(ticketId);
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      document.removeEventListener("visibilitychange", onVisible);
      if (readTimer.current) clearTimeout(readTimer.current);
    };
  }, [ticketId, queryClient, scheduleRead]);

  const room = useTicketRoom(ticketId, {
    onMessage: (message: MessageAnswer, created: boolean) => {
      applyMessage(queryClient, message, created);
      if (created && message.direction === "in") scheduleRead(message.ticketId);
    },
    onReconnect: () => {
      if (ticketId) void queryClient.invalidateQueries({ queryKey: chatKeys.messages(ticketId) });
    },
  });

  const dropLocal = useCallback((key: string) => {
    setLocal((list) => {
      const gone = list.find((l) => l.key === key);
      if (gone?.previewUrl) URL.revokeObjectURL(gone.previewUrl);
      return list.filter((l) => l.key !== key);
    });
  }, []);

  const deliver = useCallback(
    (entry: LocalMessage) => {
      sendMessage(entry.ticketId, entry.draft, entry.key).then(
        (message) => {
          applyMessage(queryClient, message, true);
          dropLocal(entry.key);
        },
        (error: unknown) => {
          setLocal((list) => list.map((l) => (l.key === entry.key ? { ...l, failed: true } : l)));
          notifyError(error);
        },
      );
    },
    [queryClient, dropLocal],
  );

  const stored = useMemo(() => flattenMessages(query.data), [query.data]);
  const storedRef = useRef(stored);
  storedRef.current = stored;

  const send = useCallback(
    (draft: Draft) => {
      if (!ticketId) return;
      const key = crypto.randomUUID();
      const previewUrl = draft.kind === "file" ? URL.createObjectURL(draft.file) : null;
      const message = localMessageOf(key, ticketId, draft, Date.now(), previewUrl, senderName);
      const quoted = draft.quotedId ? storedRef.current.find((m) => m.id === draft.quotedId) : undefined;
      if (quoted) message.quoted = { id: quoted.id, body: quoted.body, type: quoted.type, direction: quoted.direction };
      const entry: LocalMessage = { key, ticketId, draft, message, failed: false, previewUrl, seenIds: new Set(storedRef.current.map((m) => m.id)) };
      setLocal((list) => [...list, entry]);
      deliver(entry);
    },
    [ticketId, senderName, deliver],
  );

  const retry = useCallback(
    (key: string) => {
      const entry = localRef.current.find((l) => l.key === key);
      if (!entry) return;
      setLocal((list) => list.map((l) => (l.key === key ? { ...l, failed: false } : l)));
      deliver({ ...entry, failed: false });
    },
    [deliver],
  );

  const messages = useMemo(
    () => withLocalMessages(stored, local.filter((l) => l.ticketId === ticketId)),
    [stored, local, ticketId],
  );

  return {
    messages,
    isPending: ticketId !== null && query.isPending,
    isError: query.isError,
    refetch: () => void query.refetch(),
    hasOlder: query.hasNextPage,
    loadingOlder: query.isFetchingNextPage,
    loadOlder: () => {
      if (query.hasNextPage && !query.isFetchingNextPage) void query.fetchNextPage();
    },
    send,
    retry,
    discard: dropLocal,
    contactPresence: room.contactPresence,
    sendTyping: room.sendTyping,
  };
}
