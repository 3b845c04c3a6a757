/**
 * Online status at work (issue 12 "Online status"; spec §4 Online status): members who switched
 * themselves offline (PUT /api/user/change-status) are not alerted about conversations waiting in
 * the queue. A new pending ticket is announced on the company hub as `ticket.waiting`, addressed to
 * the members who are online (users.status) and filtered by the hub like any ticket event (the
 * `tickets` permission; `tickets_groups` for a group). Offline members still see the ticket in their
 * list; they just get no alert. Auto-assignment does not exist in the product yet; when it comes,
 * `onlineMemberIds` is who it may assign to.
 */
import { and, eq } from "drizzle-orm";
import { members, users } from "../../schema";
import type { AppEnv } from "../env";
import type { Db } from "./db";
import { hubOf } from "./realtime";

/** members.id of the company's members whose users are online now. */
export async function onlineMemberIds(db: Db, companyId: string): Promise<string[]> {
  const rows = await onlineMembersQuery(db, companyId);
  return rows.map((r) => r.id);
}

/** `onlineMemberIds`'s read as a query not yet run (rows `{id}`), for a caller's D1 batch (issue 16). */
export function onlineMembersQuery(db: Db, companyId: string) {
  return db
    .select({ id: members.id })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(and(eq(members.companyId, companyId), eq(users.status, "online")));
}

/**
 * The `ticket.waiting` hub event of `announceWaitingTicket` and its audience (the `online` members
 * who may take the ticket), for a caller that publishes it with other events in one hub call.
 */
export function waitingTicketEvent(ticket: { id: string; isGroup: boolean }, contactName: string, online: string[]) {
  return {
    bodies: [{ type: "ticket.waiting" as const, ticketId: ticket.id, contactName }],
    audience: { members: online, ticket: { status: "pending", assignedMemberId: null, isGroup: ticket.isGroup } },
  };
}

/**
 * Alerts the online members who may take it that a new pending ticket waits (`ticket.waiting` on the
 * hub). Nothing is published when nobody is online. Never throws: an alert is not worth failing the
 * inbound message for.
 */
export async function announceWaitingTicket(
  env: AppEnv,
  db: Db,
  companyId: string,
  ticket: { id: string; isGroup: boolean },
  contactName: string,
  /** The online members when the caller read them already (the inbound path's one batch, issue 16). */
  preloaded?: string[],
): Promise<void> {
  try {
    const online = preloaded ?? (await onlineMemberIds(db, companyId));
    if (!online.length) return;
    const waiting = waitingTicketEvent(ticket, contactName, online);
    await hubOf(env, companyId).publish(waiting.bodies[0]!, waiting.audience);
  } catch (error) {
    console.error("[online-members] could not announce a waiting ticket", error);
  }
}
