/**
 * Shipping cycles (issue 10; spec §2 /shipping-cycle, /shipping-cycle/{id}, §3 Shipping cycle, §9).
 * Managing cycles needs `shipping_cycles`; putting contacts in and out of cycles needs
 * `contacts_shipping_cycles` (or `shipping_cycles`); the list of cycles is readable with either (the
 * contacts screen's "add to shipping cycle" picks from it). Another company's cycle or contact
 * answers 404.
 *
 * - GET /api/shipping-cycles → ShippingCycleAnswer[] by name.
 * - POST /api/shipping-cycles {name, active = true, steps: [{flowId, wait: {value, unit}}] (1..50)}
 *   → 201 ShippingCycleAnswer. 400 `steps.N.flowId: invalid_id` for a flow that is not the
 *   company's; 409 `name_in_use` for a name another cycle has, ignoring case.
 * - GET /api/shipping-cycles/{id} → ShippingCycleAnswer.
 * - PUT /api/shipping-cycles/{id} {name?, active?, steps?} → ShippingCycleAnswer. `active: false`
 *   holds every enrolment (no step runs) until `active: true`.
 * - DELETE /api/shipping-cycles/{id} → 204 (its enrolments end).
 * - POST /api/shipping-cycles/{id}/contacts {contactIds (1..500)} → 200 CycleEnrolAnswer
 *   `{enrolled, skipped: [{contactId, reason: not_found|opted_out|already_enrolled}]}`.
 * - DELETE /api/shipping-cycles/{id}/contacts/{contactId} → 204; 404 when the contact is not in
 *   the cycle (its next step never runs).
 * - GET /api/contacts/{id}/shipping-cycles → ContactCycleAnswer[] (current step, next run), newest
 *   first.
 * - POST /api/contacts/{id}/opt-in (permission `contacts`) → {id, optedOutAt: null}.
 */
import { Hono } from "hono";
import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { shippingCycles, type ShippingCycleRow } from "../../schema";
import { idSchema } from "../../schema/validation/common";
import { cycleEnrolInput, shippingCycleInput, shippingCycleUpdate, type ContactCycleAnswer, type CycleStepInput } from "../../schema/validation/shipping-cycles";
import type { AppEnv } from "../env";
import type { HonoEnv } from "../middleware/context";
import { requireCompany, requirePermission, requireSubscription, requireUser } from "../middleware/auth";
import { findContact } from "../lib/contacts";
import type { Db } from "../lib/db";
import { now } from "../lib/db";
import { AppError, notFound } from "../lib/errors";
import { existingFlowIds, flowNames } from "../lib/flows";
import { newId } from "../lib/ids";
import { optIn } from "../lib/opt-out";
import { cycleSchedulerOf, enrolInCycle, findCycle, presentCycle } from "../lib/shipping-cycles";
import { assertNameFree, withNameIndex } from "../lib/unique-name";
import { zv } from "../lib/validate";

const idParam = z.object({ id: idSchema });

const signedIn = [requireUser, requireCompany, requireSubscription] as const;
const manage = requirePermission("shipping_cycles");
const enrolment = requirePermission("shipping_cycles", "contacts_shipping_cycles");

/** 400 naming each step whose flow is not a flow of the company. */
async function checkFlows(db: Db, companyId: string, steps: CycleStepInput[]): Promise<void> {
  const found = await existingFlowIds(db, companyId, [...new Set(steps.map((s) => s.flowId))]);
  const fields: Record<string, string> = {};
  steps.forEach((step, index) => {
    if (!found.has(step.flowId)) fields[`steps.${index}.flowId`] = "invalid_id";
  });
  if (Object.keys(fields).length) throw new AppError("validation_failed", "That flow does not exist.", fields);
}

async function present(env: AppEnv, db: Db, companyId: string, rows: ShippingCycleRow[]) {
  const [names, counts] = await Promise.all([
    flowNames(db, companyId, [...new Set(rows.flatMap((row) => row.steps.map((s) => s.flowId)))]),
    rows.length ? cycleSchedulerOf(env, companyId).counts() : Promise.resolve<Record<string, number>>({}),
  ]);
  return rows.map((row) => presentCycle(row, names, counts[row.id] ?? 0));
}

