/**
 * A company's features (issue 14 "Roles"; spec §6 franchise-grantable permissions; DESIGN.md
 * "Franchises"): the franchise-grantable feature permissions (FRANCHISE_PERMISSIONS) the company may
 * use. A feature outside them disappears from the company's navigation (the member's effective
 * permissions lose what it covers), cannot be put in the company's own roles (400 naming it) and its
 * routes answer 403.
 *
 * features = (its franchise role's permissions, when the company belongs to a franchise and holds
 *            one) ∩ (its plan's `features`, when the plan lists any: the `planFeatures` hook below)
 * A company outside franchises and without plan limits has every feature.
 *
 * Cost on the hot path: the franchise role's permissions and the plan's features come with the
 * membership's own query (worker/middleware/auth.ts `loadMembership` joins `franchise_roles`,
 * `billing_subscriptions` and `billing_plans`), so a signed-in request pays no extra D1 query;
 * API-key requests pay two small indexed lookups.
 * The answer is computed once per request and kept in `c.var.features`.
 */
import { createMiddleware } from "hono/factory";
import { and, eq } from "drizzle-orm";
import { billingPlans, billingSubscriptions, franchiseRoles, type CompanyRow } from "../../schema";
import { COMPANY_PERMISSIONS, FRANCHISE_PERMISSIONS, type CompanyPermission, type FranchisePermission } from "../../schema/permissions";
import type { HonoEnv } from "../middleware/context";
import type { Db } from "./db";
import { AppError } from "./errors";

/** A feature: one of the franchise-grantable permissions of spec §6. */
export type Feature = FranchisePermission;

/** Every feature (the answer for a company without limits). */
export const ALL_FEATURES: ReadonlySet<Feature> = new Set(FRANCHISE_PERMISSIONS);

/**
 * The company permissions each feature covers (spec §6): a company lacking the feature holds none
 * of them. `crm` covers viewing and managing the CRM; `shipping_cycles` managing cycles and adding
 * contacts to them. `integration` (the API) covers no company permission: its routes — API keys,
 * outbound event subscriptions and the public API reached with a key — are gated by
 * `requireFeature("integration")` and by `requireCompany` for keys.
 */
export const FEATURE_PERMISSIONS: Record<Feature, readonly CompanyPermission[]> = {
  internal_chats: ["internal_chats"],
  broadcasts: ["broadcasts"],
  shipping_cycles: ["shipping_cycles", "contacts_shipping_cycles"],
  crm: ["crm", "crm_manager"],
  keywords: ["keywords"],
  webhooks: ["webhooks"],
  quick_messages: ["quick_messages"],
  flow: ["flow"],
  integration: [],
};

/** The feature covering `permission`, or null for a permission no feature gates (e.g. tickets). */
export function featureOfPermission(permission: CompanyPermission): Feature | null {
  for (const feature of FRANCHISE_PERMISSIONS) if (FEATURE_PERMISSIONS[feature].includes(permission)) return feature;
  return null;
}

/** Narrowing check for untrusted strings (e.g. JSON read back from D1). */
export function isFeature(value: unknown): value is Feature {
  return typeof value === "string" && (FRANCHISE_PERMISSIONS as readonly string[]).includes(value);
}

/**
 * Combines the limits: `franchiseRole` is the franchise role's permission list (null: the company
 * holds no franchise role, no limit), `plan` the plan's feature list (null or empty: no limit).
 * Answers the intersection, in FRANCHISE_PERMISSIONS order.
 */
export function combineFeatures(franchiseRole: readonly string[] | null, plan: readonly string[] | null): ReadonlySet<Feature> {
  if (franchiseRole === null && (plan === null || plan.length === 0)) return ALL_FEATURES;
  const out = new Set<Feature>();
  for (const feature of FRANCHISE_PERMISSIONS) {
    if (franchiseRole !== null && !franchiseRole.includes(feature)) continue;
    if (plan !== null && plan.length > 0 && !plan.includes(feature)) continue;
    out.add(feature);
  }
  return out;
}

