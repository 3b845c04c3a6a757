/**
 * Parses WhatsApp Cloud API webhook payloads (Meta's documented envelope; see
 * shared/reference/wire-formats.md "WhatsApp Business Cloud API: inbound webhooks" and
 * wire-formats-wave2.md §4.5 BSUID) into normalised InboundEvents, grouped by
 * `metadata.phone_number_id`.
 *
 * Nothing signed is dropped in silence: what cannot be placed (no id, no sender identity, a change
 * without metadata, Meta's out-of-band `errors`, an unknown message type) becomes an
 * `InboundRejected` event carrying the raw payload, which the pipeline keeps in rejected_events. An
 * unknown message type is shown as an `unsupported` placeholder ('Waiting for this message.') that
 * carries its raw payload, kept as a rejected event when the placeholder is first stored.
 * A malformed envelope throws `WebhookShapeError` (→ 400).
 *
 * Shapes handled besides the basic ones (Meta's webhook reference, messages/*): `reaction`,
 * `revoke` and `edit` (they change their target message), `order`, `interactive.nfm_reply`
 * (WhatsApp Flows answers), `system` (number or BSUID change), `referral` (click-to-WhatsApp ads),
 * `context.forwarded`/`frequently_forwarded`, and `statuses[].errors[].error_data.details`.
 */
import { z } from "zod";
import { parsePhoneNumberFromString } from "libphonenumber-js/min";
import type { Json } from "../../schema/columns";
import { remembered } from "../lib/memo";
import type { InboundEvent, InboundMessage, RoutedEvents } from "./types";

export class WebhookShapeError extends Error {}

const mediaObject = z.object({
  id: z.string(),
  mime_type: z.string().optional(),
  sha256: z.string().optional(),
  caption: z.string().optional(),
  filename: z.string().optional(),
});

const looseRecord = z.record(z.string(), z.unknown());

type JsonPrimitive = string | number | boolean | null;

const waMessage = z
  .object({
    /** wa_id of the sender; absent or a BSUID for users whose phone is withheld. */
    from: z.string().optional(),
    from_user_id: z.string().optional(),
    id: z.string().min(1),
    timestamp: z.string().or(z.number()).optional(),
    type: z.string(),
    context: z
      .object({ id: z.string().optional(), from: z.string().optional(), forwarded: z.boolean().optional(), frequently_forwarded: z.boolean().optional() })
      .loose()
      .optional(),
    referral: looseRecord.optional(),
  })
  .loose();

const waStatus = z
  .object({
    id: z.string(),
    status: z.string(),
    timestamp: z.string().or(z.number()),
    recipient_id: z.string().optional(),
    biz_opaque_callback_data: z.string().optional(),
    errors: z
      .array(
        z
          .object({
            code: z.number().or(z.string()),
            title: z.string().optional(),
            message: z.string().optional(),
            error_data: z.object({ details: z.string().optional() }).loose().optional(),
          })
          .loose(),
      )
      .optional(),
  })
  .loose();

const waContact = z
  .object({ wa_id: z.string().optional(), user_id: z.string().optional(), profile: z.object({ name: z.string().optional() }).loose().optional() })
  .loose();
type WaContact = z.output<typeof waContact>;

