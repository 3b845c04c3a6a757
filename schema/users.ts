/**
 * A person who signs in. Belongs to companies through `members`; one company is active at a time
 * (spec §3 User: name, image, phone, activeCompany, status).
 */
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "./columns";

export const users = sqliteTable(
  "users",
  {
    id: id(),
    name: text("name").notNull(),
    /** Lower-cased; unique across the product (spec §5 uniqueness of e-mail). */
    email: text("email").notNull(),
    /** E.164, parsed with libphonenumber-js. */
    phone: text("phone"),
    /** R2 key of the avatar, or null. */
    imageKey: text("image_key"),
    /** PBKDF2-HMAC-SHA256 derived key, base64. */
    passwordHash: text("password_hash").notNull(),
    /** 16 random bytes, base64. */
    passwordSalt: text("password_salt").notNull(),
    /** PBKDF2 iteration count this hash was made with (kept per row so it can be raised later). */
    passwordIterations: integer("password_iterations").notNull(),
    /** Bumped by logout and password reset: every JWT carrying an older version is refused. */
    tokenVersion: integer("token_version").notNull().default(0),
    activeCompanyId: text("active_company_id"),
    /** Online/offline toggle of the layout (spec §4 Online status). */
    status: text("status", { enum: ["online", "offline"] }).notNull().default("offline"),
    /**
     * When the user proved they own `email` (the code mailed at registration, spec §6 "activation
     * code"); null until then. Invites are shown and accepted only for verified addresses.
     */
    emailVerifiedAt: integer("email_verified_at"),
    /** SHA-256 (hex) of the current e-mail verification code, and its expiry (ms UTC). */
    emailCodeHash: text("email_code_hash"),
    emailCodeExpiresAt: integer("email_code_expires_at"),
    ...timestamps,
  },
  (t) => [
    // Login looks users up by e-mail; uniqueness is a spec rule.
    uniqueIndex("users_email_uq").on(t.email),
    index("users_active_company_idx").on(t.activeCompanyId),
  ],
);

export type UserRow = typeof users.$inferSelect;
