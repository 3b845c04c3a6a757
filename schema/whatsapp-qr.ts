/**
 * WhatsApp by QR code (issue 15, channel `whatsapp-qr`): the Evolution API v2 instance behind each
 * such connection. Source: shared/reference/wire-formats-wave2.md §1.
 *
 * The webhook URL Evolution posts to carries a per-connection secret in its path
 * (`/api/channels/evolution/webhook/<secret>`); only its SHA-256 is kept. A connection may name its
 * own Evolution server and key instead of the global EVOLUTION_API_URL / EVOLUTION_API_KEY; both are
 * encrypted at rest (AES-GCM, worker/lib/secrets.ts) and never returned. The instance token
 * Evolution answers on create (`hash`) is kept encrypted too.
 */
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { timestamps } from "./columns";

export const whatsappQrInstances = sqliteTable(
  "whatsapp_qr_instances",
  {
    /** connections.id of the `whatsapp-qr` connection (one instance per connection). */
    connectionId: text("connection_id").primaryKey(),
    companyId: text("company_id").notNull(),
    /** The Evolution instance name (`instanceName`), unique on the server: `conversa-<connection id>`. */
    instanceName: text("instance_name").notNull(),
    /** SHA-256 hex of the webhook path secret. */
    webhookSecretHash: text("webhook_secret_hash").notNull(),
    /** This connection's own Evolution server URL, encrypted; null: EVOLUTION_API_URL. */
    apiUrlEnc: text("api_url_enc"),
    /** This connection's own Evolution API key, encrypted; null: EVOLUTION_API_KEY. */
    apiKeyEnc: text("api_key_enc"),
    /** The QR value of the latest QRCODE_UPDATED (what the pairing dialog shows), and its pairing code. */
    qrCode: text("qr_code"),
    pairingCode: text("pairing_code"),
    /** When that QR arrived (ms UTC). */
    qrAt: integer("qr_at"),
    ...timestamps,
  },
  (t) => [
    // Webhooks are routed by the path secret's hash.
    uniqueIndex("whatsapp_qr_instances_secret_uq").on(t.webhookSecretHash),
    // One instance name per Evolution server; names are made from connection ids.
    uniqueIndex("whatsapp_qr_instances_name_uq").on(t.instanceName),
    index("whatsapp_qr_instances_company_idx").on(t.companyId),
  ],
);

export type WhatsappQrInstanceRow = typeof whatsappQrInstances.$inferSelect;
