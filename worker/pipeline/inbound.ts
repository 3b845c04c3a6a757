/**
 * Inbound events after normalisation (DESIGN.md "The main job", steps 2-4): each batch is routed to
 * its connection; messages, reactions, edits, revokes and presence go to the contact's
 * ContactSession (which serialises and dedupes them); delivery statuses are applied forward-only and
 * fanned out by the ticket's room; connection-state changes update the connection. What cannot be
 * placed (a rejected event, a batch for an unknown number) is kept in rejected_events before the
 * provider is answered (issue 8 §7).
 *
 * Provider clocks are not trusted into the future: a timestamp more than FUTURE_SKEW_MS ahead of
 * the time of receipt is clamped to the time of receipt (issue 8 §6), so a wrong clock cannot pin a
 * message at the bottom of a conversation; the order stays (time, then arrival).
 */
import { and, eq, sql } from "drizzle-orm";
import { connections, type ConnectionRow } from "../../schema";
import type { AppEnv } from "../env";
import type { ContactEvent, InboundEvent, RoutedEvents } from "../channels/types";
import { getDb, prepared, type Db } from "../lib/db";
import { span } from "../lib/bench-trace";
import { contactSessionOf, roomOf } from "../lib/realtime";
import { setConnectionStatus, type RouteCheck } from "../lib/connections";
import { keepRejected } from "../lib/rejected-events";
import { applyStatus } from "./statuses";

export type IngestSummary = { stored: number; duplicates: number; statuses: number; ignored: number; rejected: number };

/** How far ahead of the time of receipt a provider timestamp may be (ms) before it is clamped. */
export const FUTURE_SKEW_MS = 5 * 60 * 1000;

/** A provider time (ms UTC), clamped to `receivedAt` when more than FUTURE_SKEW_MS ahead of it. */
export function clampTime(timestamp: number, receivedAt: number): number {
  return Number.isFinite(timestamp) && timestamp <= receivedAt + FUTURE_SKEW_MS ? timestamp : receivedAt;
}

/** The event with every provider time clamped (see clampTime). */
function clamped<E extends InboundEvent>(event: E, receivedAt: number): E {
  switch (event.kind) {
    case "message":
    case "status":
    case "revoke":
    case "reaction":
      return { ...event, timestamp: clampTime(event.timestamp, receivedAt) };
    case "edit":
      return { ...event, timestamp: clampTime(event.timestamp, receivedAt), message: { ...event.message, timestamp: clampTime(event.message.timestamp, receivedAt) } };
    default:
      return event;
  }
}

/**
 * Finds the connection an event batch belongs to (by Cloud API phone_number_id or by id). One
 * plain select prepared once per isolate (issue 16: was drizzle's relational `findFirst`, built
 * again for every webhook).
 */
export async function routeConnection(db: Db, route: RoutedEvents["route"], channel: ConnectionRow["channel"]): Promise<ConnectionRow | undefined> {
  if (!route.value) return undefined;
  const column = route.by === "phoneNumberId" ? connections.phoneNumberId : connections.id;
  const query = prepared(db, `route-connection.${route.by === "phoneNumberId" ? "phone" : "id"}`, () =>
    db
      .select()
      .from(connections)
      .where(and(eq(column, sql.placeholder("value")), eq(connections.channel, sql.placeholder("channel"))))
      .limit(1)
      .prepare(),
  );
  return (await query.execute({ value: route.value, channel }))[0];
}

const emptySummary = (): IngestSummary => ({ stored: 0, duplicates: 0, statuses: 0, ignored: 0, rejected: 0 });

/**
 * How long a routed connection row is reused by this isolate without a look-up of its own (ms).
 * The row is only a hint: the ContactSession re-reads the connection in the message's own read
 * batch and answers `stale` when it is gone or no longer has the route (issue 16), so the age only
 * bounds how long an unused entry is kept.
 */
export const ROUTE_CACHE_MS = 5 * 60 * 1000;
/** Most routes this isolate remembers (the oldest is dropped first). */
export const ROUTE_CACHE_SIZE = 1000;

/**
 * Connection rows by route (`channel|by|value`) with the time they were read (ms): the webhook of a
 * message skips its connection look-up, one of the inbound path's three D1 round trips (issue 16
 * "reads answered from the ContactSession": the session checks the row in the batch it makes
 * anyway, so a deleted, moved or re-numbered connection is never used).
 */
const routeCache = new Map<string, { row: ConnectionRow; at: number }>();

const routeKey = (channel: ConnectionRow["channel"], route: RoutedEvents["route"]) => `${channel}|${route.by}|${route.value}`;

/** Forgets every remembered route of this isolate (tests). */
export function forgetRoutes(): void {
  routeCache.clear();
}

function remember(channel: ConnectionRow["channel"], route: RoutedEvents["route"], row: ConnectionRow): void {
  const key = routeKey(channel, route);
  routeCache.delete(key);
  routeCache.set(key, { row, at: Date.now() });
  if (routeCache.size > ROUTE_CACHE_SIZE) routeCache.delete(routeCache.keys().next().value!);
}

function remembered(channel: ConnectionRow["channel"], route: RoutedEvents["route"]): ConnectionRow | undefined {
  const key = routeKey(channel, route);
  const hit = routeCache.get(key);
  if (!hit) return undefined;
  if (Date.now() - hit.at > ROUTE_CACHE_MS) {
    routeCache.delete(key);
    return undefined;
  }
  return hit.row;
}

