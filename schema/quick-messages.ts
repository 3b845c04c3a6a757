/**
 * Quick messages (spec §3 Quick message): saved texts with an optional attachment, used in the
 * chat composer by typing `/`. Variables such as {{first_name}} and any custom field's {{key}} are
 * filled in when used.
 */
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "./columns";

export const quickMessages = sqliteTable(
  "quick_messages",
  {
    id: id(),
    companyId: text("company_id").notNull(),
    name: text("name").notNull(),
    text: text("text").notNull(),
    mediaKey: text("media_key"),
    mediaMime: text("media_mime"),
    mediaName: text("media_name"),
    mediaSize: integer("media_size"),
    ...timestamps,
  },
  (t) => [
    index("quick_messages_company_name_idx").on(t.companyId, t.name),
    // The name is the composer's `/` shortcut: unique in the company, ignoring case (409 name_in_use).
    uniqueIndex("quick_messages_company_name_uq").on(t.companyId, sql`lower(${t.name})`),
  ],
);

export type QuickMessageRow = typeof quickMessages.$inferSelect;
