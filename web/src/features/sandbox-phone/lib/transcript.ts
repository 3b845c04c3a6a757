/**
 * Pure conversation logic of the sandbox phone: merging the transcript with live frames and the
 * phone's own pending sends (no duplicate, oldest first, statuses only moving forward), read ticks,
 * which company messages still need a read receipt, and how each message is shown.
 */
import { customerMessage, outboundMessage, type EntryStatus, type PhoneEntry, type SendableType } from "./protocol";

const RANK: Record<EntryStatus, number> = { failed: 0, pending: 0, sent: 1, delivered: 2, read: 3 };

/** The more advanced of two statuses (a confirmed send replaces pending or failed). */
export function laterStatus(a: EntryStatus, b: EntryStatus): EntryStatus {
  if (RANK[b] > RANK[a]) return b;
  if (RANK[a] > RANK[b]) return a;
  return b;
}

/** Orders lines by time, then id (stable for equal times). */
function byTime(a: PhoneEntry, b: PhoneEntry): number {
  return a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * `current` with `incoming` merged in: one line per id (the first time seen kept, the message kept
 * from the first copy, the status the most advanced), oldest first.
 */
export function mergeEntries(current: readonly PhoneEntry[], incoming: readonly PhoneEntry[]): PhoneEntry[] {
  const byId = new Map<string, PhoneEntry>();
  for (const entry of current) byId.set(entry.id, entry);
  for (const entry of incoming) {
    const existing = byId.get(entry.id);
    byId.set(entry.id, existing ? { ...existing, status: laterStatus(existing.status, entry.status) } : entry);
  }
  return [...byId.values()].sort(byTime);
}

/** Sets one line's status (only forward, except a retry moving failed → pending). */
export function setEntryStatus(entries: readonly PhoneEntry[], id: string, status: EntryStatus): PhoneEntry[] {
  return entries.map((e) => {
    if (e.id !== id) return e;
    if (e.status === "failed" && status === "pending") return { ...e, status };
    if (status === "failed") return e.status === "pending" ? { ...e, status } : e;
    return { ...e, status: laterStatus(e.status, status) };
  });
}

/**
 * The company read the customer's message `externalId`: it and every earlier message of the
 * customer get the blue ticks. Answers the lines and the time read up to (null when unknown).
 */
export function applyRead(entries: readonly PhoneEntry[], externalId: string): { entries: PhoneEntry[]; upTo: number | null } {
  const target = entries.find((e) => e.id === externalId && e.direction === "from_customer");
  if (!target) return { entries: [...entries], upTo: null };
  return { entries: applyReadUpTo(entries, target.at), upTo: target.at };
}

/** Marks the customer's messages sent at or before `upTo` as read. */
export function applyReadUpTo(entries: readonly PhoneEntry[], upTo: number): PhoneEntry[] {
  return entries.map((e) =>
    e.direction === "from_customer" && e.at <= upTo && (e.status === "sent" || e.status === "delivered") ? { ...e, status: "read" } : e,
  );
}

/** Ids of the company's messages the phone has shown but not yet reported read. */
export function unreadCompanyMessages(entries: readonly PhoneEntry[], reported: ReadonlySet<string>): string[] {
  return entries.filter((e) => e.direction === "to_customer" && e.status !== "read" && !reported.has(e.id)).map((e) => e.id);
}

/** The message type the phone sends for a file of `mime`. */
export function sendableTypeOf(mime: string): Extract<SendableType, "image" | "audio" | "video" | "document"> {
  if (mime.startsWith("image/")) return "image";
  if (mime.startsWith("audio/")) return "audio";
  if (mime.startsWith("video/")) return "video";
  return "document";
}

/**
 * A media URL the phone can load: the worker signs media under its PUBLIC_URL; a path under `/api/`
 * is served by this same app, so it is loaded from the page's own origin (the local port may differ).
 */
export function phoneMediaUrl(url: string, origin: string): string {
  try {
    const parsed = new URL(url, origin);
    if (parsed.pathname.startsWith("/api/")) return `${origin}${parsed.pathname}${parsed.search}`;
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : "";
  } catch {
    return "";
  }
}

/** How one line is shown on the phone. */
export type MessageView =
  | { kind: "text"; body: string }
  | { kind: "image" | "video" | "audio" | "ptv" | "sticker" | "document"; url: string | null; mime: string; fileName: string | null; caption: string }
  | { kind: "buttons"; body: string; footer: string; buttons: { id: string; title: string }[] }
  | { kind: "list"; body: string; buttonText: string; sections: { title: string; rows: { id: string; title: string; description?: string }[] }[] }
  | { kind: "link"; body: string; buttonText: string; url: string }
  | { kind: "contact"; name: string; phone: string; organization: string }
  | { kind: "reply"; body: string }
  | { kind: "unsupported" };

/**
 * Decides how a line is shown. The company's messages follow OutboundMessage; the customer's own
 * keep type, body and media name (their bytes are shown from `localMedia` when this page sent them).
 */
export function describeEntry(entry: PhoneEntry, origin: string, localMedia?: ReadonlyMap<string, string>): MessageView {
  if (entry.direction === "to_customer") {
    const parsed = outboundMessage.safeParse(entry.message);
    if (!parsed.success) return { kind: "unsupported" };
    const m = parsed.data;
    switch (m.type) {
      case "text":
        return { kind: "text", body: m.body };
      case "buttons":
        return { kind: "buttons", body: m.body, footer: m.footer ?? "", buttons: m.buttons };
      case "list":
        return { kind: "list", body: m.body, buttonText: m.buttonText, sections: m.sections };
      case "link":
        return { kind: "link", body: m.body, buttonText: m.buttonText, url: phoneMediaUrl(m.url, origin) };
      case "contact":
        return { kind: "contact", name: m.contact.name, phone: m.contact.phone, organization: m.contact.organization ?? "" };
      default:
        return {
          kind: m.type,
          url: phoneMediaUrl(m.media.url, origin) || null,
          mime: m.media.mime,
          fileName: m.media.fileName ?? null,
          caption: m.caption ?? "",
        };
    }
  }
  const parsed = customerMessage.safeParse(entry.message);
  if (!parsed.success) return { kind: "unsupported" };
  const m = parsed.data;
  if (m.type === "text") return { kind: "text", body: m.body };
  if (m.type === "button_reply" || m.type === "list_reply") return { kind: "reply", body: m.body };
  if (m.type === "image" || m.type === "audio" || m.type === "video" || m.type === "document") {
    return {
      kind: m.type,
      url: localMedia?.get(entry.id) ?? null,
      mime: m.media?.mime ?? "",
      fileName: m.media?.fileName ?? null,
      caption: m.type === "document" ? "" : m.body,
    };
  }
  return m.body ? { kind: "text", body: m.body } : { kind: "unsupported" };
}

/** A piece of WhatsApp-formatted text: `*bold*` becomes strong. */
export type TextSegment = { text: string; bold: boolean };

/** Splits WhatsApp `*bold*` markup (the attendant's name arrives as `*Name:*`). */
export function formatSegments(text: string): TextSegment[] {
  const segments: TextSegment[] = [];
  const pattern = /\*([^*\n]+)\*/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const index = match.index ?? 0;
    if (index > last) segments.push({ text: text.slice(last, index), bold: false });
    segments.push({ text: match[1] ?? "", bold: true });
    last = index + match[0].length;
  }
  if (last < text.length) segments.push({ text: text.slice(last), bold: false });
  return segments;
}

/** A short preview of a line, for the customer list. */
export function previewOf(view: MessageView): string {
  switch (view.kind) {
    case "text":
    case "reply":
    case "buttons":
    case "list":
    case "link":
      return view.body;
    case "contact":
      return view.name;
    case "unsupported":
      return "";
    default:
      return view.caption || view.fileName || "";
  }
}
