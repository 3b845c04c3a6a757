/**
 * What a restart (SIGKILL of workerd, a deploy) leaves behind, and how the next instance finishes it
 * exactly once (issue 17, the causes measured by `npm run soak:faults`):
 * - a TicketRoom send cut off in flight is held "in doubt" and confirmed by the provider's status
 *   report naming our message (`biz_opaque_callback_data`), not sent again; without a report it is
 *   sent again once; the room arms an alarm before each attempt so it wakes up by itself;
 * - a customer message stored in D1 whose ContactSession step was never committed (the `step`
 *   fault: the instance dies between the two) is routed again when Meta redelivers it, and the bot
 *   answers it once.
 * - a bot message a TicketRoom stored in D1 but never queued (the instance died between the two) is
 *   queued when its send is performed again (the ContactSession's outbox retries it with the same
 *   idempotency key), and sent once;
 * A restart cannot be forced inside workerd's test runner, so the TicketRoom tests put the room's
 * storage in the state a dead instance leaves (an attempt marked in flight) and run what a new
 * instance runs first; the ContactSession tests use the fault switch.
 */
import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { MessageAnswer } from "../../schema/realtime";
import { activeCompanyId, call, expectStatus, register } from "../test/helpers";
import { cloudConnection, deliver, deliverOk, envelope, onlyTicket, textWebhook, ticketMessages, uniqueWaId, waStatus, wamid } from "../test/channel-helpers";
import { flowDoc, publishedFlow, setDefaultFlow } from "../test/flow-helpers";
import { contactSessionOf, roomOf } from "../lib/realtime";
import { SEND_LEASE_MS, insertMessage } from "./ticket-room";
import { getDb } from "../lib/db";
import { failSends, pendingOutbound, sendsTo, textOf, waitFor } from "../test/standin-sends";

async function memberSend(token: string, ticketId: string, body: string): Promise<MessageAnswer> {
  return expectStatus<MessageAnswer>(await call("POST", `/api/tickets/${ticketId}/messages`, { token, body: { type: "text", body } }), 201);
}

async function messageOf(token: string, ticketId: string, id: string): Promise<MessageAnswer | undefined> {
  return (await ticketMessages(token, ticketId)).results.find((m) => m.id === id);
}

type SendsRow = { attempts: number; external_id: string | null; in_flight_at: number | null; doubt_until: number | null };

/**
 * A member's send whose first attempt was refused (so it waits in the room's queue), then the
 * room's storage as an instance that died during its next attempt leaves it: the attempt marked in
 * flight, and what a new instance runs first (`recoverCutOffSends`).
 */
async function cutOffSend(body: string) {
  const owner = await register();
  const { phoneNumberId } = await cloudConnection(owner.token);
  await deliverOk(textWebhook(phoneNumberId, uniqueWaId(), wamid(), "Oi"));
  const ticketId = (await onlyTicket(owner.token)).id;
  await failSends(phoneNumberId, 1, 500, 131000);
  const sent = await memberSend(owner.token, ticketId, body);
  await waitFor(() => sendsTo(phoneNumberId), (r) => r.length >= 1, "the refused first attempt");
  const room = roomOf(env, ticketId);
  const state = await runInDurableObject(room, async (instance, ctx) => {
    const before = ctx.storage.sql.exec<SendsRow>("SELECT attempts, external_id, in_flight_at, doubt_until FROM sends").toArray();
    ctx.storage.sql.exec("UPDATE sends SET in_flight_at = ?, next_at = 0", Date.now());
    (instance as unknown as { recoverCutOffSends(): void }).recoverCutOffSends();
    const after = ctx.storage.sql.exec<SendsRow>("SELECT attempts, external_id, in_flight_at, doubt_until FROM sends").toArray();
    return { before, after, alarm: await ctx.storage.getAlarm() };
  });
  // The retry had not run yet: one queued send, refused once, not in flight; now in doubt.
  expect(state.before).toEqual([{ attempts: 1, external_id: null, in_flight_at: null, doubt_until: null }]);
  expect(state.after[0]?.in_flight_at).toBeNull();
  expect(state.after[0]?.doubt_until).toBeGreaterThan(Date.now());
  expect(state.alarm).not.toBeNull();
  return { owner, phoneNumberId, ticketId, room, sent };
}

