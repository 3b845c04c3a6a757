import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ApiError, createApiClient, createNavigateTo, createTokenStore, TOKEN_KEY, type KeyValueStorage } from "./api";

type Call = { url: string; init: RequestInit };

/** A Map-backed storage standing in for localStorage. */
function memoryStorage(initial: Record<string, string> = {}): KeyValueStorage & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
    removeItem: (key) => void data.delete(key),
  };
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });
}

/** A client over a fake fetch answering `responses` in turn (a function may throw to simulate no reply). */
function setup(responses: Array<Response | (() => never)>, token: string | null = "t0k3n") {
  const storage = memoryStorage(token ? { [TOKEN_KEY]: token } : {});
  const calls: Call[] = [];
  const onLogout = vi.fn();
  const fakeFetch = vi.fn(async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    const next = responses.shift();
    if (!next) throw new Error("no more fake responses");
    if (typeof next === "function") return next();
    return next;
  });
  const client = createApiClient({ baseUrl: "/api", fetch: fakeFetch, tokens: createTokenStore(() => storage), onLogout });
  return { client, calls, onLogout, storage, fakeFetch };
}

const meSchema = z.object({ id: z.string() });

describe("request client (spec §7, §8)", () => {
  it("sends the bearer token from localStorage key `token` and credentials", async () => {
    const { client, calls } = setup([json(200, { id: "u1" })]);
    await expect(client.call("GET", "/me", meSchema)).resolves.toEqual({ id: "u1" });
    expect(calls[0]?.url).toBe("/api/me");
    expect(calls[0]?.init.credentials).toBe("include");
    expect(new Headers(calls[0]?.init.headers).get("Authorization")).toBe("Bearer t0k3n");
  });

  it("sends JSON bodies and query strings", async () => {
    const { client, calls } = setup([json(200, { results: [] })]);
    await client.call("GET", "/me/announcements", z.object({ results: z.array(z.unknown()) }), { query: { code: "dashboard", skip: undefined } });
    expect(calls[0]?.url).toBe("/api/me/announcements?code=dashboard");
    const posted = setup([new Response(null, { status: 204 })]);
    await posted.client.send("POST", "/me/announcements/seen", { body: { id: "a1" } });
    expect(posted.calls[0]?.init.body).toBe(JSON.stringify({ id: "a1" }));
    expect(new Headers(posted.calls[0]?.init.headers).get("Content-Type")).toBe("application/json");
  });

  it("401 logs out (token cleared, onLogout → /login) and still rejects with the error", async () => {
    const { client, onLogout, storage } = setup([json(401, { error: { code: "unauthorized", message: "Authentication required." } })]);
    await expect(client.call("GET", "/me", meSchema)).rejects.toMatchObject({ status: 401, code: "unauthorized" });
    expect(onLogout).toHaveBeenCalledTimes(1);
    expect(storage.data.has(TOKEN_KEY)).toBe(false);
  });

  it("no reply (network failure) logs out", async () => {
    const { client, onLogout, storage } = setup([
      () => {
        throw new TypeError("Failed to fetch");
      },
    ]);
    const error = await client.call("GET", "/me", meSchema).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0, code: "network_error" });
    expect(onLogout).toHaveBeenCalledTimes(1);
    expect(storage.data.has(TOKEN_KEY)).toBe(false);
  });

  it("a failure before sending (body cannot be serialised) logs out", async () => {
    const { client, onLogout, fakeFetch } = setup([json(200, {})]);
    await expect(client.send("POST", "/x", { body: { big: 1n } })).rejects.toMatchObject({ status: 0 });
    expect(fakeFetch).not.toHaveBeenCalled();
    expect(onLogout).toHaveBeenCalledTimes(1);
  });

  it("a call cancelled by its own signal does not log out", async () => {
    const controller = new AbortController();
    controller.abort();
    const { client, onLogout } = setup([
      () => {
        throw new DOMException("aborted", "AbortError");
      },
    ]);
    await expect(client.call("GET", "/me", meSchema, { signal: controller.signal })).rejects.toThrow();
    expect(onLogout).not.toHaveBeenCalled();
  });

  it("requests the browser aborts while the page is being left do not log out", async () => {
    const storage = memoryStorage({ [TOKEN_KEY]: "t0k3n" });
    const onLogout = vi.fn();
    const client = createApiClient({
      baseUrl: "/api",
      fetch: async () => {
        throw new TypeError("Failed to fetch");
      },
      tokens: createTokenStore(() => storage),
      onLogout,
      isUnloading: () => true,
    });
    await expect(client.call("GET", "/me", meSchema)).rejects.toThrow();
    expect(onLogout).not.toHaveBeenCalled();
    expect(storage.data.get(TOKEN_KEY)).toBe("t0k3n");
  });

  it("403 is retried exactly once, then rejects without logging out", async () => {
    const forbidden = () => json(403, { error: { code: "forbidden", message: "no" } });
    const { client, fakeFetch, onLogout, storage } = setup([forbidden(), forbidden(), forbidden()]);
    await expect(client.call("GET", "/companies/members", meSchema)).rejects.toMatchObject({ status: 403, code: "forbidden" });
    expect(fakeFetch).toHaveBeenCalledTimes(2);
    expect(onLogout).not.toHaveBeenCalled();
    expect(storage.data.get(TOKEN_KEY)).toBe("t0k3n");
  });

  it("a 403 followed by success resolves with the second answer", async () => {
    const { client, fakeFetch } = setup([json(403, { error: { code: "forbidden", message: "no" } }), json(200, { id: "u1" })]);
    await expect(client.call("GET", "/me", meSchema)).resolves.toEqual({ id: "u1" });
    expect(fakeFetch).toHaveBeenCalledTimes(2);
  });

  it("other errors reach the caller with status, code, message and fields", async () => {
    const { client, onLogout } = setup([
      json(400, { error: { code: "validation_failed", message: "Invalid input: email.", fields: { email: "invalid_email" } } }),
    ]);
    const error = await client.call("POST", "/register", meSchema, { body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: "validation_failed", message: "Invalid input: email.", fields: { email: "invalid_email" } });
    expect(onLogout).not.toHaveBeenCalled();
  });

  it("reads Retry-After of a rate limit", async () => {
    const { client } = setup([json(429, { error: { code: "rate_limited", message: "Too many" } }, { "Retry-After": "42" })]);
    await expect(client.call("POST", "/login", meSchema, { body: {} })).rejects.toMatchObject({ status: 429, code: "rate_limited", retryAfter: 42 });
  });

  it("an answer without the envelope still becomes an ApiError", async () => {
    const { client } = setup([new Response("Bad Gateway", { status: 502, statusText: "Bad Gateway" })]);
    await expect(client.call("GET", "/me", meSchema)).rejects.toMatchObject({ status: 502, code: "http_502" });
  });

  it("an unexpected answer shape is rejected at the edge", async () => {
    const { client } = setup([json(200, { nope: true })]);
    await expect(client.call("GET", "/me", meSchema)).rejects.toMatchObject({ code: "invalid_answer" });
  });

  it("sends no Authorization header without a token", async () => {
    const { client, calls } = setup([json(200, { id: "u1" })], null);
    await client.call("GET", "/me", meSchema);
    expect(new Headers(calls[0]?.init.headers).has("Authorization")).toBe(false);
  });
});

