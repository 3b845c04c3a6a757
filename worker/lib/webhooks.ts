/**
 * Inbound webhooks' data layer (issue 11; spec §3 Webhook, §4 Webhook mode, §5 Webhook phone
 * rules), shared by the routes (worker/routes/webhooks.ts, worker/routes/hooks.ts) and the
 * `webhook-events` consumer (worker/queues/webhook-events.ts):
 *
 * - the secret token of a webhook's URL (32 random bytes, base64url: 256 bits), found by its
 *   SHA-256 and then compared in constant time;
 * - answers (`presentWebhook`, `presentRequest`);
 * - which request headers are kept (never cookies or credentials);
 * - the phone rule of spec §5;
 * - storing a received request with the spam rule of spec §4 in one statement, the automatic
 *   switch to test mode and the notification of the members who manage webhooks.
 *
 * Every function takes the company id (or reads it from the row it found) and filters on it.
 */
import { and, eq, inArray } from "drizzle-orm";
import { parsePhoneNumberFromString } from "libphonenumber-js/min";
import { companies, memberRoles, members, roles, webhookRequests, webhooks, type WebhookRequestRow, type WebhookRow } from "../../schema";
import type { WebhookAnswer, WebhookRequestAnswer, WebhookRequestState } from "../../schema/validation/webhooks";
import type { AppEnv } from "../env";
import { randomToken, sha256Hex, timingSafeEqual } from "./crypto";
import type { Db } from "./db";
import { AppError, notFound } from "./errors";
import { newId } from "./ids";
import { hubOf } from "./realtime";

/** Name of the queue carrying production requests (wrangler.toml). */
export const WEBHOOK_EVENTS_QUEUE = "webhook-events";
/** Its dead-letter queue. */
export const WEBHOOK_EVENTS_DLQ = "webhook-events-dlq";

/** The spam window of spec §4 (ms): requests are counted over the last minute. */
export const SPAM_WINDOW_MS = 60_000;

/** A new URL token: 32 random bytes as base64url (256 bits), and its SHA-256 (the lookup key). */
export async function newHookToken(): Promise<{ token: string; tokenHash: string }> {
  const token = randomToken(32);
  return { token, tokenHash: await sha256Hex(token) };
}

/** The public URL of a webhook: PUBLIC_URL + /api/hooks/{token}. */
export function hookUrl(env: Pick<AppEnv, "PUBLIC_URL">, token: string): string {
  return new URL(`/api/hooks/${token}`, env.PUBLIC_URL).toString();
}

/** A webhook as the API answers it. */
export function presentWebhook(env: Pick<AppEnv, "PUBLIC_URL">, row: WebhookRow): WebhookAnswer {
  return {
    id: row.id,
    name: row.name,
    mode: row.mode,
    url: hookUrl(env, row.token),
    mapping: row.mapping,
    actions: row.actions,
    spamLimit: row.spamLimit,
    spamAt: row.spamAt,
    lastRequestAt: row.lastRequestAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** A received request as the requests list shows it. */
export function presentRequest(row: WebhookRequestRow): WebhookRequestAnswer {
  let body: unknown = null;
  try {
    body = JSON.parse(row.body);
  } catch {
    body = row.body;
  }
  return {
    id: row.id,
    state: row.state,
    receivedAt: row.receivedAt,
    processedAt: row.processedAt,
    contentType: row.contentType,
    headers: row.headers,
    body,
    error: row.error,
    result: row.result,
  };
}

/** The company's webhook `id`, or 404. */
export async function findWebhook(db: Db, companyId: string, id: string): Promise<WebhookRow> {
  const row = await db.query.webhooks.findFirst({ where: and(eq(webhooks.id, id), eq(webhooks.companyId, companyId)) });
  if (!row) throw notFound("Webhook");
  return row;
}

/**
 * The webhook whose URL token is `token`, or null. Looked up by the token's SHA-256 (a lookup's
 * timing says nothing about the token itself), then the stored token is compared with the given one
 * in constant time.
 */
export async function webhookByToken(db: Db, token: string): Promise<WebhookRow | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const row = await db.query.webhooks.findFirst({ where: eq(webhooks.tokenHash, await sha256Hex(token)) });
  if (!row) return null;
  const encoder = new TextEncoder();
  return timingSafeEqual(encoder.encode(row.token), encoder.encode(token)) ? row : null;
}

/** Request headers kept with a request: what helps to tell senders apart, nothing that authenticates. */
const KEPT_HEADERS = [
  "content-type",
  "content-length",
  "user-agent",
  "x-forwarded-for",
  "x-real-ip",
  "cf-connecting-ip",
  "cf-ipcountry",
  "forwarded",
  "x-request-id",
  "x-shopify-topic",
  "x-shopify-shop-domain",
  "x-shopify-webhook-id",
  "x-wc-webhook-topic",
  "x-wc-webhook-source",
  "x-wc-webhook-event",
  "x-wc-webhook-resource",
  "x-hotmart-hottok-present",
];

/**
 * The headers kept with a request (KEPT_HEADERS, each value cut at 500 characters). Cookies,
 * Authorization and every signature or token header are never kept; Hotmart's `X-Hotmart-Hottok`
 * (a shared secret) is only noted as present.
 */
export function keptHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = headers.get(name);
    if (value !== null) out[name] = value.slice(0, 500);
  }
  if (headers.has("x-hotmart-hottok")) out["x-hotmart-hottok-present"] = "yes";
  return out;
}

/**
 * The phone rule of spec §5: country code + area code + number, every non-digit stripped, then
 * normalised to E.164 with libphonenumber. Brazil is the default country: a number written with
 * `+` is read as international; 10 or 11 digits that form a valid Brazilian number (area code +
 * number, how Brazilian stores send it) are Brazilian; otherwise the digits are read as country
 * code + number, and as a Brazilian national number last. Null when no reading is a valid number.
 */
