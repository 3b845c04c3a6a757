/**
 * Franchises (issue 14; spec §3 "Franchise info", "Franchise admin settings", "Franchise role"; §7
 * `/infos`, `/franchise…`): the zod request schemas and answer types of every /api/franchise… and
 * /api/admin/franchises… route, shared by the worker and the web. Drizzle-free (the web imports it).
 *
 * Conventions: ids are UUIDv7 text, times ms UTC, money in cents (integer), colours `#rrggbb`
 * lower-case. Secrets (SMTP password, Asaas key) are write-only: answers carry `…Set: boolean`.
 */
import { z } from "zod";
import { FRANCHISE_PERMISSIONS, type FranchisePermission } from "../permissions";
import { emailSchema, idSchema, nameSchema } from "./common";
import { payInvoiceInput, type PixAnswer } from "./billing";

// ---------------------------------------------------------------------------------------------
// Shared field validators

const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
/** A multipart boolean: "true"/"false" (or a JSON boolean). */
export const formBoolean = z.preprocess(
  (v) => (v === "true" || v === true ? true : v === "false" || v === false ? false : v),
  z.boolean({ error: "invalid_boolean" }),
);

/** A colour `#rrggbb` (also `#rgb`, expanded), answered lower-case. 400 `invalid_color`. */
export const colorSchema = z
  .string({ error: "required" })
  .trim()
  .regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, { error: "invalid_color" })
  .transform((v) => {
    const hex = v.slice(1).toLowerCase();
    return hex.length === 3 ? `#${hex[0]}${hex[0]}${hex[1]}${hex[1]}${hex[2]}${hex[2]}` : `#${hex}`;
  });

/**
 * A hostname a franchise is served on: lower-cased, trailing dot and port dropped; labels of
 * letters, digits and `-` (not at either end), at least two labels, at most 253 characters. Local
 * hostnames end in `.localhost` (e.g. `acme.localhost`). 400 `invalid_hostname`.
 */
export const hostnameSchema = z
  .string({ error: "required" })
  .trim()
  .toLowerCase()
  .transform((v) => v.replace(/:\d+$/, "").replace(/\.$/, ""))
  .pipe(
    z
      .string()
      .max(253, { error: "invalid_hostname" })
      .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/, { error: "invalid_hostname" }),
  );

/** Longest notInCompany / notPaid text (characters). */
export const FRANCHISE_TEXT_MAX = 2000;

const optionalText = (max: number) => z.string({ error: "invalid_type" }).trim().max(max, { error: "too_long" }).optional();

/** An image field of a multipart form: a File, or "null"/"" to remove it; absent = unchanged. */
const imageField = z.union([z.instanceof(File), z.literal("null"), z.literal("")], { error: "invalid_image" }).optional();

/** Page query of the paged lists: `cursor` (opaque), `search` (name contains), `limit` 1..100 (30). */
export const franchisePageQuery = z.object({
  cursor: z.string().max(200, { error: "invalid_cursor" }).optional(),
  // D1 refuses LIKE patterns over 50 bytes: the escaped search must fit in 48 (as schema/validation/contacts.ts searchSchema).
  search: z
    .string()
    .trim()
    .max(120, { error: "too_long" })
    .refine((v) => new TextEncoder().encode(v.replace(/[%_\\]/g, "\\$&")).length <= 48, { error: "too_long" })
    .optional(),
  limit: z.coerce.number({ error: "invalid_limit" }).int({ error: "invalid_limit" }).min(1, { error: "invalid_limit" }).max(100, { error: "invalid_limit" }).default(30),
});
export type FranchisePageQuery = z.input<typeof franchisePageQuery>;

/** A paged list (spec §3 "list response fields cursor, total, results"); `cursor` null on the last page. */
export type FranchisePage<T> = { cursor: string | null; total: number; results: T[] };

// ---------------------------------------------------------------------------------------------
// GET /api/infos (public)

/**
 * Branding of the request's host (spec §3 "Franchise info"): the franchise's, else the product's
 * (`franchise: false`). `logo` and `favicon` are same-origin URLs (images only) or null.
 */
