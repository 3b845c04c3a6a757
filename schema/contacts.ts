/**
 * A company's customer (spec §3 Contact) and the channel identities it is known by. Meta warns
 * that a WhatsApp `wa_id` and the phone number may differ, so identities live in their own table
 * and are never folded into the phone column.
 */
import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps, type Json } from "./columns";
import { CHANNELS } from "./connections";

export const contacts = sqliteTable(
  "contacts",
  {
    id: id(),
    companyId: text("company_id").notNull(),
    name: text("name").notNull(),
    /** E.164 or null (an Instagram-only contact has no phone). Unique per company. */
    phone: text("phone"),
    email: text("email"),
    document: text("document"),
    /** R2 key of the profile picture, or null. */
    imageKey: text("image_key"),
    /** ms UTC of the last inbound or outbound message. */
    lastMessageAt: integer("last_message_at"),
    /** CRM board placement: the column (crm_columns.id) and the order inside it. */
    crmColumnId: text("crm_column_id"),
    crmPosition: real("crm_position"),
    /** The last ad or post the contact came from (WhatsApp `referral`), JSON. */
    referral: text("referral", { mode: "json" }).$type<{ [key: string]: Json } | null>(),
    /**
     * ms UTC when the contact answered one of the company's stop words (issue 10 "Opt-out"); null
     * while subscribed. Broadcasts reject opted-out contacts and they leave every shipping cycle.
     */
    optedOutAt: integer("opted_out_at"),
    ...timestamps,
  },
  (t) => [
    // Spec §5: a contact's phone number is unique in the company.
    uniqueIndex("contacts_company_phone_uq").on(t.companyId, t.phone),
    // Keyset pages of the contact list (newest first) and name search.
    index("contacts_company_created_idx").on(t.companyId, t.createdAt, t.id),
    index("contacts_company_name_idx").on(t.companyId, t.name),
    index("contacts_company_email_idx").on(t.companyId, t.email),
    // The CRM board reads a column's contacts in order.
    index("contacts_crm_idx").on(t.companyId, t.crmColumnId, t.crmPosition),
  ],
);

export const contactIdentities = sqliteTable(
  "contact_identities",
  {
    id: id(),
    companyId: text("company_id").notNull(),
    contactId: text("contact_id").notNull(),
    channel: text("channel", { enum: CHANNELS }).notNull(),
    /** wa_id, Instagram-scoped id, or the sandbox phone. */
    externalId: text("external_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    // The pipeline resolves an inbound sender by (company, channel, external id).
    uniqueIndex("contact_identities_uq").on(t.companyId, t.channel, t.externalId),
    index("contact_identities_contact_idx").on(t.contactId),
  ],
);

export type ContactRow = typeof contacts.$inferSelect;
export type ContactIdentityRow = typeof contactIdentities.$inferSelect;
