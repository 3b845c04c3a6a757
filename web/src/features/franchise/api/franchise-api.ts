/**
 * Calls of the franchise area (issue 14; spec §2 /franchise tabs, §3 "Franchise admin settings",
 * "Franchise role", §7 `/franchise…`) for the franchise the signed-in user administers. Request
 * shapes are the shared schemas of schema/validation/franchise.ts; answers are parsed here. Every
 * route answers 404 when franchise mode is off and 403 to a user who administers no franchise.
 */
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import { api } from "@/lib/session";
import { FRANCHISE_PERMISSIONS } from "../../../../../schema/permissions";
import type {
  FranchiseAdminAnswer,
  FranchiseAdminInput,
  FranchiseCompanyAnswer,
  FranchiseCompanyCreateInput,
  FranchiseCompanyUpdateInput,
  FranchiseDnsRecord,
  FranchiseEmailTestAnswer,
  FranchiseEmailTestInput,
  FranchiseHostnameAnswer,
  FranchiseIntegrationsAnswer,
  FranchiseIntegrationsInput,
  FranchiseInvoiceAnswer,
  FranchiseInvoicePayAnswer,
  FranchiseInvoicePayInput,
  FranchiseInvoicesAnswer,
  FranchiseNextInvoiceAnswer,
  FranchisePage,
  FranchiseRoleAnswer,
  FranchiseRoleInput,
  FranchiseSettingsAnswer,
} from "../../../../../schema/validation/franchise";
import type { PixAnswer } from "../../../../../schema/validation/billing";

/** Rows per page of the paged lists. */
export const FRANCHISE_PAGE_SIZE = 30;

/** Runtime parser of FranchiseDnsRecord. */
export const dnsRecord: z.ZodType<FranchiseDnsRecord> = z.object({
  type: z.enum(["TXT", "CNAME", "HTTP"]),
  name: z.string(),
  value: z.string(),
  purpose: z.enum(["ownership", "ssl"]),
});

/** Runtime parser of FranchiseHostnameAnswer. */
export const hostnameAnswer: z.ZodType<FranchiseHostnameAnswer> = z.object({
  id: z.string(),
  hostname: z.string(),
  status: z.string(),
  sslStatus: z.string().nullable(),
  records: z.array(dnsRecord),
  createdAt: z.number(),
});

/** Runtime parser of FranchiseAdminAnswer. */
export const franchiseAdminAnswer: z.ZodType<FranchiseAdminAnswer> = z.object({ id: z.string(), name: z.string(), email: z.string(), createdAt: z.number() });

const settingsAnswer: z.ZodType<FranchiseSettingsAnswer> = z.object({
  id: z.string(),
  name: z.string(),
  logo: z.string().nullable(),
  favicon: z.string().nullable(),
  primaryColor: z.string().nullable(),
  notInCompany: z.string(),
  notPaid: z.string(),
  sendEmailToUnpaidCompany: z.boolean(),
  mailUser: z.string().nullable(),
  mailHost: z.string().nullable(),
  mailPort: z.number().nullable(),
  mailPasswordSet: z.boolean(),
  asaasApiKeySet: z.boolean(),
  hostnames: z.array(hostnameAnswer).catch([]),
  updatedAt: z.number(),
});

const companyAnswer: z.ZodType<FranchiseCompanyAnswer> = z.object({
  id: z.string(),
  name: z.string(),
  owner: z.object({ id: z.string(), name: z.string(), email: z.string() }).nullable(),
  plan: z.string(),
  paymentStatus: z.string(),
  dueDate: z.number(),
  franchiseRoleId: z.string().nullable(),
  franchiseRoleName: z.string().nullable(),
  suspended: z.boolean(),
  createdAt: z.number(),
});

const roleAnswer: z.ZodType<FranchiseRoleAnswer> = z.object({
  id: z.string(),
  name: z.string(),
  permissions: z.array(z.enum(FRANCHISE_PERMISSIONS)),
  companies: z.number().catch(0),
  createdAt: z.number(),
  updatedAt: z.number(),
});

const invoiceAnswer: z.ZodType<FranchiseInvoiceAnswer> = z.object({
  id: z.string(),
  publicId: z.string(),
  companyId: z.string(),
  companyName: z.string(),
  value: z.number(),
  dueDate: z.number(),
  status: z.string(),
  paidAt: z.number().nullable(),
  invoiceUrl: z.string().nullable(),
  createdAt: z.number(),
});

