/**
 * TicketRoom directly (issue 17 "Tests that can fail"): a member's rapid sends reach the provider
 * (the Graph API stand-in's received order) and the screen (seq order, the ticket socket's event
 * order) in the order they were stored; the realtime permission filter over a real hub socket (a
 * member without see_all_tickets never receives events of a ticket assigned to someone else, one
 * with it does). Real sockets and the real worker; the API key across companies is in
 * worker/routes/api-keys.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { MessageAnswer } from "../../schema/realtime";
import { cloudConnection, deliverOk, listTickets, onlyTicket, sentTo, textWebhook, ticketMessages, uniqueWaId, wamid } from "../test/channel-helpers";
import { call, expectStatus, member, register, until, type Account } from "../test/helpers";
import { openSocket, type Socket } from "../test/sockets";

async function openHub(token: string): Promise<Socket> {
  const socket = await openSocket("/api/ws/hub", token);
  await until(() => socket.frames.some((f) => f.type === "hello"), 3_000, "the hub's hello");
  return socket;
}

/** The text bodies the stand-in was asked to send to one number, in the order it received them. */
async function sentTexts(phoneNumberId: string): Promise<string[]> {
  return (await sentTo(phoneNumberId)).flatMap((r) => {
    const text = typeof r.body === "object" && r.body !== null ? r.body.text : null;
    return typeof text === "object" && text !== null && "body" in text ? [String(text.body)] : [];
  });
}

/** Bodies of the `message.created` frames a socket received, in order (optionally of one ticket). */
function createdBodies(socket: Socket, ticketId?: string): string[] {
  return socket.frames
    .filter((f) => f.type === "message.created" && (!ticketId || f.message?.ticketId === ticketId))
    .map((f) => f.message?.body ?? "");
}

/** A company with a Cloud API connection and one ticket a customer opened, taken (open) by the owner. */
async function openTicket(owner: Account) {
  const { phoneNumberId } = await cloudConnection(owner.token);
  const from = uniqueWaId();
  const writes = (body: string) => deliverOk(textWebhook(phoneNumberId, from, wamid(), body, Math.floor(Date.now() / 1000)));
  await writes("Oi, quero fazer um pedido");
  const ticket = await onlyTicket(owner.token);
  await expectStatus(await call("POST", `/api/tickets/${ticket.id}/open`, { token: owner.token }), 200);
  return { phoneNumberId, ticketId: ticket.id, writes, newCustomerWrites: (body: string) => deliverOk(textWebhook(phoneNumberId, uniqueWaId(), wamid(), body)) };
}

function send(token: string, ticketId: string, body: string): Promise<Response> {
  return call("POST", `/api/tickets/${ticketId}/messages`, { token, body: { type: "text", body } });
}

/**
 * Waits until the provider has `count` texts and the room socket shows every one of `ids` as sent
 * (its latest frame for the message); answers the provider's order.
 */
async function settle(phoneNumberId: string, room: Socket, ids: string[]): Promise<string[]> {
  const latest = (id: string) => room.frames.filter((f) => f.message?.id === id).at(-1)?.message?.status;
  await until(async () => (await sentTexts(phoneNumberId)).length >= ids.length, 10_000, `${ids.length} sends at the provider`);
  await until(() => ids.every((id) => latest(id) === "sent"), 5_000, "every message shown as sent on the ticket socket");
  return sentTexts(phoneNumberId);
}

describe("a member's rapid sends keep their order", () => {
  it("one after another (each answered before the next): provider, seq, ticket page and socket all in the order sent", async () => {
    const owner = await register();
    const t = await openTicket(owner);
    const room = await openSocket(`/api/ws/tickets/${t.ticketId}`, owner.token);
    const bodies = Array.from({ length: 8 }, (_, i) => `mensagem ${i + 1}`);
    const answers: MessageAnswer[] = [];
    // Each answer comes once the message is stored, before its send: the sends overlap.
    for (const body of bodies) answers.push(await expectStatus<MessageAnswer>(await send(owner.token, t.ticketId, body), 201));

    const seqs = answers.map((m) => m.seq);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(await settle(t.phoneNumberId, room, answers.map((m) => m.id))).toEqual(bodies);
    expect(createdBodies(room)).toEqual(bodies);
    const page = await ticketMessages(owner.token, t.ticketId);
    expect(page.results.filter((m) => m.direction === "out").map((m) => [m.body, m.status])).toEqual(bodies.map((b) => [b, "sent"]));
    room.ws.close(1000, "done");
  });

  it("all at once: the provider receives them in the order they were stored (seq), and the socket shows that same order", async () => {
    const owner = await register();
    const t = await openTicket(owner);
    const room = await openSocket(`/api/ws/tickets/${t.ticketId}`, owner.token);
    const bodies = Array.from({ length: 8 }, (_, i) => `rajada ${i + 1}`);
    const answers = await Promise.all(bodies.map(async (body) => expectStatus<MessageAnswer>(await send(owner.token, t.ticketId, body), 201)));

    const stored = [...answers].sort((a, b) => a.seq - b.seq);
    expect(new Set(stored.map((m) => m.seq)).size).toBe(bodies.length);
    const inSeqOrder = stored.map((m) => m.body);
    expect(await settle(t.phoneNumberId, room, stored.map((m) => m.id))).toEqual(inSeqOrder);
    expect(createdBodies(room)).toEqual(inSeqOrder);
    const frameSeqs = room.frames.filter((f) => f.type === "message.created").map((f) => f.message?.seq ?? 0);
    expect(frameSeqs).toEqual(stored.map((m) => m.seq));
    const page = await ticketMessages(owner.token, t.ticketId);
    expect(page.results.filter((m) => m.direction === "out").map((m) => m.body)).toEqual(inSeqOrder);
    room.ws.close(1000, "done");
  });
});

