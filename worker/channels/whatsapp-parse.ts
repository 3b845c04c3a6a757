/**
 * Parses WhatsApp Cloud API webhook payloads (Meta's documented envelope; see
 * shared/reference/wire-formats.md "WhatsApp Business Cloud API: inbound webhooks") into
 * normalised InboundEvents, grouped by `metadata.phone_number_id`.
 *
 * Lenient by design: an unknown message type becomes an `unsupported` message ('Waiting for this
 * message.') instead of being dropped; a malformed envelope throws `WebhookShapeError` (→ 400).
 */
import { z } from "zod";
import { parsePhoneNumberFromString } from "libphonenumber-js/min";
import type { InboundEvent, InboundMessage, RoutedEvents } from "./types";

export class WebhookShapeError extends Error {}

const mediaObject = z.object({
  id: z.string(),
  mime_type: z.string().optional(),
  sha256: z.string().optional(),
  caption: z.string().optional(),
  filename: z.string().optional(),
});

const waMessage = z
  .object({
    from: z.string(),
    id: z.string(),
    timestamp: z.string().or(z.number()),
    type: z.string(),
    context: z.object({ id: z.string().optional(), from: z.string().optional() }).optional(),
  })
  .loose();

const waStatus = z
  .object({
    id: z.string(),
    status: z.string(),
    timestamp: z.string().or(z.number()),
    recipient_id: z.string().optional(),
    errors: z.array(z.object({ code: z.number().or(z.string()), title: z.string().optional(), message: z.string().optional() }).loose()).optional(),
  })
  .loose();

const changeValue = z
  .object({
    messaging_product: z.string().optional(),
    metadata: z.object({ phone_number_id: z.string(), display_phone_number: z.string().optional() }),
    contacts: z.array(z.object({ wa_id: z.string(), profile: z.object({ name: z.string().optional() }).optional() }).loose()).optional(),
    messages: z.array(z.unknown()).optional(),
    statuses: z.array(z.unknown()).optional(),
  })
  .loose();

const envelope = z.object({
  object: z.string(),
  entry: z.array(
    z.object({
      id: z.string().optional(),
      changes: z.array(z.object({ field: z.string(), value: z.unknown() })),
    }),
  ),
});

/** Seconds-as-text → ms. */
function toMs(ts: string | number): number {
  const n = typeof ts === "number" ? ts : Number(ts);
  return Number.isFinite(n) ? n * 1000 : Date.now();
}

/** wa_id is digits without '+'; the phone is its E.164 form when it parses as one. */
function phoneOf(waId: string): string | undefined {
  const parsed = parsePhoneNumberFromString(`+${waId.replace(/\D/g, "")}`);
  return parsed?.isValid() ? parsed.number : undefined;
}

const MEDIA_TYPES = ["image", "audio", "video", "document", "sticker"] as const;

