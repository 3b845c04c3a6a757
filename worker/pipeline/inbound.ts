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
import { contactSessionOf, roomOf } from "../lib/realtime";
import { setConnectionStatus } from "../lib/connections";
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
 * Handles one routed batch of a delivery: to its connection when one has the route; otherwise the
 * batch is kept as one rejected event (`unknown_phone_number_id`, no company), together with the
 * rejected events it already holds. Resolves only once everything is stored.
 */
export async function ingestBatch(env: AppEnv, db: Db, channel: ConnectionRow["channel"], batch: RoutedEvents, receivedAt = Date.now()): Promise<IngestSummary> {
  const connection = await routeConnection(db, batch.route, channel);
  if (connection) return ingestEvents(env, connection, batch.events, receivedAt);
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

/** Handles the events of one connection, in the order the provider listed them. */
export async function ingestEvents(env: AppEnv, connection: ConnectionRow, events: InboundEvent[], receivedAt = Date.now()): Promise<IngestSummary> {
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
  await Promise.all(
    [...byContact.entries()].map(async ([from, contactEvents]) => {
      const session = contactSessionOf(env, connection.companyId, connection.channel, from);
      for (const event of contactEvents) {
        // The row read for this delivery goes along: the session does not read it again (issue 16).
        const result = await session.ingest(connection.id, event, connection);
        if (result.status === "stored") summary.stored += 1;
        else if (result.status === "duplicate") summary.duplicates += 1;
        else if (result.status === "rejected") summary.rejected += 1;
        else summary.ignored += 1;
      }
    }),
  );
  return summary;
}
