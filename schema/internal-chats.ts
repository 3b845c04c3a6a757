/**
 * Internal chat (spec §2 Internal chat, §3 Internal chat message; issue 12): conversations between
 * members of one company. A `direct` conversation joins exactly two members and exists once per pair
 * (`direct_key`, the two member ids sorted); a `group` has a name and any number of members.
 *
 * Every conversation keeps its own message sequence (`last_seq`, bumped in the same D1 batch that
 * inserts the message), so messages page by `seq` and a member's unread count is
 * `last_seq - last_read_seq` (a member's own message moves their read mark, so only others' count).
 */
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "./columns";

/** The two kinds of internal conversation. */
export const INTERNAL_CHAT_KINDS = ["direct", "group"] as const;
export type InternalChatKind = (typeof INTERNAL_CHAT_KINDS)[number];

export const internalChats = sqliteTable(
  "internal_chats",
  {
    id: id(),
    companyId: text("company_id").notNull(),
    kind: text("kind", { enum: INTERNAL_CHAT_KINDS }).notNull(),
    /** A group's name; null for a direct conversation (it shows the other member's name). */
    name: text("name"),
    /** A direct conversation's pair: the two members.id sorted and joined by ":"; null for groups. */
    directKey: text("direct_key"),
    /** members.id of who created it (a group's creator may remove other members). */
    createdByMemberId: text("created_by_member_id").notNull(),
    /** The sequence number of the newest message (0 when none). */
    lastSeq: integer("last_seq").notNull().default(0),
    /** The newest message's preview line (text or attachment name); "" when none. */
    lastMessagePreview: text("last_message_preview").notNull().default(""),
    lastMessageAt: integer("last_message_at"),
    /** The newest message's time, else the creation time: the list's order (ms UTC). */
    activityAt: integer("activity_at").notNull(),
    ...timestamps,
  },
  (t) => [
    // One direct conversation per pair of members (POST answers the existing one).
    uniqueIndex("internal_chats_direct_uq").on(t.companyId, t.directKey),
  ],
);

export const internalChatMembers = sqliteTable(
  "internal_chat_members",
  {
    companyId: text("company_id").notNull(),
    chatId: text("chat_id").notNull(),
    /** members.id; the row goes when the member leaves the group or the company. */
    memberId: text("member_id").notNull(),
    /** The sequence number of the last message this member has read. */
    lastReadSeq: integer("last_read_seq").notNull().default(0),
    joinedAt: integer("joined_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.chatId, t.memberId] }),
    // "My conversations" (the list) and removal from the company.
    index("internal_chat_members_member_idx").on(t.companyId, t.memberId),
  ],
);

export const internalChatMessages = sqliteTable(
  "internal_chat_messages",
  {
    id: id(),
    companyId: text("company_id").notNull(),
    chatId: text("chat_id").notNull(),
    /** Order inside the conversation, from internal_chats.last_seq. */
    seq: integer("seq").notNull(),
    /** members.id of the sender (kept after they leave; the name below is what is shown). */
    senderMemberId: text("sender_member_id").notNull(),
    senderName: text("sender_name").notNull(),
    body: text("body").notNull().default(""),
    mediaKey: text("media_key"),
    /** Typed by the bytes (worker/lib/sniff.ts), never by the client's word. */
    mediaMime: text("media_mime"),
    mediaName: text("media_name"),
    mediaSize: integer("media_size"),
    /** members.id of the members the text @mentions (and who were notified). */
    mentions: text("mentions", { mode: "json" }).$type<string[]>().notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    // Keyset paging newest first, and no two messages with one place in the conversation.
    uniqueIndex("internal_chat_messages_chat_seq_uq").on(t.chatId, t.seq),
    // The company's media (data cleanup) and tenancy checks.
    index("internal_chat_messages_company_idx").on(t.companyId, t.createdAt),
  ],
);

export type InternalChatRow = typeof internalChats.$inferSelect;
export type InternalChatMemberRow = typeof internalChatMembers.$inferSelect;
export type InternalChatMessageRow = typeof internalChatMessages.$inferSelect;
