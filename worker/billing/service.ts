/**
 * Billing operations behind the routes (issue 13): subscribe, change card, cancel, pay an invoice
 * on the public checkout, simulate a sandbox payment, coupons, and the answers' shapes. Every
 * company-scoped read filters on the company id given by the caller (the session's company).
 */
import { and, eq, sql } from "drizzle-orm";
import {
  billingCoupons,
  billingInvoices,
  billingPlans,
  billingSubscriptions,
  companies,
  franchises,
  type BillingCouponRow,
  type BillingInvoiceRow,
  type BillingPlanRow,
  type BillingSubscriptionRow,
  type CompanyRow,
} from "../../schema";
import type {
  AccessMessage,
  CouponAnswer,
  Holder,
  InvoiceAnswer,
  PixAnswer,
  PlanAnswer,
  PublicInvoiceAnswer,
  SubscriptionAnswer,
} from "../../schema/validation/billing";
import type { AppEnv } from "../env";
import type { Db } from "../lib/db";
import { AppError, notFound } from "../lib/errors";
import { franchiseModeOn } from "../lib/franchise-host";
import { newId } from "../lib/ids";
import { reminderDays, subscriptionNow, subscriptionValid } from "../lib/subscription";
import type { BillingProvider, CardData, ProviderPix } from "./provider";
import { providerName } from "./provider";
import { applyPayment, newPublicId, reconcile } from "./state";

const DAY_MS = 24 * 3600 * 1000;

