/**
 * Outbound event subscriptions (issue 11 "Outbound event webhooks"): a company's HTTPS receivers of
 * its events (`message.received`, `message.sent`, `ticket.created`, `ticket.closed`,
 * `contact.created`, `broadcast.finished`), each delivery signed with the subscription's secret
 * (`X-Conversa-Signature: sha256=<hex HMAC-SHA256 of the body>`), and every attempt logged.
 *
 * - `event_subscriptions`: the receiver URL, the events it takes, its signing secret (encrypted at
 *   rest with worker/lib/secrets.ts; shown once when created).
 * - `event_deliveries`: one event to one subscription: the exact JSON body sent (so a retry signs
 *   and sends the same bytes), its state and the number of attempts.
 * - `event_delivery_attempts`: one row per HTTP attempt (status code or network error, duration).
 */
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { id } from "./columns";
import type { EventType } from "./validation/event-subscriptions";

export const eventSubscriptions = sqliteTable(
  "event_subscriptions",
  {
    id: id(),
    companyId: text("company_id").notNull(),
    /** The receiver: a public https (or http) URL, checked by the integration block's guard. */
    url: text("url").notNull(),
    events: text("events", { mode: "json" }).$type<EventType[]>().notNull(),
    /** The signing secret, encrypted (`v2:` + base64, worker/lib/secrets.ts). */
    secretEnc: text("secret_enc").notNull(),
    /** Last four characters of the secret, for the masked display. */
    secretHint: text("secret_hint").notNull(),
    /** members.id of the member who created it. */
    createdByMemberId: text("created_by_member_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  // Every emitted event reads the company's subscriptions.
  (t) => [index("event_subscriptions_company_idx").on(t.companyId, t.createdAt)],
);

export type EventSubscriptionRow = typeof eventSubscriptions.$inferSelect;

export const eventDeliveries = sqliteTable(
  "event_deliveries",
  {
    id: id(),
    companyId: text("company_id").notNull(),
    subscriptionId: text("subscription_id").notNull(),
    /** The event's id (`X-Conversa-Event-Id`), shared by its deliveries to several subscriptions. */
    eventId: text("event_id").notNull(),
    eventType: text("event_type").$type<EventType>().notNull(),
    /** The JSON body, as signed and sent on every attempt. */
    body: text("body").notNull(),
    /** `pending` (queued or retrying), `delivered` (a 2xx), `failed` (attempts exhausted or refused). */
    status: text("status", { enum: ["pending", "delivered", "failed"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    /** Why the last attempt failed (`http_500`, `network_error`, `private_address` …), or null. */
    lastError: text("last_error"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  // A subscription's recent deliveries, newest first.
  (t) => [index("event_deliveries_subscription_idx").on(t.companyId, t.subscriptionId, t.createdAt)],
);

export type EventDeliveryRow = typeof eventDeliveries.$inferSelect;

export const eventDeliveryAttempts = sqliteTable(
  "event_delivery_attempts",
  {
    id: id(),
    companyId: text("company_id").notNull(),
    deliveryId: text("delivery_id").notNull(),
    /** 1 for the first attempt. */
    attempt: integer("attempt").notNull(),
    /** The receiver's HTTP status, or null when none answered. */
    statusCode: integer("status_code"),
    /** Why it failed, or null on a 2xx. */
    error: text("error"),
    durationMs: integer("duration_ms").notNull(),
    at: integer("at").notNull(),
  },
  // A delivery's attempts in order.
  (t) => [index("event_delivery_attempts_delivery_idx").on(t.deliveryId, t.attempt)],
);

export type EventDeliveryAttemptRow = typeof eventDeliveryAttempts.$inferSelect;
