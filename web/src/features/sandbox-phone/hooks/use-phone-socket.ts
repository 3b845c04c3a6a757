/**
 * The phone's WebSocket (`/api/channels/sandbox/ws?token=`): what the company sends, its presence,
 * read receipts and unpairing, live. Closed with 4001 or told `disconnected`, the device is unpaired;
 * any other drop reconnects with backoff (1 s doubling to 30 s) and reports `onOpen` again so the
 * screen can catch up on what it missed. A ping every 25 s keeps idle proxies from closing it.
 */
import { useEffect, useRef, useState } from "react";
import { backoffDelay } from "@/lib/realtime";
import { phoneSocketUrl } from "../api/phone-api";
import { parseDeviceFrame, type DeviceEvent } from "../lib/protocol";

/** Close code the worker uses when the device is unpaired. */
export const UNPAIRED_CLOSE_CODE = 4001;
const PING_MS = 25_000;

/** Socket state for the header's indicator. */
export type PhoneSocketStatus = "connecting" | "open" | "closed";

/** Handlers of {@link usePhoneSocket}. */
export type PhoneSocketHandlers = {
  onEvent: (event: DeviceEvent) => void;
  /** Each (re)connection; `reconnected` is false the first time. */
  onOpen?: (reconnected: boolean) => void;
  onUnpaired: () => void;
  /** After a drop that was not an unpairing: a chance to check the token still works. */
  onDrop?: () => void;
};

/** Keeps the phone's socket open while mounted with `token`. */
export function usePhoneSocket(token: string, handlers: PhoneSocketHandlers): PhoneSocketStatus {
  const [status, setStatus] = useState<PhoneSocketStatus>("connecting");
  const ref = useRef(handlers);
  ref.current = handlers;
  useEffect(() => {
    let socket: WebSocket | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let ping: ReturnType<typeof setInterval> | undefined;
    let attempt = 0;
    let opened = false;
    let stopped = false;
    const connect = () => {
      if (stopped) return;
      setStatus("connecting");
      const ws = new WebSocket(phoneSocketUrl(token, window.location));
      socket = ws;
      ws.onopen = () => {
        attempt = 0;
        setStatus("open");
        ref.current.onOpen?.(opened);
        opened = true;
        ping = setInterval(() => {
          if (ws.readyState === WebSocket.OPEN) ws.send('{"type":"ping"}');
        }, PING_MS);
      };
      ws.onmessage = (message) => {
        const event = parseDeviceFrame(String(message.data));
        if (!event || event.type === "pong") return;
        if (event.type === "disconnected") {
          stopped = true;
          ref.current.onUnpaired();
          return;
        }
        ref.current.onEvent(event);
      };
      ws.onclose = (close) => {
        if (ping) clearInterval(ping);
        if (socket !== ws || stopped) return;
        socket = null;
        setStatus("closed");
        if (close.code === UNPAIRED_CLOSE_CODE) {
          stopped = true;
          ref.current.onUnpaired();
          return;
        }
        ref.current.onDrop?.();
        timer = setTimeout(connect, backoffDelay(attempt++));
      };
    };
    connect();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      if (ping) clearInterval(ping);
      const ws = socket;
      socket = null;
      ws?.close(1000, "bye");
    };
  }, [token]);
  return status;
}
