import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { MessageAnswer, TicketAnswer } from "../../schema/realtime";
import {
  cloudConnection,
  deliverOk,
  listTickets,
  onlyTicket,
  sentTo,
  standInSent,
  textWebhook,
  ticketMessages,
  uniqueWaId,
  until,
  wamid,
} from "../test/channel-helpers";
import { call, countRows, expectError, expectInvalid, expectStatus, form, me, member, register, type Account } from "../test/helpers";

/** The member id of `account` in its active company. */
async function memberIdOf(account: Account): Promise<string> {
  const user = await me(account.token);
  const row = await env.DB.prepare("SELECT id FROM members WHERE company_id = ? AND user_id = ?").bind(user.activeCompany, user.id).first<{ id: string }>();
  if (!row) throw new Error("no membership");
  return row.id;
}

/** A customer writes: answers the ticket that holds the message. */
async function customerWrites(token: string, phoneNumberId: string, from: string, body: string, name = "Maria", ts?: number): Promise<TicketAnswer> {
  const id = wamid();
  await deliverOk(textWebhook(phoneNumberId, from, id, body, ts ?? Math.floor(Date.now() / 1000), name));
  const row = await env.DB.prepare("SELECT ticket_id FROM messages WHERE external_id = ?").bind(id).first<{ ticket_id: string }>();
  if (!row) throw new Error(`message ${id} not stored`);
  return expectStatus<TicketAnswer>(await call("GET", `/api/tickets/${row.ticket_id}`, { token }), 200);
}

function post(token: string, path: string, body?: unknown) {
  return call("POST", path, { token, ...(body === undefined ? {} : { body }) });
}

/** The text bodies the stand-in was asked to send to one number, in order. */
async function sentTexts(phoneNumberId: string): Promise<string[]> {
  return (await sentTo(phoneNumberId)).map((r) => {
    const text = typeof r.body === "object" && r.body !== null ? r.body.text : null;
    return typeof text === "object" && text !== null && "body" in text ? String(text.body) : "";
  });
}

/**
 * The positive control of a "nothing (more) was sent" check: a member sends `body` on the ticket.
 * A ticket's sends leave its room one after another, so once the stand-in has this one, every send
 * queued on the ticket before it has been made. Answers every text sent to the number, in order.
 */
async function sentThroughControl(token: string, ticketId: string, phoneNumberId: string, body = "controle"): Promise<string[]> {
  await expectStatus(await post(token, `/api/tickets/${ticketId}/messages`, { type: "text", body }), 201);
  await until(() => sentTexts(phoneNumberId), (texts) => texts.includes(body), `the control message "${body}"`);
  return sentTexts(phoneNumberId);
}

