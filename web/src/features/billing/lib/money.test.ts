import { describe, expect, it } from "vitest";
import { centsToInput, formatMoney, inputToCents } from "./money";
import { maskCardNumber, maskCpfCnpj, maskPhone, maskPostalCode } from "./masks";

describe("money on billing screens", () => {
  it("formats cents in the viewer's language", () => {
    expect(formatMoney(123456, "pt-BR").replace(/\u00a0/g, " ")).toBe("R$ 1.234,56");
    expect(formatMoney(123456, "en-US")).toBe("R$1,234.56");
  });

  it("reads a typed amount as cents, in the viewer's language", () => {
    expect(inputToCents("1.234,56", "pt-BR")).toBe(123456);
    expect(inputToCents("R$ 49,9", "pt-BR")).toBe(4990);
    expect(inputToCents("1,234.56", "en-US")).toBe(123456);
    expect(inputToCents("10", "en-US")).toBe(1000);
    expect(inputToCents("", "pt-BR")).toBeNull();
    expect(inputToCents("-5", "pt-BR")).toBeNull();
    expect(inputToCents("1,234", "pt-BR")).toBeNull();
    expect(inputToCents("abc", "pt-BR")).toBeNull();
    expect(centsToInput(4990, "pt-BR")).toBe("49,90");
    expect(centsToInput(4990, "en-US")).toBe("49.90");
  });
});

describe("billing input masks", () => {
  it("formats CPF, CNPJ, CEP, card numbers and phones as typed", () => {
    expect(maskCpfCnpj("52998224725")).toBe("529.982.247-25");
    expect(maskCpfCnpj("11222333000181")).toBe("11.222.333/0001-81");
    expect(maskCpfCnpj("5299")).toBe("529.9");
    expect(maskPostalCode("01310100")).toBe("01310-100");
    expect(maskCardNumber("4111111111111111")).toBe("4111 1111 1111 1111");
    expect(maskPhone("11912345678")).toBe("(11) 91234-5678");
  });
});
