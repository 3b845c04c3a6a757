/**
 * Inbound webhooks (issue 11; spec §2 Webhooks, §3 Webhook, §4 Webhook mode): a company's secret
 * URLs that create or update a contact from a received request and run ordered actions.
 *
 * - `webhooks`: name, mode, the secret token of its URL (kept to show the URL again; looked up by
 *   its SHA-256 and then compared in constant time), the phone/name/e-mail mapping, the actions,
 *   the per-minute spam limit and when a burst last switched it to test mode.
 * - `webhook_requests`: every request received (kept headers, parsed body, time), its state and
 *   what it did.
 * - `webhook_request_actions`: per-action done markers of a request, written in the same D1 batch
 *   as the action's own writes, so a redelivered queue message never runs an action twice.
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "./columns";
import {
  WEBHOOK_ACTION_TYPES,
  WEBHOOK_MODES,
  WEBHOOK_REQUEST_STATES,
  type WebhookAction,
  type WebhookMapping,
  type WebhookRequestResult,
} from "./validation/webhooks";

export const webhooks = sqliteTable(
  "webhooks",
  {
    id: id(),
    companyId: text("company_id").notNull(),
    name: text("name").notNull(),
    mode: text("mode", { enum: WEBHOOK_MODES }).notNull().default("test"),
    /** The URL's secret (base64url, 32 random bytes). */
    token: text("token").notNull(),
    /** SHA-256 hex of `token`: the lookup key of POST /api/hooks/{token}. */
    tokenHash: text("token_hash").notNull(),
    mapping: text("mapping", { mode: "json" }).$type<WebhookMapping>().notNull(),
    actions: text("actions", { mode: "json" }).$type<WebhookAction[]>().notNull(),
    /** Requests per minute above which the webhook falls back to test mode (spec §4). */
    spamLimit: integer("spam_limit").notNull().default(60),
    /** When a burst switched it to test mode (ms UTC); cleared when it is set to production again. */
    spamAt: integer("spam_at"),
    lastRequestAt: integer("last_request_at"),
    ...timestamps,
  },
  (t) => [
    // The hook route finds its webhook by the token's hash.
    uniqueIndex("webhooks_token_hash_uq").on(t.tokenHash),
    // Names are unique in the company, ignoring case (409 name_in_use), and the list is by name.
    uniqueIndex("webhooks_company_name_uq").on(t.companyId, sql`lower(${t.name})`),
  ],
);

export type WebhookRow = typeof webhooks.$inferSelect;

export const webhookRequests = sqliteTable(
  "webhook_requests",
  {
    id: id(),
    companyId: text("company_id").notNull(),
    webhookId: text("webhook_id").notNull(),
    state: text("state", { enum: WEBHOOK_REQUEST_STATES }).notNull(),
    contentType: text("content_type").notNull().default(""),
    /** Kept headers (JSON object of strings). */
    headers: text("headers", { mode: "json" }).$type<Record<string, string>>().notNull(),
    /** The parsed body (JSON text). */
    body: text("body").notNull(),
    receivedAt: integer("received_at").notNull(),
    processedAt: integer("processed_at"),
    /** Why it failed (or the last error of a retried attempt). */
    error: text("error"),
    result: text("result", { mode: "json" }).$type<WebhookRequestResult>(),
  },
  (t) => [
    // The requests list (newest first) and the per-minute spam count both read a webhook's requests by time.
    index("webhook_requests_webhook_idx").on(t.webhookId, t.receivedAt, t.id),
    // Removing a company's data finds its requests.
    index("webhook_requests_company_idx").on(t.companyId, t.receivedAt),
  ],
);

export type WebhookRequestRow = typeof webhookRequests.$inferSelect;

export const webhookRequestActions = sqliteTable(
  "webhook_request_actions",
  {
    requestId: text("request_id").notNull(),
    actionIndex: integer("action_index").notNull(),
    companyId: text("company_id").notNull(),
    type: text("type", { enum: WEBHOOK_ACTION_TYPES }).notNull(),
    status: text("status", { enum: ["done", "skipped", "failed"] }).notNull(),
    detail: text("detail"),
    at: integer("at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.requestId, t.actionIndex] })],
);

export type WebhookRequestActionRow = typeof webhookRequestActions.$inferSelect;