describe("ticket lifecycle", () => {
  it("a new conversation opens a pending ticket and sends the connection's greeting", async () => {
    const owner = await register();
    const { phoneNumberId } = await cloudConnection(owner.token, { greetingMessage: "Olá! Em que podemos ajudar?" });
    const from = uniqueWaId();
    const ticket = await customerWrites(owner.token, phoneNumberId, from, "Oi");
    expect(ticket).toMatchObject({ status: "pending", assignedMemberId: null, unreadCount: 1, closedAt: null });
    const [greeting] = await until(() => sentTo(phoneNumberId), (r) => r.length >= 1, "the greeting");
    expect(greeting?.body).toMatchObject({ to: from, type: "text", text: { body: "Olá! Em que podemos ajudar?" } });
    const page = await ticketMessages(owner.token, ticket.id);
    expect(page.results.map((m) => [m.direction, m.body])).toEqual([
      ["in", "Oi"],
      ["out", "Olá! Em que podemos ajudar?"],
    ]);
    // A second message of the same conversation sends no second greeting.
    await customerWrites(owner.token, phoneNumberId, from, "Tudo bem?");
    expect(await sentThroughControl(owner.token, ticket.id, phoneNumberId)).toEqual(["Olá! Em que podemos ajudar?", "controle"]);
  });

  it("without a greeting message nothing is sent on a new ticket", async () => {
    const owner = await register();
    const { phoneNumberId } = await cloudConnection(owner.token);
    const ticket = await customerWrites(owner.token, phoneNumberId, uniqueWaId(), "Oi");
    expect((await ticketMessages(owner.token, ticket.id)).results.map((m) => m.direction)).toEqual(["in"]);
    expect(await sentThroughControl(owner.token, ticket.id, phoneNumberId)).toEqual(["controle"]);
  });

  it("open assigns the ticket to the caller, transfer hands it to another member, close sends the farewell", async () => {
    const owner = await register();
    const ownerMemberId = await memberIdOf(owner);
    const colleague = await member(owner, ["tickets"]);
    const { phoneNumberId } = await cloudConnection(owner.token, { farewellMessage: "Obrigado pelo contato!" });
    const from = uniqueWaId();
    const ticket = await customerWrites(owner.token, phoneNumberId, from, "Quero um bolo");

    const opened = await expectStatus<TicketAnswer>(await post(owner.token, `/api/tickets/${ticket.id}/open`), 200);
    expect(opened).toMatchObject({ status: "open", assignedMemberId: ownerMemberId, assignedMemberName: "Ana Souza", servedByMemberId: ownerMemberId });

    const transferred = await expectStatus<TicketAnswer>(await post(owner.token, `/api/tickets/${ticket.id}/transfer`, { memberId: colleague.memberId }), 200);
    expect(transferred).toMatchObject({ status: "open", assignedMemberId: colleague.memberId, assignedMemberName: "Bruno Lima" });
    // The colleague now sees it (assigned to them) though they lack see_all_tickets.
    expect((await expectStatus<TicketAnswer>(await call("GET", `/api/tickets/${ticket.id}`, { token: colleague.token }), 200)).id).toBe(ticket.id);

    const closed = await expectStatus<TicketAnswer>(await post(colleague.token, `/api/tickets/${ticket.id}/close`), 200);
    expect(closed.status).toBe("closed");
    expect(closed.closedAt).toEqual(expect.any(Number));
    expect(closed.servedByMemberId).toBe(colleague.memberId);

    const [farewell] = await until(() => sentTo(phoneNumberId), (r) => r.length >= 1, "the farewell");
    expect(farewell?.body).toMatchObject({ to: from, type: "text", text: { body: "Obrigado pelo contato!" } });
    const page = await until(
      () => ticketMessages(owner.token, ticket.id),
      (p) => p.results.some((m) => m.direction === "out" && m.status === "sent"),
      "the farewell to be sent",
    );
    expect(page.results.filter((m) => m.direction === "out").map((m) => m.body)).toEqual(["Obrigado pelo contato!"]);

    // Closing again changes nothing and sends no second farewell.
    expect((await expectStatus<TicketAnswer>(await post(owner.token, `/api/tickets/${ticket.id}/close`), 200)).status).toBe("closed");
    expect(await sentThroughControl(owner.token, ticket.id, phoneNumberId)).toEqual(["Obrigado pelo contato!", "controle"]);
  });

  it("a message after close opens a new pending ticket while the contact keeps its history", async () => {
    const owner = await register();
    const { phoneNumberId } = await cloudConnection(owner.token, { greetingMessage: "Bem-vindo!" });
    const from = uniqueWaId();
    const first = await customerWrites(owner.token, phoneNumberId, from, "Primeira conversa");
    await expectStatus(await post(owner.token, `/api/tickets/${first.id}/open`), 200);
    await expectStatus(await post(owner.token, `/api/tickets/${first.id}/close`), 200);

    const second = await customerWrites(owner.token, phoneNumberId, from, "Voltei");
    expect(second.id).not.toBe(first.id);
    expect(second).toMatchObject({ status: "pending", assignedMemberId: null, unreadCount: 1 });
    expect(second.contact.id).toBe(first.contact.id);
    expect(await countRows("contacts", "id = ?", first.contact.id)).toBe(1);

    const old = await expectStatus<TicketAnswer>(await call("GET", `/api/tickets/${first.id}`, { token: owner.token }), 200);
    expect(old.status).toBe("closed");
    expect((await ticketMessages(owner.token, first.id)).results.filter((m) => m.direction === "in").map((m) => m.body)).toEqual(["Primeira conversa"]);
    expect((await ticketMessages(owner.token, second.id)).results.filter((m) => m.direction === "in").map((m) => m.body)).toEqual(["Voltei"]);
    // The new ticket greets again.
    await until(() => sentTo(phoneNumberId), (r) => r.filter((x) => JSON.stringify(x.body).includes("Bem-vindo!")).length === 2, "two greetings");

    const all = await listTickets(owner.token, "status=all");
    expect(all.results.map((t) => t.id).sort()).toEqual([first.id, second.id].sort());
    expect((await listTickets(owner.token, "status=closed")).results.map((t) => t.id)).toEqual([first.id]);
  });

  it("a ticket whose connection was deleted keeps its history readable, and a reply answers 409", async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    const ticket = await customerWrites(owner.token, connection.phoneNumberId, uniqueWaId(), "Histórico");
    const res = await call("DELETE", `/api/connections/${connection.id}`, { token: owner.token });
    expect(res.status, await res.text()).toBe(204);
    const after = await expectStatus<TicketAnswer>(await call("GET", `/api/tickets/${ticket.id}`, { token: owner.token }), 200);
    expect(after).toMatchObject({ id: ticket.id, status: "pending", lastMessagePreview: "Histórico", connection: { id: connection.id } });
    const list = await listTickets(owner.token);
    expect(list.total).toBe(1);
    expect(list.results.map((t) => t.id)).toEqual([ticket.id]);
    expect((await ticketMessages(owner.token, ticket.id)).results.map((m) => m.body)).toEqual(["Histórico"]);
    await expectError(await post(owner.token, `/api/tickets/${ticket.id}/messages`, { type: "text", body: "Oi?" }), 409, "conflict");
  });

  it("answering a pending ticket opens it, assigned to the sender", async () => {
    const owner = await register();
    const ownerMemberId = await memberIdOf(owner);
    const { phoneNumberId } = await cloudConnection(owner.token);
    const ticket = await customerWrites(owner.token, phoneNumberId, uniqueWaId(), "Oi");
    const sent = await expectStatus<MessageAnswer>(await post(owner.token, `/api/tickets/${ticket.id}/messages`, { type: "text", body: "Olá!" }), 201);
    expect(sent.sender).toEqual({ memberId: ownerMemberId, name: "Ana Souza" });
    const after = await expectStatus<TicketAnswer>(await call("GET", `/api/tickets/${ticket.id}`, { token: owner.token }), 200);
    expect(after).toMatchObject({ status: "open", assignedMemberId: ownerMemberId });
  });

  it("with showAttendantName on, the customer receives the member's name above the text", async () => {
    const owner = await register();
    await expectStatus(
      await call("PUT", "/api/companies/active", { token: owner.token, form: form({ timezone: "America/Sao_Paulo", showAttendantName: "true" }) }),
      200,
    );
    const { phoneNumberId } = await cloudConnection(owner.token);
    const ticket = await customerWrites(owner.token, phoneNumberId, uniqueWaId(), "Oi");
    const sent = await expectStatus<MessageAnswer>(await post(owner.token, `/api/tickets/${ticket.id}/messages`, { type: "text", body: "Posso ajudar?" }), 201);
    expect(sent.body).toBe("Posso ajudar?");
    const [out] = await until(() => sentTo(phoneNumberId), (r) => r.length >= 1, "the send");
    expect(out?.body).toMatchObject({ text: { body: "*Ana Souza:*\nPosso ajudar?" } });
  });

  it("read clears the unread count and sends a read receipt for the customer's last message", async () => {
    const owner = await register();
    const { phoneNumberId } = await cloudConnection(owner.token);
    const from = uniqueWaId();
    await customerWrites(owner.token, phoneNumberId, from, "um", "Maria", 1_700_000_001);
    const last = wamid();
    await deliverOk(textWebhook(phoneNumberId, from, last, "dois", 1_700_000_002));
    const ticket = await onlyTicket(owner.token);
    expect(ticket.unreadCount).toBe(2);
    const read = await expectStatus<TicketAnswer>(await post(owner.token, `/api/tickets/${ticket.id}/read`), 200);
    expect(read.unreadCount).toBe(0);
    const receipts = await until(
      async () => (await standInSent()).filter((r) => r.path.endsWith(`/${phoneNumberId}/messages`) && typeof r.body === "object" && r.body?.status === "read"),
      (r) => r.length >= 1,
      "the read receipt",
    );
    expect(receipts[0]?.body).toMatchObject({ status: "read", message_id: last });
  });

  it("transfer to a member of another company or to no member answers 400 naming memberId", async () => {
    const owner = await register();
    const other = await register();
    const stranger = await memberIdOf(other);
    const { phoneNumberId } = await cloudConnection(owner.token);
    const ticket = await customerWrites(owner.token, phoneNumberId, uniqueWaId(), "Oi");
    await expectInvalid(await post(owner.token, `/api/tickets/${ticket.id}/transfer`, { memberId: stranger }), "memberId");
    await expectInvalid(await post(owner.token, `/api/tickets/${ticket.id}/transfer`, { memberId: "not-a-uuid" }), "memberId");
    await expectInvalid(await post(owner.token, `/api/tickets/${ticket.id}/transfer`, {}), "memberId");
    expect((await expectStatus<TicketAnswer>(await call("GET", `/api/tickets/${ticket.id}`, { token: owner.token }), 200)).status).toBe("pending");
  });

  it("a member's send is validated: empty body, wrong type, malformed JSON, a quote from another ticket → 400", async () => {
    const owner = await register();
    const { phoneNumberId } = await cloudConnection(owner.token);
    const a = await customerWrites(owner.token, phoneNumberId, uniqueWaId(), "A");
    const b = await customerWrites(owner.token, phoneNumberId, uniqueWaId(), "B");
    const fromB = (await ticketMessages(owner.token, b.id)).results[0]!;
    await expectInvalid(await post(owner.token, `/api/tickets/${a.id}/messages`, { type: "text", body: "   " }), "body");
    await expectInvalid(await post(owner.token, `/api/tickets/${a.id}/messages`, { type: "text" }), "body");
    await expectInvalid(await post(owner.token, `/api/tickets/${a.id}/messages`, { type: "sticker", body: "x" }), "type");
    await expectInvalid(await post(owner.token, `/api/tickets/${a.id}/messages`, { type: "text", body: "x".repeat(4097) }), "body");
    await expectInvalid(await post(owner.token, `/api/tickets/${a.id}/messages`, { type: "text", body: "x", quotedId: fromB.id }), "quotedId");
    await expectStatus(await post(owner.token, `/api/tickets/${a.id}/messages`, "{not json"), 400);
    expect((await ticketMessages(owner.token, a.id)).results).toHaveLength(1);
    expect(await sentThroughControl(owner.token, a.id, phoneNumberId)).toEqual(["controle"]);
  });
});

