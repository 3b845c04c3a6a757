/**
 * A customer's message routed on the ContactSession's routing snapshot is stored by the session
 * itself, without the ticket's room (issue 16, contact-session.ts `storeRouted`): D1 gives it the
 * seq after the ticket's highest in the insert, the session publishes it to the company's hub, and
 * the hub hands it to the room only while a member has the ticket open (`CompanyHub.publishMessage`,
 * `TicketRoom.relay`). The room's own appends count on past those seqs in their insert
 * (`SEQ_GIVEN_OR_NEXT`), and `messages_ticket_seq_uq` keeps every seq of a ticket one message's.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { MessageAnswer } from "../../schema/realtime";
import type { MessageRow } from "../../schema";
import { TicketRoom, insertMessage } from "../durable-objects/ticket-room";
import { getDb } from "../lib/db";
import { newId } from "../lib/ids";
import { hubOf } from "../lib/realtime";
import { cloudConnection, deliverOk, onlyTicket, textWebhook, uniqueWaId, until, wamid } from "../test/channel-helpers";
import { activeCompanyId, call, expectStatus, register } from "../test/helpers";
import { openSocket } from "../test/sockets";

/** Seq and body of every message of `ticketId`, in seq order (read past the API). */
async function seqsOf(ticketId: string): Promise<[number, string][]> {
  const rows = await env.DB.prepare("SELECT seq, body FROM messages WHERE ticket_id = ? ORDER BY seq").bind(ticketId).all<{ seq: number; body: string }>();
  return rows.results.map((r) => [r.seq, r.body]);
}

/**
 * Counts the calls of the TicketRoom methods named while `run` runs (every instance: the objects
 * share this isolate's class), and answers the counts.
 */
async function countRoomCalls(names: readonly ("append" | "publishStored" | "relay")[], run: () => Promise<void>): Promise<Record<string, number>> {
  const proto = TicketRoom.prototype as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const originals = new Map(names.map((name) => [name, proto[name]!] as const));
  const counts: Record<string, number> = Object.fromEntries(names.map((name) => [name, 0]));
  for (const [name, original] of originals) {
    proto[name] = function (this: TicketRoom, ...args: unknown[]) {
      counts[name]! += 1;
      return original.apply(this, args);
    };
  }
  try {
    await run();
  } finally {
    for (const [name, original] of originals) proto[name] = original;
  }
  return counts;
}

/** A company with a Cloud API connection and a customer whose first message opened a ticket. */
async function conversation() {
  const owner = await register();
  const { phoneNumberId } = await cloudConnection(owner.token);
  const from = uniqueWaId();
  const writes = (body: string) => deliverOk(textWebhook(phoneNumberId, from, wamid(), body, Math.floor(Date.now() / 1000)));
  await writes("oi");
  const ticket = await onlyTicket(owner.token);
  return { owner, from, writes, ticketId: ticket.id, companyId: await activeCompanyId(owner.token) };
}

