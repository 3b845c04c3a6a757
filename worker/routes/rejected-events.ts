/**
 * A connection's rejected events (issue 8 §7): provider deliveries that arrived signed and valid but
 * could not be placed (worker/lib/rejected-events.ts), listed on the connection so nothing a
 * customer sent is lost in silence. Permission `connections`, like the connection itself; another
 * company's connection or event answers 404.
 */
import { Hono } from "hono";
import { and, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { connections, rejectedEvents } from "../../schema";
import { idSchema } from "../../schema/validation/common";
import type { RejectedEventAnswer, RejectedEventPage } from "../../schema/api-types";
import type { HonoEnv } from "../middleware/context";
import { contentDisposition, MEDIA_CSP } from "../lib/sniff";
import { requireCompany, requirePermission, requireSubscription, requireUser } from "../middleware/auth";
import { decodeNumberCursor, encodeCursor } from "../lib/cursor";
import { notFound } from "../lib/errors";
import { zv } from "../lib/validate";

const params = z.object({ id: idSchema });
const eventParams = z.object({ id: idSchema, eventId: idSchema });
const listQuery = z.object({
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

/** The caller's company's connection `id`, or 404. */
async function ownConnection(c: { var: HonoEnv["Variables"] }, id: string) {
  const row = await c.var.db.query.connections.findFirst({
    where: and(eq(connections.id, id), eq(connections.companyId, c.var.company.id)),
    columns: { id: true, rejectedCount: true },
  });
  if (!row) throw notFound("Connection");
  return row;
}

export const rejectedEventsRoutes = new Hono<HonoEnv>()
  .use("/:id/rejected-events", requireUser, requireCompany, requireSubscription, requirePermission("connections"))
  .use("/:id/rejected-events/*", requireUser, requireCompany, requireSubscription, requirePermission("connections"))
  /**
   * GET /api/connections/{id}/rejected-events?cursor=&limit= (1-100, default 50) →
   * {results: RejectedEventAnswer[] newest first, cursor (to older ones) | null, total (the
   * connection's rejected_count)}. 404 for a connection of another company; 400 naming `cursor`
   * when it is malformed.
   */
  .get("/:id/rejected-events", zv("param", params), zv("query", listQuery), async (c) => {
    const { id } = c.req.valid("param");
    const { cursor, limit } = c.req.valid("query");
    const connection = await ownConnection(c, id);
    const before = decodeNumberCursor(cursor);
    const where = and(eq(rejectedEvents.companyId, c.var.company.id), eq(rejectedEvents.connectionId, connection.id));
    const rows = await c.var.db
      .select()
      .from(rejectedEvents)
      .where(before ? and(where, sql`(${rejectedEvents.receivedAt}, ${rejectedEvents.id}) < (${before[0]}, ${before[1]})`) : where)
      .orderBy(desc(rejectedEvents.receivedAt), desc(rejectedEvents.id))
      .limit(limit + 1);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const results: RejectedEventAnswer[] = page.map((r) => ({
      id: r.id,
      reason: r.reason,
      detail: r.detail,
      receivedAt: r.receivedAt,
      size: r.payloadSize,
    }));
    const answer: RejectedEventPage = { results, cursor: rows.length > limit && last ? encodeCursor([last.receivedAt, last.id]) : null, total: connection.rejectedCount };
    return c.json(answer);
  })
  /**
   * GET /api/connections/{id}/rejected-events/{eventId}/payload → the raw payload as received, a
   * JSON download (`Content-Disposition: attachment`, `application/json`, nosniff, a sandboxing
   * CSP: it is the provider's bytes, never run on our origin). 404 when the event is not this
   * connection's, or of another company, or its payload is gone.
   */
  .get("/:id/rejected-events/:eventId/payload", zv("param", eventParams), async (c) => {
    const { id, eventId } = c.req.valid("param");
    const connection = await ownConnection(c, id);
    const row = await c.var.db.query.rejectedEvents.findFirst({
      where: and(eq(rejectedEvents.id, eventId), eq(rejectedEvents.companyId, c.var.company.id), eq(rejectedEvents.connectionId, connection.id)),
    });
    if (!row) throw notFound("Rejected event");
    const object = await c.env.FILES.get(row.payloadKey);
    if (!object) throw notFound("Rejected event payload");
    return new Response(object.body, {
      status: 200,
      headers: {
        "Content-Type": "application/json",
        "Content-Disposition": contentDisposition("attachment", `rejected-event-${row.id}.json`),
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": MEDIA_CSP,
        "Cache-Control": "private, no-store",
      },
    });
  });
