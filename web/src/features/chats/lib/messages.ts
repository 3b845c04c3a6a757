/**
 * Pure logic of the conversation: message order and de-duplication (the worker's order is
 * `(sentAt, seq)`, DESIGN.md "The main job"), live events merged into the loaded pages, optimistic
 * messages, delivery ticks, day groups, link detection and sizes.
 */
import type { MessageAnswer } from "../../../../../schema/realtime";
import type { MessageStatus } from "../../../../../schema/tickets";
import type { MessagePage } from "@/lib/answers";
import { dayKey as zonedDayKey } from "@/lib/dates";

/** Paged conversation data as react-query's infinite query keeps it: page 0 is the newest. */
export type MessagePages = { pages: MessagePage[]; pageParams: unknown[] };

/** The customer's order: provider time, then the ticket's sequence number. */
export function compareMessages(a: Pick<MessageAnswer, "sentAt" | "seq">, b: Pick<MessageAnswer, "sentAt" | "seq">): number {
  if (a.sentAt !== b.sentAt) return a.sentAt - b.sentAt;
  return a.seq - b.seq;
}

const STATUS_RANK: Record<MessageStatus, number> = { pending: 0, received: 0, sent: 1, failed: 1.5, delivered: 2, read: 3 };

/**
 * The fresher of two versions of one message. Events can arrive out of order (room socket, hub,
 * the POST's answer, a refetch), and a status only moves forward, so a version never takes the
 * message back to an earlier status; a deletion always sticks.
 */
export function fresherMessage(current: MessageAnswer, incoming: MessageAnswer): MessageAnswer {
  if (current.deleted && !incoming.deleted) return current;
  if (incoming.deleted) return incoming;
  if (STATUS_RANK[incoming.status] < STATUS_RANK[current.status]) return { ...incoming, status: current.status, error: current.error };
  return incoming;
}

/** Every message of several lists once (by id, fresher version kept), oldest first. */
export function mergeMessages(...lists: readonly MessageAnswer[][]): MessageAnswer[] {
  const byId = new Map<string, MessageAnswer>();
  for (const list of lists) {
    for (const message of list) {
      const current = byId.get(message.id);
      byId.set(message.id, current ? fresherMessage(current, message) : message);
    }
  }
  return [...byId.values()].sort(compareMessages);
}

/**
 * A created or updated message applied to the loaded pages: replaces the version held (in any
 * page), else joins the newest page. Answers the same object when nothing changed.
 */
export function upsertMessage(data: MessagePages, message: MessageAnswer): MessagePages {
  let found = false;
  const pages = data.pages.map((page) => {
    const index = page.results.findIndex((m) => m.id === message.id);
    if (index < 0) return page;
    found = true;
    const current = page.results[index];
    if (!current) return page;
    const next = fresherMessage(current, message);
    const results = [...page.results];
    results[index] = next;
    return { ...page, results };
  });
  if (found) return { ...data, pages };
  const [newest, ...older] = data.pages;
  if (!newest) return { pages: [{ results: [message], cursor: null }], pageParams: [null] };
  return { ...data, pages: [{ ...newest, results: [...newest.results, message] }, ...older] };
}

/** The conversation of the loaded pages: oldest first, each message once. */
export function flattenMessages(data: MessagePages | undefined): MessageAnswer[] {
  if (!data) return [];
  return mergeMessages(...data.pages.map((page) => page.results));
}

/** What a member's send carries; kept to retry with the same idempotency key. */
export type Draft =
  | { kind: "text"; body: string; quotedId?: string }
  | { kind: "file"; file: File; body: string; type?: "image" | "audio" | "video" | "document" | "ptv"; quotedId?: string };

/** An optimistic message: shown as pending until the server's message replaces it. */
export type LocalMessage = {
  /** The client-generated idempotency key (crypto.randomUUID()). */
  key: string;
  ticketId: string;
  draft: Draft;
  /** The bubble shown meanwhile. */
  message: MessageAnswer;
  /** The send failed; a retry sends the same key, so it never sends twice. */
  failed: boolean;
  /** Object URL of a file draft's preview, revoked when the local message goes. */
  previewUrl: string | null;
  /** Ids of the messages stored when it was written: its server copy is none of them. */
  seenIds: ReadonlySet<string>;
};

/** A conversation entry: a stored message, or an optimistic one with its key. */
export type ChatMessage = MessageAnswer & { local?: { key: string; failed: boolean } };

/** Whether a stored message is the server's copy of a local one (same kind and content, stored after it). */
function isCopyOf(stored: MessageAnswer, local: LocalMessage): boolean {
  if (stored.direction !== "out" || local.seenIds.has(stored.id)) return false;
  if (local.draft.kind === "text") return stored.type === "text" && stored.body.trim() === local.draft.body.trim();
  return stored.type === local.message.type && stored.media?.size === local.draft.file.size && stored.body.trim() === local.draft.body.trim();
}

/**
 * Stored messages plus the optimistic ones not stored yet, oldest first. The room socket usually
 * brings the stored copy before the POST answers; a local message whose copy is already listed
 * (matched one-to-one by content, among messages stored after it was written) is dropped, so
 * nothing shows twice.
 */
