/**
 * Billing routes with the sandbox provider (issue 13): validation of every payer and card rule
 * (the 400 names the field), coupons (expired, used up, other plan → 400 invalid_coupon), plans and
 * coupons for platform administrators only, the sandbox PIX cycle (subscribe → QR → simulate payment
 * → active), cards approved/refused by number, the public invoice by its unguessable id, the
 * invoice history, the webhook's token (401), the access messages, and the dev test clock (never in
 * production).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:test";
import type { CompanyAnswer } from "../../schema/api-types";
import type { CouponAnswer, InvoicesAnswer, PlanAnswer, PlansAnswer, PublicInvoiceAnswer, SubscribeAnswer, SubscriptionAnswer } from "../../schema/validation/billing";
import { app } from "../app";
import { CARD, HOLDER, REFUSED_CARD, appEnv, companyOf, createPlan, deliverWebhook } from "../billing/test-helpers";
import { call, expectError, expectInvalid, expectStatus, member, register, type Account } from "../test/helpers";

let admin: Account;
let owner: Account;
let monthly: PlanAnswer;
let lifetime: PlanAnswer;

beforeAll(async () => {
  admin = await register({ email: "platform-admin@conversa.test", companyName: "Plataforma" });
  owner = await register({ companyName: "Padaria Billing" });
  monthly = await expectStatus<PlanAnswer>(
    await call("POST", "/api/admin/plans", { token: admin.token, body: { name: "Mensal", priceCents: 9900, cycle: "monthly", maxMembers: 5, features: ["broadcasts", "flow"] } }),
    201,
  );
  lifetime = await expectStatus<PlanAnswer>(await call("POST", "/api/admin/plans", { token: admin.token, body: { name: "Vitalício", priceCents: 199900, cycle: "lifetime" } }), 201);
});

const subscribe = (token: string, body: Record<string, unknown>) => call("POST", "/api/companies/subscription", { token, body });
const pix = (planId: string, extra: Record<string, unknown> = {}) => ({ planId, billingType: "PIX", holder: HOLDER, ...extra });
const byCard = (planId: string, card: Record<string, unknown> = CARD, holder: Record<string, unknown> = HOLDER) => ({ planId, billingType: "CREDIT_CARD", creditCard: card, holder });

describe("validation (spec §5): each rule is a 400 naming the field", () => {
  const cases: [string, Record<string, unknown>, string, string][] = [
    ["card number failing Luhn", { number: "4111 1111 1111 1112" }, "creditCard.number", "invalid_card_number"],
    ["card number of the wrong length for its brand (Amex is 15)", { number: "3782 8224 6310 0051" }, "creditCard.number", "invalid_card_number"],
    ["expiry month 13", { expiryMonth: 13 }, "creditCard.expiryMonth", "invalid_expiry_month"],
    ["expiry in the past", { expiryMonth: 1, expiryYear: 2020 }, "creditCard.expiryYear", "card_expired"],
    ["CVV of 2 digits", { ccv: "12" }, "creditCard.ccv", "invalid_ccv"],
    ["CVV of 5 digits", { ccv: "12345" }, "creditCard.ccv", "invalid_ccv"],
  ];
  for (const [what, card, field, code] of cases) {
    it(`refuses a ${what}`, async () => {
      await expectInvalid(await subscribe(owner.token, byCard(monthly.id, { ...CARD, ...card })), field, code);
    });
  }
  const holderCases: [string, Record<string, unknown>, string, string][] = [
    ["CPF with wrong check digits", { cpfCnpj: "529.982.247-24" }, "holder.cpfCnpj", "invalid_cpf_cnpj"],
    ["CNPJ with wrong check digits", { cpfCnpj: "11.222.333/0001-80" }, "holder.cpfCnpj", "invalid_cpf_cnpj"],
    ["postal code of 7 digits", { postalCode: "0131010" }, "holder.postalCode", "invalid_postal_code"],
    ["state that is not a UF", { state: "XX" }, "holder.state", "invalid_state"],
    ["blank street", { address: " " }, "holder.address", "required"],
    ["blank number", { addressNumber: "" }, "holder.addressNumber", "required"],
    ["blank neighbourhood", { province: "" }, "holder.province", "required"],
    ["blank city", { city: "" }, "holder.city", "required"],
  ];
  for (const [what, holder, field, code] of holderCases) {
    it(`refuses a ${what}`, async () => {
      await expectInvalid(await subscribe(owner.token, pix(monthly.id, { holder: { ...HOLDER, ...holder } })), field, code);
    });
  }
  it("accepts a valid CNPJ and requires the card for CREDIT_CARD", async () => {
    await expectInvalid(await subscribe(owner.token, { planId: monthly.id, billingType: "CREDIT_CARD", holder: { ...HOLDER, cpfCnpj: "11.222.333/0001-81" } }), "creditCard", "required");
  });
  it("refuses an unknown plan", async () => {
    await expectInvalid(await subscribe(owner.token, pix(crypto.randomUUID())), "planId", "invalid_plan");
  });
});

describe("coupons (spec §5: valid and not expired)", () => {
  async function coupon(body: Record<string, unknown>): Promise<CouponAnswer> {
    return expectStatus<CouponAnswer>(await call("POST", "/api/admin/coupons", { token: admin.token, body }), 201);
  }
  it("expired, used up, for another plan or unknown → 400 invalid_coupon; a valid one discounts and counts a use", async () => {
    const someone = await register();
    await coupon({ code: "VENCIDO", kind: "percent", value: 10, validUntil: Date.now() - 1000 });
    await coupon({ code: "ESGOTADO", kind: "percent", value: 10, maxUses: 1 });
    await coupon({ code: "SOVITALICIO", kind: "fixed", value: 1000, planIds: [lifetime.id] });
    const good = await coupon({ code: "Bem-Vindo", kind: "percent", value: 50, maxUses: 5 });
    for (const code of ["VENCIDO", "SOVITALICIO", "NAOEXISTE"]) {
      await expectInvalid(await subscribe(someone.token, pix(monthly.id, { coupon: code })), "coupon", "invalid_coupon");
    }
    await expectStatus(await subscribe(someone.token, pix(monthly.id, { coupon: "esgotado" })), 201);
    await expectInvalid(await subscribe(someone.token, pix(monthly.id, { coupon: "ESGOTADO" })), "coupon", "invalid_coupon");
    const answer = await expectStatus<SubscribeAnswer>(await subscribe(someone.token, pix(monthly.id, { coupon: "bem-vindo" })), 201);
    expect(answer.invoice.valueCents).toBe(4950);
    const list = await expectStatus<{ results: CouponAnswer[] }>(await call("GET", "/api/admin/coupons", { token: admin.token }), 200);
    expect(list.results.find((c) => c.id === good.id)?.uses).toBe(1);
    await expectError(await call("POST", "/api/admin/coupons", { token: admin.token, body: { code: "bem-vindo", kind: "fixed", value: 1 } }), 409, "name_in_use");
  });
});

describe("plans (platform administrators)", () => {
  it("GET /api/plans is public and lists only active plans; admins only may write; a price change keeps subscribers' locked price", async () => {
    const hidden = await expectStatus<PlanAnswer>(await call("POST", "/api/admin/plans", { token: admin.token, body: { name: "Oculto", priceCents: 100, cycle: "yearly", active: false } }), 201);
    const plans = await expectStatus<PlansAnswer>(await call("GET", "/api/plans"), 200);
    expect(plans.results.map((p) => p.id)).toContain(monthly.id);
    expect(plans.results.map((p) => p.id)).not.toContain(hidden.id);
    await expectError(await call("POST", "/api/admin/plans", { token: owner.token, body: { name: "X", priceCents: 1, cycle: "monthly" } }), 403, "forbidden");
    await expectInvalid(await call("POST", "/api/admin/plans", { token: admin.token, body: { name: "X", priceCents: 1.5, cycle: "weekly" } }), "priceCents", "invalid_price");
    await expectInvalid(await call("POST", "/api/admin/plans", { token: admin.token, body: { name: "X", priceCents: 1, cycle: "monthly", features: ["dashboard"] } }), "features.0", "invalid_feature");

    const plan = await createPlan("monthly", 5000);
    const subscriber = await register();
    await expectStatus(await subscribe(subscriber.token, byCard(plan.id)), 201);
    await expectStatus(await call("PUT", `/api/admin/plans/${plan.id}`, { token: admin.token, body: { name: plan.name, priceCents: 7000, cycle: "monthly" } }), 200);
    const view = await expectStatus<SubscriptionAnswer>(await call("GET", "/api/companies/subscription", { token: subscriber.token }), 200);
    expect(view.priceCents).toBe(5000);
    expect(view.plan?.priceCents).toBe(7000);
    await expectError(await call("DELETE", `/api/admin/plans/${plan.id}`, { token: admin.token }), 409, "conflict");
    expect((await call("DELETE", `/api/admin/plans/${hidden.id}`, { token: admin.token })).status).toBe(204);
  });
});

describe("the sandbox cycle", () => {
  it("PIX: subscribe → QR code and payload → simulate payment → active, paid, due a month later; invoice listed", async () => {
    const someone = await register();
    const answer = await expectStatus<SubscribeAnswer>(await subscribe(someone.token, pix(monthly.id)), 201);
    expect(answer.invoice.status).toBe("pending");
    expect(answer.pix?.qrCodeImage).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    expect(answer.pix?.payload).toMatch(/^000201.*6304[0-9A-F]{4}$/);
    expect(answer.invoice.publicId.length).toBeGreaterThanOrEqual(22);
    expect(answer.subscription?.status).toBe("pending");

    const page = await expectStatus<PublicInvoiceAnswer>(await call("GET", `/api/billing/invoices/${answer.invoice.publicId}`), 200);
    expect(page).toMatchObject({ companyName: "Padaria Central", planName: "Mensal", status: "pending", valueCents: 9900, sandbox: true });
    expect(page.pix?.payload).toBe(answer.pix?.payload);

    const paid = await expectStatus<{ status: string; paidAt: number }>(await call("POST", `/api/billing/sandbox/invoices/${answer.invoice.publicId}/simulate-payment`), 200);
    expect(paid.status).toBe("paid");
    const view = await expectStatus<SubscriptionAnswer>(await call("GET", "/api/companies/subscription", { token: someone.token }), 200);
    expect(view).toMatchObject({ status: "active", paymentStatus: "paid", valid: true, message: null });
    expect(view.dueDate).toBeGreaterThan(Date.now() + 27 * 86_400_000);
    const company = await expectStatus<CompanyAnswer>(await call("GET", "/api/companies/active", { token: someone.token }), 200);
    expect(company).toMatchObject({ plan: "monthly", paymentStatus: "paid", subscriptionValid: true });
    const invoices = await expectStatus<InvoicesAnswer>(await call("GET", "/api/invoices", { token: someone.token }), 200);
    expect(invoices.results.map((i) => [i.publicId, i.status])).toEqual([[answer.invoice.publicId, "paid"]]);
    await expectError(await call("POST", `/api/billing/sandbox/invoices/${answer.invoice.publicId}/simulate-payment`), 409, "conflict");
  });

  it("card: an approved card pays at once (brand and last 4 only); a refused test card → 400 card_refused; the card can be changed", async () => {
    const someone = await register();
    await expectInvalid(await subscribe(someone.token, byCard(monthly.id, REFUSED_CARD)), "creditCard.number", "card_refused");
    const answer = await expectStatus<SubscribeAnswer>(await subscribe(someone.token, byCard(monthly.id)), 201);
    expect(answer.invoice.status).toBe("paid");
    expect(answer.subscription).toMatchObject({ status: "active", card: { brand: "VISA", last4: "1111" }, valid: true });
    expect(JSON.stringify(answer)).not.toContain("4111111111111111");
    await expectInvalid(await call("PUT", "/api/companies/subscription/card", { token: someone.token, body: { creditCard: REFUSED_CARD, holder: HOLDER } }), "creditCard.number", "card_refused");
    const changed = await expectStatus<SubscriptionAnswer>(
      await call("PUT", "/api/companies/subscription/card", { token: someone.token, body: { creditCard: { ...CARD, number: "5555 5555 5555 4444" }, holder: HOLDER } }),
      200,
    );
    expect(changed.card).toEqual({ brand: "MASTERCARD", last4: "4444" });
    // Cancelling keeps access until the paid period ends.
    const cancelled = await expectStatus<SubscriptionAnswer>(await call("POST", "/api/companies/subscription/cancel", { token: someone.token }), 200);
    expect(cancelled).toMatchObject({ status: "cancelled", valid: true, paymentStatus: "paid" });
  });

  it("lifetime: one payment, access for ever; no card to change", async () => {
    const someone = await register();
    await expectStatus(await subscribe(someone.token, byCard(lifetime.id)), 201);
    const company = await expectStatus<CompanyAnswer>(await call("GET", "/api/companies/active", { token: someone.token }), 200);
    expect(company).toMatchObject({ plan: "lifetime", paymentStatus: "paid", subscriptionValid: true });
    await expectError(await call("PUT", "/api/companies/subscription/card", { token: someone.token, body: { creditCard: CARD, holder: HOLDER } }), 409, "conflict");
  });

  it("the public checkout pays an open invoice by card, and an invoice id that does not exist is 404", async () => {
    const someone = await register();
    const answer = await expectStatus<SubscribeAnswer>(await subscribe(someone.token, pix(monthly.id)), 201);
    const path = `/api/billing/invoices/${answer.invoice.publicId}/pay`;
    await expectInvalid(await call("POST", path, { body: { billingType: "CREDIT_CARD", holder: HOLDER } }), "creditCard", "required");
    await expectInvalid(await call("POST", path, { body: { billingType: "CREDIT_CARD", creditCard: REFUSED_CARD, holder: HOLDER } }), "creditCard.number", "card_refused");
    const paid = await expectStatus<{ invoice: { status: string; method: string } }>(await call("POST", path, { body: { billingType: "CREDIT_CARD", creditCard: CARD, holder: HOLDER } }), 200);
    expect(paid.invoice).toMatchObject({ status: "paid", method: "CREDIT_CARD" });
    await expectError(await call("GET", "/api/billing/invoices/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"), 404, "not_found");
  });

  it("subscription routes need settings_company, and stay reachable for a suspended company", async () => {
    const m = await member(owner, ["tickets"]);
    await expectError(await call("GET", "/api/companies/subscription", { token: m.token }), 403, "forbidden");
    const company = await companyOf(owner);
    await env.DB.prepare("UPDATE companies SET payment_status = 'unpaid' WHERE id = ?").bind(company.id).run();
    const view = await expectStatus<SubscriptionAnswer>(await call("GET", "/api/companies/subscription", { token: owner.token }), 200);
    expect(view).toMatchObject({ status: "suspended", paymentStatus: "pending", valid: false, message: { kind: "suspended" } });
    await expectError(await call("GET", "/api/tickets", { token: owner.token }), 402, "payment_required");
    await expectStatus(await subscribe(owner.token, pix(monthly.id)), 201);
    await env.DB.prepare("UPDATE companies SET payment_status = 'trial' WHERE id = ?").bind(company.id).run();
  });
});

describe("access messages (spec §4, §8)", () => {
  it("trial near its end → expiring with the date; a pending first charge → pending; a franchise company → contact the administrator", async () => {
    const someone = await register();
    const company = await companyOf(someone);
    const due = Date.now() + 2 * 86_400_000;
    await env.DB.prepare("UPDATE companies SET due_date = ? WHERE id = ?").bind(due, company.id).run();
    let view = await expectStatus<SubscriptionAnswer>(await call("GET", "/api/companies/subscription", { token: someone.token }), 200);
    expect(view.message).toEqual({ kind: "expiring", dueDate: due });
    await expectStatus(await subscribe(someone.token, pix(monthly.id)), 201);
    view = await expectStatus<SubscriptionAnswer>(await call("GET", "/api/companies/subscription", { token: someone.token }), 200);
    expect(view.message).toEqual({ kind: "pending" });
    expect(view.nextInvoice?.status).toBe("pending");
    await env.DB.prepare("UPDATE companies SET franchise_id = ? WHERE id = ?").bind(crypto.randomUUID(), company.id).run();
    view = await expectStatus<SubscriptionAnswer>(await call("GET", "/api/companies/subscription", { token: someone.token }), 200);
    expect(view).toMatchObject({ franchise: true, message: { kind: "contact_administrator" }, franchiseNotPaid: null });
    // The franchise's own notPaid text (spec §3) is what the company is shown instead (issue 14).
    const franchiseId = crypto.randomUUID();
    const at = Date.now();
    await env.DB.prepare("INSERT INTO franchises (id, name, not_paid, created_at, updated_at) VALUES (?, ?, ?, ?, ?)").bind(franchiseId, "Rede Sul", "Regularize com a Rede Sul: (11) 4000-0000.", at, at).run();
    await env.DB.prepare("UPDATE companies SET franchise_id = ? WHERE id = ?").bind(franchiseId, company.id).run();
    view = await expectStatus<SubscriptionAnswer>(await call("GET", "/api/companies/subscription", { token: someone.token }), 200);
    expect(view.franchiseNotPaid).toBe("Regularize com a Rede Sul: (11) 4000-0000.");
  });
});

describe("the Asaas webhook's token", () => {
  it("answers 401 without the asaas-access-token header or with a wrong one", async () => {
    const hook = { body: { id: "evt_x", event: "PAYMENT_RECEIVED", payment: { id: "pay_x", status: "RECEIVED", value: 10, dueDate: "2026-01-01", billingType: "PIX" } } };
    await expectError(await deliverWebhook(hook, null), 401, "unauthorized");
    await expectError(await deliverWebhook(hook, "wrong-token-wrong-token-wrong-token"), 401, "unauthorized");
    await expectError(await deliverWebhook(hook, `${env.ASAAS_WEBHOOK_TOKEN}x`), 401, "unauthorized");
    expect((await deliverWebhook(hook)).status).toBe(200);
  });
});

describe("the test clock (dev only)", () => {
  it("moves the session company's 'now': a trial ends and the company is sent to pay; production answers 404", async () => {
    const someone = await register();
    await expectStatus(await call("GET", "/api/tickets", { token: someone.token }), 200);
    await expectStatus(await call("POST", "/api/dev/clock", { token: someone.token, body: { offsetMs: 8 * 86_400_000 } }), 200);
    await expectError(await call("GET", "/api/tickets", { token: someone.token }), 402, "payment_required");
    const company = await expectStatus<CompanyAnswer>(await call("GET", "/api/companies/active", { token: someone.token }), 200);
    expect(company.subscriptionValid).toBe(false);
    // Other companies keep the real time.
    await expectStatus(await call("GET", "/api/tickets", { token: owner.token }), 200);
    // Paying by PIX brings it back.
    const answer = await expectStatus<SubscribeAnswer>(await subscribe(someone.token, pix(monthly.id)), 201);
    await expectStatus(await call("POST", `/api/billing/sandbox/invoices/${answer.invoice.publicId}/simulate-payment`), 200);
    await expectStatus(await call("GET", "/api/tickets", { token: someone.token }), 200);

    const production = { ...appEnv, ENVIRONMENT: "production" };
    const req = new Request("http://localhost/api/dev/clock", {
      method: "POST",
      headers: { Authorization: `Bearer ${someone.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ offsetMs: 1 }),
    });
    const res = await app.fetch(req, production, { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext);
    await expectError(res, 404, "not_found");
  });
});

describe("the public invoice's issuer", () => {
  it("is the product for a direct company and the franchise for a franchise's company", async () => {
    const someone = await register();
    const answer = await expectStatus<SubscribeAnswer>(await subscribe(someone.token, pix(monthly.id)), 201);
    const path = `/api/billing/invoices/${answer.invoice.publicId}`;
    expect((await expectStatus<PublicInvoiceAnswer>(await call("GET", path), 200)).issuerName).toBe(env.APP_NAME);

    const franchiseId = crypto.randomUUID();
    const at = Date.now();
    await env.DB.batch([
      env.DB.prepare("INSERT INTO franchises (id, name, created_at, updated_at) VALUES (?, 'Revenda Issuer', ?, ?)").bind(franchiseId, at, at),
      env.DB.prepare("UPDATE companies SET franchise_id = ? WHERE id = (SELECT company_id FROM billing_invoices WHERE public_id = ?)").bind(franchiseId, answer.invoice.publicId),
    ]);
    expect((await expectStatus<PublicInvoiceAnswer>(await call("GET", path), 200)).issuerName).toBe("Revenda Issuer");
  });
});
