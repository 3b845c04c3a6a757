/**
 * WebSocket endpoints (DESIGN.md "Shape": /api/ws). Browsers cannot set headers on a WebSocket, so
 * these accept the session JWT as `?access_token=`; the company and what the member may see come
 * from the session, never from the client.
 *
 * - GET /api/ws/hub?after=<seq>: the company hub (lists, statuses, presence, connections).
 * - GET /api/ws/tickets/{id}: the ticket's room (its conversation and typing indicators).
 */
import { Hono } from "hono";
import { and, eq, or } from "drizzle-orm";
import { z } from "zod";
import { tickets } from "../../schema";
import { idSchema } from "../../schema/validation/common";
import type { HonoEnv } from "../middleware/context";
import { requireCompany, requireUser } from "../middleware/auth";
import { AppError, notFound } from "../lib/errors";
import { hubOf, roomOf } from "../lib/realtime";
import { zv } from "../lib/validate";

function requireUpgrade(header: string | undefined) {
  if (header?.toLowerCase() !== "websocket") throw new AppError("validation_failed", "Expected a WebSocket upgrade.", { Upgrade: "required" });
}

export const realtimeRoutes = new Hono<HonoEnv>()
  .use(requireUser, requireCompany)
  .get("/hub", async (c) => {
    requireUpgrade(c.req.header("Upgrade"));
    const viewer = {
      userId: c.var.user.id,
      memberId: c.var.memberId,
      seeAll: c.var.permissions.has("see_all_tickets"),
      groups: c.var.permissions.has("tickets_groups"),
      tickets: c.var.permissions.has("tickets"),
      crm: c.var.permissions.has("crm") || c.var.permissions.has("crm_manager"),
    };
    const url = new URL(c.req.url);
    const forward = new URL(`https://hub/connect`);
    const after = url.searchParams.get("after");
    if (after) forward.searchParams.set("after", after);
    return hubOf(c.env, c.var.company.id).fetch(
      new Request(forward, { headers: { Upgrade: "websocket", "X-Hub-Viewer": JSON.stringify(viewer) } }),
    );
  })
  .get("/tickets/:id", zv("param", z.object({ id: idSchema })), async (c) => {
    requireUpgrade(c.req.header("Upgrade"));
    if (!c.var.permissions.has("tickets")) throw new AppError("forbidden", "You do not have permission to access this page!");
    const id = c.req.valid("param").id;
    const seeAll = c.var.permissions.has("see_all_tickets");
    const ticket = await c.var.db.query.tickets.findFirst({
      where: and(
        eq(tickets.id, id),
        eq(tickets.companyId, c.var.company.id),
        c.var.permissions.has("tickets_groups") ? undefined : eq(tickets.isGroup, false),
        seeAll ? undefined : or(eq(tickets.status, "pending"), eq(tickets.assignedMemberId, c.var.memberId)),
      ),
      columns: { id: true },
    });
    if (!ticket) throw notFound("Ticket");
    return roomOf(c.env, id).fetch(
      new Request("https://room/connect", {
        headers: {
          Upgrade: "websocket",
          "X-Room-Viewer": JSON.stringify({ memberId: c.var.memberId, name: c.var.user.name }),
          "X-Ticket-Id": id,
          "X-Company-Id": c.var.company.id,
        },
      }),
    );
  });
