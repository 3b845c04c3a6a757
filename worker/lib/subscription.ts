/**
 * Subscription state (spec §4 Payment status): unpaid suspends access; pending keeps access with a
 * warning; a trial lasts TRIAL_DAYS (default 7) from registration; any state past its due date gives
 * no access. The access state lives in `companies.plan`, `payment_status` and `due_date`; billing
 * (worker/billing/state.ts) keeps it in step with the subscription.
 */
import { eq } from "drizzle-orm";
import type { CompanyRow } from "../../schema";
import { billingClocks } from "../../schema/billing";
import type { AppEnv } from "../env";
import type { Db } from "./db";

const DAY_MS = 24 * 3600 * 1000;

/** A positive integer setting, else `fallback`. */
function daysSetting(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 && n <= 3650 && value !== undefined && value.trim() !== "" ? n : fallback;
}

/** Trial length in ms: TRIAL_DAYS (default 7). */
export function trialMs(env: Pick<AppEnv, "TRIAL_DAYS">): number {
  return daysSetting(env.TRIAL_DAYS, 7) * DAY_MS;
}

/**
 * Grace days after an unpaid due day before suspension: BILLING_GRACE_DAYS (default 3). A charge due
 * on Monday is overdue from Tuesday and, with 3 grace days, suspends the company from Friday (the
 * company's local days).
 */
export function graceDays(env: Pick<AppEnv, "BILLING_GRACE_DAYS">): number {
  return daysSetting(env.BILLING_GRACE_DAYS, 3);
}

/** Days before a due date the reminder goes out (and the expiry warning shows): BILLING_REMINDER_DAYS (default 3). */
export function reminderDays(env: Pick<AppEnv, "BILLING_REMINDER_DAYS">): number {
  return daysSetting(env.BILLING_REMINDER_DAYS, 3);
}

/** Whether the company's members may use the product now (`at` in ms UTC). */
export function subscriptionValid(company: Pick<CompanyRow, "paymentStatus" | "dueDate" | "plan"> & { suspendedAt?: number | null }, at = Date.now()) {
  // Suspended by its franchise (issue 14, PUT /api/franchise/companies/{id}): no access, like unpaid.
  if (company.suspendedAt != null) return false;
  if (company.paymentStatus === "unpaid") return false;
  if (company.plan === "lifetime" && company.paymentStatus === "paid") return true;
  return company.dueDate > at;
}

/** Environments where the test clock (POST /api/dev/clock) exists: never "production" or unset. */
const CLOCK_ENVIRONMENTS = new Set(["local", "test", "e2e"]);

/** Whether the test clock is available (ENVIRONMENT local, test or e2e). */
export function testClockEnabled(env: Pick<AppEnv, "ENVIRONMENT">): boolean {
  return CLOCK_ENVIRONMENTS.has(env.ENVIRONMENT ?? "");
}

/**
 * "Now" for the company's subscription checks, ms UTC: the real time, shifted by the company's test
 * clock offset in local/test environments only (one D1 read there; none in production).
 */
export async function subscriptionNow(env: Pick<AppEnv, "ENVIRONMENT">, db: Db, companyId: string): Promise<number> {
  const at = Date.now();
  if (!testClockEnabled(env)) return at;
  const row = await db.select({ offsetMs: billingClocks.offsetMs }).from(billingClocks).where(eq(billingClocks.companyId, companyId)).get();
  return at + (row?.offsetMs ?? 0);
}
