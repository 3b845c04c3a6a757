/**
 * Turns guard names into a react-router loader backed by the app's query cache (spec §2: guards as
 * route loaders). A redirect outcome becomes a router redirect; "no company" throws a 403 answer
 * with code `no_company` that the root error screen renders as the not-in-company screen.
 */
import { data, redirect, type LoaderFunction } from "react-router";
import { api } from "@/lib/session";
import { orderGuards, runGuards, type GuardSources } from "./guards";
import { permissionFor } from "./route-permissions";

/** The query-backed sources and the landing rule, loaded on first need (not by /login without a token). */
const sessionSources = () => import("./guard-sources");

/**
 * Guard sources read through react-query, so the layout reuses what the guards loaded. The token
 * check is immediate; the others load guard-sources.ts (react-query, the session's parsers) first.
 */
export const appGuardSources: GuardSources = {
  hasToken: () => api.tokens.get() !== null,
  me: async () => (await sessionSources()).querySources.me(),
  company: async () => (await sessionSources()).querySources.company(),
  permissions: async () => (await sessionSources()).querySources.permissions(),
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
    // Without a token "/" redirects to /login before any landing is needed.
    const landing = pattern === "/" && sources.hasToken() ? (await sessionSources()).firstPermittedPath : undefined;
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