export function presentPlan(p: BillingPlanRow): PlanAnswer {
  return {
    id: p.id,
    name: p.name,
    priceCents: p.priceCents,
    cycle: p.cycle,
    maxMembers: p.maxMembers,
    maxConnections: p.maxConnections,
    features: p.features,
    active: p.active,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

export function presentCoupon(c: BillingCouponRow): CouponAnswer {
  return { id: c.id, code: c.code, kind: c.kind, value: c.value, validUntil: c.validUntil, maxUses: c.maxUses, uses: c.uses, planIds: c.planIds, createdAt: c.createdAt, updatedAt: c.updatedAt };
}

export function presentInvoice(i: BillingInvoiceRow): InvoiceAnswer {
  return { publicId: i.publicId, valueCents: i.valueCents, dueDate: i.dueDate, paidAt: i.paidAt, method: i.method, status: i.status, invoiceUrl: i.invoiceUrl, createdAt: i.createdAt };
}

function presentPix(i: Pick<BillingInvoiceRow, "pixPayload" | "pixQr" | "pixExpiresAt">): PixAnswer | null {
  if (!i.pixPayload || !i.pixQr) return null;
  return { qrCodeImage: `data:image/png;base64,${i.pixQr}`, payload: i.pixPayload, expiresAt: i.pixExpiresAt };
}

const invalidCoupon = () => new AppError("validation_failed", "Invalid or expired coupon.", { coupon: "invalid_coupon" });

/**
 * The price of `plan` with coupon `code` (spec §5: the coupon must be valid and not expired):
 * unknown, expired (`validUntil` passed), used up (`uses` ≥ `maxUses`) or for another plan → 400
 * `coupon: invalid_coupon`. Percent discounts round to the nearest cent; never below 0.
 */
export async function priceWithCoupon(db: Db, plan: BillingPlanRow, code: string | undefined, at: number): Promise<{ priceCents: number; coupon: BillingCouponRow | null }> {
  if (!code) return { priceCents: plan.priceCents, coupon: null };
  const coupon = await db.select().from(billingCoupons).where(eq(billingCoupons.code, code.toUpperCase())).get();
  if (!coupon) throw invalidCoupon();
  if (coupon.validUntil !== null && coupon.validUntil <= at) throw invalidCoupon();
  if (coupon.maxUses !== null && coupon.uses >= coupon.maxUses) throw invalidCoupon();
  if (coupon.planIds.length > 0 && !coupon.planIds.includes(plan.id)) throw invalidCoupon();
  const off = coupon.kind === "percent" ? Math.round((plan.priceCents * coupon.value) / 100) : coupon.value;
  return { priceCents: Math.max(0, plan.priceCents - off), coupon };
}

/** Counts one use of `coupon`, unless it got used up meanwhile (→ 400 invalid_coupon). */
async function useCoupon(db: Db, coupon: BillingCouponRow): Promise<void> {
  const res = await db
    .update(billingCoupons)
    .set({ uses: sql`${billingCoupons.uses} + 1` })
    .where(and(eq(billingCoupons.id, coupon.id), sql`(${billingCoupons.maxUses} IS NULL OR ${billingCoupons.uses} < ${billingCoupons.maxUses})`))
    .returning({ id: billingCoupons.id });
  if (res.length === 0) throw invalidCoupon();
}

/** The caller's address for Asaas's `remoteIp` (CF-Connecting-IP; loopback when absent, e.g. tests). */
export function remoteIp(headers: Headers): string {
  return headers.get("CF-Connecting-IP") ?? "127.0.0.1";
}

/** Stores the PIX QR of an invoice (fetched from the provider once). */
async function ensurePix(db: Db, provider: BillingProvider, invoice: BillingInvoiceRow): Promise<PixAnswer | null> {
  if (invoice.status !== "pending" && invoice.status !== "overdue") return presentPix(invoice);
  if (invoice.pixPayload && invoice.pixQr && (invoice.pixExpiresAt === null || invoice.pixExpiresAt > Date.now())) return presentPix(invoice);
  if (!invoice.providerPaymentId) return null;
  const pix: ProviderPix = await provider.pixQrCode(invoice.providerPaymentId, invoice.valueCents);
  const patch = { pixPayload: pix.payload, pixQr: pix.encodedImage, pixExpiresAt: pix.expiresAt, method: "PIX" as const, updatedAt: Date.now() };
  await db.update(billingInvoices).set(patch).where(eq(billingInvoices.id, invoice.id));
  return presentPix({ ...invoice, ...patch });
}

export type SubscribeArgs = {
  planId: string;
  billingType: "CREDIT_CARD" | "PIX";
  coupon?: string | undefined;
  creditCard?: CardData | undefined;
  holder: Holder;
  remoteIp: string;
};

/**
 * Subscribes `company` to a plan (or changes plan): validates plan and coupon, cancels a previous
 * provider subscription, creates the customer and the charge (due today), stores the invoice and the
 * subscription with the price locked, counts the coupon use, applies a card's immediate
 * confirmation, and for PIX fetches the QR code. Unknown or inactive plan → 400 `planId: invalid_plan`.
 */
export async function subscribe(env: AppEnv, db: Db, provider: BillingProvider, company: CompanyRow, args: SubscribeArgs) {
  const plan = await db.select().from(billingPlans).where(eq(billingPlans.id, args.planId)).get();
  if (!plan || !plan.active) throw new AppError("validation_failed", "Unknown plan.", { planId: "invalid_plan" });
  const at = await subscriptionNow(env, db, company.id);
  const { priceCents, coupon } = await priceWithCoupon(db, plan, args.coupon, at);
  if (priceCents <= 0 && coupon) throw invalidCoupon();
  const previous = await db.select().from(billingSubscriptions).where(eq(billingSubscriptions.companyId, company.id)).get();
  if (coupon) await useCoupon(db, coupon);

  const customerId = previous?.provider === provider.name && previous.providerCustomerId ? previous.providerCustomerId : await provider.createCustomer(args.holder, company.id);
  const publicId = newPublicId();
  const charge = await provider.createCharge({
    customerId,
    cycle: plan.cycle,
    valueCents: priceCents,
    dueDate: at,
    billingType: args.billingType,
    description: `${env.APP_NAME || "Conversa"}: ${plan.name}`,
    externalReference: publicId,
    ...(args.billingType === "CREDIT_CARD" && args.creditCard ? { card: { card: args.creditCard, holder: args.holder, remoteIp: args.remoteIp } } : {}),
  });
  if (previous?.providerSubscriptionId && previous.status !== "cancelled") {
    // Plan change: the old recurring charge stops (its unpaid invoices are dropped below).
    await providerCancelQuietly(provider, previous);
  }
  const stamp = Date.now();
  const subscriptionId = previous?.id ?? newId();
  const row: BillingSubscriptionRow = {
    id: subscriptionId,
    companyId: company.id,
    planId: plan.id,
    priceCents,
    status: "pending",
    provider: provider.name,
    providerCustomerId: customerId,
    providerSubscriptionId: charge.subscriptionId,
    billingType: args.billingType,
    cardBrand: charge.payment.card?.brand ?? (args.billingType === "CREDIT_CARD" ? (previous?.cardBrand ?? null) : null),
    cardLast4: charge.payment.card?.last4 ?? (args.billingType === "CREDIT_CARD" && args.creditCard ? args.creditCard.number.slice(-4) : null),
    nextDueDate: at,
    paidThrough: null,
    couponId: coupon?.id ?? null,
    reminderSentFor: null,
    dailyRunDay: null,
    createdAt: previous?.createdAt ?? stamp,
    updatedAt: stamp,
  };
  const invoice: BillingInvoiceRow = {
    id: newId(),
    publicId,
    companyId: company.id,
    subscriptionId,
    planId: plan.id,
    valueCents: priceCents,
    dueDate: charge.payment.dueDate || at,
    paidAt: null,
    method: args.billingType,
    status: "pending",
    provider: provider.name,
    providerPaymentId: charge.payment.id,
    invoiceUrl: charge.payment.invoiceUrl,
    pixPayload: null,
    pixQr: null,
    pixExpiresAt: null,
    createdAt: stamp,
    updatedAt: stamp,
  };
  const statements = [];
  if (previous) {
    // Unpaid invoices of the previous plan no longer count; paid ones stay in the history.
    statements.push(
      db
        .update(billingInvoices)
        .set({ status: "cancelled", updatedAt: stamp })
        .where(and(eq(billingInvoices.companyId, company.id), eq(billingInvoices.subscriptionId, previous.id), sql`${billingInvoices.status} IN ('pending','overdue')`)),
    );
    statements.push(db.update(billingSubscriptions).set(row).where(eq(billingSubscriptions.id, previous.id)));
  } else {
    statements.push(db.insert(billingSubscriptions).values(row));
  }
  statements.push(db.insert(billingInvoices).values(invoice));
  const [first, ...rest] = statements;
  if (first) await db.batch([first, ...rest]);
  await applyPayment(env, db, provider.name, charge.payment, null);
  const stored = (await db.select().from(billingInvoices).where(eq(billingInvoices.id, invoice.id)).get()) ?? invoice;
  const pix = args.billingType === "PIX" ? await ensurePix(db, provider, stored) : null;
  const fresh = (await db.select().from(billingInvoices).where(eq(billingInvoices.id, invoice.id)).get()) ?? stored;
  return { invoice: presentInvoice(fresh), pix };
}

async function providerCancelQuietly(provider: BillingProvider, previous: BillingSubscriptionRow) {
  if (!previous.providerSubscriptionId || previous.provider !== provider.name) return;
  try {
    await provider.cancelSubscription(previous.providerSubscriptionId);
  } catch (error) {
    console.error("[billing] cancelling the previous subscription failed", previous.id, error);
  }
}

/** PUT /api/companies/subscription/card: 404 without a subscription, 409 `conflict` for one without recurring charges (lifetime); the new card's brand and last 4 are kept. */
export async function updateCard(db: Db, provider: BillingProvider, companyId: string, card: CardData, holder: Holder, ip: string) {
  const sub = await db.select().from(billingSubscriptions).where(eq(billingSubscriptions.companyId, companyId)).get();
  if (!sub || sub.status === "cancelled") throw notFound("Subscription");
  // A lifetime plan has no future charge to put on a card.
  if (!sub.providerSubscriptionId) throw new AppError("conflict", "This subscription has no recurring charge.");
  const info = await provider.updateCard(sub.providerSubscriptionId, card, holder, ip);
  await db
    .update(billingSubscriptions)
    .set({ cardBrand: info.brand, cardLast4: info.last4, billingType: "CREDIT_CARD", updatedAt: Date.now() })
    .where(and(eq(billingSubscriptions.id, sub.id), eq(billingSubscriptions.companyId, companyId)));
}

/** POST /api/companies/subscription/cancel: stops the provider's charges; access stays until the paid period ends. 404 without a subscription. */
export async function cancel(env: AppEnv, db: Db, provider: BillingProvider, companyId: string) {
  const sub = await db.select().from(billingSubscriptions).where(eq(billingSubscriptions.companyId, companyId)).get();
  if (!sub) throw notFound("Subscription");
  if (sub.status !== "cancelled" && sub.providerSubscriptionId) await provider.cancelSubscription(sub.providerSubscriptionId);
  const stamp = Date.now();
  await db.batch([
    db.update(billingSubscriptions).set({ status: "cancelled", updatedAt: stamp }).where(and(eq(billingSubscriptions.id, sub.id), eq(billingSubscriptions.companyId, companyId))),
    db
      .update(billingInvoices)
      .set({ status: "cancelled", updatedAt: stamp })
      .where(and(eq(billingInvoices.companyId, companyId), eq(billingInvoices.subscriptionId, sub.id), sql`${billingInvoices.status} IN ('pending','overdue')`)),
  ]);
  await reconcile(env, db, companyId);
}

/** The access message of spec §4/§8 the web shows for a company. */
export function accessMessage(company: Pick<CompanyRow, "paymentStatus" | "dueDate" | "plan" | "franchiseId">, status: SubscriptionAnswer["status"], now: number, days: number): AccessMessage {
  const valid = subscriptionValid(company, now);
  const problem = !valid || company.paymentStatus === "unpaid" || company.paymentStatus === "pending" || status === "suspended" || status === "overdue" || status === "pending";
  if (company.franchiseId && problem) return { kind: "contact_administrator" };
  // Unpaid, or no access any more (e.g. a trial that ended): access is suspended until paid.
  if (company.paymentStatus === "unpaid" || status === "suspended" || !valid) return { kind: "suspended" };
  if (company.paymentStatus === "pending" || status === "pending" || status === "overdue") return { kind: "pending" };
  const lifetime = company.plan === "lifetime" && company.paymentStatus === "paid";
  if (!lifetime && valid && company.dueDate - now <= days * DAY_MS && (status === "trial" || status === "cancelled")) return { kind: "expiring", dueDate: company.dueDate };
  return null;
}

/** GET /api/companies/subscription for `company` (the session's). */
export async function subscriptionView(env: AppEnv, db: Db, company: CompanyRow): Promise<SubscriptionAnswer> {
  const now = await subscriptionNow(env, db, company.id);
  await reconcile(env, db, company.id, now);
  const current = (await db.select().from(companies).where(eq(companies.id, company.id)).get()) ?? company;
  const sub = await db.select().from(billingSubscriptions).where(eq(billingSubscriptions.companyId, company.id)).get();
  const plan = sub ? await db.select().from(billingPlans).where(eq(billingPlans.id, sub.planId)).get() : undefined;
  const next = sub
    ? await db
        .select()
        .from(billingInvoices)
        .where(and(eq(billingInvoices.companyId, company.id), eq(billingInvoices.subscriptionId, sub.id), sql`${billingInvoices.status} IN ('pending','overdue')`))
        .orderBy(billingInvoices.dueDate)
        .get()
    : undefined;
  const status = sub?.status ?? (current.paymentStatus === "unpaid" ? "suspended" : current.plan === "trial" ? "trial" : "active");
  const valid = subscriptionValid(current, now);
  return {
    status,
    paymentStatus: current.paymentStatus === "paid" || (current.paymentStatus === "trial" && valid) ? "paid" : "pending",
    dueDate: current.dueDate,
    plan: plan ? presentPlan(plan) : null,
    priceCents: sub?.priceCents ?? null,
    billingType: sub?.billingType ?? null,
    card: sub?.cardBrand && sub.cardLast4 ? { brand: sub.cardBrand, last4: sub.cardLast4 } : null,
    nextInvoice: next ? presentInvoice(next) : null,
    message: accessMessage(current, status, now, reminderDays(env)),
    franchise: current.franchiseId !== null,
    franchiseNotPaid: current.franchiseId ? await franchiseNotPaidText(db, current.franchiseId) : null,
    valid,
  };
}

/** The `notPaid` text of franchise `franchiseId`, or null when blank (issue 14). */
async function franchiseNotPaidText(db: Db, franchiseId: string): Promise<string | null> {
  const row = await db.select({ notPaid: franchises.notPaid }).from(franchises).where(eq(franchises.id, franchiseId)).get();
  return row?.notPaid.trim() || null;
}

/** An invoice by its public id, or 404. */
export async function invoiceByPublicId(db: Db, publicId: string): Promise<BillingInvoiceRow> {
  const invoice = publicId.length >= 16 && publicId.length <= 64 ? await db.select().from(billingInvoices).where(eq(billingInvoices.publicId, publicId)).get() : undefined;
  if (!invoice) throw notFound("Invoice");
  return invoice;
}

/** GET /api/billing/invoices/{publicId}: the public view (company name, issuer, plan name, PIX data). */
export async function publicInvoice(env: AppEnv, db: Db, invoice: BillingInvoiceRow): Promise<PublicInvoiceAnswer> {
  const [company, plan] = await Promise.all([
    db
      .select({ name: companies.name, franchiseName: franchises.name })
      .from(companies)
      .leftJoin(franchises, eq(franchises.id, companies.franchiseId))
      .where(eq(companies.id, invoice.companyId))
      .get(),
    invoice.planId ? db.select({ name: billingPlans.name }).from(billingPlans).where(eq(billingPlans.id, invoice.planId)).get() : undefined,
  ]);
  const open = invoice.status === "pending" || invoice.status === "overdue";
  return {
    ...presentInvoice(invoice),
    companyName: company?.name ?? "",
    // A franchise's company is billed by the franchise, in its own name (issue 14, white label).
    issuerName: (franchiseModeOn(env) ? company?.franchiseName : null) ?? env.APP_NAME,
    planName: plan?.name ?? null,
    pix: open ? presentPix(invoice) : null,
    sandbox: invoice.provider === "sandbox" && providerName(env) === "sandbox",
  };
}

/**
 * POST /api/billing/invoices/{publicId}/pay: PIX answers the QR code (fetched once); a card pays
 * now (refused → 400 `creditCard.number: card_refused`). An invoice that is not open → 409 `conflict`.
 */
export async function payInvoice(env: AppEnv, db: Db, provider: BillingProvider, invoice: BillingInvoiceRow, billingType: "CREDIT_CARD" | "PIX", card: CardData | undefined, holder: Holder | undefined, ip: string) {
  if (invoice.status !== "pending" && invoice.status !== "overdue") throw new AppError("conflict", "This invoice is not open for payment.");
  if (billingType === "PIX") {
    const pix = await ensurePix(db, provider, invoice);
    const fresh = (await db.select().from(billingInvoices).where(eq(billingInvoices.id, invoice.id)).get()) ?? invoice;
    return { invoice: presentInvoice(fresh), pix };
  }
  if (!card || !holder || !invoice.providerPaymentId) throw new AppError("validation_failed", "Card required.", { creditCard: "required" });
  const payment = await provider.payWithCard(invoice.providerPaymentId, card, holder, ip);
  await db.update(billingInvoices).set({ method: "CREDIT_CARD", updatedAt: Date.now() }).where(eq(billingInvoices.id, invoice.id));
  await applyPayment(env, db, invoice.provider, { ...payment, id: invoice.providerPaymentId, valueCents: invoice.valueCents, dueDate: invoice.dueDate }, null);
  const fresh = (await db.select().from(billingInvoices).where(eq(billingInvoices.id, invoice.id)).get()) ?? invoice;
  return { invoice: presentInvoice(fresh), pix: null };
}

/** Sandbox only: pays an open sandbox invoice as if the PIX arrived (PAYMENT_RECEIVED). */
export async function simulatePayment(env: AppEnv, db: Db, invoice: BillingInvoiceRow) {
  if (invoice.provider !== "sandbox" || providerName(env) !== "sandbox") throw notFound("Invoice");
  if (invoice.status !== "pending" && invoice.status !== "overdue") throw new AppError("conflict", "This invoice is not open for payment.");
  await applyPayment(
    env,
    db,
    "sandbox",
    {
      id: invoice.providerPaymentId ?? invoice.publicId,
      status: "RECEIVED",
      valueCents: invoice.valueCents,
      dueDate: invoice.dueDate,
      paymentDate: Date.now(),
      billingType: invoice.method ?? "PIX",
      invoiceUrl: null,
      subscriptionId: null,
      externalReference: invoice.publicId,
      card: null,
    },
    "PAYMENT_RECEIVED",
  );
  const fresh = (await db.select().from(billingInvoices).where(eq(billingInvoices.id, invoice.id)).get()) ?? invoice;
  return presentInvoice(fresh);
}
