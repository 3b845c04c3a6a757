/**
 * WhatsApp by QR code through Evolution API v2 (issue 15; channel `whatsapp-qr`): a WhatsApp Web
 * session (Baileys) held by an Evolution server, one Evolution instance per connection. A Worker
 * cannot hold that session itself; Evolution does, and talks to us over REST (header `apikey`) and
 * webhooks. Contract: shared/reference/wire-formats-wave2.md §1 (EvolutionAPI/evolution-api 2.3.6).
 *
 * - Creating a connection creates the instance (`POST /instance/create`, Baileys, `qrcode: true`)
 *   with our webhook `<PUBLIC_URL>/api/channels/evolution/webhook/<secret>` and the events we read;
 *   the secret is per connection, only its SHA-256 is stored, and a delivery whose path secret
 *   matches no connection answers 401 (nothing stored). Evolution signs nothing: the secret URL is
 *   the authentication.
 * - Pairing: `GET /instance/connect/{instance}?number=` answers the QR value and, for the
 *   connection's phone, the pairing code; QRCODE_UPDATED stores the new QR and tells the company hub
 *   (`connection.pairing`) so an open dialog asks again; CONNECTION_UPDATE flips the status.
 * - Disconnecting logs the instance out (`DELETE /instance/logout/{instance}`); deleting the
 *   connection deletes the instance (`DELETE /instance/delete/{instance}`).
 * - Server and key: EVOLUTION_API_URL / EVOLUTION_API_KEY, or the connection's own (encrypted in
 *   whatsapp_qr_instances, never returned).
 * Every Evolution answer is parsed with zod before use.
 */
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { connections, whatsappQrInstances, type ConnectionRow, type WhatsappQrInstanceRow } from "../../schema";
import type { AppEnv } from "../env";
import { randomToken, sha256Hex, timingSafeEqual } from "../lib/crypto";
import { getDb } from "../lib/db";
import { setConnectionStatus } from "../lib/connections";
import { AppError, unauthorized } from "../lib/errors";
import { injectedSendFailure } from "../lib/faults";
import { hubOf } from "../lib/realtime";
import { decryptSecret, encryptSecret } from "../lib/secrets";
import { asNumberedMenu } from "../flows/numbered-menu";
import { evolutionEnvelope, parseEvolutionEvent } from "./evolution-parse";
import { recordPhoneSends } from "./evolution-phone";
import type { ChannelAdapter, ChannelCapabilities, OutboundMessage, PairingChallenge, Recipient, SendResult } from "./types";

/**
 * WhatsApp Web (Baileys) through Evolution: no reply buttons or lists (WhatsApp does not show them
 * to unofficial clients; the flow engine sends a numbered menu instead), no templates; presence and
 * quoted replies work.
 */
export const EVOLUTION_CAPABILITIES: ChannelCapabilities = { buttons: false, lists: false, templates: false, presence: true, quotedReplies: true };

/** The events the instance's webhook sends us (config names; wire-formats-wave2.md §1.5). */
export const EVOLUTION_EVENTS = ["QRCODE_UPDATED", "CONNECTION_UPDATE", "MESSAGES_UPSERT", "MESSAGES_UPDATE", "MESSAGES_DELETE"] as const;

/** How long a shown QR counts as current (ms); Baileys renews it every 20-60 s and says so by QRCODE_UPDATED. */
export const QR_TTL_MS = 30_000;

/** How long one Evolution call may take (ms); `create` and `connect` wait a few seconds on the server's side. */
const EVOLUTION_TIMEOUT_MS = 20_000;

/** Largest webhook body read (bytes): one message per POST, media by reference (base64 off). */
const MAX_WEBHOOK_BYTES = 2 * 1024 * 1024;

/** The webhook path prefix; the connection's secret follows it. */
export const EVOLUTION_WEBHOOK_PATH = "/api/channels/evolution/webhook/";

/** Where and how to call the Evolution server of one connection. */
type Server = { url: string; key: string };

