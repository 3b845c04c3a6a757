/**
 * Pure logic of the internal chat screen: a conversation's title, the list and the message pages
 * updated in place by live events (order by `seq`, each message once), unread counts, typing
 * indicators that expire, the @mention being typed and the media kind of an attachment.
 */
import type { InternalChatAnswer, InternalChatMemberAnswer, InternalChatPage, InternalMessageAnswer, InternalMessagePage } from "../../../../../schema/validation/internal-chats";

/** Paged data as react-query's infinite query keeps it: page 0 is the newest. */
export type Pages<T> = { pages: T[]; pageParams: unknown[] };

/** The other members of a conversation (everybody but `memberId`). */
export function othersOf(chat: Pick<InternalChatAnswer, "members">, memberId: string | null): InternalChatMemberAnswer[] {
  return chat.members.filter((m) => m.memberId !== memberId);
}

/**
 * What a conversation is called: a group's name; for a direct conversation the other member's
 * name, or null when they left the company (the screen says "Former member").
 */
export function chatTitle(chat: Pick<InternalChatAnswer, "kind" | "name" | "members">, memberId: string | null): string | null {
  if (chat.kind === "group") return chat.name ?? "";
  return othersOf(chat, memberId)[0]?.name ?? null;
}

/** Every conversation of the loaded pages, once, latest activity first. */
export function flattenChats(data: Pages<InternalChatPage> | undefined): InternalChatAnswer[] {
  if (!data) return [];
  const seen = new Set<string>();
  const out: InternalChatAnswer[] = [];
  for (const page of data.pages) {
    for (const chat of page.results) {
      if (seen.has(chat.id)) continue;
      seen.add(chat.id);
      out.push(chat);
    }
  }
  return out.sort((a, b) => b.activityAt - a.activityAt || (a.id < b.id ? 1 : -1));
}

/**
 * A new message applied to one conversation of the list: preview, time, sequence, and the unread
 * count (+1 for someone else's message, unless the conversation is open in front of the member;
 * 0 for the member's own). Answers the same chat when the message is not newer than what it holds.
 */
export function chatWithMessage(chat: InternalChatAnswer, message: InternalMessageAnswer, memberId: string | null, open: boolean): InternalChatAnswer {
  if (message.seq <= chat.lastSeq) return chat;
  const own = message.sender.memberId === memberId;
  const read = own || open;
  return {
    ...chat,
    lastSeq: message.seq,
    lastMessage: { preview: previewOf(message), at: message.createdAt },
    activityAt: Math.max(chat.activityAt, message.createdAt),
    lastReadSeq: read ? message.seq : chat.lastReadSeq,
    unreadCount: read ? 0 : chat.unreadCount + 1,
  };
}

/** The list line of a message: its text, else its attachment's name. */
export function previewOf(message: Pick<InternalMessageAnswer, "body" | "media">): string {
  const text = message.body.trim().replace(/\s+/g, " ");
  if (text) return text.slice(0, 200);
  return message.media?.name ? `📎 ${message.media.name}` : "📎";
}

/** A read mark applied to a conversation (another tab of the member read it). */
export function chatRead(chat: InternalChatAnswer, lastReadSeq: number): InternalChatAnswer {
  if (lastReadSeq <= chat.lastReadSeq && chat.unreadCount === 0) return chat;
  const mark = Math.max(chat.lastReadSeq, lastReadSeq);
  return { ...chat, lastReadSeq: mark, unreadCount: Math.max(0, chat.lastSeq - mark) };
}

/** Applies `update` to the conversation `chatId` in every loaded page; the same object when absent. */
export function mapChatPages(data: Pages<InternalChatPage>, chatId: string, update: (chat: InternalChatAnswer) => InternalChatAnswer): Pages<InternalChatPage> {
  let changed = false;
  const pages = data.pages.map((page) => {
    const index = page.results.findIndex((c) => c.id === chatId);
    const current = page.results[index];
    if (index < 0 || !current) return page;
    const next = update(current);
    if (next === current) return page;
    changed = true;
    const results = [...page.results];
    results[index] = next;
    return { ...page, results };
  });
  return changed ? { ...data, pages } : data;
}

/** Whether any loaded page holds conversation `chatId`. */
export function hasChat(data: Pages<InternalChatPage> | undefined, chatId: string): boolean {
  return !!data?.pages.some((page) => page.results.some((c) => c.id === chatId));
}