describe("a TicketRoom send cut off by a restart", () => {
  it("is confirmed by the provider's report that names it, and never sent again", { timeout: 40_000 }, async () => {
    const { owner, phoneNumberId, ticketId, room, sent } = await cutOffSend("Cortada no meio");
    // Meta's `sent` report of the attempt that was in flight, carrying our message id.
    const reported = wamid();
    const status = { ...waStatus(reported, "sent"), biz_opaque_callback_data: sent.id };
    await deliverOk(envelope(phoneNumberId, { statuses: [status] }));
    await runDurableObjectAlarm(room);
    const message = await waitFor(() => messageOf(owner.token, ticketId, sent.id), (m) => m?.status === "sent", "the message confirmed as sent");
    expect(message?.status).toBe("sent");
    const row = await env.DB.prepare("SELECT external_id FROM messages WHERE id = ?").bind(sent.id).first<{ external_id: string }>();
    expect(row?.external_id).toBe(reported);
    // Positive control: the room moved on (a later send goes out), and the cut-off one never did again.
    const later = await memberSend(owner.token, ticketId, "Depois");
    await waitFor(() => messageOf(owner.token, ticketId, later.id), (m) => m?.status === "sent", "the later message");
    expect((await sendsTo(phoneNumberId)).map((r) => [textOf(r), r.status ?? 200])).toEqual([
      ["Cortada no meio", 500],
      ["Depois", 200],
    ]);
    // Each attempt carried the message's id for the provider's reports.
    expect((await sendsTo(phoneNumberId)).map((r) => r.body?.biz_opaque_callback_data)).toEqual([sent.id, later.id]);
  });

  it("without a report in time it is sent again, once", { timeout: 40_000 }, async () => {
    const { owner, phoneNumberId, ticketId, room, sent } = await cutOffSend("Sem relatório");
    // The wait for a report is over (RECONCILE_MS later).
    await runInDurableObject(room, (_instance, ctx) => void ctx.storage.sql.exec("UPDATE sends SET doubt_until = 1"));
    await runDurableObjectAlarm(room);
    await waitFor(() => messageOf(owner.token, ticketId, sent.id), (m) => m?.status === "sent", "the message sent again");
    const attempts = await sendsTo(phoneNumberId);
    expect(attempts.map((r) => [textOf(r), r.status ?? 200])).toEqual([
      ["Sem relatório", 500],
      ["Sem relatório", 200],
    ]);
  });

  it("arms the room's alarm before each attempt, so a room that died mid-send wakes up by itself", { timeout: 30_000 }, async () => {
    const owner = await register();
    const { phoneNumberId } = await cloudConnection(owner.token);
    await deliverOk(textWebhook(phoneNumberId, uniqueWaId(), wamid(), "Oi"));
    const ticketId = (await onlyTicket(owner.token)).id;
    const before = Date.now();
    const sent = await memberSend(owner.token, ticketId, "Com alarme");
    await waitFor(() => messageOf(owner.token, ticketId, sent.id), (m) => m?.status === "sent", "the send");
    const alarm = await runInDurableObject(roomOf(env, ticketId), (_instance, ctx) => ctx.storage.getAlarm());
    expect(alarm).toBeGreaterThanOrEqual(before + SEND_LEASE_MS);
  });
});

