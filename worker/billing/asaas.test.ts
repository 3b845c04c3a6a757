/**
 * The real `asaas` adapter against the Asaas stand-in (standins/asaas.ts), selected explicitly with
 * providerFor(env, {apiUrl, apiKey}), and the webhook that applies Asaas's payment events (issue 13
 * Tests): card → CONFIRMED → active; PIX → RECEIVED → active; OVERDUE → suspended (by the daily
 * job after the grace period) → 402 on feature routes while the channel webhook still stores the
 * customer's message; the same event twice is applied once; events out of order end right.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { billingInvoices, billingSubscriptions } from "../../schema";
import { providerFor } from "./provider";
import { subscribe } from "./service";
import { scheduled } from "../scheduled";
import { CARD, HOLDER, REFUSED_CARD, appEnv, companyOf, companyRow, createPlan, db, deliverWebhook, standIn, takeWebhooks, type QueuedWebhook } from "./test-helpers";
import { holderSchema, creditCardSchema } from "../../schema/validation/billing";
import { call, countRows, expectError, expectStatus, register } from "../test/helpers";
import { cloudConnection, deliverOk, textWebhook, uniqueWaId, wamid } from "../test/channel-helpers";
import type { BillingPlanRow } from "../../schema";

const asaas = () => providerFor(appEnv, { apiUrl: env.ASAAS_API_URL as string, apiKey: env.ASAAS_STANDIN_KEY });
const holder = holderSchema.parse(HOLDER);
const card = creditCardSchema.parse(CARD);

let monthly: BillingPlanRow;
let lifetime: BillingPlanRow;

beforeAll(async () => {
  monthly = await createPlan("monthly", 9900);
  lifetime = await createPlan("lifetime", 150000);
  await takeWebhooks();
});

async function subscribed(billingType: "PIX" | "CREDIT_CARD", plan = monthly) {
  const owner = await register();
  const company = await companyOf(owner);
  const result = await subscribe(appEnv, db(), asaas(), company, { planId: plan.id, billingType, holder, ...(billingType === "CREDIT_CARD" ? { creditCard: card } : {}), remoteIp: "203.0.113.7" });
  const invoice = await db().select().from(billingInvoices).where(eq(billingInvoices.publicId, result.invoice.publicId)).get();
  return { owner, company, result, paymentId: invoice!.providerPaymentId! };
}

/** The queued webhooks of one payment (others stay out). */
async function hooksOf(paymentId: string): Promise<QueuedWebhook[]> {
  return (await takeWebhooks()).filter((h) => h.body.payment.id === paymentId);
}

async function subscriptionOf(companyId: string) {
  return db().select().from(billingSubscriptions).where(eq(billingSubscriptions.companyId, companyId)).get();
}

