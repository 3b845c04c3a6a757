/**
 * `applyTicket` keeps the newest entry of a ticket (tickets.version, issue 16): the hub can deliver
 * a ticket's older entry after a newer one, because a ContactSession and a TicketRoom publish the
 * same ticket concurrently. Exercised on a real QueryClient.
 */
import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import type { TicketAnswer } from "../../../../../schema/realtime";
import { chatKeys } from "../api/chats-api";
import type { TicketFilters, TicketPages, TicketViewer } from "../lib/ticket-list";
import { applyTicket } from "./use-live-tickets";
import { ticketFixture } from "../test/tickets";

const ADMIN: TicketViewer = { memberId: "m1", seeAll: true, groups: true };
const OPEN: TicketFilters = { type: "all", status: "open", search: "" };
const ALL: TicketFilters = { type: "all", status: "all", search: "" };

/** Ticket t1, open and assigned to m1, with `over` applied. */
const ticket = (over: Partial<TicketAnswer>): TicketAnswer => ticketFixture("t1", { status: "open", assignedMemberId: "m1", assignedMemberName: "Ana", servedByMemberId: "m1", ...over });

const list = (...results: TicketAnswer[]): TicketPages => ({ pages: [{ results, cursor: null, total: results.length }], pageParams: [null] });
const held = (client: QueryClient, filters: TicketFilters) => client.getQueryData<TicketPages>(chatKeys.list(filters))?.pages.flatMap((p) => p.results) ?? [];

describe("applyTicket", () => {
  it("drops an entry older than the one it applied, in the lists and the detail", () => {
    const client = new QueryClient();
    client.setQueryData(chatKeys.list(ALL), list(ticket({ version: 1 })));
    client.setQueryData(chatKeys.detail("t1"), ticket({ version: 1 }));
    applyTicket(client, ticket({ version: 3, lastMessageAt: 2000, lastMessagePreview: "a resposta", unreadCount: 0 }), ADMIN);
    applyTicket(client, ticket({ version: 2, lastMessageAt: 1500, lastMessagePreview: "a pergunta", unreadCount: 1 }), ADMIN);
    expect(held(client, ALL).map((t) => [t.version, t.lastMessagePreview, t.unreadCount])).toEqual([[3, "a resposta", 0]]);
    expect(client.getQueryData<TicketAnswer>(chatKeys.detail("t1"))).toMatchObject({ version: 3, lastMessagePreview: "a resposta" });
    // A newer one applies.
    applyTicket(client, ticket({ version: 4, lastMessageAt: 2500, lastMessagePreview: "obrigada" }), ADMIN);
    expect(held(client, ALL).map((t) => t.lastMessagePreview)).toEqual(["obrigada"]);
  });

  it("does not put a ticket back in a list it left on an older entry", () => {
    const client = new QueryClient();
    client.setQueryData(chatKeys.list(OPEN), list(ticket({ version: 1 })));
    // Closed (version 3) and then the entry of a message stored before the close (version 2).
    applyTicket(client, ticket({ version: 3, status: "closed", closedAt: 3000 }), ADMIN);
    expect(held(client, OPEN)).toEqual([]);
    applyTicket(client, ticket({ version: 2, status: "open", lastMessagePreview: "antes" }), ADMIN);
    expect(held(client, OPEN)).toEqual([]);
  });

  it("keeps a newer entry a list was loaded with over an older one from the hub", () => {
    const client = new QueryClient();
    client.setQueryData(chatKeys.list(ALL), list(ticket({ version: 7, lastMessagePreview: "recarregada" })));
    applyTicket(client, ticket({ version: 6, lastMessagePreview: "antiga" }), ADMIN);
    expect(held(client, ALL).map((t) => t.lastMessagePreview)).toEqual(["recarregada"]);
  });
});
