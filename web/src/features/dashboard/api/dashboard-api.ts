/** The dashboard (GET /api/dashboard?from=&to=; worker/routes/dashboard.ts; permission `dashboard`). */
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import { api } from "@/lib/session";
import type { DashboardAnswer } from "../../../../../schema/validation/dashboard";

const duration = z.object({ count: z.number(), medianMs: z.number().nullable(), p90Ms: z.number().nullable() });

/** Runtime parser of DashboardAnswer. */
export const dashboardAnswer: z.ZodType<DashboardAnswer> = z.object({
  from: z.string(),
  to: z.string(),
  attendances: z.number(),
  receptive: z.number(),
  active: z.number(),
  contacts: z.number(),
  newContacts: z.number(),
  customEvents: z.array(z.object({ name: z.string(), count: z.number() })),
  firstResponse: duration,
  resolution: duration,
  series: z.array(
    z.object({
      date: z.string(),
      attendances: z.number(),
      receptive: z.number(),
      active: z.number(),
      newContacts: z.number(),
      customEvents: z.number(),
      firstResponseMedianMs: z.number().nullable(),
      resolutionMedianMs: z.number().nullable(),
    }),
  ),
});

/** Query keys of the dashboard. */
export const dashboardKeys = {
  all: ["dashboard"] as const,
  range: (range: { from: string; to: string } | null) => [...dashboardKeys.all, range?.from ?? "default", range?.to ?? "default"] as const,
};

/**
 * The figures of the local days `from`…`to` (YYYY-MM-DD, both included), or with `null` the API's
 * default (the last 30 days up to today in the company's time zone; the answer says which days).
 * The previous range stays shown while the next loads.
 */
export const dashboardQuery = (range: { from: string; to: string } | null) =>
  queryOptions({
    queryKey: dashboardKeys.range(range),
    queryFn: ({ signal }) => api.call("GET", "/dashboard", dashboardAnswer, { query: range ?? {}, signal }),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
