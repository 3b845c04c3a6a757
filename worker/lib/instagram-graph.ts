/**
 * Instagram API with Instagram Login: the calls outside messaging (issue 15;
 * shared/reference/wire-formats-wave2.md §3.1–3.3). Business login (code → short-lived token →
 * 60-day token, refresh), the account (`/me`), its webhook subscription, a contact's profile, and
 * comment replies (private and public). Every call has a timeout; a failure throws InstagramError
 * with Meta's code and whether it is worth retrying.
 *
 * URLs: `graphUrl` is INSTAGRAM_GRAPH_URL (https://graph.instagram.com/v23.0 by default; the token
 * endpoints `/access_token` and `/refresh_access_token` are unversioned, on its origin);
 * `oauthUrl` is INSTAGRAM_OAUTH_URL (unset: the authorisation page on https://www.instagram.com and
 * the code exchange on https://api.instagram.com). Tests point both at standins/instagram-graph.ts.
 */
import { z } from "zod";
import type { AppEnv } from "../env";

/** Instagram's Graph API base, with the version this code was written against. */
export const DEFAULT_INSTAGRAM_GRAPH_URL = "https://graph.instagram.com/v23.0";
const DEFAULT_AUTHORIZE_ORIGIN = "https://www.instagram.com";
const DEFAULT_TOKEN_ORIGIN = "https://api.instagram.com";

/** Scopes asked at login: the account, its DMs, its comments (wire-formats-wave2 §3.1). */
export const INSTAGRAM_SCOPES = ["instagram_business_basic", "instagram_business_manage_messages", "instagram_business_manage_comments"];

/** Webhook fields each connected account is subscribed to. */
export const INSTAGRAM_SUBSCRIBED_FIELDS = ["messages", "messaging_postbacks", "messaging_reactions", "messaging_seen", "comments"];

/** How long one Graph call may take (ms). */
const TIMEOUT_MS = 10_000;

/**
 * Graph error codes worth a retry (Meta's error-codes page): 1 unknown, 2 service unavailable, 4
 * app rate limit, 17 user rate limit, 32 page rate limit, 613 calls limit. HTTP 5xx and 429 too.
 */
export const INSTAGRAM_RETRYABLE_CODES = new Set(["1", "2", "4", "17", "32", "613"]);

/** A refused or failed Graph call: Meta's code (or `network`, or the HTTP status) and message. */
export class InstagramError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly retryable: boolean,
    readonly status: number,
  ) {
    super(message);
  }
}

export type InstagramGraphOptions = { graphUrl: string; oauthUrl?: string; appId: string; appSecret: string; fetch?: typeof fetch };

/** The options of `env` (INSTAGRAM_*). */
export function instagramOptions(env: AppEnv): InstagramGraphOptions {
  return {
    graphUrl: (env.INSTAGRAM_GRAPH_URL || DEFAULT_INSTAGRAM_GRAPH_URL).replace(/\/+$/, ""),
    oauthUrl: env.INSTAGRAM_OAUTH_URL?.replace(/\/+$/, "") || undefined,
    appId: env.INSTAGRAM_APP_ID ?? "",
    appSecret: env.INSTAGRAM_APP_SECRET ?? "",
  };
}

const errorAnswer = z.object({ error: z.object({ code: z.union([z.number(), z.string()]).optional(), message: z.string().optional() }) });

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** One call; answers the parsed JSON of a 2xx, throws InstagramError otherwise. */
export async function graphCall(options: Pick<InstagramGraphOptions, "fetch">, url: string, init: RequestInit = {}): Promise<unknown> {
  const doFetch = options.fetch ?? fetch;
  let res: Response;
  let text: string;
  try {
    res = await doFetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    text = await res.text();
  } catch (error) {
    throw new InstagramError("network", String(error), true, 0);
  }
  const json = parseJson(text);
  if (res.ok) return json;
  const failure = errorAnswer.safeParse(json);
  const code = failure.success && failure.data.error.code !== undefined ? String(failure.data.error.code) : String(res.status);
  const message = (failure.success ? failure.data.error.message : undefined) ?? `HTTP ${res.status}`;
  throw new InstagramError(code, message, res.status >= 500 || res.status === 429 || INSTAGRAM_RETRYABLE_CODES.has(code), res.status);
}