describe("who sees which tickets", () => {
  it("without see_all_tickets a member sees pending tickets and the ones assigned to them only", async () => {
    const owner = await register();
    const colleague = await member(owner, ["tickets"]);
    const { phoneNumberId } = await cloudConnection(owner.token);
    const ownersTicket = await customerWrites(owner.token, phoneNumberId, uniqueWaId(), "do dono", "Dono");
    const pending = await customerWrites(owner.token, phoneNumberId, uniqueWaId(), "pendente", "Pendente");
    const theirs = await customerWrites(owner.token, phoneNumberId, uniqueWaId(), "do colega", "Colega");
    await expectStatus(await post(owner.token, `/api/tickets/${ownersTicket.id}/open`), 200);
    await expectStatus(await post(owner.token, `/api/tickets/${theirs.id}/transfer`, { memberId: colleague.memberId }), 200);

    const seen = await listTickets(colleague.token);
    expect(seen.results.map((t) => t.id).sort()).toEqual([pending.id, theirs.id].sort());
    expect(seen.total).toBe(2);
    expect((await listTickets(colleague.token, "status=open")).results.map((t) => t.id)).toEqual([theirs.id]);
    expect((await listTickets(colleague.token, "type=mine")).results.map((t) => t.id)).toEqual([theirs.id]);

    // The owner's open ticket answers 404 to the colleague on every call.
    for (const [method, path, body] of [
      ["GET", `/api/tickets/${ownersTicket.id}`, undefined],
      ["GET", `/api/tickets/${ownersTicket.id}/messages`, undefined],
      ["POST", `/api/tickets/${ownersTicket.id}/open`, undefined],
      ["POST", `/api/tickets/${ownersTicket.id}/close`, undefined],
      ["POST", `/api/tickets/${ownersTicket.id}/read`, undefined],
      ["POST", `/api/tickets/${ownersTicket.id}/transfer`, { memberId: colleague.memberId }],
      ["POST", `/api/tickets/${ownersTicket.id}/messages`, { type: "text", body: "roubando" }],
    ] as const) {
      await expectError(await call(method, path, { token: colleague.token, ...(body ? { body } : {}) }), 404, "not_found");
    }
    const still = await expectStatus<TicketAnswer>(await call("GET", `/api/tickets/${ownersTicket.id}`, { token: owner.token }), 200);
    expect(still.assignedMemberId).toBe(await memberIdOf(owner));
    expect(still.status).toBe("open");

    // With see_all_tickets, every ticket of the company is visible.
    const supervisor = await member(owner, ["tickets", "see_all_tickets"]);
    expect((await listTickets(supervisor.token)).total).toBe(3);
    await expectStatus(await call("GET", `/api/tickets/${ownersTicket.id}`, { token: supervisor.token }), 200);
  });

  it("without the tickets permission the chat centre answers 403; without a session 401", async () => {
    const owner = await register();
    const outsider = await member(owner, ["contacts"]);
    const { phoneNumberId } = await cloudConnection(owner.token);
    const ticket = await customerWrites(owner.token, phoneNumberId, uniqueWaId(), "Oi");
    await expectError(await call("GET", "/api/tickets", { token: outsider.token }), 403, "forbidden");
    await expectError(await call("GET", `/api/tickets/${ticket.id}`, { token: outsider.token }), 403, "forbidden");
    await expectError(await post(outsider.token, `/api/tickets/${ticket.id}/messages`, { type: "text", body: "x" }), 403, "forbidden");
    await expectError(await call("GET", "/api/tickets"), 401, "unauthorized");
    await expectError(await call("GET", `/api/tickets/${ticket.id}/messages`), 401, "unauthorized");
  });
});

