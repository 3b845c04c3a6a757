/**
 * Billing test helpers (worker tests only): plans inserted straight into D1, a valid payer, cards,
 * the company row of an account, and the Asaas stand-in's webhook queue.
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { billingPlans, companies, users, type BillingPlanRow, type CompanyRow } from "../../schema";
import type { PlanCycle } from "../../schema/validation/billing";
import type { AppEnv } from "../env";
import { getDb } from "../lib/db";
import { newId } from "../lib/ids";
import { call, type Account } from "../test/helpers";

export const appEnv = env as unknown as AppEnv;
export const db = () => getDb(env.DB);

/** A valid payer (CPF 529.982.247-25 has valid check digits). */
export const HOLDER = {
  name: "Ana Souza",
  email: "ana@example.com",
  cpfCnpj: "529.982.247-25",
  postalCode: "01310-100",
  address: "Avenida Paulista",
  addressNumber: "1000",
  province: "Bela Vista",
  city: "São Paulo",
  state: "SP",
  phone: "(11) 98765-4321",
};

/** An approved card (sandbox and stand-in). */
export const CARD = { holderName: "ANA SOUZA", number: "4111 1111 1111 1111", expiryMonth: 12, expiryYear: 2099, ccv: "123" };
/** A card the sandbox and the stand-in refuse. */
export const REFUSED_CARD = { ...CARD, number: "4000 0000 0000 0002" };

/** Inserts an active plan. */
export async function createPlan(cycle: PlanCycle = "monthly", priceCents = 9900, name = `Plano ${cycle}`): Promise<BillingPlanRow> {
  const at = Date.now();
  const row: BillingPlanRow = { id: newId(), name, priceCents, cycle, maxMembers: null, maxConnections: null, features: [], active: true, createdAt: at, updatedAt: at };
  await db().insert(billingPlans).values(row);
  return row;
}

/** The active company row of `account`. */
export async function companyOf(account: Account): Promise<CompanyRow> {
  const user = await db().select().from(users).where(eq(users.email, account.email)).get();
  const company = user?.activeCompanyId ? await db().select().from(companies).where(eq(companies.id, user.activeCompanyId)).get() : undefined;
  if (!company) throw new Error(`no company for ${account.email}`);
  return company;
}

/** Fresh company row by id. */
export async function companyRow(id: string): Promise<CompanyRow> {
  const row = await db().select().from(companies).where(eq(companies.id, id)).get();
  if (!row) throw new Error(`no company ${id}`);
  return row;
}

export type QueuedWebhook = { headers: Record<string, string>; body: { id: string; event: string; payment: Record<string, unknown> } };

/** Takes the Asaas stand-in's queued webhooks. */
export async function takeWebhooks(): Promise<QueuedWebhook[]> {
  return (await (await fetch(`${env.ASAAS_STANDIN_ORIGIN}/__webhooks`)).json()) as QueuedWebhook[];
}

/** Delivers one webhook to the worker as Asaas would (with its token header). */
export function deliverWebhook(hook: Pick<QueuedWebhook, "body">, token: string | null = env.ASAAS_WEBHOOK_TOKEN as string): Promise<Response> {
  return call("POST", "/api/billing/asaas/webhook", { body: hook.body, headers: token === null ? {} : { "asaas-access-token": token } });
}

/** Stand-in control: PIX received / overdue for a payment. */
export async function standIn(action: "pay" | "overdue" | "refund", paymentId: string): Promise<void> {
  const res = await fetch(`${env.ASAAS_STANDIN_ORIGIN}/__${action}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ paymentId }) });
  if (!res.ok) throw new Error(`stand-in ${action}: ${res.status}`);
}
