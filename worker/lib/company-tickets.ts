/**
 * Conversations the company starts (a broadcast, a shipping cycle, an inbound webhook, the public
 * API): the contact's open or pending ticket on the connection, or a new pending one marked
 * `origin: "company"` (the dashboard's "active" attendances, issue 12).
 */
import { and, eq } from "drizzle-orm";
import { tickets, type ConnectionRow, type TicketRow } from "../../schema";
import { openTicketOf } from "../durable-objects/contact-session";
import type { AppEnv } from "../env";
import { companyDay, ticketOpenedStatement } from "./dashboard";
import type { Db } from "./db";
import { emitEvent } from "./event-subscriptions";
import { newId } from "./ids";
import { roomOf } from "./realtime";

/**
 * The contact's open or pending ticket on `connection`, or a new pending ticket the company opened:
 * stored in one D1 batch with its dashboard counter, shown live in the ticket lists (its room tells
 * the company hub) and announced to event subscriptions (`ticket.created`). Throws when D1 does not
 * return the new row (the caller's retry runs again; the open ticket is then found).
 */
export async function companyTicketFor(env: AppEnv, db: Db, connection: ConnectionRow, contactId: string): Promise<TicketRow> {
  const open = await openTicketOf(db, connection, contactId);
  if (open) return open;
  const at = Date.now();
  const companyId = connection.companyId;
  const [inserted] = await db.batch([
    db
      .insert(tickets)
      .values({
        id: newId(),
        companyId,
        contactId,
        connectionId: connection.id,
        status: "pending",
        origin: "company",
        isGroup: false,
        unreadCount: 0,
        lastMessageAt: at,
        lastMessagePreview: "",
        createdAt: at,
        updatedAt: at,
      })
      .returning(),
    ticketOpenedStatement(db, companyId, "company", await companyDay(db, companyId, at)),
  ]);
  const ticket = inserted[0];
  if (!ticket) throw new Error("The new ticket was not stored.");
  await roomOf(env, ticket.id).ticketChanged(companyId, ticket.id);
  await emitEvent(env, companyId, "ticket.created", { ticket: { id: ticket.id, contactId, connectionId: connection.id, status: ticket.status, createdAt: at } });
  return ticket;
}

/** The same, by the ticket's row only where the caller needs just its id. */
export async function companyTicketIdFor(env: AppEnv, db: Db, connection: ConnectionRow, contactId: string): Promise<string> {
  return (await companyTicketFor(env, db, connection, contactId)).id;
}
