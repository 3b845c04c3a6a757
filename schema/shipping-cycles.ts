/**
 * Shipping cycles and WhatsApp message templates (issue 10; spec §2 /shipping-cycle, §3 Shipping
 * cycle, §9 cycle units).
 *
 * - `shipping_cycles`: a company's timed sequences: ordered steps `{flowId, wait: {value, unit}}`;
 *   each step starts its flow `wait` after the last action of the previous step's flow (the first:
 *   after enrolment; worker/durable-objects/cycle-scheduler.ts).
 *   Enrolments and their timers live in the company's CycleScheduler Durable Object
 *   (worker/durable-objects/cycle-scheduler.ts), not here: it is their one source of truth.
 * - `connection_templates`: the message templates of a WhatsApp Cloud connection's Business
 *   Account as last read from the Graph API (`GET /{waba-id}/message_templates`), one row per
 *   connection, replaced whole on every sync.
 */
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "./columns";
import type { CycleWait } from "./validation/shipping-cycles";
import type { TemplateAnswer } from "./validation/templates";

/** One stored step: the flow (flows.id of the same company) and the wait before it. */
export type CycleStep = { flowId: string; wait: CycleWait };

export const shippingCycles = sqliteTable(
  "shipping_cycles",
  {
    id: id(),
    companyId: text("company_id").notNull(),
    name: text("name").notNull(),
    /** Off: every enrolment is held (no step runs) until it is on again. */
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    /** JSON CycleStep[] in order (1..50). */
    steps: text("steps", { mode: "json" }).$type<CycleStep[]>().notNull(),
    ...timestamps,
  },
  (t) => [
    // The list screen reads a company's cycles by name.
    index("shipping_cycles_company_idx").on(t.companyId, t.name),
    // Cycle names are unique in the company, ignoring case (409 name_in_use).
    uniqueIndex("shipping_cycles_company_name_uq").on(t.companyId, sql`lower(${t.name})`),
  ],
);

export type ShippingCycleRow = typeof shippingCycles.$inferSelect;

export const connectionTemplates = sqliteTable(
  "connection_templates",
  {
    /** connections.id (a WhatsApp Cloud connection). */
    connectionId: text("connection_id").primaryKey(),
    companyId: text("company_id").notNull(),
    /** JSON TemplateAnswer[] as read from Meta, by name then language. */
    templates: text("templates", { mode: "json" }).$type<TemplateAnswer[]>().notNull(),
    /** When the list was read from the Graph API, ms UTC. */
    syncedAt: integer("synced_at").notNull(),
  },
  // Every read is by company and connection.
  (t) => [index("connection_templates_company_idx").on(t.companyId, t.connectionId)],
);

export type ConnectionTemplatesRow = typeof connectionTemplates.$inferSelect;