export type InfosAnswer = {
  name: string;
  logo: string | null;
  favicon: string | null;
  primaryColor: string | null;
  /** Whether franchise mode is on (spec §1: public runtime settings). */
  franchiseMode: boolean;
  /** Whether the host belongs to a franchise. */
  franchise: boolean;
  /** The franchise's text for a user who belongs to no company (spec §3 `notInCompany`); null when none. */
  notInCompany: string | null;
};

// ---------------------------------------------------------------------------------------------
// GET/PUT /api/franchise (settings, e-mail), PUT /api/franchise/integrations, POST /api/franchise/email/test

/** One DNS record the admin must create for a hostname (ownership or certificate validation). */
export type FranchiseDnsRecord = { type: "TXT" | "CNAME" | "HTTP"; name: string; value: string; purpose: "ownership" | "ssl" };

/** A franchise hostname as answered to admins. `status` "local" for `*.localhost` (never registered). */
export type FranchiseHostnameAnswer = {
  id: string;
  hostname: string;
  status: string;
  sslStatus: string | null;
  records: FranchiseDnsRecord[];
  createdAt: number;
};

/** GET /api/franchise and PUT answer: the settings of the franchise the user administers. */
export type FranchiseSettingsAnswer = {
  id: string;
  name: string;
  logo: string | null;
  favicon: string | null;
  primaryColor: string | null;
  notInCompany: string;
  notPaid: string;
  sendEmailToUnpaidCompany: boolean;
  mailUser: string | null;
  mailHost: string | null;
  mailPort: number | null;
  /** Whether an SMTP password is stored (the password itself is never answered). */
  mailPasswordSet: boolean;
  /** Whether an Asaas API key is stored (never answered). */
  asaasApiKeySet: boolean;
  hostnames: FranchiseHostnameAnswer[];
  updatedAt: number;
};

/**
 * PUT /api/franchise multipart (spec §3 "Franchise admin settings"). Every field optional: absent =
 * unchanged. `logo`/`favicon`: an image file (PNG, JPEG, WebP, GIF; favicon also ICO; ≤ 2 MB, typed
 * by its bytes) or "null"/"" to remove. `primaryColor` "" clears it. `mailUser`/`mailHost` "" clear
 * them; `mailPort` 1..65535 ("" clears); `mailPassword` blank = unchanged (write-only), "null"
 * removes it. 400 names the field.
 */
export const franchiseSettingsForm = z.object({
  name: z.preprocess(blankToUndefined, nameSchema.optional()),
  logo: imageField,
  favicon: imageField,
  primaryColor: z.preprocess((v) => (v === "" ? null : v), colorSchema.nullable().optional()),
  notInCompany: optionalText(FRANCHISE_TEXT_MAX),
  notPaid: optionalText(FRANCHISE_TEXT_MAX),
  sendEmailToUnpaidCompany: formBoolean.optional(),
  mailUser: z.preprocess((v) => (v === "" ? null : v), z.string({ error: "invalid_type" }).trim().max(254, { error: "too_long" }).nullable().optional()),
  mailHost: z.preprocess(
    (v) => (v === "" ? null : v),
    z
      .string({ error: "invalid_type" })
      .trim()
      .toLowerCase()
      .max(253, { error: "too_long" })
      .regex(/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/, { error: "invalid_hostname" })
      .nullable()
      .optional(),
  ),
  mailPort: z.preprocess(
    (v) => (v === "" ? null : v),
    z.coerce.number({ error: "invalid_port" }).int({ error: "invalid_port" }).min(1, { error: "invalid_port" }).max(65535, { error: "invalid_port" }).nullable().optional(),
  ),
  mailPassword: z.preprocess(blankToUndefined, z.string({ error: "invalid_type" }).max(500, { error: "too_long" }).optional()),
});
export type FranchiseSettingsForm = z.input<typeof franchiseSettingsForm>;

/** POST /api/franchise/email/test {to?}: sends a test e-mail through the franchise's SMTP (default: the admin's address). */
export const franchiseEmailTestInput = z.object({ to: emailSchema.optional() });
export type FranchiseEmailTestInput = z.input<typeof franchiseEmailTestInput>;
/** Answer of POST /api/franchise/email/test. */
export type FranchiseEmailTestAnswer = { sent: true; to: string };

