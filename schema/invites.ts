/**
 * An invitation of an e-mail address into a company with roles (spec §3 Member: invites can be
 * accepted, rejected or cancelled).
 */
import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "./columns";

export const INVITE_STATUSES = ["pending", "accepted", "rejected", "cancelled"] as const;

export const invites = sqliteTable(
  "invites",
  {
    id: id(),
    companyId: text("company_id").notNull(),
    /** Lower-cased. A user who registers later with this address sees the invite. */
    email: text("email").notNull(),
    roleIds: text("role_ids", { mode: "json" }).$type<string[]>().notNull(),
    invitedBy: text("invited_by").notNull(),
    status: text("status", { enum: INVITE_STATUSES }).notNull(),
    ...timestamps,
  },
  (t) => [
    // GET /me/invites looks up by e-mail.
    index("invites_email_idx").on(t.email, t.status),
    index("invites_company_idx").on(t.companyId, t.status),
  ],
);

export type InviteRow = typeof invites.$inferSelect;