describe("a send's outcome on the hub (issue 16: the settle publishes the status, not the list entry again)", () => {
  it("the hub gets message.updated (sent) of a member's message, once, after its message.created and list entry; a member who may not see the ticket gets neither", async () => {
    const owner = await register();
    const narrow = await member(owner, ["tickets"]);
    const t = await openTicket(owner); // open, assigned to the owner
    const hub = await openHub(owner.token);
    const narrowHub = await openHub(narrow.token);
    const answer = await expectStatus<MessageAnswer>(await send(owner.token, t.ticketId, "já separei o seu pedido"), 201);
    const ofMessage = () => hub.frames.filter((f) => f.message?.id === answer.id);
    await until(() => ofMessage().some((f) => f.type === "message.updated" && f.message?.status === "sent"), 10_000, "the sent status on the hub");
    const updated = ofMessage().filter((f) => f.type === "message.updated");
    expect(updated).toHaveLength(1);
    expect(updated[0]).toMatchObject({ ticketId: t.ticketId, message: { id: answer.id, status: "sent", body: "já separei o seu pedido" } });
    // The list entry came with the message's creation (its preview); the status adds none.
    const created = hub.frames.findIndex((f) => f.type === "message.created" && f.message?.id === answer.id);
    const entries = hub.frames.flatMap((f, i) => (f.type === "ticket.updated" && f.ticket?.id === t.ticketId && i > created ? [f.ticket!] : []));
    expect(created).toBeGreaterThanOrEqual(0);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.lastMessagePreview).toBe("já separei o seu pedido");
    // The positive control for the narrow member: a new pending ticket after it reaches them.
    await t.newCustomerWrites("outra conversa");
    await until(() => createdBodies(narrowHub).includes("outra conversa"), 5_000, "the pending ticket's event at the narrow member");
    expect(narrowHub.frames.filter((f) => f.ticketId === t.ticketId || f.ticket?.id === t.ticketId || f.message?.ticketId === t.ticketId)).toEqual([]);
    hub.ws.close(1000, "done");
    narrowHub.ws.close(1000, "done");
  });
});

describe("the realtime permission filter, over real hub sockets (spec §6 see_all_tickets)", () => {
  it("the list entry published with a message is the chat list's own entry for the ticket: its contact, connection and assignee", async () => {
    const owner = await register();
    const { ticketId, writes } = await openTicket(owner);
    const hub = await openHub(owner.token);
    await writes("Mais uma coisa");
    const entryOf = () => hub.frames.find((f) => f.type === "ticket.updated" && f.ticket?.id === ticketId && f.ticket.lastMessagePreview === "Mais uma coisa")?.ticket;
    await until(() => entryOf() !== undefined, 3_000, "the message's list entry");
    hub.ws.close(1000, "done");
    const listed = (await listTickets(owner.token)).results.find((t) => t.id === ticketId);
    expect(entryOf()).toEqual(listed);
    // The owner took the ticket (`openTicket`): the entry names them.
    expect(entryOf()).toMatchObject({ status: "open", assignedMemberName: expect.any(String), connection: { name: expect.any(String) } });
    expect(entryOf()?.assignedMemberName).not.toBe("");
  });

  it("a member without see_all_tickets receives nothing of a ticket assigned to someone else; one with it does; after a transfer to them, they do", async () => {
    const owner = await register();
    const narrow = await member(owner, ["tickets"]);
    const wide = await member(owner, ["tickets", "see_all_tickets"]);
    const t = await openTicket(owner); // open, assigned to the owner
    const narrowHub = await openHub(narrow.token);
    const wideHub = await openHub(wide.token);

    await t.writes("só para quem vê tudo");
    await until(() => createdBodies(wideHub, t.ticketId).includes("só para quem vê tudo"), 5_000, "the event at the member with see_all_tickets");
    // The positive control: a new pending ticket (visible to both) published after it.
    await t.newCustomerWrites("nova conversa");
    await until(() => createdBodies(narrowHub).includes("nova conversa"), 5_000, "the pending ticket's event at the narrow member");
    expect(createdBodies(narrowHub)).toEqual(["nova conversa"]);
    expect(narrowHub.frames.filter((f) => f.ticketId === t.ticketId || f.ticket?.id === t.ticketId || f.message?.ticketId === t.ticketId)).toEqual([]);
    expect(createdBodies(wideHub)).toEqual(["só para quem vê tudo", "nova conversa"]);

    // Handed to the narrow member, the ticket's events now reach them.
    await expectStatus(await call("POST", `/api/tickets/${t.ticketId}/transfer`, { token: owner.token, body: { memberId: narrow.memberId } }), 200);
    await t.writes("agora é com você");
    await until(() => createdBodies(narrowHub, t.ticketId).includes("agora é com você"), 5_000, "the transferred ticket's event at the narrow member");
    expect(narrowHub.frames.some((f) => f.type === "ticket.updated" && f.ticket?.id === t.ticketId && f.ticket.assignedMemberId === narrow.memberId)).toBe(true);
    narrowHub.ws.close(1000, "done");
    wideHub.ws.close(1000, "done");
  });
});
