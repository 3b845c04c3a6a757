/**
 * Outbound event subscriptions (issue 11 "Outbound event webhooks"): the create input shared by the
 * worker and the Settings → Integration form, and the answer shapes.
 *
 * Reason codes in `error.fields`: `required`, `invalid_url`, `too_long`, `not_http` (scheme other
 * than http/https), `credentials` (user:password in the URL), `local_name` (localhost, *.local,
 * *.internal, single-label names), `private_address` (private, loopback, link-local … literals)
 * (url); `events_required` (empty), `invalid_event`, `duplicate_event` (events).
 */
import { z } from "zod";

/** The events a subscription may take, as sent in the body's `type`. */
export const EVENT_TYPES = ["message.received", "message.sent", "ticket.created", "ticket.closed", "contact.created", "broadcast.finished"] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Most subscriptions a company may hold. */
export const MAX_EVENT_SUBSCRIPTIONS = 20;

/** POST /api/event-subscriptions `{url, events}`. The URL's address is checked again by the worker's guard. */
export const eventSubscriptionInput = z.object({
  url: z
    .string({ error: "required" })
    .trim()
    .max(2048, { error: "too_long" })
    .refine((value) => URL.canParse(value), { error: "invalid_url" }),
  events: z
    .array(z.enum(EVENT_TYPES, { error: "invalid_event" }), { error: "events_required" })
    .min(1, { error: "events_required" })
    .refine((list) => new Set(list).size === list.length, { error: "duplicate_event" }),
});
export type EventSubscriptionInput = z.infer<typeof eventSubscriptionInput>;

/** One subscription as listed (never its secret). Times in ms UTC. */
export type EventSubscriptionAnswer = {
  id: string;
  url: string;
  events: EventType[];
  /** The secret masked to its last four characters (`••••••••abcd`). */
  secretHint: string;
  createdAt: number;
  /** The latest delivery's state, or null before the first one. */
  lastDelivery: { status: EventDeliveryStatus; at: number } | null;
};

/** POST /api/event-subscriptions → 201: the listed shape plus the signing secret, shown this once. */
export type EventSubscriptionCreatedAnswer = EventSubscriptionAnswer & { secret: string };

export type EventDeliveryStatus = "pending" | "delivered" | "failed";

/** One delivery with its attempts (GET /api/event-subscriptions/{id}/deliveries). */
export type EventDeliveryAnswer = {
  id: string;
  eventId: string;
  eventType: EventType;
  status: EventDeliveryStatus;
  attempts: { attempt: number; statusCode: number | null; error: string | null; durationMs: number; at: number }[];
  lastError: string | null;
  createdAt: number;
  updatedAt: number;
};

/** The body every receiver gets: `{id, type, createdAt, companyId, data}` (createdAt ms UTC). */
export type EventEnvelope = { id: string; type: EventType; createdAt: number; companyId: string; data: Record<string, unknown> };