/** The authorisation page for `state` and `redirectUri` (business login, wire-formats-wave2 §3.1). */
export function authorizeUrl(options: InstagramGraphOptions, state: string, redirectUri: string): string {
  const url = new URL(`${options.oauthUrl ?? DEFAULT_AUTHORIZE_ORIGIN}/oauth/authorize`);
  url.searchParams.set("client_id", options.appId);
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("scope", INSTAGRAM_SCOPES.join(","));
  url.searchParams.set("state", state);
  url.searchParams.set("enable_fb_login", "0");
  return url.toString();
}

const shortToken = z.union([
  z.object({ access_token: z.string().min(1), user_id: z.union([z.string(), z.number()]) }),
  z.object({ data: z.array(z.object({ access_token: z.string().min(1), user_id: z.union([z.string(), z.number()]) })).min(1) }),
]);
const longToken = z.object({ access_token: z.string().min(1), expires_in: z.number().positive() });

/** A token and when it expires (ms UTC). */
export type LongLivedToken = { accessToken: string; expiresAt: number };

/**
 * Exchanges the authorisation code (single use, `#_` stripped) for a short-lived token (1 hour):
 * `POST {oauth}/oauth/access_token`, form-encoded. Accepts both documented answer shapes.
 */
export async function exchangeCode(options: InstagramGraphOptions, code: string, redirectUri: string): Promise<string> {
  const body = new URLSearchParams({ client_id: options.appId, client_secret: options.appSecret, grant_type: "authorization_code", redirect_uri: redirectUri, code: code.replace(/#_$/, "") });
  const json = await graphCall(options, `${options.oauthUrl ?? DEFAULT_TOKEN_ORIGIN}/oauth/access_token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body,
  });
  const parsed = shortToken.safeParse(json);
  if (!parsed.success) throw new InstagramError("invalid_answer", "The code exchange answered no token.", false, 200);
  return "data" in parsed.data ? parsed.data.data[0]!.access_token : parsed.data.access_token;
}

function graphOrigin(options: InstagramGraphOptions): string {
  return new URL(options.graphUrl).origin;
}

/** Exchanges a short-lived token for a 60-day one (`GET /access_token?grant_type=ig_exchange_token`). */
export async function longLivedToken(options: InstagramGraphOptions, shortLived: string, at = Date.now()): Promise<LongLivedToken> {
  const url = new URL(`${graphOrigin(options)}/access_token`);
  url.searchParams.set("grant_type", "ig_exchange_token");
  url.searchParams.set("client_secret", options.appSecret);
  url.searchParams.set("access_token", shortLived);
  const parsed = longToken.safeParse(await graphCall(options, url.toString()));
  if (!parsed.success) throw new InstagramError("invalid_answer", "The token exchange answered no token.", false, 200);
  return { accessToken: parsed.data.access_token, expiresAt: at + parsed.data.expires_in * 1000 };
}

/**
 * Refreshes a 60-day token (`GET /refresh_access_token?grant_type=ig_refresh_token`): only a token
 * at least 24 h old and not expired; the answer is valid 60 days from now.
 */
export async function refreshLongLivedToken(options: InstagramGraphOptions, token: string, at = Date.now()): Promise<LongLivedToken> {
  const url = new URL(`${graphOrigin(options)}/refresh_access_token`);
  url.searchParams.set("grant_type", "ig_refresh_token");
  url.searchParams.set("access_token", token);
  const parsed = longToken.safeParse(await graphCall(options, url.toString()));
  if (!parsed.success) throw new InstagramError("invalid_answer", "The token refresh answered no token.", false, 200);
  return { accessToken: parsed.data.access_token, expiresAt: at + parsed.data.expires_in * 1000 };
}

const accountAnswer = z.object({
  user_id: z.union([z.string(), z.number()]).optional(),
  id: z.union([z.string(), z.number()]).optional(),
  username: z.string().optional(),
  profile_picture_url: z.string().optional(),
});

/** The professional account: `user_id` (the webhooks' `entry[].id`), username and picture. */
export type InstagramAccount = { igUserId: string; username: string; pictureUrl: string | null };

/** `GET {graph}/me?fields=user_id,username,profile_picture_url`. */
export async function readAccount(options: InstagramGraphOptions, token: string): Promise<InstagramAccount> {
  const json = await graphCall(options, `${options.graphUrl}/me?fields=user_id,username,profile_picture_url`, { headers: { Authorization: `Bearer ${token}` } });
  const parsed = accountAnswer.safeParse(json);
  const igUserId = parsed.success ? String(parsed.data.user_id ?? parsed.data.id ?? "") : "";
  if (!parsed.success || !igUserId) throw new InstagramError("invalid_answer", "Instagram did not name the account.", false, 200);
  return { igUserId, username: parsed.data.username ?? "", pictureUrl: parsed.data.profile_picture_url ?? null };
}

/** Subscribes the account to the webhook fields (`POST {graph}/{ig-user-id}/subscribed_apps`). */
export async function subscribeAccount(options: InstagramGraphOptions, igUserId: string, token: string): Promise<void> {
  const url = `${options.graphUrl}/${encodeURIComponent(igUserId)}/subscribed_apps?subscribed_fields=${INSTAGRAM_SUBSCRIBED_FIELDS.join(",")}`;
  await graphCall(options, url, { method: "POST", headers: { Authorization: `Bearer ${token}` } });
}

const profileAnswer = z.object({ name: z.string().optional(), username: z.string().optional(), profile_pic: z.string().optional() });

/** A contact's profile: `GET {graph}/{igsid}?fields=name,username,profile_pic`. */
export async function readProfile(options: InstagramGraphOptions, igsid: string, token: string): Promise<{ name: string | null; username: string | null; pictureUrl: string | null }> {
  const json = await graphCall(options, `${options.graphUrl}/${encodeURIComponent(igsid)}?fields=name,username,profile_pic`, { headers: { Authorization: `Bearer ${token}` } });
  const parsed = profileAnswer.safeParse(json);
  if (!parsed.success) return { name: null, username: null, pictureUrl: null };
  return { name: parsed.data.name?.trim() || null, username: parsed.data.username?.trim() || null, pictureUrl: parsed.data.profile_pic ?? null };
}

/**
 * A private reply to a comment: `POST {graph}/{ig-user-id}/messages {recipient: {comment_id},
 * message: {text}}` (one per comment, within 7 days of it). Answers Meta's message id.
 */
export async function sendPrivateReply(options: InstagramGraphOptions, igUserId: string, token: string, commentId: string, text: string): Promise<string> {
  const json = await graphCall(options, `${options.graphUrl}/${encodeURIComponent(igUserId)}/messages`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ recipient: { comment_id: commentId }, message: { text: text.slice(0, 1000) } }),
  });
  const parsed = z.object({ message_id: z.string() }).safeParse(json);
  return parsed.success ? parsed.data.message_id : "";
}

/** A public reply under a top-level comment: `POST {graph}/{comment-id}/replies?message=…`; answers the new comment's id. */
export async function sendPublicReply(options: InstagramGraphOptions, token: string, commentId: string, text: string): Promise<string> {
  const url = new URL(`${options.graphUrl}/${encodeURIComponent(commentId)}/replies`);
  url.searchParams.set("message", text.slice(0, 2200));
  const json = await graphCall(options, url.toString(), { method: "POST", headers: { Authorization: `Bearer ${token}` } });
  const parsed = z.object({ id: z.string() }).safeParse(json);
  return parsed.success ? parsed.data.id : "";
}