export const shippingCyclesRoutes = new Hono<HonoEnv>()
  /** GET /api/shipping-cycles → ShippingCycleAnswer[] by name. */
  .get("/", ...signedIn, enrolment, async (c) => {
    const companyId = c.var.company.id;
    const rows = await c.var.db.select().from(shippingCycles).where(eq(shippingCycles.companyId, companyId)).orderBy(asc(shippingCycles.name), asc(shippingCycles.id));
    return c.json(await present(c.env, c.var.db, companyId, rows));
  })
  /** POST /api/shipping-cycles → 201 ShippingCycleAnswer. */
  .post("/", ...signedIn, manage, zv("json", shippingCycleInput), async (c) => {
    const input = c.req.valid("json");
    const db = c.var.db;
    const companyId = c.var.company.id;
    await checkFlows(db, companyId, input.steps);
    await assertNameFree(db, shippingCycles, companyId, input.name);
    const at = now();
    const row: ShippingCycleRow = { id: newId(), companyId, name: input.name, active: input.active, steps: input.steps, createdAt: at, updatedAt: at };
    await withNameIndex(() => db.insert(shippingCycles).values(row));
    const [answer] = await present(c.env, c.var.db, companyId, [row]);
    return c.json(answer, 201);
  })
  /** GET /api/shipping-cycles/{id} → ShippingCycleAnswer. */
  .get("/:id", ...signedIn, manage, zv("param", idParam), async (c) => {
    const row = await findCycle(c.var.db, c.var.company.id, c.req.valid("param").id);
    const [answer] = await present(c.env, c.var.db, c.var.company.id, [row]);
    return c.json(answer);
  })
  /** PUT /api/shipping-cycles/{id} → ShippingCycleAnswer. */
  .put("/:id", ...signedIn, manage, zv("param", idParam), zv("json", shippingCycleUpdate), async (c) => {
    const input = c.req.valid("json");
    const db = c.var.db;
    const companyId = c.var.company.id;
    const row = await findCycle(db, companyId, c.req.valid("param").id);
    if (input.steps) await checkFlows(db, companyId, input.steps);
    if (input.name !== undefined) await assertNameFree(db, shippingCycles, companyId, input.name, { exceptId: row.id });
    const changes = { name: input.name ?? row.name, active: input.active ?? row.active, steps: input.steps ?? row.steps, updatedAt: now() };
    const [updated] = await withNameIndex(() =>
      db
        .update(shippingCycles)
        .set(changes)
        .where(and(eq(shippingCycles.id, row.id), eq(shippingCycles.companyId, companyId)))
        .returning(),
    );
    if (changes.active !== row.active) await cycleSchedulerOf(c.env, companyId).setCycleActive(row.id, changes.active);
    const [answer] = await present(c.env, c.var.db, companyId, [updated ?? { ...row, ...changes }]);
    return c.json(answer);
  })
  /** DELETE /api/shipping-cycles/{id} → 204. */
  .delete("/:id", ...signedIn, manage, zv("param", idParam), async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const row = await findCycle(db, companyId, c.req.valid("param").id);
    await db.delete(shippingCycles).where(and(eq(shippingCycles.id, row.id), eq(shippingCycles.companyId, companyId)));
    await cycleSchedulerOf(c.env, companyId).removeCycle(row.id);
    return c.body(null, 204);
  })
  /** POST /api/shipping-cycles/{id}/contacts {contactIds} → CycleEnrolAnswer. */
  .post("/:id/contacts", ...signedIn, enrolment, zv("param", idParam), zv("json", cycleEnrolInput), async (c) => {
    return c.json(await enrolInCycle(c.env, c.var.company.id, c.req.valid("param").id, c.req.valid("json").contactIds));
  })
  /** DELETE /api/shipping-cycles/{id}/contacts/{contactId} → 204. */
  .delete("/:id/contacts/:contactId", ...signedIn, enrolment, zv("param", z.object({ id: idSchema, contactId: idSchema })), async (c) => {
    const { id, contactId } = c.req.valid("param");
    const companyId = c.var.company.id;
    const cycle = await findCycle(c.var.db, companyId, id);
    if (!(await cycleSchedulerOf(c.env, companyId).remove(cycle.id, contactId))) throw notFound("Enrolment");
    return c.body(null, 204);
  });

/**
 * Mounted at /api/contacts before the contacts routes (its middleware per route). Also
 * POST /api/contacts/{id}/opt-in (permission `contacts`) → {id, optedOutAt: null}: a member clears
 * the contact's opt-out (issue 10; a later customer message never does).
 */
export const contactCyclesRoutes = new Hono<HonoEnv>()
  /** POST /api/contacts/{id}/opt-in → {id, optedOutAt: null}. */
  .post("/:id/opt-in", ...signedIn, requirePermission("contacts"), zv("param", idParam), async (c) => {
    const contact = await findContact(c.var.db, c.var.company.id, c.req.valid("param").id);
    await optIn(c.var.db, c.var.company.id, contact.id);
    return c.json({ id: contact.id, optedOutAt: null });
  })
  /** GET /api/contacts/{id}/shipping-cycles → ContactCycleAnswer[]. */
  .get("/:id/shipping-cycles", ...signedIn, requirePermission("contacts_shipping_cycles", "shipping_cycles"), zv("param", idParam), async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const contact = await findContact(db, companyId, c.req.valid("param").id);
    const views = await cycleSchedulerOf(c.env, companyId).listForContact(contact.id);
    const cycles = new Map(
      (await db.select().from(shippingCycles).where(eq(shippingCycles.companyId, companyId))).map((row) => [row.id, row]),
    );
    const answer: ContactCycleAnswer[] = views.flatMap((view) => {
      const cycle = cycles.get(view.cycleId);
      if (!cycle) return [];
      return [{ ...view, cycleName: cycle.name, cycleActive: cycle.active, stepCount: cycle.steps.length }];
    });
    return c.json(answer);
  });