const nextInvoiceAnswer: z.ZodType<FranchiseNextInvoiceAnswer> = z.object({
  companyId: z.string(),
  companyName: z.string(),
  plan: z.string(),
  value: z.number(),
  dueDate: z.number(),
});

/** A `{cursor, total, results}` page of `item`; a plain array (an older answer) reads as one page. */
function page<T>(item: z.ZodType<T>): z.ZodType<FranchisePage<T>> {
  return z.union([
    z.object({ cursor: z.string().nullable(), total: z.number(), results: z.array(item) }),
    z.array(item).transform((results) => ({ cursor: null, total: results.length, results })),
  ]);
}

/** Query keys of the franchise area. */
export const franchiseKeys = {
  all: ["franchise"] as const,
  settings: () => [...franchiseKeys.all, "settings"] as const,
  companies: (search: string) => [...franchiseKeys.all, "companies", search] as const,
  invoices: () => [...franchiseKeys.all, "invoices"] as const,
  permissions: () => [...franchiseKeys.all, "permissions"] as const,
  roles: (search: string) => [...franchiseKeys.all, "roles", search] as const,
  rolesShort: () => [...franchiseKeys.all, "roles-short"] as const,
};

/** GET /api/franchise → the settings of the franchise the user administers (secrets only as `…Set`). */
export const franchiseSettingsQuery = () =>
  queryOptions({
    queryKey: franchiseKeys.settings(),
    queryFn: ({ signal }) => api.call("GET", "/franchise", settingsAnswer, { signal }),
  });

/** PUT /api/franchise multipart (see `buildFranchiseForm`) → the settings. 400 names the field. */
export function updateFranchise(form: FormData): Promise<FranchiseSettingsAnswer> {
  return api.call("PUT", "/franchise", settingsAnswer, { form });
}

/** POST /api/franchise/email/test {to?} → {sent, to}; a refused SMTP login or host answers an error naming it. */
export function sendTestEmail(input: FranchiseEmailTestInput): Promise<FranchiseEmailTestAnswer> {
  return api.call("POST", "/franchise/email/test", z.object({ sent: z.literal(true), to: z.string() }), { body: input });
}

/** PUT /api/franchise/integrations {asaasApiKey} (null removes it) → {asaasApiKeySet}. */
export function updateIntegrations(input: FranchiseIntegrationsInput): Promise<FranchiseIntegrationsAnswer> {
  return api.call("PUT", "/franchise/integrations", z.object({ asaasApiKeySet: z.boolean() }), { body: input });
}

