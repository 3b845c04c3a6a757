/**
 * The dashboard (issue 12 "Dashboard"; spec §2 Dashboard, permission `dashboard`).
 *
 * GET /api/dashboard?from=YYYY-MM-DD&to=YYYY-MM-DD → DashboardAnswer (schema/validation/dashboard.ts):
 * the figures of the local days `from`…`to` (both included) in the company's time zone; `to`
 * defaults to today and `from` to 29 days before `to`. 400 `validation_failed`, field `from`
 * (`invalid_date`, `after_to`) or `to` (`invalid_date`, `range_too_long`: more than 366 days).
 * Read from the maintained daily counters (worker/lib/dashboard.ts): at most 367 rows per request
 * whatever the company's size.
 */
import { Hono } from "hono";
import { dashboardQuery, daysInRange, MAX_DASHBOARD_DAYS } from "../../schema/validation/dashboard";
import type { HonoEnv } from "../middleware/context";
import { requireCompany, requirePermission, requireSubscription, requireUser } from "../middleware/auth";
import { AppError } from "../lib/errors";
import { loadDashboard, localDay } from "../lib/dashboard";
import { zv } from "../lib/validate";

/** The date `days` days before `date` (YYYY-MM-DD). */
function minusDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

export const dashboardRoutes = new Hono<HonoEnv>()
  .use(requireUser, requireCompany, requireSubscription, requirePermission("dashboard"))
  /** GET /api/dashboard?from=&to= → DashboardAnswer (see the file's header). */
  .get("/", zv("query", dashboardQuery), async (c) => {
    const q = c.req.valid("query");
    const company = c.var.company;
    const to = q.to ?? localDay(Date.now(), company.timezone);
    const from = q.from ?? minusDays(to, 29);
    if (from > to) throw new AppError("validation_failed", "Invalid input: from.", { from: "after_to" });
    if (daysInRange(from, to) > MAX_DASHBOARD_DAYS) throw new AppError("validation_failed", "Invalid input: to.", { to: "range_too_long" });
    return c.json(await loadDashboard(c.var.db, company.id, from, to));
  });
