/**
 * Authentication and tenancy middleware (STYLE habit 2).
 * - requireUser: `Authorization: Bearer <JWT>`; 401 `unauthorized` when missing, bad, expired or
 *   of an older token version. Or a company API key, which reaches the public API routes only
 *   (authenticateApiKey below).
 * - requireCompany: the user's active company and membership; 403 `no_company` when the user is in
 *   no company ('You are not part of any company!'). For an API key: the key's company and the
 *   permissions of its scopes (no member).
 * - requirePermission(...p): 403 `forbidden` unless the member's roles grant one of `p` (spec §6);
 *   also 403 (field `feature`) when the company lacks the feature covering `p[0]` (issue 14,
 *   worker/lib/features.ts). A company without the `integration` feature has no public API (keys 403).
 * - requireSubscription: 402 `payment_required` when the company's subscription gives no access.
 */
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { METHOD_NAME_ALL } from "hono/router";
import { matchedRoutes } from "hono/route";
import { and, eq } from "drizzle-orm";
import { billingPlans, billingSubscriptions, companies, franchiseRoles, memberRoles, members, roles, users } from "../../schema";
import { COMPANY_PERMISSIONS, type CompanyPermission } from "../../schema/permissions";
import { AppError, forbidden, unauthorized } from "../lib/errors";
import { verifySession } from "../lib/jwt";
import { API_KEY_PREFIX, findLiveApiKey, permissionsOfScopes, publicApiRouteOf } from "../lib/api-keys";
import { subscriptionNow, subscriptionValid } from "../lib/subscription";
import { combineFeatures, companyFeatures, featureOfPermission, featureUnavailable, restrictToFeatures } from "../lib/features";
import type { HonoEnv } from "./context";

export const requireUser = createMiddleware<HonoEnv>(async (c, next) => {
  const header = c.req.header("Authorization") ?? "";
  const match = /^Bearer\s+(.+)$/i.exec(header);
  const apiKey = c.req.header("X-Api-Key") ?? (match?.[1]?.startsWith(API_KEY_PREFIX) ? match[1] : undefined);
  if (apiKey) {
    await authenticateApiKey(c, apiKey.trim());
    return next();
  }
  // Browsers cannot set headers on a WebSocket: only /api/ws accepts the token in the query.
  const token = match?.[1] ?? (c.req.path.startsWith("/api/ws/") ? c.req.query("access_token") : undefined);
  if (!token) throw unauthorized();
  const claims = await verifySession(c.env.JWT_SECRET, token.trim());
  if (!claims) throw unauthorized("Invalid or expired session.");
  const user = await c.var.db.query.users.findFirst({ where: eq(users.id, claims.sub) });
  if (!user || user.tokenVersion !== claims.ver) throw unauthorized("Invalid or expired session.");
  c.set("user", user);
  await next();
});

/**
 * A request carrying a company API key (`X-Api-Key: cv_…` or `Authorization: Bearer cv_…`) is an
 * integration, not a user (issue 8 §6; worker/lib/api-keys.ts): 401 `unauthorized` for an unknown or
 * revoked key; 403 `api_key_not_allowed` on any route outside PUBLIC_API_ROUTES (so /api/me,
 * /api/logout, /api/user/*, invites, company switching, members and roles refuse keys); 403
 * `insufficient_scope` (the message names the scope) when the key lacks the route's scope. Sets
 * `c.var.apiKey`; `c.var.user` stays unset.
 */
async function authenticateApiKey(c: Context<HonoEnv>, key: string): Promise<void> {
  const row = await findLiveApiKey(c.var.db, key);
  if (!row) throw unauthorized("Invalid API key.");
  // The route that answers: the first matched route from here on that is not path-wide middleware
  // (`.use`, method ALL); a route's own middleware chain shares its method and path.
  const answering = matchedRoutes(c).slice(c.req.routeIndex).find((r) => r.method !== METHOD_NAME_ALL);
  const route = answering ? publicApiRouteOf(answering.method, answering.path) : null;
  if (!route) throw new AppError("api_key_not_allowed", "API keys cannot call this route; it is not part of the public API.");
  if (!row.scopes.includes(route.scope)) {
    throw new AppError("insufficient_scope", `This API key lacks the scope ${route.scope}.`, { scope: route.scope });
  }
  c.set("apiKey", { id: row.id, companyId: row.companyId, name: row.name, scopes: row.scopes });
}

