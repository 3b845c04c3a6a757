/**
 * Delivery statuses (sent, delivered, read, failed) of outbound messages. A message's status only
 * moves forward: `read` may come without `delivered`, a late `sent` after `read` is ignored
 * (Meta's status webhook reference; chatwoot#14529), and `failed` is taken only before
 * `delivered`. The update is one conditional statement, so concurrent reports cannot move it back.
 * A failure keeps the provider's code, message and longer detail (`errors[].error_data.details`);
 * an orphan failure (before the wamid is known) keeps the code and message only.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import { messages, orphanStatuses, type ConnectionRow } from "../../schema";
import type { InboundStatus } from "../channels/types";
import type { Db } from "../lib/db";
import { STATUS_RANK } from "../lib/tickets";

/** How long a status report waits for its message id (ms). */
export const ORPHAN_TTL_MS = 7 * 24 * 3600 * 1000;

const rankSql = sql`CASE ${messages.status} WHEN 'pending' THEN 0 WHEN 'received' THEN 0 WHEN 'sent' THEN 1 WHEN 'failed' THEN 1.5 WHEN 'delivered' THEN 2 WHEN 'read' THEN 3 ELSE 9 END`;

/**
 * Applies one status report. Answers the changed message (id, ticket) or null when nothing moved.
 * With `recordOrphan`, a report for an id no message carries yet is kept for later.
 */
export async function applyStatus(
  db: Db,
  connection: ConnectionRow,
  status: Pick<InboundStatus, "externalId" | "status" | "timestamp" | "errorCode" | "errorMessage" | "errorDetails" | "reference">,
  options: { recordOrphan: boolean } = { recordOrphan: true },
): Promise<{ id: string; ticketId: string } | null> {
  if (status.reference) {
    // The report names the message it belongs to (our id, sent as `biz_opaque_callback_data`): a
    // send whose answer never reached us (its TicketRoom died mid-send) learns its provider id here,
    // and the room confirms it instead of sending it again (issue 17).
    await db
      .update(messages)
      .set({ externalId: status.externalId, updatedAt: Date.now() })
      .where(and(eq(messages.id, status.reference), eq(messages.connectionId, connection.id), eq(messages.direction, "out"), isNull(messages.externalId)));
  }
  const rank = STATUS_RANK[status.status];
  const ceiling = status.status === "failed" ? STATUS_RANK.delivered : rank;
  const changed = await db
    .update(messages)
    .set({
      status: status.status,
      ...(status.status === "failed"
        ? { errorCode: status.errorCode ?? "unknown", errorMessage: status.errorMessage ?? "", errorDetails: status.errorDetails ?? null }
        : {}),
      updatedAt: Date.now(),
    })
    .where(
      and(
        eq(messages.connectionId, connection.id),
        eq(messages.externalId, status.externalId),
        eq(messages.direction, "out"),
        sql`${rankSql} < ${ceiling}`,
      ),
    )
    .returning({ id: messages.id, ticketId: messages.ticketId });
  if (changed[0]) return changed[0];
  if (options.recordOrphan) {
    const known = await db.query.messages.findFirst({
      where: and(eq(messages.connectionId, connection.id), eq(messages.externalId, status.externalId)),
      columns: { id: true },
    });
    if (!known) {
      // Reports for ids we never learn (sent by another tool on the same number) expire after 7 days.
      await db
        .delete(orphanStatuses)
        .where(and(eq(orphanStatuses.connectionId, connection.id), sql`${orphanStatuses.createdAt} < ${Date.now() - ORPHAN_TTL_MS}`));
      await db.insert(orphanStatuses).values({
        connectionId: connection.id,
        externalId: status.externalId,
        status: status.status,
        timestamp: status.timestamp,
        errorCode: status.errorCode ?? null,
        errorMessage: status.errorMessage ?? null,
        createdAt: Date.now(),
      });
    }
  }
  return null;
}

/** Removes and answers the orphan statuses of a provider id, oldest first. */
export async function takeOrphanStatuses(db: Db, connectionId: string, externalId: string) {
  return presentOrphanStatuses(await takeOrphanStatusesQuery(db, connectionId, externalId));
}

/**
 * The statement of `takeOrphanStatuses` (deletes and returns the rows), for a caller's D1 batch
 * (issue 16: a settled send's writes and reads are one round trip); `presentOrphanStatuses` reads its rows.
 */
export function takeOrphanStatusesQuery(db: Db, connectionId: string, externalId: string) {
  return db
    .delete(orphanStatuses)
    .where(and(eq(orphanStatuses.connectionId, connectionId), eq(orphanStatuses.externalId, externalId)))
    .returning();
}

/** The rows `takeOrphanStatusesQuery` returned, as status reports, oldest first. */
export function presentOrphanStatuses(rows: (typeof orphanStatuses.$inferSelect)[]) {
  return [...rows]
    .sort((a, b) => a.timestamp - b.timestamp)
    .map((r) => ({
      externalId: r.externalId,
      status: r.status === "pending" || r.status === "received" ? ("sent" as const) : r.status,
      timestamp: r.timestamp,
      errorCode: r.errorCode ?? undefined,
      errorMessage: r.errorMessage ?? undefined,
    }));
}
