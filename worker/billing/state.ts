/**
 * The subscription state machine (issue 13; spec §4 Payment status). Payment events (webhooks, a
 * sandbox payment, the synchronous answer of a card charge) only move an invoice FORWARD along
 * pending → overdue → cancelled → paid → refunded, so events applied twice or out of order (a late
 * PAYMENT_CREATED after PAYMENT_RECEIVED) end in the same state. The subscription's status and the
 * company's access state (`companies.plan`, `payment_status`, `due_date`, read by the guards) are
 * then DERIVED from all of the company's invoices (`reconcile`), never patched step by step:
 * - paid invoices extend access: each pays its period from its due date (a month, six months, a
 *   year; lifetime for ever); a refunded one pays nothing;
 * - an unpaid invoice past its due date makes the subscription `overdue` (access continues through
 *   the grace period, BILLING_GRACE_DAYS), then `suspended` (payment status `unpaid`: 402);
 * - a first charge not yet paid is `pending` (the company keeps whatever access it had, e.g. its trial);
 * - `cancelled` keeps access until the end of the paid period.
 */
import { addMonths } from "date-fns";
import { TZDate } from "@date-fns/tz";
import { and, eq, inArray } from "drizzle-orm";
import { billingInvoices, billingPlans, billingSubscriptions, companies, type BillingInvoiceRow, type BillingSubscriptionRow, type CompanyRow } from "../../schema";
import type { InvoiceStatus, PlanCycle, SubscriptionStatus } from "../../schema/validation/billing";
import type { AppEnv } from "../env";
import type { Db } from "../lib/db";
import { randomToken } from "../lib/crypto";
import { newId } from "../lib/ids";
import { graceDays, subscriptionNow } from "../lib/subscription";
import type { ProviderPayment } from "./provider";

/** "For ever" for lifetime plans: 9999-12-31. */
export const FOREVER = 253402214400000;

/** Forward order of invoice states: an event never moves an invoice back. */
const RANK: Record<InvoiceStatus, number> = { pending: 0, overdue: 1, cancelled: 2, paid: 3, refunded: 4 };

/** The payment events billing applies (Asaas names). */
export const PAYMENT_EVENTS = ["PAYMENT_CREATED", "PAYMENT_CONFIRMED", "PAYMENT_RECEIVED", "PAYMENT_OVERDUE", "PAYMENT_REFUNDED", "PAYMENT_DELETED"] as const;
export type PaymentEvent = (typeof PAYMENT_EVENTS)[number];

/** The invoice state an event (or, without one, the payment's own status) means; null = not ours to apply. */
export function invoiceStatusOf(event: string | null, paymentStatus: string): InvoiceStatus | null {
  switch (event) {
    case "PAYMENT_CREATED":
      return "pending";
    case "PAYMENT_CONFIRMED":
    case "PAYMENT_RECEIVED":
      return "paid";
    case "PAYMENT_OVERDUE":
      return "overdue";
    case "PAYMENT_REFUNDED":
      return "refunded";
    case "PAYMENT_DELETED":
      return "cancelled";
    case null:
      break;
    default:
      return null;
  }
  if (["CONFIRMED", "RECEIVED", "RECEIVED_IN_CASH"].includes(paymentStatus)) return "paid";
  if (paymentStatus === "OVERDUE") return "overdue";
  if (paymentStatus === "REFUNDED") return "refunded";
  return "pending";
}

/** A new unguessable public invoice id: 192 random bits, base64url. */
export function newPublicId(): string {
  return randomToken(24);
}

/** End of the period an invoice due at `dueDate` pays for `cycle`. */
export function periodEnd(cycle: PlanCycle, dueDate: number): number {
  if (cycle === "lifetime") return FOREVER;
  const months = cycle === "monthly" ? 1 : cycle === "semiannual" ? 6 : 12;
  return addMonths(new Date(dueDate), months).getTime();
}

/**
 * Applies one provider payment (with its event, or null for a synchronous answer) to our invoice:
 * found by provider payment id or, failing that, by `externalReference` (our public id); a payment
 * of a known provider subscription that we have no invoice for (a renewal) creates one. Then
 * reconciles the company. Answers the company id touched, or null when the payment is not ours.
 */
