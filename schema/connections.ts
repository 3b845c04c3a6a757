/**
 * A connection to a channel (spec §3 Connection): a WhatsApp number (Cloud API), the built-in
 * sandbox phone, later Instagram. Status `CONNECTED` means connected; anything else counts as
 * disconnected (spec §3).
 */
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "./columns";

export const CHANNELS = ["sandbox", "whatsapp-cloud", "instagram", "whatsapp-qr"] as const;
export type Channel = (typeof CHANNELS)[number];

export const CONNECTION_STATUSES = ["CONNECTED", "DISCONNECTED", "PAIRING"] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

export const connections = sqliteTable(
  "connections",
  {
    id: id(),
    companyId: text("company_id").notNull(),
    name: text("name").notNull(),
    channel: text("channel", { enum: CHANNELS }).notNull(),
    /** E.164 of the business number, when known. */
    phone: text("phone"),
    greetingMessage: text("greeting_message").notNull().default(""),
    farewellMessage: text("farewell_message").notNull().default(""),
    status: text("status", { enum: CONNECTION_STATUSES }).notNull(),
    /** WhatsApp Cloud API: the phone number id webhooks are routed by. */
    phoneNumberId: text("phone_number_id"),
    wabaId: text("waba_id"),
    /** AES-GCM ciphertext (base64 iv + data) of the Cloud API access token; never returned. */
    accessTokenEnc: text("access_token_enc"),
    /** Last four characters of the token, for the masked hint. */
    accessTokenHint: text("access_token_hint"),
    /** Cloud API: what the Graph API answered for the number when the token proved it. */
    displayPhoneNumber: text("display_phone_number"),
    verifiedName: text("verified_name"),
    /** Meta's quality rating of the number: GREEN, YELLOW, RED, UNKNOWN. */
    qualityRating: text("quality_rating"),
    /** Provider events this connection received that the parser could not place (rejected_events). */
    rejectedCount: integer("rejected_count").notNull().default(0),
    /** Sandbox pairing: SHA-256 of the current pairing secret and its expiry (ms UTC). */
    pairingSecretHash: text("pairing_secret_hash"),
    pairingCodeHash: text("pairing_code_hash"),
    pairingExpiresAt: integer("pairing_expires_at"),
    /** Sandbox: the device token the paired simulator uses to push events. */
    deviceTokenHash: text("device_token_hash"),
    ...timestamps,
  },
  (t) => [
    index("connections_company_idx").on(t.companyId),
    // Connection names are unique in the company, ignoring case (409 name_in_use).
    uniqueIndex("connections_company_name_uq").on(t.companyId, sql`lower(${t.name})`),
    // Webhooks are routed by phone_number_id; one connection per Cloud API number.
    uniqueIndex("connections_phone_number_id_uq").on(t.phoneNumberId),
    // The simulator pushes with its device token; the code lookup finds the pairing connection.
    index("connections_device_token_idx").on(t.deviceTokenHash),
    index("connections_pairing_code_idx").on(t.pairingCodeHash),
  ],
);

export type ConnectionRow = typeof connections.$inferSelect;

/**
 * Provider events that arrived signed and valid but could not be placed (an unknown shape, a
 * message with no identity the pipeline can use, ...). Kept, never dropped in silence: the raw
 * payload in R2 (`payload_key`), the reason, the time of receipt. Listed on the connection.
 */
export const rejectedEvents = sqliteTable(
  "rejected_events",
  {
    id: id(),
    /** Null when the event could not even be routed to a company (unknown phone number id). */
    companyId: text("company_id"),
    connectionId: text("connection_id"),
    channel: text("channel", { enum: CHANNELS }).notNull(),
    /** Machine-readable reason, e.g. `no_sender_identity`, `unknown_message_type`. */
    reason: text("reason").notNull(),
    /** Human-readable detail (English, for the connection's event list). */
    detail: text("detail").notNull().default(""),
    /** R2 key of the raw payload (JSON bytes as received). */
    payloadKey: text("payload_key").notNull(),
    payloadSize: integer("payload_size").notNull(),
    /** Time of receipt, ms UTC. */
    receivedAt: integer("received_at").notNull(),
  },
  (t) => [
    index("rejected_events_connection_idx").on(t.connectionId, t.receivedAt),
    index("rejected_events_company_idx").on(t.companyId, t.receivedAt),
  ],
);

export type RejectedEventRow = typeof rejectedEvents.$inferSelect;
