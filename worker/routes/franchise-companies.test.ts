/**
 * A franchise's companies, users and administrators (issue 14, worker/routes/franchise-companies.ts)
 * and the daily unpaid-company e-mail (worker/jobs/franchise-unpaid.ts): a company created for a
 * client with its owner invited by e-mail, suspended (402 like unpaid) and resumed; a franchise
 * administrator never reaching another franchise's companies, users, administrators or invoices
 * (404 / not listed); the payment tab (list, pay by PIX, cancel; the franchise's own Asaas key
 * chosen for its companies); the unpaid e-mail sent once per local day.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type {
  FranchiseAdminAnswer,
  FranchiseCompanyAnswer,
  FranchiseInvoiceAnswer,
  FranchiseInvoicePayAnswer,
  FranchiseInvoicesAnswer,
  FranchisePage,
  FranchiseUsersAnswer,
} from "../../schema/validation/franchise";
import { providerForCompany } from "../billing/provider";
import { franchiseUnpaidMail } from "../jobs/franchise-unpaid";
import { type Account, call, countRows, expectError, expectStatus, mailTo, me, register, uniqueEmail } from "../test/helpers";
import { franchiseAdminAccount } from "../test/route-matrix";

let adminA: Account;
let franchiseA: string;
let adminB: Account;
let client: FranchiseCompanyAnswer;
const clientEmail = uniqueEmail("client-owner");
const tag = crypto.randomUUID().slice(0, 6);

beforeAll(async () => {
  const [a, b] = await Promise.all([franchiseAdminAccount("Franquia A"), franchiseAdminAccount("Franquia B")]);
  adminA = a.account;
  franchiseA = a.franchiseId;
  adminB = b.account;
  client = await expectStatus<FranchiseCompanyAnswer>(
    await call("POST", "/api/franchise/companies", { token: adminA.token, body: { name: `Cliente ${tag}`, ownerEmail: clientEmail, ownerName: "Carla Dias", plan: "monthly" } }),
    201,
  );
});

describe("POST /api/franchise/companies", () => {
  it("creates the company under the franchise and invites a new owner by e-mail to choose a password", async () => {
    expect(client).toMatchObject({ name: `Cliente ${tag}`, owner: { name: "Carla Dias", email: clientEmail }, plan: "monthly", paymentStatus: "pending", suspended: false, franchiseRoleId: null });
    const row = await env.DB.prepare("SELECT franchise_id, activated_at FROM companies WHERE id = ?").bind(client.id).first<{ franchise_id: string; activated_at: number | null }>();
    expect(row?.franchise_id).toBe(franchiseA);
    expect(row?.activated_at).not.toBeNull();
    const mail = await mailTo(clientEmail, "reset-password?token=");
    expect(mail.subject).toContain("Franquia A");
    const token = /reset-password\?token=([\w-]+)/.exec(mail.body_text)?.[1] ?? "";
    const { token: session } = await expectStatus<{ token: string }>(await call("POST", "/api/reset-password", { body: { token, password: "uma senha segura" } }), 200);
    const owner = await me(session);
    expect(owner.activeCompany).toBe(client.id);
    const active = await expectStatus<{ id: string }>(await call("GET", "/api/companies/active", { token: session }), 200);
    expect(active.id).toBe(client.id);
    expect(await expectStatus<string[]>(await call("GET", "/api/me/permissions", { token: session }), 200)).toContain("settings_company");
  });

  it("makes an existing user the owner without changing their active company", async () => {
    const person = await register({ companyName: "Dela" });
    const before = await expectStatus<{ id: string }>(await call("GET", "/api/companies/active", { token: person.token }), 200);
    const made = await expectStatus<FranchiseCompanyAnswer>(
      await call("POST", "/api/franchise/companies", { token: adminA.token, body: { name: `Filial ${tag}`, ownerEmail: person.email } }),
      201,
    );
    expect(made).toMatchObject({ plan: "trial", paymentStatus: "trial", owner: { email: person.email } });
    expect((await expectStatus<{ id: string }>(await call("GET", "/api/companies/active", { token: person.token }), 200)).id).toBe(before.id);
    const companies = await expectStatus<{ id: string }[]>(await call("GET", "/api/companies", { token: person.token }), 200);
    expect(companies.map((c) => c.id)).toContain(made.id);
    expect(await countRows("users", "email = ?", person.email)).toBe(1);
  });

  it("lists the franchise's companies by cursor with search", async () => {
    await call("POST", "/api/franchise/companies", { token: adminA.token, body: { name: `Zeta ${tag}`, ownerEmail: uniqueEmail("zeta") } });
    const first = await expectStatus<FranchisePage<FranchiseCompanyAnswer>>(await call("GET", `/api/franchise/companies?search=${tag}&limit=2`, { token: adminA.token }), 200);
    expect(first.total).toBe(3);
    expect(first.results.map((c) => c.name)).toEqual([`Cliente ${tag}`, `Filial ${tag}`]);
    const second = await expectStatus<FranchisePage<FranchiseCompanyAnswer>>(
      await call("GET", `/api/franchise/companies?search=${tag}&limit=2&cursor=${first.cursor}`, { token: adminA.token }),
      200,
    );
    expect(second).toMatchObject({ cursor: null, total: 3 });
    expect(second.results.map((c) => c.name)).toEqual([`Zeta ${tag}`]);
  });
});

describe("PUT /api/franchise/companies/{id}", () => {
  it("suspends the company (402 like unpaid) and resumes it", async () => {
    const owner = await register();
    const company = await expectStatus<FranchiseCompanyAnswer>(
      await call("POST", "/api/franchise/companies", { token: adminA.token, body: { name: `Suspensa ${tag}`, ownerEmail: owner.email } }),
      201,
    );
    await expectStatus(await call("PUT", "/api/me/change-active", { token: owner.token, body: { companyId: company.id } }), 200);
    await expectStatus(await call("GET", "/api/contacts", { token: owner.token }), 200);
    const suspended = await expectStatus<FranchiseCompanyAnswer>(await call("PUT", `/api/franchise/companies/${company.id}`, { token: adminA.token, body: { suspended: true } }), 200);
    expect(suspended.suspended).toBe(true);
    await expectError(await call("GET", "/api/contacts", { token: owner.token }), 402, "payment_required");
    await expectStatus(await call("PUT", `/api/franchise/companies/${company.id}`, { token: adminA.token, body: { suspended: false, name: `Reativada ${tag}`, plan: "yearly" } }), 200);
    await expectStatus(await call("GET", "/api/contacts", { token: owner.token }), 200);
    const list = await expectStatus<FranchisePage<FranchiseCompanyAnswer>>(await call("GET", `/api/franchise/companies?search=Reativada`, { token: adminA.token }), 200);
    expect(list.results).toEqual([expect.objectContaining({ id: company.id, suspended: false, plan: "yearly", paymentStatus: "pending" })]);
  });

  it("never reaches another franchise's company (404) nor lists it", async () => {
    await expectError(await call("PUT", `/api/franchise/companies/${client.id}`, { token: adminB.token, body: { suspended: true } }), 404, "not_found");
    const listed = await expectStatus<FranchisePage<FranchiseCompanyAnswer>>(await call("GET", `/api/franchise/companies?search=${tag}`, { token: adminB.token }), 200);
    expect(listed.total).toBe(0);
    const row = await env.DB.prepare("SELECT suspended_at FROM companies WHERE id = ?").bind(client.id).first<{ suspended_at: number | null }>();
    expect(row?.suspended_at).toBeNull();
    // Nor a company outside franchises.
    const outsider = await register();
    const outsiderCompany = await expectStatus<{ id: string }>(await call("GET", "/api/companies/active", { token: outsider.token }), 200);
    await expectError(await call("PUT", `/api/franchise/companies/${outsiderCompany.id}`, { token: adminA.token, body: { name: "Minha" } }), 404, "not_found");
  });
});

describe("GET /api/franchise/users and administrators", () => {
  it("lists the administrators and the users of the franchise's companies only, by cursor with search", async () => {
    const mine = await expectStatus<FranchiseUsersAnswer>(await call("GET", `/api/franchise/users?search=${encodeURIComponent("Carla")}`, { token: adminA.token }), 200);
    expect(mine.admins.map((a) => a.email)).toEqual([adminA.email]);
    expect(mine.results).toEqual([expect.objectContaining({ email: clientEmail, companyId: client.id, companyName: `Cliente ${tag}` })]);
    const all = await expectStatus<FranchiseUsersAnswer>(await call("GET", "/api/franchise/users?limit=1", { token: adminA.token }), 200);
    expect(all.total).toBeGreaterThanOrEqual(2);
    expect(all.cursor).toEqual(expect.any(String));
    const theirs = await expectStatus<FranchiseUsersAnswer>(await call("GET", "/api/franchise/users", { token: adminB.token }), 200);
    expect(theirs.admins.map((a) => a.email)).toEqual([adminB.email]);
    expect(theirs.results.map((u) => u.email)).not.toContain(clientEmail);
  });

  it("adds and removes administrators, never another franchise's, never the last one", async () => {
    const email = uniqueEmail("co-admin");
    const added = await expectStatus<FranchiseAdminAnswer>(await call("POST", "/api/franchise/admins", { token: adminA.token, body: { email } }), 201);
    expect(added.email).toBe(email);
    await mailTo(email, "reset-password?token=");
    await expectError(await call("DELETE", `/api/franchise/admins/${added.id}`, { token: adminB.token }), 404, "not_found");
    await expectStatus(await call("DELETE", `/api/franchise/admins/${added.id}`, { token: adminA.token }), 204);
    const adminAId = (await me(adminA.token)).id;
    expect((await expectError(await call("DELETE", `/api/franchise/admins/${adminAId}`, { token: adminA.token }), 409, "conflict")).error.fields).toEqual({ userId: "last_admin" });
  });
});

/** An open sandbox invoice of `companyId` straight in D1 (billing makes them on subscription). */
async function openInvoice(companyId: string): Promise<string> {
  const id = crypto.randomUUID();
  const at = Date.now();
  await env.DB.prepare(
    "INSERT INTO billing_invoices (id, public_id, company_id, value_cents, due_date, status, provider, provider_payment_id, created_at, updated_at) VALUES (?, ?, ?, 4990, ?, 'pending', 'sandbox', ?, ?, ?)",
  )
    .bind(id, `pub_${crypto.randomUUID()}`, companyId, at, `sandbox_pay_${crypto.randomUUID()}`, at, at)
    .run();
  return id;
}

