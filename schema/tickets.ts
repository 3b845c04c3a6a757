/**
 * Tickets (spec §3 Ticket/chat, §4 Ticket status) and their messages.
 * A ticket is one conversation with a contact over a connection: pending → open → closed. A message
 * after close opens a new ticket; history stays on the contact.
 */
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps, type Json } from "./columns";

export const TICKET_STATUSES = ["pending", "open", "closed"] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export const tickets = sqliteTable(
  "tickets",
  {
    id: id(),
    companyId: text("company_id").notNull(),
    contactId: text("contact_id").notNull(),
    connectionId: text("connection_id").notNull(),
    status: text("status", { enum: TICKET_STATUSES }).notNull(),
    /** Member (members.id) the ticket is assigned to, or null while pending. */
    assignedMemberId: text("assigned_member_id"),
    /** The member who served the ticket last (kept after close: spec "served by"). */
    servedByMemberId: text("served_by_member_id"),
    isGroup: integer("is_group", { mode: "boolean" }).notNull().default(false),
    unreadCount: integer("unread_count").notNull().default(0),
    lastMessageAt: integer("last_message_at").notNull(),
    lastMessagePreview: text("last_message_preview").notNull().default(""),
    /**
     * Goes up by one with every change of the row, whoever writes it (the appends' batches set it;
     * trigger `tickets_version_au` of migration 0012 for every other UPDATE). Ticket answers carry
     * it, so a client keeps the newest of two list entries that reach it out of order (issue 16:
     * a ContactSession and a TicketRoom publish the same ticket's entry to the hub concurrently).
     */
    version: integer("version").notNull().default(0),
    closedAt: integer("closed_at"),
    /** The ad or post the customer came from (WhatsApp `referral`), when the ticket began with one. */
    referral: text("referral", { mode: "json" }).$type<{ [key: string]: Json } | null>(),
    /** When the customer wrote outside the company's operating hours and got the outside-hours answer (issue 12, migration 0013); null otherwise. */
    outsideHoursAt: integer("outside_hours_at"),
    /**
     * Who started the conversation (issue 12, migration 0011; spec's labels "receptive" and
     * "active"): `customer` (their message opened it) or `company` (a broadcast, a flow started by a
     * member or the API, a member).
     */
    origin: text("origin", { enum: ["customer", "company"] }).notNull().default("customer"),
    /** When a member (or the API) first answered a customer's ticket, ms UTC; null until then (dashboard). */
    firstResponseAt: integer("first_response_at"),
    ...timestamps,
  },
  (t) => [
    // The chat list: a company's tickets by status, newest activity first. The id (the list's
    // tie-break) is in the index, so a page is read in order instead of sorting the company
    // (issue 16, migrations/0013_perf.sql).
    index("tickets_company_status_last_id_idx").on(t.companyId, t.status, t.lastMessageAt, t.id),
    index("tickets_company_last_id_idx").on(t.companyId, t.lastMessageAt, t.id),
    // The pipeline finds the contact's open or pending ticket on a connection.
    index("tickets_contact_idx").on(t.contactId, t.connectionId, t.status),
  ],
);

export const MESSAGE_TYPES = [
  "text",
  "image",
  "audio",
  "video",
  "document",
  "sticker",
  "ptv",
  "contact",
  "location",
  "buttons",
  "list",
  "button_reply",
  "list_reply",
  "reaction",
  "order",
  "flow_reply",
  "system",
  "unsupported",
] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

