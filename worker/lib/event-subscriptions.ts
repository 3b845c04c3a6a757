/**
 * Outbound event subscriptions (issue 11 "Outbound event webhooks"; Chatwoot-style helpdesk
 * webhooks): a company registers HTTPS receivers for its events, and each event is POSTed to them
 * as JSON through the `event-deliveries` queue.
 *
 * - `emitEvent(env, companyId, type, data)` is called where the thing happens (a customer's message
 *   stored, a company message sent, a ticket created or closed, a contact created, a broadcast
 *   finished). It stores one delivery per matching subscription and enqueues it; it never throws
 *   (an event subscription must never break the conversation that emitted it).
 * - `deliverEvent` (the queue consumer's handler) sends one delivery: body `EventEnvelope`, headers
 *   `X-Conversa-Signature: sha256=<hex HMAC-SHA256 of the raw body, keyed with the subscription's
 *   secret>` (the same construction as Meta's X-Hub-Signature-256, worker/lib/hmac.ts),
 *   `X-Conversa-Event`, `X-Conversa-Event-Id` (the same for every subscription and retry: receivers
 *   deduplicate on it), `X-Conversa-Delivery`. A 2xx answer delivers it; anything else is logged as
 *   an attempt and retried with backoff by the queue, up to MAX_DELIVERY_ATTEMPTS, then failed.
 * - Receivers must be public addresses: the integration block's guard (worker/flows/url-guard.ts)
 *   refuses private, loopback, link-local and local names when the subscription is created AND
 *   again before each attempt; redirects are never followed (an answer, logged as such).
 *
 * The secret is `cvs_` + 32 random bytes (base64url), stored encrypted (worker/lib/secrets.ts) and
 * shown once, when the subscription is created.
 */
import { and, desc, eq, inArray } from "drizzle-orm";
import { eventDeliveries, eventDeliveryAttempts, eventSubscriptions, type EventDeliveryRow, type EventSubscriptionRow } from "../../schema";
import {
  MAX_EVENT_SUBSCRIPTIONS,
  type EventDeliveryAnswer,
  type EventEnvelope,
  type EventSubscriptionAnswer,
  type EventSubscriptionCreatedAnswer,
  type EventSubscriptionInput,
  type EventType,
} from "../../schema/validation/event-subscriptions";
import type { AppEnv } from "../env";
import { checkPublicHttpUrl } from "../flows/url-guard";
import { randomToken } from "./crypto";
import { getDb, now, type Db } from "./db";
import { AppError, notFound } from "./errors";
import { signHub } from "./hmac";
import { newId } from "./ids";
import { encryptionSecret } from "./keys";
import { decryptSecret, encryptSecret } from "./secrets";

/** Prefix of every signing secret. */
export const EVENT_SECRET_PREFIX = "cvs_";
/** Attempts per delivery before it is marked failed (the queue's max_retries + 1, wrangler.toml). */
export const MAX_DELIVERY_ATTEMPTS = 8;
/** How long one attempt may take (ms) before it counts as a timeout. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Deliveries listed per subscription (the newest). */
export const DELIVERIES_LISTED = 50;

/** The queue message of one delivery (`event-deliveries`). */
export type EventDeliveryMessage = { type: "event.deliver"; deliveryId: string; companyId: string };

/**
 * Delay before attempt `attempts + 1` after `attempts` failed ones (s): 30 s, 1 min, 2 min … capped at
 * 1 hour, so 8 attempts span about 2 hours.
 */
export function deliveryBackoffSeconds(attempts: number): number {
  return Math.min(3600, 30 * 2 ** Math.max(0, attempts - 1));
}

/**
 * Why `url` cannot receive events, as a field reason, or null when it can: https only, and a public
 * address by the integration block's guard (`not_http`, `credentials`, `local_name`,
 * `private_address`, `invalid_url`).
 */
