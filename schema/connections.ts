/**
 * A connection to a channel (spec §3 Connection): a WhatsApp number (Cloud API), the built-in
 * sandbox phone, later Instagram. Status `CONNECTED` means connected; anything else counts as
 * disconnected (spec §3).
 */
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "./columns";

export const CHANNELS = ["sandbox", "whatsapp-cloud", "instagram"] as const;
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
    // Webhooks are routed by phone_number_id; one connection per Cloud API number.
    uniqueIndex("connections_phone_number_id_uq").on(t.phoneNumberId),
    // The simulator pushes with its device token; the code lookup finds the pairing connection.
    index("connections_device_token_idx").on(t.deviceTokenHash),
    index("connections_pairing_code_idx").on(t.pairingCodeHash),
  ],
);

export type ConnectionRow = typeof connections.$inferSelect;