/** Delivery states; a message only moves forward along this order (or to failed). */
export const MESSAGE_STATUSES = ["pending", "sent", "delivered", "read", "failed", "received"] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const messages = sqliteTable(
  "messages",
  {
    id: id(),
    companyId: text("company_id").notNull(),
    ticketId: text("ticket_id").notNull(),
    contactId: text("contact_id").notNull(),
    connectionId: text("connection_id").notNull(),
    /** Provider message id (wamid, mid, sandbox id); null until an outbound message is accepted. */
    externalId: text("external_id"),
    direction: text("direction", { enum: ["in", "out"] }).notNull(),
    type: text("type", { enum: MESSAGE_TYPES }).notNull(),
    body: text("body").notNull().default(""),
    /** Structured content (buttons, list rows, contact card, location...) as JSON. */
    payload: text("payload", { mode: "json" }).$type<{ [key: string]: Json } | null>(),
    mediaKey: text("media_key"),
    mediaMime: text("media_mime"),
    mediaName: text("media_name"),
    mediaSize: integer("media_size"),
    /** Id (messages.id) of the quoted message. */
    quotedId: text("quoted_id"),
    status: text("status", { enum: MESSAGE_STATUSES }).notNull(),
    /** Provider error code and text of a failed message. */
    errorCode: text("error_code"),
    errorMessage: text("error_message"),
    /** Provider timestamp in ms (order key), or the worker's clock for outbound messages. */
    sentAt: integer("sent_at").notNull(),
    /** Arrival order inside the ticket (unique in it: `messages_ticket_seq_uq`); ties on sentAt break by it. */
    seq: integer("seq").notNull(),
    senderMemberId: text("sender_member_id"),
    senderName: text("sender_name"),
    /** Client-generated key of a member's send: a retried request never sends twice. */
    idempotencyKey: text("idempotency_key"),
    deletedAt: integer("deleted_at"),
    /** Set when the sender edited the message (WhatsApp `edit`): the body holds the new text. */
    editedAt: integer("edited_at"),
    /** The provider marked the message as forwarded (`context.forwarded` / `frequently_forwarded`). */
    forwarded: integer("forwarded", { mode: "boolean" }).notNull().default(false),
    /** Reactions on this message: one per reacting side, newest wins; removing one clears it. */
    reactions: text("reactions", { mode: "json" }).$type<MessageReaction[] | null>(),
    /** Provider's detail of a failed message (`errors[].error_data.details`). */
    errorDetails: text("error_details"),
    /** The company API key (api_keys.id) that sent this message, when it came through the public API. */
    apiKeyId: text("api_key_id"),
    ...timestamps,
  },
  (t) => [
    // Meta redelivers for days: one message per provider id and connection.
    uniqueIndex("messages_connection_external_uq").on(t.connectionId, t.externalId),
    uniqueIndex("messages_company_idempotency_uq").on(t.companyId, t.idempotencyKey),
    // The conversation, in the customer's order, paged backwards.
    index("messages_ticket_order_idx").on(t.ticketId, t.sentAt, t.seq),
    // One message per seq in a ticket, whoever writes it (the ticket's room, its contact's session:
    // issue 16); also makes a ticket's highest seq one seek.
    uniqueIndex("messages_ticket_seq_uq").on(t.ticketId, t.seq),
    index("messages_contact_idx").on(t.contactId, t.sentAt),
    // Data cleanup keeps a flow's media that a stored message still shows (issue 12, migration 0013).
    index("messages_media_idx").on(t.mediaKey),
  ],
);

/** One reaction on a message: who reacted (`contact` or a member id), the emoji and when (ms UTC). */
export type MessageReaction = { from: string; emoji: string; at: number };

export type TicketRow = typeof tickets.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;

/**
 * Status reports that arrived before the send answered with the provider's id (Meta may report
 * `sent` before its send call returns). Applied, then deleted, once the id is known.
 */
export const orphanStatuses = sqliteTable(
  "orphan_statuses",
  {
    connectionId: text("connection_id").notNull(),
    externalId: text("external_id").notNull(),
    status: text("status", { enum: MESSAGE_STATUSES }).notNull(),
    timestamp: integer("timestamp").notNull(),
    errorCode: text("error_code"),
    errorMessage: text("error_message"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("orphan_statuses_lookup_idx").on(t.connectionId, t.externalId)],
);