function parseMessage(raw: unknown, names: Map<string, string>): InboundMessage | null {
  const base = waMessage.safeParse(raw);
  if (!base.success) return null;
  const m = base.data;
  const record = m as Record<string, unknown>;
  const common = {
    kind: "message" as const,
    externalId: m.id,
    from: m.from,
    profileName: names.get(m.from),
    phone: phoneOf(m.from),
    timestamp: toMs(m.timestamp),
    quotedExternalId: m.context?.id,
  };
  const type = m.type;
  if (type === "text") {
    const text = z.object({ body: z.string() }).safeParse(record.text);
    if (text.success) return { ...common, type: "text", body: text.data.body };
  }
  if ((MEDIA_TYPES as readonly string[]).includes(type)) {
    const media = mediaObject.safeParse(record[type]);
    if (media.success) {
      return {
        ...common,
        type: MEDIA_TYPES.find((t) => t === type) ?? "document",
        body: media.data.caption ?? "",
        media: {
          kind: "provider",
          providerMediaId: media.data.id,
          mime: media.data.mime_type ?? "application/octet-stream",
          fileName: media.data.filename,
          sha256: media.data.sha256,
        },
      };
    }
  }
  if (type === "interactive") {
    const interactive = z
      .object({
        type: z.string(),
        button_reply: z.object({ id: z.string(), title: z.string() }).optional(),
        list_reply: z.object({ id: z.string(), title: z.string(), description: z.string().optional() }).optional(),
      })
      .safeParse(record.interactive);
    if (interactive.success && interactive.data.button_reply) {
      const r = interactive.data.button_reply;
      return { ...common, type: "button_reply", body: r.title, payload: { replyId: r.id, title: r.title } };
    }
    if (interactive.success && interactive.data.list_reply) {
      const r = interactive.data.list_reply;
      return { ...common, type: "list_reply", body: r.title, payload: { replyId: r.id, title: r.title, description: r.description ?? null } };
    }
  }
  if (type === "button") {
    const button = z.object({ text: z.string(), payload: z.string().optional() }).safeParse(record.button);
    if (button.success) return { ...common, type: "button_reply", body: button.data.text, payload: { replyId: button.data.payload ?? button.data.text, title: button.data.text } };
  }
  if (type === "reaction") {
    const reaction = z.object({ message_id: z.string(), emoji: z.string().optional() }).safeParse(record.reaction);
    if (reaction.success) {
      return { ...common, type: "reaction", body: reaction.data.emoji ?? "", payload: { targetExternalId: reaction.data.message_id, emoji: reaction.data.emoji ?? null } };
    }
  }
  if (type === "location") {
    const location = z
      .object({ latitude: z.number(), longitude: z.number(), name: z.string().optional(), address: z.string().optional() })
      .safeParse(record.location);
    if (location.success) {
      const l = location.data;
      return { ...common, type: "location", body: l.name ?? l.address ?? `${l.latitude}, ${l.longitude}`, payload: { ...l } };
    }
  }
  if (type === "contacts") {
    const cards = z
      .array(
        z
          .object({
            name: z.object({ formatted_name: z.string().optional() }).loose().optional(),
            phones: z.array(z.object({ phone: z.string().optional(), wa_id: z.string().optional() }).loose()).optional(),
            org: z.object({ company: z.string().optional() }).loose().optional(),
          })
          .loose(),
      )
      .safeParse(record.contacts);
    if (cards.success && cards.data.length > 0) {
      const first = cards.data[0];
      const name = first?.name?.formatted_name ?? "";
      const phone = first?.phones?.[0]?.phone ?? "";
      return {
        ...common,
        type: "contact",
        body: name,
        payload: { contacts: cards.data.map((c) => ({ name: c.name?.formatted_name ?? "", phone: c.phones?.[0]?.phone ?? "", organization: c.org?.company ?? null })), name, phone },
      };
    }
  }
  // Unknown, unsupported or malformed content: keep it as a placeholder ('Waiting for this message.').
  return { ...common, type: "unsupported", body: "", payload: { providerType: type } };
}

const FORWARD_STATUSES = ["sent", "delivered", "read", "failed"] as const;
type ForwardStatus = (typeof FORWARD_STATUSES)[number];
const isForwardStatus = (s: string): s is ForwardStatus => (FORWARD_STATUSES as readonly string[]).includes(s);

/**
 * Parses a webhook body (already signature-checked) into events per phone_number_id.
 * Throws WebhookShapeError when the body is not a WhatsApp Business Account envelope.
 */
export function parseWhatsAppWebhook(body: unknown): RoutedEvents[] {
  const parsed = envelope.safeParse(body);
  if (!parsed.success || parsed.data.object !== "whatsapp_business_account") {
    throw new WebhookShapeError("Not a whatsapp_business_account webhook envelope.");
  }
  const out: RoutedEvents[] = [];
  for (const entry of parsed.data.entry) {
    for (const change of entry.changes) {
      if (change.field !== "messages") continue;
      const value = changeValue.safeParse(change.value);
      if (!value.success) continue;
      const v = value.data;
      const names = new Map((v.contacts ?? []).map((c) => [c.wa_id, c.profile?.name ?? ""]));
      const events: InboundEvent[] = [];
      for (const raw of v.messages ?? []) {
        const message = parseMessage(raw, names);
        if (message) events.push(message);
      }
      for (const raw of v.statuses ?? []) {
        const s = waStatus.safeParse(raw);
        if (!s.success) continue;
        const status = s.data.status;
        if (!isForwardStatus(status)) continue;
        const error = s.data.errors?.[0];
        events.push({
          kind: "status",
          externalId: s.data.id,
          status,
          timestamp: toMs(s.data.timestamp),
          ...(error ? { errorCode: String(error.code), errorMessage: error.message ?? error.title ?? "" } : {}),
        });
      }
      if (events.length) out.push({ route: { by: "phoneNumberId", value: v.metadata.phone_number_id }, events });
    }
  }
  return out;
}
