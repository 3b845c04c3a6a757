/**
 * The active company's features (issue 14; GET /api/me/features, worker/lib/features.ts): the
 * franchise-grantable ones its franchise role (and plan) allow. The permissions of GET
 * /api/me/permissions already lack the others; this list also covers `integration` (the API: API
 * keys and event subscriptions), which no company permission names.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { api } from "@/lib/session";
import { sessionKeys } from "../api/session-api";

/** GET /api/me/features → feature names ([] without an active company). */
export const featuresQuery = () =>
  queryOptions({
    queryKey: [...sessionKeys.all, "features"] as const,
    queryFn: ({ signal }) => api.call("GET", "/me/features", z.array(z.string()), { signal }),
    select: (features) => new Set(features),
  });

/** The active company's features as a set (undefined while loading). */
export function useFeatures() {
  return useQuery(featuresQuery());
}
