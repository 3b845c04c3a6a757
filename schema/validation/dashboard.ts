/**
 * GET /api/dashboard (issue 12 "Dashboard"; spec §2 Dashboard): the query and the answer, shared by
 * the worker and the web.
 */
import { z } from "zod";

/** Longest range the dashboard answers, in days (inclusive of both ends). */
export const MAX_DASHBOARD_DAYS = 366;

/** A calendar date YYYY-MM-DD that exists (2026-02-30 is refused). */
export const isoDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "invalid_date" })
  .refine((v) => {
    const t = Date.parse(`${v}T00:00:00Z`);
    return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === v;
  }, { error: "invalid_date" });

/** Days from `from` to `to`, both included (1 for a single day). */
export function daysInRange(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/**
 * `?from=&to=`: local dates of the company's time zone, both included; each defaults (the last 30
 * days up to today). 400 `from`: `after_to` when from > to; 400 `to`: `range_too_long` beyond
 * MAX_DASHBOARD_DAYS days.
 */
export const dashboardQuery = z
  .object({ from: isoDateSchema.optional(), to: isoDateSchema.optional() })
  .superRefine((v, ctx) => {
    if (!v.from || !v.to) return;
    if (v.from > v.to) ctx.addIssue({ code: "custom", path: ["from"], message: "after_to" });
    else if (daysInRange(v.from, v.to) > MAX_DASHBOARD_DAYS) ctx.addIssue({ code: "custom", path: ["to"], message: "range_too_long" });
  });

/** A duration figure: how many samples, their median and 90th percentile (ms; null without samples). */
export type DurationFigure = { count: number; medianMs: number | null; p90Ms: number | null };

/** One day of the range's series. */
export type DashboardDay = {
  date: string;
  attendances: number;
  receptive: number;
  active: number;
  newContacts: number;
  customEvents: number;
  firstResponseMedianMs: number | null;
  resolutionMedianMs: number | null;
};

/**
 * GET /api/dashboard → the range's figures: `attendances` (tickets opened) = `receptive` (the
 * customer started them) + `active` (the company did); `contacts` (total now); `newContacts`;
 * `customEvents` by name; first response and resolution; `series`, one entry per day.
 */
export type DashboardAnswer = {
  from: string;
  to: string;
  attendances: number;
  receptive: number;
  active: number;
  contacts: number;
  newContacts: number;
  customEvents: { name: string; count: number }[];
  firstResponse: DurationFigure;
  resolution: DurationFigure;
  series: DashboardDay[];
};