/** PUT /api/franchise/integrations {asaasApiKey}: a key (stored encrypted), or null/"" to remove it. */
export const franchiseIntegrationsInput = z.object({
  asaasApiKey: z.preprocess((v) => (v === "" ? null : v), z.string({ error: "required" }).trim().min(8, { error: "too_short" }).max(500, { error: "too_long" }).nullable()),
});
export type FranchiseIntegrationsInput = z.input<typeof franchiseIntegrationsInput>;
/** Answer of PUT /api/franchise/integrations (the key is never answered). */
export type FranchiseIntegrationsAnswer = { asaasApiKeySet: boolean };

// ---------------------------------------------------------------------------------------------
// Companies: GET/POST /api/franchise/companies, PUT /api/franchise/companies/{id} (helper FB)

/** Plans a franchise may set on its companies (mirrors schema/companies.ts PLANS). */
export const FRANCHISE_COMPANY_PLANS = ["trial", "monthly", "semiannual", "yearly", "lifetime"] as const;
export type FranchiseCompanyPlan = (typeof FRANCHISE_COMPANY_PLANS)[number];

/** A company of the franchise as its admin sees it. */
export type FranchiseCompanyAnswer = {
  id: string;
  name: string;
  owner: { id: string; name: string; email: string } | null;
  plan: string;
  paymentStatus: string;
  dueDate: number;
  franchiseRoleId: string | null;
  franchiseRoleName: string | null;
  suspended: boolean;
  createdAt: number;
};

/**
 * POST /api/franchise/companies: a company for a client, its owner invited by e-mail (`ownerEmail`,
 * `ownerName`), its `plan` and its franchise role. 400 names the field; 404 `franchiseRoleId` of
 * another franchise.
 */
export const franchiseCompanyCreateInput = z.object({
  name: nameSchema,
  ownerEmail: emailSchema,
  ownerName: z.preprocess(blankToUndefined, nameSchema.optional()),
  plan: z.enum(FRANCHISE_COMPANY_PLANS, { error: "invalid_plan" }).default("trial"),
  franchiseRoleId: idSchema.nullable().optional(),
});
export type FranchiseCompanyCreateInput = z.input<typeof franchiseCompanyCreateInput>;

/** PUT /api/franchise/companies/{id}: any of name, plan, franchise role, suspended (suspend/resume). */
export const franchiseCompanyUpdateInput = z.object({
  name: nameSchema.optional(),
  plan: z.enum(FRANCHISE_COMPANY_PLANS, { error: "invalid_plan" }).optional(),
  franchiseRoleId: idSchema.nullable().optional(),
  suspended: z.boolean({ error: "invalid_boolean" }).optional(),
});
export type FranchiseCompanyUpdateInput = z.input<typeof franchiseCompanyUpdateInput>;

// ---------------------------------------------------------------------------------------------
// Users: GET /api/franchise/users (helper FB); admins: POST /api/admin/franchises/{id}/admins

/** A franchise administrator. */
export type FranchiseAdminAnswer = { id: string; name: string; email: string; createdAt: number };
/** A user of one of the franchise's companies. */
export type FranchiseMemberAnswer = { id: string; name: string; email: string; companyId: string; companyName: string };
/** GET /api/franchise/users?cursor=&search=&limit=: the administrators (all) and a page of the users of its companies. */
export type FranchiseUsersAnswer = { admins: FranchiseAdminAnswer[] } & FranchisePage<FranchiseMemberAnswer>;

/** Invite/add a franchise administrator by e-mail (a user is created with an invite when unknown). */
export const franchiseAdminInput = z.object({ email: emailSchema, name: z.preprocess(blankToUndefined, nameSchema.optional()) });
export type FranchiseAdminInput = z.input<typeof franchiseAdminInput>;

// ---------------------------------------------------------------------------------------------
// Invoices: GET /api/franchise/invoices, GET/POST/DELETE /api/franchise/invoices/{id} (helper FB)

