import { describe, expect, it } from "vitest";
import { EMPTY_CONNECTION_FORM, toCreateInput, toUpdateInput, validateConnectionForm } from "./connection-form";

describe("connection form", () => {
  it("sends only the sandbox fields for a sandbox connection", () => {
    const input = toCreateInput({ ...EMPTY_CONNECTION_FORM, name: "Demo", phoneNumberId: "123456" });
    expect(input).toEqual({ channel: "sandbox", name: "Demo", phone: undefined, greetingMessage: "", farewellMessage: "" });
  });

  it("never sends a typed phone for a Cloud API connection: its number comes from Meta", () => {
    const values = { ...EMPTY_CONNECTION_FORM, name: "Cloud", channel: "whatsapp-cloud" as const, phone: "+55 11 98765-0000", phoneNumberId: "123456", accessToken: "EAAG-token-value-0000001" };
    expect(toCreateInput(values)).not.toHaveProperty("phone");
    expect(toUpdateInput(values)).not.toHaveProperty("phone");
    expect(toUpdateInput({ ...values, channel: "sandbox" })).toHaveProperty("phone", "+55 11 98765-0000");
  });

  it("validates with the worker's schema: field codes", () => {
    expect(validateConnectionForm({ ...EMPTY_CONNECTION_FORM, name: "" }, "create").name).toBeTruthy();
    const cloud = validateConnectionForm({ ...EMPTY_CONNECTION_FORM, name: "Cloud", channel: "whatsapp-cloud", phoneNumberId: "abc", accessToken: "short" }, "create");
    expect(cloud.phoneNumberId).toBe("invalid_phone_number_id");
    expect(cloud.accessToken).toBe("invalid_access_token");
    expect(validateConnectionForm({ ...EMPTY_CONNECTION_FORM, name: "Demo" }, "create")).toEqual({});
  });

  it("sends a WhatsApp (QR code) connection's phone and its own Evolution server only when both URL and key are given", () => {
    const values = { ...EMPTY_CONNECTION_FORM, name: "Balcão", channel: "whatsapp-qr" as const, phone: "+55 11 98765-0000" };
    expect(toCreateInput(values)).toEqual({ channel: "whatsapp-qr", name: "Balcão", phone: "+55 11 98765-0000", greetingMessage: "", farewellMessage: "", evolutionUrl: undefined, evolutionApiKey: undefined });
    expect(validateConnectionForm(values, "create")).toEqual({});
    expect(validateConnectionForm({ ...values, evolutionUrl: "https://evo.example.com" }, "create").evolutionApiKey).toBe("required");
    expect(validateConnectionForm({ ...values, evolutionUrl: "https://evo.example.com", evolutionApiKey: "a-long-api-key" }, "create")).toEqual({});
  });

  it("keeps the stored access token when left blank on edit", () => {
    const input = toUpdateInput({ ...EMPTY_CONNECTION_FORM, name: "Cloud", channel: "whatsapp-cloud", phoneNumberId: "123456" });
    expect(input).not.toHaveProperty("accessToken");
    expect(validateConnectionForm({ ...EMPTY_CONNECTION_FORM, name: "Cloud", channel: "whatsapp-cloud" }, "edit")).toEqual({});
  });
});
