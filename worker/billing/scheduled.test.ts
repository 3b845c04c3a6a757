/**
 * The daily billing job through the scheduled handler (issue 13 "the cron marks and suspends on the
 * right day in the company's time zone"): called with chosen times around a company's local
 * midnight (Asia/Tokyo, UTC+9, so the local day differs from the UTC day), once per local day, and
 * the reminder mail before a due date in the company's language.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { billingInvoices, billingSubscriptions } from "../../schema";
import { scheduled } from "../scheduled";
import { providerFor } from "./provider";
import { subscribe } from "./service";
import { HOLDER, appEnv, companyOf, companyRow, createPlan, db } from "./test-helpers";
import { holderSchema } from "../../schema/validation/billing";
import { countRows, lastMailTo, register, type Account } from "../test/helpers";
import type { BillingPlanRow } from "../../schema";

let monthly: BillingPlanRow;
beforeAll(async () => {
  monthly = await createPlan("monthly", 12345);
});

const run = (iso: string) => scheduled({ scheduledTime: Date.parse(iso), cron: "0 * * * *" }, appEnv, { waitUntil() {} });

/** A company in `timezone` with a sandbox PIX charge due at `due` (ISO), unpaid. */
async function withCharge(timezone: string, due: string, language = "pt-BR"): Promise<{ owner: Account; companyId: string }> {
  const owner = await register();
  const company = await companyOf(owner);
  await env.DB.prepare("UPDATE companies SET timezone = ?, language = ? WHERE id = ?").bind(timezone, language, company.id).run();
  await subscribe(appEnv, db(), providerFor({ ...appEnv, BILLING_PROVIDER: "sandbox" }), await companyRow(company.id), { planId: monthly.id, billingType: "PIX", holder: holderSchema.parse(HOLDER), remoteIp: "127.0.0.1" });
  await env.DB.prepare("UPDATE billing_invoices SET due_date = ? WHERE company_id = ?").bind(Date.parse(due), company.id).run();
  await env.DB.prepare("UPDATE billing_subscriptions SET next_due_date = ?, status = 'pending' WHERE company_id = ?").bind(Date.parse(due), company.id).run();
  return { owner, companyId: company.id };
}

const state = async (companyId: string) => {
  const sub = await db().select().from(billingSubscriptions).where(eq(billingSubscriptions.companyId, companyId)).get();
  const invoice = await db().select().from(billingInvoices).where(eq(billingInvoices.companyId, companyId)).get();
  const company = await companyRow(companyId);
  return { sub: sub?.status, invoice: invoice?.status, payment: company.paymentStatus };
};

describe("the daily billing job", () => {
  it("marks overdue from the local day after the due day and suspends after 3 grace days, in the company's time zone, once per local day", async () => {
    // Due 2030-03-10 10:00 in Tokyo (01:00 UTC).
    const { companyId } = await withCharge("Asia/Tokyo", "2030-03-10T10:00:00+09:00");
    await run("2030-03-10T23:30:00+09:00");
    expect(await state(companyId)).toMatchObject({ sub: "pending", invoice: "pending" });
    // 00:30 on the 11th in Tokyo is still the 10th in UTC: overdue now.
    await run("2030-03-10T15:30:00Z");
    expect(await state(companyId)).toMatchObject({ sub: "overdue", invoice: "overdue" });
    // Same local day again: the job does not run twice (a status set by hand stays).
    await env.DB.prepare("UPDATE billing_subscriptions SET status = 'pending' WHERE company_id = ?").bind(companyId).run();
    await run("2030-03-11T05:00:00+09:00");
    expect((await state(companyId)).sub).toBe("pending");
    // Grace days 11, 12, 13: still overdue late on the 13th.
    await run("2030-03-13T23:30:00+09:00");
    expect(await state(companyId)).toMatchObject({ sub: "overdue", payment: "trial" });
    // From the 14th (local): suspended.
    await run("2030-03-14T00:30:00+09:00");
    expect(await state(companyId)).toMatchObject({ sub: "suspended", payment: "unpaid" });
  });

  it("e-mails the owner a reminder 3 local days before the due date, once, in the company's language", async () => {
    const { owner } = await withCharge("America/Sao_Paulo", "2031-05-20T12:00:00-03:00", "en-US");
    const reminders = () => countRows("mail_outbox", "to_address = ? AND subject LIKE ?", owner.email, "%is due on%");
    await run("2031-05-16T12:00:00-03:00");
    expect(await reminders()).toBe(0);
    await run("2031-05-17T01:00:00-03:00");
    expect(await reminders()).toBe(1);
    const mail = await lastMailTo(owner.email);
    expect(mail?.subject).toContain("is due on 05/20/2031");
    expect(mail?.body_text).toContain("R$123.45");
    expect(mail?.body_text).toMatch(/\/checkout\/[A-Za-z0-9_-]{32}/);
    await run("2031-05-18T01:00:00-03:00");
    expect(await reminders()).toBe(1);
  });
});
