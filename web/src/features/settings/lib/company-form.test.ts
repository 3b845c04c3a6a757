import { describe, expect, it } from "vitest";
import type { CompanyAnswer } from "../../../../../schema/api-types";
import { buildCompanyForm, companyDefaults, companyFormSchema, type CompanyValues } from "./company-form";

const values: CompanyValues = {
  name: "  Acme  ",
  timezone: "America/Sao_Paulo",
  language: "pt-BR",
  showAttendantName: false,
  whatsappNumber: "",
};

const entries = (form: FormData) => Object.fromEntries([...form.entries()].map(([key, value]) => [key, typeof value === "string" ? value : `file:${value.name}`]));

describe("PUT /api/companies/active body (spec §5)", () => {
  it("always sends timezone and showAttendantName, even when false", () => {
    const form = buildCompanyForm(values, { kind: "keep" });
    expect(form.get("timezone")).toBe("America/Sao_Paulo");
    expect(form.get("showAttendantName")).toBe("false");
    expect(buildCompanyForm({ ...values, showAttendantName: true }, { kind: "keep" }).get("showAttendantName")).toBe("true");
  });

  it("sends the name trimmed only when present, and no image when it is kept", () => {
    expect(entries(buildCompanyForm(values, { kind: "keep" }))).toEqual({
      timezone: "America/Sao_Paulo",
      showAttendantName: "false",
      name: "Acme",
      language: "pt-BR",
    });
    expect(buildCompanyForm({ ...values, name: "   " }, { kind: "keep" }).has("name")).toBe(false);
  });

  it("sends the new file when replaced and the text null when removed", () => {
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], "logo.png", { type: "image/png" });
    const replaced = buildCompanyForm(values, { kind: "set", file }).get("image");
    expect(replaced).toBeInstanceOf(File);
    expect(buildCompanyForm(values, { kind: "remove" }).get("image")).toBe("null");
  });

  it("sends the stop words when the form holds them, blank meaning the defaults (issue 10)", () => {
    expect(buildCompanyForm({ ...values, optOutWords: " Cancelar, Não quero " }, { kind: "keep" }).get("optOutWords")).toBe("Cancelar, Não quero");
    expect(buildCompanyForm({ ...values, optOutWords: "" }, { kind: "keep" }).get("optOutWords")).toBe("");
    expect(buildCompanyForm(values, { kind: "keep" }).has("optOutWords")).toBe(false);
  });

  it("sends the WhatsApp number only when filled", () => {
    expect(buildCompanyForm({ ...values, whatsappNumber: " +55 11 91234-5678 " }, { kind: "keep" }).get("whatsappNumber")).toBe("+55 11 91234-5678");
    expect(buildCompanyForm(values, { kind: "keep" }).has("whatsappNumber")).toBe(false);
  });
});

describe("company form validation", () => {
  it("accepts a blank WhatsApp number and names the failing field codes", () => {
    expect(companyFormSchema.safeParse(values).success).toBe(true);
    const bad = companyFormSchema.safeParse({ ...values, name: "A", timezone: "Mars/Olympus", whatsappNumber: "12" });
    expect(bad.success).toBe(false);
    const codes = Object.fromEntries((bad.error?.issues ?? []).map((issue) => [issue.path.join("."), issue.message]));
    expect(codes).toEqual({ name: "name_too_short", timezone: "invalid_timezone", whatsappNumber: "invalid_phone" });
  });

  it("starts from the company's values; an unknown language falls back to pt-BR", () => {
    const company: CompanyAnswer = {
      id: "c1",
      name: "Acme",
      image: null,
      timezone: "Europe/Lisbon",
      language: "xx-YY",
      showAttendantName: true,
      apiKeyHint: null,
      whatsappNumber: null,
      owner: "u1",
      plan: "monthly",
      paymentStatus: "paid",
      dueDate: 0,
      disconnected: [],
      activated: true,
      subscriptionValid: true,
    };
    expect(companyDefaults(company)).toEqual({ name: "Acme", timezone: "Europe/Lisbon", language: "pt-BR", showAttendantName: true, whatsappNumber: "", optOutWords: "" });
    expect(companyDefaults({ ...company, optOutWords: ["Cancelar", "Não quero"] }).optOutWords).toBe("Cancelar, Não quero");
  });
});
