/**
 * A tenant. Every company-scoped table carries `company_id` (DESIGN.md "Shape").
 * Fields: spec §3 Company.
 */
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "./columns";

export const PAYMENT_STATUSES = ["trial", "paid", "pending", "unpaid"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const PLANS = ["trial", "monthly", "semiannual", "yearly", "lifetime"] as const;
export type Plan = (typeof PLANS)[number];

/**
 * One entry of the company's disconnected-connections list (spec §3 Company). `neverPaired` marks a
 * connection that has not been connected since it was created (the app says "Not paired yet", not
 * "Connection lost"); absent on entries of connections that were connected and lost it.
 */
export type DisconnectedEntry = { id: string; name: string; type: string; neverPaired?: true };

export const companies = sqliteTable(
  "companies",
  {
    id: id(),
    name: text("name").notNull(),
    imageKey: text("image_key"),
    /** IANA time zone, e.g. America/Sao_Paulo. */
    timezone: text("timezone").notNull(),
    /** One of the four product locales. */
    language: text("language").notNull(),
    showAttendantName: integer("show_attendant_name", { mode: "boolean" }).notNull().default(false),
    /** SHA-256 of the API key, hex; the key itself is shown once. */
    apiKeyHash: text("api_key_hash"),
    /** The last four characters of the key, for the masked display. */
    apiKeyHint: text("api_key_hint"),
    whatsappNumber: text("whatsapp_number"),
    ownerId: text("owner_id").notNull(),
    plan: text("plan", { enum: PLANS }).notNull(),
    paymentStatus: text("payment_status", { enum: PAYMENT_STATUSES }).notNull(),
    /** End of the subscription, ms UTC. */
    dueDate: integer("due_date").notNull(),
    /** JSON array of DisconnectedEntry. */
    disconnected: text("disconnected", { mode: "json" }).$type<DisconnectedEntry[]>().notNull(),
    /** SHA-256 of the activation code mailed on registration; null once activated. */
    activationCodeHash: text("activation_code_hash"),
    activatedAt: integer("activated_at"),
    franchiseId: text("franchise_id"),
    /** The franchise role this company holds (issue 14; schema/franchises.ts): its features are that role's. */
    franchiseRoleId: text("franchise_role_id"),
    /** When the company's franchise suspended it (issue 14), ms UTC; null = not suspended. Suspended: 402 like unpaid. */
    suspendedAt: integer("suspended_at"),
    /** The company's local day (YYYY-MM-DD) its franchise's unpaid e-mail last went out (issue 14, worker/jobs/franchise-unpaid.ts). */
    unpaidMailDay: text("unpaid_mail_day"),
    /**
     * Stop words (issue 10 "Opt-out"): a customer message equal to one of them, ignoring case,
     * accents and surrounding spaces, opts the contact out. Null means the defaults SAIR, PARAR, STOP.
     */
    optOutWords: text("opt_out_words", { mode: "json" }).$type<string[] | null>(),
    ...timestamps,
  },
  (t) => [
    index("companies_owner_idx").on(t.ownerId),
    // The public API authenticates by key hash.
    uniqueIndex("companies_api_key_uq").on(t.apiKeyHash),
  ],
);

export type CompanyRow = typeof companies.$inferSelect;
