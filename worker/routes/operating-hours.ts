/**
 * Operating hours (spec /settings/operating-hours; issue 12), permission `settings_company`:
 * - GET /api/companies/operating-hours → OperatingHoursAnswer (the defaults, disabled, when the
 *   company never saved any);
 * - PUT /api/companies/operating-hours OperatingHoursInput → OperatingHoursAnswer.
 * Shapes and 400 codes: schema/validation/operating-hours.ts. The schedule is read in the company's
 * time zone (companies.timezone, edited in Settings → Company); how it is applied to inbound
 * messages: worker/lib/operating-hours-inbound.ts.
 */
import { Hono } from "hono";
import { and, eq, inArray } from "drizzle-orm";
import { connections, flows, operatingHours, type CompanyRow } from "../../schema";
import { defaultOperatingHours, operatingHoursInput, type OperatingHoursAnswer, type OperatingHoursInput } from "../../schema/validation/operating-hours";
import type { HonoEnv } from "../middleware/context";
import { requireCompany, requirePermission, requireSubscription, requireUser } from "../middleware/auth";
import type { Db } from "../lib/db";
import { now } from "../lib/db";
import { AppError } from "../lib/errors";
import { isOpen } from "../lib/operating-hours";
import { zv } from "../lib/validate";

/** The company's settings (or the defaults) as the API answers them, with `openNow` at `at` (ms UTC). */
export async function loadOperatingHours(db: Db, company: Pick<CompanyRow, "id" | "timezone">, at = Date.now()): Promise<OperatingHoursAnswer> {
  const row = await db.query.operatingHours.findFirst({ where: eq(operatingHours.companyId, company.id) });
  const settings: OperatingHoursInput = row ? { enabled: row.enabled, weekly: row.weekly, exceptions: row.exceptions, outside: row.outside } : defaultOperatingHours();
  let openNow = true;
  if (settings.enabled) {
    try {
      openNow = isOpen(settings, company.timezone, at);
    } catch {
      openNow = true;
    }
  }
  return { ...settings, timezone: company.timezone, openNow };
}

/**
 * 400 unless every connection of `outside.connections` and every flow an action names belongs to
 * the company: `outside.connections.<id>` `unknown_connection`, `outside.all.flowId` /
 * `outside.connections.<id>.flowId` `unknown_flow`.
 */
async function checkReferences(db: Db, companyId: string, input: OperatingHoursInput): Promise<void> {
  const connectionIds = Object.keys(input.outside.connections);
  if (connectionIds.length) {
    const found = new Set(
      (await db.select({ id: connections.id }).from(connections).where(and(eq(connections.companyId, companyId), inArray(connections.id, connectionIds)))).map((r) => r.id),
    );
    const missing = connectionIds.find((id) => !found.has(id));
    if (missing) throw new AppError("validation_failed", "The outside-hours settings name a connection that does not exist.", { [`outside.connections.${missing}`]: "unknown_connection" });
  }
  const flowFields: [string, string][] = [];
  if (input.outside.all.type === "flow") flowFields.push(["outside.all.flowId", input.outside.all.flowId]);
  for (const [id, action] of Object.entries(input.outside.connections)) if (action.type === "flow") flowFields.push([`outside.connections.${id}.flowId`, action.flowId]);
  if (flowFields.length) {
    const ids = [...new Set(flowFields.map(([, id]) => id))];
    const found = new Set((await db.select({ id: flows.id }).from(flows).where(and(eq(flows.companyId, companyId), inArray(flows.id, ids)))).map((r) => r.id));
    const missing = flowFields.find(([, id]) => !found.has(id));
    if (missing) throw new AppError("validation_failed", "The outside-hours settings name a flow that does not exist.", { [missing[0]]: "unknown_flow" });
  }
}

export const operatingHoursRoutes = new Hono<HonoEnv>()
  .use(requireUser, requireCompany, requireSubscription, requirePermission("settings_company"))
  /** GET /api/companies/operating-hours → OperatingHoursAnswer. */
  .get("/", async (c) => c.json(await loadOperatingHours(c.var.db, c.var.company)))
  /**
   * PUT /api/companies/operating-hours {enabled, weekly, exceptions, outside} → OperatingHoursAnswer.
   * 400 names the field: an inverted range (`weekly.mon.0.close` `inverted_range`), an overlapping
   * one (`weekly.mon.1` `overlapping_range`), a bad time (`invalid_time`), a duplicate exception
   * date (`exceptions.0.date` `duplicate_date`), an unknown connection or flow (checkReferences).
   */
  .put("/", zv("json", operatingHoursInput), async (c) => {
    const input = c.req.valid("json");
    const db = c.var.db;
    const companyId = c.var.company.id;
    await checkReferences(db, companyId, input);
    const at = now();
    const values = { enabled: input.enabled, weekly: input.weekly, exceptions: [...input.exceptions].sort((a, b) => a.date.localeCompare(b.date)), outside: input.outside };
    await db
      .insert(operatingHours)
      .values({ companyId, ...values, createdAt: at, updatedAt: at })
      .onConflictDoUpdate({ target: operatingHours.companyId, set: { ...values, updatedAt: at } });
    return c.json(await loadOperatingHours(db, c.var.company, at));
  });
