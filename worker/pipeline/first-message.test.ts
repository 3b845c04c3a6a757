/**
 * A new contact's first message is inserted in the contact's own D1 batch, with the contact and its
 * ticket (issue 16: one round trip for the three), and its room only publishes it
 * (worker/durable-objects/contact-session.ts `upsertContact`, TicketRoom `publishStored`). The
 * ticket shows it as any appended message would, the room's next message continues its seqs, and
 * a member's socket gets it before the bot's reply. A first attempt that dies between that batch
 * and the publish leaves the message to its redelivery, which publishes it (TicketRoom `append`'s
 * `republish`). When the message starts a flow, its publish waits in the session's outbox for the
 * run's first send, and the session stores, publishes (one hub call for both) and sends that reply
 * itself without the room (worker/pipeline/first-reply.ts); the room takes over a reply it stored
 * when the seq was taken (`sendOutbound`'s `publishFirst`).
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { startD1Count, stopD1Count } from "../lib/d1-count";
import { TicketRoom } from "../durable-objects/ticket-room";
import { CompanyHub } from "../durable-objects/company-hub";
import { activeCompanyId } from "../test/helpers";
import { contactSessionOf } from "../lib/realtime";
import { addStandInMedia, cloudConnection, deliver, deliverOk, listTickets, messageWebhook, someBytes, textWebhook, uniqueWaId, wamid, waMessage } from "../test/channel-helpers";
import { flowDoc, publishedFlow, setDefaultFlow } from "../test/flow-helpers";
import { call, register } from "../test/helpers";
import type { HubEventBody } from "../../schema/realtime";

type Frame = { type: string; seq?: number; message?: { id: string; body: string; direction: string; ticketId: string }; ticket?: { id: string; unreadCount: number; lastMessagePreview: string } };

/** The messages D1 holds for the contact who wrote from `from`, in their ticket's order. */
async function messagesOf(from: string): Promise<{ body: string; seq: number; direction: string; type: string }[]> {
  const rows = await env.DB.prepare(
    "SELECT m.body, m.seq, m.direction, m.type FROM messages m JOIN contact_identities i ON i.contact_id = m.contact_id WHERE i.external_id = ? ORDER BY m.seq",
  )
    .bind(from)
    .all<{ body: string; seq: number; direction: string; type: string }>();
  return rows.results;
}

/** Opens the company's hub socket through the worker and collects its frames. */
async function openHub(token: string) {
  const res = await call("GET", `/api/ws/hub?access_token=${encodeURIComponent(token)}`, { headers: { Upgrade: "websocket" } });
  if (res.status !== 101 || !res.webSocket) throw new Error(`expected 101, got ${res.status}`);
  const ws = res.webSocket;
  const frames: Frame[] = [];
  ws.accept();
  ws.addEventListener("message", (e) => frames.push(JSON.parse(String(e.data))));
  return { ws, frames };
}