describe("the payment tab: /api/franchise/invoices", () => {
  it("lists its companies' invoices, pays by PIX and cancels, never another franchise's (404)", async () => {
    const first = await openInvoice(client.id);
    const second = await openInvoice(client.id);
    const list = await expectStatus<FranchiseInvoicesAnswer>(await call("GET", `/api/franchise/invoices?companyId=${client.id}&limit=1`, { token: adminA.token }), 200);
    expect(list.results).toEqual([expect.objectContaining({ id: second, companyId: client.id, companyName: `Cliente ${tag}`, value: 4990, status: "pending" })]);
    expect(list.cursor).toEqual(expect.any(String));
    const rest = await expectStatus<FranchiseInvoicesAnswer>(await call("GET", `/api/franchise/invoices?companyId=${client.id}&cursor=${list.cursor}`, { token: adminA.token }), 200);
    expect(rest.results.map((i) => i.id)).toEqual([first]);
    expect((await expectStatus<FranchiseInvoicesAnswer>(await call("GET", "/api/franchise/invoices", { token: adminB.token }), 200)).results.map((i) => i.id)).not.toContain(first);
    for (const [method, body] of [["GET", undefined], ["POST", { billingType: "PIX" }], ["DELETE", undefined]] as const) {
      await expectError(await call(method, `/api/franchise/invoices/${first}`, { token: adminB.token, body }), 404, "not_found");
    }
    const paid = await expectStatus<FranchiseInvoicePayAnswer>(await call("POST", `/api/franchise/invoices/${first}`, { token: adminA.token, body: { billingType: "PIX" } }), 200);
    expect(paid.pix?.payload).toEqual(expect.any(String));
    const cancelled = await expectStatus<FranchiseInvoiceAnswer>(await call("DELETE", `/api/franchise/invoices/${second}`, { token: adminA.token }), 200);
    expect(cancelled.status).toBe("cancelled");
    await expectError(await call("POST", `/api/franchise/invoices/${second}`, { token: adminA.token, body: { billingType: "PIX" } }), 409, "conflict");
    expect(await expectStatus(await call("GET", `/api/franchise/invoices/${second}`, { token: adminA.token }), 200)).toEqual(cancelled);
  });

  it("bills a franchise company through the franchise's own Asaas key", async () => {
    const row = await env.DB.prepare("SELECT id, franchise_id FROM companies WHERE id = ?").bind(client.id).first<{ id: string; franchise_id: string }>();
    expect((await providerForCompany(env, { id: client.id, franchiseId: row?.franchise_id ?? null })).name).toBe("sandbox");
    await expectStatus(await call("PUT", "/api/franchise/integrations", { token: adminA.token, body: { asaasApiKey: env.ASAAS_STANDIN_KEY } }), 200);
    expect((await providerForCompany(env, { id: client.id, franchiseId: row?.franchise_id ?? null })).name).toBe("asaas");
    await expectStatus(await call("PUT", "/api/franchise/integrations", { token: adminA.token, body: { asaasApiKey: null } }), 200);
  });
});