export function receiverUrlProblem(url: string): string | null {
  const checked = checkPublicHttpUrl(url);
  if (!checked.ok) return checked.reason;
  if (checked.url.protocol !== "https:") return "https_required";
  return null;
}

function present(row: EventSubscriptionRow, last: Pick<EventDeliveryRow, "status" | "updatedAt"> | undefined): EventSubscriptionAnswer {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    secretHint: `••••••••${row.secretHint}`,
    createdAt: row.createdAt,
    lastDelivery: last ? { status: last.status, at: last.updatedAt } : null,
  };
}

/** The company's subscriptions, newest first, each with its latest delivery's state. */
export async function listEventSubscriptions(db: Db, companyId: string): Promise<EventSubscriptionAnswer[]> {
  const rows = await db.select().from(eventSubscriptions).where(eq(eventSubscriptions.companyId, companyId)).orderBy(desc(eventSubscriptions.createdAt));
  return Promise.all(
    rows.map(async (row) => {
      const last = await db.query.eventDeliveries.findFirst({
        where: and(eq(eventDeliveries.companyId, companyId), eq(eventDeliveries.subscriptionId, row.id)),
        orderBy: desc(eventDeliveries.createdAt),
        columns: { status: true, updatedAt: true },
      });
      return present(row, last);
    }),
  );
}

/**
 * Creates a subscription for `companyId` by member `memberId`; answers it with its secret, shown this
 * once. 400 naming `url` when the guard refuses the address; 409 `conflict` beyond
 * MAX_EVENT_SUBSCRIPTIONS.
 */
export async function createEventSubscription(env: AppEnv, db: Db, companyId: string, memberId: string, input: EventSubscriptionInput): Promise<EventSubscriptionCreatedAnswer> {
  const problem = receiverUrlProblem(input.url);
  if (problem) throw new AppError("validation_failed", "Invalid input: url.", { url: problem });
  const held = await db.select({ id: eventSubscriptions.id }).from(eventSubscriptions).where(eq(eventSubscriptions.companyId, companyId));
  if (held.length >= MAX_EVENT_SUBSCRIPTIONS) throw new AppError("conflict", `A company may hold at most ${MAX_EVENT_SUBSCRIPTIONS} event subscriptions.`);
  const secret = `${EVENT_SECRET_PREFIX}${randomToken(32)}`;
  const row: EventSubscriptionRow = {
    id: newId(),
    companyId,
    url: input.url,
    events: input.events,
    secretEnc: await encryptSecret(encryptionSecret(env), secret),
    secretHint: secret.slice(-4),
    createdByMemberId: memberId,
    createdAt: now(),
  };
  await db.insert(eventSubscriptions).values(row);
  return { ...present(row, undefined), secret };
}

/** The subscription `id` of `companyId`; 404 for another company's or none. */
export async function findEventSubscription(db: Db, companyId: string, id: string): Promise<EventSubscriptionRow> {
  const row = await db.query.eventSubscriptions.findFirst({ where: and(eq(eventSubscriptions.id, id), eq(eventSubscriptions.companyId, companyId)) });
  if (!row) throw notFound("Event subscription");
  return row;
}

