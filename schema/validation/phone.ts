/**
 * Phone validation, apart from common.ts so that pages without a phone field (the login form, the
 * app shell) do not load libphonenumber-js's metadata (issue 9 "Load only what a screen needs").
 */
import { z } from "zod";
import { parsePhoneNumberFromString } from "libphonenumber-js/min";

/**
 * A phone number in international form (or Brazilian national form), normalised to E.164 with
 * libphonenumber-js. Brazil is the default country when no `+` prefix is given.
 */
export const phoneSchema = z
  .string({ error: "required" })
  .trim()
  .max(32, { error: "too_long" })
  .transform((value, ctx) => {
    const parsed = parsePhoneNumberFromString(value, "BR");
    if (!parsed || !parsed.isValid()) {
      ctx.addIssue({ code: "custom", message: "invalid_phone" });
      return z.NEVER;
    }
    return parsed.number;
  });
