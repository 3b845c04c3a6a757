/**
 * Franchises of the Admin area (issue 14; platform administrators only;
 * worker/routes/admin-franchises.ts): list, create, edit, delete; hostnames (add with the DNS
 * records to create, refresh the status, remove); franchise administrators (add by e-mail, remove).
 */
import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import { api } from "@/lib/session";
import type { AdminFranchiseAnswer, AdminFranchiseInput, AdminHostnameInput, FranchiseAdminAnswer, FranchiseAdminInput, FranchiseHostnameAnswer } from "../../../../../schema/validation/franchise";
import { franchiseAdminAnswer, hostnameAnswer } from "@/features/franchise/api/franchise-api";

/** Runtime parser of AdminFranchiseAnswer. */
export const adminFranchiseAnswer: z.ZodType<AdminFranchiseAnswer> = z.object({
  id: z.string(),
  name: z.string(),
  logo: z.string().nullable(),
  favicon: z.string().nullable(),
  primaryColor: z.string().nullable(),
  hostnames: z.array(hostnameAnswer),
  admins: z.array(franchiseAdminAnswer),
  companies: z.number(),
  createdAt: z.number(),
  updatedAt: z.number(),
});

const franchiseList = z.object({ results: z.array(adminFranchiseAnswer), cursor: z.string().nullable(), total: z.number() });

/** Query keys of the Admin area's franchises. */
export const adminFranchiseKeys = {
  all: ["admin", "franchises"] as const,
};

/** GET /api/admin/franchises → every franchise, by name. */
export const adminFranchisesQuery = () =>
  queryOptions({
    queryKey: adminFranchiseKeys.all,
    queryFn: ({ signal }) => api.call("GET", "/admin/franchises", franchiseList, { signal }),
    select: (answer) => answer.results,
  });

const path = (id: string) => `/admin/franchises/${encodeURIComponent(id)}`;

/** POST /api/admin/franchises {name, primaryColor?} → 201 the franchise. */
export function createFranchise(input: AdminFranchiseInput): Promise<AdminFranchiseAnswer> {
  return api.call("POST", "/admin/franchises", adminFranchiseAnswer, { body: input });
}

/** PUT /api/admin/franchises/{id} {name, primaryColor?} → the franchise. */
export function updateFranchise(id: string, input: AdminFranchiseInput): Promise<AdminFranchiseAnswer> {
  return api.call("PUT", path(id), adminFranchiseAnswer, { body: input });
}

/** DELETE /api/admin/franchises/{id} → 204; its companies stay, detached. */
export function deleteFranchise(id: string): Promise<void> {
  return api.send("DELETE", path(id));
}

/** POST /api/admin/franchises/{id}/hostnames {hostname, sslMethod} → 201 the hostname with its DNS records. */
export function addHostname(id: string, input: AdminHostnameInput): Promise<FranchiseHostnameAnswer> {
  return api.call("POST", `${path(id)}/hostnames`, hostnameAnswer, { body: input });
}

/** GET /api/admin/franchises/{id}/hostnames/{hostnameId} → the hostname, its status refreshed from Cloudflare. */
export function refreshHostname(id: string, hostnameId: string): Promise<FranchiseHostnameAnswer> {
  return api.call("GET", `${path(id)}/hostnames/${encodeURIComponent(hostnameId)}`, hostnameAnswer);
}

/** DELETE /api/admin/franchises/{id}/hostnames/{hostnameId} → 204. */
export function removeHostname(id: string, hostnameId: string): Promise<void> {
  return api.send("DELETE", `${path(id)}/hostnames/${encodeURIComponent(hostnameId)}`);
}

/** POST /api/admin/franchises/{id}/admins {email} → 201 the administrator (the person signs up first). */
export function addFranchiseAdmin(id: string, input: FranchiseAdminInput): Promise<FranchiseAdminAnswer> {
  return api.call("POST", `${path(id)}/admins`, franchiseAdminAnswer, { body: input });
}

/** DELETE /api/admin/franchises/{id}/admins/{userId} → 204. */
export function removeFranchiseAdmin(id: string, userId: string): Promise<void> {
  return api.send("DELETE", `${path(id)}/admins/${encodeURIComponent(userId)}`);
}