describe("a customer message stored but not stepped when the ContactSession died", () => {
  /** A company whose Cloud API connection answers new conversations with `draft`. */
  async function botSetup(draft: unknown) {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    const { flow } = await publishedFlow(owner.token, draft);
    await setDefaultFlow(owner.token, connection.id, flow.id);
    const companyId = await activeCompanyId(owner.token);
    const waId = uniqueWaId();
    return { owner, phoneNumberId: connection.phoneNumberId, waId, session: contactSessionOf(env, companyId, "whatsapp-cloud", waId) };
  }

  it("the first message (the default flow's start) is routed again on redelivery: one welcome", { timeout: 30_000 }, async () => {
    const { phoneNumberId, waId, session } = await botSetup(flowDoc([{ id: "hi", type: "text", data: { message: "Bem-vindo" } }], [["start", "next", "hi"]]));
    expect(await session.armFaults("step", 1)).toBe(true);
    const payload = textWebhook(phoneNumberId, waId, wamid(), "oi");
    // The step fails after the message was stored: the webhook is not acknowledged, Meta redelivers.
    expect((await deliver(payload)).status).toBe(500);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM messages m JOIN connections c ON c.id = m.connection_id WHERE c.phone_number_id = ? AND m.direction = 'in'").bind(phoneNumberId).first<{ n: number }>()).toEqual({ n: 1 });
    await deliverOk(payload);
    await waitFor(() => sendsTo(phoneNumberId), (r) => r.length >= 1, "the welcome");
    // A third delivery is a plain duplicate (handled now): still one welcome, still one message.
    await deliverOk(payload);
    const positive = textWebhook(phoneNumberId, waId, wamid(), "de novo");
    await deliverOk(positive);
    expect((await sendsTo(phoneNumberId)).map(textOf)).toEqual(["Bem-vindo"]);
  });

  it("an answer to a waiting run is routed again on redelivery: the reply goes out once", { timeout: 30_000 }, async () => {
    const { phoneNumberId, waId, session } = await botSetup(
      flowDoc(
        [
          { id: "ask", type: "receive", data: { message: "Seu nome?" } },
          { id: "done", type: "text", data: { message: "Obrigado" } },
        ],
        [
          ["start", "next", "ask"],
          ["ask", "answered", "done"],
        ],
      ),
    );
    await deliverOk(textWebhook(phoneNumberId, waId, wamid(), "oi"));
    await waitFor(() => sendsTo(phoneNumberId), (r) => r.length >= 1, "the question");
    expect(await session.armFaults("step", 1)).toBe(true);
    const answer = textWebhook(phoneNumberId, waId, wamid(), "Ana");
    expect((await deliver(answer)).status).toBe(500);
    await deliverOk(answer);
    await waitFor(() => sendsTo(phoneNumberId), (r) => r.length >= 2, "the reply to the answer");
    await deliverOk(answer);
    // Positive control: the run ended after its reply, so a repeat would have come before this.
    expect((await sendsTo(phoneNumberId)).map(textOf)).toEqual(["Seu nome?", "Obrigado"]);
    const stored = await env.DB.prepare("SELECT COUNT(*) AS n FROM messages m JOIN connections c ON c.id = m.connection_id WHERE c.phone_number_id = ? AND m.body = 'Ana'").bind(phoneNumberId).first<{ n: number }>();
    expect(stored).toEqual({ n: 1 });
  });
});

describe("a TicketRoom that died between a message's insert and queueing its send", () => {
  it("queues it when the send is performed again with its idempotency key: sent once, never twice", { timeout: 30_000 }, async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    const waId = uniqueWaId();
    await deliverOk(textWebhook(connection.phoneNumberId, waId, wamid(), "Oi"));
    const ticket = await onlyTicket(owner.token);
    const companyId = await activeCompanyId(owner.token);
    // What the dead instance left: the message in D1, `pending`, queued nowhere.
    const row = pendingOutbound({ id: ticket.id, companyId, contactId: ticket.contact.id, connectionId: connection.id }, "Perdida", 2, `flow:restart:${ticket.id}`);
    expect((await insertMessage(getDb(env.DB), row, { at: row.createdAt })).inserted).toBe(true);
    const { id: _id, seq: _seq, createdAt: _createdAt, updatedAt: _updatedAt, ...input } = row;
    const room = roomOf(env, ticket.id);
    const again = () => room.sendOutbound(input, { type: "text", body: "Perdida" }, { externalId: waId, phone: null });
    const first = await again();
    expect(first.duplicate).toBe(true);
    expect(first.message.id).toBe(row.id);
    await waitFor(() => messageOf(owner.token, ticket.id, row.id), (m) => m?.status === "sent", "the message queued and sent");
    // Performed once more (the outbox's at-least-once): already sent, nothing queued or sent again.
    expect((await again()).duplicate).toBe(true);
    const later = await memberSend(owner.token, ticket.id, "Depois");
    await waitFor(() => messageOf(owner.token, ticket.id, later.id), (m) => m?.status === "sent", "a later message");
    expect((await sendsTo(connection.phoneNumberId)).map((r) => [textOf(r), r.status ?? 200])).toEqual([
      ["Perdida", 200],
      ["Depois", 200],
    ]);
  });
});
