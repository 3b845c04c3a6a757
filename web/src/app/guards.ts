/**
 * Route guards (spec §2, DESIGN.md "Web conventions": guards are route loaders). A route lists
 * guard names; they run in the spec's order — is-auth, is-valid-subscription, has-permission,
 * is-logout, is-invalid-subscription — and the first that does not pass decides:
 * - is-auth: no token, or the session is rejected (401 / no reply) → /login;
 * - is-valid-subscription: no company → the not-in-company screen; invalid subscription
 *   (`subscriptionValid` false) → /failed-subscription;
 * - has-permission: the route's permission (ROUTE_PERMISSIONS) missing → /access-denied;
 * - is-logout: a token is present → / (signed-in users are kept out of auth pages);
 * - is-invalid-subscription: no company → not-in-company; a valid subscription → /.
 * An unknown guard name throws (spec §8) when the route table is built.
 */
import type { MeAnswer, CompanyAnswer } from "../../../schema/api-types";
import { isApiError } from "@/lib/api";

/** The guards in the order they run (spec §2). */
export const GUARD_ORDER = ["is-auth", "is-valid-subscription", "has-permission", "is-logout", "is-invalid-subscription"] as const;
/** A guard of spec §2. */
export type GuardName = (typeof GUARD_ORDER)[number];

/** Redirect targets of the guards. */
export const GUARD_TARGETS = {
  login: "/login",
  home: "/",
  failedSubscription: "/failed-subscription",
  accessDenied: "/access-denied",
} as const;

/** A guard's decision: go on, go elsewhere, or show the not-in-company screen in place. */
export type GuardOutcome = { kind: "pass" } | { kind: "redirect"; to: string } | { kind: "no-company" };

/** What the guards read; the app backs it with react-query, tests with plain functions. */
export type GuardSources = {
  hasToken(): boolean;
  me(): Promise<MeAnswer>;
  /** The active company; null when the user is in none. */
  company(): Promise<CompanyAnswer | null>;
  permissions(): Promise<readonly string[]>;
};

/** What the route asks for: its required permission, if any. */
/**
 * What a guard knows of its route: the permission it needs and, for the landing page, where to send
 * a user who lacks it (the first screen their permissions open) instead of the access-denied page.
 */
export type GuardRoute = { permission?: string; landing?: (permissions: readonly string[]) => string | null };

function isGuardName(name: string): name is GuardName {
  return GUARD_ORDER.some((guard) => guard === name);
}

/**
 * Validates guard names and sorts them in the spec's order. Throws `Error("Unknown route guard: x")`
 * for a name that is not a guard (spec §8).
 */
export function orderGuards(names: readonly string[]): GuardName[] {
  const valid = names.map((name) => {
    if (!isGuardName(name)) throw new Error(`Unknown route guard: ${name}`);
    return name;
  });
  return GUARD_ORDER.filter((guard) => valid.includes(guard));
}

const PASS: GuardOutcome = { kind: "pass" };
const redirectTo = (to: string): GuardOutcome => ({ kind: "redirect", to });

/** A session that the server refused (401) or could not be checked (no reply): back to login. */
function sessionLost(error: unknown): boolean {
  return isApiError(error) && (error.status === 401 || error.status === 0);
}

async function companyOf(sources: GuardSources): Promise<CompanyAnswer | null> {
  const me = await sources.me();
  if (!me.activeCompany) return null;
  return sources.company();
}

/** Runs one guard. Errors other than a lost session propagate (the route's error screen shows them). */
export async function runGuard(guard: GuardName, route: GuardRoute, sources: GuardSources): Promise<GuardOutcome> {
  try {
    switch (guard) {
      case "is-auth":
        if (!sources.hasToken()) return redirectTo(GUARD_TARGETS.login);
        await sources.me();
        return PASS;
      case "is-valid-subscription": {
        const company = await companyOf(sources);
        if (!company) return { kind: "no-company" };
        return company.subscriptionValid ? PASS : redirectTo(GUARD_TARGETS.failedSubscription);
      }
      case "has-permission": {
        if (!route.permission) return PASS;
        const permissions = await sources.permissions();
        if (permissions.includes(route.permission)) return PASS;
        return redirectTo(route.landing?.(permissions) ?? GUARD_TARGETS.accessDenied);
      }
      case "is-logout":
        return sources.hasToken() ? redirectTo(GUARD_TARGETS.home) : PASS;
      case "is-invalid-subscription": {
        const company = await companyOf(sources);
        if (!company) return { kind: "no-company" };
        return company.subscriptionValid ? redirectTo(GUARD_TARGETS.home) : PASS;
      }
    }
  } catch (error) {
    if (sessionLost(error)) return redirectTo(GUARD_TARGETS.login);
    throw error;
  }
}

/** Runs `names` in the spec's order; the first outcome that is not "pass" wins. */
export async function runGuards(names: readonly string[], route: GuardRoute, sources: GuardSources): Promise<GuardOutcome> {
  for (const guard of orderGuards(names)) {
    const outcome = await runGuard(guard, route, sources);
    if (outcome.kind !== "pass") return outcome;
  }
  return PASS;
}
