import { beforeAll, describe, expect, it } from "vitest";
import { i18n } from "@lingui/core";
import { ApiError } from "./api";
import { errorMessage, fieldErrorMessage, isNotFound, KNOWN_FIELD_CODES } from "./error-messages";
import { keywordInput } from "../../../schema/validation/flows";
import { SUCCESS_MESSAGES } from "./notify";
import { activateLocale } from "./i18n";

const text = (error: unknown, context?: Parameters<typeof errorMessage>[1]) => i18n._(errorMessage(error, context));
const err = (status: number, code: string, fields: Record<string, string> = {}, retryAfter: number | null = null) =>
  new ApiError(status, code, "server text", fields, retryAfter);

describe("server error codes → spec §8 messages", () => {
  beforeAll(async () => {
    await activateLocale("en-US");
  });

  it("maps each code to the spec's wording", () => {
    expect(text(err(401, "invalid_credentials"), "login")).toBe("Unable to log in. Check your credentials and try again.");
    expect(text(err(409, "email_in_use"))).toBe("The email is already in use.");
    expect(text(err(409, "name_in_use"))).toBe("This name is already in use.");
    expect(text(err(402, "payment_required"))).toBe("Payment not made. Access temporarily suspended.");
    expect(text(err(403, "no_company"))).toBe("You are not part of any company!");
    expect(text(err(403, "forbidden"))).toBe("You do not have permission to access this page!");
    expect(text(err(400, "validation_failed", { email: "invalid_email" }))).toBe("An error occurred. Check the data and try again.");
    expect(text(err(500, "internal"))).toBe("An error occurred. Try again.");
    expect(text(new Error("boom"))).toBe("An error occurred. Try again.");
  });

  it("uses the screen's wording for register and reset failures", () => {
    expect(text(err(500, "internal"), "register")).toBe("Unable to complete registration. Check the information and try again.");
    expect(text(err(409, "email_in_use"), "register")).toBe("The email is already in use.");
    expect(text(err(400, "invalid_token", { token: "invalid_token" }), "reset")).toBe("Unable to recover password. Check and try again.");
  });

  it("says how many seconds to wait when rate limited", () => {
    expect(text(err(429, "rate_limited", {}, 30), "login")).toBe("Too many attempts. Try again in 30 seconds.");
    expect(text(err(429, "rate_limited", {}, 1))).toBe("Too many attempts. Try again in 1 second.");
    expect(text(err(429, "rate_limited"))).toBe("Too many attempts. Try again later.");
  });

  it("has a message for every field code of the issue", () => {
    const codes = ["required", "invalid_email", "password_too_short", "name_too_short", "invalid_name", "invalid_phone", "too_long", "invalid_id", "invalid_timezone", "roles_required", "invalid_code", "invalid_permission", "invalid_token", "name_or_image_required", "invalid_image", "image_too_large"];
    for (const code of codes) expect(KNOWN_FIELD_CODES, code).toContain(code);
    expect(i18n._(fieldErrorMessage("password_too_short"))).toBe("The password must be at least 8 characters long.");
    expect(i18n._(fieldErrorMessage("something_new"))).toBe("Invalid value.");
  });

  it("a keyword without a flow says 'Choose a flow.', not 'Invalid identifier.' (issue 9)", () => {
    const parsed = keywordInput.safeParse({ name: "K", turnOn: true, rules: [{ type: "is", words: ["oi"] }], flowId: "" });
    expect(parsed.success).toBe(false);
    const issue = parsed.error?.issues.find((entry) => entry.path.join(".") === "flowId");
    expect(issue?.message).toBe("flow_required");
    expect(i18n._(fieldErrorMessage(issue?.message))).toBe("Choose a flow.");
  });

  it("is the one table: shared-flow refusals and the sandbox pairing wording come from it (issue 9)", () => {
    expect(i18n._(fieldErrorMessage("share_inactive"))).toBe("This flow is no longer shared.");
    expect(i18n._(fieldErrorMessage("company_not_allowed"))).toBe("Your company is not among the companies allowed to clone this flow.");
    expect(text(err(400, "validation_failed", { code: "invalid_code" }), "pairing")).toBe("The code is not valid or has expired. Check the code on the Connections screen and try again.");
    expect(text(err(429, "rate_limited", {}, 2), "pairing")).toBe("Too many attempts. Try again in 2 seconds.");
  });

  it("tells a missing resource (404, or a path id that is no id) from a failed load (issue 9)", () => {
    expect(isNotFound(err(404, "not_found"))).toBe(true);
    expect(isNotFound(err(400, "validation_failed", { id: "invalid_id" }))).toBe(true);
    expect(isNotFound(err(400, "validation_failed", { name: "required" }))).toBe(false);
    expect(isNotFound(err(500, "internal"))).toBe(false);
    expect(isNotFound(new TypeError("Failed to fetch"))).toBe(false);
  });

  it("offers the spec's success messages", () => {
    expect(Object.keys(SUCCESS_MESSAGES).sort()).toEqual(
      ["accountActivated", "builderSaved", "builderStarted", "contactsImported", "copied", "created", "deleted", "edited", "exportStarted", "invited", "inviteAccepted", "inviteRejected", "passwordRecoverySent"].sort(),
    );
    expect(i18n._(SUCCESS_MESSAGES.accountActivated)).toBe("Account activated");
  });

  it("speaks the user's language (compiled pt-BR and es-ES catalogs)", async () => {
    await activateLocale("pt-BR");
    expect(text(err(403, "no_company"))).toBe("Você não faz parte de nenhuma empresa!");
    expect(text(err(429, "rate_limited", {}, 5))).toBe("Muitas tentativas. Tente novamente em 5 segundos.");
    await activateLocale("es-ES");
    expect(text(err(401, "invalid_credentials"), "login")).toBe("No se pudo iniciar sesión. Revisa tus credenciales e inténtalo de nuevo.");
    await activateLocale("en-US");
  });
});
