import { describe, expect, it } from "vitest";
import type { FranchiseSettingsAnswer } from "../../../../../schema/validation/franchise";
import { buildEmailForm, buildSettingsForm, emailDefaults, emailFormSchema, settingsDefaults, settingsFormSchema } from "./franchise-form";

const SETTINGS: FranchiseSettingsAnswer = {
  id: "f1",
  name: "Acme Franquias",
  logo: null,
  favicon: "/api/files/images/fav.png",
  primaryColor: "#aa3300",
  notInCompany: "Fale com a Acme.",
  notPaid: "Pague a fatura.",
  sendEmailToUnpaidCompany: true,
  mailUser: "no-reply@acme.test",
  mailHost: "smtp.acme.test",
  mailPort: 587,
  mailPasswordSet: true,
  asaasApiKeySet: false,
  hostnames: [],
  updatedAt: 1,
};

const entries = (form: FormData) => Object.fromEntries([...form.entries()].map(([key, value]) => [key, typeof value === "string" ? value : `file:${value.name}`]));

describe("the franchise settings form (PUT /api/franchise multipart)", () => {
  it("sends the texts, the colour lower-case and the switch as text; keeps images unless changed", () => {
    const form = buildSettingsForm({ ...settingsDefaults(SETTINGS), primaryColor: " #AA3300 " }, { kind: "keep" }, { kind: "keep" });
    expect(entries(form)).toEqual({
      name: "Acme Franquias",
      primaryColor: "#aa3300",
      notInCompany: "Fale com a Acme.",
      notPaid: "Pague a fatura.",
      sendEmailToUnpaidCompany: "true",
    });
  });

  it("sends a new logo as the file and a removed favicon as \"null\"", () => {
    const logo = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], "logo.png", { type: "image/png" });
    const form = buildSettingsForm(settingsDefaults(SETTINGS), { kind: "set", file: logo }, { kind: "remove" });
    expect(entries(form)).toMatchObject({ logo: "file:logo.png", favicon: "null" });
  });

  it("accepts a blank colour (the product's) and refuses one that is not #rgb / #rrggbb", () => {
    expect(settingsFormSchema.safeParse({ ...settingsDefaults(SETTINGS), primaryColor: "" }).success).toBe(true);
    const bad = settingsFormSchema.safeParse({ ...settingsDefaults(SETTINGS), primaryColor: "orange" });
    expect(bad.error?.issues[0]?.message).toBe("invalid_color");
  });
});

describe("the franchise e-mail form (write-only password)", () => {
  it("starts with a blank password whatever is stored", () => {
    expect(emailDefaults(SETTINGS)).toEqual({ mailUser: "no-reply@acme.test", mailHost: "smtp.acme.test", mailPort: "587", mailPassword: "" });
  });

  it("leaves the stored password alone when the field is blank, replaces it when typed, removes it on request", () => {
    expect(entries(buildEmailForm(emailDefaults(SETTINGS)))).toEqual({ mailUser: "no-reply@acme.test", mailHost: "smtp.acme.test", mailPort: "587" });
    expect(entries(buildEmailForm({ ...emailDefaults(SETTINGS), mailPassword: "s3cret" })).mailPassword).toBe("s3cret");
    expect(entries(buildEmailForm({ ...emailDefaults(SETTINGS), mailPassword: "typed" }, true)).mailPassword).toBe("null");
  });

  it("refuses a port outside 1–65535 and a host with spaces, naming the field's code", () => {
    const port = emailFormSchema.safeParse({ ...emailDefaults(SETTINGS), mailPort: "70000" });
    expect(port.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([["mailPort", "invalid_port"]]);
    const host = emailFormSchema.safeParse({ ...emailDefaults(SETTINGS), mailHost: "smtp acme" });
    expect(host.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([["mailHost", "invalid_hostname"]]);
    expect(emailFormSchema.safeParse({ mailUser: "", mailHost: "", mailPort: "", mailPassword: "" }).success).toBe(true);
  });
});
