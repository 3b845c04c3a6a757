/**
 * The Asaas adapter (issue 13; shared/reference/wire-formats.md "Asaas"): REST API v3 with the
 * `access_token` header and a User-Agent (mandatory for newer accounts). Customers
 * (`POST /customers`), subscriptions for the cycles (`POST /subscriptions`, cycle MONTHLY /
 * SEMIANNUALLY / YEARLY; the first charge via `GET /subscriptions/{id}/payments`), a single payment
 * for lifetime (`POST /payments`), cards with `creditCard`, `creditCardHolderInfo` and `remoteIp`,
 * PIX QR via `GET /payments/{id}/pixQrCode`, card on an existing charge via
 * `POST /payments/{id}/payWithCreditCard`, card change via `PUT /subscriptions/{id}/creditCard`,
 * cancellation via `DELETE /subscriptions/{id}`. Every answer is validated with zod.
 *
 * Amounts: Asaas speaks reais (decimal); we speak cents. Dates: Asaas's `YYYY-MM-DD` are days in
 * Brazil (UTC−3, no DST since 2019); we keep ms UTC at that day's 00:00 in São Paulo.
 * Errors (`{errors:[{code, description}]}`): card refusals → 400 `creditCard.number: card_refused`;
 * CPF/CNPJ, postal code, e-mail, phone → 400 naming the holder field; anything else, a timeout or
 * a malformed answer → 502 `provider_unavailable`.
 */
import { z } from "zod";
import type { Holder, PlanCycle } from "../../schema/validation/billing";
import { AppError } from "../lib/errors";
import type { BillingProvider, CardData, ChargeInput, ProviderCredentials, ProviderPayment, ProviderPix } from "./provider";

/** Asaas advises a client timeout of at least 60 s on card calls (duplicate charges otherwise). */
const TIMEOUT_MS = 60_000;

const CYCLES: Record<Exclude<PlanCycle, "lifetime">, string> = { monthly: "MONTHLY", semiannual: "SEMIANNUALLY", yearly: "YEARLY" };

const dateText = z.string().regex(/^\d{4}-\d{2}-\d{2}/);

/** An Asaas payment object (PaymentGetResponseDto), the fields billing reads. */
export const asaasPaymentSchema = z.looseObject({
  id: z.string().min(1),
  status: z.string().min(1),
  value: z.number(),
  dueDate: dateText,
  paymentDate: dateText.nullish(),
  clientPaymentDate: dateText.nullish(),
  confirmedDate: dateText.nullish(),
  billingType: z.string(),
  invoiceUrl: z.string().nullish(),
  subscription: z.string().nullish(),
  externalReference: z.string().nullish(),
  creditCard: z.looseObject({ creditCardNumber: z.string().nullish(), creditCardBrand: z.string().nullish() }).nullish(),
});
export type AsaasPayment = z.infer<typeof asaasPaymentSchema>;

const idAnswer = z.looseObject({ id: z.string().min(1) });
const listAnswer = z.looseObject({ data: z.array(asaasPaymentSchema) });
const pixAnswer = z.looseObject({ encodedImage: z.string().min(1), payload: z.string().min(1), expirationDate: z.string().nullish() });
const cardAnswer = z.looseObject({ creditCard: z.looseObject({ creditCardNumber: z.string().nullish(), creditCardBrand: z.string().nullish() }).nullish() });
const errorAnswer = z.looseObject({ errors: z.array(z.looseObject({ code: z.string().optional(), description: z.string().optional() })) });

/** ms UTC → Asaas day (São Paulo). */
export function asaasDay(at: number): string {
  return new Date(at - 3 * 3600 * 1000).toISOString().slice(0, 10);
}

/** Asaas day (or "YYYY-MM-DD HH:mm:ss" São Paulo time) → ms UTC. */
export function fromAsaasDay(text: string): number {
  const [day, time] = text.trim().split(/[ T]/);
  return Date.parse(`${day}T${time && /^\d{2}:\d{2}(:\d{2})?$/.test(time) ? time : "00:00:00"}-03:00`);
}

/** Cents → reais as Asaas expects (a number with two decimals). */
const reais = (cents: number) => Math.round(cents) / 100;

/** Our payment shape from an Asaas payment object. */
export function fromAsaasPayment(p: AsaasPayment): ProviderPayment {
  const paid = p.confirmedDate ?? p.paymentDate ?? p.clientPaymentDate ?? null;
  return {
    id: p.id,
    status: p.status,
    valueCents: Math.round(p.value * 100),
    dueDate: fromAsaasDay(p.dueDate),
    paymentDate: paid ? fromAsaasDay(paid) : null,
    billingType: p.billingType,
    invoiceUrl: p.invoiceUrl ?? null,
    subscriptionId: p.subscription ?? null,
    externalReference: p.externalReference ?? null,
    card: p.creditCard?.creditCardNumber ? { brand: p.creditCard.creditCardBrand ?? "UNKNOWN", last4: p.creditCard.creditCardNumber.slice(-4) } : null,
  };
}

/** Which of our fields an Asaas error code names. */
function errorField(code: string): [string, string] | null {
  const c = code.toLowerCase();
  if (c.includes("creditcard") || c.includes("card")) return ["creditCard.number", "card_refused"];
  if (c.includes("cpfcnpj")) return ["holder.cpfCnpj", "invalid_cpf_cnpj"];
  if (c.includes("postalcode")) return ["holder.postalCode", "invalid_postal_code"];
  if (c.includes("email")) return ["holder.email", "invalid_email"];
  if (c.includes("phone")) return ["holder.phone", "invalid_phone"];
  return null;
}

