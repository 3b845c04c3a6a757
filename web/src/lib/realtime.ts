/**
 * The company hub socket (DESIGN.md "Durable Objects": CompanyHub). One WebSocket per tab to
 * `/api/ws/hub?access_token=…`; every event carries the company's sequence number. On a drop the
 * client reconnects with exponential backoff (1 s doubling to 30 s, with jitter) and asks for
 * everything after the last sequence it saw, so the screen has no gap and no duplicate. A `reset`
 * (the client was too far behind) tells listeners to refetch their lists.
 *
 * The server closes a socket when the session it was opened with changes (issue 8 §3,
 * worker/lib/sockets.ts): 4001 — the session is over (logout, password change, expiry): the client
 * does not reconnect with that token; it asks the API whether this tab still has a live session (a
 * 401 there logs the user out) and reconnects only if so. 4003 — the member's access changed
 * (removed, roles or permissions edited): the client refetches what permissions shape and
 * reconnects, getting the new permissions.
 */
import { useEffect, useRef, useSyncExternalStore } from "react";
import type { HubEvent } from "../../../schema/realtime";
import { queryClient } from "./query-client";
import { api } from "./session";

/** Close code: the session the socket was opened with is over (worker/lib/sockets.ts). */
export const CLOSE_SESSION_ENDED = 4001;
/** Close code: the member's access changed; reconnecting gets the new permissions. */
export const CLOSE_ACCESS_CHANGED = 4003;

/**
 * What a client does after its socket closed with `code`: `check-session` (4001: reconnect only if
 * `sessionStillLive`), `refresh` (4003: `refreshAccess`, then reconnect), `retry` (anything else:
 * reconnect with backoff).
 */
export function closeAction(code: number): "check-session" | "refresh" | "retry" {
  if (code === CLOSE_SESSION_ENDED) return "check-session";
  if (code === CLOSE_ACCESS_CHANGED) return "refresh";
  return "retry";
}

/**
 * After a 4001: whether this tab still has a live session (GET /api/me answers; e.g. it holds the
 * new token of a password reset). On a 401 the request client has already logged the user out.
 */
export async function sessionStillLive(): Promise<boolean> {
  if (!api.tokens.get()) return false;
  try {
    await api.send("GET", "/me");
    return true;
  } catch {
    return false;
  }
}

/** After a 4003: refetch everything the member's permissions shape (permissions, lists, screens). */
export function refreshAccess(): void {
  void queryClient.invalidateQueries();
}

/** What the hub client does on a revoked session or changed access (tests pass fakes). */
export type HubClientHooks = { sessionStillLive: () => Promise<boolean>; refreshAccess: () => void };

export type HubStatus = "connecting" | "open" | "closed";

type Listener = (event: HubEvent) => void;
type ResetListener = () => void;

/** Backoff for reconnect attempt `n` (0-based), in ms: 1 s doubling up to 30 s, ±20% jitter. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(30_000, 1000 * 2 ** attempt);
  return Math.round(base * (0.8 + random() * 0.4));
}

/**
 * Tracks the last sequence seen and drops events already applied (a replay after reconnect may
 * overlap what arrived just before the drop).
 */
export class SequenceTracker {
  last = 0;
  /** True when the event is new; remembers it. */
  accept(seq: number): boolean {
    if (seq <= this.last) return false;
    this.last = seq;
    return true;
  }
}

/** The hub socket of a tab (one instance, `hub`; exported for tests). */
export class HubClient {
  private socket: WebSocket | null = null;
  private listeners = new Set<Listener>();
  private resetListeners = new Set<ResetListener>();
  private statusListeners = new Set<() => void>();
  private tracker = new SequenceTracker();
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private users = 0;
  status: HubStatus = "closed";

  private readonly hooks: HubClientHooks;

  constructor(hooks: HubClientHooks = { sessionStillLive, refreshAccess }) {
    this.hooks = hooks;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onReset(listener: ResetListener): () => void {
    this.resetListeners.add(listener);
    return () => this.resetListeners.delete(listener);
  }

  onStatus(listener: () => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Reference-counted: the socket stays open while at least one screen uses it. */
  retain(): () => void {
    this.users += 1;
    if (this.users === 1) this.connect();
    return () => {
      this.users -= 1;
      if (this.users === 0) this.disconnect();
    };
  }

  private setStatus(status: HubStatus) {
    this.status = status;
    for (const l of this.statusListeners) l();
  }

  private connect() {
    const token = api.tokens.get();
    if (!token || typeof WebSocket === "undefined") return;
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    const after = this.tracker.last > 0 ? `&after=${this.tracker.last}` : "";
    const socket = new WebSocket(`${scheme}://${window.location.host}/api/ws/hub?access_token=${encodeURIComponent(token)}${after}`);
    this.socket = socket;
    this.setStatus("connecting");
    socket.onopen = () => {
      this.attempt = 0;
      this.setStatus("open");
    };
    socket.onmessage = (message) => this.handle(String(message.data));
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.setStatus("closed");
      if (this.users === 0) return;
      const action = closeAction(event.code);
      if (action === "check-session") {
        // Never reconnect with a dead token: only a live session (a newer token) reconnects.
        void this.hooks.sessionStillLive().then((live) => {
          if (live && this.users > 0) this.schedule();
        });
        return;
      }
      if (action === "refresh") {
        this.hooks.refreshAccess();
        for (const l of this.resetListeners) l();
      }
      this.schedule();
    };
  }

  private schedule() {
    if (this.timer) return;
    const delay = backoffDelay(this.attempt++);
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.users > 0) this.connect();
    }, delay);
  }

  private disconnect() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const socket = this.socket;
    this.socket = null;
    socket?.close(1000, "bye");
    this.setStatus("closed");
  }

  private handle(text: string) {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      return;
    }
    if (typeof data !== "object" || data === null || !("type" in data)) return;
    if (data.type === "hello" && "seq" in data && typeof data.seq === "number") {
      // First connection: start from now. Reconnection: the server replays after `after`.
      if (this.tracker.last === 0) this.tracker.last = data.seq;
      return;
    }
    if (data.type === "reset") {
      if ("seq" in data && typeof data.seq === "number") this.tracker.last = data.seq;
      for (const l of this.resetListeners) l();
      return;
    }
    if (!("seq" in data) || typeof data.seq !== "number" || !this.tracker.accept(data.seq)) return;
    // The hub is the only writer of these frames (schema/realtime.ts HubEvent); only the envelope is checked here.
    for (const l of this.listeners) l(data as HubEvent);
  }
}

/** The tab's single hub client. */
export const hub = new HubClient();

/**
 * Keeps the hub socket open while the component is mounted and calls `onEvent` for each new event
 * (and `onReset` when lists must be refetched).
 */
export function useHubEvents(onEvent: (event: HubEvent) => void, onReset?: () => void): void {
  const eventRef = useRef(onEvent);
  const resetRef = useRef(onReset);
  eventRef.current = onEvent;
  resetRef.current = onReset;
  useEffect(() => {
    const release = hub.retain();
    const off = hub.subscribe((e) => eventRef.current(e));
    const offReset = hub.onReset(() => resetRef.current?.());
    return () => {
      off();
      offReset();
      release();
    };
  }, []);
}

/** The hub socket's status, for a "reconnecting…" indicator. */
export function useHubStatus(): HubStatus {
  return useSyncExternalStore(
    (cb) => hub.onStatus(cb),
    () => hub.status,
    () => "closed",
  );
}
