/**
 * Evolution API v2 webhooks, normalised (issue 15; shared/reference/wire-formats-wave2.md §1.6-1.7,
 * read from EvolutionAPI/evolution-api 2.3.6). One POST carries one event:
 * `{event, instance, data, sender?, date_time?, …}` with the dotted wire name in `event`.
 *
 * - `messages.upsert`: one message. From the customer (`key.fromMe` false) → an InboundMessage
 *   (text, media fetched later by its key id, quoted replies by `contextInfo.stanzaId`), a
 *   reaction (`reactionMessage`) or a revoke (`protocolMessage` REVOKE). Sent on the phone itself
 *   (`fromMe` true) → a `PhoneSend`, stored as the company's message (not the customer's).
 * - `messages.update`: a receipt of one of our messages → an InboundStatus (SERVER_ACK sent,
 *   DELIVERY_ACK delivered, READ / PLAYED read, ERROR failed; PENDING and DELETED say nothing new).
 * - `messages.delete`: the message `key` revoked → an InboundRevoke.
 * - `connection.update`: `open` → CONNECTED (with the number from `wuid`), `close`/`refused` →
 *   DISCONNECTED; `connecting` says nothing.
 * - `qrcode.updated`: a fresh QR (and pairing code) for the pairing dialog.
 * Anything else (contacts, chats, presence, `send.message` of our own sends) is ignored.
 * Status broadcasts (`status@broadcast`) and newsletters are not conversations and are ignored.
 */
import { z } from "zod";
import type { Json } from "../../schema/columns";
import type { MessageType } from "../../schema";
import type { InboundEvent, InboundMedia, InboundMessage, InboundStatus } from "./types";

/** The webhook envelope (fields we read; the rest passes). */
export const evolutionEnvelope = z.looseObject({
  event: z.string().min(1).max(100),
  instance: z.string().min(1).max(200),
  data: z.unknown(),
});
export type EvolutionEnvelope = z.infer<typeof evolutionEnvelope>;

const messageKey = z.looseObject({
  remoteJid: z.string().min(1).max(200),
  fromMe: z.boolean().optional(),
  id: z.string().min(1).max(200),
  participant: z.string().max(200).nullish(),
  remoteJidAlt: z.string().max(200).nullish(),
  senderPn: z.string().max(200).nullish(),
});

/** Baileys' long timestamps come as a number, a decimal string or a `{low, high}` object. */
const timestamp = z.union([z.number(), z.string(), z.looseObject({ low: z.number(), high: z.number().optional() })]).nullish();

const upsertData = z.looseObject({
  key: messageKey,
  pushName: z.string().max(500).nullish(),
  message: z.record(z.string(), z.unknown()).nullish(),
  messageType: z.string().max(100).nullish(),
  messageTimestamp: timestamp,
  contextInfo: z.looseObject({ stanzaId: z.string().max(200).nullish() }).nullish(),
});
export type EvolutionUpsert = z.infer<typeof upsertData>;

const updateData = z.looseObject({
  keyId: z.string().min(1).max(200),
  remoteJid: z.string().max(200).nullish(),
  fromMe: z.boolean().nullish(),
  status: z.string().max(50).nullish(),
});

const connectionData = z.looseObject({
  state: z.string().max(50),
  statusReason: z.number().nullish(),
  wuid: z.string().max(200).nullish(),
  profileName: z.string().max(500).nullish(),
});

const qrData = z.looseObject({
  qrcode: z.looseObject({ code: z.string().max(2000).nullish(), pairingCode: z.string().max(50).nullish() }).nullish(),
});

/** A message the company sent from the phone itself (WhatsApp Web's `fromMe`), to store as ours. */
export type PhoneSend = { to: string; phone?: string; message: InboundMessage };

/** What one webhook means for the connection. */
export type EvolutionParsed = {
  /** Events for the pipeline (messages, receipts, revokes, reactions, connection state). */
  events: InboundEvent[];
  /** Messages sent on the phone (fromMe), stored as the company's. */
  phoneSends: PhoneSend[];
  /** A fresh QR for the pairing dialog. */
  qr?: { code: string; pairingCode: string | null };
  /** The paired number (E.164) and profile name, when the connection opened. */
  opened?: { phone: string | null; profileName: string | null };
};

const EMPTY = (): EvolutionParsed => ({ events: [], phoneSends: [] });

/** Whether a JID names a conversation we serve (a person or a group; not status updates or channels). */
function isConversation(jid: string): boolean {
  return !jid.endsWith("@broadcast") && !jid.endsWith("@newsletter");
}

/** The digits of a phone JID (`5511…@s.whatsapp.net` → `5511…`), or null for other JIDs. */
export function phoneDigitsOf(jid: string | null | undefined): string | null {
  const match = /^(\d{6,20})(?::\d+)?@s\.whatsapp\.net$/.exec(jid ?? "");
  return match ? match[1]! : null;
}

/**
 * The contact's identity on the channel: the phone digits when the JID (or, for a `@lid` address,
 * its `remoteJidAlt`/`senderPn`) is a phone JID; otherwise the JID itself (a group, a LID).
 */
