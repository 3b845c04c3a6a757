/**
 * Response headers that keep foreign script off our origin (issue 8 point 1).
 *
 * - The app (index.html and every static asset, wrapped in worker/index.ts): APP_CSP-style policy
 *   built by `appCsp` — scripts only from our own files (no inline script, no eval), no plugins, no
 *   `<base>`, never framed; styles from our files plus inline styles (React `style` props and the
 *   toast/flow-editor libraries inject style elements: styles cannot run script); images from self,
 *   data: and blob: (QR codes, previews); media from self and blob: (voice-note previews); sockets to
 *   our own host. MEDIA_ORIGIN, when set, is added to img-src and media-src.
 * - `Referrer-Policy: strict-origin-when-cross-origin` (other sites see only our origin),
 *   `Permissions-Policy` denying every powerful feature but the microphone (voice notes in the chat
 *   composer and the sandbox phone) and fullscreen (video) for our own origin,
 *   `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY` for browsers without CSP level 2.
 * - API answers (JSON): API_CSP (`default-src 'none'; frame-ancestors 'none'`), nosniff and
 *   `Referrer-Policy: no-referrer`; a route that sets its own CSP (media) keeps it.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { mediaOrigin } from "./media";

/** CSP of every API answer: a JSON body never loads or runs anything, and is never framed. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** Permissions-Policy of the app: powerful features off, except the microphone and fullscreen here. */
export const PERMISSIONS_POLICY = [
  "accelerometer=()",
  "camera=()",
  "display-capture=()",
  "fullscreen=(self)",
  "geolocation=()",
  "gyroscope=()",
  "magnetometer=()",
  "microphone=(self)",
  "midi=()",
  "payment=()",
  "usb=()",
].join(", ");

/**
 * The app's Content-Security-Policy for a page served at `url`: see the file header. `ws:`/`wss:`
 * are listed for our own host explicitly (older browsers do not let 'self' cover sockets).
 */
export function appCsp(url: URL, env: Pick<AppEnv, "MEDIA_ORIGIN">): string {
  const media = mediaOrigin(env);
  const extra = media ? ` ${media}` : "";
  const socket = `${url.protocol === "https:" ? "wss:" : "ws:"}//${url.host}`;
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${extra}`,
    `media-src 'self' blob:${extra}`,
    "font-src 'self' data:",
    `connect-src 'self' ${socket}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * The static-asset answer `response` (index.html, the SPA fallback, JS, CSS, images) with the app's
 * security headers. Binding answers have immutable headers, so a copy is returned.
 */
export function withAppHeaders(response: Response, url: URL, env: Pick<AppEnv, "MEDIA_ORIGIN">): Response {
  const out = new Response(response.body, response);
  out.headers.set("Content-Security-Policy", appCsp(url, env));
  out.headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  out.headers.set("Permissions-Policy", PERMISSIONS_POLICY);
  out.headers.set("X-Content-Type-Options", "nosniff");
  out.headers.set("X-Frame-Options", "DENY");
  return out;
}

/**
 * Hono middleware for /api: every answer gets `nosniff`, `Referrer-Policy: no-referrer` and API_CSP
 * unless the route set its own CSP (media answers keep their sandbox). WebSocket upgrades (101) are
 * left alone; an answer with immutable headers (a Durable Object's) is copied first.
 */
export const apiSecurityHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  if (c.res.status === 101) return;
  const apply = (headers: Headers) => {
    if (!headers.has("Content-Security-Policy")) headers.set("Content-Security-Policy", API_CSP);
    headers.set("X-Content-Type-Options", "nosniff");
    if (!headers.has("Referrer-Policy")) headers.set("Referrer-Policy", "no-referrer");
  };
  try {
    apply(c.res.headers);
  } catch {
    c.res = new Response(c.res.body, c.res);
    apply(c.res.headers);
  }
};
