/**
 * Product announcements shown to users (spec §7 GET /me/announcements?code, POST .../seen).
 * `code` names where the announcement belongs (e.g. `dashboard`); null shows everywhere.
 */
import { index, primaryKey, sqliteTable, text, integer } from "drizzle-orm/sqlite-core";
import { id } from "./columns";

export const announcements = sqliteTable(
  "announcements",
  {
    id: id(),
    code: text("code"),
    title: text("title").notNull(),
    body: text("body").notNull(),
    /** Optional link the announcement points to. */
    url: text("url"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("announcements_code_idx").on(t.code, t.createdAt)],
);

export const announcementSeen = sqliteTable(
  "announcement_seen",
  {
    userId: text("user_id").notNull(),
    announcementId: text("announcement_id").notNull(),
    seenAt: integer("seen_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.announcementId] })],
);
