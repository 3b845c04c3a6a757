/**
 * Billing routes (issue 13; spec §2 /settings/subscription, /checkout/{id}, /invoice/{id},
 * /failed-subscription; §4 Payment status; §5 coupon, address and card rules). Shapes:
 * schema/validation/billing.ts. Every 400 names the field (`validation_failed`).
 *
 * Public (no session):
 * - GET /api/plans → PlansAnswer: the active plans, cheapest first.
 * - GET /api/billing/invoices/{publicId} → PublicInvoiceAnswer; 404 unknown. The id (192 random
 *   bits) is the credential: it is only shown to the company and on its own pages.
 * - POST /api/billing/invoices/{publicId}/pay PayInvoiceInput → PayInvoiceAnswer (PIX: the QR
 *   code; card: paid now, or 400 `creditCard.number: card_refused`); 409 `conflict` when not open.
 * - POST /api/billing/asaas/webhook: Asaas's payment events, authenticated by the
 *   `asaas-access-token` header (constant-time compare with ASAAS_WEBHOOK_TOKEN; missing, wrong or
 *   unconfigured → 401). Applied once per event id, in any order → 200 `{received, duplicate?}`.
 * - POST /api/billing/sandbox/invoices/{publicId}/simulate-payment → InvoiceAnswer: pays a sandbox
 *   invoice as a received PIX; 404 unless the provider is the sandbox.
 *
 * Company (session, permission `settings_company`; deliberately NOT behind the subscription guard,
 * so a suspended company can pay):
 * - GET /api/companies/subscription → SubscriptionAnswer.
 * - POST /api/companies/subscription SubscribeInput → 201 SubscribeAnswer (invalid coupon: 400
 *   `coupon: invalid_coupon`; unknown plan: 400 `planId: invalid_plan`).
 * - PUT /api/companies/subscription/card UpdateCardInput → SubscriptionAnswer; 404 without one.
 * - POST /api/companies/subscription/cancel → SubscriptionAnswer; 404 without one.
 * - GET /api/invoices?cursor= → InvoicesAnswer, newest first, 20 a page.
 *
 * Dev only (ENVIRONMENT local/test/e2e; 404 in production): POST /api/dev/clock {offsetMs} shifts
 * "now" for the session's company's subscription checks (an e2e ends a trial with it) → {offsetMs}.
 */
import { Hono } from "hono";
import { and, asc, desc, eq, lt, or } from "drizzle-orm";
import { z } from "zod";
import { billingClocks, billingEvents, billingInvoices, billingPlans, companies } from "../../schema";
import {
  devClockInput,
  payInvoiceInput,
  subscribeInput,
  updateCardInput,
  type InvoicesAnswer,
  type PlansAnswer,
} from "../../schema/validation/billing";
import type { HonoEnv } from "../middleware/context";
import { requireCompany, requirePermission, requireUser } from "../middleware/auth";
import { decodeNumberCursor, encodeCursor } from "../lib/cursor";
import { timingSafeEqual } from "../lib/crypto";
import { AppError, notFound, unauthorized } from "../lib/errors";
import { testClockEnabled } from "../lib/subscription";
import { zv } from "../lib/validate";
import { asaasPaymentSchema, fromAsaasPayment } from "../billing/asaas";
import { providerFor, providerForCompany } from "../billing/provider";
import {
  cancel,
  invoiceByPublicId,
  payInvoice,
  presentInvoice,
  presentPlan,
  publicInvoice,
  remoteIp,
  simulatePayment,
  subscribe,
  subscriptionView,
  updateCard,
} from "../billing/service";
import { applyPayment, PAYMENT_EVENTS } from "../billing/state";

const publicIdParam = z.object({ publicId: z.string().min(1).max(64) });
const PAGE = 20;

/** GET /api/plans (public). */
export const plansRoutes = new Hono<HonoEnv>().get("/", async (c) => {
  const rows = await c.var.db.select().from(billingPlans).where(eq(billingPlans.active, true)).orderBy(asc(billingPlans.priceCents), asc(billingPlans.id));
  const answer: PlansAnswer = { results: rows.map(presentPlan), cursor: null, total: rows.length };
  return c.json(answer);
});

/** /api/companies/subscription (settings_company). */
export const subscriptionRoutes = new Hono<HonoEnv>()
  .use(requireUser, requireCompany, requirePermission("settings_company"))
  .get("/", async (c) => c.json(await subscriptionView(c.env, c.var.db, c.var.company)))
  .post("/", zv("json", subscribeInput), async (c) => {
    const input = c.req.valid("json");
    const provider = await providerForCompany(c.env, c.var.company);
    const result = await subscribe(c.env, c.var.db, provider, c.var.company, { ...input, remoteIp: remoteIp(c.req.raw.headers) });
    const subscription = await subscriptionView(c.env, c.var.db, c.var.company);
    return c.json({ subscription, ...result }, 201);
  })
  .put("/card", zv("json", updateCardInput), async (c) => {
    const { creditCard, holder } = c.req.valid("json");
    const provider = await providerForCompany(c.env, c.var.company);
    await updateCard(c.var.db, provider, c.var.company.id, creditCard, holder, remoteIp(c.req.raw.headers));
    return c.json(await subscriptionView(c.env, c.var.db, c.var.company));
  })
  .post("/cancel", async (c) => {
    const provider = await providerForCompany(c.env, c.var.company);
    await cancel(c.env, c.var.db, provider, c.var.company.id);
    return c.json(await subscriptionView(c.env, c.var.db, c.var.company));
  });

