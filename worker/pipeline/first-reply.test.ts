/**
 * A new contact's first reply, stored and sent by its ContactSession without the ticket's room
 * (worker/pipeline/first-reply.ts, issue 16), keeps every guarantee of the room's own sends: a
 * failure is handed to the room with what it left and retried there (transient: once more, in
 * order; permanent: failed with the provider's reason; ours: not counted against the provider's
 * attempts), an attempt cut off by a restart is held in doubt and confirmed by the provider's
 * report, never sent twice, a record left with no stored message sends nothing, and a seq another
 * writer took is never given twice (the guarded insert). Inside workerd against real D1, Durable
 * Objects and the Graph API stand-in.
 */
import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { MessageRow } from "../../schema";
import type { MessageAnswer } from "../../schema/realtime";
import { getDb } from "../lib/db";
import { newId } from "../lib/ids";
import { contactSessionOf, roomOf } from "../lib/realtime";
import { SEND_LEASE_MS, TicketRoom, insertMessage, type AdoptedSend } from "../durable-objects/ticket-room";
import type { FirstReplyStore, FirstSendRecord } from "./first-reply";
import { activeCompanyId, call, expectStatus, register } from "../test/helpers";
import { cloudConnection, deliverOk, envelope, onlyTicket, textWebhook, ticketMessages, uniqueWaId, waStatus, wamid } from "../test/channel-helpers";
import { flowDoc, publishedFlow, setDefaultFlow } from "../test/flow-helpers";
import { failSends, pendingOutbound, sendsTo, textOf, waitFor } from "../test/standin-sends";

/** A company whose Cloud API connection answers a new contact with "Olá" (its default flow). */
async function botSetup() {
  const owner = await register();
  const connection = await cloudConnection(owner.token);
  const { flow } = await publishedFlow(owner.token, flowDoc([{ id: "hi", type: "text", data: { message: "Olá" } }], [["start", "next", "hi"]]));
  await setDefaultFlow(owner.token, connection.id, flow.id);
  const companyId = await activeCompanyId(owner.token);
  const waId = uniqueWaId();
  return { owner, companyId, phoneNumberId: connection.phoneNumberId, waId, session: contactSessionOf(env, companyId, "whatsapp-cloud", waId) };
}

/** The bot's reply in the company's only ticket once `check` holds for it. */
async function replyOnce(token: string, check: (m: MessageAnswer) => boolean, what: string): Promise<{ ticketId: string; reply: MessageAnswer }> {
  const ticketId = (await onlyTicket(token)).id;
  const outbound = async () => (await ticketMessages(token, ticketId)).results.find((m) => m.direction === "out");
  const reply = await waitFor(outbound, (m) => m !== undefined && check(m), what);
  return { ticketId, reply: reply! };
}

/** The sends queued in a ticket's room (none once settled). */
async function roomSends(ticketId: string): Promise<{ message_id: string; attempts: number; doubt_until: number | null; external_id: string | null }[]> {
  return runInDurableObject(roomOf(env, ticketId), (_instance, ctx) =>
    ctx.storage.sql.exec<{ message_id: string; attempts: number; doubt_until: number | null; external_id: string | null }>("SELECT message_id, attempts, doubt_until, external_id FROM sends").toArray(),
  );
}

/** The sends handed to a room (`TicketRoom.adoptSend`) while `body` runs, with what their attempt left. */
async function watchingHandovers<T>(body: () => Promise<T>): Promise<{ result: T; handed: AdoptedSend[] }> {
  const handed: AdoptedSend[] = [];
  const adoptSend = TicketRoom.prototype.adoptSend;
  TicketRoom.prototype.adoptSend = function (this: TicketRoom, send: AdoptedSend) {
    handed.push(send);
    return adoptSend.call(this, send);
  };
  try {
    return { result: await body(), handed };
  } finally {
    TicketRoom.prototype.adoptSend = adoptSend;
  }
}

