/**
 * Tags (spec §3 Tag) and their links to contacts. Names are unique per company and kind
 * (409 name_in_use 'This name is already in use.').
 */
import { index, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "./columns";

export const TAG_KINDS = ["contact"] as const;

export const tags = sqliteTable(
  "tags",
  {
    id: id(),
    companyId: text("company_id").notNull(),
    name: text("name").notNull(),
    /** `#rrggbb`. */
    color: text("color").notNull(),
    kind: text("kind", { enum: TAG_KINDS }).notNull().default("contact"),
    ...timestamps,
  },
  (t) => [uniqueIndex("tags_company_kind_name_uq").on(t.companyId, t.kind, t.name)],
);

export const contactTags = sqliteTable(
  "contact_tags",
  {
    companyId: text("company_id").notNull(),
    contactId: text("contact_id").notNull(),
    tagId: text("tag_id").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.contactId, t.tagId] }),
    // The tag filter of the contact list and "who has this tag".
    index("contact_tags_tag_idx").on(t.companyId, t.tagId, t.contactId),
  ],
);

export type TagRow = typeof tags.$inferSelect;
