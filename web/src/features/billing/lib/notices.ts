/**
 * Which payment notice the app shows above its pages (spec §4 "Payment status", §8 payment
 * messages; issue 13): suspended ('Payment not made. Access temporarily suspended.'), pending
 * ('Pending payment. Please verify your payment method.'), the expiry warning with the date, and
 * for franchise companies the advice to contact their administrator instead of a payment link.
 * The server's `message` (GET /api/companies/subscription, which knows the test clock and the grace
 * period) decides; without it (the call refused or not loaded) the active company's own fields do.
 * Each notice carries its way out: the open invoice's checkout, or the plan choice.
 */
import type { CompanyAnswer } from "../../../../../schema/api-types";
import type { SubscriptionAnswer } from "../../../../../schema/validation/billing";

/** Days before the due date when the expiry warning appears without the server's word. */
export const EXPIRY_WARNING_DAYS = 7;

/** A notice: its kind, the due date for the expiry warning, whether it is the trial's, and where "Pay now" leads (null: contact the administrator). */
export type BillingNotice = {
  kind: "suspended" | "pending" | "expiring" | "contact_administrator";
  dueDate: number;
  trial: boolean;
  franchise: boolean;
  payHref: string | null;
};

type CompanyView = Pick<CompanyAnswer, "paymentStatus" | "dueDate" | "plan" | "subscriptionValid">;

/** Where paying leads: the open invoice's checkout, else the plan choice (in settings when the app is open, else on /failed-subscription). */
export function payHref(subscription: Pick<SubscriptionAnswer, "nextInvoice"> | undefined, valid: boolean): string {
  const invoice = subscription?.nextInvoice;
  if (invoice && (invoice.status === "pending" || invoice.status === "overdue")) return `/checkout/${invoice.publicId}`;
  return valid ? "/settings/subscription" : "/failed-subscription";
}

/** The notice to show, or null. `now` in ms UTC. */
export function billingNotice(company: CompanyView, subscription: SubscriptionAnswer | undefined, now = Date.now()): BillingNotice | null {
  const valid = subscription?.valid ?? company.subscriptionValid;
  const franchise = subscription?.franchise ?? false;
  const dueDate = subscription?.dueDate ?? company.dueDate;
  const trial = subscription ? subscription.status === "trial" : company.paymentStatus === "trial";
  const href = franchise ? null : payHref(subscription, valid);
  const notice = (kind: BillingNotice["kind"]): BillingNotice => ({ kind, dueDate, trial, franchise, payHref: href });
  if (subscription) {
    const message = subscription.message;
    if (!message) return null;
    if (message.kind === "expiring") return { ...notice("expiring"), dueDate: message.dueDate };
    return notice(message.kind);
  }
  if (!company.subscriptionValid) return notice("suspended");
  if (company.paymentStatus === "pending") return notice("pending");
  if (company.plan === "lifetime") return null;
  const left = company.dueDate - now;
  if (left > 0 && left <= EXPIRY_WARNING_DAYS * 86_400_000) return notice("expiring");
  return null;
}
