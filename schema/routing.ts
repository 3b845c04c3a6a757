import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * How many times the data a customer message's routing reads has changed, by scope (issue 16, the
 * ContactSession's routing snapshot): `company:<company id>` counts changes to the company's
 * keywords, operating hours and time zone, opt-out words, connections, connections' default flows
 * and event subscriptions; `contact:<contact id>` counts changes to the contact's routing fields,
 * its identities and its tickets' status or place. Kept only by the triggers of migration
 * 0010_routing_epochs, never by the product's code, so no route can forget one; a scope with no
 * row has never changed (epoch 0). A ContactSession routes a message on the snapshot of its last
 * read batch, and the message's insert checks, in the same statement, that no epoch it read moved
 * (worker/durable-objects/contact-session.ts "Routing snapshot").
 */
export const routingEpochs = sqliteTable("routing_epochs", {
  scope: text("scope").primaryKey(),
  epoch: integer("epoch").notNull(),
});
