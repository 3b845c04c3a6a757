/**
 * Instagram webhook payloads → normalised events (issue 15). Pure: no I/O. Shapes from
 * shared/reference/wire-formats.md "Instagram Messaging webhooks" and wire-formats-wave2.md §3.4:
 *
 *   {"object":"instagram","entry":[{"id":"<IG account id>","time":…,
 *     "messaging":[{"sender":{"id":"<IGSID>"},"recipient":{"id":"<IG id>"},"timestamp":…,
 *                   "message"|"reaction"|"postback"|"read": {…}}],
 *     "changes":[{"field":"comments","value":{"id","from":{"id","username"},"text","media":{"id"},"parent_id"?}}]}]}
 *
 * - `message` → a customer message: text; attachments image/video/audio/file (media fetched later
 *   from the CDN URL, `kind: "provider"` with the URL as the provider id); `story_mention` → a text
 *   message with `payload.storyMention.url` (never copied, per Meta's rules); a `quick_reply` →
 *   `button_reply` with `payload.replyId`; `is_echo` (our own sends) is dropped; `is_deleted` → a
 *   revoke.
 * - `reaction` → a reaction to `mid` (`unreact` removes it).
 * - `postback` → `button_reply` with the button's payload as `replyId` and its title as the body.
 * - `read` → a `read` status of `mid`.
 * - Anything else (referral, unknown attachments) is kept as a rejected event, never dropped.
 * Comments are returned apart: they are not messages of a conversation (worker/lib/instagram-comments.ts).
 */
import type { InboundEvent, InboundMessage } from "./types";

/** The body is not an Instagram webhook envelope. */
export class InstagramShapeError extends Error {}

/** A comment on a post or reel of the account (`changes[].field == "comments"`). */
export type InstagramComment = {
  id: string;
  fromId: string;
  fromUsername: string;
  text: string;
  mediaId: string | null;
  /** Set when the comment replies to another comment (public replies only go to top-level ones). */
  parentId: string | null;
  /** When Meta says it happened (ms UTC; the entry's time). */
  time: number;
};

/** What one `entry[]` of a delivery holds for one professional account. */
export type InstagramEntry = {
  /** The account's id (`/me` `user_id`), as a string. */
  igUserId: string;
  events: InboundEvent[];
  comments: InstagramComment[];
  /** This entry as JSON text (kept with a rejected event when no connection has the account). */
  raw: string;
};

type Obj = { [key: string]: unknown };
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" && v.length > 0 ? v : typeof v === "number" && Number.isFinite(v) ? String(v) : undefined);

/** Meta's times: ms, or seconds for small values (the comment reference uses seconds). */
function millis(v: unknown, fallback: number): number {
  const n = typeof v === "number" ? v : typeof v === "string" ? Number(v) : NaN;
  if (!Number.isFinite(n) || n <= 0) return fallback;
  return n < 1e12 ? n * 1000 : n;
}

/** Attachment types stored as media, and the message type each becomes. */
const MEDIA_TYPES: Record<string, { type: InboundMessage["type"]; mime: string }> = {
  image: { type: "image", mime: "image/jpeg" },
  video: { type: "video", mime: "video/mp4" },
  audio: { type: "audio", mime: "audio/mp4" },
  file: { type: "document", mime: "application/octet-stream" },
};

/** Attachment types that are links to show (a shared post or reel), never downloaded. */
const LINK_TYPES = new Set(["share", "ig_reel", "reel", "ig_post"]);

function rejected(reason: "malformed_message" | "unknown_message_type" | "no_sender_identity", detail: string, item: unknown): InboundEvent {
  return { kind: "rejected", reason, detail, payload: JSON.stringify(item) };
}