describe("tenancy", () => {
  it("another company's ticket answers 404 on GET, messages, open, close, transfer, send and read, and stays untouched", async () => {
    const a = await register();
    const b = await register();
    const bMemberId = await memberIdOf(b);
    const { phoneNumberId } = await cloudConnection(a.token, { farewellMessage: "Tchau" });
    const ticket = await customerWrites(a.token, phoneNumberId, uniqueWaId(), "Segredo da empresa A");
    for (const [method, path, body] of [
      ["GET", `/api/tickets/${ticket.id}`, undefined],
      ["GET", `/api/tickets/${ticket.id}/messages`, undefined],
      ["POST", `/api/tickets/${ticket.id}/open`, undefined],
      ["POST", `/api/tickets/${ticket.id}/close`, undefined],
      ["POST", `/api/tickets/${ticket.id}/read`, undefined],
      ["POST", `/api/tickets/${ticket.id}/transfer`, { memberId: bMemberId }],
      ["POST", `/api/tickets/${ticket.id}/messages`, { type: "text", body: "olá de B" }],
    ] as const) {
      const res = await call(method, path, { token: b.token, ...(body ? { body } : {}) });
      const err = await expectError(res, 404, "not_found");
      expect(JSON.stringify(err)).not.toContain("Segredo");
    }
    const form = new FormData();
    form.append("file", new File(["x"], "x.txt", { type: "text/plain" }));
    await expectError(await call("POST", `/api/tickets/${ticket.id}/messages`, { token: b.token, form }), 404, "not_found");

    expect((await listTickets(b.token)).total).toBe(0);
    expect((await listTickets(b.token, "search=Maria")).total).toBe(0);
    const untouched = await expectStatus<TicketAnswer>(await call("GET", `/api/tickets/${ticket.id}`, { token: a.token }), 200);
    expect(untouched).toMatchObject({ status: "pending", assignedMemberId: null, unreadCount: 1 });
    expect((await ticketMessages(a.token, ticket.id)).results).toHaveLength(1);
    expect(await sentThroughControl(a.token, ticket.id, phoneNumberId)).toEqual(["controle"]);
  });

  it("a customer writing to two companies gets one contact and one ticket in each, invisible to the other", async () => {
    const a = await register();
    const b = await register();
    const ca = await cloudConnection(a.token);
    const cb = await cloudConnection(b.token);
    const from = uniqueWaId();
    const ta = await customerWrites(a.token, ca.phoneNumberId, from, "para A");
    const tb = await customerWrites(b.token, cb.phoneNumberId, from, "para B");
    expect(ta.contact.id).not.toBe(tb.contact.id);
    expect((await listTickets(a.token)).results.map((t) => t.id)).toEqual([ta.id]);
    expect((await listTickets(b.token)).results.map((t) => t.id)).toEqual([tb.id]);
  });
});

