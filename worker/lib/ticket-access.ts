/**
 * The one ticket visibility rule (spec §6 `see_all_tickets`, `tickets_groups`), used by every ticket
 * action: without `see_all_tickets` a member sees pending tickets and the ones assigned to them only;
 * without `tickets_groups` no group chat. A ticket the viewer may not see answers 404, like one of
 * another company. An API key (worker/lib/api-keys.ts) sees every ticket of its company.
 */
import { and, eq, or, type SQL } from "drizzle-orm";
import { tickets, type TicketRow } from "../../schema";
import type { HonoEnv } from "../middleware/context";
import type { Db } from "./db";
import { notFound } from "./errors";

/** Who looks: the member (null for an API key) and what they may see. */
export type TicketViewer = { memberId: string | null; seeAll: boolean; groups: boolean };

/** The viewer of a request that passed requireCompany (a member's session or an API key). */
export function ticketViewerOf(c: { var: HonoEnv["Variables"] }): TicketViewer {
  if (c.var.apiKey) return { memberId: null, seeAll: true, groups: true };
  return { memberId: c.var.memberId, seeAll: c.var.permissions.has("see_all_tickets"), groups: c.var.permissions.has("tickets_groups") };
}

/** SQL restricting tickets to what `viewer` may see (undefined: everything of the company). */
export function ticketVisibility(viewer: TicketViewer): SQL | undefined {
  const parts: (SQL | undefined)[] = [];
  if (!viewer.groups) parts.push(eq(tickets.isGroup, false));
  if (!viewer.seeAll) {
    parts.push(viewer.memberId ? or(eq(tickets.status, "pending"), eq(tickets.assignedMemberId, viewer.memberId)) : eq(tickets.status, "pending"));
  }
  return and(...parts);
}

/** Ticket `id` if it is `companyId`'s and `viewer` may see it; 404 `not_found` otherwise. */
export async function findVisibleTicket(db: Db, companyId: string, id: string, viewer: TicketViewer): Promise<TicketRow> {
  const row = await db.query.tickets.findFirst({ where: and(eq(tickets.id, id), eq(tickets.companyId, companyId), ticketVisibility(viewer)) });
  if (!row) throw notFound("Ticket");
  return row;
}
