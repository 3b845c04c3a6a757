/**
 * Calls of the settings tabs "my account", "company" and "integration" (spec §7: PUT /me multipart
 * {name, image, phone}; PUT /companies/active multipart; the company's API keys under
 * /companies/active/api-keys).
 */
import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import { api } from "@/lib/session";
import { apiKeyAnswer, apiKeyCreatedAnswer, companyAnswer, meAnswer } from "@/lib/answers";
import type { CompanyAnswer, MeAnswer } from "../../../../../schema/api-types";
import type { ApiKeyAnswer, ApiKeyCreateInput, ApiKeyCreatedAnswer } from "../../../../../schema/validation/api-keys";

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

/** Query keys of the company's API keys. */
export const apiKeyKeys = {
  all: ["api-keys"] as const,
  list: () => [...apiKeyKeys.all, "list"] as const,
};

/** GET /api/companies/active/api-keys → the company's keys, newest first (never the key itself). */
export const apiKeysQuery = () =>
  queryOptions({
    queryKey: apiKeyKeys.list(),
    queryFn: ({ signal }) => api.call("GET", "/companies/active/api-keys", z.array(apiKeyAnswer), { signal }),
  });

/**
 * POST /api/companies/active/api-keys {name, scopes} → the new key, shown this once. 400 names
 * `name` or `scopes`. Permission settings_company.
 */
export function createApiKey(input: ApiKeyCreateInput): Promise<ApiKeyCreatedAnswer> {
  return api.call("POST", "/companies/active/api-keys", apiKeyCreatedAnswer, { body: input });
}

/** DELETE /api/companies/active/api-keys/{id} → the revoked key; it answers 401 from then on. */
export function revokeApiKey(id: string): Promise<ApiKeyAnswer> {
  return api.call("DELETE", `/companies/active/api-keys/${encodeURIComponent(id)}`, apiKeyAnswer);
}
