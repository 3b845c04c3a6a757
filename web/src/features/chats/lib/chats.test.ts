import { describe, expect, it } from "vitest";
import type { MessageAnswer } from "../../../../../schema/realtime";
import { bumpTicket, flattenTickets, matchesFilters, upsertTicket, type TicketFilters, type TicketPages, type TicketViewer } from "./ticket-list";
import { flattenMessages, formatBytes, groupByDay, mergeMessages, relativeDay, splitLinks, tickOf, upsertMessage, withLocalMessages, type LocalMessage, type MessagePages } from "./messages";
import { contactCardsOf, locationOf, replyOf } from "./payloads";
import { ticketFixture } from "../test/tickets";

const ticket = ticketFixture;

function message(id: string, over: Partial<MessageAnswer> = {}): MessageAnswer {
  return {
    id,
    ticketId: "t1",
    contactId: "c1",
    direction: "in",
    type: "text",
    body: id,
    payload: null,
    media: null,
    quoted: null,
    status: "received",
    error: null,
    sentAt: 1000,
    seq: 1,
    sender: null,
    deleted: false,
    editedAt: null,
    forwarded: false,
    reactions: [],
    createdAt: 1000,
    ...over,
  };
}

const ALL: TicketFilters = { type: "all", status: "all", search: "" };
const ADMIN: TicketViewer = { memberId: "m1", seeAll: true, groups: true };

function pages(...lists: { ids: [string, number][]; cursor: string | null }[]): TicketPages {
  return {
    pages: lists.map((l, index) => ({ results: l.ids.map(([id, at]) => ticket(id, { lastMessageAt: at })), cursor: l.cursor, total: index === 0 ? 10 : 0 })),
    pageParams: lists.map(() => null),
  };
}

const ids = (data: TicketPages) => flattenTickets(data).map((t) => t.id);

describe("ticket list filters", () => {
  it("follow the worker's type, status, search and visibility rules", () => {
    expect(matchesFilters(ticket("a", { status: "open" }), { ...ALL, status: "pending" }, ADMIN)).toBe(false);
    expect(matchesFilters(ticket("a", { isGroup: true }), { ...ALL, type: "chats" }, ADMIN)).toBe(false);
    expect(matchesFilters(ticket("a", { isGroup: true }), { ...ALL, type: "groups" }, ADMIN)).toBe(true);
    expect(matchesFilters(ticket("a", { isGroup: true }), ALL, { ...ADMIN, groups: false })).toBe(false);
    expect(matchesFilters(ticket("a"), { ...ALL, type: "unread" }, ADMIN)).toBe(false);
    expect(matchesFilters(ticket("a", { unreadCount: 2 }), { ...ALL, type: "unread" }, ADMIN)).toBe(true);
    expect(matchesFilters(ticket("a", { assignedMemberId: "m1", status: "open" }), { ...ALL, type: "mine" }, ADMIN)).toBe(true);
    expect(matchesFilters(ticket("a", { assignedMemberId: "m2", status: "open" }), { ...ALL, type: "mine" }, ADMIN)).toBe(false);
    expect(matchesFilters(ticket("a"), { ...ALL, search: "contact A" }, ADMIN)).toBe(true);
    expect(matchesFilters(ticket("a"), { ...ALL, search: "99999" }, ADMIN)).toBe(true);
    expect(matchesFilters(ticket("a"), { ...ALL, search: "zzz" }, ADMIN)).toBe(false);
    // Without see_all_tickets: pending and own tickets only.
    const agent: TicketViewer = { memberId: "m1", seeAll: false, groups: false };
    expect(matchesFilters(ticket("a", { status: "open", assignedMemberId: "m2" }), ALL, agent)).toBe(false);
    expect(matchesFilters(ticket("a", { status: "open", assignedMemberId: "m1" }), ALL, agent)).toBe(true);
    expect(matchesFilters(ticket("a", { status: "open", assignedMemberId: "m1" }), ALL, { ...agent, memberId: null })).toBeNull();
    expect(matchesFilters(ticket("a", { status: "open" }), { ...ALL, type: "mine" }, { ...ADMIN, memberId: null })).toBeNull();
  });
});