export function identityOf(key: z.infer<typeof messageKey>): { from: string; phone?: string; isGroup: boolean } {
  const jid = key.remoteJid;
  if (jid.endsWith("@g.us")) return { from: jid, isGroup: true };
  const digits = phoneDigitsOf(jid) ?? phoneDigitsOf(key.remoteJidAlt) ?? phoneDigitsOf(key.senderPn);
  return digits ? { from: digits, phone: `+${digits}`, isGroup: false } : { from: jid, isGroup: false };
}

/** Baileys' seconds → ms; `fallback` when absent or unreadable. */
function timeOf(value: z.infer<typeof timestamp>, fallback: number): number {
  const seconds = typeof value === "number" ? value : typeof value === "string" ? Number(value) : value ? value.low + (value.high ?? 0) * 2 ** 32 : NaN;
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : fallback;
}

const record = z.record(z.string(), z.unknown());
const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === "number" && Number.isFinite(value) ? value : undefined);

/** Media kinds of a Baileys message, with the type they are stored as. */
const MEDIA_KINDS: { key: string; type: MessageType }[] = [
  { key: "imageMessage", type: "image" },
  { key: "videoMessage", type: "video" },
  { key: "ptvMessage", type: "ptv" },
  { key: "audioMessage", type: "audio" },
  { key: "documentMessage", type: "document" },
  { key: "stickerMessage", type: "sticker" },
];

/** The quoted message's id: `contextInfo.stanzaId` at the top (Evolution's copy) or inside the message part. */
function quotedIdOf(data: EvolutionUpsert, part: Record<string, unknown> | undefined): string | undefined {
  const inner = record.safeParse(part?.contextInfo);
  return data.contextInfo?.stanzaId ?? (inner.success ? str(inner.data.stanzaId) : undefined) ?? undefined;
}

/**
 * The content of one `messages.upsert`: its type, text, media and structured payload. Answers null
 * for a message kind this version does not know (kept as `unsupported` with its raw payload).
 */
function contentOf(data: EvolutionUpsert): { type: MessageType; body: string; media?: InboundMedia; payload?: { [key: string]: Json }; part?: Record<string, unknown> } | null {
  const message = data.message ?? {};
  if (typeof message.conversation === "string") return { type: "text", body: message.conversation };
  const extended = record.safeParse(message.extendedTextMessage);
  if (extended.success && typeof extended.data.text === "string") return { type: "text", body: extended.data.text, part: extended.data };
  const docWithCaption = record.safeParse(record.safeParse(message.documentWithCaptionMessage).data?.message);
  const documentPart = docWithCaption.success ? record.safeParse(docWithCaption.data.documentMessage) : null;
  for (const kind of MEDIA_KINDS) {
    const part = record.safeParse(kind.key === "documentMessage" && documentPart?.success ? documentPart.data : message[kind.key]);
    if (!part.success) continue;
    const inline = str(message.base64);
    const mime = (str(part.data.mimetype) ?? "application/octet-stream").split(";")[0]!.trim() || "application/octet-stream";
    const fileName = str(part.data.fileName);
    const media: InboundMedia = inline
      ? { kind: "inline", dataBase64: inline, mime, ...(fileName ? { fileName } : {}) }
      : { kind: "provider", providerMediaId: data.key.id, mime, ...(fileName ? { fileName } : {}) };
    const voice = kind.type === "audio" && part.data.ptt === true;
    return { type: kind.type, body: str(part.data.caption) ?? "", media, part: part.data, ...(voice ? { payload: { voice: true } } : {}) };
  }
  const contact = record.safeParse(message.contactMessage);
  if (contact.success) {
    const name = str(contact.data.displayName) ?? "";
    const vcard = str(contact.data.vcard) ?? "";
    const phone = /waid=(\d+)/.exec(vcard)?.[1] ?? /TEL[^:]*:([+\d ()-]+)/.exec(vcard)?.[1]?.replace(/[^\d+]/g, "");
    return { type: "contact", body: name, payload: { contacts: [{ name, ...(phone ? { phone: phone.startsWith("+") ? phone : `+${phone}` } : {}) }] }, part: contact.data };
  }
  const location = record.safeParse(message.locationMessage);
  if (location.success) {
    const latitude = num(location.data.degreesLatitude);
    const longitude = num(location.data.degreesLongitude);
    const name = str(location.data.name) ?? "";
    const address = str(location.data.address) ?? "";
    return { type: "location", body: [name, address].filter(Boolean).join(" — "), payload: { latitude: latitude ?? null, longitude: longitude ?? null, name, address }, part: location.data };
  }
  return null;
}

