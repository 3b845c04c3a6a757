/**
 * Internal chat (issue 12, spec §2 Internal chat, §3 Internal chat message): conversations between
 * members of the active company. Permission `internal_chats`. Only a conversation's members read,
 * post to, mark read or edit it: anybody else, and another company's ids, get 404 (never 403, so a
 * conversation's existence does not leak). Real time through the company hub, to the members only
 * (worker/lib/internal-chats.ts explains the design and the catch-up after a reconnect).
 *
 * - GET /api/internal-chats/members → `{results: InternalChatMemberAnswer[]}`: the company's members
 *   one can start a conversation with or add to a group (by name).
 * - GET /api/internal-chats?search=&cursor=&limit= → InternalChatPage: the caller's conversations,
 *   latest activity first (keyset), each with its members, last message and the caller's unread
 *   count. `search` matches a group's name or a member's name.
 * - POST /api/internal-chats `{kind: "direct", memberId}` → 201 the conversation, or 200 with the
 *   existing one (one per pair); `{kind: "group", name, memberIds}` → 201 (the caller is added).
 *   400 naming `memberId`/`memberIds` (`invalid_id`) for someone who is not a member of the company,
 *   `memberId: own_member` for a direct conversation with oneself.
 * - GET /api/internal-chats/{id} → InternalChatAnswer.
 * - PUT /api/internal-chats/{id} `{name?, memberIds?}` → InternalChatAnswer, or 204 when the caller
 *   left (their id not in `memberIds`). Groups only (409 `conflict` for a direct conversation). Who
 *   may edit, as in Slack's default channel settings: any member renames the group, adds members and
 *   leaves; only the group's creator removes other members (403 `forbidden`, `memberIds:
 *   creator_only`), unless the creator is no longer in it. Added members start with nothing unread
 *   and see the history.
 * - GET /api/internal-chats/{id}/messages?cursor=&limit= → InternalMessagePage: the newest page
 *   first (results oldest → newest inside it), `cursor` to the older ones (keyset on `seq`).
 * - POST /api/internal-chats/{id}/messages: JSON `{body}` or multipart `{file, body?}` (≤ 100 MB,
 *   through worker/lib/multipart.ts; stored typed by its bytes, worker/lib/media.ts) → 201
 *   InternalMessageAnswer. Every member gets `internal_chat.message` live; each member named as
 *   `@Full Name` gets a `notification` (kind `internal_mention`: the notifications bell).
 * - POST /api/internal-chats/{id}/read → InternalReadAnswer: the caller has read everything so far.
 * - POST /api/internal-chats/{id}/typing `{state: "typing"|"paused"}` → 204: the other members see it.
 */
import { Hono, type Context } from "hono";
import { and, asc, desc, eq, ne, sql } from "drizzle-orm";
import { z } from "zod";
import { internalChatMembers, internalChatMessages, internalChats, members, users } from "../../schema";
import { idSchema } from "../../schema/validation/common";
import {
  internalChatCreateInput,
  internalChatListQuery,
  internalChatUpdateInput,
  internalFileMessageForm,
  internalMessageListQuery,
  internalTextMessageInput,
  internalTypingInput,
  mentionedMembers,
  type InternalChatAnswer,
} from "../../schema/validation/internal-chats";
import type { HonoEnv } from "../middleware/context";
import { requireCompany, requirePermission, requireSubscription, requireUser } from "../middleware/auth";
import { likePattern } from "../lib/contacts";
import { decodeNumberCursor, encodeCursor } from "../lib/cursor";
import type { Db } from "../lib/db";
import { isUniqueViolation, now } from "../lib/db";
import { AppError, notFound, validationError } from "../lib/errors";
import { newId } from "../lib/ids";
import {
  appendMessage,
  chatMemberIds,
  companyMembersOf,
  findMemberChat,
  presentChats,
  presentInternalMessages,
  publishToMembers,
  type InternalMessageDraft,
} from "../lib/internal-chats";
import { MAX_MEDIA_BYTES, storeMedia } from "../lib/media";
import { readForm } from "../lib/multipart";
import { fileUrl } from "../lib/present";
import { zv } from "../lib/validate";

const idParam = z.object({ id: idSchema });

/** The caller's conversation as an answer (404 when they are not in it). */
async function answerOf(db: Db, companyId: string, chatId: string, memberId: string): Promise<InternalChatAnswer> {
  const row = await findMemberChat(db, companyId, chatId, memberId);
  const [answer] = await presentChats(db, companyId, [row]);
  if (!answer) throw notFound("Conversation");
  return answer;
}

