/**
 * The payment-provider adapter (issue 13 "Payment providers"): one interface, two implementations:
 * `asaas` (worker/billing/asaas.ts, Asaas's REST API v3) and `sandbox` (worker/billing/sandbox.ts,
 * the local default: everything in D1, test cards, PIX paid by "simulate payment").
 *
 * Amounts cross this interface in integer cents; dates as ms UTC (the adapters convert to Asaas's
 * reais and YYYY-MM-DD). Errors: a refused card → AppError 400 `validation_failed` with
 * `creditCard.number: card_refused`; a bad request the provider names → 400 naming the field when
 * known; anything else from the provider → 502 `provider_unavailable`.
 */
import { eq } from "drizzle-orm";
import { franchises, type CompanyRow } from "../../schema";
import { getDb } from "../lib/db";
import { encryptionSecret } from "../lib/keys";
import { decryptSecret } from "../lib/secrets";
import type { BillingType, Holder, PlanCycle } from "../../schema/validation/billing";
import type { AppEnv } from "../env";
import { AsaasProvider } from "./asaas";
import { SandboxProvider } from "./sandbox";

/** A validated card (digits only; 4-digit year). */
export type CardData = { holderName: string; number: string; expiryMonth: number; expiryYear: number; ccv: string };

/** A provider's payment, as far as billing needs it. `status` uses Asaas's payment status names. */
export type ProviderPayment = {
  id: string;
  status: string;
  valueCents: number;
  dueDate: number;
  paymentDate: number | null;
  billingType: string;
  invoiceUrl: string | null;
  subscriptionId: string | null;
  externalReference: string | null;
  card: { brand: string; last4: string } | null;
};

/** A PIX QR code: base64 PNG, the copy-and-paste payload, expiry ms UTC (null when none). */
export type ProviderPix = { encodedImage: string; payload: string; expiresAt: number | null };

/** A new charge: recurring for the cycles, a single payment for lifetime. */
export type ChargeInput = {
  customerId: string;
  cycle: PlanCycle;
  valueCents: number;
  dueDate: number;
  billingType: BillingType;
  description: string;
  /** Our invoice's public id, sent as `externalReference` so webhooks find it. */
  externalReference: string;
  card?: { card: CardData; holder: Holder; remoteIp: string };
};

export interface BillingProvider {
  readonly name: "sandbox" | "asaas";
  /** Creates the payer: the provider's customer id. */
  createCustomer(holder: Holder, externalReference: string): Promise<string>;
  /**
   * Creates the charge: a subscription for monthly/semiannual/yearly (its id) with its first
   * payment, or one payment for lifetime (subscriptionId null). A card is charged/confirmed by the
   * provider (the confirmation also arrives as a PAYMENT_CONFIRMED webhook).
   */
  createCharge(input: ChargeInput): Promise<{ subscriptionId: string | null; payment: ProviderPayment }>;
  /** The PIX QR code of a payment. */
  pixQrCode(paymentId: string, valueCents: number): Promise<ProviderPix>;
  /** Pays an existing payment by card (public checkout). */
  payWithCard(paymentId: string, card: CardData, holder: Holder, remoteIp: string): Promise<ProviderPayment>;
  /** Replaces the card of a subscription (future charges). */
  updateCard(subscriptionId: string, card: CardData, holder: Holder, remoteIp: string): Promise<{ brand: string; last4: string }>;
  /** Cancels a subscription at the provider (no further charges). */
  cancelSubscription(subscriptionId: string): Promise<void>;
  /** Cancels (deletes) one open payment at the provider (Asaas DELETE /payments/{id}); absent: not supported yet. */
  cancelPayment?(paymentId: string): Promise<void>;
}

/** Credentials of an Asaas account (the platform's, or a franchise's own). */
export type ProviderCredentials = { apiUrl: string; apiKey: string };

/** The default Asaas API base. */
export const ASAAS_DEFAULT_URL = "https://api.asaas.com/v3";

/**
 * Which provider the platform uses: BILLING_PROVIDER when set; else asaas when ASAAS_API_KEY is set;
 * else sandbox, EXCEPT in a production-marked worker (ENVIRONMENT "production" or unset), which
 * fails closed to an unconfigured asaas (502 `provider_unavailable`) rather than let anyone pay with
 * test cards or a simulated PIX: there the sandbox needs BILLING_PROVIDER=sandbox said out loud
 * (`npm start` does).
 */
export function providerName(env: Pick<AppEnv, "BILLING_PROVIDER" | "ASAAS_API_KEY" | "ENVIRONMENT">): "sandbox" | "asaas" {
  if (env.BILLING_PROVIDER === "asaas" || env.BILLING_PROVIDER === "sandbox") return env.BILLING_PROVIDER;
  if (env.ASAAS_API_KEY) return "asaas";
  return !env.ENVIRONMENT || env.ENVIRONMENT === "production" ? "asaas" : "sandbox";
}

/**
 * The provider for the platform's own billing, or, with `credentials`, an Asaas adapter on those
 * (a franchise's own account, or a test's stand-in).
 */
export function providerFor(env: AppEnv, credentials?: ProviderCredentials): BillingProvider {
  if (credentials) return new AsaasProvider(credentials, env.APP_NAME);
  if (providerName(env) === "asaas") {
    return new AsaasProvider({ apiUrl: env.ASAAS_API_URL || ASAAS_DEFAULT_URL, apiKey: env.ASAAS_API_KEY ?? "" }, env.APP_NAME);
  }
  return new SandboxProvider(env);
}

/** The provider that bills `company`. */
export async function providerForCompany(env: AppEnv, company: Pick<CompanyRow, "id" | "franchiseId">): Promise<BillingProvider> {
  // Franchise companies (issue 14): THE single place where a franchise's own Asaas credentials
  // are chosen — its key from the integrations tab (stored encrypted); without one, the platform's.
  if (company.franchiseId) {
    const row = await getDb(env.DB).select({ key: franchises.asaasApiKey }).from(franchises).where(eq(franchises.id, company.franchiseId)).get();
    if (row?.key) {
      const apiKey = await decryptSecret(encryptionSecret(env), row.key).catch(() => null);
      if (apiKey) return providerFor(env, { apiUrl: env.ASAAS_API_URL || ASAAS_DEFAULT_URL, apiKey });
    }
  }
  return providerFor(env);
}
