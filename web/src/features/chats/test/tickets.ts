/** Test data of the chat centre's unit tests (not part of the app). */
import type { TicketAnswer } from "../../../../../schema/realtime";

/** A pending ticket `id` of a sandbox connection, last active at 1000 ms, version 0, with `over` applied. */
export function ticketFixture(id: string, over: Partial<TicketAnswer> = {}): TicketAnswer {
  return {
    id,
    status: "pending",
    contact: { id: `c-${id}`, name: `Contact ${id}`, phone: "+5511999990000", email: null, image: null },
    connection: { id: "conn", name: "Main", channel: "sandbox" },
    assignedMemberId: null,
    assignedMemberName: null,
    servedByMemberId: null,
    isGroup: false,
    unreadCount: 0,
    lastMessageAt: 1000,
    lastMessagePreview: "",
    version: 0,
    createdAt: 1,
    closedAt: null,
    referral: null,
    outsideHoursAt: null,
    ...over,
  };
}
