/**
 * Turns guard names into a react-router loader backed by the app's query cache (spec §2: guards as
 * route loaders). A redirect outcome becomes a router redirect; "no company" throws a 403 answer
 * with code `no_company` that the root error screen renders as the not-in-company screen.
 */
import { firstPermittedPath } from "./navigation";
import { data, redirect, type LoaderFunction } from "react-router";
import { queryClient } from "@/lib/query-client";
import { api } from "@/lib/session";
import { meQuery, permissionsQuery } from "@/features/session/api/session-api";
import { activeCompanyQuery } from "@/features/companies/api/companies-api";
import { orderGuards, runGuards, type GuardSources } from "./guards";
import { permissionFor } from "./route-permissions";

/** Guard sources read through react-query, so the layout reuses what the guards loaded. */
export const appGuardSources: GuardSources = {
  hasToken: () => api.tokens.get() !== null,
  me: () => queryClient.ensureQueryData(meQuery()),
  company: () => queryClient.ensureQueryData(activeCompanyQuery()),
  permissions: () => queryClient.ensureQueryData(permissionsQuery()),
};

/** The error data thrown when the user belongs to no company. */
export const NO_COMPANY = { code: "no_company" } as const;

/**
 * The check behind a guard loader: resolves null when every guard passes, throws a redirect
 * Response or a 403 `no_company` data answer otherwise. Unknown guard names throw at creation.
 */
export function guardCheck(pattern: string, guards: readonly string[], sources: GuardSources = appGuardSources): () => Promise<null> {
  const ordered = orderGuards(guards);
  const permission = permissionFor(pattern);
  return async () => {
    const landing = pattern === "/" ? firstPermittedPath : undefined;
    const outcome = await runGuards(ordered, { permission, landing }, sources);
    if (outcome.kind === "redirect") throw redirect(outcome.to);
    if (outcome.kind === "no-company") throw data(NO_COMPANY, { status: 403 });
    return null;
  };
}

/**
 * A loader running `guards` for the route `pattern` (its permission comes from ROUTE_PERMISSIONS).
 * Unknown guard names throw here, when the route table is built.
 */
export function guardLoader(pattern: string, guards: readonly string[], sources: GuardSources = appGuardSources): LoaderFunction {
  const check = guardCheck(pattern, guards, sources);
  return () => check();
}