/** GET /api/franchise/companies?cursor&search → the franchise's companies, page by page. */
export const franchiseCompaniesQuery = (search: string) =>
  infiniteQueryOptions({
    queryKey: franchiseKeys.companies(search),
    queryFn: ({ pageParam, signal }) =>
      api.call("GET", "/franchise/companies", page(companyAnswer), { query: { search: search || undefined, cursor: pageParam ?? undefined, limit: FRANCHISE_PAGE_SIZE }, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (answer) => answer.cursor,
  });

/** POST /api/franchise/companies → 201 the company; its owner is invited by e-mail. */
export function createFranchiseCompany(input: FranchiseCompanyCreateInput): Promise<FranchiseCompanyAnswer> {
  return api.call("POST", "/franchise/companies", companyAnswer, { body: input });
}

/** PUT /api/franchise/companies/{id} {name?, plan?, franchiseRoleId?, suspended?} → the company. */
export function updateFranchiseCompany(id: string, input: FranchiseCompanyUpdateInput): Promise<FranchiseCompanyAnswer> {
  return api.call("PUT", `/franchise/companies/${encodeURIComponent(id)}`, companyAnswer, { body: input });
}

/** GET /api/franchise/invoices?cursor → a page of its companies' invoices (newest first) and each company's next invoice. */
export const franchiseInvoicesQuery = () =>
  infiniteQueryOptions({
    queryKey: franchiseKeys.invoices(),
    queryFn: ({ pageParam, signal }) =>
      api.call(
        "GET",
        "/franchise/invoices",
        z.object({ results: z.array(invoiceAnswer), cursor: z.string().nullable().catch(null), next: z.array(nextInvoiceAnswer).catch([]) }) satisfies z.ZodType<FranchiseInvoicesAnswer>,
        { query: { cursor: pageParam ?? undefined, limit: FRANCHISE_PAGE_SIZE }, signal },
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (answer) => answer.cursor,
  });

const pixAnswer: z.ZodType<PixAnswer> = z.object({ qrCodeImage: z.string(), payload: z.string(), expiresAt: z.number().nullable() });

/**
 * POST /api/franchise/invoices/{id} {billingType: "PIX"} → the invoice and its PIX QR code, charged
 * through the franchise's own Asaas account (card payments go through the public invoice page).
 * 409 for an invoice that is not open.
 */
export function payFranchiseInvoice(id: string, input: FranchiseInvoicePayInput): Promise<FranchiseInvoicePayAnswer> {
  return api.call("POST", `/franchise/invoices/${encodeURIComponent(id)}`, z.object({ invoice: invoiceAnswer, pix: pixAnswer.nullable() }), { body: input });
}

/** DELETE /api/franchise/invoices/{id} → the invoice, cancelled (its open charge cancelled at the provider). */
export function cancelFranchiseInvoice(id: string): Promise<FranchiseInvoiceAnswer> {
  return api.call("DELETE", `/franchise/invoices/${encodeURIComponent(id)}`, invoiceAnswer);
}

/** GET /api/franchise/permissions → the franchise-grantable permissions (spec §6), in catalogue order. */
export const franchisePermissionsQuery = () =>
  queryOptions({
    queryKey: franchiseKeys.permissions(),
    queryFn: ({ signal }) => api.call("GET", "/franchise/permissions", z.array(z.enum(FRANCHISE_PERMISSIONS)), { signal }),
    staleTime: Infinity,
  });

/** GET /api/franchise/roles?cursor&search → {cursor, total, results} (spec §3), page by page. */
export const franchiseRolesQuery = (search: string) =>
  infiniteQueryOptions({
    queryKey: franchiseKeys.roles(search),
    queryFn: ({ pageParam, signal }) =>
      api.call("GET", "/franchise/roles", page(roleAnswer), { query: { search: search || undefined, cursor: pageParam ?? undefined, limit: FRANCHISE_PAGE_SIZE }, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (answer) => answer.cursor,
  });

/** GET /api/franchise/roles/short → [{id, name}] (the companies' role picker). */
export const franchiseRolesShortQuery = () =>
  queryOptions({
    queryKey: franchiseKeys.rolesShort(),
    queryFn: ({ signal }) => api.call("GET", "/franchise/roles/short", z.array(z.object({ id: z.string(), name: z.string() })), { signal }),
  });

/** POST /api/franchise/roles → 201 the role; 409 `name_in_use` (field `name`). */
export function createFranchiseRole(input: FranchiseRoleInput): Promise<FranchiseRoleAnswer> {
  return api.call("POST", "/franchise/roles", roleAnswer, { body: input });
}

/** PUT /api/franchise/roles/{id} → the role. */
export function updateFranchiseRole(id: string, input: FranchiseRoleInput): Promise<FranchiseRoleAnswer> {
  return api.call("PUT", `/franchise/roles/${encodeURIComponent(id)}`, roleAnswer, { body: input });
}

/** DELETE /api/franchise/roles/{id} → 204; 409 while companies hold it. */
export function deleteFranchiseRole(id: string): Promise<void> {
  return api.send("DELETE", `/franchise/roles/${encodeURIComponent(id)}`);
}

/** GET /api/franchise/users?limit=1 → the franchise's administrators (the users of its companies are not listed here). */
export const franchiseAdminsQuery = () =>
  queryOptions({
    queryKey: [...franchiseKeys.all, "admins"] as const,
    queryFn: ({ signal }) => api.call("GET", "/franchise/users", z.object({ admins: z.array(franchiseAdminAnswer) }), { query: { limit: 1 }, signal }),
    select: (answer) => answer.admins,
  });

/** POST /api/franchise/admins {email} → 201 the administrator (an account is made for a new address, with a link to choose a password). */
export function addAdministrator(input: FranchiseAdminInput): Promise<FranchiseAdminAnswer> {
  return api.call("POST", "/franchise/admins", franchiseAdminAnswer, { body: input });
}

/** DELETE /api/franchise/admins/{userId} → 204; 409 for the last administrator. */
export function removeAdministrator(userId: string): Promise<void> {
  return api.send("DELETE", `/franchise/admins/${encodeURIComponent(userId)}`);
}
