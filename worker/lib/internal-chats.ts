/**
 * Internal chat (issue 12, spec §2 Internal chat): conversations between members of one company,
 * their members, messages and read marks (schema/internal-chats.ts), and how they reach the members
 * live.
 *
 * Real time: through the company hub, not a Durable Object per conversation. Every event is
 * published with `audience.members` = the conversation's members (CompanyHub.canSee drops it for
 * every other socket, on the live push and on replay), so it rides the hub's per-company sequence
 * numbers: a client that reconnects with `?after=<seq>` gets every message, read mark, rename and
 * mention it missed, in order, exactly once, as the chat centre does. That is the cheapest correct
 * design: the members already hold one hub socket per tab, the hub already filters by member, and a
 * room per conversation would add one more socket per open conversation plus its own catch-up log.
 * The order of messages inside a conversation comes from D1 (`seq`, bumped in the batch that stores
 * the message), not from the hub. Typing ("typing"/"paused", at most one every 3 s per typist) goes
 * through the same log: a replayed typing event older than a few seconds is ignored by the client.
 *
 * Visibility: only a conversation's members read it; every lookup filters on the company and on an
 * `internal_chat_members` row of the caller, so anybody else gets 404. A member removed from the
 * company leaves all its conversations (`removeFromInternalChats`, called by the members route).
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { internalChatMembers, internalChatMessages, internalChats, members, users, type InternalChatMessageRow, type InternalChatRow } from "../../schema";
import type { HubEventBody } from "../../schema/realtime";
import type { InternalChatAnswer, InternalChatMemberAnswer, InternalMessageAnswer } from "../../schema/validation/internal-chats";
import type { AppEnv } from "../env";
import { chunk } from "./cursor";
import type { Db } from "./db";
import { AppError, notFound } from "./errors";
import { newId } from "./ids";
import { signedMediaUrl } from "./media";
import { fileUrl } from "./present";
import { hubOf } from "./realtime";

/** The caller's conversation: the row and their read mark; 404 `not_found` when it is another company's or they are not a member. */
export async function findMemberChat(db: Db, companyId: string, chatId: string, memberId: string): Promise<{ chat: InternalChatRow; lastReadSeq: number }> {
  const [row] = await db
    .select({ chat: internalChats, lastReadSeq: internalChatMembers.lastReadSeq })
    .from(internalChatMembers)
    .innerJoin(internalChats, and(eq(internalChats.id, internalChatMembers.chatId), eq(internalChats.companyId, companyId)))
    .where(and(eq(internalChatMembers.companyId, companyId), eq(internalChatMembers.chatId, chatId), eq(internalChatMembers.memberId, memberId)))
    .limit(1);
  if (!row) throw notFound("Conversation");
  return row;
}

/** The members of each conversation (by name), as the API shows them. */
export async function membersOfChats(db: Db, companyId: string, chatIds: readonly string[]): Promise<Map<string, InternalChatMemberAnswer[]>> {
  const byChat = new Map<string, InternalChatMemberAnswer[]>();
  for (const ids of chunk([...new Set(chatIds)], 90)) {
    const rows = await db
      .select({ chatId: internalChatMembers.chatId, memberId: members.id, userId: users.id, name: users.name, imageKey: users.imageKey })
      .from(internalChatMembers)
      .innerJoin(members, and(eq(members.id, internalChatMembers.memberId), eq(members.companyId, companyId)))
      .innerJoin(users, eq(users.id, members.userId))
      .where(and(eq(internalChatMembers.companyId, companyId), inArray(internalChatMembers.chatId, ids)))
      .orderBy(asc(users.name), asc(members.id));
    for (const row of rows) {
      const list = byChat.get(row.chatId) ?? [];
      list.push({ memberId: row.memberId, userId: row.userId, name: row.name, image: fileUrl(row.imageKey) });
      byChat.set(row.chatId, list);
    }
  }
  return byChat;
}

/** Conversations with the caller's read marks → answers, members included. */
export async function presentChats(db: Db, companyId: string, rows: readonly { chat: InternalChatRow; lastReadSeq: number }[]): Promise<InternalChatAnswer[]> {
  const membersByChat = await membersOfChats(db, companyId, rows.map((r) => r.chat.id));
  return rows.map(({ chat, lastReadSeq }) => ({
    id: chat.id,
    kind: chat.kind,
    name: chat.name,
    createdByMemberId: chat.createdByMemberId,
    members: membersByChat.get(chat.id) ?? [],
    lastMessage: chat.lastMessageAt === null ? null : { preview: chat.lastMessagePreview, at: chat.lastMessageAt },
    lastSeq: chat.lastSeq,
    lastReadSeq,
    unreadCount: Math.max(0, chat.lastSeq - lastReadSeq),
    activityAt: chat.activityAt,
    createdAt: chat.createdAt,
  }));
}

/** Message rows → answers, media as signed, expiring URLs (worker/lib/media.ts). */
export async function presentInternalMessages(env: AppEnv, rows: readonly InternalChatMessageRow[]): Promise<InternalMessageAnswer[]> {
  const at = Date.now();
  return Promise.all(
    rows.map(async (row) => ({
      id: row.id,
      chatId: row.chatId,
      seq: row.seq,
      sender: { memberId: row.senderMemberId, name: row.senderName },
      body: row.body,
      media: row.mediaKey
        ? { url: await signedMediaUrl(env, row.mediaKey, at), mime: row.mediaMime ?? "application/octet-stream", name: row.mediaName, size: row.mediaSize }
        : null,
      mentions: row.mentions,
      createdAt: row.createdAt,
    })),
  );
}

