/**
 * Custom events a flow's action block records for a contact (issue 5 "action ... records custom
 * events"): a name, the contact, when (ms UTC) and which flow recorded it.
 */
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { id } from "./columns";

export const customEvents = sqliteTable(
  "custom_events",
  {
    id: id(),
    companyId: text("company_id").notNull(),
    contactId: text("contact_id").notNull(),
    name: text("name").notNull(),
    /** flows.id of the run that recorded it, or null. */
    flowId: text("flow_id"),
    at: integer("at").notNull(),
  },
  (t) => [
    // A contact's events, newest first.
    index("custom_events_contact_idx").on(t.companyId, t.contactId, t.at),
    // "Who did X since …" by event name.
    index("custom_events_name_idx").on(t.companyId, t.name, t.at),
  ],
);

export type CustomEventRow = typeof customEvents.$inferSelect;