/** The message a request carries: JSON `{body}` or multipart `{file, body?}` (the file stored in R2, typed by its bytes). */
async function draftOf(c: Context<HonoEnv>): Promise<InternalMessageDraft> {
  if ((c.req.header("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
    const form = internalFileMessageForm.safeParse(await readForm(c, "file"));
    if (!form.success) throw validationError(form.error);
    const file = form.data.file;
    if (file.size > MAX_MEDIA_BYTES) throw new AppError("validation_failed", "The file is larger than 100 MB.", { file: "too_large" });
    if (file.size === 0) throw new AppError("validation_failed", "The file is empty.", { file: "empty_file" });
    const stored = await storeMedia(c.env.FILES, c.var.company.id, await file.arrayBuffer(), file.type || "application/octet-stream", file.name);
    return { body: form.data.body, media: { key: stored.key, mime: stored.mime, name: file.name || null, size: stored.size }, mentions: [] };
  }
  let json: unknown;
  try {
    json = await c.req.json();
  } catch {
    throw new AppError("validation_failed", "Malformed JSON body.", { body: "invalid_json" });
  }
  const input = internalTextMessageInput.safeParse(json);
  if (!input.success) throw validationError(input.error);
  return { body: input.data.body, media: null, mentions: [] };
}

export const internalChatsRoutes = new Hono<HonoEnv>()
  .use(requireUser, requireCompany, requireSubscription, requirePermission("internal_chats"))
  /** GET /api/internal-chats/members → {results}: every member of the company, by name. */
  .get("/members", async (c) => {
    const companyId = c.var.company.id;
    const rows = await c.var.db
      .select({ memberId: members.id, userId: users.id, name: users.name, imageKey: users.imageKey })
      .from(members)
      .innerJoin(users, eq(users.id, members.userId))
      .where(eq(members.companyId, companyId))
      .orderBy(asc(users.name), asc(members.id));
    return c.json({ results: rows.map((r) => ({ memberId: r.memberId, userId: r.userId, name: r.name, image: fileUrl(r.imageKey) })) });
  })
  /** GET /api/internal-chats?search=&cursor=&limit= → InternalChatPage, latest activity first. */
  .get("/", zv("query", internalChatListQuery), async (c) => {
    const { search, cursor, limit } = c.req.valid("query");
    const db = c.var.db;
    const companyId = c.var.company.id;
    const me = c.var.memberId;
    const before = decodeNumberCursor(cursor);
    const pattern = search ? likePattern(search) : null;
    const rows = await db
      .select({ chat: internalChats, lastReadSeq: internalChatMembers.lastReadSeq })
      .from(internalChatMembers)
      .innerJoin(internalChats, and(eq(internalChats.id, internalChatMembers.chatId), eq(internalChats.companyId, companyId)))
      .where(
        and(
          eq(internalChatMembers.companyId, companyId),
          eq(internalChatMembers.memberId, me),
          before ? sql`(${internalChats.activityAt}, ${internalChats.id}) < (${before[0]}, ${before[1]})` : undefined,
          pattern
            ? sql`(${internalChats.name} LIKE ${pattern} ESCAPE '\\' OR EXISTS (
                SELECT 1 FROM ${internalChatMembers} other
                JOIN ${members} ON ${members.id} = other.member_id AND ${members.companyId} = ${companyId}
                JOIN ${users} ON ${users.id} = ${members.userId}
                WHERE other.chat_id = ${internalChats.id} AND other.member_id <> ${me} AND ${users.name} LIKE ${pattern} ESCAPE '\\'))`
            : undefined,
        ),
      )
      .orderBy(desc(internalChats.activityAt), desc(internalChats.id))
      .limit(limit + 1);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return c.json({
      results: await presentChats(db, companyId, page),
      cursor: rows.length > limit && last ? encodeCursor([last.chat.activityAt, last.chat.id]) : null,
    });
  })
  /** POST /api/internal-chats → 201 InternalChatAnswer (200 with the existing direct conversation of the pair). */
  .post("/", zv("json", internalChatCreateInput), async (c) => {
    const input = c.req.valid("json");
    const db = c.var.db;
    const companyId = c.var.company.id;
    const me = c.var.memberId;
    const at = now();
    if (input.kind === "direct") {
      if (input.memberId === me) throw new AppError("validation_failed", "A direct conversation needs another member.", { memberId: "own_member" });
      await companyMembersOf(db, companyId, [input.memberId], "memberId");
      const directKey = [me, input.memberId].sort().join(":");
      const existing = await db.query.internalChats.findFirst({ where: and(eq(internalChats.companyId, companyId), eq(internalChats.directKey, directKey)), columns: { id: true } });
      if (existing) return c.json(await answerOf(db, companyId, existing.id, me), 200);
      const id = newId();
      try {
        await db.batch([
          db.insert(internalChats).values({ id, companyId, kind: "direct", name: null, directKey, createdByMemberId: me, activityAt: at, createdAt: at, updatedAt: at }),
          db.insert(internalChatMembers).values([
            { companyId, chatId: id, memberId: me, joinedAt: at },
            { companyId, chatId: id, memberId: input.memberId, joinedAt: at },
          ]),
        ]);
      } catch (error) {
        // Both members opened it at once: answer the one that won.
        if (!isUniqueViolation(error)) throw error;
        const won = await db.query.internalChats.findFirst({ where: and(eq(internalChats.companyId, companyId), eq(internalChats.directKey, directKey)), columns: { id: true } });
        if (!won) throw error;
        return c.json(await answerOf(db, companyId, won.id, me), 200);
      }
      await publishToMembers(c.env, companyId, [me, input.memberId], { type: "internal_chat.updated", chatId: id });
      return c.json(await answerOf(db, companyId, id, me), 201);
    }
    const others = input.memberIds.filter((m) => m !== me);
    if (others.length) await companyMembersOf(db, companyId, others, "memberIds");
    const id = newId();
    const all = [me, ...others];
    await db.batch([
      db.insert(internalChats).values({ id, companyId, kind: "group", name: input.name, directKey: null, createdByMemberId: me, activityAt: at, createdAt: at, updatedAt: at }),
      db.insert(internalChatMembers).values(all.map((memberId) => ({ companyId, chatId: id, memberId, joinedAt: at }))),
    ]);
    await publishToMembers(c.env, companyId, all, { type: "internal_chat.updated", chatId: id });
    return c.json(await answerOf(db, companyId, id, me), 201);
  })
  /** GET /api/internal-chats/{id} → InternalChatAnswer (404 unless the caller is a member). */
  .get("/:id", zv("param", idParam), async (c) => c.json(await answerOf(c.var.db, c.var.company.id, c.req.valid("param").id, c.var.memberId)))
  /** PUT /api/internal-chats/{id} {name?, memberIds?} → InternalChatAnswer, or 204 when the caller left. */
  .put("/:id", zv("param", idParam), zv("json", internalChatUpdateInput), async (c) => {
    const input = c.req.valid("json");
    const db = c.var.db;
    const companyId = c.var.company.id;
    const me = c.var.memberId;
    const { chat } = await findMemberChat(db, companyId, c.req.valid("param").id, me);
    if (chat.kind !== "group") throw new AppError("conflict", "A direct conversation has no name and keeps its two members.");
    const current = await chatMemberIds(db, companyId, chat.id);
    const wanted = input.memberIds ?? current;
    const added = wanted.filter((m) => !current.includes(m));
    const removed = current.filter((m) => !wanted.includes(m));
    if (removed.some((m) => m !== me) && chat.createdByMemberId !== me && current.includes(chat.createdByMemberId)) {
      throw new AppError("forbidden", "Only the group's creator removes other members.", { memberIds: "creator_only" });
    }
    if (added.length) await companyMembersOf(db, companyId, added, "memberIds");
    const at = now();
    await db.batch([
      db
        .update(internalChats)
        .set({ ...(input.name !== undefined ? { name: input.name } : {}), updatedAt: at })
        .where(and(eq(internalChats.id, chat.id), eq(internalChats.companyId, companyId))),
      ...removed.map((memberId) =>
        db.delete(internalChatMembers).where(and(eq(internalChatMembers.companyId, companyId), eq(internalChatMembers.chatId, chat.id), eq(internalChatMembers.memberId, memberId))),
      ),
      ...(added.length
        ? [
            db
              .insert(internalChatMembers)
              .values(added.map((memberId) => ({ companyId, chatId: chat.id, memberId, lastReadSeq: chat.lastSeq, joinedAt: at })))
              .onConflictDoNothing(),
          ]
        : []),
    ]);
    await publishToMembers(c.env, companyId, [...current, ...added], { type: "internal_chat.updated", chatId: chat.id });
    if (!wanted.includes(me)) return c.body(null, 204);
    return c.json(await answerOf(db, companyId, chat.id, me), 200);
  })
  /** GET /api/internal-chats/{id}/messages?cursor=&limit= → InternalMessagePage (newest page first). */
  .get("/:id/messages", zv("param", idParam), zv("query", internalMessageListQuery), async (c) => {
    const { cursor, limit } = c.req.valid("query");
    const db = c.var.db;
    const companyId = c.var.company.id;
    const { chat } = await findMemberChat(db, companyId, c.req.valid("param").id, c.var.memberId);
    const before = decodeNumberCursor(cursor);
    const rows = await db
      .select()
      .from(internalChatMessages)
      .where(
        and(
          eq(internalChatMessages.chatId, chat.id),
          eq(internalChatMessages.companyId, companyId),
          before ? sql`${internalChatMessages.seq} < ${before[0]}` : undefined,
        ),
      )
      .orderBy(desc(internalChatMessages.seq))
      .limit(limit + 1);
    const page = rows.slice(0, limit).reverse();
    const oldest = page[0];
    return c.json({
      results: await presentInternalMessages(c.env, page),
      cursor: rows.length > limit && oldest ? encodeCursor([oldest.seq, oldest.id]) : null,
    });
  })
  /** POST /api/internal-chats/{id}/messages → 201 InternalMessageAnswer; members get it live, @mentioned members a notification. */
  .post("/:id/messages", zv("param", idParam), async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const me = c.var.memberId;
    // Membership before the body: a non-member's upload is never stored.
    const { chat } = await findMemberChat(db, companyId, c.req.valid("param").id, me);
    const draft = await draftOf(c);
    const memberRows = await db
      .select({ memberId: members.id, name: users.name })
      .from(internalChatMembers)
      .innerJoin(members, and(eq(members.id, internalChatMembers.memberId), eq(members.companyId, companyId)))
      .innerJoin(users, eq(users.id, members.userId))
      .where(and(eq(internalChatMembers.companyId, companyId), eq(internalChatMembers.chatId, chat.id), ne(internalChatMembers.memberId, me)));
    draft.mentions = mentionedMembers(draft.body, memberRows);
    const row = await appendMessage(db, companyId, chat.id, { memberId: me, name: c.var.user.name }, draft);
    const [message] = await presentInternalMessages(c.env, [row]);
    if (!message) throw new Error("internal chat message not presented");
    await publishToMembers(c.env, companyId, [me, ...memberRows.map((m) => m.memberId)], { type: "internal_chat.message", chatId: chat.id, message });
    if (draft.mentions.length) {
      await publishToMembers(c.env, companyId, draft.mentions, {
        type: "notification",
        notification: { id: row.id, kind: "internal_mention", chatId: chat.id, messageId: row.id, from: c.var.user.name, text: row.body.slice(0, 200) },
      });
    }
    return c.json(message, 201);
  })
  /** POST /api/internal-chats/{id}/read → InternalReadAnswer: the caller's read mark moves to the newest message. */
  .post("/:id/read", zv("param", idParam), async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const me = c.var.memberId;
    const { chat, lastReadSeq } = await findMemberChat(db, companyId, c.req.valid("param").id, me);
    if (chat.lastSeq > lastReadSeq) {
      await db
        .update(internalChatMembers)
        .set({ lastReadSeq: sql`MAX(${internalChatMembers.lastReadSeq}, ${chat.lastSeq})` })
        .where(and(eq(internalChatMembers.companyId, companyId), eq(internalChatMembers.chatId, chat.id), eq(internalChatMembers.memberId, me)));
      await publishToMembers(c.env, companyId, [me], { type: "internal_chat.read", chatId: chat.id, memberId: me, lastReadSeq: chat.lastSeq });
    }
    return c.json({ chatId: chat.id, lastReadSeq: Math.max(lastReadSeq, chat.lastSeq), unreadCount: 0 });
  })
  /** POST /api/internal-chats/{id}/typing {state} → 204; the conversation's other members see it live. */
  .post("/:id/typing", zv("param", idParam), zv("json", internalTypingInput), async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const me = c.var.memberId;
    const { chat } = await findMemberChat(db, companyId, c.req.valid("param").id, me);
    const others = (await chatMemberIds(db, companyId, chat.id)).filter((m) => m !== me);
    await publishToMembers(c.env, companyId, others, { type: "internal_chat.typing", chatId: chat.id, memberId: me, name: c.var.user.name, state: c.req.valid("json").state });
    return c.body(null, 204);
  });
