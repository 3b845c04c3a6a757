/**
 * Operating hours in the inbound path (issue 12 "Applied in the inbound path"): what a customer who
 * writes outside the company's hours gets, called by the ContactSession after a running flow and
 * the keyword triggers had their turn (DESIGN.md "The main job", step 3) and before the open
 * ticket, the default flow and the greeting.
 *
 * The rule, once per conversation (per ticket, never per message):
 * - the company has operating hours enabled and is closed at the message's time (its provider
 *   timestamp, read in the company's time zone: worker/lib/operating-hours.ts);
 * - the contact has no open ticket being served (an open ticket takes the message as usual), and
 *   its pending ticket, if any, has not had the outside-hours answer yet; group chats are left out;
 * then the ticket (the pending one, or a new one: the ticket is always created) is marked
 * `outside_hours_at` by a conditional UPDATE (only the first message of the conversation wins it),
 * the message is stored, and the outside-hours action of the connection (else the one for all)
 * runs: a text message (idempotency key `outside-hours:<ticketId>`, so a retry never sends twice),
 * a flow, or nothing. For a new conversation this replaces the connection's greeting and default
 * flow. A later message of the same conversation is routed as usual (no second answer).
 */
import { and, desc, eq, inArray, isNull } from "drizzle-orm";
import { companies, operatingHours, tickets, type ConnectionRow, type ContactRow, type TicketRow } from "../../schema";
import type { OutsideHoursAction } from "../../schema/validation/operating-hours";
import type { InboundMessage } from "../channels/types";
import type { IngestResult } from "../durable-objects/contact-session";
import type { AppEnv } from "../env";
import { sendToTicket } from "../pipeline/outbound";
import type { Db } from "./db";
import { isOpen } from "./operating-hours";
import { roomOf } from "./realtime";

/**
 * The outside-hours action for a message on `connectionId` at `atMs` (ms UTC): null when the
 * company has no operating hours, has them off, or is open then; else the connection's action, or
 * the one for all connections (`{type: "none"}` when nothing is to be sent).
 */
export async function outsideHoursAction(db: Db, companyId: string, connectionId: string, atMs: number, preloaded?: HoursRow[]): Promise<OutsideHoursAction | null> {
  const [row] = preloaded ?? (await hoursQuery(db, companyId));
  if (!row || !row.hours.enabled) return null;
  let open: boolean;
  try {
    open = isOpen(row.hours, row.timezone, atMs);
  } catch (error) {
    // An unknown time zone (a corrupt row) must not stop the conversation: treated as open.
    console.error("[operating-hours] cannot evaluate", companyId, error);
    return null;
  }
  if (open) return null;
  return row.hours.outside.connections[connectionId] ?? row.hours.outside.all;
}

/**
 * The company's operating hours and time zone (zero or one row); a query the inbound path may put in
 * its one read batch (issue 16) and hand to `routeOutsideHours`.
 */
export function hoursQuery(db: Db, companyId: string) {
  return db
    .select({ hours: operatingHours, timezone: companies.timezone })
    .from(operatingHours)
    .innerJoin(companies, eq(companies.id, operatingHours.companyId))
    .where(eq(operatingHours.companyId, companyId))
    .limit(1);
}

/** A row of `hoursQuery`. */
export type HoursRow = Awaited<ReturnType<typeof hoursQuery>>[number];

/** What the ContactSession lends this module: its own steps, bound to the message at hand. */
export type OutsideHoursHooks = {
  /** The contact's open or pending ticket on the connection, or a new pending one. */
  ticketFor(): Promise<{ ticket: TicketRow; created: boolean }>;
  /** Stores the inbound message in `ticket` (publishing a ticket just created). */
  store(ticket: TicketRow, created: boolean): Promise<IngestResult>;
  /** Starts `flowId`'s published version in `ticket`; the run id, or null when it has none. */
  startFlow(ticket: TicketRow, flowId: string): Promise<string | null>;
};

/**
 * Routes an inbound message that arrived outside operating hours (the rule in the header): answers
 * the result when it handled the message, or null when the usual routing goes on (open, or the
 * conversation is served or already answered).
 */
export async function routeOutsideHours(
  env: AppEnv,
  db: Db,
  input: { connection: ConnectionRow; contact: ContactRow; event: InboundMessage },
  hooks: OutsideHoursHooks,
  /** `hoursQuery`'s rows when the caller read them already (issue 16). */
  preloaded?: HoursRow[],
): Promise<IngestResult | null> {
  const { connection, contact, event } = input;
  if (event.isGroup) return null;
  const action = await outsideHoursAction(db, connection.companyId, connection.id, event.timestamp, preloaded);
  if (!action) return null;
  const current = await db.query.tickets.findFirst({
    where: and(
      eq(tickets.companyId, connection.companyId),
      eq(tickets.contactId, contact.id),
      eq(tickets.connectionId, connection.id),
      inArray(tickets.status, ["pending", "open"]),
    ),
    orderBy: desc(tickets.createdAt),
    columns: { status: true, outsideHoursAt: true },
  });
  if (current && (current.status !== "pending" || current.outsideHoursAt !== null)) return null;

  const { ticket, created } = await hooks.ticketFor();
  const at = Date.now();
  const claimed = await db
    .update(tickets)
    .set({ outsideHoursAt: at, updatedAt: at })
    .where(and(eq(tickets.id, ticket.id), eq(tickets.companyId, connection.companyId), isNull(tickets.outsideHoursAt)))
    .returning({ id: tickets.id });
  const marked: TicketRow = claimed.length ? { ...ticket, outsideHoursAt: at } : ticket;
  const stored = await hooks.store(marked, created);
  if (!claimed.length) return stored;
  // A ticket created now was published by `store` with its mark; an existing one shows it now.
  if (!created) await roomOf(env, ticket.id).ticketChanged(connection.companyId, ticket.id);
  if (action.type === "message") {
    await sendToTicket(
      env,
      { ticket: marked, connection, recipientExternalId: event.from, recipientPhone: contact.phone },
      { type: "text", body: action.message },
      null,
      `outside-hours:${ticket.id}`,
    );
  } else if (action.type === "flow") {
    const runId = await hooks.startFlow(marked, action.flowId);
    if (runId) return { ...stored, runId };
  }
  return stored;
}