describe("upsertTicket", () => {
  it("inserts a new matching ticket at the top and counts it", () => {
    const data = pages({ ids: [["b", 900], ["c", 800]], cursor: null });
    const out = upsertTicket(data, ticket("a", { lastMessageAt: 950 }), ALL, ADMIN);
    expect(ids(out.data)).toEqual(["a", "b", "c"]);
    expect(out.data.pages[0]?.total).toBe(11);
  });

  it("moves an updated ticket to its new place without duplicating it", () => {
    const data = pages({ ids: [["a", 900], ["b", 800]], cursor: "x" }, { ids: [["c", 700]], cursor: null });
    const out = upsertTicket(data, ticket("c", { lastMessageAt: 1000 }), ALL, ADMIN);
    expect(ids(out.data)).toEqual(["c", "a", "b"]);
    expect(out.data.pages[0]?.total).toBe(10);
  });

  it("removes a ticket that no longer matches the list's filters", () => {
    const data = pages({ ids: [["a", 900], ["b", 800]], cursor: null });
    const out = upsertTicket(data, ticket("a", { status: "open", lastMessageAt: 900 }), { ...ALL, status: "pending" }, ADMIN);
    expect(ids(out.data)).toEqual(["b"]);
    expect(out.data.pages[0]?.total).toBe(9);
  });

  it("leaves a ticket that sorts after the loaded pages to paging", () => {
    const data = pages({ ids: [["a", 900]], cursor: "more" });
    const out = upsertTicket(data, ticket("z", { lastMessageAt: 10 }), ALL, ADMIN);
    expect(ids(out.data)).toEqual(["a"]);
    expect(upsertTicket(pages({ ids: [["a", 900]], cursor: null }), ticket("z", { lastMessageAt: 10 }), ALL, ADMIN).data.pages[0]?.results.map((t) => t.id)).toEqual(["a", "z"]);
  });

  it("does nothing for a non-matching ticket it does not hold, and asks to refetch when it cannot tell", () => {
    const data = pages({ ids: [["a", 900]], cursor: null });
    expect(upsertTicket(data, ticket("q", { status: "open" }), { ...ALL, status: "pending" }, ADMIN)).toEqual({ data, changed: false, unknown: false });
    expect(upsertTicket(data, ticket("q", { status: "open" }), { ...ALL, type: "mine" }, { ...ADMIN, memberId: null }).unknown).toBe(true);
  });

  it("keeps the newer of two entries of a ticket that arrive out of order (tickets.version)", () => {
    const held = ticket("a", { lastMessageAt: 900, lastMessagePreview: "a resposta", unreadCount: 0, version: 5 });
    const data: TicketPages = { pages: [{ results: [held, ticket("b", { lastMessageAt: 800 })], cursor: null, total: 2 }], pageParams: [null] };
    // The customer's entry, read before the member's reply was stored, reaches the list after it.
    const older = ticket("a", { lastMessageAt: 850, lastMessagePreview: "a pergunta", unreadCount: 1, version: 4 });
    expect(upsertTicket(data, older, ALL, ADMIN)).toEqual({ data, changed: false, unknown: false });
    // The same version again, or a newer one, applies.
    expect(flattenTickets(upsertTicket(data, { ...held, unreadCount: 3 }, ALL, ADMIN).data)[0]?.unreadCount).toBe(3);
    const newer = upsertTicket(data, ticket("a", { lastMessageAt: 950, lastMessagePreview: "outra", version: 6 }), ALL, ADMIN);
    expect(flattenTickets(newer.data).map((t) => [t.id, t.lastMessagePreview])).toEqual([
      ["a", "outra"],
      ["b", ""],
    ]);
  });

  it("bumps a ticket on a new message, ignoring reactions and stale messages", () => {
    const data = pages({ ids: [["a", 900], ["b", 800]], cursor: null });
    const bumped = bumpTicket(data, message("m", { ticketId: "b", sentAt: 1200 }), "hello");
    expect(ids(bumped)).toEqual(["b", "a"]);
    expect(flattenTickets(bumped)[0]?.lastMessagePreview).toBe("hello");
    expect(bumpTicket(data, message("m", { ticketId: "b", sentAt: 1200, type: "reaction" }), "x")).toBe(data);
    expect(bumpTicket(data, message("m", { ticketId: "b", sentAt: 10 }), "x")).toBe(data);
    expect(bumpTicket(data, message("m", { ticketId: "nope", sentAt: 2000 }), "x")).toBe(data);
  });
});