export function withLocalMessages(stored: MessageAnswer[], local: readonly LocalMessage[]): ChatMessage[] {
  if (!local.length) return stored;
  const claimed = new Set<string>();
  const pending: ChatMessage[] = [];
  for (const l of local) {
    const copy = stored.find((m) => !claimed.has(m.id) && isCopyOf(m, l));
    if (copy) claimed.add(copy.id);
    else pending.push({ ...l.message, local: { key: l.key, failed: l.failed } });
  }
  if (!pending.length) return stored;
  return [...stored, ...pending].sort(compareMessages);
}

/** The optimistic bubble of a draft (status `pending`, sorted last by an infinite seq). */
export function localMessageOf(key: string, ticketId: string, draft: Draft, at: number, previewUrl: string | null, sender: string | null): MessageAnswer {
  const file = draft.kind === "file" ? draft.file : null;
  const mime = file?.type || "application/octet-stream";
  return {
    id: `local:${key}`,
    ticketId,
    contactId: "",
    direction: "out",
    type: file ? (draft.kind === "file" && draft.type) || mediaTypeOf(mime) : "text",
    body: draft.body,
    payload: null,
    media: file ? { url: previewUrl ?? "", mime, name: file.name || null, size: file.size } : null,
    quoted: null,
    status: "pending",
    error: null,
    sentAt: at,
    seq: Number.MAX_SAFE_INTEGER,
    sender: { memberId: null, name: sender },
    deleted: false,
    editedAt: null,
    forwarded: false,
    reactions: [],
    createdAt: at,
  };
}

/** The message type a file goes as, from its MIME type (the worker's rule). */
export function mediaTypeOf(mime: string): "image" | "audio" | "video" | "document" {
  if (mime.startsWith("image/")) return "image";
  if (mime.startsWith("audio/")) return "audio";
  if (mime.startsWith("video/")) return "video";
  return "document";
}

/** The ticket list's preview of a message (the worker's `previewOf`). */
export function previewOf(message: Pick<MessageAnswer, "type" | "body">): string {
  const body = message.body.trim();
  return body ? body.slice(0, 120) : `[${message.type}]`;
}

/** The delivery tick of an outbound message (null for the customer's messages). */
export type Tick = "clock" | "sent" | "delivered" | "read" | "failed";

/** Maps a message's status to its tick: pending clock, sent ✓, delivered ✓✓, read ✓✓ blue, failed ⚠. */
export function tickOf(message: Pick<MessageAnswer, "direction" | "status">): Tick | null {
  if (message.direction !== "out") return null;
  switch (message.status) {
    case "pending":
    case "received":
      return "clock";
    case "sent":
      return "sent";
    case "delivered":
      return "delivered";
    case "read":
      return "read";
    case "failed":
      return "failed";
  }
}

/** One day of the conversation. `day` is YYYY-MM-DD in the time zone used. */
export type DayGroup<T> = { day: string; at: number; messages: T[] };

/** The calendar day (YYYY-MM-DD) of a time in a time zone (the viewer's when omitted; web/src/lib/dates.ts). */
export function dayKey(at: number, timeZone?: string): string {
  return zonedDayKey(at, timeZone);
}

/** Groups messages (already in order) by calendar day, for the day separators. */
export function groupByDay<T extends Pick<MessageAnswer, "sentAt">>(messages: readonly T[], timeZone?: string): DayGroup<T>[] {
  const groups: DayGroup<T>[] = [];
  for (const message of messages) {
    const day = dayKey(message.sentAt, timeZone);
    const last = groups[groups.length - 1];
    if (last && last.day === day) last.messages.push(message);
    else groups.push({ day, at: message.sentAt, messages: [message] });
  }
  return groups;
}

/** How a time is labelled relative to now: today → clock time, yesterday, this week → weekday, else a date. */
export type RelativeDay = "today" | "yesterday" | "week" | "older";

/** Which label a time gets relative to `now` (calendar days in the time zone). */
export function relativeDay(at: number, now: number, timeZone?: string): RelativeDay {
  const day = Date.parse(`${dayKey(at, timeZone)}T00:00:00Z`);
  const today = Date.parse(`${dayKey(now, timeZone)}T00:00:00Z`);
  const diff = Math.round((today - day) / 86_400_000);
  if (diff <= 0) return "today";
  if (diff === 1) return "yesterday";
  if (diff < 7) return "week";
  return "older";
}

/** A piece of message text: plain text or a link. */
export type TextSegment = { kind: "text"; text: string } | { kind: "link"; text: string; href: string };

const LINK = /\b(?:https?:\/\/|www\.)[^\s<>"']+/gi;

/** Splits text into plain parts and http(s) links (trailing punctuation stays text). */
export function splitLinks(text: string): TextSegment[] {
  const out: TextSegment[] = [];
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    const start = match.index;
    let raw = match[0];
    const trailing = /[.,;:!?)\]]+$/.exec(raw);
    if (trailing) raw = raw.slice(0, raw.length - trailing[0].length);
    if (!raw) continue;
    if (start > last) out.push({ kind: "text", text: text.slice(last, start) });
    out.push({ kind: "link", text: raw, href: raw.toLowerCase().startsWith("www.") ? `https://${raw}` : raw });
    last = start + raw.length;
  }
  if (last < text.length) out.push({ kind: "text", text: text.slice(last) });
  return out;
}

/** A byte count for people: 532 B, 1.4 KB, 12 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 10 ? Math.round(value) : Math.round(value * 10) / 10} ${units[unit]}`;
}