/** One `messaging[]` item → its events (none for an echo). */
function messagingEvents(item: Obj, receivedAt: number): InboundEvent[] {
  const from = isObj(item.sender) ? str(item.sender.id) : undefined;
  const timestamp = millis(item.timestamp, receivedAt);
  if (isObj(item.read)) {
    const mid = str(item.read.mid);
    return mid ? [{ kind: "status", externalId: mid, status: "read", timestamp }] : [rejected("malformed_message", "A read receipt without mid.", item)];
  }
  if (!from) return [rejected("no_sender_identity", "A messaging event without sender.id.", item)];
  if (isObj(item.reaction)) {
    const mid = str(item.reaction.mid);
    if (!mid) return [rejected("malformed_message", "A reaction without mid.", item)];
    const emoji = item.reaction.action === "unreact" ? "" : (str(item.reaction.emoji) ?? str(item.reaction.reaction) ?? "");
    return [{ kind: "reaction", externalId: "", from, targetExternalId: mid, emoji, timestamp, raw: JSON.stringify(item) }];
  }
  if (isObj(item.postback)) {
    const payload = str(item.postback.payload);
    const title = typeof item.postback.title === "string" ? item.postback.title : "";
    const mid = str(item.postback.mid) ?? `postback:${from}:${timestamp}`;
    return [{ kind: "message", externalId: mid, from, timestamp, type: "button_reply", body: title || payload || "", payload: payload ? { replyId: payload } : {} }];
  }
  if (!isObj(item.message)) return [rejected("unknown_message_type", "A messaging event this version does not handle.", item)];
  const message = item.message;
  if (message.is_echo === true) return [];
  const mid = str(message.mid);
  if (!mid) return [rejected("malformed_message", "A message without mid.", item)];
  if (message.is_deleted === true) return [{ kind: "revoke", externalId: mid, from, timestamp, raw: JSON.stringify(item) }];
  const text = typeof message.text === "string" ? message.text : "";
  const quoted = isObj(message.reply_to) ? str(message.reply_to.mid) : undefined;
  const base = { kind: "message" as const, externalId: mid, from, timestamp, ...(quoted ? { quotedExternalId: quoted } : {}) };
  if (isObj(message.quick_reply)) {
    const replyId = str(message.quick_reply.payload);
    return [{ ...base, type: "button_reply", body: text, payload: replyId ? { replyId } : {} }];
  }
  const attachments = Array.isArray(message.attachments) ? message.attachments.filter(isObj) : [];
  if (attachments.length === 0) {
    if (!text) return [rejected("unknown_message_type", "A message without text or attachments.", item)];
    return [{ ...base, type: "text", body: text }];
  }
  // One message per attachment (Meta sends several images of one DM in one message); the first
  // keeps the mid, the others get `mid#n` so each is stored once.
  return attachments.map((attachment, index): InboundEvent => {
    const externalId = index === 0 ? mid : `${mid}#${index}`;
    const type = str(attachment.type) ?? "";
    const url = isObj(attachment.payload) ? str(attachment.payload.url) : undefined;
    const body = index === 0 ? text : "";
    if (type === "story_mention") {
      if (!url) return rejected("malformed_message", "A story mention without its CDN URL.", item);
      return { ...base, externalId, type: "text", body, payload: { storyMention: { url, at: timestamp } } };
    }
    const media = MEDIA_TYPES[type];
    if (media && url) {
      return { ...base, externalId, type: media.type, body, media: { kind: "provider", providerMediaId: url, mime: media.mime } };
    }
    if (LINK_TYPES.has(type) && url) {
      const title = isObj(attachment.payload) && typeof attachment.payload.title === "string" ? attachment.payload.title : "";
      return { ...base, externalId, type: "text", body: body || title || url, payload: { link: { url, type } } };
    }
    return {
      ...base,
      externalId,
      type: "unsupported",
      body,
      rejected: { reason: "unknown_message_type", detail: `An Instagram attachment of type "${type}" this version cannot show.`, payload: JSON.stringify(item) },
    };
  });
}

/** One `changes[]` item → a comment, or null when it is not a comment of a post or reel. */
function commentOf(change: Obj, time: number): InstagramComment | null {
  if (change.field !== "comments" || !isObj(change.value)) return null;
  const value = change.value;
  const id = str(value.id);
  const fromId = isObj(value.from) ? str(value.from.id) : undefined;
  if (!id || !fromId) return null;
  return {
    id,
    fromId,
    fromUsername: isObj(value.from) && typeof value.from.username === "string" ? value.from.username : "",
    text: typeof value.text === "string" ? value.text : "",
    mediaId: isObj(value.media) ? (str(value.media.id) ?? null) : null,
    parentId: str(value.parent_id) ?? null,
    time,
  };
}

/**
 * Parses one delivery (already authenticated). Throws InstagramShapeError when `body` is not
 * `{object: "instagram", entry: [...]}`. Entries without an id are skipped (nothing to route by).
 */
export function parseInstagramWebhook(body: unknown, receivedAt = Date.now()): InstagramEntry[] {
  if (!isObj(body) || body.object !== "instagram" || !Array.isArray(body.entry)) throw new InstagramShapeError("Not an Instagram webhook envelope.");
  const entries: InstagramEntry[] = [];
  for (const entry of body.entry) {
    if (!isObj(entry)) continue;
    const igUserId = str(entry.id);
    if (!igUserId) continue;
    const time = millis(entry.time, receivedAt);
    const events: InboundEvent[] = [];
    for (const item of Array.isArray(entry.messaging) ? entry.messaging : []) {
      if (isObj(item)) events.push(...messagingEvents(item, receivedAt));
    }
    const comments: InstagramComment[] = [];
    for (const change of Array.isArray(entry.changes) ? entry.changes : []) {
      if (!isObj(change)) continue;
      const comment = commentOf(change, time);
      // The account's own comments (its public replies) also arrive: never act on them (no loops).
      if (comment && comment.fromId !== igUserId) comments.push(comment);
    }
    entries.push({ igUserId, events, comments, raw: JSON.stringify(entry) });
  }
  return entries;
}

/** The story-mention CDN URL an inbound message carries, or null. */
export function storyMentionUrl(message: Pick<InboundMessage, "payload">): string | null {
  const mention = message.payload?.storyMention;
  if (!isObj(mention)) return null;
  return typeof mention.url === "string" ? mention.url : null;
}
