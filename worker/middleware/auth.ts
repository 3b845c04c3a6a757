/**
 * Authentication and tenancy middleware (STYLE habit 2).
 * - requireUser: `Authorization: Bearer <JWT>`; 401 `unauthorized` when missing, bad, expired or
 *   of an older token version.
 * - requireCompany: the user's active company and membership; 403 `no_company` when the user is in
 *   no company ('You are not part of any company!').
 * - requirePermission(...p): 403 `forbidden` unless the member's roles grant one of `p` (spec §6).
 * - requireSubscription: 402 `payment_required` when the company's subscription gives no access.
 */
import { createMiddleware } from "hono/factory";
import { and, eq } from "drizzle-orm";
import { companies, memberRoles, members, roles, users } from "../../schema";
import { COMPANY_PERMISSIONS, type CompanyPermission } from "../../schema/permissions";
import { AppError, forbidden, unauthorized } from "../lib/errors";
import { verifySession } from "../lib/jwt";
import { sha256Hex } from "../lib/crypto";
import { subscriptionValid } from "../lib/subscription";
import type { HonoEnv } from "./context";

export const requireUser = createMiddleware<HonoEnv>(async (c, next) => {
  const header = c.req.header("Authorization") ?? "";
  const match = /^Bearer\s+(.+)$/i.exec(header);
  const apiKey = c.req.header("X-Api-Key") ?? (match?.[1]?.startsWith(API_KEY_PREFIX) ? match[1] : undefined);
  if (apiKey) {
    c.set("user", await userOfApiKey(c.var.db, apiKey.trim()));
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

/** Prefix of company API keys (`cv_` + 32 random bytes, base64url). */
export const API_KEY_PREFIX = "cv_";

/**
 * The public API (DESIGN.md "API conventions") accepts a company API key (`X-Api-Key` or
 * `Authorization: Bearer cv_…`): the call acts as the company's owner, inside that company only.
 * 401 for an unknown key.
 */
async function userOfApiKey(db: HonoEnv["Variables"]["db"], key: string) {
  const company = key.startsWith(API_KEY_PREFIX)
    ? await db.query.companies.findFirst({ where: eq(companies.apiKeyHash, await sha256Hex(key)) })
    : undefined;
  if (!company) throw unauthorized("Invalid API key.");
  const owner = await db.query.users.findFirst({ where: eq(users.id, company.ownerId) });
  if (!owner) throw unauthorized("Invalid API key.");
  return { ...owner, activeCompanyId: company.id };
}

export const requireCompany = createMiddleware<HonoEnv>(async (c, next) => {
  const user = c.var.user;
  const loaded = user.activeCompanyId ? await loadMembership(c.var.db, user.id, user.activeCompanyId) : null;
  if (!loaded) throw new AppError("no_company", "You are not part of any company!");
  c.set("company", loaded.company);
  c.set("memberId", loaded.memberId);
  c.set("isOwner", loaded.isOwner);
  c.set("permissions", loaded.permissions);
  await next();
});

export function requirePermission(...anyOf: CompanyPermission[]) {
  return createMiddleware<HonoEnv>(async (c, next) => {
    if (!anyOf.some((p) => c.var.permissions.has(p))) throw forbidden();
    await next();
  });
}

export const requireSubscription = createMiddleware<HonoEnv>(async (c, next) => {
  if (!subscriptionValid(c.var.company)) {
    throw new AppError("payment_required", "Payment not made. Access temporarily suspended.");
  }
  await next();
});

/**
 * The user's membership in `companyId` with the union of its roles' permissions, or null when the
 * user is not a member. The owner role holds every permission.
 */
export async function loadMembership(db: HonoEnv["Variables"]["db"], userId: string, companyId: string) {
  const rows = await db
    .select({ company: companies, memberId: members.id, role: roles })
    .from(members)
    .innerJoin(companies, eq(companies.id, members.companyId))
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
  return { company: first.company, memberId: first.memberId, isOwner, permissions };
}
