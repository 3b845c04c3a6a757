/**
 * The guards' sources backed by the app's query cache (spec §2: guards as route loaders), and the
 * landing rule of `/`. Loaded by guard-loader.ts only when a guard needs the session, so an auth
 * page without a token (/login) loads neither react-query nor the session's parsers (issue 9).
 */
import { queryClient } from "@/lib/query-client";
import { meQuery, permissionsQuery } from "@/features/session/api/session-api";
import { activeCompanyQuery } from "@/features/companies/api/companies-api";
import type { GuardSources } from "./guards";

export { firstPermittedPath } from "./navigation";

/** The session's user, active company and permissions, read through react-query (the layout reuses them). */
export const querySources: Omit<GuardSources, "hasToken"> = {
  me: () => queryClient.ensureQueryData(meQuery()),
  company: () => queryClient.ensureQueryData(activeCompanyQuery()),
  permissions: () => queryClient.ensureQueryData(permissionsQuery()),
};
