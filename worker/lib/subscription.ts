/**
 * Subscription state (spec §4 Payment status): unpaid suspends access; pending keeps access with a
 * warning; a trial lasts 7 days from registration (issue "Foundation"); any state past its due date
 * gives no access.
 */
import type { CompanyRow } from "../../schema";

/** Trial length in ms. */
export const TRIAL_MS = 7 * 24 * 3600 * 1000;

/** Whether the company's members may use the product now (`at` in ms UTC). */
export function subscriptionValid(company: Pick<CompanyRow, "paymentStatus" | "dueDate" | "plan">, at = Date.now()) {
  if (company.paymentStatus === "unpaid") return false;
  if (company.plan === "lifetime" && company.paymentStatus === "paid") return true;
  return company.dueDate > at;
}