/** Every message of the loaded pages, once, oldest first (by the conversation's `seq`). */
export function flattenMessages(data: Pages<InternalMessagePage> | undefined): InternalMessageAnswer[] {
  if (!data) return [];
  const byId = new Map<string, InternalMessageAnswer>();
  for (const page of data.pages) for (const message of page.results) byId.set(message.id, message);
  return [...byId.values()].sort((a, b) => a.seq - b.seq);
}

/** A message joined to the newest loaded page (once: a message already held is left as it is). */
export function withMessage(data: Pages<InternalMessagePage>, message: InternalMessageAnswer): Pages<InternalMessagePage> {
  if (data.pages.some((page) => page.results.some((m) => m.id === message.id))) return data;
  const [newest, ...older] = data.pages;
  if (!newest) return { pages: [{ results: [message], cursor: null }], pageParams: [null] };
  return { ...data, pages: [{ ...newest, results: [...newest.results, message] }, ...older] };
}

/** How long a "typing" event shows without a newer one (ms). */
export const TYPING_SHOWN_MS = 6000;

/** Who is typing where: `chatId → memberId → {name, until}`. */
export type TypingState = ReadonlyMap<string, ReadonlyMap<string, { name: string; until: number }>>;

/**
 * A typing event applied at `now` (its hub time `at`): "typing" shows the member until
 * `at + TYPING_SHOWN_MS`, "paused" removes them. An event older than that (a replay after a
 * reconnect) changes nothing.
 */
export function applyTyping(state: TypingState, event: { chatId: string; memberId: string; name: string; state: "typing" | "paused"; at: number }, now: number): TypingState {
  if (event.state === "typing" && event.at + TYPING_SHOWN_MS <= now) return state;
  const next = new Map(state);
  const inChat = new Map(next.get(event.chatId) ?? []);
  if (event.state === "typing") inChat.set(event.memberId, { name: event.name, until: event.at + TYPING_SHOWN_MS });
  else inChat.delete(event.memberId);
  if (inChat.size) next.set(event.chatId, inChat);
  else next.delete(event.chatId);
  return next;
}

/** The names typing in `chatId` at `now` (a member's message also ends their typing: `without`). */
export function typingNames(state: TypingState, chatId: string, now: number): string[] {
  const inChat = state.get(chatId);
  if (!inChat) return [];
  return [...inChat.values()].filter((entry) => entry.until > now).map((entry) => entry.name);
}

/** The member removed from the typing list of `chatId` (they sent their message). */
export function stopTyping(state: TypingState, chatId: string, memberId: string): TypingState {
  const inChat = state.get(chatId);
  if (!inChat?.has(memberId)) return state;
  const next = new Map(state);
  const rest = new Map(inChat);
  rest.delete(memberId);
  if (rest.size) next.set(chatId, rest);
  else next.delete(chatId);
  return next;
}

/**
 * The @mention being typed at `caret` in `text`: the `@` position and what follows it (letters,
 * digits, spaces inside a name), or null when the caret is not in one. A mention starts at the
 * beginning or after whitespace.
 */
export function mentionAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const at = before.lastIndexOf("@");
  if (at < 0) return null;
  if (at > 0 && !/\s/.test(before.charAt(at - 1))) return null;
  const query = before.slice(at + 1);
  if (query.length > 40 || /[\n@]/.test(query) || /\s{2,}/.test(query)) return null;
  return { start: at, query };
}

/** Members whose name matches the mention being typed (each word of `query` starts a word of the name). */
export function mentionCandidates<T extends { name: string }>(members: readonly T[], query: string, limit = 6): T[] {
  const words = query.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  const matches = members.filter((member) => {
    const nameWords = member.name.toLocaleLowerCase().split(/\s+/);
    return words.every((word, index) => (index === words.length - 1 ? nameWords.some((w) => w.startsWith(word)) : nameWords.includes(word)));
  });
  return matches.slice(0, limit);
}

/** `text` with the mention at `start` (up to `caret`) replaced by `@Name `; answers the text and the new caret. */
export function insertMention(text: string, start: number, caret: number, name: string): { text: string; caret: number } {
  const inserted = `@${name} `;
  return { text: text.slice(0, start) + inserted + text.slice(caret), caret: start + inserted.length };
}

/** How an attachment is shown, from its type (stored from the bytes by the worker). */
export function mediaKind(mime: string): "image" | "audio" | "video" | "document" {
  if (mime.startsWith("image/")) return "image";
  if (mime.startsWith("audio/")) return "audio";
  if (mime.startsWith("video/")) return "video";
  return "document";
}