describe("messages", () => {
  it("orders by (sentAt, seq) and keeps each id once", () => {
    const a = message("a", { sentAt: 2000, seq: 1 });
    const b = message("b", { sentAt: 1000, seq: 5 });
    const c = message("c", { sentAt: 1000, seq: 2 });
    expect(mergeMessages([a, b], [c, a]).map((m) => m.id)).toEqual(["c", "b", "a"]);
  });

  it("never moves a status backwards and keeps deletions", () => {
    const read = message("a", { direction: "out", status: "read" });
    const late = message("a", { direction: "out", status: "sent" });
    expect(mergeMessages([read], [late])[0]?.status).toBe("read");
    expect(mergeMessages([late], [read])[0]?.status).toBe("read");
    const deleted = message("a", { deleted: true, body: "" });
    expect(mergeMessages([deleted], [message("a")])[0]?.deleted).toBe(true);
  });

  it("upserts live messages into the pages without duplicates", () => {
    let data: MessagePages = { pages: [{ results: [message("b", { seq: 2 })], cursor: "older" }, { results: [message("a", { seq: 1 })], cursor: null }], pageParams: [null, "older"] };
    data = upsertMessage(data, message("c", { seq: 3, sentAt: 1001 }));
    data = upsertMessage(data, message("c", { seq: 3, sentAt: 1001 }));
    data = upsertMessage(data, message("a", { seq: 1, body: "edited" }));
    const flat = flattenMessages(data);
    expect(flat.map((m) => m.id)).toEqual(["a", "b", "c"]);
    expect(flat[0]?.body).toBe("edited");
  });

  it("drops an optimistic message once its stored copy is listed", () => {
    const local: LocalMessage = {
      key: "k1",
      ticketId: "t1",
      draft: { kind: "text", body: "Olá" },
      message: message("local:k1", { direction: "out", status: "pending", body: "Olá", sentAt: 5000, seq: Number.MAX_SAFE_INTEGER }),
      failed: false,
      previewUrl: null,
      seenIds: new Set(["old"]),
    };
    const old = message("old", { direction: "out", body: "Olá", sentAt: 10 });
    expect(withLocalMessages([old], [local]).map((m) => m.id)).toEqual(["old", "local:k1"]);
    const copy = message("s1", { direction: "out", body: "Olá", status: "sent", sentAt: 5001 });
    expect(withLocalMessages([old, copy], [local]).map((m) => m.id)).toEqual(["old", "s1"]);
  });

  it("maps statuses to ticks", () => {
    expect(tickOf({ direction: "in", status: "received" })).toBeNull();
    expect(tickOf({ direction: "out", status: "pending" })).toBe("clock");
    expect(tickOf({ direction: "out", status: "sent" })).toBe("sent");
    expect(tickOf({ direction: "out", status: "delivered" })).toBe("delivered");
    expect(tickOf({ direction: "out", status: "read" })).toBe("read");
    expect(tickOf({ direction: "out", status: "failed" })).toBe("failed");
  });

  it("groups by calendar day in a time zone", () => {
    const day1 = Date.UTC(2025, 0, 1, 23, 30);
    const day2 = Date.UTC(2025, 0, 2, 1, 0);
    const groups = groupByDay([message("a", { sentAt: day1 }), message("b", { sentAt: day2 })], "UTC");
    expect(groups.map((g) => [g.day, g.messages.length])).toEqual([["2025-01-01", 1], ["2025-01-02", 1]]);
    // In São Paulo (UTC-3) both are on January 1st.
    expect(groupByDay([message("a", { sentAt: day1 }), message("b", { sentAt: day2 })], "America/Sao_Paulo").map((g) => g.day)).toEqual(["2025-01-01"]);
    expect(relativeDay(day1, day2, "UTC")).toBe("yesterday");
    expect(relativeDay(day2, day2, "UTC")).toBe("today");
    expect(relativeDay(day2 - 3 * 86_400_000, day2, "UTC")).toBe("week");
    expect(relativeDay(day2 - 30 * 86_400_000, day2, "UTC")).toBe("older");
  });

  it("finds links and formats sizes", () => {
    expect(splitLinks("see https://example.com/a, or www.x.org.")).toEqual([
      { kind: "text", text: "see " },
      { kind: "link", text: "https://example.com/a", href: "https://example.com/a" },
      { kind: "text", text: ", or " },
      { kind: "link", text: "www.x.org", href: "https://www.x.org" },
      { kind: "text", text: "." },
    ]);
    expect(formatBytes(500)).toBe("500 B");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(20 * 1024 * 1024)).toBe("20 MB");
  });

  it("reads structured payloads", () => {
    expect(contactCardsOf(message("a", { type: "contact", payload: { contacts: [{ name: "Ana", phone: "+1", organization: null }], name: "Ana", phone: "+1" } }))).toEqual([{ name: "Ana", phone: "+1", organization: null }]);
    expect(locationOf(message("a", { type: "location", payload: { latitude: -23.5, longitude: -46.6, name: "Office" } }))?.name).toBe("Office");
    expect(locationOf(message("a", { type: "location", payload: null }))).toBeNull();
    expect(replyOf(message("a", { type: "button_reply", body: "Yes", payload: { replyId: "y", title: "Yes!" } })).title).toBe("Yes!");
  });
});