/**
 * Billing's plan limit (issue 13): the `features` list of the plan of the company's subscription
 * (`billing_subscriptions` → `billing_plans`), or null without a subscription. An empty list means
 * no limit (combineFeatures). loadMembership joins the same two tables instead of calling this.
 */
export async function planFeatures(db: Db, company: Pick<CompanyRow, "id">): Promise<readonly string[] | null> {
  const row = await db
    .select({ features: billingPlans.features })
    .from(billingSubscriptions)
    .innerJoin(billingPlans, eq(billingPlans.id, billingSubscriptions.planId))
    .where(eq(billingSubscriptions.companyId, company.id))
    .get();
  return row ? row.features : null;
}

/**
 * The franchise role's permissions of `company` (a JSON list from `franchise_roles`), or null when
 * the company is outside franchises or holds no role (or a role of another franchise: ignored).
 */
export async function franchiseRoleFeatures(db: Db, company: Pick<CompanyRow, "franchiseId" | "franchiseRoleId">): Promise<readonly string[] | null> {
  if (!company.franchiseId || !company.franchiseRoleId) return null;
  const row = await db
    .select({ permissions: franchiseRoles.permissions })
    .from(franchiseRoles)
    .where(and(eq(franchiseRoles.id, company.franchiseRoleId), eq(franchiseRoles.franchiseId, company.franchiseId)))
    .get();
  return row ? row.permissions : null;
}

/** The features of `company`, reading its franchise role and plan (two lookups at most). */
export async function companyFeatures(db: Db, company: CompanyRow): Promise<ReadonlySet<Feature>> {
  return combineFeatures(await franchiseRoleFeatures(db, company), await planFeatures(db, company));
}

/** Whether `permission` is usable by a company with `features` (permissions no feature gates always are). */
export function permissionAllowed(features: ReadonlySet<Feature>, permission: CompanyPermission): boolean {
  const feature = featureOfPermission(permission);
  return feature === null || features.has(feature);
}

/** `permissions` without those of features the company lacks (a new set; the input is untouched). */
export function restrictToFeatures(permissions: Iterable<CompanyPermission>, features: ReadonlySet<Feature>): Set<CompanyPermission> {
  const out = new Set<CompanyPermission>();
  for (const p of permissions) if (permissionAllowed(features, p)) out.add(p);
  return out;
}

/**
 * The permissions a company with `features` may put in its own roles, in COMPANY_PERMISSIONS order:
 * the catalogue the roles screen lists (GET /api/companies/roles/permissions).
 */
export function grantablePermissions(features: ReadonlySet<Feature>): CompanyPermission[] {
  return COMPANY_PERMISSIONS.filter((p) => permissionAllowed(features, p));
}

/**
 * Throws 400 `validation_failed` (`fields[field]` = `feature_not_available`, the message naming the
 * permissions) when `permissions` holds one covered by a feature the company lacks.
 */
export function assertFeaturesAllow(features: ReadonlySet<Feature>, permissions: Iterable<CompanyPermission>, field: string): void {
  const refused = [...new Set([...permissions].filter((p) => !permissionAllowed(features, p)))];
  if (refused.length) {
    throw new AppError("validation_failed", `This company's plan does not include: ${refused.join(", ")}.`, { [field]: "feature_not_available" });
  }
}

/** The 403 a route of a feature the company lacks answers (field `feature` names it). */
export function featureUnavailable(feature: Feature): AppError {
  return new AppError("forbidden", `This company's plan does not include the feature ${feature}.`, { feature });
}

/**
 * After requireCompany: 403 `forbidden` (field `feature`) unless the company has `feature`. For the
 * routes a feature covers that no company permission names (`integration`: API keys, event
 * subscriptions).
 */
export function requireFeature(feature: Feature) {
  return createMiddleware<HonoEnv>(async (c, next) => {
    if (!c.var.features.has(feature)) throw featureUnavailable(feature);
    await next();
  });
}