export const requireCompany = createMiddleware<HonoEnv>(async (c, next) => {
  const key = c.var.apiKey;
  if (key) {
    // The key's own company, with the permissions its scopes stand for; no member, no owner.
    const company = await c.var.db.query.companies.findFirst({ where: eq(companies.id, key.companyId) });
    if (!company) throw unauthorized("Invalid API key.");
    // A company without the `integration` feature (issue 14) has no public API: its keys answer 403.
    const features = await companyFeatures(c.var.db, company);
    if (!features.has("integration")) throw featureUnavailable("integration");
    c.set("company", company);
    c.set("features", features);
    c.set("isOwner", false);
    c.set("permissions", restrictToFeatures(permissionsOfScopes(key.scopes), features));
    return next();
  }
  const user = c.var.user;
  const loaded = user.activeCompanyId ? await loadMembership(c.var.db, user.id, user.activeCompanyId) : null;
  if (!loaded) throw new AppError("no_company", "You are not part of any company!");
  c.set("company", loaded.company);
  c.set("features", loaded.features);
  c.set("memberId", loaded.memberId);
  c.set("isOwner", loaded.isOwner);
  c.set("permissions", loaded.permissions);
  await next();
});

export function requirePermission(...anyOf: CompanyPermission[]) {
  // The first permission names the route's own area: when a feature the company lacks covers it
  // (issue 14; worker/lib/features.ts), the route answers 403 even to members holding another one.
  const feature = anyOf[0] ? featureOfPermission(anyOf[0]) : null;
  return createMiddleware<HonoEnv>(async (c, next) => {
    if (feature && !c.var.features.has(feature)) throw featureUnavailable(feature);
    if (!anyOf.some((p) => c.var.permissions.has(p))) throw forbidden();
    await next();
  });
}

export const requireSubscription = createMiddleware<HonoEnv>(async (c, next) => {
  if (!subscriptionValid(c.var.company, await subscriptionNow(c.env, c.var.db, c.var.company.id))) {
    throw new AppError("payment_required", "Payment not made. Access temporarily suspended.");
  }
  await next();
});

/**
 * The user's membership in `companyId` with the union of its roles' permissions, or null when the
 * user is not a member. The owner role holds every permission. `features` are the company's
 * (worker/lib/features.ts; the franchise role and the plan joined here, no extra query) and `permissions` lose
 * those of features the company lacks.
 */
export async function loadMembership(db: HonoEnv["Variables"]["db"], userId: string, companyId: string) {
  const rows = await db
    .select({ company: companies, memberId: members.id, role: roles, franchiseRole: franchiseRoles.permissions, planFeatures: billingPlans.features })
    .from(members)
    .innerJoin(companies, eq(companies.id, members.companyId))
    .leftJoin(franchiseRoles, and(eq(franchiseRoles.id, companies.franchiseRoleId), eq(franchiseRoles.franchiseId, companies.franchiseId)))
    .leftJoin(billingSubscriptions, eq(billingSubscriptions.companyId, companies.id))
    .leftJoin(billingPlans, eq(billingPlans.id, billingSubscriptions.planId))
    .leftJoin(memberRoles, eq(memberRoles.memberId, members.id))
    .leftJoin(roles, and(eq(roles.id, memberRoles.roleId), eq(roles.companyId, members.companyId)))
    .where(and(eq(members.userId, userId), eq(members.companyId, companyId)));
  const first = rows[0];
  if (!first) return null;
  const permissions = new Set<CompanyPermission>();
  let isOwner = first.company.ownerId === userId;
  for (const row of rows) {
    if (!row.role) continue;
    if (row.role.isOwner) isOwner = true;
    for (const p of row.role.permissions) permissions.add(p);
  }
  if (isOwner) for (const p of COMPANY_PERMISSIONS) permissions.add(p);
  const features = combineFeatures(first.franchiseRole ?? null, first.planFeatures ?? null);
  return { company: first.company, memberId: first.memberId, isOwner, permissions: restrictToFeatures(permissions, features), features };
}