const changeValue = z
  .object({
    messaging_product: z.string().optional(),
    metadata: z.object({ phone_number_id: z.string().min(1), display_phone_number: z.string().optional() }).loose(),
    contacts: z.array(z.unknown()).optional(),
    messages: z.array(z.unknown()).optional(),
    statuses: z.array(z.unknown()).optional(),
    errors: z.array(z.unknown()).optional(),
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

/*
 * The content schemas of one message, built once per isolate (issue 16: building a zod schema for
 * every message cost more than parsing with it).
 */
const textContent = z.object({ body: z.string() });
const interactiveContent = z.object({
  type: z.string(),
  button_reply: z.object({ id: z.string(), title: z.string() }).optional(),
  list_reply: z.object({ id: z.string(), title: z.string(), description: z.string().optional() }).optional(),
  nfm_reply: z.object({ name: z.string().optional(), body: z.string().optional(), response_json: z.string() }).loose().optional(),
});
const buttonContent = z.object({ text: z.string(), payload: z.string().optional() });
const locationContent = z.object({ latitude: z.number(), longitude: z.number(), name: z.string().optional(), address: z.string().optional() });
const contactCards = z.array(
  z
    .object({
      name: z.object({ formatted_name: z.string().optional() }).loose().optional(),
      phones: z.array(z.object({ phone: z.string().optional(), wa_id: z.string().optional() }).loose()).optional(),
      org: z.object({ company: z.string().optional() }).loose().optional(),
    })
    .loose(),
);
const systemContent = z
  .object({ body: z.string().optional(), type: z.string().optional(), wa_id: z.string().optional(), new_wa_id: z.string().or(z.number()).optional(), user_id: z.string().optional() })
  .loose();
const reactionContent = z.object({ message_id: z.string().min(1), emoji: z.string().optional() });
const revokeContent = z.object({ original_message_id: z.string().min(1) });
const editContent = z.object({ original_message_id: z.string().min(1), message: looseRecord });
const typedRecord = z.object({ type: z.string() }).loose();
const messageErrors = z.array(z.object({ code: z.number().or(z.string()).optional(), title: z.string().optional(), error_data: z.object({ details: z.string().optional() }).loose().optional() }).loose());
const changeError = z.object({ code: z.number().or(z.string()).optional(), title: z.string().optional(), message: z.string().optional() }).loose();

/** Seconds-as-text → ms; a missing or unreadable time is the time of receipt. */
function toMs(ts: string | number | undefined, receivedAt: number): number {
  const n = typeof ts === "number" ? ts : Number(ts);
  return ts !== undefined && ts !== "" && Number.isFinite(n) ? n * 1000 : receivedAt;
}

/** How many wa_ids `phoneOf` remembers per isolate before it starts over (about 100 bytes each). */
const PHONES_REMEMBERED = 10_000;

/** wa_id → its E.164 form, or null when it does not parse as one (`phoneOf`). */
const phones = new Map<string, string | null>();

/**
 * wa_id is digits without '+'; the phone is its E.164 form when it parses as one. Remembered per
 * wa_id (a pure function of it: issue 16, libphonenumber's parse and validation were 2 % of a
 * message's thread, for a contact whose every message carries the same wa_id); the memory holds at
 * most PHONES_REMEMBERED wa_ids (`remembered`).
 */
function phoneOf(waId: string): string | undefined {
  const phone = remembered(phones, PHONES_REMEMBERED, waId, () => {
    const parsed = parsePhoneNumberFromString(`+${waId.replace(/\D/g, "")}`);
    return parsed?.isValid() ? parsed.number : null;
  });
  return phone ?? undefined;
}

const isWaId = (value: string | undefined): value is string => value !== undefined && /^\d+$/.test(value);

const MEDIA_TYPES = ["image", "audio", "video", "document", "sticker"] as const;

/** The JSON of a change, reduced to the items of one message or status (what a rejected event keeps). */
type RawOf = (item?: { key: "messages" | "statuses"; value: unknown }) => string;

/** A `Json` object from unknown JSON: primitives kept, nested values as JSON text. */
function shallowJson(value: Record<string, unknown>): { [key: string]: JsonPrimitive } {
  const out: { [key: string]: JsonPrimitive } = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean") out[k] = v;
    else if (v !== undefined) out[k] = JSON.stringify(v);
  }
  return out;
}

/** A click-to-WhatsApp `referral`, camelCased, with only the documented fields (strings). */
function referralOf(raw: Record<string, unknown> | undefined): { [key: string]: Json } | undefined {
  if (!raw) return undefined;
  const fields: [string, string][] = [
    ["source_url", "sourceUrl"],
    ["source_type", "sourceType"],
    ["source_id", "sourceId"],
    ["headline", "headline"],
    ["body", "body"],
    ["media_type", "mediaType"],
    ["image_url", "imageUrl"],
    ["video_url", "videoUrl"],
    ["thumbnail_url", "thumbnailUrl"],
    ["ctwa_clid", "ctwaClid"],
  ];
  const out: { [key: string]: Json } = {};
  for (const [from, to] of fields) {
    const v = raw[from];
    if (typeof v === "string" || typeof v === "number") out[to] = String(v);
  }
  return Object.keys(out).length ? out : undefined;
}

/** An `order`'s items: quantities and prices as numbers (Meta sends either numbers or text). */
const orderSchema = z.object({
  catalog_id: z.string().optional(),
  text: z.string().optional(),
  product_items: z
    .array(
      z
        .object({
          product_retailer_id: z.string(),
          quantity: z.coerce.number().optional(),
          item_price: z.coerce.number().optional(),
          currency: z.string().optional(),
        })
        .loose(),
    )
    .min(1),
});

/** The fields of a WhatsApp Flows answer (`nfm_reply.response_json`), primitives kept, the rest as JSON text. */
function flowFields(responseJson: string): { [key: string]: JsonPrimitive } | null {
  try {
    const parsed: unknown = JSON.parse(responseJson);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return null;
    const record = looseRecord.parse(parsed);
    const fields: { [key: string]: JsonPrimitive } = {};
    for (const [k, v] of Object.entries(record)) {
      if (k === "flow_token") continue;
      if (v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean") fields[k] = v;
      else if (Array.isArray(v) && v.every((x) => typeof x === "string" || typeof x === "number")) fields[k] = v.map(String).join(", ");
      else if (v !== undefined) fields[k] = JSON.stringify(v);
    }
    return fields;
  } catch {
    return null;
  }
}

/** The sender of a message: the identity to store it under, its BSUID, phone and profile name. */
type Sender = { from: string; userId?: string; phone?: string; profileName?: string };

/**
 * Resolves who sent `m`: the wa_id when Meta shares it (`from` or the matching `contacts[]`
 * entry), else the business-scoped user id (`from_user_id`, `contacts[].user_id`, or a `from` that
 * is not a wa_id). Null when the payload carries no identity at all.
 */
function senderOf(m: { from?: string; from_user_id?: string }, contacts: WaContact[]): Sender | null {
  const from = m.from?.trim() || undefined;
  const byId = contacts.find(
    (c) => (from !== undefined && (c.wa_id === from || c.user_id === from)) || (m.from_user_id !== undefined && c.user_id === m.from_user_id),
  );
  const contact = byId ?? (from === undefined && contacts.length === 1 ? contacts[0] : undefined);
  const waId = isWaId(from) ? from : contact?.wa_id?.trim() || undefined;
  const userId = m.from_user_id?.trim() || contact?.user_id?.trim() || (from !== undefined && !isWaId(from) ? from : undefined);
  const identity = waId ?? userId;
  if (!identity) return null;
  const profileName = contact?.profile?.name;
  return {
    from: identity,
    ...(userId ? { userId } : {}),
    phone: waId ? phoneOf(waId) : undefined,
    profileName,
  };
}

/** The content of a message object (text, media, interactive...), or null when unknown or malformed. */
function contentOf(type: string, record: Record<string, unknown>): Pick<InboundMessage, "type" | "body" | "media" | "payload"> | null {
  if (type === "text") {
    const text = textContent.safeParse(record.text);
    if (text.success) return { type: "text", body: text.data.body };
  }
  if ((MEDIA_TYPES as readonly string[]).includes(type)) {
    const media = mediaObject.safeParse(record[type]);
    if (media.success) {
      return {
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
    const interactive = interactiveContent.safeParse(record.interactive);
    if (interactive.success && interactive.data.button_reply) {
      const r = interactive.data.button_reply;
      return { type: "button_reply", body: r.title, payload: { replyId: r.id, title: r.title } };
    }
    if (interactive.success && interactive.data.list_reply) {
      const r = interactive.data.list_reply;
      return { type: "list_reply", body: r.title, payload: { replyId: r.id, title: r.title, description: r.description ?? null } };
    }
    if (interactive.success && interactive.data.nfm_reply) {
      const r = interactive.data.nfm_reply;
      const fields = flowFields(r.response_json);
      if (fields) {
        let flowToken: string | null = null;
        try {
          const parsed = looseRecord.safeParse(JSON.parse(r.response_json));
          if (parsed.success && typeof parsed.data.flow_token === "string") flowToken = parsed.data.flow_token;
        } catch {
          // flowFields already parsed it; unreachable.
        }
        return { type: "flow_reply", body: r.body ?? "", payload: { name: r.name ?? null, fields, flowToken } };
      }
    }
  }
  if (type === "button") {
    const button = buttonContent.safeParse(record.button);
    if (button.success) return { type: "button_reply", body: button.data.text, payload: { replyId: button.data.payload ?? button.data.text, title: button.data.text } };
  }
  if (type === "location") {
    const location = locationContent.safeParse(record.location);
    if (location.success) {
      const l = location.data;
      return { type: "location", body: l.name ?? l.address ?? `${l.latitude}, ${l.longitude}`, payload: { ...l } };
    }
  }
  if (type === "contacts") {
    const cards = contactCards.safeParse(record.contacts);
    if (cards.success && cards.data.length > 0) {
      const first = cards.data[0];
      const name = first?.name?.formatted_name ?? "";
      const phone = first?.phones?.[0]?.phone ?? "";
      return {
        type: "contact",
        body: name,
        payload: { contacts: cards.data.map((c) => ({ name: c.name?.formatted_name ?? "", phone: c.phones?.[0]?.phone ?? "", organization: c.org?.company ?? null })), name, phone },
      };
    }
  }
  if (type === "order") {
    const order = orderSchema.safeParse(record.order);
    if (order.success) {
      const o = order.data;
      return {
        type: "order",
        body: o.text ?? "",
        payload: {
          catalogId: o.catalog_id ?? null,
          text: o.text ?? null,
          items: o.product_items.map((i) => ({
            productRetailerId: i.product_retailer_id,
            quantity: i.quantity ?? 1,
            itemPrice: i.item_price ?? null,
            currency: i.currency ?? null,
          })),
        },
      };
    }
  }
  return null;
}

/** Types Meta documents whose content we do not show (a placeholder, without a rejected event). */
const KNOWN_UNSHOWN = new Set(["unsupported", "unknown"]);

/**
 * Turns one `messages[]` item into events: a message, or the change it makes (reaction, revoke,
 * edit), or a rejected event; an unknown type is both a placeholder message and a rejected event.
 */
function parseMessage(raw: unknown, contacts: WaContact[], receivedAt: number, rawOf: RawOf): InboundEvent[] {
  const itemRaw = () => rawOf({ key: "messages", value: raw });
  const base = waMessage.safeParse(raw);
  if (!base.success) {
    return [{ kind: "rejected", reason: "malformed_message", detail: "A message without an id or a type.", payload: itemRaw() }];
  }
  const m = base.data;
  const record: Record<string, unknown> = m;
  const sender = senderOf(m, contacts);
  const timestamp = toMs(m.timestamp, receivedAt);
  const type = m.type;

  if (type === "system") {
    const system = systemContent.safeParse(record.system);
    // System messages carry no contacts array: `from` is the customer's old number (or BSUID).
    if (system.success && sender) {
      const s = system.data;
      const newWaId = s.wa_id ?? (s.new_wa_id !== undefined ? String(s.new_wa_id) : undefined);
      const newId = newWaId ?? s.user_id;
      return [
        {
          kind: "message",
          externalId: m.id,
          ...sender,
          timestamp,
          type: "system",
          body: s.body ?? "",
          payload: { systemType: s.type ?? null, previousId: sender.from, newId: newId ?? null, newPhone: newWaId ? (phoneOf(newWaId) ?? null) : null },
          ...(newId && newId !== sender.from ? { identityChange: { externalId: newId, ...(newWaId && phoneOf(newWaId) ? { phone: phoneOf(newWaId) } : {}) } } : {}),
        },
      ];
    }
  }

  if (!sender) {
    return [{ kind: "rejected", reason: "no_sender_identity", detail: `A ${type} message with neither a wa_id nor a business-scoped user id.`, payload: itemRaw() }];
  }

  if (type === "reaction") {
    const reaction = reactionContent.safeParse(record.reaction);
    if (reaction.success) {
      return [{ kind: "reaction", externalId: m.id, from: sender.from, targetExternalId: reaction.data.message_id, emoji: reaction.data.emoji ?? "", timestamp, raw: itemRaw() }];
    }
  }
  if (type === "revoke") {
    const revoke = revokeContent.safeParse(record.revoke);
    if (revoke.success) return [{ kind: "revoke", externalId: revoke.data.original_message_id, from: sender.from, timestamp, raw: itemRaw() }];
  }
  if (type === "edit") {
    const edit = editContent.safeParse(record.edit);
    const inner = edit.success ? typedRecord.safeParse(edit.data.message) : null;
    const content = inner?.success ? contentOf(inner.data.type, inner.data) : null;
    if (edit.success && content) {
      return [
        {
          kind: "edit",
          from: sender.from,
          targetExternalId: edit.data.original_message_id,
          timestamp,
          raw: itemRaw(),
          message: { kind: "message", externalId: m.id, ...sender, timestamp, ...content },
        },
      ];
    }
  }

  const common = {
    kind: "message" as const,
    externalId: m.id,
    ...sender,
    timestamp,
    quotedExternalId: m.context?.id,
    ...(m.context?.forwarded || m.context?.frequently_forwarded ? { forwarded: true } : {}),
    ...(referralOf(m.referral) ? { referral: referralOf(m.referral) } : {}),
  };
  const content = contentOf(type, record);
  if (content) return [{ ...common, ...content }];

  // Unknown, unsupported or malformed content: a placeholder ('Waiting for this message.') in the
  // conversation, and, unless Meta itself says it is unsupported, the raw payload kept.
  const errors = messageErrors.safeParse(record.errors);
  const error = errors.success ? errors.data[0] : undefined;
  const placeholder: InboundMessage = {
    ...common,
    type: "unsupported",
    body: "",
    payload: {
      providerType: type,
      ...(error ? { providerError: shallowJson({ code: error.code ?? null, title: error.title ?? null, details: error.error_data?.details ?? null }) } : {}),
    },
  };
  if (KNOWN_UNSHOWN.has(type)) return [placeholder];
  return [{ ...placeholder, rejected: { reason: "unknown_message_type", detail: `A ${type} message this version cannot show.`, payload: itemRaw() } }];
}

const FORWARD_STATUSES = ["sent", "delivered", "read", "failed"] as const;
type ForwardStatus = (typeof FORWARD_STATUSES)[number];
const isForwardStatus = (s: string): s is ForwardStatus => (FORWARD_STATUSES as readonly string[]).includes(s);

/** Options of {@link parseWhatsAppWebhook}. */
export type ParseOptions = {
  /** The body as received (JSON text): kept verbatim for rejected events when it concerns one number only. */
  raw?: string;
  /** Time of receipt (ms UTC): the time of an event whose timestamp is missing or unreadable. */
  receivedAt?: number;
};

/**
 * Parses a webhook body (already signature-checked) into events per phone_number_id. Changes of
 * fields other than `messages` (account and template updates) carry no customer message and are
 * skipped. A change whose value has no `metadata.phone_number_id` becomes a rejected event in a
 * batch with an empty route. Every batch carries its raw payload (`raw`): the body as received
 * when the whole body concerns one number, else the JSON of that number's changes.
 * Throws WebhookShapeError when the body is not a WhatsApp Business Account envelope.
 */
export function parseWhatsAppWebhook(body: unknown, options: ParseOptions = {}): RoutedEvents[] {
  const parsed = envelope.safeParse(body);
  if (!parsed.success || parsed.data.object !== "whatsapp_business_account") {
    throw new WebhookShapeError("Not a whatsapp_business_account webhook envelope.");
  }
  const receivedAt = options.receivedAt ?? Date.now();
  type Change = { entryId: string | undefined; field: string; value: unknown };
  const messageChanges: Change[] = parsed.data.entry.flatMap((entry) =>
    entry.changes.filter((c) => c.field === "messages").map((c) => ({ entryId: entry.id, field: c.field, value: c.value })),
  );
  // Each change's value parsed once (it is read for its number here and for its items below).
  const values = new Map(messageChanges.map((change) => [change, changeValue.safeParse(change.value)] as const));
  const numberOf = (change: Change) => values.get(change)!.data?.metadata.phone_number_id ?? "";
  const numbers = new Set(messageChanges.map(numberOf));
  // The raw bytes are kept only when they concern one number: a rejected event is shown to that
  // number's company, which must not see another number's customers.
  const verbatim = options.raw !== undefined && numbers.size <= 1 ? options.raw : undefined;
  const envelopeOf = (changes: Change[]) =>
    JSON.stringify({ object: "whatsapp_business_account", entry: changes.map((c) => ({ id: c.entryId, changes: [{ field: c.field, value: c.value }] })) });

  const out: RoutedEvents[] = [];
  const batchOf = (value: string): RoutedEvents => {
    const existing = out.find((b) => b.route.value === value);
    if (existing) return existing;
    const batch: RoutedEvents = { route: { by: "phoneNumberId", value }, events: [], raw: verbatim ?? envelopeOf(messageChanges.filter((c) => numberOf(c) === value)) };
    out.push(batch);
    return batch;
  };
  for (const change of messageChanges) {
    const value = values.get(change)!;
    if (!value.success) {
      // A `messages` change that routes nowhere: kept (unrouted) unless it is empty.
      const record = looseRecord.safeParse(change.value);
      if (!record.success) continue;
      if (Object.values(record.data).every((v) => v === undefined || v === null || (Array.isArray(v) && v.length === 0))) continue;
      batchOf("").events.push({ kind: "rejected", reason: "malformed_change", detail: "A messages change without metadata.phone_number_id.", payload: verbatim ?? envelopeOf([change]) });
      continue;
    }
    const v = value.data;
    const rawOf: RawOf = (item) => {
      if (verbatim !== undefined) return verbatim;
      if (!item) return envelopeOf([change]);
      const { messages: _m, statuses: _s, errors: _e, ...rest } = v;
      return envelopeOf([{ ...change, value: { ...rest, [item.key]: [item.value] } }]);
    };
    const batch = batchOf(v.metadata.phone_number_id);
    const contacts = (v.contacts ?? []).flatMap((c) => {
      const contact = waContact.safeParse(c);
      return contact.success ? [contact.data] : [];
    });
    for (const raw of v.messages ?? []) batch.events.push(...parseMessage(raw, contacts, receivedAt, rawOf));
    for (const raw of v.statuses ?? []) {
      const s = waStatus.safeParse(raw);
      if (!s.success) continue;
      const status = s.data.status;
      if (!isForwardStatus(status)) continue;
      const error = s.data.errors?.[0];
      const details = error?.error_data?.details;
      batch.events.push({
        kind: "status",
        externalId: s.data.id,
        status,
        timestamp: toMs(s.data.timestamp, receivedAt),
        ...(error ? { errorCode: String(error.code), errorMessage: error.message ?? error.title ?? "" } : {}),
        ...(details ? { errorDetails: details } : {}),
        ...(s.data.biz_opaque_callback_data ? { reference: s.data.biz_opaque_callback_data } : {}),
      });
    }
    if (v.errors?.length) {
      const first = changeError.safeParse(v.errors[0]);
      const text = first.success ? [first.data.code, first.data.title ?? first.data.message].filter((x) => x !== undefined).join(" ") : "";
      batch.events.push({ kind: "rejected", reason: "provider_error", detail: `Meta reported an error for this number${text ? `: ${text}` : "."}`, payload: rawOf() });
    }
  }
  return out.filter((b) => b.events.length > 0);
}
