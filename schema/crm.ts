/**
 * CRM board (spec §2 CRM, §3 CRM column): ordered columns; contacts are placed on columns
 * (contacts.crm_column_id, ordered by contacts.crm_position).
 */
import { sql } from "drizzle-orm";
import { index, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "./columns";

export const crmColumns = sqliteTable(
  "crm_columns",
  {
    id: id(),
    companyId: text("company_id").notNull(),
    name: text("name").notNull(),
    color: text("color").notNull().default("#64748b"),
    /** Order on the board (fractional, so a move writes one row). */
    position: real("position").notNull(),
    ...timestamps,
  },
  (t) => [
    index("crm_columns_company_idx").on(t.companyId, t.position),
    // Column names are unique on the board, ignoring case (409 name_in_use).
    uniqueIndex("crm_columns_company_name_uq").on(t.companyId, sql`lower(${t.name})`),
  ],
);

export type CrmColumnRow = typeof crmColumns.$inferSelect;