/**
 * The members of `companyId` among `memberIds` with their names; 400 `validation_failed` naming
 * `field` (`invalid_id`) when any is not a member of the company.
 */
export async function companyMembersOf(db: Db, companyId: string, memberIds: readonly string[], field: string): Promise<{ memberId: string; name: string }[]> {
  const wanted = [...new Set(memberIds)];
  const found: { memberId: string; name: string }[] = [];
  for (const ids of chunk(wanted, 90)) {
    found.push(
      ...(await db
        .select({ memberId: members.id, name: users.name })
        .from(members)
        .innerJoin(users, eq(users.id, members.userId))
        .where(and(eq(members.companyId, companyId), inArray(members.id, ids)))),
    );
  }
  if (found.length !== wanted.length) throw new AppError("validation_failed", "That member is not in this company.", { [field]: "invalid_id" });
  return found;
}

/** The member ids of a conversation now. */
export async function chatMemberIds(db: Db, companyId: string, chatId: string): Promise<string[]> {
  const rows = await db
    .select({ memberId: internalChatMembers.memberId })
    .from(internalChatMembers)
    .where(and(eq(internalChatMembers.companyId, companyId), eq(internalChatMembers.chatId, chatId)));
  return rows.map((r) => r.memberId);
}

/** Publishes `body` on the company hub to `memberIds` only (no-op without members). */
export async function publishToMembers(env: AppEnv, companyId: string, memberIds: readonly string[], body: HubEventBody): Promise<void> {
  const audience = [...new Set(memberIds)];
  if (audience.length === 0) return;
  await hubOf(env, companyId).publish(body, { members: audience });
}

/** The one-line preview of a message in the list: its text, else the attachment's name. */
export function previewOf(body: string, fileName: string | null): string {
  const text = body.trim().replace(/\s+/g, " ");
  if (text) return text.slice(0, 200);
  return fileName ? `📎 ${fileName}`.slice(0, 200) : "📎";
}

/** What a member sends: text, and an attachment already stored in R2. */
export type InternalMessageDraft = {
  body: string;
  media: { key: string; mime: string; name: string | null; size: number } | null;
  mentions: string[];
};

/**
 * Stores a message in one D1 batch (the conversation's `last_seq` bumped, the message inserted with
 * it, the sender's read mark moved to it) and answers the stored row.
 */
export async function appendMessage(
  db: Db,
  companyId: string,
  chatId: string,
  sender: { memberId: string; name: string },
  draft: InternalMessageDraft,
): Promise<InternalChatMessageRow> {
  const at = Date.now();
  const id = newId();
  const currentSeq = sql`(SELECT ${internalChats.lastSeq} FROM ${internalChats} WHERE ${internalChats.id} = ${chatId})`;
  const [, , , stored] = await db.batch([
    db
      .update(internalChats)
      .set({ lastSeq: sql`${internalChats.lastSeq} + 1`, lastMessagePreview: previewOf(draft.body, draft.media?.name ?? null), lastMessageAt: at, activityAt: at, updatedAt: at })
      .where(and(eq(internalChats.id, chatId), eq(internalChats.companyId, companyId))),
    db.insert(internalChatMessages).values({
      id,
      companyId,
      chatId,
      seq: currentSeq,
      senderMemberId: sender.memberId,
      senderName: sender.name,
      body: draft.body,
      mediaKey: draft.media?.key ?? null,
      mediaMime: draft.media?.mime ?? null,
      mediaName: draft.media?.name ?? null,
      mediaSize: draft.media?.size ?? null,
      mentions: draft.mentions,
      createdAt: at,
    }),
    db
      .update(internalChatMembers)
      .set({ lastReadSeq: currentSeq })
      .where(and(eq(internalChatMembers.companyId, companyId), eq(internalChatMembers.chatId, chatId), eq(internalChatMembers.memberId, sender.memberId))),
    db.select().from(internalChatMessages).where(eq(internalChatMessages.id, id)),
  ]);
  const row = stored[0];
  if (!row) throw new Error("internal chat message not stored");
  return row;
}

/**
 * A member removed from the company leaves every internal conversation (issue 12): their
 * membership rows go, and the conversations' remaining members are told to refetch them. Called by
 * DELETE /api/companies/members/{id} after the membership is deleted; their messages stay, under
 * the name they had.
 */
export async function removeFromInternalChats(env: AppEnv, db: Db, companyId: string, memberId: string): Promise<void> {
  const chats = await db
    .select({ chatId: internalChatMembers.chatId })
    .from(internalChatMembers)
    .where(and(eq(internalChatMembers.companyId, companyId), eq(internalChatMembers.memberId, memberId)));
  if (chats.length === 0) return;
  await db.delete(internalChatMembers).where(and(eq(internalChatMembers.companyId, companyId), eq(internalChatMembers.memberId, memberId)));
  for (const { chatId } of chats) {
    await publishToMembers(env, companyId, await chatMemberIds(db, companyId, chatId), { type: "internal_chat.updated", chatId });
  }
}