/** GET /api/invoices?cursor= (settings_company): the company's invoices, newest first. */
export const invoicesRoutes = new Hono<HonoEnv>()
  .use(requireUser, requireCompany, requirePermission("settings_company"))
  .get("/", zv("query", z.object({ cursor: z.string().max(200).optional() })), async (c) => {
    const after = decodeNumberCursor(c.req.valid("query").cursor);
    const companyId = c.var.company.id;
    const rows = await c.var.db
      .select()
      .from(billingInvoices)
      .where(
        and(
          eq(billingInvoices.companyId, companyId),
          after ? or(lt(billingInvoices.createdAt, after[0]), and(eq(billingInvoices.createdAt, after[0]), lt(billingInvoices.id, after[1]))) : undefined,
        ),
      )
      .orderBy(desc(billingInvoices.createdAt), desc(billingInvoices.id))
      .limit(PAGE + 1);
    const page = rows.slice(0, PAGE);
    const last = page[page.length - 1];
    const answer: InvoicesAnswer = { results: page.map(presentInvoice), cursor: rows.length > PAGE && last ? encodeCursor([last.createdAt, last.id]) : null };
    return c.json(answer);
  });

/** The Asaas webhook body: `{id?, event, payment}`. */
const webhookBody = z.looseObject({ id: z.string().max(200).optional(), event: z.string().min(1).max(100), payment: z.unknown().optional() });

/** Constant-time comparison of the presented token with the configured one (false when either is empty). */
async function tokenMatches(presented: string | undefined, expected: string | undefined): Promise<boolean> {
  if (!presented || !expected) return false;
  // Compare digests so the lengths are equal and the time does not depend on where they differ.
  const enc = new TextEncoder();
  const [a, b] = await Promise.all([crypto.subtle.digest("SHA-256", enc.encode(presented)), crypto.subtle.digest("SHA-256", enc.encode(expected))]);
  return timingSafeEqual(new Uint8Array(a), new Uint8Array(b));
}

/** /api/billing (public by design: each route has its own credential). */
export const billingPublicRoutes = new Hono<HonoEnv>()
  .get("/invoices/:publicId", zv("param", publicIdParam), async (c) => {
    const invoice = await invoiceByPublicId(c.var.db, c.req.valid("param").publicId);
    return c.json(await publicInvoice(c.env, c.var.db, invoice));
  })
  .post("/invoices/:publicId/pay", zv("param", publicIdParam), zv("json", payInvoiceInput), async (c) => {
    const invoice = await invoiceByPublicId(c.var.db, c.req.valid("param").publicId);
    const input = c.req.valid("json");
    const company = await c.var.db.select({ id: companies.id, franchiseId: companies.franchiseId }).from(companies).where(eq(companies.id, invoice.companyId)).get();
    if (!company) throw notFound("Invoice");
    // The invoice's own provider: a sandbox invoice is never sent to Asaas, and the other way round.
    const provider = invoice.provider === "sandbox" ? providerFor({ ...c.env, BILLING_PROVIDER: "sandbox" }) : await providerForCompany(c.env, company);
    return c.json(await payInvoice(c.env, c.var.db, provider, invoice, input.billingType, input.creditCard, input.holder, remoteIp(c.req.raw.headers)));
  })
  .post("/sandbox/invoices/:publicId/simulate-payment", zv("param", publicIdParam), async (c) => {
    const invoice = await invoiceByPublicId(c.var.db, c.req.valid("param").publicId);
    return c.json(await simulatePayment(c.env, c.var.db, invoice));
  })
  .post("/asaas/webhook", async (c) => {
    if (!(await tokenMatches(c.req.header("asaas-access-token"), c.env.ASAAS_WEBHOOK_TOKEN))) throw unauthorized("Invalid webhook token.");
    const raw: unknown = await c.req.json().catch(() => undefined);
    const body = webhookBody.safeParse(raw);
    if (!body.success) throw new AppError("validation_failed", "Invalid webhook body.", { event: "required" });
    const { event } = body.data;
    if (!(PAYMENT_EVENTS as readonly string[]).includes(event)) return c.json({ received: true, ignored: true });
    const payment = asaasPaymentSchema.safeParse(body.data.payment);
    if (!payment.success) throw new AppError("validation_failed", "Invalid payment in the webhook body.", { payment: "invalid_payment" });
    const eventId = body.data.id ?? `${event}:${payment.data.id}`;
    const db = c.var.db;
    const seen = await db.select({ id: billingEvents.id }).from(billingEvents).where(eq(billingEvents.id, eventId)).get();
    if (seen) return c.json({ received: true, duplicate: true });
    await applyPayment(c.env, db, "asaas", fromAsaasPayment(payment.data), event);
    await db.insert(billingEvents).values({ id: eventId, provider: "asaas", event, receivedAt: Date.now() }).onConflictDoNothing();
    return c.json({ received: true });
  });

/** POST /api/dev/clock (local/test/e2e only; 404 elsewhere): the session's company's test clock. */
export const devClockRoutes = new Hono<HonoEnv>()
  .use(async (c, next) => {
    if (!testClockEnabled(c.env)) throw notFound("Route");
    await next();
  })
  .post("/", requireUser, requireCompany, zv("json", devClockInput), async (c) => {
    const { offsetMs } = c.req.valid("json");
    const companyId = c.var.company.id;
    await c.var.db.insert(billingClocks).values({ companyId, offsetMs }).onConflictDoUpdate({ target: billingClocks.companyId, set: { offsetMs } });
    return c.json({ offsetMs });
  });