/** Deletes subscription `id` with its deliveries and their attempts; 404 for another company's or none. */
export async function deleteEventSubscription(db: Db, companyId: string, id: string): Promise<void> {
  const row = await findEventSubscription(db, companyId, id);
  const deliveries = await db.select({ id: eventDeliveries.id }).from(eventDeliveries).where(and(eq(eventDeliveries.companyId, companyId), eq(eventDeliveries.subscriptionId, row.id)));
  const ids = deliveries.map((d) => d.id);
  await db.batch([
    db.delete(eventSubscriptions).where(and(eq(eventSubscriptions.id, row.id), eq(eventSubscriptions.companyId, companyId))),
    db.delete(eventDeliveries).where(and(eq(eventDeliveries.companyId, companyId), eq(eventDeliveries.subscriptionId, row.id))),
    ...chunks(ids, 90).map((part) => db.delete(eventDeliveryAttempts).where(and(eq(eventDeliveryAttempts.companyId, companyId), inArray(eventDeliveryAttempts.deliveryId, part)))),
  ]);
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The subscription's latest DELIVERIES_LISTED deliveries, newest first, each with its attempts in order. */
export async function listDeliveries(db: Db, companyId: string, subscriptionId: string): Promise<EventDeliveryAnswer[]> {
  const row = await findEventSubscription(db, companyId, subscriptionId);
  const deliveries = await db
    .select()
    .from(eventDeliveries)
    .where(and(eq(eventDeliveries.companyId, companyId), eq(eventDeliveries.subscriptionId, row.id)))
    .orderBy(desc(eventDeliveries.createdAt), desc(eventDeliveries.id))
    .limit(DELIVERIES_LISTED);
  const attempts = new Map<string, EventDeliveryAnswer["attempts"]>();
  for (const part of chunks(deliveries.map((d) => d.id), 90)) {
    const rows = await db
      .select()
      .from(eventDeliveryAttempts)
      .where(and(eq(eventDeliveryAttempts.companyId, companyId), inArray(eventDeliveryAttempts.deliveryId, part)))
      .orderBy(eventDeliveryAttempts.attempt);
    for (const a of rows) {
      const list = attempts.get(a.deliveryId) ?? [];
      list.push({ attempt: a.attempt, statusCode: a.statusCode, error: a.error, durationMs: a.durationMs, at: a.at });
      attempts.set(a.deliveryId, list);
    }
  }
  return deliveries.map((d) => ({
    id: d.id,
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status,
    attempts: attempts.get(d.id) ?? [],
    lastError: d.lastError,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
  }));
}

/** The company's event subscriptions (id and events): what `emitEvent` reads; a query the inbound path may batch. */
export function subscriptionsQuery(db: ReturnType<typeof getDb>, companyId: string) {
  return db.select({ id: eventSubscriptions.id, events: eventSubscriptions.events }).from(eventSubscriptions).where(eq(eventSubscriptions.companyId, companyId));
}

/**
 * Emits event `type` of `companyId` with `data` (a JSON object: ids and the fields a receiver needs)
 * to every subscription of the company that takes it: one stored delivery each, enqueued on
 * `event-deliveries`. Answers the event id, or null when no subscription takes it. Never throws: a
 * failure is logged and the caller goes on.
 */
export async function emitEvent(
  env: AppEnv,
  companyId: string,
  type: EventType,
  data: Record<string, unknown>,
  /** `subscriptionsQuery`'s rows when the caller read them already (the inbound path's one batch, issue 16). */
  preloaded?: { id: string; events: EventType[] }[],
): Promise<string | null> {
  try {
    const db = getDb(env.DB);
    const subscriptions = preloaded ?? (await subscriptionsQuery(db, companyId));
    const targets = subscriptions.filter((s) => s.events.includes(type));
    if (!targets.length) return null;
    const at = now();
    const envelope: EventEnvelope = { id: newId(), type, createdAt: at, companyId, data };
    const body = JSON.stringify(envelope);
    const rows: EventDeliveryRow[] = targets.map((s) => ({
      id: newId(),
      companyId,
      subscriptionId: s.id,
      eventId: envelope.id,
      eventType: type,
      body,
      status: "pending",
      attempts: 0,
      lastError: null,
      createdAt: at,
      updatedAt: at,
    }));
    for (const part of chunks(rows, 8)) await db.insert(eventDeliveries).values(part);
    await env.EVENT_DELIVERIES.sendBatch(
      rows.map((r) => ({ body: { type: "event.deliver", deliveryId: r.id, companyId } satisfies EventDeliveryMessage, contentType: "json" as const })),
    );
    return envelope.id;
  } catch (error) {
    console.error(`[events] ${type} of company ${companyId} not emitted`, error);
    return null;
  }
}

/** What one attempt came to: delivered, to be retried (after `delaySeconds`), or settled as failed. */
export type DeliveryOutcome = { result: "delivered" } | { result: "retry"; delaySeconds: number } | { result: "failed"; reason: string } | { result: "skipped" };

/**
 * Performs the next attempt of delivery `deliveryId` (numbered from the delivery's own count, so a
 * queue redelivery after a crash is numbered right): re-checks the receiver's address, signs the stored body, POSTs it (DELIVERY_TIMEOUT_MS, redirects
 * not followed) and logs the attempt. A delivery already delivered or failed is skipped (the queue
 * is at least once), as is one whose subscription was deleted. The last allowed attempt that fails
 * marks the delivery failed; an address the guard refuses fails at once, never retried.
 */
export async function deliverEvent(env: AppEnv, message: EventDeliveryMessage): Promise<DeliveryOutcome> {
  const db = getDb(env.DB);
  const delivery = await db.query.eventDeliveries.findFirst({ where: and(eq(eventDeliveries.id, message.deliveryId), eq(eventDeliveries.companyId, message.companyId)) });
  if (!delivery || delivery.status !== "pending") return { result: "skipped" };
  const subscription = await db.query.eventSubscriptions.findFirst({
    where: and(eq(eventSubscriptions.id, delivery.subscriptionId), eq(eventSubscriptions.companyId, delivery.companyId)),
  });
  if (!subscription) return { result: "skipped" };
  const number = delivery.attempts + 1;
  const started = Date.now();
  let statusCode: number | null = null;
  let error: string | null = null;
  const problem = receiverUrlProblem(subscription.url);
  if (problem) error = problem;
  else {
    try {
      const secret = await decryptSecret(encryptionSecret(env), subscription.secretEnc);
      const response = await fetch(subscription.url, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "User-Agent": "Conversa-Events/1",
          "X-Conversa-Event": delivery.eventType,
          "X-Conversa-Event-Id": delivery.eventId,
          "X-Conversa-Delivery": delivery.id,
          "X-Conversa-Signature": await signHub(secret, delivery.body),
        },
        body: delivery.body,
        redirect: "manual",
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      });
      statusCode = response.status;
      await response.body?.cancel();
      if (response.status < 200 || response.status > 299) error = `http_${response.status}`;
    } catch (cause) {
      error = cause instanceof DOMException && cause.name === "TimeoutError" ? "timeout" : "network_error";
    }
  }
  const at = Date.now();
  const settled = error === null ? "delivered" : problem || number >= MAX_DELIVERY_ATTEMPTS ? "failed" : "pending";
  await db.batch([
    db.insert(eventDeliveryAttempts).values({ id: newId(), companyId: delivery.companyId, deliveryId: delivery.id, attempt: number, statusCode, error, durationMs: at - started, at }),
    db
      .update(eventDeliveries)
      .set({ attempts: number, status: settled, lastError: error, updatedAt: at })
      .where(and(eq(eventDeliveries.id, delivery.id), eq(eventDeliveries.companyId, delivery.companyId))),
  ]);
  if (settled === "delivered") return { result: "delivered" };
  if (settled === "failed") return { result: "failed", reason: error ?? "failed" };
  return { result: "retry", delaySeconds: deliveryBackoffSeconds(number) };
}

/**
 * The dead-letter handler: a delivery whose messages exhausted the queue's retries (the consumer
 * kept throwing, e.g. D1 unavailable) is marked failed with `retries_exhausted`.
 */
export async function failDelivery(env: AppEnv, message: EventDeliveryMessage): Promise<void> {
  const db = getDb(env.DB);
  await db
    .update(eventDeliveries)
    .set({ status: "failed", lastError: "retries_exhausted", updatedAt: now() })
    .where(and(eq(eventDeliveries.id, message.deliveryId), eq(eventDeliveries.companyId, message.companyId), eq(eventDeliveries.status, "pending")));
}