export function webhookPhone(raw: string): string | null {
  const digits = raw.replace(/\D/g, "");
  if (digits.length < 8 || digits.length > 17) return null;
  const intl = () => {
    const parsed = parsePhoneNumberFromString(`+${digits}`);
    return parsed?.isValid() ? parsed.number : null;
  };
  const brazil = () => {
    const parsed = parsePhoneNumberFromString(digits, "BR");
    return parsed?.isValid() ? parsed.number : null;
  };
  if (raw.trim().startsWith("+")) return intl();
  if (digits.length === 10 || digits.length === 11) return brazil() ?? intl();
  return intl() ?? brazil();
}

/** What storing a received request decided. */
export type StoredRequest = { id: string; state: WebhookRequestState; switchedToTest: boolean };

/**
 * Stores a received request (kept headers, parsed body as JSON text, time) for `webhook` and answers
 * its state: `captured` in test mode, `pending` in production (the caller enqueues it), or `spam`
 * when the webhook already received `spamLimit` requests in the last minute (spec §4). The count and
 * the insert are ONE statement, so concurrent requests cannot both slip under the limit. A spam
 * request of a webhook in production switches it to test mode (once: `switchedToTest` is true for
 * the request that did it) and records when. `last_request_at` moves in the same batch.
 */
export async function storeRequest(
  db: Db,
  webhook: WebhookRow,
  input: { contentType: string; headers: Record<string, string>; body: string; at: number },
): Promise<StoredRequest> {
  const id = newId();
  const normal: WebhookRequestState = webhook.mode === "production" ? "pending" : "captured";
  const client = db.$client;
  const [inserted, , switched] = await client.batch([
    client
      .prepare(
        `INSERT INTO webhook_requests (id, company_id, webhook_id, state, content_type, headers, body, received_at)
         VALUES (?, ?, ?, CASE WHEN (SELECT count(*) FROM webhook_requests WHERE webhook_id = ? AND received_at > ?) >= ? THEN 'spam' ELSE ? END, ?, ?, ?, ?)
         RETURNING state`,
      )
      .bind(id, webhook.companyId, webhook.id, webhook.id, input.at - SPAM_WINDOW_MS, webhook.spamLimit, normal, input.contentType.slice(0, 200), JSON.stringify(input.headers), input.body, input.at),
    client.prepare("UPDATE webhooks SET last_request_at = max(coalesce(last_request_at, 0), ?) WHERE id = ? AND company_id = ?").bind(input.at, webhook.id, webhook.companyId),
    client
      .prepare("UPDATE webhooks SET mode = 'test', spam_at = ?, updated_at = ? WHERE id = ? AND company_id = ? AND mode = 'production' AND (SELECT state FROM webhook_requests WHERE id = ?) = 'spam' RETURNING id")
      .bind(input.at, input.at, webhook.id, webhook.companyId, id),
  ]);
  const state = (inserted?.results[0] as { state?: WebhookRequestState } | undefined)?.state ?? normal;
  return { id, state, switchedToTest: (switched?.results.length ?? 0) > 0 };
}

/** Member ids (members.id) of the company holding the `webhooks` permission (the Owner holds all). */
export async function webhookManagers(db: Db, companyId: string): Promise<string[]> {
  const company = await db.query.companies.findFirst({ where: eq(companies.id, companyId), columns: { ownerId: true } });
  const rows = await db
    .select({ memberId: members.id, userId: members.userId, permissions: roles.permissions, isOwner: roles.isOwner })
    .from(members)
    .leftJoin(memberRoles, and(eq(memberRoles.memberId, members.id), eq(memberRoles.companyId, companyId)))
    .leftJoin(roles, and(eq(roles.id, memberRoles.roleId), eq(roles.companyId, companyId)))
    .where(eq(members.companyId, companyId));
  const ids = new Set<string>();
  for (const row of rows) {
    if (row.userId === company?.ownerId || row.isOwner || row.permissions?.includes("webhooks")) ids.add(row.memberId);
  }
  return [...ids];
}

/**
 * Tells the members who manage webhooks that `webhook` was switched to test mode by a burst (spec
 * §4): a `notification` hub event (kind `webhook_spam`) sent only to them; the bell and a toast
 * show it, and the webhook keeps `spamAt` for its screens.
 */
export async function notifySpam(env: AppEnv, db: Db, webhook: Pick<WebhookRow, "id" | "companyId" | "name" | "spamLimit">): Promise<void> {
  const managers = await webhookManagers(db, webhook.companyId);
  if (!managers.length) return;
  await hubOf(env, webhook.companyId).publish(
    { type: "notification", notification: { id: newId(), kind: "webhook_spam", webhookId: webhook.id, webhookName: webhook.name, limit: webhook.spamLimit } },
    { members: managers },
  );
}

/** Marks requests failed with `reason` (company-scoped), unless already settled. */
export async function failRequests(db: Db, companyId: string, ids: string[], reason: string, at = Date.now()): Promise<void> {
  if (!ids.length) return;
  await db
    .update(webhookRequests)
    .set({ state: "failed", error: reason.slice(0, 1000), processedAt: at })
    .where(and(eq(webhookRequests.companyId, companyId), inArray(webhookRequests.id, ids), eq(webhookRequests.state, "pending")));
}

/** 400 naming `field` (for ids of the company that do not exist). */
export function invalidId(field: string, what: string): AppError {
  return new AppError("validation_failed", `${what} does not exist.`, { [field]: "invalid_id" });
}
