/**
 * The hub client after the server ends its socket (issue 8 §3): a 4001 (session over) never
 * reconnects with the dead token unless this tab still has a live session; a 4003 (access changed)
 * refreshes what permissions shape and reconnects; other closes reconnect with backoff.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

class FakeSocket {
  static opened: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: ((e: { code: number; reason: string }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.opened.push(this);
  }
  close() {}
  /** The server closes the socket. */
  serverClose(code: number, reason = "") {
    this.onclose?.({ code, reason });
  }
}

const storage = new Map<string, string>([["token", "token-1"]]);

beforeEach(() => {
  FakeSocket.opened = [];
  vi.useFakeTimers();
  vi.stubGlobal("window", { location: { protocol: "http:", host: "app.test", pathname: "/" }, addEventListener: () => {} });
  vi.stubGlobal("WebSocket", FakeSocket);
  vi.stubGlobal("localStorage", {
    getItem: (k: string) => storage.get(k) ?? null,
    setItem: (k: string, v: string) => storage.set(k, v),
    removeItem: (k: string) => storage.delete(k),
  });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

async function client(live: boolean) {
  const { HubClient } = await import("./realtime");
  const hooks = { sessionStillLive: vi.fn(async () => live), refreshAccess: vi.fn() };
  const hub = new HubClient(hooks);
  const resets = vi.fn();
  hub.onReset(resets);
  const release = hub.retain();
  return { hub, hooks, resets, release };
}

describe("closeAction", () => {
  it("maps 4001 to check-session, 4003 to refresh, anything else to retry", async () => {
    const { closeAction } = await import("./realtime");
    expect(closeAction(4001)).toBe("check-session");
    expect(closeAction(4003)).toBe("refresh");
    expect(closeAction(1006)).toBe("retry");
    expect(closeAction(1000)).toBe("retry");
  });
});

describe("HubClient after the server closes the socket", () => {
  it("4001 with a dead session: asks once and never reconnects", async () => {
    const { hooks, release } = await client(false);
    expect(FakeSocket.opened).toHaveLength(1);
    FakeSocket.opened[0]!.serverClose(4001, "session_revoked");
    await vi.runAllTimersAsync();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(hooks.sessionStillLive).toHaveBeenCalledTimes(1);
    expect(FakeSocket.opened).toHaveLength(1);
    release();
  });

  it("4001 while this tab holds a live (newer) session: reconnects with the current token", async () => {
    const { release } = await client(true);
    FakeSocket.opened[0]!.serverClose(4001, "session_revoked");
    storage.set("token", "token-2");
    await vi.advanceTimersByTimeAsync(2_000);
    expect(FakeSocket.opened).toHaveLength(2);
    expect(FakeSocket.opened[1]!.url).toContain("access_token=token-2");
    storage.set("token", "token-1");
    release();
  });

  it("4003: refreshes permissions and lists, then reconnects", async () => {
    const { hooks, resets, release } = await client(true);
    FakeSocket.opened[0]!.serverClose(4003, "permissions_changed");
    expect(hooks.refreshAccess).toHaveBeenCalledTimes(1);
    expect(resets).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(FakeSocket.opened).toHaveLength(2);
    expect(hooks.sessionStillLive).not.toHaveBeenCalled();
    release();
  });

  it("an ordinary drop reconnects with backoff without asking", async () => {
    const { hooks, release } = await client(true);
    FakeSocket.opened[0]!.serverClose(1006);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(FakeSocket.opened).toHaveLength(2);
    expect(hooks.sessionStillLive).not.toHaveBeenCalled();
    expect(hooks.refreshAccess).not.toHaveBeenCalled();
    release();
  });
});
