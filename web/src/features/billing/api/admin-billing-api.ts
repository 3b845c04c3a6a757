/**
 * Plans and coupons of the Admin area (platform administrators only; issue 13): list, create,
 * update, delete. The API answers 403 to anyone else.
 */
import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import { api } from "@/lib/session";
import { COUPON_KINDS, type CouponAnswer, type CouponInput, type PlanAnswer, type PlanInput } from "../../../../../schema/validation/billing";
import { planAnswer } from "./billing-api";

/** Runtime parser of CouponAnswer. */
export const couponAnswer: z.ZodType<CouponAnswer> = z.object({
  id: z.string(),
  code: z.string(),
  kind: z.enum(COUPON_KINDS),
  value: z.number(),
  validUntil: z.number().nullable(),
  maxUses: z.number().nullable(),
  uses: z.number(),
  planIds: z.array(z.string()),
  createdAt: z.number(),
  updatedAt: z.number(),
});

/** Query keys of the Admin area's plans and coupons. */
export const adminBillingKeys = {
  plans: ["admin", "plans"] as const,
  coupons: ["admin", "coupons"] as const,
};

/** GET /api/admin/plans → every plan, active or not. */
export const adminPlansQuery = () =>
  queryOptions({
    queryKey: adminBillingKeys.plans,
    queryFn: ({ signal }) => api.call("GET", "/admin/plans", z.object({ results: z.array(planAnswer) }), { signal }),
    select: (answer) => answer.results,
  });

/** GET /api/admin/coupons → every coupon. */
export const adminCouponsQuery = () =>
  queryOptions({
    queryKey: adminBillingKeys.coupons,
    queryFn: ({ signal }) => api.call("GET", "/admin/coupons", z.object({ results: z.array(couponAnswer) }), { signal }),
    select: (answer) => answer.results,
  });

/** POST /api/admin/plans, or PUT /api/admin/plans/{id} when `id` is given → the plan. */
export function savePlan(id: string | null, input: PlanInput): Promise<PlanAnswer> {
  return id ? api.call("PUT", `/admin/plans/${encodeURIComponent(id)}`, planAnswer, { body: input }) : api.call("POST", "/admin/plans", planAnswer, { body: input });
}

/** DELETE /api/admin/plans/{id}. */
export function deletePlan(id: string): Promise<void> {
  return api.send("DELETE", `/admin/plans/${encodeURIComponent(id)}`);
}

/** POST /api/admin/coupons, or PUT /api/admin/coupons/{id} when `id` is given → the coupon. */
export function saveCoupon(id: string | null, input: CouponInput): Promise<CouponAnswer> {
  return id ? api.call("PUT", `/admin/coupons/${encodeURIComponent(id)}`, couponAnswer, { body: input }) : api.call("POST", "/admin/coupons", couponAnswer, { body: input });
}

/** DELETE /api/admin/coupons/{id}. */
export function deleteCoupon(id: string): Promise<void> {
  return api.send("DELETE", `/admin/coupons/${encodeURIComponent(id)}`);
}
