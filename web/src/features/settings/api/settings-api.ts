/**
 * Calls of the settings tabs "my account", "company" and "integration" (spec §7: PUT /me multipart
 * {name, image, phone}; PUT /companies/active multipart; POST /companies/active/api-key).
 */
import { api } from "@/lib/session";
import { apiKeyAnswer, companyAnswer, meAnswer } from "@/lib/answers";
import type { CompanyAnswer, MeAnswer } from "../../../../../schema/api-types";

/**
 * PUT /api/me with the body of `buildProfileForm` → the updated user. 400 `validation_failed`
 * with `fields` (`name`: name_or_image_required / invalid_name…, `phone`: invalid_phone, `image`:
 * invalid_image / image_too_large).
 */
export function updateProfile(form: FormData): Promise<MeAnswer> {
  return api.call("PUT", "/me", meAnswer, { form });
}

/**
 * PUT /api/companies/active with the body of `buildCompanyForm` → the updated company.
 * Permission settings_company; 400 names the failing field (nothing is written then).
 */
export function updateCompany(form: FormData): Promise<CompanyAnswer> {
  return api.call("PUT", "/companies/active", companyAnswer, { form });
}

/** A freshly generated API key: the full key (shown once) and its masked hint. */
export type GeneratedApiKey = { apiKey: string; apiKeyHint: string };

/**
 * POST /api/companies/active/api-key → a new key; the previous key stops working at once.
 * Permission settings_company.
 */
export function generateApiKey(): Promise<GeneratedApiKey> {
  return api.call("POST", "/companies/active/api-key", apiKeyAnswer);
}
