/**
 * The pure billing validators shared with the web form (schema/validation/billing.ts), the PIX
 * helpers of the sandbox (BR Code CRC, PNG), and the provider choice (a production-marked worker
 * never falls back to the sandbox).
 */
import { describe, expect, it } from "vitest";
import { cardBrand, cardNumberValid, cnpjValid, cpfCnpjValid, cpfValid, expiryValid, luhnValid, postalCodeValid } from "../../schema/validation/billing";
import { crc16, pixPayload, qrPngBase64 } from "./pix";
import { providerName } from "./provider";
import { derive, localDayNumber } from "./state";

describe("card, document and address rules (spec §5)", () => {
  it("Luhn and length by brand", () => {
    expect(luhnValid("4111111111111111")).toBe(true);
    expect(luhnValid("4111111111111112")).toBe(false);
    expect(cardBrand("4111111111111111")).toBe("visa");
    expect(cardBrand("5555555555554444")).toBe("mastercard");
    expect(cardBrand("2223000048400011")).toBe("mastercard");
    expect(cardBrand("378282246310005")).toBe("amex");
    expect(cardBrand("6362970000457013")).toBe("elo");
    expect(cardNumberValid("4111 1111 1111 1111")).toBe(true);
    expect(cardNumberValid("378282246310005")).toBe(true);
    // Luhn-valid but 16 digits for Amex (15).
    expect(cardNumberValid("3782822463100051".slice(0, 15) + "0")).toBe(false);
    expect(cardNumberValid("4111-1111-1111-111x")).toBe(false);
  });
  it("expiry: through the end of its month", () => {
    const now = Date.UTC(2026, 10, 24);
    expect(expiryValid(11, 2026, now)).toBe(true);
    expect(expiryValid(10, 2026, now)).toBe(false);
    expect(expiryValid(1, 27, now)).toBe(true);
    expect(expiryValid(13, 2030, now)).toBe(false);
  });
  it("CPF and CNPJ check digits, CEP of 8 digits", () => {
    expect(cpfValid("529.982.247-25")).toBe(true);
    expect(cpfValid("529.982.247-26")).toBe(false);
    expect(cpfValid("111.111.111-11")).toBe(false);
    expect(cnpjValid("11.222.333/0001-81")).toBe(true);
    expect(cnpjValid("11.222.333/0001-82")).toBe(false);
    expect(cpfCnpjValid("1234567890")).toBe(false);
    expect(postalCodeValid("01310-100")).toBe(true);
    expect(postalCodeValid("01310100")).toBe(true);
    expect(postalCodeValid("1310-100")).toBe(false);
  });
});

describe("sandbox PIX", () => {
  it("builds a BR Code with its CRC16 and a PNG QR code", () => {
    expect(crc16("123456789")).toBe("29B1");
    const payload = pixPayload({ key: "sandbox@conversa.invalid", valueCents: 9900, merchant: "Conversa", city: "São Paulo", txid: "abc-123" });
    expect(payload).toMatch(/^000201.*540599\.00.*6304[0-9A-F]{4}$/);
    expect(payload.slice(-4)).toBe(crc16(payload.slice(0, -4)));
    expect(qrPngBase64(payload).startsWith("iVBORw0KGgo")).toBe(true);
  });
});

describe("provider choice", () => {
  it("sandbox locally and in tests; asaas with a key; a production worker without one fails closed", () => {
    expect(providerName({ ENVIRONMENT: "test" })).toBe("sandbox");
    expect(providerName({ ENVIRONMENT: "local", ASAAS_API_KEY: "k" })).toBe("asaas");
    expect(providerName({ ENVIRONMENT: "production" })).toBe("asaas");
    expect(providerName({ ENVIRONMENT: "" })).toBe("asaas");
    expect(providerName({ ENVIRONMENT: "production", BILLING_PROVIDER: "sandbox" })).toBe("sandbox");
  });
});

describe("derive (order-free state)", () => {
  it("pending first charge keeps the trial; paid → active through the cycle; unpaid past the grace → suspended", () => {
    const company = { plan: "trial" as const, paymentStatus: "trial" as const, dueDate: Date.UTC(2030, 0, 8), timezone: "America/Sao_Paulo" };
    const due = Date.parse("2030-01-01T12:00:00-03:00");
    const sub = { status: "pending" as const, nextDueDate: due };
    expect(derive(sub, "monthly", [{ status: "pending", dueDate: due }], company, due + 3600_000, 3)).toMatchObject({ status: "pending", company: { plan: "trial", paymentStatus: "trial", dueDate: company.dueDate } });
    const paid = derive(sub, "monthly", [{ status: "paid", dueDate: due }], company, due, 3);
    expect(paid).toMatchObject({ status: "active", company: { plan: "monthly", paymentStatus: "paid", dueDate: Date.parse("2030-02-01T12:00:00-03:00") } });
    expect(derive(sub, "monthly", [{ status: "overdue", dueDate: due }], company, Date.parse("2030-01-04T23:00:00-03:00"), 3).status).toBe("overdue");
    expect(derive(sub, "monthly", [{ status: "overdue", dueDate: due }], company, Date.parse("2030-01-05T00:10:00-03:00"), 3)).toMatchObject({ status: "suspended", company: { paymentStatus: "unpaid" } });
    expect(localDayNumber(Date.parse("2030-01-01T23:30:00-03:00"), "America/Sao_Paulo")).toBe(localDayNumber(Date.parse("2030-01-01T00:30:00-03:00"), "America/Sao_Paulo"));
  });
});