describe("franchiseUnpaidMail", () => {
  it("mails the franchise's notPaid text to its unpaid companies once per local day, when switched on", async () => {
    const owner = await register();
    const company = await expectStatus<FranchiseCompanyAnswer>(
      await call("POST", "/api/franchise/companies", { token: adminA.token, body: { name: `Devedora ${tag}`, ownerEmail: owner.email } }),
      201,
    );
    const sent = () => countRows("mail_outbox", "to_address = ? AND body_text LIKE ?", owner.email, `%Pague a fatura ${tag}%`);
    await env.DB.prepare("UPDATE companies SET payment_status = 'unpaid' WHERE id = ?").bind(company.id).run();
    await env.DB.prepare("UPDATE franchises SET not_paid = ?, send_email_to_unpaid_company = 0 WHERE id = ?").bind(`Pague a fatura ${tag}.`, franchiseA).run();
    const noon = Date.UTC(2030, 0, 10, 15, 0, 0);
    await franchiseUnpaidMail(env, noon);
    expect(await sent()).toBe(0);
    await env.DB.prepare("UPDATE franchises SET send_email_to_unpaid_company = 1 WHERE id = ?").bind(franchiseA).run();
    await franchiseUnpaidMail(env, noon);
    await franchiseUnpaidMail(env, noon + 3600_000);
    expect(await sent()).toBe(1);
    const mail = await mailTo(owner.email, `Pague a fatura ${tag}`);
    expect(mail.subject).toContain("Franquia A");
    // The next local day (São Paulo): once more.
    await franchiseUnpaidMail(env, noon + 24 * 3600_000);
    expect(await sent()).toBe(2);
    // A paid company gets nothing.
    await env.DB.prepare("UPDATE companies SET payment_status = 'paid', due_date = ? WHERE id = ?").bind(noon + 90 * 24 * 3600_000, company.id).run();
    await franchiseUnpaidMail(env, noon + 2 * 24 * 3600_000);
    expect(await sent()).toBe(2);
    await env.DB.prepare("UPDATE franchises SET send_email_to_unpaid_company = 0 WHERE id = ?").bind(franchiseA).run();
  });
});
