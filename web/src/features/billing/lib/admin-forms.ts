/**
 * The Admin area's plan and coupon forms (issue 13): their values as the inputs hold them and the
 * conversion to the API's inputs. Prices and fixed discounts are typed as money in the admin's
 * language and stored as integer cents; blank limits mean unlimited; a coupon's "valid until" is a
 * calendar day (the app's date picker), valid through the end of that day in the admin's time zone.
 */
import { z } from "zod";
import { FRANCHISE_PERMISSIONS, type FranchisePermission } from "../../../../../schema/permissions";
import { COUPON_KINDS, PLAN_CYCLES, couponCodeSchema, type CouponAnswer, type CouponInput, type PlanAnswer, type PlanInput } from "../../../../../schema/validation/billing";
import { centsToInput, inputToCents } from "./money";

/** A blank or a whole number ≥ 1 (a limit; blank = unlimited). */
function limitText(code: string) {
  return z.string().trim().regex(/^(\d{1,6})?$/, { error: code }).refine((v) => v === "" || Number(v) >= 1, { error: code });
}

/** Parses a limit's text: null for blank. */
export function limitOf(text: string): number | null {
  return text.trim() === "" ? null : Number(text.trim());
}

/** The plan form (`locale` reads the price). */
export function planFormSchema(locale?: string) {
  return z.object({
    name: z.string().trim().min(1, { error: "required" }).max(80, { error: "too_long" }),
    price: z.string().refine((v) => inputToCents(v, locale) !== null, { error: "invalid_price" }),
    cycle: z.enum(PLAN_CYCLES, { error: "invalid_cycle" }),
    maxMembers: limitText("invalid_limit"),
    maxConnections: limitText("invalid_limit"),
    features: z.array(z.enum(FRANCHISE_PERMISSIONS)),
    active: z.boolean(),
  });
}
export type PlanFormValues = z.infer<ReturnType<typeof planFormSchema>>;

/** The plan form's starting values (empty, or those of `plan`). */
export function planFormValues(plan: PlanAnswer | null, locale?: string): PlanFormValues {
  return {
    name: plan?.name ?? "",
    price: plan ? centsToInput(plan.priceCents, locale) : "",
    cycle: plan?.cycle ?? "monthly",
    maxMembers: plan?.maxMembers == null ? "" : String(plan.maxMembers),
    maxConnections: plan?.maxConnections == null ? "" : String(plan.maxConnections),
    features: plan ? [...plan.features] : ([...FRANCHISE_PERMISSIONS] as FranchisePermission[]),
    active: plan?.active ?? true,
  };
}

/** The API input of the plan form's values. */
export function planInputOf(values: PlanFormValues, locale?: string): PlanInput {
  return {
    name: values.name.trim(),
    priceCents: inputToCents(values.price, locale) ?? 0,
    cycle: values.cycle,
    maxMembers: limitOf(values.maxMembers),
    maxConnections: limitOf(values.maxConnections),
    features: values.features,
    active: values.active,
  };
}

/** The coupon form (`locale` reads a fixed amount). */
export function couponFormSchema(locale?: string) {
  return z
    .object({
      code: z
        .string()
        .trim()
        .min(1, { error: "required" })
        .refine((v) => v === "" || couponCodeSchema.safeParse(v).success, { error: "invalid_coupon" }),
      kind: z.enum(COUPON_KINDS, { error: "invalid_kind" }),
      value: z.string(),
      validUntil: z.string().regex(/^(\d{4}-\d{2}-\d{2})?$/, { error: "invalid_date" }),
      maxUses: limitText("invalid_limit"),
      planIds: z.array(z.string()),
    })
    .superRefine((v, ctx) => {
      const value = couponValueOf(v.kind, v.value, locale);
      if (value === null || value < 1 || (v.kind === "percent" && value > 100)) ctx.addIssue({ code: "custom", path: ["value"], message: "invalid_value" });
    });
}
export type CouponFormValues = z.infer<ReturnType<typeof couponFormSchema>>;

/** A coupon's value: a whole percent (1–100) or, for a fixed discount, cents. Null when unreadable. */
export function couponValueOf(kind: CouponFormValues["kind"], text: string, locale?: string): number | null {
  if (kind === "fixed") return inputToCents(text, locale);
  const trimmed = text.trim().replace(/%$/, "").trim();
  return /^\d{1,3}$/.test(trimmed) ? Number(trimmed) : null;
}

/** `YYYY-MM-DD` of an instant in the browser's time zone. */
export function isoDay(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The last millisecond of the day `YYYY-MM-DD` in the browser's time zone; null for blank. */
export function endOfDay(day: string): number | null {
  if (!day) return null;
  const [y, m, d] = day.split("-").map(Number);
  return new Date(y!, m! - 1, d! + 1).getTime() - 1;
}

/** The coupon form's starting values. */
export function couponFormValues(coupon: CouponAnswer | null, locale?: string): CouponFormValues {
  return {
    code: coupon?.code ?? "",
    kind: coupon?.kind ?? "percent",
    value: coupon ? (coupon.kind === "fixed" ? centsToInput(coupon.value, locale) : String(coupon.value)) : "",
    validUntil: coupon?.validUntil != null ? isoDay(coupon.validUntil) : "",
    maxUses: coupon?.maxUses == null ? "" : String(coupon.maxUses),
    planIds: coupon ? [...coupon.planIds] : [],
  };
}

/** The API input of the coupon form's values. */
export function couponInputOf(values: CouponFormValues, locale?: string): CouponInput {
  return {
    code: values.code.trim(),
    kind: values.kind,
    value: couponValueOf(values.kind, values.value, locale) ?? 0,
    validUntil: endOfDay(values.validUntil),
    maxUses: limitOf(values.maxUses),
    planIds: values.planIds,
  };
}