/**
 * Handles one routed batch of a delivery: to its connection when one has the route; otherwise the
 * batch is kept as one rejected event (`unknown_phone_number_id`, no company), together with the
 * rejected events it already holds. Resolves only once everything is stored.
 */
export async function ingestBatch(env: AppEnv, db: Db, channel: ConnectionRow["channel"], batch: RoutedEvents, receivedAt = Date.now()): Promise<IngestSummary> {
  // A batch of messages only (the inbound hot path) may use the row this isolate remembers for its
  // route; each ContactSession checks it in its own read batch. Statuses, reactions, edits and the
  // rest are rarer and act before such a check, so they always look the connection up.
  const onlyMessages = batch.route.value !== "" && batch.events.length > 0 && batch.events.every((e) => e.kind === "message");
  const known = onlyMessages ? remembered(channel, batch.route) : undefined;
  if (known) {
    const summary = await ingestEvents(env, known, batch.events, receivedAt, batch.route);
    if (summary !== "stale") return summary;
    // The row changed since: look it up again and handle the batch with it. Messages stored by the
    // first pass (none, unless the connection changed during this very delivery) come back as duplicates.
    routeCache.delete(routeKey(channel, batch.route));
  }
  const connection = await routeConnection(db, batch.route, channel);
  if (connection) {
    remember(channel, batch.route, connection);
    return (await ingestEvents(env, connection, batch.events, receivedAt)) as IngestSummary;
  }
  const summary = emptySummary();
  const placeable = batch.events.filter((e) => e.kind !== "rejected");
  for (const event of batch.events) {
    if (event.kind !== "rejected") continue;
    await keepRejected(env, db, { companyId: null, connectionId: null, channel, reason: event.reason, detail: event.detail, payload: event.payload, receivedAt });
    summary.rejected += 1;
  }
  if (placeable.length > 0) {
    await keepRejected(env, db, {
      companyId: null,
      connectionId: null,
      channel,
      reason: "unknown_phone_number_id",
      detail: `No connection has the ${batch.route.by === "phoneNumberId" ? "phone number id" : "id"} ${batch.route.value}.`,
      payload: batch.raw ?? JSON.stringify(placeable),
      receivedAt,
    });
    summary.rejected += 1;
  }
  return summary;
}

/** The contact an event is about (the key of its ContactSession). */
function senderOf(event: ContactEvent): string {
  return event.from;
}

/**
 * Handles the events of one connection, in the order the provider listed them. With `check` (the
 * row came from this isolate's route memory, messages only) each ContactSession verifies the row
 * before acting on it; answers `stale` when one found it changed (nothing was stored for that
 * message: the caller looks the connection up and handles the batch again).
 */
export async function ingestEvents(env: AppEnv, connection: ConnectionRow, events: InboundEvent[], receivedAt: number, check: RouteCheck): Promise<IngestSummary | "stale">;
export async function ingestEvents(env: AppEnv, connection: ConnectionRow, events: InboundEvent[], receivedAt?: number): Promise<IngestSummary>;
export async function ingestEvents(env: AppEnv, connection: ConnectionRow, events: InboundEvent[], receivedAt = Date.now(), check?: RouteCheck): Promise<IngestSummary | "stale"> {
  const db = getDb(env.DB);
  const summary = emptySummary();
  // Messages of different contacts run concurrently; each contact's own events stay in order
  // because its ContactSession serialises them and they are sent to it in order.
  const byContact = new Map<string, ContactEvent[]>();
  for (const original of events) {
    const event = clamped(original, receivedAt);
    if (event.kind === "status") {
      const changed = await applyStatus(db, connection, event);
      if (changed) {
        summary.statuses += 1;
        await roomOf(env, changed.ticketId).refresh(connection.companyId, changed.ticketId, changed.id);
      }
      continue;
    }
    if (event.kind === "connection") {
      await setConnectionStatus(env, db, connection, event.status);
      continue;
    }
    if (event.kind === "rejected") {
      await keepRejected(env, db, {
        companyId: connection.companyId,
        connectionId: connection.id,
        channel: connection.channel,
        reason: event.reason,
        detail: event.detail,
        payload: event.payload,
        receivedAt,
      });
      summary.rejected += 1;
      continue;
    }
    const key = senderOf(event);
    byContact.set(key, [...(byContact.get(key) ?? []), event]);
  }
  let stale = false;
  await Promise.all(
    [...byContact.entries()].map(async ([from, contactEvents]) => {
      const session = contactSessionOf(env, connection.companyId, connection.channel, from);
      for (const event of contactEvents) {
        // The row read for this delivery (or remembered, then checked there) goes along: the
        // session does not read it again on its own (issue 16).
        const called = span(env, "webhook.session-call");
        const result = await session.ingest(connection.id, event, connection, check);
        called();
        if (result.status === "stale") {
          stale = true;
          return;
        }
        if (result.status === "stored") summary.stored += 1;
        else if (result.status === "duplicate") summary.duplicates += 1;
        else if (result.status === "rejected") summary.rejected += 1;
        else summary.ignored += 1;
      }
    }),
  );
  return stale ? "stale" : summary;
}
