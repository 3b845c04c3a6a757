/**
 * The daily billing job (issue 13 "A scheduled worker runs daily"), run by the hourly cron
 * (worker/scheduled.ts): for each company with a subscription whose LOCAL day (companies.timezone)
 * has changed since its last run, once per local day:
 * - reconciles its state (worker/billing/state.ts): unpaid charges past their due day are marked
 *   overdue; after BILLING_GRACE_DAYS overdue days the company is suspended (payment status
 *   `unpaid`: feature routes answer 402, inbound customer messages are still stored);
 * - sandbox provider: creates the renewal charge of an active recurring subscription when its
 *   paid period ends within the reminder window (Asaas creates its own and tells us by webhook),
 *   and pays it by card on its due day when the subscription is billed by card;
 * - e-mails the owner a reminder BILLING_REMINDER_DAYS (default 3) days before a due date, once per
 *   due date, in the company's language.
 * Idempotent per company per local day (`billing_subscriptions.daily_run_day` is claimed first).
 */
import { and, eq, isNull, ne, or, sql } from "drizzle-orm";
import { billingInvoices, billingPlans, billingSubscriptions, companies, users } from "../../schema";
import type { AppEnv } from "../env";
import { getDb, type Db } from "../lib/db";
import { newId } from "../lib/ids";
import { sendMail } from "../lib/mail";
import { reminderDays } from "../lib/subscription";
import { formatDue, reminderMail } from "./mail-texts";
import { providerName } from "./provider";
import { applyPayment, localDayNumber, newPublicId, reconcile } from "./state";
import { TZDate } from "@date-fns/tz";

/** How many subscriptions one run looks at (the cron runs hourly; the rest waits an hour). */
const BATCH = 500;

/** The local day `at` falls on in `timeZone`, as YYYY-MM-DD. */
export function localDay(at: number, timeZone: string): string {
  const d = new TZDate(at, timeZone);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

/** Runs the daily billing job at `at` (ms UTC; the cron's scheduled time). Answers how many companies ran. */
export async function runBillingDaily(env: AppEnv, at: number): Promise<number> {
  const db = getDb(env.DB);
  const rows = await db
    .select({ sub: billingSubscriptions, timezone: companies.timezone })
    .from(billingSubscriptions)
    .innerJoin(companies, eq(companies.id, billingSubscriptions.companyId))
    .where(ne(billingSubscriptions.status, "cancelled"))
    .limit(BATCH);
  let ran = 0;
  for (const { sub, timezone } of rows) {
    const day = localDay(at, timezone);
    if (sub.dailyRunDay === day) continue;
    // Claim the day first, so overlapping runs do the company once.
    const claimed = await db
      .update(billingSubscriptions)
      .set({ dailyRunDay: day })
      .where(and(eq(billingSubscriptions.id, sub.id), or(isNull(billingSubscriptions.dailyRunDay), ne(billingSubscriptions.dailyRunDay, day))))
      .returning({ id: billingSubscriptions.id });
    if (claimed.length === 0) continue;
    try {
      await runCompany(env, db, sub.companyId, at);
      ran++;
    } catch (error) {
      console.error("[billing daily]", sub.companyId, error);
    }
  }
  return ran;
}

async function runCompany(env: AppEnv, db: Db, companyId: string, at: number): Promise<void> {
  await sandboxRenewals(env, db, companyId, at);
  await reconcile(env, db, companyId, at);
  await remind(env, db, companyId, at);
}

/** Sandbox only: the renewal charge (Asaas makes its own), and its card payment on the due day. */
async function sandboxRenewals(env: AppEnv, db: Db, companyId: string, at: number): Promise<void> {
  const sub = await db.select().from(billingSubscriptions).where(eq(billingSubscriptions.companyId, companyId)).get();
  if (!sub || sub.provider !== "sandbox" || providerName(env) !== "sandbox" || sub.paidThrough === null) return;
  const plan = await db.select().from(billingPlans).where(eq(billingPlans.id, sub.planId)).get();
  if (!plan || plan.cycle === "lifetime") return;
  const open = await db
    .select()
    .from(billingInvoices)
    .where(and(eq(billingInvoices.companyId, companyId), eq(billingInvoices.subscriptionId, sub.id), sql`${billingInvoices.status} IN ('pending','overdue')`))
    .get();
  if (!open && sub.status === "active" && sub.paidThrough - at <= reminderDays(env) * 86_400_000) {
    const stamp = Date.now();
    await db
      .insert(billingInvoices)
      .values({
        id: newId(),
        publicId: newPublicId(),
        companyId,
        subscriptionId: sub.id,
        planId: sub.planId,
        valueCents: sub.priceCents,
        dueDate: sub.paidThrough,
        paidAt: null,
        method: sub.billingType,
        status: "pending",
        provider: "sandbox",
        providerPaymentId: `sandbox_pay_${newId()}`,
        invoiceUrl: null,
        pixPayload: null,
        pixQr: null,
        pixExpiresAt: null,
        createdAt: stamp,
        updatedAt: stamp,
      })
      .onConflictDoNothing();
    return;
  }
  if (open && sub.billingType === "CREDIT_CARD" && sub.cardLast4 && open.dueDate <= at) {
    await applyPayment(
      env,
      db,
      "sandbox",
      { id: open.providerPaymentId ?? open.publicId, status: "CONFIRMED", valueCents: open.valueCents, dueDate: open.dueDate, paymentDate: at, billingType: "CREDIT_CARD", invoiceUrl: null, subscriptionId: null, externalReference: open.publicId, card: null },
      "PAYMENT_CONFIRMED",
    );
  }
}

/** The reminder mail to the owner, once per due date, `reminderDays` local days before it. */
async function remind(env: AppEnv, db: Db, companyId: string, at: number): Promise<void> {
  const days = reminderDays(env);
  if (days <= 0) return;
  const sub = await db.select().from(billingSubscriptions).where(eq(billingSubscriptions.companyId, companyId)).get();
  if (!sub || sub.status === "cancelled" || sub.status === "suspended") return;
  const open = await db
    .select()
    .from(billingInvoices)
    .where(and(eq(billingInvoices.companyId, companyId), eq(billingInvoices.subscriptionId, sub.id), sql`${billingInvoices.status} IN ('pending','overdue')`))
    .orderBy(billingInvoices.dueDate)
    .get();
  const due = open?.dueDate ?? (sub.status === "active" ? sub.paidThrough : null);
  if (due === null || due === undefined || sub.reminderSentFor === due) return;
  const company = await db.select().from(companies).where(eq(companies.id, companyId)).get();
  if (!company || company.plan === "lifetime") return;
  const left = localDayNumber(due, company.timezone) - localDayNumber(at, company.timezone);
  if (left < 0 || left > days) return;
  const owner = await db.select({ email: users.email }).from(users).where(eq(users.id, company.ownerId)).get();
  if (!owner) return;
  await db.update(billingSubscriptions).set({ reminderSentFor: due }).where(eq(billingSubscriptions.id, sub.id));
  const { date, amount } = formatDue(company.language, company.timezone, due, open?.valueCents ?? sub.priceCents);
  const base = env.PUBLIC_URL.replace(/\/+$/, "");
  const link = open ? `${base}/checkout/${open.publicId}` : `${base}/settings/subscription`;
  await sendMail(env, { to: owner.email, ...reminderMail(company.language, { app: env.APP_NAME, companyName: company.name, date, amount, link }) });
}