export async function applyPayment(env: AppEnv, db: Db, provider: string, payment: ProviderPayment, event: string | null): Promise<string | null> {
  const target = invoiceStatusOf(event, payment.status);
  if (!target) return null;
  let invoice =
    (await db.select().from(billingInvoices).where(and(eq(billingInvoices.provider, provider), eq(billingInvoices.providerPaymentId, payment.id))).get()) ??
    (payment.externalReference
      ? await db.select().from(billingInvoices).where(and(eq(billingInvoices.provider, provider), eq(billingInvoices.publicId, payment.externalReference))).get()
      : undefined);
  const at = Date.now();
  if (!invoice) {
    if (!payment.subscriptionId) return null;
    const subscription = await db
      .select()
      .from(billingSubscriptions)
      .where(and(eq(billingSubscriptions.provider, provider), eq(billingSubscriptions.providerSubscriptionId, payment.subscriptionId)))
      .get();
    if (!subscription) return null;
    const row: BillingInvoiceRow = {
      id: newId(),
      publicId: newPublicId(),
      companyId: subscription.companyId,
      subscriptionId: subscription.id,
      planId: subscription.planId,
      valueCents: payment.valueCents,
      dueDate: payment.dueDate,
      paidAt: null,
      method: payment.billingType === "PIX" || payment.billingType === "CREDIT_CARD" ? payment.billingType : subscription.billingType,
      status: "pending",
      provider,
      providerPaymentId: payment.id,
      invoiceUrl: payment.invoiceUrl,
      pixPayload: null,
      pixQr: null,
      pixExpiresAt: null,
      createdAt: at,
      updatedAt: at,
    };
    await db.insert(billingInvoices).values(row).onConflictDoNothing();
    invoice = await db.select().from(billingInvoices).where(and(eq(billingInvoices.provider, provider), eq(billingInvoices.providerPaymentId, payment.id))).get();
    if (!invoice) return null;
  }
  if (RANK[target] > RANK[invoice.status]) {
    await db
      .update(billingInvoices)
      .set({
        status: target,
        paidAt: target === "paid" ? (payment.paymentDate ?? at) : invoice.paidAt,
        providerPaymentId: invoice.providerPaymentId ?? payment.id,
        invoiceUrl: invoice.invoiceUrl ?? payment.invoiceUrl,
        updatedAt: at,
      })
      .where(eq(billingInvoices.id, invoice.id));
  }
  if (payment.card && invoice.subscriptionId) {
    await db
      .update(billingSubscriptions)
      .set({ cardBrand: payment.card.brand, cardLast4: payment.card.last4, updatedAt: at })
      .where(eq(billingSubscriptions.id, invoice.subscriptionId));
  }
  await reconcile(env, db, invoice.companyId);
  return invoice.companyId;
}

/** The derived subscription status and access state of a company at `now`. */
export type Derived = {
  status: SubscriptionStatus;
  paidThrough: number | null;
  nextDueDate: number;
  company: Pick<CompanyRow, "plan" | "paymentStatus" | "dueDate">;
};

/** The local calendar day of `at` in `timeZone`, as a day number (days since 1970-01-01). */
export function localDayNumber(at: number, timeZone: string): number {
  const d = new TZDate(at, timeZone);
  return Math.round(Date.UTC(d.getFullYear(), d.getMonth(), d.getDate()) / DAY_MS);
}

/** The instant local day number `day` starts in `timeZone` (ms UTC). */
export function localDayStart(day: number, timeZone: string): number {
  const utc = new Date(day * DAY_MS);
  return new TZDate(utc.getUTCFullYear(), utc.getUTCMonth(), utc.getUTCDate(), timeZone).getTime();
}

/**
 * Derives the state from the subscription, its plan's cycle, the invoices and the company (pure).
 * Days are the company's local days (`timeZone`): an unpaid invoice is overdue from the day after
 * its due day, and the company is suspended from the day after `graceDays` overdue days.
 */
