/**
 * Helpers of the Instagram tests (issue 15): webhook payloads of Meta's documented shapes
 * (shared/reference/wire-formats.md "Instagram"), signed deliveries, an Instagram connection made
 * straight in D1 (for tests that are not about the login), and the stand-in's records.
 */
import { env } from "cloudflare:test";
import { connections, instagramAccounts } from "../../schema";
import { getDb } from "../lib/db";
import { signHub } from "../lib/hmac";
import { newId } from "../lib/ids";
import { encryptSecret } from "../lib/secrets";
import { call } from "../test/helpers";
import { secretsKey } from ".";

let counter = 0;

/** A unique numeric id (IG user ids, IGSIDs, comment and media ids are digit strings). */
export function igId(prefix = "1784"): string {
  counter += 1;
  return `${prefix}${Date.now()}${String(counter).padStart(3, "0")}${Math.floor(Math.random() * 1000)}`;
}

/** A unique message id shaped like Instagram's. */
export function igMid(): string {
  counter += 1;
  return `aWdfZAG1faXRlbToxOklHTWVzc2FnZAUlEOjE3ODQx${Date.now()}${counter}`;
}

/** `{object: "instagram", entry: [{id, time, messaging}]}`. */
export function messagingWebhook(igUserId: string, items: Record<string, unknown>[]) {
  return { object: "instagram", entry: [{ id: igUserId, time: Date.now(), messaging: items }] };
}

/** One messaging item from `igsid` to the account. */
export function fromCustomer(igUserId: string, igsid: string, fields: Record<string, unknown>) {
  return { sender: { id: igsid }, recipient: { id: igUserId }, timestamp: Date.now(), ...fields };
}

/** A `comments` change. */
export function commentWebhook(igUserId: string, comment: { id: string; fromId: string; username?: string; text: string; mediaId?: string; parentId?: string }) {
  return {
    object: "instagram",
    entry: [
      {
        id: igUserId,
        time: Math.floor(Date.now() / 1000),
        changes: [
          {
            field: "comments",
            value: {
              from: { id: comment.fromId, username: comment.username ?? "cliente" },
              media: { id: comment.mediaId ?? "17900000000000001", media_product_type: "FEED" },
              id: comment.id,
              ...(comment.parentId ? { parent_id: comment.parentId } : {}),
              text: comment.text,
            },
          },
        ],
      },
    ],
  };
}

/** POSTs `payload` to the Instagram webhook signed with `secret` (the app secret by default). */
export async function deliverInstagram(payload: unknown, secret = env.INSTAGRAM_APP_SECRET): Promise<Response> {
  const raw = JSON.stringify(payload);
  return call("POST", "/api/channels/instagram/webhook", { body: raw, headers: { "X-Hub-Signature-256": await signHub(secret, raw) } });
}

/** An Instagram connection of `companyId` for account `igUserId`, written straight to D1. */
export async function instagramConnection(companyId: string, igUserId = igId(), options: { token?: string; expiresAt?: number; refreshedAt?: number } = {}) {
  const db = getDb(env.DB);
  const id = newId();
  const at = Date.now();
  const token = options.token ?? `IGQWtest${id.replace(/-/g, "")}`;
  await db.insert(connections).values({
    id,
    companyId,
    name: `Instagram ${igUserId}`,
    channel: "instagram",
    status: "CONNECTED",
    accessTokenEnc: await encryptSecret(secretsKey(env), token),
    accessTokenHint: token.slice(-4),
    createdAt: at,
    updatedAt: at,
  });
  await db.insert(instagramAccounts).values({
    connectionId: id,
    companyId,
    igUserId,
    username: "loja",
    pictureUrl: null,
    tokenExpiresAt: options.expiresAt ?? at + 60 * 24 * 3600 * 1000,
    tokenRefreshedAt: options.refreshedAt ?? at,
    createdAt: at,
    updatedAt: at,
  });
  return { id, igUserId, token };
}

/** A request the Instagram stand-in recorded. */
export type IgRecord = { method: string; path: string; query: Record<string, string>; authorization: string | null; body: Record<string, unknown> | null; at: number };

/** Everything the Instagram stand-in recorded (every test file's; filter by account or comment). */
export async function igSent(): Promise<IgRecord[]> {
  return (await (await fetch(`${env.INSTAGRAM_STANDIN_ORIGIN}/__sent`)).json()) as IgRecord[];
}

/** The sends to `/{igUserId}/messages` (sender actions excluded). */
export async function igMessagesOf(igUserId: string): Promise<IgRecord[]> {
  return (await igSent()).filter((r) => r.method === "POST" && r.path.endsWith(`/${igUserId}/messages`) && r.body !== null && !("sender_action" in r.body));
}

/** Registers a CDN file at the stand-in; answers its URL. */
export async function igMedia(name: string, mime: string, bytes: Uint8Array): Promise<string> {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  const res = await fetch(`${env.INSTAGRAM_STANDIN_ORIGIN}/__media`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name, mime, base64: btoa(binary) }) });
  return ((await res.json()) as { url: string }).url;
}

/** Makes the stand-in's next `times` sends or replies whose path contains `match` (an account or comment id) fail. */
export async function igFail(match: string, times: number, status: number, code: number, message = "failure"): Promise<void> {
  await fetch(`${env.INSTAGRAM_STANDIN_ORIGIN}/__fail`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ match, times, status, code, message }) });
}
