/**
 * The chat centre (spec §2 Chats, §3 Ticket/chat, §4 Ticket status and Chat list filters).
 * Permission `tickets`; `tickets_groups` to see and answer group chats; without `see_all_tickets`
 * a member sees pending tickets and the ones assigned to them only (others answer 404).
 */
import { Hono } from "hono";
import { and, count, desc, eq, like, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { contacts, members, messages, tickets, type TicketRow } from "../../schema";
import { idSchema } from "../../schema/validation/common";
import { messageListQuery, textMessageInput, ticketListQuery, transferInput } from "../../schema/validation/tickets";
import type { HonoEnv } from "../middleware/context";
import { loadMembership, requireCompany, requirePermission, requireSubscription, requireUser } from "../middleware/auth";
import { adapterFor } from "../channels";
import type { Db } from "../lib/db";
import { reachableIdentity } from "../lib/identities";
import { now } from "../lib/db";
import { AppError, notFound, validationError } from "../lib/errors";
import { MAX_MEDIA_BYTES, storeMedia } from "../lib/media";
import { isInlineType } from "../lib/sniff";
import { roomOf } from "../lib/realtime";
import { recordResolution } from "../lib/dashboard";
import { loadTicketAnswers, presentMessages, presentTicketListRow, TICKET_COUNT_CAP, ticketListPage } from "../lib/tickets";
// The one visibility rule of every ticket action (also POST /api/tickets/{id}/start-flow).
import { findVisibleTicket as findTicket, ticketViewerOf as viewerOf, ticketVisibility as visibility } from "../lib/ticket-access";
import { zv } from "../lib/validate";
import { readForm } from "../lib/multipart";
import { sendToTicket, type OutboundContent } from "../pipeline/outbound";
import { emitEvent } from "../lib/event-subscriptions";
import { ticketSearch } from "../lib/contact-search";

const idParam = z.object({ id: idSchema });

function encodeCursor(parts: (string | number)[]): string {
  return btoa(parts.join("|")).replace(/=+$/, "");
}

/** Decodes a keyset cursor `number|text`; 400 `invalid_cursor` (field `cursor`) when malformed. */
function decodeCursor(cursor: string | undefined): [number, string] | null {
  if (!cursor) return null;
  let parts: string[];
  try {
    parts = atob(cursor).split("|");
  } catch {
    parts = [];
  }
  const first = Number(parts[0]);
  if (parts.length !== 2 || !Number.isFinite(first) || !parts[1]) {
    throw new AppError("validation_failed", "Invalid cursor.", { cursor: "invalid_cursor" });
  }
  return [first, parts[1]];
}

/** Multipart body of POST /api/tickets/{id}/messages with a file. */
const fileMessageForm = z.object({
  file: z.instanceof(File, { error: "file_required" }),
  body: z.string().max(1024, { error: "too_long" }).default(""),
  type: z.enum(["image", "audio", "video", "document", "ptv"], { error: "invalid_type" }).optional(),
  quotedId: idSchema.optional(),
  idempotencyKey: z.string().trim().min(8).max(100).optional(),
});

/** The message type a file is sent as, from its MIME type, unless the client names one. */
export function mediaTypeOf(mime: string, wanted?: "image" | "audio" | "video" | "document" | "ptv"): "image" | "audio" | "video" | "document" | "ptv" {
  if (wanted) return wanted;
  if (mime.startsWith("image/")) return "image";
  if (mime.startsWith("audio/")) return "audio";
  if (mime.startsWith("video/")) return "video";
  return "document";
}

export const ticketsRoutes = new Hono<HonoEnv>()
  .use(requireUser, requireCompany, requireSubscription, requirePermission("tickets"))
  /**
   * GET /api/tickets?status=&type=&search=&cursor=&limit= → {results: TicketAnswer[], cursor, total,
   * totalCapped}, newest activity first, keyset-paged. `total` counts at most TICKET_COUNT_CAP + 1
   * matching tickets: past TICKET_COUNT_CAP it is TICKET_COUNT_CAP and `totalCapped` is true (issue
   * 16: an exact count read 20,000–100,000 index entries, or every ticket row for a type filter, on
   * each request). The page with its answers and the count are one D1 batch (one round trip).
   */
  .get("/", zv("query", ticketListQuery), async (c) => {
    const q = c.req.valid("query");
    const db = c.var.db;
    const companyId = c.var.company.id;
    const viewer = viewerOf(c);
    // A search of 3+ characters goes through the contacts' trigram index (worker/lib/contact-search.ts);
    // when it matches few contacts the company term stays off the tickets' index, so SQLite starts there.
    const indexed = q.search ? await ticketSearch(db, q.search) : null;
    // The member's visibility (pending or assigned to them, no groups without `tickets_groups`) is a
    // row filter on the same index walk: it never turns the page into a sort, and the count is capped.
    const filters: (SQL | undefined)[] = [indexed?.plan === "few" ? sql`+${tickets.companyId} = ${companyId}` : eq(tickets.companyId, companyId), visibility(viewer)];
    if (q.status !== "all") filters.push(eq(tickets.status, q.status));
    if (q.type === "chats") filters.push(eq(tickets.isGroup, false));
    if (q.type === "groups") filters.push(eq(tickets.isGroup, true));
    if (q.type === "unread") filters.push(sql`${tickets.unreadCount} > 0`);
    if (q.type === "mine") filters.push(viewer.memberId ? eq(tickets.assignedMemberId, viewer.memberId) : sql`0`);
    if (indexed) filters.push(indexed.where);
    else if (q.search) {
      const pattern = `%${q.search.replace(/[%_\\]/g, (m) => `\\${m}`)}%`;
      filters.push(or(sql`${contacts.name} LIKE ${pattern} ESCAPE '\\'`, like(contacts.phone, pattern)));
    }
    const where = and(...filters);
    const cursor = decodeCursor(q.cursor);
    const page = cursor
      ? and(where, sql`(${tickets.lastMessageAt}, ${tickets.id}) < (${cursor[0]}, ${cursor[1]})`)
      : where;
    // Without a search nothing of the contact is filtered on: the count stays on the tickets (issue 16).
    const matching = (q.search ? db.select({ one: sql`1` }).from(tickets).innerJoin(contacts, eq(contacts.id, tickets.contactId)) : db.select({ one: sql`1` }).from(tickets))
      .where(where)
      .limit(TICKET_COUNT_CAP + 1)
      .as("matching");
    const [rows, counted] = await db.batch([ticketListPage(db, page, q.limit + 1), db.select({ n: count() }).from(matching)]);
    const n = counted[0]?.n ?? 0;
    const pageRows = rows.slice(0, q.limit);
    const last = pageRows[pageRows.length - 1];
    return c.json({
      results: pageRows.map(presentTicketListRow),
      cursor: rows.length > q.limit && last ? encodeCursor([last.ticket.lastMessageAt, last.ticket.id]) : null,
      total: Math.min(n, TICKET_COUNT_CAP),
      totalCapped: n > TICKET_COUNT_CAP,
    });
  })
  /** GET /api/tickets/{id} → TicketAnswer. */
  .get("/:id", zv("param", idParam), async (c) => {
    const ticket = await findTicket(c.var.db, c.var.company.id, c.req.valid("param").id, viewerOf(c));
    const [answer] = await loadTicketAnswers(c.var.db, c.var.company.id, [ticket.id]);
    return c.json(answer);
  })
  /**
   * GET /api/tickets/{id}/messages?cursor=&limit= → {results (oldest first), cursor (to older
   * messages, or null)}: in the customer's order (provider time, then arrival).
   */
  .get("/:id/messages", zv("param", idParam), zv("query", messageListQuery), async (c) => {
    const { cursor, limit } = c.req.valid("query");
    const db = c.var.db;
    const ticket = await findTicket(db, c.var.company.id, c.req.valid("param").id, viewerOf(c));
    const before = decodeCursor(cursor);
    if (before && !Number.isInteger(Number(before[1]))) throw new AppError("validation_failed", "Invalid cursor.", { cursor: "invalid_cursor" });
    const rows = await db
      .select()
      .from(messages)
      .where(
        and(
          eq(messages.ticketId, ticket.id),
          eq(messages.companyId, c.var.company.id),
          before ? sql`(${messages.sentAt}, ${messages.seq}) < (${before[0]}, ${Number(before[1])})` : undefined,
        ),
      )
      .orderBy(desc(messages.sentAt), desc(messages.seq))
      .limit(limit + 1);
    const page = rows.slice(0, limit).reverse();
    const oldest = page[0];
    return c.json({
      results: await presentMessages(c.env, db, page),
      cursor: rows.length > limit && oldest ? encodeCursor([oldest.sentAt, oldest.seq]) : null,
    });
  })
  /**
   * POST /api/tickets/{id}/messages: JSON `{type: "text", body, quotedId?, idempotencyKey?}` or
   * multipart `{file, body?, type?, quotedId?, idempotencyKey?}` (≤ 100 MB) → 201 MessageAnswer
   * (200 with the first message when the idempotency key was seen). Answering a pending or closed
   * ticket opens it, assigned to the sender. Through the public API (scope messages:send) the
   * message is recorded as sent by the API key and the ticket's status and assignee stay as they are.
   */
  .post("/:id/messages", zv("param", idParam), async (c) => {
    const db = c.var.db;
    const company = c.var.company;
    const ticket = await findTicket(db, company.id, c.req.valid("param").id, viewerOf(c));
    // An API key sends as itself (messages.api_key_id, no sender member); idempotency is per sender.
    const apiKey = c.var.apiKey;
    const actor = apiKey ? `key:${apiKey.id}` : c.var.memberId;
    const contentType = c.req.header("Content-Type") ?? "";
    let content: OutboundContent;
    let idempotencyKey: string | null;
    if (contentType.startsWith("multipart/form-data")) {
      const form = fileMessageForm.safeParse(await readForm(c, "file"));
      if (!form.success) throw validationError(form.error);
      const file = form.data.file;
      if (file.size > MAX_MEDIA_BYTES) throw new AppError("validation_failed", "The file is larger than 100 MB.", { file: "too_large" });
      if (file.size === 0) throw new AppError("validation_failed", "The file is empty.", { file: "empty_file" });
      const mime = file.type || "application/octet-stream";
      if (form.data.idempotencyKey) {
        // A retried upload answers the first message before storing the file a second time.
        const first = await db.query.messages.findFirst({
          where: and(eq(messages.companyId, company.id), eq(messages.idempotencyKey, `${actor}:${ticket.id}:${form.data.idempotencyKey}`)),
        });
        if (first) return c.json((await presentMessages(c.env, db, [first]))[0], 200);
      }
      const stored = await storeMedia(c.env.FILES, company.id, await file.arrayBuffer(), mime, file.name);
      // The stored type comes from the bytes: an HTML file declared as an image goes out as a document.
      const wanted = isInlineType(stored.mime) || form.data.type === "document" ? form.data.type : undefined;
      content = { type: mediaTypeOf(stored.mime, wanted), body: form.data.body, media: { key: stored.key, mime: stored.mime, name: file.name || null, size: stored.size }, quotedId: form.data.quotedId };
      idempotencyKey = form.data.idempotencyKey ?? null;
    } else {
      let json: unknown;
      try {
        json = await c.req.json();
      } catch {
        throw new AppError("validation_failed", "Malformed JSON body.", { _: "invalid_json" });
      }
      const input = textMessageInput.safeParse(json);
      if (!input.success) throw validationError(input.error);
      content = { type: "text", body: input.data.body, quotedId: input.data.quotedId };
      idempotencyKey = input.data.idempotencyKey ?? null;
    }
    if (content.quotedId) {
      const quoted = await db.query.messages.findFirst({ where: and(eq(messages.id, content.quotedId), eq(messages.ticketId, ticket.id)), columns: { externalId: true } });
      if (!quoted) throw new AppError("validation_failed", "The quoted message is not in this ticket.", { quotedId: "invalid_id" });
      content.quotedExternalId = quoted.externalId;
    }
    const target = await targetOf(db, ticket);
    // A member answering takes the ticket; a key's message leaves it in the queue as it was.
    if (!apiKey && (ticket.status !== "open" || ticket.assignedMemberId === null)) {
      await db
        .update(tickets)
        .set({ status: "open", assignedMemberId: ticket.assignedMemberId ?? c.var.memberId, servedByMemberId: ticket.assignedMemberId ?? c.var.memberId, closedAt: null, updatedAt: now() })
        .where(and(eq(tickets.id, ticket.id), eq(tickets.companyId, company.id)));
      await roomOf(c.env, ticket.id).ticketChanged(company.id, ticket.id);
    }
    const result = await sendToTicket(
      c.env,
      target,
      content,
      apiKey ? { apiKeyId: apiKey.id, name: apiKey.name } : { memberId: c.var.memberId, name: c.var.user.name, showName: company.showAttendantName },
      idempotencyKey ? `${actor}:${ticket.id}:${idempotencyKey}` : null,
    );
    return c.json(result.message, result.duplicate ? 200 : 201);
  })
  /** POST /api/tickets/{id}/open → TicketAnswer: status open, assigned to the caller. */
  .post("/:id/open", zv("param", idParam), async (c) => {
    const ticket = await findTicket(c.var.db, c.var.company.id, c.req.valid("param").id, viewerOf(c));
    if (ticket.status === "closed") await refuseSecondActiveTicket(c.var.db, ticket);
    return c.json(await updateTicket(c, ticket, { status: "open", assignedMemberId: c.var.memberId, servedByMemberId: c.var.memberId, closedAt: null }));
  })
  /** POST /api/tickets/{id}/transfer {memberId} → TicketAnswer. 400 when the member is not in the company. */
  .post("/:id/transfer", zv("param", idParam), zv("json", transferInput), async (c) => {
    const { memberId } = c.req.valid("json");
    const db = c.var.db;
    const ticket = await findTicket(db, c.var.company.id, c.req.valid("param").id, viewerOf(c));
    const member = await db.query.members.findFirst({ where: and(eq(members.id, memberId), eq(members.companyId, c.var.company.id)), columns: { id: true, userId: true } });
    if (!member) throw new AppError("validation_failed", "That member is not in this company.", { memberId: "invalid_id" });
    const membership = await loadMembership(db, member.userId, c.var.company.id);
    if (!membership?.permissions.has("tickets")) {
      throw new AppError("validation_failed", "That member does not attend chats.", { memberId: "no_tickets_permission" });
    }
    if (ticket.status === "closed") await refuseSecondActiveTicket(db, ticket);
    return c.json(await updateTicket(c, ticket, { status: "open", assignedMemberId: memberId, servedByMemberId: memberId, closedAt: null }));
  })
  /** POST /api/tickets/{id}/close → TicketAnswer: status closed; the connection's farewell message goes out. */
  .post("/:id/close", zv("param", idParam), async (c) => {
    const db = c.var.db;
    const ticket = await findTicket(db, c.var.company.id, c.req.valid("param").id, viewerOf(c));
    if (ticket.status === "closed") {
      const [answer] = await loadTicketAnswers(db, c.var.company.id, [ticket.id]);
      return c.json(answer);
    }
    // Closed and its resolution time counted once, in one batch (the dashboard, issue 12); then published.
    const closedAt = now();
    await recordResolution(db, ticket, closedAt);
    const answer = await updateTicket(c, ticket, { status: "closed", closedAt, servedByMemberId: ticket.assignedMemberId ?? c.var.memberId });
    await emitEvent(c.env, ticket.companyId, "ticket.closed", { ticket: { id: ticket.id, contactId: ticket.contactId, connectionId: ticket.connectionId, closedAt } });
    const target = await targetOf(db, ticket);
    if (target.connection.farewellMessage.trim()) {
      await sendToTicket(c.env, target, { type: "text", body: target.connection.farewellMessage }, null);
    }
    return c.json(answer);
  })
  /** POST /api/tickets/{id}/read → TicketAnswer: unread back to 0; the customer sees read ticks. */
  .post("/:id/read", zv("param", idParam), async (c) => {
    const db = c.var.db;
    const ticket = await findTicket(db, c.var.company.id, c.req.valid("param").id, viewerOf(c));
    const answer = await updateTicket(c, ticket, { unreadCount: 0 });
    const lastIn = await db.query.messages.findFirst({
      where: and(eq(messages.ticketId, ticket.id), eq(messages.direction, "in")),
      orderBy: [desc(messages.sentAt), desc(messages.seq)],
    });
    if (lastIn?.externalId && ticket.unreadCount > 0) {
      const target = await targetOf(db, ticket);
      c.executionCtx.waitUntil(
        adapterFor(c.env, target.connection)
          .markRead(target.connection, { externalId: target.recipientExternalId, phone: target.recipientPhone }, lastIn.externalId)
          .catch(() => undefined),
      );
    }
    return c.json(answer);
  });

/**
 * A contact has at most one active (pending or open) ticket per connection: reopening an old
 * closed ticket while a newer one is active answers 409 conflict.
 */
async function refuseSecondActiveTicket(db: Db, ticket: TicketRow): Promise<void> {
  const active = await db.query.tickets.findFirst({
    where: and(
      eq(tickets.companyId, ticket.companyId),
      eq(tickets.contactId, ticket.contactId),
      eq(tickets.connectionId, ticket.connectionId),
      or(eq(tickets.status, "pending"), eq(tickets.status, "open")),
    ),
    columns: { id: true },
  });
  if (active) throw new AppError("conflict", "This contact already has an active ticket on this connection.");
}

/** Where a ticket's messages go: its connection and the contact's identity on that channel (also the public API's send). */
export async function targetOf(db: Db, ticket: TicketRow) {
  const connection = await db.query.connections.findFirst({ where: (t, { eq: e }) => e(t.id, ticket.connectionId) });
  if (!connection) throw new AppError("conflict", "This ticket's connection no longer exists.");
  const identity = await reachableIdentity(db, ticket.companyId, ticket.contactId, connection.channel);
  const contact = await db.query.contacts.findFirst({ where: eq(contacts.id, ticket.contactId), columns: { phone: true } });
  const recipientExternalId = identity?.externalId ?? contact?.phone?.replace(/^\+/, "");
  if (!recipientExternalId) throw new AppError("conflict", "This contact cannot be reached on this connection.");
  return { ticket, connection, recipientExternalId, recipientPhone: contact?.phone ?? null };
}

async function updateTicket(
  c: { var: HonoEnv["Variables"]; env: HonoEnv["Bindings"] },
  ticket: TicketRow,
  set: Partial<Pick<TicketRow, "status" | "assignedMemberId" | "servedByMemberId" | "closedAt" | "unreadCount">>,
) {
  await c.var.db.update(tickets).set({ ...set, updatedAt: now() }).where(and(eq(tickets.id, ticket.id), eq(tickets.companyId, c.var.company.id)));
  await roomOf(c.env, ticket.id).ticketChanged(c.var.company.id, ticket.id);
  const [answer] = await loadTicketAnswers(c.var.db, c.var.company.id, [ticket.id]);
  if (!answer) throw notFound("Ticket");
  return answer;
}
