/**
 * Subscription billing (issue 13; spec §3 Company plan/payment status/due date, §4 Payment status,
 * §9 plans and billing types). The company's access state stays in `companies.plan`,
 * `payment_status` and `due_date` (what the guards read); these tables hold what billing needs
 * besides, and worker/billing/state.ts keeps the two in step.
 */
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "./columns";
import type { FranchisePermission } from "./permissions";
import {
  BILLING_TYPES,
  COUPON_KINDS,
  INVOICE_STATUSES,
  PLAN_CYCLES,
  SUBSCRIPTION_STATUSES,
} from "./validation/billing";

/** A plan on sale (platform administrators). Price in integer BRL cents; null limits are unlimited. */
export const billingPlans = sqliteTable("billing_plans", {
  id: id(),
  name: text("name").notNull(),
  priceCents: integer("price_cents").notNull(),
  cycle: text("cycle", { enum: PLAN_CYCLES }).notNull(),
  maxMembers: integer("max_members"),
  maxConnections: integer("max_connections"),
  /** JSON array of FRANCHISE_PERMISSIONS values: the features the plan includes. */
  features: text("features", { mode: "json" }).$type<FranchisePermission[]>().notNull(),
  active: integer("active", { mode: "boolean" }).notNull().default(true),
  ...timestamps,
});
export type BillingPlanRow = typeof billingPlans.$inferSelect;

/** A discount coupon. `code` is stored upper-case (compared without case); empty `planIds` = every plan. */
export const billingCoupons = sqliteTable(
  "billing_coupons",
  {
    id: id(),
    code: text("code").notNull(),
    kind: text("kind", { enum: COUPON_KINDS }).notNull(),
    /** percent: 1–100; fixed: cents off. */
    value: integer("value").notNull(),
    /** ms UTC; null = no end. */
    validUntil: integer("valid_until"),
    maxUses: integer("max_uses"),
    uses: integer("uses").notNull().default(0),
    planIds: text("plan_ids", { mode: "json" }).$type<string[]>().notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex("billing_coupons_code_uq").on(t.code)],
);
export type BillingCouponRow = typeof billingCoupons.$inferSelect;

/**
 * A company's subscription (one per company). `priceCents` is locked when subscribing: a plan's
 * price change never changes it. Card: brand and last 4 digits only. Times ms UTC.
 */
export const billingSubscriptions = sqliteTable(
  "billing_subscriptions",
  {
    id: id(),
    companyId: text("company_id").notNull(),
    planId: text("plan_id").notNull(),
    priceCents: integer("price_cents").notNull(),
    status: text("status", { enum: SUBSCRIPTION_STATUSES }).notNull(),
    /** `sandbox` or `asaas`. */
    provider: text("provider").notNull(),
    providerCustomerId: text("provider_customer_id"),
    providerSubscriptionId: text("provider_subscription_id"),
    billingType: text("billing_type", { enum: BILLING_TYPES }).notNull(),
    cardBrand: text("card_brand"),
    cardLast4: text("card_last4"),
    /** Due date of the next (or current unpaid) charge. */
    nextDueDate: integer("next_due_date").notNull(),
    /** Access paid up to here (null until the first payment; far future for lifetime). */
    paidThrough: integer("paid_through"),
    couponId: text("coupon_id"),
    /** The due date whose reminder mail was sent (one reminder per charge). */
    reminderSentFor: integer("reminder_sent_for"),
    /** The company's local day (YYYY-MM-DD) the daily job last ran for it. */
    dailyRunDay: text("daily_run_day"),
    ...timestamps,
  },
  (t) => [uniqueIndex("billing_subscriptions_company_uq").on(t.companyId), index("billing_subscriptions_provider_idx").on(t.providerSubscriptionId)],
);
export type BillingSubscriptionRow = typeof billingSubscriptions.$inferSelect;

/**
 * One charge. `publicId` (≥ 128 random bits, base64url) is the unguessable id of the public
 * /checkout/{id} and /invoice/{id} pages. PIX: the copy-and-paste payload and the QR PNG (base64).
 */
export const billingInvoices = sqliteTable(
  "billing_invoices",
  {
    id: id(),
    publicId: text("public_id").notNull(),
    companyId: text("company_id").notNull(),
    subscriptionId: text("subscription_id"),
    planId: text("plan_id"),
    valueCents: integer("value_cents").notNull(),
    dueDate: integer("due_date").notNull(),
    paidAt: integer("paid_at"),
    method: text("method", { enum: BILLING_TYPES }),
    status: text("status", { enum: INVOICE_STATUSES }).notNull(),
    provider: text("provider").notNull(),
    providerPaymentId: text("provider_payment_id"),
    invoiceUrl: text("invoice_url"),
    pixPayload: text("pix_payload"),
    /** Base64 PNG (without the data: prefix). */
    pixQr: text("pix_qr"),
    pixExpiresAt: integer("pix_expires_at"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("billing_invoices_public_uq").on(t.publicId),
    uniqueIndex("billing_invoices_payment_uq").on(t.provider, t.providerPaymentId),
    index("billing_invoices_company_idx").on(t.companyId, t.createdAt),
  ],
);
export type BillingInvoiceRow = typeof billingInvoices.$inferSelect;

/** Provider events already applied (idempotency of webhooks): the event id, or `event:paymentId` when the provider sends none. */
export const billingEvents = sqliteTable("billing_events", {
  id: text("id").primaryKey(),
  provider: text("provider").notNull(),
  event: text("event").notNull(),
  receivedAt: integer("received_at").notNull(),
});

/**
 * Test clock (local and test environments only; POST /api/dev/clock): a company's "now" offset for
 * subscription checks, so an end-to-end test can end a trial. Never read in production.
 */
export const billingClocks = sqliteTable("billing_clocks", {
  companyId: text("company_id").primaryKey(),
  offsetMs: integer("offset_ms").notNull(),
});
