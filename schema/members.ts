/**
 * Membership of a user in a company, with the roles it holds (spec §3 Member).
 */
import { index, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "./columns";

export const members = sqliteTable(
  "members",
  {
    id: id(),
    companyId: text("company_id").notNull(),
    userId: text("user_id").notNull(),
    ...timestamps,
  },
  (t) => [
    // One membership per user and company.
    uniqueIndex("members_company_user_uq").on(t.companyId, t.userId),
    // "Which companies is this user in?"
    index("members_user_idx").on(t.userId),
  ],
);

export const memberRoles = sqliteTable(
  "member_roles",
  {
    companyId: text("company_id").notNull(),
    memberId: text("member_id").notNull(),
    roleId: text("role_id").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.memberId, t.roleId] }),
    // Deleting a role must find its holders.
    index("member_roles_role_idx").on(t.roleId),
  ],
);

export type MemberRow = typeof members.$inferSelect;