describe("a customer's message stored by its session (issue 16)", () => {
  it("goes to D1 and to the hub without the ticket's room: the next seqs, message.created then ticket.updated on the hub", async () => {
    const { owner, writes, ticketId } = await conversation();
    const hub = await openSocket("/api/ws/hub", owner.token);
    await until(async () => hub.frames, (f) => f.some((x) => x.type === "hello"), "the hub's hello");
    const counts = await countRoomCalls(["append", "publishStored", "relay"], async () => {
      for (const body of ["tudo bem?", "quero saber do pedido", "obrigado"]) expect((await writes(body)).stored).toBe(1);
    });
    expect(counts).toEqual({ append: 0, publishStored: 0, relay: 0 });
    expect(await seqsOf(ticketId)).toEqual([
      [1, "oi"],
      [2, "tudo bem?"],
      [3, "quero saber do pedido"],
      [4, "obrigado"],
    ]);
    const ofTicket = () => hub.frames.filter((f) => f.ticketId === ticketId || f.message?.ticketId === ticketId || f.ticket?.id === ticketId);
    // The first one ("oi") was published before the socket opened.
    await until(async () => ofTicket().filter((f) => f.type === "message.created").length, (n) => n === 3, "three message.created on the hub");
    const after = ofTicket().slice(-6);
    expect(after.map((f) => f.type)).toEqual(["message.created", "ticket.updated", "message.created", "ticket.updated", "message.created", "ticket.updated"]);
    expect(after.filter((f) => f.type === "message.created").map((f) => [f.message?.seq, f.message?.body])).toEqual([
      [2, "tudo bem?"],
      [3, "quero saber do pedido"],
      [4, "obrigado"],
    ]);
    // The list entry published with the last one shows it.
    const entry = after.at(-1)?.ticket;
    expect(entry?.lastMessagePreview).toBe("obrigado");
    expect(entry?.unreadCount).toBe(4);
    hub.ws.close();
  });

  it("reaches a member who has the ticket open through the hub (relayed to the room), and no longer once they closed it", async () => {
    const { owner, writes, ticketId, companyId } = await conversation();
    await writes("primeira");
    const room = await openSocket(`/api/ws/tickets/${ticketId}`, owner.token);
    const viewing = await countRoomCalls(["relay"], async () => {
      expect((await writes("está aberto?")).stored).toBe(1);
      await until(async () => room.frames, (f) => f.some((x) => x.type === "message.created" && x.message?.body === "está aberto?"), "the message on the room's socket");
    });
    expect(viewing).toEqual({ relay: 1 });
    const frame = room.frames.find((x) => x.type === "message.created" && x.message?.body === "está aberto?");
    expect(frame?.message?.seq).toBe(3);
    room.ws.close(1000, "bye");
    // The room tells the hub its last socket closed (`untrackRoom`).
    const viewers = () => runInDurableObject(hubOf(env, companyId), async (_instance, ctx) => ctx.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM room_viewers WHERE ticket_id = ?", ticketId).one().n);
    await until(viewers, (n) => n === 0, "the room's viewer untracked");
    const closed = await countRoomCalls(["relay"], async () => {
      expect((await writes("e agora?")).stored).toBe(1);
      // The hub has published it (the session's publish is in the background).
      await until(
        () => runInDurableObject(hubOf(env, companyId), async (_instance, ctx) => ctx.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM events WHERE body LIKE '%e agora?%'").one().n),
        (n) => n > 0,
        "the hub's event",
      );
    });
    expect(closed).toEqual({ relay: 0 });
    expect((await seqsOf(ticketId)).map(([seq]) => seq)).toEqual([1, 2, 3, 4]);
  });

  it("members' sends and the customer's messages, one after another (in order) and at once, keep one seq each, without gaps", async () => {
    const { owner, writes, ticketId } = await conversation();
    const send = async (body: string) =>
      (await expectStatus<MessageAnswer>(await call("POST", `/api/tickets/${ticketId}/messages`, { token: owner.token, body: { type: "text", body } }), 201)).seq;
    expect(await send("A")).toBe(2);
    await writes("b");
    await writes("c");
    // The room counted seq 2 last; D1 moves its next one past the session's 3 and 4.
    expect(await send("D")).toBe(5);
    await writes("e");
    expect(await seqsOf(ticketId)).toEqual([
      [1, "oi"],
      [2, "A"],
      [3, "b"],
      [4, "c"],
      [5, "D"],
      [6, "e"],
    ]);
    await Promise.all([send("F"), writes("g"), send("H"), writes("i"), send("J"), writes("k")]);
    const all = await seqsOf(ticketId);
    expect(all.map(([seq]) => seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    // Sent at once, they reach the room and the session in no set order: each has one seq after 6.
    expect(all.slice(6).map(([, body]) => body).sort()).toEqual(["F", "H", "J", "g", "i", "k"]);
  });

  it("every list entry carries the ticket's version: one up per message and per other change, the highest entry D1's own", async () => {
    const { owner, writes, ticketId } = await conversation();
    const hub = await openSocket("/api/ws/hub", owner.token);
    await until(async () => hub.frames, (f) => f.some((x) => x.type === "hello"), "the hub's hello");
    const version = async () => (await env.DB.prepare("SELECT version FROM tickets WHERE id = ?").bind(ticketId).first<{ version: number }>())!.version;
    const start = await version();
    // A message's batch moves it by one (its update sets it; the trigger adds nothing).
    await writes("um");
    expect(await version()).toBe(start + 1);
    // Any other UPDATE moves it through the trigger (migration 0012), once.
    await env.DB.prepare("UPDATE tickets SET unread_count = 0 WHERE id = ?").bind(ticketId).run();
    expect(await version()).toBe(start + 2);
    // The session's and the room's entries, written at once, reach the hub in no set order.
    const send = (body: string) => call("POST", `/api/tickets/${ticketId}/messages`, { token: owner.token, body: { type: "text", body } });
    await Promise.all([writes("a"), send("B"), writes("c"), send("D"), writes("e")]);
    const final = (await env.DB.prepare("SELECT version, last_message_preview AS preview, unread_count AS unread FROM tickets WHERE id = ?").bind(ticketId).first<{ version: number; preview: string; unread: number }>())!;
    const entries = () => hub.frames.filter((f) => f.type === "ticket.updated" && f.ticket?.id === ticketId).map((f) => f.ticket!);
    await until(async () => entries().map((t) => t.version), (v) => v.includes(final.version), "the entry of D1's version on the hub");
    const versions = entries().map((t) => t.version);
    // No two entries of different states share a version, and the newest is what D1 holds.
    for (const a of entries()) for (const b of entries()) if (a.version === b.version) expect([a.lastMessagePreview, a.unreadCount]).toEqual([b.lastMessagePreview, b.unreadCount]);
    const newest = entries().find((t) => t.version === Math.max(...versions))!;
    expect([newest.version, newest.lastMessagePreview, newest.unreadCount]).toEqual([final.version, final.preview, final.unread]);
    hub.ws.close();
  });

  it("a second message at a seq its ticket holds is refused by the index, whoever writes it", async () => {
    const { ticketId } = await conversation();
    const first = (await getDb(env.DB).query.messages.findFirst({ where: (m, { eq }) => eq(m.ticketId, ticketId) }))!;
    const at = Date.now();
    const copy: MessageRow = { ...first, id: newId(), externalId: null, idempotencyKey: null, body: "cópia", createdAt: at, updatedAt: at };
    expect((await insertMessage(getDb(env.DB), copy, { at })).inserted).toBe(false);
    await expect(env.DB.prepare("INSERT INTO messages (id, company_id, ticket_id, contact_id, connection_id, direction, type, body, status, sent_at, seq, created_at, updated_at) SELECT ?, company_id, ticket_id, contact_id, connection_id, direction, type, 'cópia', status, sent_at, seq, created_at, updated_at FROM messages WHERE id = ?").bind(newId(), first.id).run()).rejects.toThrow(/UNIQUE/);
    // With `seq: "next"` the same row is stored after the highest.
    const next = await insertMessage(getDb(env.DB), { ...copy, id: newId() }, { seq: "next", at });
    expect(next).toMatchObject({ inserted: true, seq: 2 });
    expect(await seqsOf(ticketId)).toEqual([
      [1, "oi"],
      [2, "cópia"],
    ]);
  });
});
