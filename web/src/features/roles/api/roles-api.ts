/**
 * Company roles (spec §3 Role, §6; worker/routes/roles.ts): list (settings_company or
 * settings_members), create, edit, delete (settings_company). The Owner role is read-only (409);
 * names are unique in the company (409 `name_in_use`, field `name`).
 */
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import { api } from "@/lib/session";
import { roleAnswer } from "@/lib/answers";
import type { RoleAnswer } from "../../../../../schema/api-types";
import type { RoleInput } from "../../../../../schema/validation/company";
import { COMPANY_PERMISSIONS } from "../../../../../schema/permissions";

/** Query keys of the roles feature. */
export const roleKeys = {
  all: ["roles"] as const,
  list: () => [...roleKeys.all, "list"] as const,
  page: (search: string) => [...roleKeys.all, "page", search] as const,
  grantable: () => [...roleKeys.all, "grantable"] as const,
};

/** Roles per page of the paged list. */
export const ROLES_PAGE_SIZE = 30;

/**
 * GET /api/companies/roles?cursor&search&limit → {results, cursor, total} (spec §3 cursor page;
 * issue 14), Owner first then by name, page by page.
 */
export const rolesPageQuery = (search: string) =>
  infiniteQueryOptions({
    queryKey: roleKeys.page(search),
    queryFn: ({ pageParam, signal }) =>
      api.call("GET", "/companies/roles", z.object({ results: z.array(roleAnswer), cursor: z.string().nullable(), total: z.number() }), {
        query: { search: search || undefined, cursor: pageParam ?? undefined, limit: ROLES_PAGE_SIZE },
        signal,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (answer) => answer.cursor,
  });

/**
 * GET /api/companies/roles/permissions → the permissions this company's roles may hold: all of
 * spec §6 but those of features its franchise role (or plan) lacks (issue 14).
 */
export const grantablePermissionsQuery = () =>
  queryOptions({
    queryKey: roleKeys.grantable(),
    queryFn: ({ signal }) => api.call("GET", "/companies/roles/permissions", z.array(z.enum(COMPANY_PERMISSIONS)), { signal }),
  });

/** GET /api/companies/roles → RoleAnswer[], Owner first then by name. */
export const rolesQuery = () =>
  queryOptions({
    queryKey: roleKeys.list(),
    queryFn: ({ signal }) => api.call("GET", "/companies/roles", z.array(roleAnswer), { signal }),
  });

/** POST /api/companies/roles {name, description, permissions} → 201 RoleAnswer. */
export function createRole(input: RoleInput): Promise<RoleAnswer> {
  return api.call("POST", "/companies/roles", roleAnswer, { body: input });
}

/** PUT /api/companies/roles/{id} {name, description, permissions} → RoleAnswer. */
export function updateRole(id: string, input: RoleInput): Promise<RoleAnswer> {
  return api.call("PUT", `/companies/roles/${encodeURIComponent(id)}`, roleAnswer, { body: input });
}

/** DELETE /api/companies/roles/{id} → 204; members lose the role. */
export function deleteRole(id: string): Promise<void> {
  return api.send("DELETE", `/companies/roles/${encodeURIComponent(id)}`);
}
