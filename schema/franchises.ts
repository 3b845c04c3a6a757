/**
 * Franchises (white label; issue 14, DESIGN.md "Franchises", spec §3 "Franchise info", "Franchise
 * admin settings", "Franchise role"). A franchise owns companies (`companies.franchise_id`) and
 * custom hostnames; the worker resolves it from the request's host (worker/lib/franchise-host.ts).
 *
 * Secrets (`mail_password`, `asaas_api_key`) are stored encrypted with worker/lib/secrets.ts
 * (AES-GCM, "v1:" envelope) and never returned by any route.
 */
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "./columns";
import type { FranchisePermission } from "./permissions";

export const franchises = sqliteTable("franchises", {
  id: id(),
  /** Brand name: the page title, e-mail sender name and `/api/infos` name. */
  name: text("name").notNull(),
  /** R2 key of the logo image (PNG/JPEG/WebP/GIF, typed by its bytes), or null. */
  logoKey: text("logo_key"),
  /** R2 key of the favicon image (PNG/ICO/…, typed by its bytes), or null. */
  faviconKey: text("favicon_key"),
  /** Primary colour `#rrggbb` (lower-case), or null for the product's own. */
  primaryColor: text("primary_color"),
  /** Text shown to a user of the franchise host who has no company (spec §3 notInCompany). */
  notInCompany: text("not_in_company").notNull().default(""),
  /** Text shown to a company whose payment is overdue (spec §3 notPaid, §4). */
  notPaid: text("not_paid").notNull().default(""),
  /** The daily job e-mails this franchise's unpaid companies (spec §3 sendEmailToUnpaidCompany). */
  sendEmailToUnpaidCompany: integer("send_email_to_unpaid_company", { mode: "boolean" }).notNull().default(false),
  /** The franchise's own SMTP: user (also the From address), host, port; password encrypted. */
  mailUser: text("mail_user"),
  mailHost: text("mail_host"),
  mailPort: integer("mail_port"),
  /** Encrypted (worker/lib/secrets.ts); never returned. */
  mailPassword: text("mail_password"),
  /** The franchise's Asaas API key (integrations tab), encrypted; never returned. */
  asaasApiKey: text("asaas_api_key"),
  ...timestamps,
});

export type FranchiseRow = typeof franchises.$inferSelect;

/** Status of a custom hostname at Cloudflare (custom hostnames API `status`). */
export const FRANCHISE_HOSTNAME_STATUSES = [
  "pending",
  "active",
  "moved",
  "deleted",
  "blocked",
  "pending_deletion",
  "pending_blocked",
  "pending_migration",
  "pending_provisioned",
  "test_pending",
  "test_active",
  "test_active_apex",
  "test_blocked",
  "test_failed",
  "provisioned",
  /** Local `*.localhost` hostnames: never registered at Cloudflare. */
  "local",
] as const;
export type FranchiseHostnameStatus = (typeof FRANCHISE_HOSTNAME_STATUSES)[number];

/** One DNS record the franchise admin must create (ownership or certificate validation). */
export type VerificationRecord = { type: "TXT" | "CNAME" | "HTTP"; name: string; value: string; purpose: "ownership" | "ssl" };

export const franchiseHostnames = sqliteTable(
  "franchise_hostnames",
  {
    id: id(),
    franchiseId: text("franchise_id").notNull(),
    /** Lower-case, no port, no trailing dot. Unique across the product. */
    hostname: text("hostname").notNull(),
    /** Id of the custom hostname at Cloudflare; null for local `*.localhost` hostnames. */
    cfId: text("cf_id"),
    status: text("status").$type<FranchiseHostnameStatus>().notNull(),
    /** Cloudflare `ssl.status` (e.g. pending_validation, active), or null. */
    sslStatus: text("ssl_status"),
    /** JSON array of VerificationRecord: the DNS records shown to the admin. */
    verificationRecords: text("verification_records", { mode: "json" }).$type<VerificationRecord[]>().notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex("franchise_hostnames_hostname_uq").on(t.hostname), index("franchise_hostnames_franchise_idx").on(t.franchiseId)],
);

export type FranchiseHostnameRow = typeof franchiseHostnames.$inferSelect;

/** The users who administer a franchise (its /franchise area). */
export const franchiseAdmins = sqliteTable(
  "franchise_admins",
  {
    franchiseId: text("franchise_id").notNull(),
    userId: text("user_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.franchiseId, t.userId] }), index("franchise_admins_user_idx").on(t.userId)],
);

export type FranchiseAdminRow = typeof franchiseAdmins.$inferSelect;

/**
 * A franchise role (spec §6): a named bundle of franchise-grantable feature permissions. Each company
 * of the franchise holds one (`companies.franchise_role_id`) and gets at most its features.
 */
export const franchiseRoles = sqliteTable(
  "franchise_roles",
  {
    id: id(),
    franchiseId: text("franchise_id").notNull(),
    name: text("name").notNull(),
    /** JSON array of FRANCHISE_PERMISSIONS names. */
    permissions: text("permissions", { mode: "json" }).$type<FranchisePermission[]>().notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex("franchise_roles_franchise_name_uq").on(t.franchiseId, t.name)],
);

export type FranchiseRoleRow = typeof franchiseRoles.$inferSelect;
