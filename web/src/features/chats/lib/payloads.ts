/**
 * Readers of the structured `payload` of message types (worker/channels/whatsapp-parse.ts and the
 * outbound pipeline): contact cards, locations, buttons, lists, their replies and reactions. Each
 * answers null when the payload does not have the expected shape, and the bubble falls back to the
 * message's body.
 */
import { z } from "zod";
import type { MessageAnswer } from "../../../../../schema/realtime";

const contactCard = z.object({ name: z.string().catch(""), phone: z.string().catch(""), organization: z.string().nullish().catch(null) });
const contactPayload = z.object({ contacts: z.array(contactCard).optional(), name: z.string().optional(), phone: z.string().optional() });
const locationPayload = z.object({ latitude: z.number(), longitude: z.number(), name: z.string().nullish(), address: z.string().nullish() });
const buttonsPayload = z.object({
  buttons: z.array(z.object({ id: z.string().optional(), title: z.string() })).catch([]),
  footer: z.string().nullish(),
  url: z.string().nullish(),
  buttonText: z.string().nullish(),
});
const listPayload = z.object({
  buttonText: z.string().nullish(),
  sections: z
    .array(z.object({ title: z.string().nullish(), rows: z.array(z.object({ id: z.string().optional(), title: z.string(), description: z.string().nullish() })).catch([]) }))
    .catch([]),
});
const replyPayload = z.object({ title: z.string().nullish(), description: z.string().nullish() });
const reactionPayload = z.object({ emoji: z.string().nullish() });
const orderPayload = z.object({
  catalogId: z.string().nullish(),
  items: z
    .array(
      z.object({
        productRetailerId: z.string(),
        quantity: z.number().catch(1),
        itemPrice: z.number().nullish().catch(null),
        currency: z.string().nullish().catch(null),
      }),
    )
    .catch([]),
});
const flowReplyPayload = z.object({
  name: z.string().nullish(),
  fields: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).catch({}),
});

/** A shared contact card. */
export type ContactCard = z.infer<typeof contactCard>;

/** The contact cards of a `contact` message (one card from the top-level name/phone when no list). */
export function contactCardsOf(message: Pick<MessageAnswer, "payload" | "body">): ContactCard[] {
  const parsed = contactPayload.safeParse(message.payload ?? {});
  if (!parsed.success) return message.body ? [{ name: message.body, phone: "", organization: null }] : [];
  const cards = parsed.data.contacts ?? [];
  if (cards.length) return cards;
  const { name, phone } = parsed.data;
  return name || phone ? [{ name: name ?? "", phone: phone ?? "", organization: null }] : message.body ? [{ name: message.body, phone: "", organization: null }] : [];
}

/** A `location` message's coordinates and label. */
export function locationOf(message: Pick<MessageAnswer, "payload">): z.infer<typeof locationPayload> | null {
  const parsed = locationPayload.safeParse(message.payload ?? {});
  return parsed.success ? parsed.data : null;
}

/** The buttons of a company `buttons` message. */
export function buttonsOf(message: Pick<MessageAnswer, "payload">): z.infer<typeof buttonsPayload> | null {
  const parsed = buttonsPayload.safeParse(message.payload ?? {});
  return parsed.success ? parsed.data : null;
}

/** The sections and rows of a company `list` message. */
export function listOf(message: Pick<MessageAnswer, "payload">): z.infer<typeof listPayload> | null {
  const parsed = listPayload.safeParse(message.payload ?? {});
  return parsed.success ? parsed.data : null;
}

/** The chosen option of a `button_reply` / `list_reply` (title falls back to the body). */
export function replyOf(message: Pick<MessageAnswer, "payload" | "body">): { title: string; description: string | null } {
  const parsed = replyPayload.safeParse(message.payload ?? {});
  const title = (parsed.success ? parsed.data.title : null) || message.body;
  return { title, description: (parsed.success ? parsed.data.description : null) ?? null };
}

/** An `order`'s items (product id, quantity, unit price and currency) and its total per currency. */
export function orderOf(message: Pick<MessageAnswer, "payload">): { items: z.infer<typeof orderPayload>["items"]; totals: { currency: string; amount: number }[] } | null {
  const parsed = orderPayload.safeParse(message.payload ?? {});
  if (!parsed.success) return null;
  const totals = new Map<string, number>();
  for (const item of parsed.data.items) {
    if (item.itemPrice === null || item.itemPrice === undefined || !item.currency) continue;
    totals.set(item.currency, (totals.get(item.currency) ?? 0) + item.itemPrice * item.quantity);
  }
  return { items: parsed.data.items, totals: [...totals].map(([currency, amount]) => ({ currency, amount })) };
}

/** A WhatsApp Flows answer (`flow_reply`): its fields as name/value pairs, in the order given. */
export function flowFieldsOf(message: Pick<MessageAnswer, "payload">): { name: string; value: string | number | boolean | null }[] {
  const parsed = flowReplyPayload.safeParse(message.payload ?? {});
  if (!parsed.success) return [];
  return Object.entries(parsed.data.fields).map(([name, value]) => ({ name, value }));
}

/** The emoji of a `reaction` (empty: the reaction was removed). */
export function reactionOf(message: Pick<MessageAnswer, "payload" | "body">): string {
  const parsed = reactionPayload.safeParse(message.payload ?? {});
  return (parsed.success ? parsed.data.emoji : null) || message.body;
}