function cardBody(card: CardData, holder: Holder, remoteIp: string) {
  return {
    creditCard: { holderName: card.holderName, number: card.number, expiryMonth: String(card.expiryMonth).padStart(2, "0"), expiryYear: String(card.expiryYear), ccv: card.ccv },
    creditCardHolderInfo: {
      name: holder.name,
      email: holder.email,
      cpfCnpj: holder.cpfCnpj,
      postalCode: holder.postalCode,
      addressNumber: holder.addressNumber,
      ...(holder.addressComplement ? { addressComplement: holder.addressComplement } : {}),
      phone: holder.phone,
    },
    remoteIp,
  };
}

export class AsaasProvider implements BillingProvider {
  readonly name = "asaas" as const;
  constructor(
    private readonly credentials: ProviderCredentials,
    private readonly appName = "Conversa",
  ) {}

  /** One API call; the answer parsed by `schema`. */
  private async call<T extends z.ZodType>(method: string, path: string, schema: T, body?: unknown): Promise<z.output<T>> {
    if (!this.credentials.apiKey) throw new AppError("provider_unavailable", "The payment provider is not configured.");
    let res: Response;
    try {
      res = await fetch(`${this.credentials.apiUrl.replace(/\/+$/, "")}${path}`, {
        method,
        headers: {
          access_token: this.credentials.apiKey,
          "Content-Type": "application/json",
          "User-Agent": this.appName || "Conversa",
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch {
      throw new AppError("provider_unavailable", "The payment provider did not answer.");
    }
    const json: unknown = await res.json().catch(() => null);
    if (!res.ok) {
      const parsed = errorAnswer.safeParse(json);
      if (res.status === 400 && parsed.success) {
        for (const e of parsed.data.errors) {
          const named = errorField(e.code ?? "");
          if (named) throw new AppError("validation_failed", e.description || "The payment was refused.", { [named[0]]: named[1] });
        }
      }
      throw new AppError("provider_unavailable", `The payment provider refused the request (${res.status}).`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new AppError("provider_unavailable", "The payment provider answered in an unexpected shape.");
    return parsed.data;
  }

  async createCustomer(holder: Holder, externalReference: string): Promise<string> {
    const answer = await this.call("POST", "/customers", idAnswer, {
      name: holder.name,
      cpfCnpj: holder.cpfCnpj,
      email: holder.email,
      mobilePhone: holder.phone,
      address: holder.address,
      addressNumber: holder.addressNumber,
      ...(holder.addressComplement ? { complement: holder.addressComplement } : {}),
      province: holder.province,
      postalCode: holder.postalCode,
      externalReference,
      notificationDisabled: true,
    });
    return answer.id;
  }

  async createCharge(input: ChargeInput): Promise<{ subscriptionId: string | null; payment: ProviderPayment }> {
    const common = {
      customer: input.customerId,
      billingType: input.billingType,
      value: reais(input.valueCents),
      description: input.description,
      externalReference: input.externalReference,
      ...(input.card ? cardBody(input.card.card, input.card.holder, input.card.remoteIp) : {}),
    };
    if (input.cycle === "lifetime") {
      const payment = await this.call("POST", "/payments", asaasPaymentSchema, { ...common, dueDate: asaasDay(input.dueDate) });
      return { subscriptionId: null, payment: fromAsaasPayment(payment) };
    }
    const subscription = await this.call("POST", "/subscriptions", idAnswer, { ...common, nextDueDate: asaasDay(input.dueDate), cycle: CYCLES[input.cycle] });
    const payments = await this.call("GET", `/subscriptions/${encodeURIComponent(subscription.id)}/payments`, listAnswer);
    const first = [...payments.data].sort((a, b) => a.dueDate.localeCompare(b.dueDate))[0];
    if (!first) throw new AppError("provider_unavailable", "The payment provider created no charge.");
    return { subscriptionId: subscription.id, payment: fromAsaasPayment(first) };
  }

  async pixQrCode(paymentId: string, _valueCents: number): Promise<ProviderPix> {
    const answer = await this.call("GET", `/payments/${encodeURIComponent(paymentId)}/pixQrCode`, pixAnswer);
    return { encodedImage: answer.encodedImage, payload: answer.payload, expiresAt: answer.expirationDate ? fromAsaasDay(answer.expirationDate) : null };
  }

  async payWithCard(paymentId: string, card: CardData, holder: Holder, remoteIp: string): Promise<ProviderPayment> {
    const payment = await this.call("POST", `/payments/${encodeURIComponent(paymentId)}/payWithCreditCard`, asaasPaymentSchema, cardBody(card, holder, remoteIp));
    return fromAsaasPayment(payment);
  }

  async updateCard(subscriptionId: string, card: CardData, holder: Holder, remoteIp: string): Promise<{ brand: string; last4: string }> {
    const answer = await this.call("PUT", `/subscriptions/${encodeURIComponent(subscriptionId)}/creditCard`, cardAnswer, cardBody(card, holder, remoteIp));
    return { brand: answer.creditCard?.creditCardBrand ?? "UNKNOWN", last4: answer.creditCard?.creditCardNumber?.slice(-4) ?? card.number.slice(-4) };
  }

  async cancelSubscription(subscriptionId: string): Promise<void> {
    await this.call("DELETE", `/subscriptions/${encodeURIComponent(subscriptionId)}`, z.unknown());
  }

  /**
   * Cancels one open payment: Asaas `DELETE /v3/payments/{id}` → `{deleted: true, id}` (its
   * PAYMENT_DELETED webhook follows). Throws like every call here when Asaas refuses (a paid charge).
   */
  async cancelPayment(paymentId: string): Promise<void> {
    await this.call("DELETE", `/payments/${encodeURIComponent(paymentId)}`, z.looseObject({ deleted: z.literal(true) }));
  }
}