export function derive(
  subscription: Pick<BillingSubscriptionRow, "status" | "nextDueDate">,
  cycle: PlanCycle,
  invoices: Pick<BillingInvoiceRow, "status" | "dueDate">[],
  company: Pick<CompanyRow, "plan" | "paymentStatus" | "dueDate" | "timezone">,
  now: number,
  graceDays: number,
): Derived {
  const tz = company.timezone;
  const today = localDayNumber(now, tz);
  let paidThrough: number | null = null;
  for (const inv of invoices) {
    if (inv.status !== "paid") continue;
    const end = periodEnd(cycle, inv.dueDate);
    paidThrough = paidThrough === null ? end : Math.max(paidThrough, end);
  }
  const unpaid = invoices.filter((i) => i.status === "pending" || i.status === "overdue").sort((a, b) => a.dueDate - b.dueDate);
  const oldestUnpaid = unpaid[0];
  const nextDueDate = oldestUnpaid?.dueDate ?? paidThrough ?? subscription.nextDueDate;
  const plan = cycle;
  const keep = { plan: company.plan, paymentStatus: company.paymentStatus, dueDate: company.dueDate };

  if (subscription.status === "cancelled") {
    if (paidThrough === null) return { status: "cancelled", paidThrough, nextDueDate, company: keep };
    return { status: "cancelled", paidThrough, nextDueDate, company: { plan, paymentStatus: "paid", dueDate: paidThrough } };
  }
  // The day access would have to be paid from: the oldest unpaid charge's, else the end of the paid period.
  const dueDay = oldestUnpaid ? localDayNumber(oldestUnpaid.dueDate, tz) : paidThrough !== null && paidThrough <= now ? localDayNumber(paidThrough, tz) : null;
  const overdue = dueDay !== null && (today > dueDay || oldestUnpaid?.status === "overdue");
  if (dueDay !== null && overdue) {
    const suspendAt = localDayStart(dueDay + graceDays + 1, tz);
    if (today > dueDay + graceDays) {
      return { status: "suspended", paidThrough, nextDueDate, company: { plan: paidThrough !== null ? plan : company.plan, paymentStatus: "unpaid", dueDate: company.dueDate } };
    }
    if (paidThrough === null) return { status: "overdue", paidThrough, nextDueDate, company: keep };
    return { status: "overdue", paidThrough, nextDueDate, company: { plan, paymentStatus: "pending", dueDate: Math.max(paidThrough, suspendAt) } };
  }
  if (paidThrough === null) {
    // Waiting for the first payment: the company keeps its trial (or nothing, if it ended).
    return { status: "pending", paidThrough, nextDueDate, company: keep };
  }
  if (oldestUnpaid) {
    // A renewal charge waits (not yet past its due day): access continues; the web shows "pending".
    return { status: "active", paidThrough, nextDueDate, company: { plan, paymentStatus: "pending", dueDate: Math.max(paidThrough, localDayStart(localDayNumber(oldestUnpaid.dueDate, tz) + graceDays + 1, tz)) } };
  }
  return { status: "active", paidThrough, nextDueDate, company: { plan, paymentStatus: "paid", dueDate: paidThrough } };
}

/**
 * Recomputes the company's subscription status and access state from its invoices (idempotent),
 * and marks unpaid invoices past their local due day overdue. `at` overrides "now" (the scheduled
 * job passes its own time). Answers the derived state, or null when the company has no subscription.
 */
export async function reconcile(env: AppEnv, db: Db, companyId: string, at?: number): Promise<Derived | null> {
  const subscription = await db.select().from(billingSubscriptions).where(eq(billingSubscriptions.companyId, companyId)).get();
  if (!subscription) return null;
  const [plan, company, invoices] = await Promise.all([
    db.select({ cycle: billingPlans.cycle }).from(billingPlans).where(eq(billingPlans.id, subscription.planId)).get(),
    db.select().from(companies).where(eq(companies.id, companyId)).get(),
    db
      .select({ id: billingInvoices.id, status: billingInvoices.status, dueDate: billingInvoices.dueDate })
      .from(billingInvoices)
      .where(and(eq(billingInvoices.companyId, companyId), eq(billingInvoices.subscriptionId, subscription.id))),
  ]);
  if (!plan || !company) return null;
  const now = at ?? (await subscriptionNow(env, db, companyId));
  const derived = derive(subscription, plan.cycle, invoices, company, now, graceDays(env));
  const stamp = Date.now();
  const today = localDayNumber(now, company.timezone);
  const late = invoices.filter((i) => i.status === "pending" && localDayNumber(i.dueDate, company.timezone) < today).map((i) => i.id);
  if (late.length) {
    await db.update(billingInvoices).set({ status: "overdue", updatedAt: stamp }).where(and(eq(billingInvoices.companyId, companyId), inArray(billingInvoices.id, late), eq(billingInvoices.status, "pending")));
  }
  if (subscription.status !== derived.status || subscription.paidThrough !== derived.paidThrough || subscription.nextDueDate !== derived.nextDueDate) {
    await db
      .update(billingSubscriptions)
      .set({ status: derived.status, paidThrough: derived.paidThrough, nextDueDate: derived.nextDueDate, updatedAt: stamp })
      .where(eq(billingSubscriptions.id, subscription.id));
  }
  const c = derived.company;
  if (company.plan !== c.plan || company.paymentStatus !== c.paymentStatus || company.dueDate !== c.dueDate) {
    await db.update(companies).set({ plan: c.plan, paymentStatus: c.paymentStatus, dueDate: c.dueDate, updatedAt: stamp }).where(eq(companies.id, companyId));
  }
  return derived;
}

const DAY_MS = 24 * 3600 * 1000;