describe("navigateTo (spec §8)", () => {
  function nav() {
    const assign = vi.fn();
    const push = vi.fn();
    return { assign, push, navigateTo: createNavigateTo({ origin: "https://app.example.com", assign, push }) };
  }

  it("refuses an external URL without the explicit flag", () => {
    const { navigateTo, assign, push } = nav();
    expect(navigateTo("https://evil.example.net/phish")).toBe(false);
    expect(navigateTo("//evil.example.net/")).toBe(false);
    expect(assign).not.toHaveBeenCalled();
    expect(push).not.toHaveBeenCalled();
  });

  it("follows an external URL with the flag", () => {
    const { navigateTo, assign } = nav();
    expect(navigateTo("https://pay.example.org/checkout", { external: true })).toBe(true);
    expect(assign).toHaveBeenCalledWith("https://pay.example.org/checkout");
  });

  it("never follows non-http(s) URLs, even flagged", () => {
    const { navigateTo, assign } = nav();
    expect(navigateTo("javascript:alert(1)", { external: true })).toBe(false);
    expect(assign).not.toHaveBeenCalled();
  });

  it("routes same-origin URLs through the router", () => {
    const { navigateTo, push } = nav();
    expect(navigateTo("/settings/company?tab=1")).toBe(true);
    expect(navigateTo("https://app.example.com/chats#x")).toBe(true);
    expect(push.mock.calls).toEqual([["/settings/company?tab=1"], ["/chats#x"]]);
  });
});
