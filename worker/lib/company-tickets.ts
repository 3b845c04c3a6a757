/**
 * Conversations the company starts (a broadcast, a shipping cycle, an inbound webhook, the public
 * API): the contact's open or pending ticket on the connection, or a new pending one marked
 * `origin: "company"` (the dashboard's "active" attendances, issue 12).
 */
import { and, desc, eq, inArray, type Placeholder } from "drizzle-orm";
import { tickets, type ConnectionRow, type TicketRow } from "../../schema";
import type { EventType } from "../../schema/validation/event-subscriptions";
import type { AppEnv } from "../env";
import { companyDay, ticketOpenedStatement } from "./dashboard";
import type { Db } from "./db";
import { emitEvent } from "./event-subscriptions";
import { newId } from "./ids";
import { roomOf } from "./realtime";

/**
 * The contact's newest open or pending ticket on `connection` as a query not yet run (one row or
 * none), so a caller can put it in its own D1 batch (issue 10: a broadcast recipient's reads).
 * A plain select, filtered on the connection's company (each id may be a drizzle placeholder).
 */
export function openCompanyTicketQuery(db: Db, connection: { id: string | Placeholder; companyId: string | Placeholder }, contactId: string | Placeholder) {
  return db
    .select()
    .from(tickets)
    .where(and(eq(tickets.companyId, connection.companyId), eq(tickets.contactId, contactId), eq(tickets.connectionId, connection.id), inArray(tickets.status, ["pending", "open"])))
    .orderBy(desc(tickets.createdAt))
    .limit(1);
}

/** What `companyTicketOf` may be handed by a caller that read part of it already (issue 10). */
export type CompanyTicketOptions = {
  /**
   * The result of `openCompanyTicketQuery` for this contact and connection, read by the caller
   * just before (null: it found none); undefined: read it here.
   */
  open?: TicketRow | null;
  /**
   * The caller publishes the new ticket's list entry itself: its first message follows at once and
   * the ticket room's append publishes the entry with it (or the caller calls `announceTicket`
   * when no message came). Default false: the ticket's room publishes it here.
   */
  quiet?: boolean;
  /** The company's event subscriptions (`subscriptionsQuery`), read once by the caller. */
  subscriptions?: { id: string; events: EventType[] }[];
};

/**
 * The contact's open or pending ticket on `connection`, or a new pending ticket the company opened:
 * stored in one D1 batch with its dashboard counter, shown live in the ticket lists (its room tells
 * the company hub) and announced to event subscriptions (`ticket.created`). Throws when D1 does not
 * return the new row (the caller's retry runs again; the open ticket is then found).
 */
export async function companyTicketFor(env: AppEnv, db: Db, connection: ConnectionRow, contactId: string): Promise<TicketRow> {
  return (await companyTicketOf(env, db, connection, contactId)).ticket;
}

/**
 * `companyTicketFor` with the caller's reads and choices (`CompanyTicketOptions`); answers the
 * ticket and whether it was created here (`created`). With `quiet`, a created ticket's list entry
 * is NOT published here: the caller's first message (or `announceTicket`) does it.
 */
export async function companyTicketOf(
  env: AppEnv,
  db: Db,
  connection: ConnectionRow,
  contactId: string,
  options: CompanyTicketOptions = {},
): Promise<{ ticket: TicketRow; created: boolean }> {
  const open = options.open !== undefined ? options.open : (await openCompanyTicketQuery(db, connection, contactId))[0];
  if (open) return { ticket: open, created: false };
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
  if (!options.quiet) await announceTicket(env, companyId, ticket.id);
  await emitEvent(env, companyId, "ticket.created", { ticket: { id: ticket.id, contactId, connectionId: connection.id, status: ticket.status, createdAt: at } }, options.subscriptions);
  return { ticket, created: true };
}

/** Publishes ticket `ticketId`'s list entry to the company hub (through its room). */
export async function announceTicket(env: AppEnv, companyId: string, ticketId: string): Promise<void> {
  await roomOf(env, ticketId).ticketChanged(companyId, ticketId);
}