/** An invoice of one of the franchise's companies (value in cents). `publicId`: its public /invoice/{publicId} page. */
export type FranchiseInvoiceAnswer = {
  id: string;
  publicId: string;
  companyId: string;
  companyName: string;
  value: number;
  dueDate: number;
  status: string;
  paidAt: number | null;
  /** The payment page or PIX payload when a charge exists. */
  invoiceUrl: string | null;
  createdAt: number;
};
/** The next invoice a company will get (spec §2 "next payment invoice by company"). */
export type FranchiseNextInvoiceAnswer = { companyId: string; companyName: string; plan: string; value: number; dueDate: number };
/**
 * GET /api/franchise/invoices?cursor=&limit=&companyId=: a page of invoices, newest first (`cursor`
 * null on the last page), and each company's next invoice (companies with a live subscription).
 */
export type FranchiseInvoicesAnswer = { results: FranchiseInvoiceAnswer[]; cursor: string | null; next: FranchiseNextInvoiceAnswer[] };

/** Query of GET /api/franchise/invoices: `companyId` narrows to one company of the franchise. */
export const franchiseInvoicesQuery = z.object({
  cursor: z.string().max(200, { error: "invalid_cursor" }).optional(),
  limit: z.coerce.number({ error: "invalid_limit" }).int({ error: "invalid_limit" }).min(1, { error: "invalid_limit" }).max(100, { error: "invalid_limit" }).default(30),
  companyId: idSchema.optional(),
});

/**
 * POST /api/franchise/invoices/{id}: pay an open invoice through the franchise's Asaas account —
 * `billingType` PIX (answers the QR code) or CREDIT_CARD (with `creditCard` and `holder`), the same
 * payload as the public checkout (schema/validation/billing.ts payInvoiceInput).
 */
export const franchiseInvoicePayInput = payInvoiceInput;
export type FranchiseInvoicePayInput = z.input<typeof franchiseInvoicePayInput>;
/** Answer of GET/DELETE /api/franchise/invoices/{id} is FranchiseInvoiceAnswer; of POST, the invoice and the PIX QR code (null for a card). */
export type FranchiseInvoicePayAnswer = { invoice: FranchiseInvoiceAnswer; pix: PixAnswer | null };

// ---------------------------------------------------------------------------------------------
// Roles: GET /api/franchise/permissions, /roles, /roles/short, POST, GET/PUT/DELETE /roles/{id} (helper FB)

/** GET /api/franchise/permissions: the franchise-grantable permission catalogue (spec §6). */
export type FranchisePermissionsAnswer = FranchisePermission[];

/** POST /api/franchise/roles and PUT /api/franchise/roles/{id}. 409 `name_in_use` for a name taken in the franchise. */
export const franchiseRoleInput = z.object({
  name: nameSchema,
  permissions: z.array(z.enum(FRANCHISE_PERMISSIONS, { error: "invalid_permission" })).max(FRANCHISE_PERMISSIONS.length),
});
export type FranchiseRoleInput = z.input<typeof franchiseRoleInput>;

/** A franchise role. `companies`: how many of the franchise's companies hold it. */
export type FranchiseRoleAnswer = {
  id: string;
  name: string;
  permissions: FranchisePermission[];
  companies: number;
  createdAt: number;
  updatedAt: number;
};
/** GET /api/franchise/roles/short. */
export type FranchiseRoleShortAnswer = { id: string; name: string }[];

// ---------------------------------------------------------------------------------------------
// Platform admins: /api/admin/franchises…

/** POST /api/admin/franchises and PUT /api/admin/franchises/{id} (JSON): name and optional colour. */
export const adminFranchiseInput = z.object({
  name: nameSchema,
  primaryColor: colorSchema.nullable().optional(),
});
export type AdminFranchiseInput = z.input<typeof adminFranchiseInput>;

/** A franchise as the Admin area lists it. */
export type AdminFranchiseAnswer = {
  id: string;
  name: string;
  logo: string | null;
  favicon: string | null;
  primaryColor: string | null;
  hostnames: FranchiseHostnameAnswer[];
  admins: FranchiseAdminAnswer[];
  companies: number;
  createdAt: number;
  updatedAt: number;
};

/** POST /api/admin/franchises/{id}/hostnames: `hostname`, and the certificate validation method (txt). */
export const adminHostnameInput = z.object({
  hostname: hostnameSchema,
  sslMethod: z.enum(["txt", "http"], { error: "invalid_method" }).default("txt"),
});
export type AdminHostnameInput = z.input<typeof adminHostnameInput>;
