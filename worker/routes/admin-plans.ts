/**
 * Plans and coupons, managed by platform administrators (issue 13; PLATFORM_ADMINS,
 * worker/middleware/platform-admin.ts). Shapes: schema/validation/billing.ts.
 *
 * - GET /api/admin/plans → PlansAnswer (every plan, active or not, cheapest first).
 * - POST /api/admin/plans PlanInput → 201 PlanAnswer.
 * - PUT /api/admin/plans/{id} PlanInput → PlanAnswer; 404 unknown. Existing subscribers keep their
 *   locked price (billing_subscriptions.price_cents): a price change applies to new subscriptions.
 * - DELETE /api/admin/plans/{id} → 204; 409 `conflict` while a subscription uses it (deactivate it
 *   instead); 404 unknown.
 * - GET /api/admin/coupons → CouponsAnswer (newest first).
 * - POST /api/admin/coupons CouponInput → 201 CouponAnswer; 409 `name_in_use` (field `code`) when
 *   the code exists (compared without case).
 * - PUT /api/admin/coupons/{id} CouponInput → CouponAnswer; DELETE /api/admin/coupons/{id} → 204.
 * Every route: 401 without a session, 403 for users who are not platform administrators and for
 * company API keys; 400 naming the field.
 */
import { Hono } from "hono";
import { asc, desc, eq } from "drizzle-orm";
import { z } from "zod";
import { billingCoupons, billingPlans, billingSubscriptions } from "../../schema";
import { couponInput, planInput, type CouponsAnswer, type PlansAnswer } from "../../schema/validation/billing";
import { idSchema } from "../../schema/validation/common";
import type { HonoEnv } from "../middleware/context";
import { requireUser } from "../middleware/auth";
import { requirePlatformAdmin } from "../middleware/platform-admin";
import { isUniqueViolation, now } from "../lib/db";
import { AppError, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { zv } from "../lib/validate";
import { presentCoupon, presentPlan } from "../billing/service";

const idParam = z.object({ id: idSchema });
const codeInUse = () => new AppError("name_in_use", "This coupon code is already in use.", { code: "name_in_use" });

export const adminPlansRoutes = new Hono<HonoEnv>()
  .use(requireUser, requirePlatformAdmin)
  .get("/", async (c) => {
    const rows = await c.var.db.select().from(billingPlans).orderBy(asc(billingPlans.priceCents), asc(billingPlans.id));
    const answer: PlansAnswer = { results: rows.map(presentPlan), cursor: null, total: rows.length };
    return c.json(answer);
  })
  .post("/", zv("json", planInput), async (c) => {
    const at = now();
    const row = { id: newId(), ...c.req.valid("json"), createdAt: at, updatedAt: at };
    await c.var.db.insert(billingPlans).values(row);
    return c.json(presentPlan(row), 201);
  })
  .put("/:id", zv("param", idParam), zv("json", planInput), async (c) => {
    const { id } = c.req.valid("param");
    const [row] = await c.var.db.update(billingPlans).set({ ...c.req.valid("json"), updatedAt: now() }).where(eq(billingPlans.id, id)).returning();
    if (!row) throw notFound("Plan");
    return c.json(presentPlan(row));
  })
  .delete("/:id", zv("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    const used = await c.var.db.select({ id: billingSubscriptions.id }).from(billingSubscriptions).where(eq(billingSubscriptions.planId, id)).get();
    if (used) throw new AppError("conflict", "Subscriptions use this plan; deactivate it instead.");
    const deleted = await c.var.db.delete(billingPlans).where(eq(billingPlans.id, id)).returning({ id: billingPlans.id });
    if (deleted.length === 0) throw notFound("Plan");
    return c.body(null, 204);
  });

export const adminCouponsRoutes = new Hono<HonoEnv>()
  .use(requireUser, requirePlatformAdmin)
  .get("/", async (c) => {
    const rows = await c.var.db.select().from(billingCoupons).orderBy(desc(billingCoupons.createdAt)).limit(500);
    const answer: CouponsAnswer = { results: rows.map(presentCoupon), cursor: null, total: rows.length };
    return c.json(answer);
  })
  .post("/", zv("json", couponInput), async (c) => {
    const at = now();
    const row = { id: newId(), ...c.req.valid("json"), uses: 0, createdAt: at, updatedAt: at };
    try {
      await c.var.db.insert(billingCoupons).values(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw codeInUse();
      throw error;
    }
    return c.json(presentCoupon(row), 201);
  })
  .put("/:id", zv("param", idParam), zv("json", couponInput), async (c) => {
    const { id } = c.req.valid("param");
    let row;
    try {
      [row] = await c.var.db.update(billingCoupons).set({ ...c.req.valid("json"), updatedAt: now() }).where(eq(billingCoupons.id, id)).returning();
    } catch (error) {
      if (isUniqueViolation(error)) throw codeInUse();
      throw error;
    }
    if (!row) throw notFound("Coupon");
    return c.json(presentCoupon(row));
  })
  .delete("/:id", zv("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    const deleted = await c.var.db.delete(billingCoupons).where(eq(billingCoupons.id, id)).returning({ id: billingCoupons.id });
    if (deleted.length === 0) throw notFound("Coupon");
    return c.body(null, 204);
  });
