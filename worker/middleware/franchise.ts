/**
 * Franchise middleware (issue 14; spec §5 "franchise calls are skipped when franchise mode is off").
 *
 * - requireFranchiseMode: FRANCHISE_MODE off → 404 `not_found` for the route, before anything else
 *   runs (no session check, no franchise lookup). Mounted on /api/franchise and /api/admin/franchises.
 * - requireFranchiseAdmin (after requireUser): sets `c.var.franchise` to the franchise the signed-in
 *   user administers (`franchise_admins`). A user administering several: the one of the request's
 *   host when it is among them, else the oldest membership. 403 `forbidden` when the user
 *   administers none (a platform administrator too: they act on any franchise only through the
 *   Admin area, /api/admin/franchises). A company API key never reaches it (requireUser refuses
 *   keys outside PUBLIC_API_ROUTES).
 *
 * Every /api/franchise… handler reads the franchise from `c.var.franchise` and filters on its id,
 * never on an id from the request.
 */
import { and, asc, eq } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import { franchiseAdmins, franchises } from "../../schema";
import { forbidden, notFound, unauthorized } from "../lib/errors";
import { franchiseModeOn, resolveFranchise } from "../lib/franchise-host";
import type { HonoEnv } from "./context";

/** 404 unless FRANCHISE_MODE is "on" (the route then does not exist). */
export const requireFranchiseMode = createMiddleware<HonoEnv>(async (c, next) => {
  if (!franchiseModeOn(c.env)) throw notFound("Route");
  await next();
});

/** The ids of the franchises `userId` administers, oldest first. */
export async function administeredFranchiseIds(db: HonoEnv["Variables"]["db"], userId: string): Promise<string[]> {
  const rows = await db
    .select({ franchiseId: franchiseAdmins.franchiseId })
    .from(franchiseAdmins)
    .where(eq(franchiseAdmins.userId, userId))
    .orderBy(asc(franchiseAdmins.createdAt));
  return rows.map((r) => r.franchiseId);
}

/** After requireUser: sets `c.var.franchise` (see file header); 403 `forbidden` for a non-admin. */
export const requireFranchiseAdmin = createMiddleware<HonoEnv>(async (c, next) => {
  const user = c.var.user;
  if (!user) throw unauthorized();
  const ids = await administeredFranchiseIds(c.var.db, user.id);
  if (!ids.length) throw forbidden("You do not administer a franchise.");
  let chosen = ids[0]!;
  if (ids.length > 1) {
    const host = await resolveFranchise(c.env, new URL(c.req.url).host);
    if (host && ids.includes(host.id)) chosen = host.id;
  }
  const franchise = await c.var.db.query.franchises.findFirst({ where: and(eq(franchises.id, chosen)) });
  if (!franchise) throw forbidden("You do not administer a franchise.");
  c.set("franchise", franchise);
  await next();
});