/** Runs the room's alarm until its queue is empty (each retry's backoff made due first). */
async function drainRoom(ticketId: string): Promise<void> {
  const room = roomOf(env, ticketId);
  for (let i = 0; i < 20; i++) {
    const left = await runInDurableObject(room, (_instance, ctx) => {
      ctx.storage.sql.exec("UPDATE sends SET next_at = 0");
      return ctx.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM sends").one().n;
    });
    if (left === 0) return;
    await runDurableObjectAlarm(room);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the room's queue never emptied");
}

describe("a new contact's first reply, sent by its ContactSession", () => {
  it("goes out once, sent, at the seq after the customer's message, and leaves no record in the session", { timeout: 30_000 }, async () => {
    const { owner, phoneNumberId, waId, session } = await botSetup();
    await deliverOk(textWebhook(phoneNumberId, waId, wamid(), "oi"));
    const { ticketId, reply } = await replyOnce(owner.token, (m) => m.status === "sent", "the reply to be sent");
    expect(reply.body).toBe("Olá");
    const seqs = await env.DB.prepare("SELECT seq, direction FROM messages WHERE ticket_id = ? ORDER BY seq").bind(ticketId).all<{ seq: number; direction: string }>();
    expect(seqs.results).toEqual([
      { seq: 1, direction: "in" },
      { seq: 2, direction: "out" },
    ]);
    expect((await sendsTo(phoneNumberId)).map((r) => [textOf(r), r.status ?? 200, r.body?.biz_opaque_callback_data])).toEqual([["Olá", 200, reply.id]]);
    const left = await runInDurableObject(session, (_instance, ctx) => ctx.storage.sql.exec("SELECT v FROM meta WHERE k = 'first_send'").toArray());
    expect(left).toEqual([]);
    // Positive control: a member's message later continues the ticket's seqs through the room.
    const later = await expectStatus<MessageAnswer>(await call("POST", `/api/tickets/${ticketId}/messages`, { token: owner.token, body: { type: "text", body: "Posso ajudar?" } }), 201);
    const laterSeq = await env.DB.prepare("SELECT seq FROM messages WHERE id = ?").bind(later.id).first<{ seq: number }>();
    expect(laterSeq?.seq).toBe(3);
  });

  it("a transient 500 is handed to the room and retried there: pending, then sent, one send accepted", { timeout: 30_000 }, async () => {
    const { owner, phoneNumberId, waId } = await botSetup();
    await failSends(phoneNumberId, 1, 500, 131000, "Something went wrong");
    const { result, handed } = await watchingHandovers(async () => {
      await deliverOk(textWebhook(phoneNumberId, waId, wamid(), "oi"));
      return replyOnce(owner.token, (m) => m.status === "sent", "the reply sent after the room's retry");
    });
    // Handed over once, with the provider's answer to the first attempt (counted there as the provider's).
    expect(handed.map((h) => [h.messageId, h.outcome])).toEqual([[result.reply.id, { kind: "failed", errorCode: "131000", errorMessage: expect.any(String), retryable: true }]]);
    expect(await roomSends(result.ticketId)).toEqual([]);
    expect((await sendsTo(phoneNumberId)).map((r) => [textOf(r), r.status ?? 200])).toEqual([
      ["Olá", 500],
      ["Olá", 200],
    ]);
  });

  it("a permanent 131026 fails it at once with the provider's reason, tried once", { timeout: 30_000 }, async () => {
    const { owner, phoneNumberId, waId } = await botSetup();
    await failSends(phoneNumberId, 1, 400, 131026, "Message undeliverable");
    const { result, handed } = await watchingHandovers(async () => {
      await deliverOk(textWebhook(phoneNumberId, waId, wamid(), "oi"));
      return replyOnce(owner.token, (m) => m.status === "failed", "the reply to fail");
    });
    expect(result.reply.error).toEqual({ code: "131026", message: "Message undeliverable", details: null });
    expect(handed.map((h) => h.outcome)).toEqual([{ kind: "failed", errorCode: "131026", errorMessage: "Message undeliverable", retryable: false }]);
    expect(await roomSends(result.ticketId)).toEqual([]);
    expect((await sendsTo(phoneNumberId)).map((r) => [textOf(r), r.status ?? 200])).toEqual([["Olá", 400]]);
  });

  it("a failure of ours (the session's armed send fault) is handed to the room, retried without counting against the provider: one send, accepted", { timeout: 30_000 }, async () => {
    const { owner, phoneNumberId, waId, session } = await botSetup();
    expect(await session.armFaults("send", 1)).toBe(true);
    const { result, handed } = await watchingHandovers(async () => {
      await deliverOk(textWebhook(phoneNumberId, waId, wamid(), "oi"));
      return replyOnce(owner.token, (m) => m.status === "sent", "the reply sent after the room's retry");
    });
    expect(handed.map((h) => [h.messageId, h.outcome.kind, "errorCode" in h.outcome ? h.outcome.errorCode : null])).toEqual([[result.reply.id, "failed", "fault_injected"]]);
    // The injected failure never reached the provider.
    expect((await sendsTo(phoneNumberId)).map((r) => [textOf(r), r.status ?? 200])).toEqual([["Olá", 200]]);
  });
});

describe("a first reply left in the session by an instance that died", () => {
  /** Leaves `record` in the session's storage with its lease alarm, as the instance that died left them. */
  async function leftInHand(session: ReturnType<typeof contactSessionOf>, record: FirstSendRecord): Promise<void> {
    await runInDurableObject(session, async (instance) => {
      const store = (instance as unknown as { firstReplies: FirstReplyStore }).firstReplies;
      store.write(record);
      await store.leaseAlarm(Date.now() + SEND_LEASE_MS);
    });
  }

  /**
   * A first reply as an instance that died while its attempt was in flight leaves it: the message
   * stored (pending) at seq 2 of the contact's ticket and the session's record marked in flight.
   */
  async function cutOff() {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    const companyId = await activeCompanyId(owner.token);
    const waId = uniqueWaId();
    await deliverOk(textWebhook(connection.phoneNumberId, waId, wamid(), "oi"));
    const ticket = await onlyTicket(owner.token);
    const session = contactSessionOf(env, companyId, "whatsapp-cloud", waId);
    const row = pendingOutbound({ id: ticket.id, companyId, contactId: ticket.contact.id, connectionId: connection.id }, "Cortada", 2, `flow:test:${newId()}`);
    const { id, createdAt: at } = row;
    expect((await insertMessage(getDb(env.DB), row, { guardSeq: true, at })).inserted).toBe(true);
    const record: FirstSendRecord = {
      key: row.idempotencyKey!,
      messageId: id,
      companyId,
      ticketId: ticket.id,
      connectionId: connection.id,
      outbound: { type: "text", body: "Cortada" },
      recipient: { externalId: waId, phone: null },
      inFlightAt: Date.now(),
      externalId: null,
    };
    // With the lease alarm it set before the request left.
    await leftInHand(session, record);
    return { owner, phoneNumberId: connection.phoneNumberId, ticketId: ticket.id, session, id };
  }

  it("is handed to the room in doubt by the session's alarm and confirmed by the provider's report that names it: never sent again", { timeout: 40_000 }, async () => {
    const { owner, phoneNumberId, ticketId, session, id } = await cutOff();
    expect(await runDurableObjectAlarm(session)).toBe(true);
    const held = await roomSends(ticketId);
    expect(held).toHaveLength(1);
    expect(held[0]?.message_id).toBe(id);
    expect(held[0]?.doubt_until).toBeGreaterThan(Date.now());
    const left = await runInDurableObject(session, (_instance, ctx) => ctx.storage.sql.exec("SELECT v FROM meta WHERE k = 'first_send'").toArray());
    expect(left).toEqual([]);
    // Meta's `sent` report of the attempt that was in flight, carrying our message id.
    const reported = wamid();
    await deliverOk(envelope(phoneNumberId, { statuses: [{ ...waStatus(reported, "sent"), biz_opaque_callback_data: id }] }));
    await runDurableObjectAlarm(roomOf(env, ticketId));
    const message = await waitFor(async () => (await ticketMessages(owner.token, ticketId)).results.find((m) => m.id === id), (m) => m?.status === "sent", "the reply confirmed as sent");
    expect(message?.status).toBe("sent");
    const row = await env.DB.prepare("SELECT external_id FROM messages WHERE id = ?").bind(id).first<{ external_id: string }>();
    expect(row?.external_id).toBe(reported);
    expect(await roomSends(ticketId)).toEqual([]);
    expect((await sendsTo(phoneNumberId)).map(textOf)).toEqual([]);
  });

  it("without a report in time it is sent again by the room, once", { timeout: 40_000 }, async () => {
    const { owner, phoneNumberId, ticketId, session, id } = await cutOff();
    expect(await runDurableObjectAlarm(session)).toBe(true);
    await runInDurableObject(roomOf(env, ticketId), (_instance, ctx) => void ctx.storage.sql.exec("UPDATE sends SET doubt_until = 1"));
    await runDurableObjectAlarm(roomOf(env, ticketId));
    await waitFor(async () => (await ticketMessages(owner.token, ticketId)).results.find((m) => m.id === id), (m) => m?.status === "sent", "the reply sent again");
    expect((await sendsTo(phoneNumberId)).map(textOf)).toEqual(["Cortada"]);
  });

  it("a record whose message D1 never stored is dropped: nothing is sent", { timeout: 30_000 }, async () => {
    const { phoneNumberId, ticketId, session } = await cutOff();
    const ghost: FirstSendRecord = {
      key: "flow:test:ghost",
      messageId: newId(),
      companyId: "c",
      ticketId,
      connectionId: "x",
      outbound: { type: "text", body: "Nunca" },
      recipient: { externalId: "1", phone: null },
      inFlightAt: null,
      externalId: null,
    };
    await leftInHand(session, ghost);
    expect(await runDurableObjectAlarm(session)).toBe(true);
    expect(await roomSends(ticketId)).toEqual([]);
    expect((await sendsTo(phoneNumberId)).map(textOf)).toEqual([]);
  });
});

describe("a seq another writer took (the guarded insert)", () => {
  it("stores nothing when a message of the ticket holds that seq or a later one, and stores the next one", async () => {
    const { companyId, phoneNumberId, waId, owner } = await botSetup();
    await deliverOk(textWebhook(phoneNumberId, waId, wamid(), "oi"));
    const { ticketId, reply } = await replyOnce(owner.token, (m) => m.status === "sent", "the reply");
    const row = (await getDb(env.DB).query.messages.findFirst({ where: (m, { eq }) => eq(m.id, reply.id) }))!;
    expect(row.seq).toBe(2);
    const at = Date.now();
    // No provider id or idempotency key: only the seq can keep it out.
    const again = (seq: number): MessageRow => ({ ...row, id: newId(), seq, externalId: null, idempotencyKey: null, companyId, ticketId, createdAt: at, updatedAt: at });
    expect((await insertMessage(getDb(env.DB), again(1), { guardSeq: true, at })).inserted).toBe(false);
    expect((await insertMessage(getDb(env.DB), again(2), { guardSeq: true, at })).inserted).toBe(false);
    const third = await insertMessage(getDb(env.DB), again(3), { guardSeq: true, at });
    expect(third.inserted).toBe(true);
    expect(third.entry).toBeDefined();
    const seqs = await env.DB.prepare("SELECT seq FROM messages WHERE ticket_id = ? ORDER BY seq").bind(ticketId).all<{ seq: number }>();
    expect(seqs.results.map((r) => r.seq)).toEqual([1, 2, 3]);
  });

  it("a room whose seq read from D1 is taken before its insert (a first reply stored meanwhile) reads D1 again: no seq given twice", { timeout: 30_000 }, async () => {
    const { companyId, phoneNumberId, waId, owner } = await botSetup();
    await deliverOk(textWebhook(phoneNumberId, waId, wamid(), "oi"));
    const { ticketId, reply } = await replyOnce(owner.token, (m) => m.status === "sent", "the reply");
    const row = (await getDb(env.DB).query.messages.findFirst({ where: (m, { eq }) => eq(m.id, reply.id) }))!;
    // The room has stored nothing of this ticket: its first append reads D1's highest seq (2). The
    // other writer's message lands right after that read, at seq 3.
    type Next = (ticketId: string, newTicket?: boolean, reread?: boolean) => Promise<{ seq: number; fromD1: boolean }>;
    const proto = TicketRoom.prototype as unknown as { nextSeq: Next };
    const nextSeq = proto.nextSeq;
    const reads: { seq: number; fromD1: boolean }[] = [];
    proto.nextSeq = async function (this: TicketRoom, ...args: Parameters<Next>) {
      const next = await nextSeq.apply(this, args);
      reads.push(next);
      if (reads.length === 1) {
        const at = Date.now();
        const other: MessageRow = { ...row, id: newId(), seq: next.seq, externalId: null, idempotencyKey: null, body: "Outro", companyId, createdAt: at, updatedAt: at };
        expect((await insertMessage(getDb(env.DB), other, { guardSeq: true, at })).inserted).toBe(true);
      }
      return next;
    };
    let member: MessageAnswer;
    try {
      member = await expectStatus<MessageAnswer>(await call("POST", `/api/tickets/${ticketId}/messages`, { token: owner.token, body: { type: "text", body: "Membro" } }), 201);
    } finally {
      proto.nextSeq = nextSeq;
    }
    expect(reads).toEqual([
      { seq: 3, fromD1: true },
      { seq: 4, fromD1: true },
    ]);
    const seqs = await env.DB.prepare("SELECT seq, body FROM messages WHERE ticket_id = ? ORDER BY seq").bind(ticketId).all<{ seq: number; body: string }>();
    expect(seqs.results).toEqual([
      { seq: 1, body: "oi" },
      { seq: 2, body: "Olá" },
      { seq: 3, body: "Outro" },
      { seq: 4, body: "Membro" },
    ]);
    expect(member.seq).toBe(4);
  });
});
