/**
 * Translated labels of billing values (issue 13; spec §4 Payment status, §9 plans and billing
 * types): subscription and invoice states, cycles, payment methods, coupon kinds and the
 * franchise-grantable features a plan includes (spec §6).
 */
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { FranchisePermission } from "../../../../../schema/permissions";
import type { BillingType, CouponKind, InvoiceStatus, PlanCycle, SubscriptionStatus } from "../../../../../schema/validation/billing";

/** Subscription states. */
export const SUBSCRIPTION_STATUS_LABELS: Record<SubscriptionStatus, MessageDescriptor> = {
  trial: msg`Trial`,
  active: msg({ message: "Active", context: "subscription status" }),
  pending: msg`Pending`,
  overdue: msg`Overdue`,
  suspended: msg`Suspended`,
  cancelled: msg`Cancelled`,
};

/** Invoice states. */
export const INVOICE_STATUS_LABELS: Record<InvoiceStatus, MessageDescriptor> = {
  pending: msg`Pending`,
  paid: msg`Paid`,
  overdue: msg`Overdue`,
  refunded: msg`Refunded`,
  cancelled: msg`Cancelled`,
};

/** Payment status of spec §4. */
export const PAYMENT_STATUS_LABELS: Record<"paid" | "pending", MessageDescriptor> = {
  paid: msg`Paid`,
  pending: msg`Pending`,
};

/** Plan cycles of spec §9. */
export const CYCLE_LABELS: Record<PlanCycle, MessageDescriptor> = {
  monthly: msg`Monthly`,
  semiannual: msg`Semiannual`,
  yearly: msg`Yearly`,
  lifetime: msg`Lifetime`,
};

/** "per month" etc., after a price. */
export const CYCLE_SUFFIXES: Record<PlanCycle, MessageDescriptor> = {
  monthly: msg`per month`,
  semiannual: msg`every 6 months`,
  yearly: msg`per year`,
  lifetime: msg`once`,
};

/** Billing types of spec §9. */
export const METHOD_LABELS: Record<BillingType, MessageDescriptor> = {
  CREDIT_CARD: msg`Credit card`,
  PIX: msg`PIX`,
};

/** Coupon kinds. */
export const COUPON_KIND_LABELS: Record<CouponKind, MessageDescriptor> = {
  percent: msg`Percentage`,
  fixed: msg`Fixed amount`,
};

/** The franchise-grantable features of spec §6, as a plan lists them. */
export const FEATURE_LABELS: Record<FranchisePermission, MessageDescriptor> = {
  internal_chats: msg`Internal chat`,
  broadcasts: msg`Broadcasts`,
  shipping_cycles: msg`Shipping cycles`,
  crm: msg`CRM`,
  keywords: msg`Keywords`,
  webhooks: msg`Webhooks`,
  quick_messages: msg`Quick messages`,
  flow: msg`Flow builder`,
  integration: msg`Integration (API)`,
};

/** Badge look of a state: good, waiting or bad. */
export function statusTone(status: SubscriptionStatus | InvoiceStatus): "default" | "secondary" | "destructive" | "outline" {
  switch (status) {
    case "active":
    case "paid":
      return "default";
    case "trial":
    case "pending":
      return "secondary";
    case "overdue":
    case "suspended":
      return "destructive";
    default:
      return "outline";
  }
}
