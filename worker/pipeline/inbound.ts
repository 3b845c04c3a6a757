/**
 * Inbound events after normalisation (DESIGN.md "The main job", steps 2-4): each is routed to its
 * connection; messages, revokes and presence go to the contact's ContactSession (which serialises
 * and dedupes them); delivery statuses are applied forward-only and fanned out by the ticket's room;
 * connection-state changes update the connection.
 */
import { and, eq } from "drizzle-orm";
import { connections, type ConnectionRow } from "../../schema";
import type { AppEnv } from "../env";
import type { InboundEvent, RoutedEvents } from "../channels/types";
import { getDb, type Db } from "../lib/db";
import { contactSessionOf, roomOf } from "../lib/realtime";
import { setConnectionStatus } from "../lib/connections";
import { applyStatus } from "./statuses";

export type IngestSummary = { stored: number; duplicates: number; statuses: number; ignored: number };

/** Finds the connection an event batch belongs to (by Cloud API phone_number_id or by id). */
export async function routeConnection(db: Db, route: RoutedEvents["route"], channel: ConnectionRow["channel"]): Promise<ConnectionRow | undefined> {
  if (route.by === "phoneNumberId") {
    return db.query.connections.findFirst({ where: and(eq(connections.phoneNumberId, route.value), eq(connections.channel, channel)) });
  }
  return db.query.connections.findFirst({ where: and(eq(connections.id, route.value), eq(connections.channel, channel)) });
}

/** Handles the events of one connection, in the order the provider listed them. */
export async function ingestEvents(env: AppEnv, connection: ConnectionRow, events: InboundEvent[]): Promise<IngestSummary> {
  const db = getDb(env.DB);
  const summary: IngestSummary = { stored: 0, duplicates: 0, statuses: 0, ignored: 0 };
  // Messages of different contacts run concurrently; each contact's own events stay in order
  // because its ContactSession serialises them and they are sent to it in order.
  const byContact = new Map<string, InboundEvent[]>();
  for (const event of events) {
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
    const key = event.from;
    byContact.set(key, [...(byContact.get(key) ?? []), event]);
  }
  await Promise.all(
    [...byContact.entries()].map(async ([from, contactEvents]) => {
      const session = contactSessionOf(env, connection.companyId, connection.channel, from);
      for (const event of contactEvents) {
        if (event.kind !== "message" && event.kind !== "revoke" && event.kind !== "presence") continue;
        const result = await session.ingest(connection.id, event);
        if (result.status === "stored") summary.stored += 1;
        else if (result.status === "duplicate") summary.duplicates += 1;
        else summary.ignored += 1;
      }
    }),
  );
  return summary;
}
