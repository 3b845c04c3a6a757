/**
 * Auth bookkeeping: password-reset tokens, login rate-limit counters and the dev mail outbox.
 */
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Single-use reset tokens, valid one hour. Only the SHA-256 of the token is stored. */
export const passwordResets = sqliteTable(
  "password_resets",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("password_resets_user_idx").on(t.userId)],
);

/**
 * Brute-force limits (worker/lib/rate-limit.ts): fixed-window counters (`forgot:email:<addr>`,
 * `register:ip:<addr>`, …) and growing-delay throttles (`login:pair:["<email>","<ip>"]`, where
 * `window_start` is the last attempt and `count` the failures). Times in ms UTC.
 */
export const rateLimits = sqliteTable("rate_limits", {
  key: text("key").primaryKey(),
  windowStart: integer("window_start").notNull(),
  count: integer("count").notNull(),
  /** Growing-delay throttles: no attempt is accepted before this time (ms UTC); null when free. */
  blockedUntil: integer("blocked_until"),
});

/** Mails kept locally when no SMTP server is configured (DESIGN.md "Email"). */
export const mailOutbox = sqliteTable(
  "mail_outbox",
  {
    id: text("id").primaryKey(),
    to: text("to_address").notNull(),
    subject: text("subject").notNull(),
    text: text("body_text").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("mail_outbox_to_idx").on(t.to, t.createdAt)],
);
