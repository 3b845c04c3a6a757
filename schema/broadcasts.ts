/**
 * Broadcasts (issue 10 "Broadcasts"; spec §3 Broadcast, §4 Broadcast status): a mass send that
 * starts one flow for every contact its filters match, on one connection, at a delay preset's pace.
 * Each broadcast is driven by its own BroadcastScheduler Durable Object
 * (worker/durable-objects/broadcast-scheduler.ts); D1 holds what the screens list.
 *
 * - `broadcasts`: the broadcast, its status and its live counts;
 * - `broadcast_recipients`: the contacts it reaches, listed (materialised) when it starts, each with
 *   its state (`pending` → `sending` → `sent` | `rejected`), the reason of a rejection and the
 *   idempotency key (`run_id`: the id of the flow run started for it) committed before the send;
 * - `connection_send_limits`: per connection, WhatsApp's limits (throughput in messages/s, the
 *   messaging tier's daily count of unique users outside a service window) and the pacer every
 *   broadcast of the connection takes its turn from (`last_send_at`, a lease while a send is under
 *   way), so two sends of one connection never overlap.
 */
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "./columns";
import type { BroadcastDelay, BroadcastFilter, BroadcastStatus, BroadcastTemplate, RecipientStatus, RejectReason } from "./validation/broadcasts";

export const broadcasts = sqliteTable(
  "broadcasts",
  {
    id: id(),
    companyId: text("company_id").notNull(),
    name: text("name").notNull(),
    /** connections.id of the same company: where the messages go out. */
    connectionId: text("connection_id").notNull(),
    /** flows.id of the same company, published: started for every recipient. */
    flowId: text("flow_id").notNull(),
    delay: text("delay").$type<BroadcastDelay>().notNull(),
    /** ms UTC the broadcast starts by itself, or null (started by a member). */
    scheduledDate: integer("scheduled_date"),
    filters: text("filters", { mode: "json" }).$type<BroadcastFilter[]>().notNull(),
    /** The approved WhatsApp template sent first (outside the 24 h window), or null. */
    template: text("template", { mode: "json" }).$type<BroadcastTemplate | null>(),
    status: text("status").$type<BroadcastStatus>().notNull(),
    /** How many recipients were listed at start (null until then). */
    total: integer("total"),
    sentCount: integer("sent_count").notNull().default(0),
    rejectedCount: integer("rejected_count").notNull().default(0),
    startedAt: integer("started_at"),
    finishedAt: integer("finished_at"),
    ...timestamps,
  },
  (t) => [
    // The current and history tabs list a company's broadcasts newest first (keyset on created_at, id).
    index("broadcasts_company_created_idx").on(t.companyId, t.createdAt, t.id),
  ],
);

export const broadcastRecipients = sqliteTable(
  "broadcast_recipients",
  {
    broadcastId: text("broadcast_id").notNull(),
    contactId: text("contact_id").notNull(),
    companyId: text("company_id").notNull(),
    connectionId: text("connection_id").notNull(),
    status: text("status").$type<RecipientStatus>().notNull().default("pending"),
    reason: text("reason").$type<RejectReason>(),
    detail: text("detail"),
    /** The idempotency key of the send: the id of the flow run started for this recipient. */
    runId: text("run_id"),
    /** 1 when it was reached outside a customer service window (counts toward the messaging tier). */
    outsideWindow: integer("outside_window").notNull().default(0),
    /** When the send was committed (ms UTC). */
    sendingAt: integer("sending_at"),
    /** When the broadcast's template went out to it (outside the window; ms UTC), so a retry does not send it again. */
    templateSentAt: integer("template_sent_at"),
    /** When it was sent or rejected (ms UTC). */
    doneAt: integer("done_at"),
    /** When the contact's first reply was routed to the connection's campaign flow (ms UTC). */
    repliedAt: integer("replied_at"),
  },
  (t) => [
    primaryKey({ columns: [t.broadcastId, t.contactId] }),
    // The scheduler and the recipients list page a broadcast's recipients of one state by contact id.
    index("broadcast_recipients_status_idx").on(t.broadcastId, t.status, t.contactId),
    // A contact's last broadcast: the `last_campaign` field and replies routed to the campaign flow.
    index("broadcast_recipients_contact_idx").on(t.companyId, t.contactId, t.doneAt),
    // The messaging tier: unique users reached outside a window on a connection in the last 24 h.
    index("broadcast_recipients_tier_idx").on(t.connectionId, t.outsideWindow, t.doneAt),
  ],
);

export const connectionSendLimits = sqliteTable("connection_send_limits", {
  connectionId: text("connection_id").primaryKey(),
  companyId: text("company_id").notNull(),
  /** Messages per second the number may send (Meta: 80 by default, 1,000 after an upgrade). */
  throughputMps: integer("throughput_mps").notNull().default(80),
  /** Unique users per moving 24 h reachable outside a service window (the messaging tier); null: not read yet. */
  dailyLimit: integer("daily_limit"),
  /** The tier as Meta names it (e.g. `TIER_250`, `TIER_1K`, `TIER_UNLIMITED`), for the connection's screen. */
  tier: text("tier"),
  /** When the tier was last read from the Graph API (ms UTC). */
  checkedAt: integer("checked_at"),
  /** The pacer: when the connection's last broadcast send was handed off (ms UTC). */
  lastSendAt: integer("last_send_at").notNull().default(0),
  /** The pacer's lease: a broadcast send of the connection is under way until then (ms UTC; 0: none). */
  leaseUntil: integer("lease_until").notNull().default(0),
  /** Who holds the lease (a random id kept by the scheduler that took it). */
  leaseId: text("lease_id"),
  updatedAt: integer("updated_at").notNull(),
});

export type BroadcastRow = typeof broadcasts.$inferSelect;
export type BroadcastRecipientRecord = typeof broadcastRecipients.$inferSelect;
export type ConnectionSendLimitsRow = typeof connectionSendLimits.$inferSelect;