describe("ticket list filters", () => {
  /** Three conversations: pending (unread), open and assigned to the owner, and closed. */
  async function threeTickets() {
    const owner = await register();
    const { phoneNumberId } = await cloudConnection(owner.token);
    const pending = await customerWrites(owner.token, phoneNumberId, uniqueWaId(), "quero pão", "Maria Silva", 1_700_000_001);
    const open = await customerWrites(owner.token, phoneNumberId, "5511977771234", "quero bolo", "João Souza", 1_700_000_002);
    const closed = await customerWrites(owner.token, phoneNumberId, uniqueWaId(), "quero café", "Carla 100%", 1_700_000_003);
    await expectStatus(await post(owner.token, `/api/tickets/${open.id}/open`), 200);
    await expectStatus(await post(owner.token, `/api/tickets/${open.id}/read`), 200);
    await expectStatus(await post(owner.token, `/api/tickets/${closed.id}/close`), 200);
    return { owner, pending, open, closed };
  }

  const ids = (list: { results: TicketAnswer[] }) => list.results.map((t) => t.id);

  it("status=all|open|pending|closed filters by ticket status, newest activity first", async () => {
    const { owner, pending, open, closed } = await threeTickets();
    expect(ids(await listTickets(owner.token))).toEqual([closed.id, open.id, pending.id]);
    expect(ids(await listTickets(owner.token, "status=all"))).toEqual([closed.id, open.id, pending.id]);
    expect(ids(await listTickets(owner.token, "status=open"))).toEqual([open.id]);
    expect(ids(await listTickets(owner.token, "status=pending"))).toEqual([pending.id]);
    expect(ids(await listTickets(owner.token, "status=closed"))).toEqual([closed.id]);
    expect((await listTickets(owner.token, "status=pending")).total).toBe(1);
  });

  it("type=all|chats|unread|mine filters by kind, unread count and assignee", async () => {
    const { owner, pending, open, closed } = await threeTickets();
    expect(ids(await listTickets(owner.token, "type=all"))).toEqual([closed.id, open.id, pending.id]);
    expect(ids(await listTickets(owner.token, "type=chats"))).toEqual([closed.id, open.id, pending.id]);
    expect(ids(await listTickets(owner.token, "type=unread"))).toEqual([closed.id, pending.id]);
    expect(ids(await listTickets(owner.token, "type=mine"))).toEqual([open.id]);
    expect(ids(await listTickets(owner.token, "type=groups"))).toEqual([]);
    expect(ids(await listTickets(owner.token, "status=pending&type=unread"))).toEqual([pending.id]);
  });

  it("search finds tickets by the contact's name or phone, and treats % and _ literally", async () => {
    const { owner, pending, open, closed } = await threeTickets();
    expect(ids(await listTickets(owner.token, "search=maria"))).toEqual([pending.id]);
    expect(ids(await listTickets(owner.token, "search=Souza"))).toEqual([open.id]);
    expect(ids(await listTickets(owner.token, "search=77771234"))).toEqual([open.id]);
    expect(ids(await listTickets(owner.token, "search=%2B5511977771234"))).toEqual([open.id]);
    expect(ids(await listTickets(owner.token, "search=100%25"))).toEqual([closed.id]);
    expect(ids(await listTickets(owner.token, "search=%25"))).toEqual([closed.id]);
    expect(ids(await listTickets(owner.token, "search=_"))).toEqual([]);
    expect((await listTickets(owner.token, "search=ninguém")).total).toBe(0);
    expect(ids(await listTickets(owner.token, "search=quero"))).toEqual([]);
  });

  it("limit and cursor page through the list without gaps or repeats", async () => {
    const { owner, pending, open, closed } = await threeTickets();
    const first = await listTickets(owner.token, "limit=2");
    expect(ids(first)).toEqual([closed.id, open.id]);
    expect(first.total).toBe(3);
    expect(first.cursor).not.toBeNull();
    const second = await listTickets(owner.token, `limit=2&cursor=${encodeURIComponent(first.cursor!)}`);
    expect(ids(second)).toEqual([pending.id]);
    expect(second.cursor).toBeNull();
  });

  it("bad query values answer 400 naming the field", async () => {
    const owner = await register();
    await expectInvalid(await call("GET", "/api/tickets?status=archived", { token: owner.token }), "status", "invalid_status");
    await expectInvalid(await call("GET", "/api/tickets?type=everything", { token: owner.token }), "type", "invalid_type");
    await expectInvalid(await call("GET", "/api/tickets?limit=0", { token: owner.token }), "limit");
    await expectInvalid(await call("GET", "/api/tickets?limit=1000", { token: owner.token }), "limit");
    await expectInvalid(await call("GET", "/api/tickets?limit=ten", { token: owner.token }), "limit");
    await expectInvalid(await call("GET", `/api/tickets?search=${"a".repeat(41)}`, { token: owner.token }), "search");
    await expectInvalid(await call("GET", "/api/tickets?cursor=%%%not-base64", { token: owner.token }), "cursor");
    await expectInvalid(await call("GET", "/api/tickets/not-a-uuid", { token: owner.token }), "id");
    await expectInvalid(await call("GET", `/api/tickets/${crypto.randomUUID()}/messages?limit=0`, { token: owner.token }), "limit");
  });

  it("a search of any 40 characters answers 200 or 400 naming search, never 500 (D1's LIKE pattern limit is 50 bytes)", async () => {
    const owner = await register();
    const { phoneNumberId } = await cloudConnection(owner.token);
    await customerWrites(owner.token, phoneNumberId, uniqueWaId(), "Oi", "Conceição");
    expect((await listTickets(owner.token, `search=${encodeURIComponent("ç".repeat(24))}`)).total).toBe(0);
    expect((await listTickets(owner.token, `search=${encodeURIComponent("%".repeat(24))}`)).total).toBe(0);
    expect((await listTickets(owner.token, `search=${encodeURIComponent("Conceição")}`)).total).toBe(1);
    for (const search of ["ç".repeat(25), "%".repeat(25), "_".repeat(40), "😀".repeat(13), "\\".repeat(30)]) {
      await expectInvalid(await call("GET", `/api/tickets?search=${encodeURIComponent(search)}`, { token: owner.token }), "search", "too_long");
    }
  });

  it("an unknown ticket id answers 404", async () => {
    const owner = await register();
    await expectError(await call("GET", `/api/tickets/${crypto.randomUUID()}`, { token: owner.token }), 404, "not_found");
    await expectError(await call("GET", `/api/tickets/${crypto.randomUUID()}/messages`, { token: owner.token }), 404, "not_found");
  });
});

