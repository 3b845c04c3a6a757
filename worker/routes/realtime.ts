/**
 * WebSocket endpoints (DESIGN.md "Shape": /api/ws). Browsers cannot set headers on a WebSocket, so
 * these accept the session JWT as `?access_token=`; the company and what the member may see come
 * from the session, never from the client. A company API key opens no socket (401): sockets are
 * sessions of a signed-in member.
 *
 * - GET /api/ws/hub?after=<seq>: the company hub (lists, statuses, presence, connections).
 * - GET /api/ws/tickets/{id}: the ticket's room (its conversation and typing indicators).
 *
 * Each socket carries the session it was opened with (user, token version, member, permissions and
 * when they were read, token expiry: worker/lib/sockets.ts SocketSession), so logout, a password
 * change, removal from the company or a change of roles closes it at once (CompanyHub.revoke,
 * issue 8 §3): 4001 when the session is over, 4003 when the member's access changed.
 */
import { Hono, type Context } from "hono";
import { and, eq, or } from "drizzle-orm";
import { z } from "zod";
import { tickets } from "../../schema";
import { idSchema } from "../../schema/validation/common";
import type { HonoEnv } from "../middleware/context";
import { loadMembership, requireUser } from "../middleware/auth";
import { AppError, forbidden, notFound, unauthorized } from "../lib/errors";
import { verifySession } from "../lib/jwt";
import { hubOf, roomOf } from "../lib/realtime";
import type { RevokeReason, SocketSession } from "../lib/sockets";
import { zv } from "../lib/validate";
import type { HubSocket } from "../durable-objects/company-hub";

function requireUpgrade(header: string | undefined) {
  if (header?.toLowerCase() !== "websocket") throw new AppError("validation_failed", "Expected a WebSocket upgrade.", { Upgrade: "required" });
}

/**
 * The session a socket is opened with, and the member's membership in the active company read
 * after `checkedAt` was taken (so a revocation stamped at or after it covers this read). 401 when
 * the call carries no session token (an API key), 403 `no_company` without an active company.
 */
async function openSession(c: Context<HonoEnv>) {
  const header = /^Bearer\s+(.+)$/i.exec(c.req.header("Authorization") ?? "")?.[1];
  const claims = await verifySession(c.env.JWT_SECRET, (header ?? c.req.query("access_token") ?? "").trim());
  if (!claims || claims.sub !== c.var.user.id) throw unauthorized("A WebSocket needs a session token.");
  const user = c.var.user;
  const checkedAt = Date.now();
  const membership = user.activeCompanyId ? await loadMembership(c.var.db, user.id, user.activeCompanyId) : null;
  if (!membership) throw new AppError("no_company", "You are not part of any company!");
  const session: SocketSession = { userId: user.id, ver: claims.ver, checkedAt, expiresAt: claims.exp * 1000 };
  return { session, ...membership };
}

/** The API error of a refused upgrade: 401 when the session is over, 403 when access changed. */
function refused(reason: RevokeReason): AppError {
  return reason === "session_revoked" || reason === "session_expired" ? unauthorized("Invalid or expired session.") : forbidden();
}

export const realtimeRoutes = new Hono<HonoEnv>()
  .use(requireUser)
  .get("/hub", async (c) => {
    requireUpgrade(c.req.header("Upgrade"));
    const { session, company, memberId, permissions } = await openSession(c);
    const viewer: HubSocket = {
      ...session,
      memberId,
      seeAll: permissions.has("see_all_tickets"),
      groups: permissions.has("tickets_groups"),
      tickets: permissions.has("tickets"),
      crm: permissions.has("crm") || permissions.has("crm_manager"),
    };
    const url = new URL(c.req.url);
    const forward = new URL(`https://hub/connect`);
    const after = url.searchParams.get("after");
    if (after) forward.searchParams.set("after", after);
    return hubOf(c.env, company.id).fetch(
      new Request(forward, { headers: { Upgrade: "websocket", "X-Hub-Viewer": JSON.stringify(viewer) } }),
    );
  })
  .get("/tickets/:id", zv("param", z.object({ id: idSchema })), async (c) => {
    requireUpgrade(c.req.header("Upgrade"));
    const { session, company, memberId, permissions } = await openSession(c);
    if (!permissions.has("tickets")) throw new AppError("forbidden", "You do not have permission to access this page!");
    const id = c.req.valid("param").id;
    const seeAll = permissions.has("see_all_tickets");
    const ticket = await c.var.db.query.tickets.findFirst({
      where: and(
        eq(tickets.id, id),
        eq(tickets.companyId, company.id),
        permissions.has("tickets_groups") ? undefined : eq(tickets.isGroup, false),
        seeAll ? undefined : or(eq(tickets.status, "pending"), eq(tickets.assignedMemberId, memberId)),
      ),
      columns: { id: true },
    });
    if (!ticket) throw notFound("Ticket");
    // The hub tracks the room before it opens, so a revocation from now on reaches it.
    const refusal = await hubOf(c.env, company.id).trackRoom(session, id);
    if (refusal) throw refused(refusal);
    return roomOf(c.env, id).fetch(
      new Request("https://room/connect", {
        headers: {
          Upgrade: "websocket",
          "X-Room-Viewer": JSON.stringify({ ...session, memberId, name: c.var.user.name, ticketId: id, companyId: company.id }),
        },
      }),
    );
  });
