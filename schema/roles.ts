/**
 * A company role: a named bundle of permissions (spec §3 Role, §6). The owner role holds every
 * permission and cannot be edited or deleted.
 */
import { sqliteTable, text, uniqueIndex, integer } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "./columns";
import type { CompanyPermission } from "./permissions";

export const roles = sqliteTable(
  "roles",
  {
    id: id(),
    companyId: text("company_id").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    /** JSON array of permission names from schema/permissions.ts. */
    permissions: text("permissions", { mode: "json" }).$type<CompanyPermission[]>().notNull(),
    /** The Owner role made at registration. */
    isOwner: integer("is_owner", { mode: "boolean" }).notNull().default(false),
    ...timestamps,
  },
  // Role names are unique inside a company (409 name_in_use); also the tenant lookup index.
  (t) => [uniqueIndex("roles_company_name_uq").on(t.companyId, t.name)],
);

export type RoleRow = typeof roles.$inferSelect;
