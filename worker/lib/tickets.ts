/**
 * Ticket and message presentation and the queries the pipeline and the routes share.
 */
import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { connections, contacts, members, messages, tickets, users, type MessageRow, type TicketRow } from "../../schema";
import type { MessageAnswer, ReferralAnswer, TicketAnswer } from "../../schema/realtime";
import type { Json } from "../../schema/columns";
import type { AppEnv } from "../env";
import type { Db } from "./db";
import { signedMediaUrl } from "./media";
import { fileUrl } from "./present";

/** The text shown in a ticket list for a message (first 120 characters; media by its kind). */
export function previewOf(message: Pick<MessageRow, "type" | "body">): string {
  const body = message.body.trim();
  if (body) return body.slice(0, 120);
  return `[${message.type}]`;
}

/**
 * Loads tickets of `companyId` by id with contact, connection and assignee; answers in input order.
 * A ticket whose connection was deleted keeps its history: its connection shows with an empty name
 * and channel.
 */
export async function loadTicketAnswers(db: Db, companyId: string, ids: string[]): Promise<TicketAnswer[]> {
  if (!ids.length) return [];
  const rows = await db
    .select({
      ticket: tickets,
      contact: { id: contacts.id, name: contacts.name, phone: contacts.phone, email: contacts.email, imageKey: contacts.imageKey },
      connection: { id: connections.id, name: connections.name, channel: connections.channel },
      assigneeName: users.name,
    })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .leftJoin(connections, eq(connections.id, tickets.connectionId))
    .leftJoin(members, eq(members.id, tickets.assignedMemberId))
    .leftJoin(users, eq(users.id, members.userId))
    .where(and(eq(tickets.companyId, companyId), inArray(tickets.id, ids)));
  const byId = new Map(rows.map((r) => [r.ticket.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    return r ? [presentTicket(r.ticket, r.contact, r.connection ?? { id: r.ticket.connectionId, name: "", channel: "" }, r.assigneeName)] : [];
  });
}

/** Most tickets GET /api/tickets counts: past it `total` is this number and `totalCapped` is true (issue 16). */
export const TICKET_COUNT_CAP = 1000;

/**
 * One page of the chat list with everything its answers show, as one statement for a D1 batch
 * (GET /api/tickets, issue 16): the tickets matching `where` (which may name `contacts`, joined on
 * the ticket's contact) newest activity first, then id descending, at most `limit` rows. The
 * joined columns carry their own aliases because a batch's rows are mapped by column name. Walks
 * `tickets_company_last_id_idx` / `tickets_company_status_last_id_idx` in order (checked in
 * worker/lib/chat-list-plan.test.ts). Present each row with `presentTicketListRow`.
 */
export function ticketListPage(db: Db, where: SQL | undefined, limit: number) {
  return db
    .select({
      ticket: tickets,
      contactName: sql<string>`${contacts.name}`.as("list_contact_name"),
      contactPhone: sql<string | null>`${contacts.phone}`.as("list_contact_phone"),
      contactEmail: sql<string | null>`${contacts.email}`.as("list_contact_email"),
      contactImageKey: sql<string | null>`${contacts.imageKey}`.as("list_contact_image_key"),
      connectionName: sql<string | null>`${connections.name}`.as("list_connection_name"),
      connectionChannel: sql<string | null>`${connections.channel}`.as("list_connection_channel"),
      assigneeName: sql<string | null>`${users.name}`.as("list_assignee_name"),
    })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .leftJoin(connections, eq(connections.id, tickets.connectionId))
    .leftJoin(members, eq(members.id, tickets.assignedMemberId))
    .leftJoin(users, eq(users.id, members.userId))
    .where(where)
    .orderBy(desc(tickets.lastMessageAt), desc(tickets.id))
    .limit(limit);
}

/** A row of `ticketListPage` as the API shows it (a deleted connection shows with an empty name and channel, as in `loadTicketAnswers`). */
export function presentTicketListRow(row: {
  ticket: TicketRow;
  contactName: string;
  contactPhone: string | null;
  contactEmail: string | null;
  contactImageKey: string | null;
  connectionName: string | null;
  connectionChannel: string | null;
  assigneeName: string | null;
}): TicketAnswer {
  const t = row.ticket;
  return presentTicket(
    t,
    { id: t.contactId, name: row.contactName, phone: row.contactPhone, email: row.contactEmail, imageKey: row.contactImageKey },
    row.connectionName === null ? { id: t.connectionId, name: "", channel: "" } : { id: t.connectionId, name: row.connectionName, channel: row.connectionChannel ?? "" },
    row.assigneeName,
  );
}

export function presentTicket(
  ticket: TicketRow,
  contact: { id: string; name: string; phone: string | null; email: string | null; imageKey: string | null },
  connection: { id: string; name: string; channel: string },
  assigneeName: string | null,
): TicketAnswer {
  return {
    id: ticket.id,
    status: ticket.status,
    contact: { id: contact.id, name: contact.name, phone: contact.phone, email: contact.email, image: fileUrl(contact.imageKey) },
    connection,
    assignedMemberId: ticket.assignedMemberId,
    assignedMemberName: assigneeName,
    servedByMemberId: ticket.servedByMemberId,
    isGroup: ticket.isGroup,
    unreadCount: ticket.unreadCount,
    lastMessageAt: ticket.lastMessageAt,
    lastMessagePreview: ticket.lastMessagePreview,
    version: ticket.version,
    createdAt: ticket.createdAt,
    closedAt: ticket.closedAt,
    referral: referralAnswer(ticket.referral),
    outsideHoursAt: ticket.outsideHoursAt,
  };
}

const REFERRAL_KEYS = ["sourceUrl", "sourceType", "sourceId", "headline", "body", "mediaType", "imageUrl", "videoUrl", "thumbnailUrl", "ctwaClid"] as const;

/** A stored `referral` (tickets.referral, contacts.referral) as the API shows it: its text fields, or null. */
export function referralAnswer(stored: { [key: string]: Json } | null): ReferralAnswer | null {
  if (!stored) return null;
  const out: ReferralAnswer = {};
  for (const key of REFERRAL_KEYS) {
    const value = stored[key];
    if (typeof value === "string" && value) out[key] = value;
  }
  return Object.keys(out).length ? out : null;
}

/** Presents message rows, resolving quoted messages and signing media URLs. */
export async function presentMessages(env: AppEnv, db: Db, rows: MessageRow[]): Promise<MessageAnswer[]> {
  const quotedIds = [...new Set(rows.flatMap((r) => (r.quotedId ? [r.quotedId] : [])))];
  const quotedRows = quotedIds.length
    ? await db
        .select({ id: messages.id, body: messages.body, type: messages.type, direction: messages.direction, deletedAt: messages.deletedAt })
        .from(messages)
        .where(inArray(messages.id, quotedIds))
    : [];
  const quoted = new Map(quotedRows.map((q) => [q.id, q]));
  const at = Date.now();
  return Promise.all(
    rows.map(async (row): Promise<MessageAnswer> => {
      const q = row.quotedId ? quoted.get(row.quotedId) : undefined;
      const deleted = row.deletedAt !== null;
      return {
        id: row.id,
        ticketId: row.ticketId,
        contactId: row.contactId,
        direction: row.direction,
        type: row.type,
        body: deleted ? "" : row.body,
        payload: deleted ? null : row.payload ?? null,
        media:
          row.mediaKey && !deleted
            ? { url: await signedMediaUrl(env, row.mediaKey, at), mime: row.mediaMime ?? "application/octet-stream", name: row.mediaName, size: row.mediaSize }
            : null,
        quoted: q ? { id: q.id, body: q.deletedAt ? "" : q.body, type: q.type, direction: q.direction } : null,
        status: row.status,
        error: row.errorCode ? { code: row.errorCode, message: row.errorMessage ?? "", details: row.errorDetails } : null,
        sentAt: row.sentAt,
        seq: row.seq,
        sender: row.direction === "out" ? { memberId: row.senderMemberId, name: row.senderName } : null,
        deleted,
        editedAt: deleted ? null : row.editedAt,
        forwarded: row.forwarded,
        reactions: deleted ? [] : (row.reactions ?? []),
        createdAt: row.createdAt,
      };
    }),
  );
}

/** Rank of a delivery status; a message only moves to a higher rank (`failed` only before delivered). */
export const STATUS_RANK: Record<MessageRow["status"], number> = {
  pending: 0,
  received: 0,
  sent: 1,
  delivered: 2,
  read: 3,
  failed: 1.5,
};