async function waitFor<T>(read: () => T, check: (v: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const value = read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("a new contact's first message", () => {
  it("is stored with the contact and its ticket: two D1 round trips in all, and the ticket shows it unread", async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    // The route is remembered after a first delivery (another contact), as in production.
    await deliverOk(textWebhook(connection.phoneNumberId, uniqueWaId(), wamid(), "primeiro cliente"));
    const from = uniqueWaId();
    startD1Count();
    expect((await deliverOk(textWebhook(connection.phoneNumberId, from, wamid(), "Olá, quero um orçamento"))).stored).toBe(1);
    const { trips, statements } = stopD1Count();
    // The read batch, then one write batch: the contact, its identity, its ticket and the message.
    expect(trips, statements.join("\n")).toBe(2);
    expect(await messagesOf(from)).toEqual([{ body: "Olá, quero um orçamento", seq: 1, direction: "in", type: "text" }]);
    const ticket = (await listTickets(owner.token)).results.find((t) => t.contact.name === "Maria" && t.lastMessagePreview === "Olá, quero um orçamento");
    expect(ticket).toMatchObject({ status: "pending", unreadCount: 1, lastMessagePreview: "Olá, quero um orçamento" });
  });

  it("the room's next message continues after it (seq 2), without reading D1's highest seq", async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    await deliverOk(textWebhook(connection.phoneNumberId, uniqueWaId(), wamid(), "primeiro cliente"));
    const from = uniqueWaId();
    await deliverOk(textWebhook(connection.phoneNumberId, from, wamid(), "um"));
    startD1Count();
    await deliverOk(textWebhook(connection.phoneNumberId, from, wamid(), "dois"));
    const { trips, statements } = stopD1Count();
    // The room's batch alone: no look-up of the seqs the room did not hand out, and no read batch
    // (routed on the snapshot the contact's first message left: the routing epochs, issue 16).
    expect(trips, statements.join("\n")).toBe(1);
    await deliverOk(textWebhook(connection.phoneNumberId, from, wamid(), "três"));
    expect((await messagesOf(from)).map((m) => [m.seq, m.body])).toEqual([
      [1, "um"],
      [2, "dois"],
      [3, "três"],
    ]);
    const ticket = (await listTickets(owner.token)).results.find((t) => t.lastMessagePreview === "três");
    expect(ticket?.unreadCount).toBe(3);
  });

  it("reaches a member's socket with its ticket's list entry before the default flow's reply", async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    const { flow } = await publishedFlow(owner.token, flowDoc([{ id: "t", type: "text", data: { message: "Olá! Sou o assistente." } }], [["start", "next", "t"]]), "Boas-vindas");
    await setDefaultFlow(owner.token, connection.id, flow.id);
    const { ws, frames } = await openHub(owner.token);
    await waitFor(() => frames, (f) => f.some((x) => x.type === "hello"), "the hello frame");
    const from = uniqueWaId();
    await deliverOk(textWebhook(connection.phoneNumberId, from, wamid(), "bom dia"));
    const created = await waitFor(() => frames.filter((f) => f.type === "message.created"), (f) => f.length >= 2, "two messages");
    expect(created.map((f) => [f.message?.direction, f.message?.body])).toEqual([
      ["in", "bom dia"],
      ["out", "Olá! Sou o assistente."],
    ]);
    const ticketId = created[0]!.message!.ticketId;
    // The list entry published with the customer's message is the ticket as inserted with it.
    const entry = frames.find((f) => f.type === "ticket.updated" && f.ticket?.id === ticketId);
    expect(entry?.ticket).toMatchObject({ unreadCount: 1, lastMessagePreview: "bom dia" });
    ws.close(1000, "done");
    expect((await messagesOf(from)).map((m) => [m.seq, m.direction])).toEqual([
      [1, "in"],
      [2, "out"],
    ]);
  });

  it("is published on its redelivery when the first attempt died after storing it, before its publish", async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    const { ws, frames } = await openHub(owner.token);
    await waitFor(() => frames, (f) => f.some((x) => x.type === "hello"), "the hello frame");
    const from = uniqueWaId();
    const webhook = textWebhook(connection.phoneNumberId, from, wamid(), "alguém aí?");
    // The room fails once, after the contact's batch stored the message: the delivery is not acknowledged.
    const publishStored = TicketRoom.prototype.publishStored;
    TicketRoom.prototype.publishStored = async function failOnce(): Promise<never> {
      TicketRoom.prototype.publishStored = publishStored;
      throw new Error("the room was lost");
    };
    try {
      expect((await deliver(webhook)).status).not.toBe(200);
    } finally {
      TicketRoom.prototype.publishStored = publishStored;
    }
    expect((await messagesOf(from)).map((m) => [m.seq, m.body])).toEqual([[1, "alguém aí?"]]);
    // The provider delivers it again: stored once, and this time the member's socket gets it.
    await deliverOk(webhook);
    const frame = await waitFor(() => frames.find((f) => f.message?.body === "alguém aí?"), (f) => f !== undefined, "the message on the socket");
    expect(frame?.type).toBe("message.updated");
    const entry = frames.find((f) => f.type === "ticket.updated" && f.ticket?.id === frame?.message?.ticketId);
    expect(entry?.ticket).toMatchObject({ unreadCount: 1, lastMessagePreview: "alguém aí?" });
    expect(frames.filter((f) => f.message?.body === "alguém aí?")).toHaveLength(1);
    ws.close(1000, "done");
    expect((await messagesOf(from)).map((m) => [m.seq, m.body])).toEqual([[1, "alguém aí?"]]);
  });

  it("a first message with media is stored by its room after the media (not in the contact's batch)", async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    await addStandInMedia("media-first-1", "image/png", someBytes(64));
    const from = uniqueWaId();
    const image = waMessage(from, "image", { image: { id: "media-first-1", mime_type: "image/png", caption: "foto" } });
    expect((await deliverOk(messageWebhook(connection.phoneNumberId, image))).stored).toBe(1);
    const stored = await env.DB.prepare(
      "SELECT m.seq, m.media_key FROM messages m JOIN contact_identities i ON i.contact_id = m.contact_id WHERE i.external_id = ?",
    )
      .bind(from)
      .first<{ seq: number; media_key: string | null }>();
    expect(stored?.seq).toBe(1);
    expect(stored?.media_key).toBeTruthy();
  });

  describe("that starts a flow", () => {
    /**
     * Counts, while `body` runs, the session's calls of its room (`publishStored`, `sendOutbound`
     * and whether it handed a message to publish first, `adoptSend`) and the events of each hub call.
     */
    async function watchingCalls(body: () => Promise<void>) {
      const seen = { publishStored: 0, sendOutbound: [] as boolean[], adoptSend: 0, hubCalls: [] as string[][] };
      const publishStored = TicketRoom.prototype.publishStored;
      const sendOutbound = TicketRoom.prototype.sendOutbound;
      const adoptSend = TicketRoom.prototype.adoptSend;
      const publishGroups = CompanyHub.prototype.publishGroups;
      const publishEvents = CompanyHub.prototype.publishEvents;
      const describe = (bodies: HubEventBody[]) => bodies.map((b) => ("message" in b && b.message ? `${b.type} ${b.message.body}` : b.type));
      TicketRoom.prototype.publishStored = function (this: TicketRoom, ...args: Parameters<typeof publishStored>) {
        seen.publishStored++;
        return publishStored.apply(this, args);
      };
      TicketRoom.prototype.sendOutbound = function (this: TicketRoom, ...args: Parameters<typeof sendOutbound>) {
        seen.sendOutbound.push(args[5] !== undefined);
        return sendOutbound.apply(this, args);
      };
      TicketRoom.prototype.adoptSend = function (this: TicketRoom, ...args: Parameters<typeof adoptSend>) {
        seen.adoptSend++;
        return adoptSend.apply(this, args);
      };
      CompanyHub.prototype.publishGroups = function (this: CompanyHub, groups: Parameters<typeof publishGroups>[0]) {
        seen.hubCalls.push(groups.flatMap((g) => describe(g.bodies)));
        return publishGroups.call(this, groups);
      };
      CompanyHub.prototype.publishEvents = function (this: CompanyHub, bodies: HubEventBody[], audience?: Parameters<typeof publishEvents>[1]) {
        seen.hubCalls.push(describe(bodies));
        return publishEvents.call(this, bodies, audience);
      };
      try {
        await body();
      } finally {
        TicketRoom.prototype.publishStored = publishStored;
        TicketRoom.prototype.sendOutbound = sendOutbound;
        TicketRoom.prototype.adoptSend = adoptSend;
        CompanyHub.prototype.publishGroups = publishGroups;
        CompanyHub.prototype.publishEvents = publishEvents;
      }
      return seen;
    }

    /** A company whose connection's default flow is `doc`, with a member's hub socket open. */
    async function withDefaultFlow(doc: ReturnType<typeof flowDoc>) {
      const owner = await register();
      const connection = await cloudConnection(owner.token);
      const { flow } = await publishedFlow(owner.token, doc, "Boas-vindas");
      await setDefaultFlow(owner.token, connection.id, flow.id);
      const hub = await openHub(owner.token);
      await waitFor(() => hub.frames, (f) => f.some((x) => x.type === "hello"), "the hello frame");
      const bodies = () => hub.frames.filter((f) => f.type === "message.created").map((f) => f.message?.body);
      return { owner, connection, ...hub, bodies };
    }

    it("goes out with the flow's first reply, stored and sent by the session: no room call, one hub call for both, the customer's message first", async () => {
      const { connection, ws, bodies } = await withDefaultFlow(flowDoc([{ id: "t", type: "text", data: { message: "Olá! Sou o assistente." } }], [["start", "next", "t"]]));
      const seen = await watchingCalls(async () => {
        expect((await deliverOk(textWebhook(connection.phoneNumberId, uniqueWaId(), wamid(), "bom dia"))).stored).toBe(1);
        await waitFor(bodies, (b) => b.length >= 2, "two messages");
      });
      ws.close(1000, "done");
      expect(seen.publishStored).toBe(0);
      expect(seen.sendOutbound).toEqual([]);
      expect(seen.adoptSend).toBe(0);
      const withMessages = seen.hubCalls.filter((c) => c.some((e) => e.startsWith("message.created")));
      expect(withMessages.map((c) => c.filter((e) => e.startsWith("message.created")))).toEqual([["message.created bom dia", "message.created Olá! Sou o assistente."]]);
      expect(bodies()).toEqual(["bom dia", "Olá! Sou o assistente."]);
    });

    it("is published alone, at once, when the run's first step sends nothing", async () => {
      const { connection, ws, bodies } = await withDefaultFlow(
        flowDoc(
          [
            { id: "pause", type: "delay", data: { seconds: 60, indicator: "none" } },
            { id: "t", type: "text", data: { message: "Depois" } },
          ],
          [
            ["start", "next", "pause"],
            ["pause", "next", "t"],
          ],
        ),
      );
      const seen = await watchingCalls(async () => {
        expect((await deliverOk(textWebhook(connection.phoneNumberId, uniqueWaId(), wamid(), "olá"))).stored).toBe(1);
        await waitFor(bodies, (b) => b.length >= 1, "the customer's message");
      });
      ws.close(1000, "done");
      expect(seen.publishStored).toBe(1);
      expect(seen.sendOutbound).toEqual([]);
      expect(bodies()).toEqual(["olá"]);
    });

    it("a room call that fails is done again from the outbox: the message and the reply reach the socket once each, in order", { timeout: 30_000 }, async () => {
      const { owner, connection, ws, bodies } = await withDefaultFlow(flowDoc([{ id: "t", type: "text", data: { message: "Resposta" } }], [["start", "next", "t"]]));
      const from = uniqueWaId();
      // The effect that carries the publish fails once (the fault switch, worker/lib/faults.ts).
      expect(await contactSessionOf(env, await activeCompanyId(owner.token), "whatsapp-cloud", from).armFaults("effect", 1)).toBe(true);
      // Stored, so acknowledged: the publish and the reply wait in the outbox for the alarm.
      expect((await deliverOk(textWebhook(connection.phoneNumberId, from, wamid(), "preciso de ajuda"))).stored).toBe(1);
      await waitFor(bodies, (b) => b.length >= 2, "two messages after the retry");
      await new Promise((r) => setTimeout(r, 200));
      ws.close(1000, "done");
      expect(bodies()).toEqual(["preciso de ajuda", "Resposta"]);
      expect((await messagesOf(from)).map((m) => [m.seq, m.body])).toEqual([
        [1, "preciso de ajuda"],
        [2, "Resposta"],
      ]);
    });
  });
});