describe("the asaas adapter against the stand-in", () => {
  it("card → PAYMENT_CONFIRMED → active; the customer, subscription and card reach Asaas (brand and last 4 kept)", async () => {
    const { company, result, paymentId } = await subscribed("CREDIT_CARD");
    const hooks = await hooksOf(paymentId);
    expect(hooks.map((h) => h.body.event)).toEqual(["PAYMENT_CREATED", "PAYMENT_CONFIRMED"]);
    for (const hook of hooks) await expectStatus(await deliverWebhook(hook), 200);
    expect(result.invoice.status).toBe("paid");
    const sub = await subscriptionOf(company.id);
    expect(sub).toMatchObject({ status: "active", provider: "asaas", cardBrand: "VISA", cardLast4: "1111" });
    expect(sub?.providerSubscriptionId).toMatch(/^sub_/);
    expect(await companyRow(company.id)).toMatchObject({ plan: "monthly", paymentStatus: "paid" });
  });

  it("PIX → QR code from Asaas → PAYMENT_RECEIVED → active", async () => {
    const { owner, company, result, paymentId } = await subscribed("PIX");
    expect(result.invoice.status).toBe("pending");
    expect(result.pix?.qrCodeImage).toMatch(/^data:image\/png;base64,/);
    expect(result.pix?.payload).toContain("br.gov.bcb.pix");
    expect((await subscriptionOf(company.id))?.status).toBe("pending");
    await standIn("pay", paymentId);
    for (const hook of await hooksOf(paymentId)) await expectStatus(await deliverWebhook(hook), 200);
    expect((await subscriptionOf(company.id))?.status).toBe("active");
    const invoice = await db().select().from(billingInvoices).where(eq(billingInvoices.providerPaymentId, paymentId)).get();
    expect(invoice).toMatchObject({ status: "paid", method: "PIX" });
    await expectStatus(await call("GET", "/api/tickets", { token: owner.token }), 200);
  });

  it("an open payment is cancelled at Asaas (DELETE /v3/payments/{id}, PAYMENT_DELETED follows); a paid one is refused", async () => {
    const open = await subscribed("PIX");
    await takeWebhooks();
    const provider = asaas();
    await provider.cancelPayment?.(open.paymentId);
    expect((await hooksOf(open.paymentId)).map((h) => h.body.event)).toEqual(["PAYMENT_DELETED"]);
    const paid = await subscribed("CREDIT_CARD");
    await expect(provider.cancelPayment?.(paid.paymentId)).rejects.toBeTruthy();
  });

  it("lifetime is a single payment (POST /v3/payments), no subscription", async () => {
    const { company } = await subscribed("CREDIT_CARD", lifetime);
    expect((await subscriptionOf(company.id))?.providerSubscriptionId).toBeNull();
    expect(await companyRow(company.id)).toMatchObject({ plan: "lifetime", paymentStatus: "paid" });
  });

  it("a card Asaas refuses → 400 naming creditCard.number; a wrong API key → 502 provider_unavailable", async () => {
    const company = await companyOf(await register());
    const args = { planId: monthly.id, billingType: "CREDIT_CARD" as const, holder, creditCard: creditCardSchema.parse(REFUSED_CARD), remoteIp: "203.0.113.7" };
    await expect(subscribe(appEnv, db(), asaas(), company, args)).rejects.toMatchObject({ code: "validation_failed", fields: { "creditCard.number": "card_refused" } });
    const wrong = providerFor(appEnv, { apiUrl: env.ASAAS_API_URL as string, apiKey: "not-the-key" });
    await expect(subscribe(appEnv, db(), wrong, company, { ...args, creditCard: card })).rejects.toMatchObject({ code: "provider_unavailable" });
  });

  it("OVERDUE → suspended after the grace period → 402 on feature routes, while customer messages are still stored", async () => {
    const { owner, company, paymentId } = await subscribed("PIX");
    const connection = await cloudConnection(owner.token);
    await standIn("overdue", paymentId);
    for (const hook of await hooksOf(paymentId)) await expectStatus(await deliverWebhook(hook), 200);
    expect((await subscriptionOf(company.id))?.status).toBe("overdue");
    // Still inside the grace period (and the trial): access continues.
    await expectStatus(await call("GET", "/api/tickets", { token: owner.token }), 200);
    // The daily job, four days later: suspended.
    await scheduled({ scheduledTime: Date.now() + 4 * 86_400_000, cron: "0 * * * *" }, appEnv, { waitUntil() {} });
    expect((await subscriptionOf(company.id))?.status).toBe("suspended");
    expect((await companyRow(company.id)).paymentStatus).toBe("unpaid");
    await expectError(await call("GET", "/api/tickets", { token: owner.token }), 402, "payment_required");
    await expectError(await call("GET", "/api/contacts", { token: owner.token }), 402, "payment_required");
    const before = await countRows("messages", "company_id = ?", company.id);
    await deliverOk(textWebhook(connection.phoneNumberId, uniqueWaId(), wamid(), "vocês estão abertos?"));
    expect(await countRows("messages", "company_id = ?", company.id)).toBe(before + 1);
    // Paying brings it back.
    await standIn("pay", paymentId);
    for (const hook of await hooksOf(paymentId)) await expectStatus(await deliverWebhook(hook), 200);
    expect((await companyRow(company.id)).paymentStatus).toBe("paid");
    await expectStatus(await call("GET", "/api/tickets", { token: owner.token }), 200);
  });

  it("the same event twice is applied once", async () => {
    const { company, paymentId } = await subscribed("PIX");
    await standIn("pay", paymentId);
    const received = (await hooksOf(paymentId)).find((h) => h.body.event === "PAYMENT_RECEIVED")!;
    expect(await expectStatus(await deliverWebhook(received), 200)).toEqual({ received: true });
    const after = await subscriptionOf(company.id);
    expect(await expectStatus(await deliverWebhook(received), 200)).toEqual({ received: true, duplicate: true });
    expect(await countRows("billing_events", "id = ?", received.body.id)).toBe(1);
    expect(await subscriptionOf(company.id)).toEqual(after);
  });

  it("a renewal charge Asaas creates (PAYMENT_CREATED of a known subscription) becomes a new invoice of that company", async () => {
    const { owner, company, paymentId } = await subscribed("CREDIT_CARD");
    await hooksOf(paymentId);
    const sub = await subscriptionOf(company.id);
    const renewal: QueuedWebhook = {
      headers: {},
      body: {
        id: `evt_renewal_${paymentId}`,
        event: "PAYMENT_CREATED",
        payment: { id: `pay_renewal_${paymentId}`, status: "PENDING", value: 99, dueDate: "2031-01-10", billingType: "CREDIT_CARD", subscription: sub!.providerSubscriptionId },
      },
    };
    await expectStatus(await deliverWebhook(renewal), 200);
    const list = await expectStatus<{ results: { status: string; dueDate: number; valueCents: number }[] }>(await call("GET", "/api/invoices", { token: owner.token }), 200);
    expect(list.results.map((i) => [i.status, i.valueCents])).toEqual([
      ["pending", 9900],
      ["paid", 9900],
    ]);
    expect(list.results[0]?.dueDate).toBe(Date.parse("2031-01-10T00:00:00-03:00"));
  });

  it("events out of order: a late CREATED or OVERDUE after RECEIVED leaves the invoice paid and the company active", async () => {
    const { company, paymentId } = await subscribed("PIX");
    const created = (await hooksOf(paymentId)).find((h) => h.body.event === "PAYMENT_CREATED")!;
    await standIn("pay", paymentId);
    const received = (await hooksOf(paymentId)).find((h) => h.body.event === "PAYMENT_RECEIVED")!;
    const overdue: QueuedWebhook = { headers: {}, body: { id: `evt_late_${paymentId}`, event: "PAYMENT_OVERDUE", payment: { ...received.body.payment, status: "OVERDUE" } } };
    await expectStatus(await deliverWebhook(received), 200);
    await expectStatus(await deliverWebhook(overdue), 200);
    await expectStatus(await deliverWebhook(created), 200);
    const invoice = await db().select().from(billingInvoices).where(eq(billingInvoices.providerPaymentId, paymentId)).get();
    expect(invoice?.status).toBe("paid");
    expect((await subscriptionOf(company.id))?.status).toBe("active");
    expect((await companyRow(company.id)).paymentStatus).toBe("paid");
  });
});
