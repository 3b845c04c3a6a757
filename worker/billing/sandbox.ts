/**
 * The sandbox payment provider (issue 13): the local default when no ASAAS_API_KEY is set. It
 * behaves like Asaas's sandbox without any outside call: the charge lives only in our D1 invoice
 * (worker/billing/service.ts stores it), cards approve or refuse by number, and a PIX charge waits
 * until someone presses "simulate payment" (POST /api/billing/sandbox/invoices/{publicId}/simulate-payment).
 *
 * Test cards (any holder, any future expiry, any CVV of the right length):
 * - refused: 4000 0000 0000 0002 (Visa) and 5105 1051 0510 5100 (Mastercard);
 * - every other number that passes the card checks (Luhn, length by brand) is approved, e.g.
 *   4111 1111 1111 1111 (Visa), 5555 5555 5555 4444 (Mastercard).
 */
import type { Holder } from "../../schema/validation/billing";
import { cardBrand } from "../../schema/validation/billing";
import type { AppEnv } from "../env";
import { AppError } from "../lib/errors";
import { newId } from "../lib/ids";
import { pixPayload, qrPngBase64 } from "./pix";
import type { BillingProvider, CardData, ChargeInput, ProviderPayment, ProviderPix } from "./provider";

/** Card numbers the sandbox refuses. */
export const SANDBOX_REFUSED_CARDS = ["4000000000000002", "5105105105105100"] as const;
/** A card number the sandbox approves (documentation and tests). */
export const SANDBOX_APPROVED_CARD = "4111111111111111";

/** How long a sandbox PIX QR code is valid (ms). */
const PIX_TTL_MS = 24 * 3600 * 1000;

function refuseOrBrand(card: CardData): { brand: string; last4: string } {
  if ((SANDBOX_REFUSED_CARDS as readonly string[]).includes(card.number)) {
    throw new AppError("validation_failed", "The card was refused.", { "creditCard.number": "card_refused" });
  }
  return { brand: cardBrand(card.number).toUpperCase(), last4: card.number.slice(-4) };
}

export class SandboxProvider implements BillingProvider {
  readonly name = "sandbox" as const;
  constructor(private readonly env: Pick<AppEnv, "APP_NAME">) {}

  async createCustomer(_holder: Holder, _externalReference: string): Promise<string> {
    return `sandbox_cus_${newId()}`;
  }

  async createCharge(input: ChargeInput): Promise<{ subscriptionId: string | null; payment: ProviderPayment }> {
    const card = input.card ? refuseOrBrand(input.card.card) : null;
    const subscriptionId = input.cycle === "lifetime" ? null : `sandbox_sub_${newId()}`;
    return {
      subscriptionId,
      payment: {
        id: `sandbox_pay_${newId()}`,
        status: card ? "CONFIRMED" : "PENDING",
        valueCents: input.valueCents,
        dueDate: input.dueDate,
        paymentDate: card ? Date.now() : null,
        billingType: input.billingType,
        invoiceUrl: null,
        subscriptionId,
        externalReference: input.externalReference,
        card,
      },
    };
  }

  async pixQrCode(paymentId: string, valueCents: number): Promise<ProviderPix> {
    const payload = pixPayload({ key: "sandbox@conversa.invalid", valueCents, merchant: this.env.APP_NAME || "Conversa", city: "SAO PAULO", txid: paymentId.replace(/^sandbox_pay_/, "") });
    return { encodedImage: qrPngBase64(payload), payload, expiresAt: Date.now() + PIX_TTL_MS };
  }

  async payWithCard(paymentId: string, card: CardData, _holder: Holder, _remoteIp: string): Promise<ProviderPayment> {
    const info = refuseOrBrand(card);
    return {
      id: paymentId,
      status: "CONFIRMED",
      valueCents: 0,
      dueDate: Date.now(),
      paymentDate: Date.now(),
      billingType: "CREDIT_CARD",
      invoiceUrl: null,
      subscriptionId: null,
      externalReference: null,
      card: info,
    };
  }

  async updateCard(_subscriptionId: string, card: CardData, _holder: Holder, _remoteIp: string): Promise<{ brand: string; last4: string }> {
    return refuseOrBrand(card);
  }

  async cancelSubscription(_subscriptionId: string): Promise<void> {}
}
