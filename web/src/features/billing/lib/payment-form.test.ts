import { beforeAll, describe, expect, it } from "vitest";
import { i18n } from "@lingui/core";
import { ApiError } from "@/lib/api";
import { fieldErrorMessage } from "@/lib/error-messages";
import { applyServerErrors } from "@/lib/form-errors";
import { activateLocale } from "@/lib/i18n";
import { PAYMENT_FIELD_PATHS, cardFieldErrors, emptyPaymentForm, holderFieldErrors, paymentFormSchema, type CardValues, type PaymentFormValues } from "./payment-form";

const NOW = Date.UTC(2026, 10, 24);
const VISA: CardValues = { holderName: "Ana Souza", number: "4111 1111 1111 1111", expiryMonth: "12", expiryYear: "2030", ccv: "123" };
const HOLDER = {
  name: "Ana Souza",
  email: "ana@example.com",
  cpfCnpj: "529.982.247-25",
  postalCode: "01310-100",
  address: "Avenida Paulista",
  addressNumber: "1000",
  addressComplement: "",
  province: "Bela Vista",
  city: "São Paulo",
  state: "SP",
  phone: "(11) 91234-5678",
};
const shown = (code: string | undefined) => i18n._(fieldErrorMessage(code));

describe("the card form's live checks and what they show", () => {
  beforeAll(async () => {
    await activateLocale("en-US");
  });

  it("a valid card shows nothing", () => {
    expect(cardFieldErrors(VISA, NOW)).toEqual({});
  });

  it("names each wrong card field with its own sentence", () => {
    const errors = cardFieldErrors({ holderName: " ", number: "4111 1111 1111 1112", expiryMonth: "13", expiryYear: "20301", ccv: "12" }, NOW);
    expect(errors).toEqual({ holderName: "required", number: "invalid_card_number", expiryMonth: "invalid_expiry_month", expiryYear: "invalid_expiry_year", ccv: "invalid_ccv" });
    expect(shown(errors.number)).toBe("Enter a valid card number.");
    expect(shown(errors.expiryMonth)).toBe("Enter the expiry month (1 to 12).");
    expect(shown(errors.expiryYear)).toBe("Enter the expiry year.");
    expect(shown(errors.ccv)).toBe("Enter the security code (3 digits, 4 for American Express).");
  });

  it("an expired card is refused on its year; American Express wants a 4-digit code", () => {
    const expired = cardFieldErrors({ ...VISA, expiryMonth: "10", expiryYear: "2026" }, NOW);
    expect(expired).toEqual({ expiryYear: "card_expired" });
    expect(shown(expired.expiryYear)).toBe("This card has expired.");
    expect(cardFieldErrors({ ...VISA, expiryMonth: "11", expiryYear: "26" }, NOW)).toEqual({});
    expect(cardFieldErrors({ ...VISA, number: "3782 822463 10005", ccv: "123" }, NOW)).toEqual({ ccv: "invalid_ccv" });
    expect(cardFieldErrors({ ...VISA, number: "3782 822463 10005", ccv: "1234" }, NOW)).toEqual({});
  });

  it("checks the payer's CPF/CNPJ, CEP and UF with the server's own rules", () => {
    expect(holderFieldErrors(HOLDER)).toEqual({});
    const errors = holderFieldErrors({ ...HOLDER, cpfCnpj: "529.982.247-24", postalCode: "0131-100", state: "XX", province: "" });
    expect(errors).toEqual({ cpfCnpj: "invalid_cpf_cnpj", postalCode: "invalid_postal_code", state: "invalid_state", province: "required" });
    expect(shown(errors.cpfCnpj)).toBe("Enter a valid CPF or CNPJ.");
    expect(shown(errors.postalCode)).toBe("Enter a valid CEP (8 digits).");
    expect(shown(errors.state)).toBe("Choose a state.");
  });

  it("puts the card's codes under creditCard.* only when paying by card", () => {
    const schema = paymentFormSchema({ needsHolder: (v) => v.billingType === "CREDIT_CARD", now: () => NOW });
    const pix: PaymentFormValues = emptyPaymentForm({}, "PIX");
    expect(schema.safeParse(pix).success).toBe(true);
    const card: PaymentFormValues = { ...emptyPaymentForm(HOLDER, "CREDIT_CARD"), creditCard: { ...VISA, number: "1234" } };
    const parsed = schema.safeParse(card);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([["creditCard.number", "invalid_card_number"]]);
    const coupon = schema.safeParse({ ...pix, coupon: "NOT A CODE!" });
    expect(coupon.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([["coupon", "invalid_coupon"]]);
  });

  it("a 400's field errors land under their own fields (card, address, coupon), not as a general message", () => {
    const placed: [string, string | undefined][] = [];
    const error = new ApiError(400, "validation_failed", "bad", { "creditCard.number": "invalid_card_number", "holder.postalCode": "invalid_postal_code", coupon: "invalid_coupon" }, null);
    const any = applyServerErrors<PaymentFormValues>((name, e) => void placed.push([name, e.message]), error, PAYMENT_FIELD_PATHS);
    expect(any).toBe(true);
    expect(placed).toEqual([
      ["coupon", "invalid_coupon"],
      ["creditCard.number", "invalid_card_number"],
      ["holder.postalCode", "invalid_postal_code"],
    ]);
    expect(shown("invalid_coupon")).toBe("This coupon is invalid or has expired.");
  });
});