describe("cursor validation", () => {
  it("a malformed cursor answers 400 naming the cursor, on the list and on messages", async () => {
    const owner = await register();
    for (const bad of ["%%%", btoa("abc|def"), btoa("12")]) {
      const list = await expectStatus<{ error: { fields: Record<string, string> } }>(
        await call("GET", `/api/tickets?cursor=${encodeURIComponent(bad)}`, { token: owner.token }),
        400,
      );
      expect(list.error.fields.cursor).toBe("invalid_cursor");
    }
  });
});

describe("one active ticket per contact and connection; transfers go to members who attend chats", () => {
  it("reopening an old closed ticket while a newer one is active answers 409; transferring to a member without `tickets` answers 400", async () => {
    const owner = await register();
    const conn = await cloudConnection(owner.token);
    const from = uniqueWaId();
    await deliverOk(textWebhook(conn.phoneNumberId, from, wamid(), "primeiro"));
    const first = await onlyTicket(owner.token);
    await expectStatus(await call("POST", `/api/tickets/${first.id}/close`, { token: owner.token }), 200);
    await deliverOk(textWebhook(conn.phoneNumberId, from, wamid(), "segundo"));
    const list = await listTickets(owner.token, "status=pending");
    expect(list.results).toHaveLength(1);
    await expectError(await call("POST", `/api/tickets/${first.id}/open`, { token: owner.token }), 409, "conflict");

    const viewerOnly = await member(owner, ["contacts"]);
    await expectInvalid(
      await call("POST", `/api/tickets/${list.results[0]!.id}/transfer`, { token: owner.token, body: { memberId: viewerOnly.memberId } }),
      "memberId",
      "no_tickets_permission",
    );
    const agent = await member(owner, ["tickets"]);
    await expectStatus(await call("POST", `/api/tickets/${list.results[0]!.id}/transfer`, { token: owner.token, body: { memberId: agent.memberId } }), 200);
  });
});