/** Evolution's error body: `{status, error, response: {message: [...]}}`. */
const errorAnswer = z.looseObject({ status: z.number().optional(), error: z.unknown().optional(), response: z.looseObject({ message: z.unknown() }).optional() });
const qrAnswer = z.looseObject({ code: z.string().min(1), pairingCode: z.string().nullish(), count: z.number().optional() });
const openAnswer = z.looseObject({ instance: z.looseObject({ state: z.string() }) });
const createAnswer = z.looseObject({
  instance: z.looseObject({ instanceName: z.string(), status: z.string().optional() }),
  qrcode: z.looseObject({ code: z.string().nullish(), pairingCode: z.string().nullish() }).nullish(),
});
const sendAnswer = z.looseObject({ key: z.looseObject({ id: z.string().min(1) }) });
const mediaAnswer = z.looseObject({ base64: z.string().min(1), mimetype: z.string().nullish() });

/** The instance name of a connection on the Evolution server. */
export function instanceNameOf(connectionId: string): string {
  return `conversa-${connectionId}`;
}

/** Text of Evolution's error answer (`response.message`, possibly an array of strings or lookup objects). */
function errorText(body: unknown, status: number): string {
  const parsed = errorAnswer.safeParse(body);
  const message = parsed.success ? parsed.data.response?.message : undefined;
  const text = Array.isArray(message) ? message.map((m) => (typeof m === "string" ? m : JSON.stringify(m))).join("; ") : typeof message === "string" ? message : "";
  return (text || `HTTP ${status}`).slice(0, 500);
}

/** Whether Evolution's 400 says the number is not on WhatsApp (`[{jid, exists: false, number}]`). */
function notOnWhatsApp(body: unknown): boolean {
  const parsed = errorAnswer.safeParse(body);
  const message = parsed.success ? parsed.data.response?.message : undefined;
  return Array.isArray(message) && message.some((m) => typeof m === "object" && m !== null && "exists" in m && m.exists === false);
}

