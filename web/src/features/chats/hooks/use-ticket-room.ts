/**
 * The open ticket's room socket (GET /api/ws/tickets/{id}?access_token=…, worker/routes/realtime.ts):
 * new and updated messages of the conversation and typing indicators both ways. Reconnects with the
 * hub's backoff; after a reconnect `onReconnect` lets the caller refetch what it may have missed.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "@/lib/session";
import { backoffDelay, closeAction, sessionStillLive } from "@/lib/realtime";
import { roomEvent } from "@/lib/answers";
import type { MessageAnswer } from "../../../../../schema/realtime";

/** The contact's presence as the room reports it. */
export type ContactPresence = "typing" | "recording" | null;

/** A typing indicator expires when no update comes for this long (ms). */
const PRESENCE_TTL_MS = 8_000;
/** Keep-alive ping interval (answered by the room without waking it). */
const PING_MS = 30_000;

/** What the room offers the conversation. */
export type TicketRoom = {
  /** The contact is typing or recording, else null. */
  contactPresence: ContactPresence;
  /** Sends the member's typing state (shown to the customer and to other members). */
  sendTyping: (state: "typing" | "recording" | "paused") => void;
};

/** Connects to the ticket's room while `ticketId` is set. */
export function useTicketRoom(
  ticketId: string | null,
  handlers: { onMessage: (message: MessageAnswer, created: boolean) => void; onReconnect: () => void },
): TicketRoom {
  const [contactPresence, setContactPresence] = useState<ContactPresence>(null);
  const socketRef = useRef<WebSocket | null>(null);
  const handlersRef = useRef(handlers);
  handlersRef.current = handlers;

  useEffect(() => {
    setContactPresence(null);
    if (!ticketId || typeof WebSocket === "undefined") return;
    let closed = false;
    let attempt = 0;
    let everOpened = false;
    let retry: ReturnType<typeof setTimeout> | null = null;
    let presenceTimer: ReturnType<typeof setTimeout> | null = null;
    let ping: ReturnType<typeof setInterval> | null = null;

    const connect = () => {
      const token = api.tokens.get();
      if (!token) return;
      const scheme = window.location.protocol === "https:" ? "wss" : "ws";
      const socket = new WebSocket(`${scheme}://${window.location.host}/api/ws/tickets/${encodeURIComponent(ticketId)}?access_token=${encodeURIComponent(token)}`);
      socketRef.current = socket;
      socket.onopen = () => {
        attempt = 0;
        if (everOpened) handlersRef.current.onReconnect();
        everOpened = true;
        ping = setInterval(() => socket.readyState === WebSocket.OPEN && socket.send('{"type":"ping"}'), PING_MS);
      };
      socket.onmessage = (frame) => {
        let data: unknown;
        try {
          data = JSON.parse(String(frame.data));
        } catch {
          return;
        }
        const event = roomEvent.safeParse(data);
        if (!event.success) return;
        const e = event.data;
        if (e.type === "typing") {
          if (e.who !== "contact") return;
          if (presenceTimer) clearTimeout(presenceTimer);
          setContactPresence(e.state === "paused" ? null : e.state);
          if (e.state !== "paused") presenceTimer = setTimeout(() => setContactPresence(null), PRESENCE_TTL_MS);
          return;
        }
        if (e.message.direction === "in") setContactPresence(null);
        handlersRef.current.onMessage(e.message, e.type === "message.created");
      };
      socket.onclose = (event) => {
        if (ping) clearInterval(ping);
        ping = null;
        if (socketRef.current === socket) socketRef.current = null;
        if (closed) return;
        // 4001: the session is over; reconnect only if this tab has a live one (lib/realtime.ts).
        if (closeAction(event.code) === "check-session") {
          void sessionStillLive().then((live) => {
            if (live && !closed) retry = setTimeout(connect, backoffDelay(attempt++));
          });
          return;
        }
        retry = setTimeout(connect, backoffDelay(attempt++));
      };
    };
    connect();
    return () => {
      closed = true;
      if (retry) clearTimeout(retry);
      if (presenceTimer) clearTimeout(presenceTimer);
      if (ping) clearInterval(ping);
      const socket = socketRef.current;
      socketRef.current = null;
      if (socket) {
        if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "typing", state: "paused" }));
        socket.close(1000, "bye");
      }
    };
  }, [ticketId]);

  const sendTyping = useCallback((state: "typing" | "recording" | "paused") => {
    const socket = socketRef.current;
    if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "typing", state }));
  }, []);

  return { contactPresence, sendTyping };
}
