/**
 * Companies of the user and the active company (spec §7: GET /api/companies, GET
 * /api/companies/active, PUT /api/me/change-active, POST /api/companies/active-code).
 */
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/session";
import { isApiError } from "@/lib/api";
import { companyAnswer, companyList, meAnswer } from "@/lib/answers-core";
import type { CompanyAnswer, MeAnswer } from "../../../../../schema/api-types";

/** Query keys of the companies feature. */
export const companyKeys = {
  all: ["companies"] as const,
  list: () => [...companyKeys.all, "list"] as const,
  active: () => [...companyKeys.all, "active"] as const,
};

/**
 * GET /api/companies/active → CompanyAnswer, or null when the user is in no company (the worker
 * answers 403 `no_company`).
 */
export async function fetchActiveCompany(signal?: AbortSignal): Promise<CompanyAnswer | null> {
  try {
    return await api.call("GET", "/companies/active", companyAnswer, { signal });
  } catch (error) {
    if (isApiError(error) && error.code === "no_company") return null;
    throw error;
  }
}

/** The active company (null: not in any company). */
export const activeCompanyQuery = () =>
  queryOptions({
    queryKey: companyKeys.active(),
    queryFn: ({ signal }) => fetchActiveCompany(signal),
  });

/** GET /api/companies → the companies the user belongs to. */
export const companiesQuery = () =>
  queryOptions({
    queryKey: companyKeys.list(),
    queryFn: ({ signal }) => api.call("GET", "/companies", companyList, { signal }),
  });

/** PUT /api/me/change-active {companyId} → MeAnswer. */
export function changeActiveCompany(companyId: string): Promise<MeAnswer> {
  return api.call("PUT", "/me/change-active", meAnswer, { body: { companyId } });
}

/** POST /api/companies/active-code {code} → CompanyAnswer (the activated company). */
export function activateCompany(code: string): Promise<CompanyAnswer> {
  return api.call("POST", "/companies/active-code", companyAnswer, { body: { code } });
}
