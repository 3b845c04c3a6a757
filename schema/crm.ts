/**
 * CRM board (spec §2 CRM, §3 CRM column): ordered columns; contacts are placed on columns
 * (contacts.crm_column_id, ordered by contacts.crm_position).
 */
import { index, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
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
  (t) => [index("crm_columns_company_idx").on(t.companyId, t.position)],
);

export type CrmColumnRow = typeof crmColumns.$inferSelect;