/** One `messages.upsert` → the customer's event(s), or the company's phone send. */
function parseUpsert(raw: unknown, receivedAt: number): EvolutionParsed {
  const out = EMPTY();
  const parsed = upsertData.safeParse(raw);
  if (!parsed.success) {
    out.events.push({ kind: "rejected", reason: "malformed_message", detail: "A messages.upsert without a readable key.", payload: JSON.stringify(raw ?? null).slice(0, 100_000) });
    return out;
  }
  const data = parsed.data;
  if (!isConversation(data.key.remoteJid)) return out;
  const who = identityOf(data.key);
  const at = timeOf(data.messageTimestamp, receivedAt);
  const message = data.message ?? {};

  const reaction = record.safeParse(message.reactionMessage);
  if (reaction.success) {
    const target = messageKey.partial().safeParse(reaction.data.key);
    const targetId = target.success ? target.data.id : undefined;
    if (!data.key.fromMe && targetId) {
      out.events.push({ kind: "reaction", externalId: data.key.id, from: who.from, targetExternalId: targetId, emoji: str(reaction.data.text) ?? "", timestamp: at, raw: JSON.stringify(raw) });
    }
    return out;
  }
  const protocol = record.safeParse(message.protocolMessage);
  if (protocol.success) {
    const revoked = messageKey.partial().safeParse(protocol.data.key);
    const isRevoke = protocol.data.type === "REVOKE" || protocol.data.type === 0;
    if (isRevoke && revoked.success && revoked.data.id) out.events.push({ kind: "revoke", externalId: revoked.data.id, from: who.from, timestamp: at, raw: JSON.stringify(raw) });
    return out;
  }

  const content = contentOf(data);
  const quoted = quotedIdOf(data, content?.part);
  const inbound: InboundMessage = {
    kind: "message",
    externalId: data.key.id,
    from: who.from,
    ...(who.phone ? { phone: who.phone } : {}),
    ...(!who.isGroup && !data.key.fromMe && data.pushName?.trim() ? { profileName: data.pushName.trim() } : {}),
    timestamp: at,
    type: content?.type ?? "unsupported",
    body: content?.body ?? "",
    ...(content?.media ? { media: content.media } : {}),
    ...(quoted ? { quotedExternalId: quoted } : {}),
    ...(who.isGroup ? { isGroup: true } : {}),
    payload: {
      ...(content?.payload ?? {}),
      ...(who.isGroup ? { participant: data.key.participant ?? null, participantName: data.pushName ?? null } : {}),
    },
    ...(content
      ? {}
      : { rejected: { reason: "unknown_message_type" as const, detail: `Evolution messageType ${data.messageType ?? "unknown"} is not supported.`, payload: JSON.stringify(raw).slice(0, 100_000) } }),
  };
  if (data.key.fromMe) out.phoneSends.push({ to: who.from, ...(who.phone ? { phone: who.phone } : {}), message: inbound });
  else out.events.push(inbound);
  return out;
}

/** Evolution's receipt names → our statuses (PENDING and DELETED say nothing new). */
const RECEIPTS: Record<string, InboundStatus["status"]> = { SERVER_ACK: "sent", DELIVERY_ACK: "delivered", READ: "read", PLAYED: "read", ERROR: "failed" };

/** One webhook's `data` → what it means (see the file header). Never throws; unknown events mean nothing. */
export function parseEvolutionEvent(envelope: EvolutionEnvelope, receivedAt = Date.now()): EvolutionParsed {
  const out = EMPTY();
  const event = envelope.event.toLowerCase().replace(/_/g, ".");
  switch (event) {
    case "messages.upsert": {
      // One message per POST in 2.3; an array is accepted too.
      const items = Array.isArray(envelope.data) ? envelope.data : [envelope.data];
      for (const item of items) {
        const one = parseUpsert(item, receivedAt);
        out.events.push(...one.events);
        out.phoneSends.push(...one.phoneSends);
      }
      return out;
    }
    case "messages.update": {
      const items = Array.isArray(envelope.data) ? envelope.data : [envelope.data];
      for (const item of items) {
        const update = updateData.safeParse(item);
        if (!update.success || update.data.fromMe === false) continue;
        const status = RECEIPTS[update.data.status ?? ""];
        if (status) out.events.push({ kind: "status", externalId: update.data.keyId, status, timestamp: receivedAt, ...(status === "failed" ? { errorCode: "evolution_error", errorMessage: "WhatsApp did not deliver the message." } : {}) });
      }
      return out;
    }
    case "messages.delete": {
      const key = messageKey.safeParse(envelope.data);
      if (key.success && isConversation(key.data.remoteJid)) out.events.push({ kind: "revoke", externalId: key.data.id, from: identityOf(key.data).from, timestamp: receivedAt, raw: JSON.stringify(envelope.data) });
      return out;
    }
    case "connection.update": {
      const state = connectionData.safeParse(envelope.data);
      if (!state.success) return out;
      if (state.data.state === "open") {
        const digits = phoneDigitsOf(state.data.wuid);
        out.opened = { phone: digits ? `+${digits}` : null, profileName: state.data.profileName ?? null };
        out.events.push({ kind: "connection", status: "CONNECTED" });
      } else if (state.data.state === "close" || state.data.state === "refused") {
        out.events.push({ kind: "connection", status: "DISCONNECTED" });
      }
      return out;
    }
    case "qrcode.updated": {
      const qr = qrData.safeParse(envelope.data);
      const qrcode = qr.success ? qr.data.qrcode : null;
      if (qrcode?.code) out.qr = { code: qrcode.code, pairingCode: qrcode.pairingCode ?? null };
      return out;
    }
    default:
      return out;
  }
}
