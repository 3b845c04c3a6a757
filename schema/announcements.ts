/**
 * Product announcements shown to users (spec §7 GET /me/announcements?code, POST .../seen), written
 * by platform administrators (issue 12; DESIGN.md "Platform administration") through
 * /api/admin/announcements. `code` names where the announcement belongs (e.g. `dashboard`); null
 * shows everywhere (and in the notifications bell). Shown between `startsAt` and `endsAt` (ms UTC,
 * either open) to the `audience`: `all` companies for now (by plan or franchise when those exist).
 */
import { index, primaryKey, sqliteTable, text, integer } from "drizzle-orm/sqlite-core";
import { id } from "./columns";
import { ANNOUNCEMENT_AUDIENCES } from "./validation/announcements";

export const announcements = sqliteTable(
  "announcements",
  {
    id: id(),
    code: text("code"),
    title: text("title").notNull(),
    /** Plain text; links in it are shown as links (never HTML). */
    body: text("body").notNull(),
    /** Optional link the announcement points to. */
    url: text("url"),
    audience: text("audience", { enum: ANNOUNCEMENT_AUDIENCES }).notNull().default("all"),
    /** First moment it is shown (ms UTC), or null: from its creation. */
    startsAt: integer("starts_at"),
    /** Moment it stops being shown (ms UTC, exclusive), or null: until deleted. */
    endsAt: integer("ends_at"),
    /** users.id of the platform administrator who wrote it (null for older rows). */
    createdBy: text("created_by"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull().default(0),
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

export type AnnouncementRow = typeof announcements.$inferSelect;
