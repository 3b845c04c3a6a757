/**
 * The app's request client instance and session lifecycle (spec §4 "Session"): a token returned by
 * login, register or reset-password is stored and the user loaded; logout clears token and user
 * and goes to /login. The router registers itself here so non-React code can navigate.
 */
import { i18n } from "@lingui/core";
import { createApiClient, createNavigateTo, createTokenStore } from "./api";

/**
 * Drops every cached answer of the session. The query client registers its `clear` when it loads
 * (query-client.ts); before that nothing is cached. Kept apart so the auth pages, which use no
 * cache, do not load react-query (issue 9).
 */
let clearCache: () => void = () => undefined;

/** Called once by query-client.ts with the cache's `clear`. */
export function setSessionCacheClear(clear: () => void): void {
  clearCache = clear;
}

let push: (path: string) => void = (path) => window.location.assign(path);

/** Lets the router take over in-app navigation (called once the router exists). */
export function setRouterNavigate(navigate: (path: string) => void): void {
  push = navigate;
}

/** Paths where a logged-out user already is "at the login screen". */
const AUTH_PATHS = ["/login", "/register", "/forgot-password", "/reset-password"];

/** Clears the user and goes to /login (the token is cleared by the caller or the client). */
function leaveToLogin(): void {
  clearCache();
  if (typeof window === "undefined") return;
  if (!AUTH_PATHS.includes(window.location.pathname)) push("/login");
}

/** Set when the page starts unloading; requests the browser aborts then are not session failures. */
let unloading = false;
if (typeof window !== "undefined") {
  window.addEventListener("beforeunload", () => (unloading = true));
  window.addEventListener("pagehide", () => (unloading = true));
  // A page restored from the back/forward cache is live again.
  window.addEventListener("pageshow", () => (unloading = false));
}

/** The request client of the app: base `/api`, token in localStorage `token` (spec §7, §8). */
export const api = createApiClient({
  baseUrl: "/api",
  fetch: (input, init) => globalThis.fetch(input, init),
  tokens: createTokenStore(),
  onLogout: leaveToLogin,
  headers: () => ({ "Accept-Language": i18n.locale || "pt-BR" }),
  isUnloading: () => unloading,
});

/** Stores a fresh token, drops any cached data of a previous user and opens the app at `to`. */
export function startSession(token: string, to = "/"): void {
  api.tokens.set(token);
  clearCache();
  push(to);
}

/** Ends the session locally: token and user cleared, then /login (spec §4). */
export function endSession(): void {
  api.tokens.clear();
  leaveToLogin();
}

/**
 * `navigateTo(url, {external})` for the app (spec §8): same-origin URLs go through the router, other
 * origins only with `external: true`.
 */
export const navigateTo = createNavigateTo({
  get origin() {
    return typeof window === "undefined" ? "http://localhost" : window.location.origin;
  },
  assign: (url) => window.location.assign(url),
  push: (path) => push(path),
});
