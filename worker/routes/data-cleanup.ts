/**
 * Data cleanup (spec §4 "Data cleanup", §7 `GET/POST /companies/delete-data`; issue 12), permission
 * `settings_company`:
 * - GET /api/companies/delete-data → DataCleanupAnswer: the deleting state (`status: "none"` when
 *   the company never ran a cleanup, else its latest one with `type`, `status`, `progress`);
 * - POST /api/companies/delete-data {type} → 202 DataCleanupAnswer (queued). 400 `type`
 *   `invalid_type`; 409 `conflict` while another cleanup of the company is queued or running.
 * The work runs on the `jobs` queue in chunks (worker/lib/data-cleanup.ts); progress is pushed to
 * the company hub as `job.updated` (type `cleanup`).
 */
import { Hono } from "hono";
import { dataCleanupInput } from "../../schema/validation/data-cleanup";
import type { HonoEnv } from "../middleware/context";
import { requireCompany, requirePermission, requireSubscription, requireUser } from "../middleware/auth";
import { latestCleanup, presentCleanup, startCleanup } from "../lib/data-cleanup";
import { zv } from "../lib/validate";

export const dataCleanupRoutes = new Hono<HonoEnv>()
  .use(requireUser, requireCompany, requireSubscription, requirePermission("settings_company"))
  /** GET /api/companies/delete-data → DataCleanupAnswer. */
  .get("/", async (c) => c.json(presentCleanup(await latestCleanup(c.var.db, c.var.company.id))))
  /** POST /api/companies/delete-data {type: contacts|custom_fields|tags|flows|all} → 202 DataCleanupAnswer. */
  .post("/", zv("json", dataCleanupInput), async (c) => {
    const { type } = c.req.valid("json");
    const job = await startCleanup(c.env, c.var.db, c.var.company.id, c.var.memberId, type);
    return c.json(presentCleanup(job), 202);
  });