/** One Evolution call; answers the status and the parsed JSON body (null when not JSON). Throws only when the server cannot be reached. */
async function call(server: Server, method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${server.url.replace(/\/+$/, "")}${path}`, {
    method,
    headers: { apikey: server.key, ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(EVOLUTION_TIMEOUT_MS),
  });
  const text = await response.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: response.status, body: json };
}

const unavailable = () => new AppError("provider_unavailable", "The Evolution API server could not be reached; nothing was changed. Try again in a moment.");

/** The instance row of a connection (null when it has none, e.g. removed). */
async function instanceOf(env: AppEnv, connectionId: string): Promise<WhatsappQrInstanceRow | undefined> {
  return getDb(env.DB).query.whatsappQrInstances.findFirst({ where: eq(whatsappQrInstances.connectionId, connectionId) });
}

/** The Evolution server of an instance row: its own URL and key, else the global settings. Throws 400 when neither is set. */
async function serverOf(env: AppEnv, secretsKey: string, row: Pick<WhatsappQrInstanceRow, "apiUrlEnc" | "apiKeyEnc"> | undefined): Promise<Server> {
  const url = row?.apiUrlEnc ? await decryptSecret(secretsKey, row.apiUrlEnc) : (env.EVOLUTION_API_URL ?? "");
  const key = row?.apiKeyEnc ? await decryptSecret(secretsKey, row.apiKeyEnc) : (env.EVOLUTION_API_KEY ?? "");
  if (!url || !key) {
    throw new AppError("validation_failed", "No Evolution API server is configured: set EVOLUTION_API_URL and EVOLUTION_API_KEY, or give this connection its own.", {
      evolutionUrl: "required",
    });
  }
  return { url, key };
}

/** What creating a `whatsapp-qr` connection needs. */
export type EvolutionInstanceInput = {
  connectionId: string;
  companyId: string;
  /** The business number (E.164), when known: Evolution then also answers a pairing code. */
  phone: string | null;
  /** This connection's own server and key (else the global settings). */
  apiUrl?: string;
  apiKey?: string;
  /** Base of our webhook URL when PUBLIC_URL is unset (the request's origin). */
  origin: string;
};

/**
 * Creates the connection's Evolution instance (`POST /instance/create`, Baileys, `qrcode: true`,
 * webhook with a fresh per-connection secret and EVOLUTION_EVENTS) and answers the row to store in
 * whatsapp_qr_instances (the caller inserts it with the connection). Errors: 400 naming
 * `evolutionUrl` when no server is configured, `evolutionApiKey` when the server refuses the key,
 * `name` when the instance name is taken; 502 `provider_unavailable` when it cannot be reached or
 * fails.
 */
export async function createEvolutionInstance(env: AppEnv, secretsKey: string, input: EvolutionInstanceInput): Promise<WhatsappQrInstanceRow> {
  const own = {
    apiUrlEnc: input.apiUrl ? await encryptSecret(secretsKey, input.apiUrl) : null,
    apiKeyEnc: input.apiKey ? await encryptSecret(secretsKey, input.apiKey) : null,
  };
  const server = await serverOf(env, secretsKey, own);
  const secret = randomToken(32);
  const instanceName = instanceNameOf(input.connectionId);
  const base = (env.PUBLIC_URL || input.origin).replace(/\/+$/, "");
  const digits = input.phone?.replace(/\D/g, "") ?? "";
  let answer: { status: number; body: unknown };
  try {
    answer = await call(server, "POST", "/instance/create", {
      instanceName,
      integration: "WHATSAPP-BAILEYS",
      qrcode: true,
      ...(digits ? { number: digits } : {}),
      webhook: { url: `${base}${EVOLUTION_WEBHOOK_PATH}${secret}`, byEvents: false, base64: false, events: [...EVOLUTION_EVENTS] },
    });
  } catch {
    throw unavailable();
  }
  if (answer.status === 401) throw new AppError("validation_failed", "The Evolution API server refused the API key.", { evolutionApiKey: "rejected" });
  if (answer.status === 403) throw new AppError("validation_failed", "The Evolution API server already has an instance of this name.", { name: "instance_in_use" });
  const created = createAnswer.safeParse(answer.body);
  if (answer.status >= 300 || !created.success) throw new AppError("provider_unavailable", `The Evolution API server did not create the instance: ${errorText(answer.body, answer.status)}`);
  const at = Date.now();
  return {
    connectionId: input.connectionId,
    companyId: input.companyId,
    instanceName,
    webhookSecretHash: await sha256Hex(secret),
    ...own,
    qrCode: created.data.qrcode?.code ?? null,
    pairingCode: created.data.qrcode?.pairingCode ?? null,
    qrAt: created.data.qrcode?.code ? at : null,
    createdAt: at,
    updatedAt: at,
  };
}

/** Best-effort deletion of an instance whose connection could not be stored (never throws). */
export async function dropEvolutionInstance(env: AppEnv, secretsKey: string, row: WhatsappQrInstanceRow): Promise<void> {
  try {
    await call(await serverOf(env, secretsKey, row), "DELETE", `/instance/delete/${encodeURIComponent(row.instanceName)}`);
  } catch (error) {
    console.warn("[evolution] could not delete instance", row.instanceName, error);
  }
}

/** Evolution's `number`: the contact's phone digits, a group or LID JID as it is. */
function numberOf(to: Recipient): string {
  if (to.externalId.includes("@")) return to.externalId;
  if (/^\d{6,20}$/.test(to.externalId)) return to.externalId;
  return (to.phone ?? to.externalId).replace(/\D/g, "");
}

/** The JID of a recipient (markMessageAsRead needs it). */
function jidOf(to: Recipient): string {
  const number = numberOf(to);
  return number.includes("@") ? number : `${number}@s.whatsapp.net`;
}

/** The send endpoint and body of one outbound message (buttons and lists as a numbered menu; a link as text). */
function sendRequest(number: string, message: OutboundMessage): { action: string; body: Record<string, unknown> } {
  const quoted = "quotedExternalId" in message && message.quotedExternalId ? { quoted: { key: { id: message.quotedExternalId } } } : {};
  switch (message.type) {
    case "text":
      return { action: "sendText", body: { number, text: message.body, ...quoted } };
    case "buttons":
    case "list": {
      const menu = asNumberedMenu(message);
      return { action: "sendText", body: { number, text: menu.type === "text" ? menu.body : "" } };
    }
    case "link":
      return { action: "sendText", body: { number, text: [message.body, `${message.buttonText}: ${message.url}`].filter((s) => s.trim()).join("\n\n") } };
    case "contact": {
      const digits = message.contact.phone.replace(/\D/g, "");
      return {
        action: "sendContact",
        body: { number, contact: [{ fullName: message.contact.name, wuid: digits, phoneNumber: message.contact.phone, ...(message.contact.organization ? { organization: message.contact.organization } : {}) }] },
      };
    }
    case "audio":
      // A voice note (PTT): Evolution converts it to OGG/Opus.
      return { action: "sendWhatsAppAudio", body: { number, audio: message.media.url, ...quoted } };
    case "sticker":
      return { action: "sendSticker", body: { number, sticker: message.media.url } };
    case "ptv":
      return { action: "sendPtv", body: { number, video: message.media.url } };
    case "image":
    case "video":
    case "document":
      return {
        action: "sendMedia",
        body: {
          number,
          mediatype: message.type,
          media: message.media.url,
          mimetype: message.media.mime,
          ...(message.caption ? { caption: message.caption } : {}),
          ...(message.media.fileName ? { fileName: message.media.fileName } : {}),
          ...quoted,
        },
      };
  }
}

/** Constant-time comparison of two hex digests. */
function sameHash(a: string, b: string): boolean {
  const encoder = new TextEncoder();
  return timingSafeEqual(encoder.encode(a), encoder.encode(b));
}

/** The adapter of `whatsapp-qr` connections. `secretsKey` decrypts per-connection servers and keys. */
export function evolutionAdapter(env: AppEnv, secretsKey: string): ChannelAdapter {
  async function serverFor(connection: Pick<ConnectionRow, "id">): Promise<{ server: Server; instance: WhatsappQrInstanceRow }> {
    const instance = await instanceOf(env, connection.id);
    if (!instance) throw new AppError("validation_failed", "This connection has no Evolution instance; delete it and create it again.", { channel: "no_instance" });
    return { server: await serverOf(env, secretsKey, instance), instance };
  }

  const adapter: ChannelAdapter = {
    channel: "whatsapp-qr",
    capabilities: EVOLUTION_CAPABILITIES,

    /**
     * One Evolution webhook: the path's secret names the connection (401 when none has it, nothing
     * stored); a body that is not an Evolution envelope, or one of another instance, answers 400.
     * A new QR is stored and announced on the company hub; messages sent on the phone are stored
     * as the company's; the rest goes to the pipeline as events of the connection.
     */
    async receive(request: Request) {
      const secret = new URL(request.url).pathname.split("/").pop() ?? "";
      if (!/^[A-Za-z0-9_-]{16,128}$/.test(secret)) throw unauthorized("Unknown webhook.");
      const hash = await sha256Hex(secret);
      const db = getDb(env.DB);
      const instance = await db.query.whatsappQrInstances.findFirst({ where: eq(whatsappQrInstances.webhookSecretHash, hash) });
      if (!instance || !sameHash(instance.webhookSecretHash, hash)) throw unauthorized("Unknown webhook.");
      const text = await request.text();
      if (text.length > MAX_WEBHOOK_BYTES) throw new AppError("payload_too_large", "The webhook body is too large.");
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new AppError("validation_failed", "Malformed JSON body.", { _: "invalid_json" });
      }
      const envelope = evolutionEnvelope.safeParse(json);
      if (!envelope.success) throw new AppError("validation_failed", "Not an Evolution API webhook.", { event: "required" });
      if (envelope.data.instance !== instance.instanceName) throw new AppError("validation_failed", "The webhook names another instance.", { instance: "mismatch" });
      const parsed = parseEvolutionEvent(envelope.data);
      const connection = await db.query.connections.findFirst({ where: and(eq(connections.id, instance.connectionId), eq(connections.companyId, instance.companyId)) });
      if (!connection) return [];
      const at = Date.now();
      if (parsed.qr) {
        await db
          .update(whatsappQrInstances)
          .set({ qrCode: parsed.qr.code, pairingCode: parsed.qr.pairingCode, qrAt: at, updatedAt: at })
          .where(eq(whatsappQrInstances.connectionId, instance.connectionId));
        // Only a signal: the QR itself is fetched by members allowed to pair (POST /api/connections/{id}/pair).
        await hubOf(env, connection.companyId).publish({ type: "connection.pairing", connection: { id: connection.id } });
      }
      if (parsed.opened) {
        await db.update(whatsappQrInstances).set({ qrCode: null, pairingCode: null, qrAt: null, updatedAt: at }).where(eq(whatsappQrInstances.connectionId, instance.connectionId));
        if (parsed.opened.phone) await db.update(connections).set({ phone: parsed.opened.phone, updatedAt: at }).where(eq(connections.id, connection.id));
      }
      if (parsed.phoneSends.length > 0) await recordPhoneSends(env, connection, parsed.phoneSends, (media) => adapter.fetchMedia(connection, media));
      return [{ route: { by: "connectionId" as const, value: connection.id }, events: parsed.events, raw: text }];
    },

    /**
     * The instance's current QR value and, when the connection has a phone, its pairing code
     * (`GET /instance/connect/{instance}?number=`), valid QR_TTL_MS (a QRCODE_UPDATED makes the
     * dialog ask sooner). An instance that is already paired turns the connection CONNECTED and
     * answers 400 `already_connected` (field `channel`).
     */
    async pair(connection): Promise<PairingChallenge> {
      const { server, instance } = await serverFor(connection);
      const digits = connection.phone?.replace(/\D/g, "") ?? "";
      let answer: { status: number; body: unknown };
      try {
        answer = await call(server, "GET", `/instance/connect/${encodeURIComponent(instance.instanceName)}${digits ? `?number=${digits}` : ""}`);
      } catch {
        throw unavailable();
      }
      const open = openAnswer.safeParse(answer.body);
      if (answer.status < 300 && open.success && open.data.instance.state === "open") {
        await setConnectionStatus(env, getDb(env.DB), connection, "CONNECTED");
        throw new AppError("validation_failed", "This WhatsApp is already connected.", { channel: "already_connected" });
      }
      const qr = qrAnswer.safeParse(answer.body);
      if (answer.status >= 300 || !qr.success) throw new AppError("provider_unavailable", `The Evolution API server did not answer a QR code: ${errorText(answer.body, answer.status)}`);
      const at = Date.now();
      await getDb(env.DB)
        .update(whatsappQrInstances)
        .set({ qrCode: qr.data.code, pairingCode: qr.data.pairingCode ?? null, qrAt: at, updatedAt: at })
        .where(eq(whatsappQrInstances.connectionId, connection.id));
      return { qrValue: qr.data.code, code: qr.data.pairingCode ?? "", expiresAt: at + QR_TTL_MS };
    },

    /** Logs the instance out (`DELETE /instance/logout/{instance}`); an instance already logged out is fine. 502 when the server cannot be reached. */
    async disconnect(connection) {
      const found = await instanceOf(env, connection.id);
      if (!found) return;
      let answer: { status: number; body: unknown };
      try {
        answer = await call(await serverOf(env, secretsKey, found), "DELETE", `/instance/logout/${encodeURIComponent(found.instanceName)}`);
      } catch {
        throw unavailable();
      }
      if (answer.status >= 500) throw unavailable();
    },

    /** Deletes the instance on the server (`DELETE /instance/delete/{instance}`) and its row; a server that cannot be reached is logged, not fatal. */
    async remove(connection) {
      const found = await instanceOf(env, connection.id);
      if (!found) return;
      await dropEvolutionInstance(env, secretsKey, found);
      await getDb(env.DB).delete(whatsappQrInstances).where(eq(whatsappQrInstances.connectionId, connection.id));
    },

    /**
     * Sends one message: text (`sendText`, quoting by id), image/video/document (`sendMedia` with
     * our signed URL), audio as a voice note (`sendWhatsAppAudio`), a contact card (`sendContact`);
     * buttons and lists as a numbered menu. Failures: `not_on_whatsapp` (the number has no
     * WhatsApp), `evolution_rejected` (another 4xx; the text is Evolution's), not retried;
     * `evolution_unavailable` (network, 5xx, 429) retried.
     */
    async send(connection, to, message): Promise<SendResult> {
      const injected = injectedSendFailure(env);
      if (injected) return injected;
      let server: Server;
      let instance: WhatsappQrInstanceRow;
      try {
        ({ server, instance } = await serverFor(connection));
      } catch (error) {
        return { ok: false, errorCode: "evolution_not_configured", errorMessage: error instanceof Error ? error.message : String(error), retryable: false };
      }
      const request = sendRequest(numberOf(to), message);
      let answer: { status: number; body: unknown };
      try {
        answer = await call(server, "POST", `/message/${request.action}/${encodeURIComponent(instance.instanceName)}`, request.body);
      } catch (error) {
        return { ok: false, errorCode: "evolution_unavailable", errorMessage: error instanceof Error ? error.message : "The Evolution API server could not be reached.", retryable: true };
      }
      if (answer.status >= 500 || answer.status === 429) return { ok: false, errorCode: "evolution_unavailable", errorMessage: errorText(answer.body, answer.status), retryable: true };
      if (answer.status >= 400) {
        if (notOnWhatsApp(answer.body)) return { ok: false, errorCode: "not_on_whatsapp", errorMessage: "This number is not on WhatsApp.", retryable: false };
        return { ok: false, errorCode: answer.status === 401 ? "evolution_unauthorized" : "evolution_rejected", errorMessage: errorText(answer.body, answer.status), retryable: false };
      }
      const sent = sendAnswer.safeParse(answer.body);
      if (!sent.success) return { ok: false, errorCode: "evolution_bad_answer", errorMessage: "The Evolution API server answered without a message id.", retryable: false };
      return { ok: true, externalId: sent.data.key.id };
    },

    /** Typing or recording for about 3 s (`POST /chat/sendPresence`; the call lasts that long), or paused. */
    async presence(connection, to, state) {
      const { server, instance } = await serverFor(connection);
      const presence = state === "typing" ? "composing" : state;
      await call(server, "POST", `/chat/sendPresence/${encodeURIComponent(instance.instanceName)}`, { number: numberOf(to), presence, delay: state === "paused" ? 0 : 3000 });
    },

    /** Blue ticks for the customer's message (`POST /chat/markMessageAsRead`). */
    async markRead(connection, to, externalId) {
      const { server, instance } = await serverFor(connection);
      await call(server, "POST", `/chat/markMessageAsRead/${encodeURIComponent(instance.instanceName)}`, { readMessages: [{ remoteJid: jidOf(to), fromMe: false, id: externalId }] });
    },

    /** The media of message `providerMediaId` (`POST /chat/getBase64FromMediaMessage`), decoded. Throws when the server has none. */
    async fetchMedia(connection, media) {
      const { server, instance } = await serverFor(connection);
      const answer = await call(server, "POST", `/chat/getBase64FromMediaMessage/${encodeURIComponent(instance.instanceName)}`, {
        message: { key: { id: media.providerMediaId } },
        convertToMp4: false,
      });
      const parsed = mediaAnswer.safeParse(answer.body);
      if (answer.status >= 300 || !parsed.success) throw new Error(`Evolution media ${media.providerMediaId}: ${errorText(answer.body, answer.status)}`);
      const bin = atob(parsed.data.base64.replace(/^data:[^,]*,/, ""));
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      return { bytes: bytes.buffer, mime: parsed.data.mimetype || media.mime };
    },
  };
  return adapter;
}
