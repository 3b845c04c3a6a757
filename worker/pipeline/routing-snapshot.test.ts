/**
 * The ContactSession's routing snapshot (issue 16, worker/durable-objects/contact-session.ts
 * `RoutingSnapshot`): a message to a conversation whose routing data did not change is routed
 * without a read batch, its insert checking the routing epochs (schema/routing.ts) kept by the D1
 * triggers of migration 0010_routing_epochs. Every change a route makes to what routing reads
 * (a ticket closed, a keyword created, operating hours turned on, the contact's identities) moves
 * an epoch, and the next message is then routed exactly as a fresh read would route it.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { startD1Count, stopD1Count } from "../lib/d1-count";
import { contactSessionOf } from "../lib/realtime";
import { cloudConnection, deliverOk, listTickets, sentTo, textWebhook, ticketMessages, uniqueWaId, until, wamid } from "../test/channel-helpers";
import { flowDoc, publishedFlow } from "../test/flow-helpers";
import { activeCompanyId, call, expectStatus, register } from "../test/helpers";

/** The epoch of `scope` (0: no row, never changed), read past the counting wrapper. */
async function epochOf(scope: string): Promise<number> {
  const row = await env.DB.prepare("SELECT epoch FROM routing_epochs WHERE scope = ?").bind(scope).first<{ epoch: number }>();
  return row?.epoch ?? 0;
}

/** The contact of the sender `waId` (by its identity). */
async function contactOf(waId: string): Promise<string> {
  const row = await env.DB.prepare("SELECT contact_id FROM contact_identities WHERE external_id = ?").bind(waId).first<{ contact_id: string }>();
  if (!row) throw new Error(`no contact for ${waId}`);
  return row.contact_id;
}

/** The messages of the sender `waId`, in ticket order: ticket id, seq and body. */
async function messagesOf(waId: string): Promise<{ ticket_id: string; seq: number; body: string }[]> {
  const rows = await env.DB.prepare(
    "SELECT m.ticket_id, m.seq, m.body FROM messages m JOIN contact_identities i ON i.contact_id = m.contact_id WHERE i.external_id = ? AND m.direction = 'in' ORDER BY m.created_at, m.seq",
  )
    .bind(waId)
    .all<{ ticket_id: string; seq: number; body: string }>();
  return rows.results;
}

/** The texts the stand-in was asked to send from `phoneNumberId`. */
async function sentTexts(phoneNumberId: string): Promise<string[]> {
  return (await sentTo(phoneNumberId)).flatMap((r) => {
    const body = r.body as { type?: string; text?: { body?: string } } | null;
    return body && typeof body === "object" && body.type === "text" && typeof body.text?.body === "string" ? [body.text.body] : [];
  });
}

/** A customer with a pending conversation of two messages on a new Cloud API connection. */
async function conversation() {
  const owner = await register();
  const connection = await cloudConnection(owner.token);
  const from = uniqueWaId();
  await deliverOk(textWebhook(connection.phoneNumberId, from, wamid(), "oi"));
  await deliverOk(textWebhook(connection.phoneNumberId, from, wamid(), "tudo bem?"));
  return { owner, connection, from, companyId: await activeCompanyId(owner.token) };
}

describe("the routing snapshot", () => {
  it("routes a message to an unchanged conversation with one D1 round trip (the room's insert), in order", async () => {
    const { connection, from } = await conversation();
    startD1Count();
    const answer = await deliverOk(textWebhook(connection.phoneNumberId, from, wamid(), "quero saber do pedido"));
    const { trips, statements } = stopD1Count();
    expect(answer.stored).toBe(1);
    expect(trips, statements.join("\n")).toBe(1);
    const stored = await messagesOf(from);
    expect(stored.map((m) => [m.seq, m.body])).toEqual([
      [1, "oi"],
      [2, "tudo bem?"],
      [3, "quero saber do pedido"],
    ]);
    expect(new Set(stored.map((m) => m.ticket_id)).size).toBe(1);
  });

  it("knows the last inbound message id from its handled mark, after a restart too (one storage statement per message)", async () => {
    const { connection, from, companyId } = await conversation();
    const id = wamid();
    await deliverOk(textWebhook(connection.phoneNumberId, from, id, "a última"));
    const kept = await runInDurableObject(contactSessionOf(env, companyId, "whatsapp-cloud", from), (instance, ctx) => {
      const session = instance as unknown as { lastInbound: string | null | undefined; metaRows: unknown; lastInboundId(): string | null };
      const inMemory = session.lastInboundId();
      // A new instance knows only its storage.
      session.lastInbound = undefined;
      const fromHandled = session.lastInboundId();
      // Storage an older version left: no handled row yet, the id in `meta`.
      ctx.storage.sql.exec("DELETE FROM handled");
      ctx.storage.sql.exec("INSERT INTO meta (k, v) VALUES ('lastInbound', 'wamid.older') ON CONFLICT(k) DO UPDATE SET v = excluded.v");
      session.lastInbound = undefined;
      session.metaRows = undefined;
      return { inMemory, fromHandled, older: session.lastInboundId() };
    });
    expect(kept).toEqual({ inMemory: id, fromHandled: id, older: "wamid.older" });
  });

  it("a redelivered message routed on the snapshot is stored once and answered as a duplicate", async () => {
    const { connection, from } = await conversation();
    const id = wamid();
    expect((await deliverOk(textWebhook(connection.phoneNumberId, from, id, "uma vez só"))).stored).toBe(1);
    expect((await deliverOk(textWebhook(connection.phoneNumberId, from, id, "uma vez só"))).stored).toBe(0);
    expect((await messagesOf(from)).filter((m) => m.body === "uma vez só")).toHaveLength(1);
  });

  it("an epoch moved since the snapshot: the insert stores nothing and the message is routed again from D1, stored once", async () => {
    const { connection, from, companyId } = await conversation();
    const before = await epochOf(`company:${companyId}`);
    // A writer the session does not know of (as a trigger would) moves the company's epoch.
    await env.DB.prepare("INSERT INTO routing_epochs (scope, epoch) VALUES (?, 1) ON CONFLICT(scope) DO UPDATE SET epoch = epoch + 1").bind(`company:${companyId}`).run();
    startD1Count();
    const answer = await deliverOk(textWebhook(connection.phoneNumberId, from, wamid(), "depois da mudança"));
    const { trips, statements } = stopD1Count();
    expect(answer.stored).toBe(1);
    // The refused insert (1), the read batch (1) and the room's insert (1).
    expect(trips, statements.join("\n")).toBe(3);
    expect(await epochOf(`company:${companyId}`)).toBe(before + 1);
    expect((await messagesOf(from)).map((m) => [m.seq, m.body])).toEqual([
      [1, "oi"],
      [2, "tudo bem?"],
      [3, "depois da mudança"],
    ]);
    // The snapshot read again holds: the next message is routed on it.
    startD1Count();
    await deliverOk(textWebhook(connection.phoneNumberId, from, wamid(), "e agora?"));
    expect(stopD1Count().trips).toBe(1);
  });

  it("a ticket a member closed is not used: the next message opens a new ticket", async () => {
    const { owner, connection, from } = await conversation();
    const [ticket] = (await listTickets(owner.token)).results;
    await expectStatus(await call("POST", `/api/tickets/${ticket!.id}/close`, { token: owner.token }), 200);
    await deliverOk(textWebhook(connection.phoneNumberId, from, wamid(), "voltei"));
    const stored = await messagesOf(from);
    expect(stored.at(-1)?.body).toBe("voltei");
    expect(stored.at(-1)?.ticket_id).not.toBe(ticket!.id);
    expect((await ticketMessages(owner.token, ticket!.id)).results.map((m) => m.body)).not.toContain("voltei");
  });

  it("a keyword created after the snapshot starts its flow for the next matching message", async () => {
    const { owner, connection, from } = await conversation();
    const { flow } = await publishedFlow(owner.token, flowDoc([{ id: "p", type: "text", data: { message: "Nossos preços: ..." } }], [["start", "next", "p"]]), "Preços");
    await expectStatus(await call("POST", "/api/keywords", { token: owner.token, body: { name: "Preço", rules: [{ type: "contains", words: ["preço"] }], flowId: flow.id } }), 201);
    await deliverOk(textWebhook(connection.phoneNumberId, from, wamid(), "qual o preço?"));
    await until(() => sentTexts(connection.phoneNumberId), (texts) => texts.includes("Nossos preços: ..."), "the keyword flow's reply");
  });

  it("operating hours turned on after the snapshot: the next message gets the outside-hours message", async () => {
    const { owner, connection, from } = await conversation();
    const closed = { sun: [], mon: [], tue: [], wed: [], thu: [], fri: [], sat: [] };
    await expectStatus(
      await call("PUT", "/api/companies/operating-hours", {
        token: owner.token,
        body: { enabled: true, weekly: closed, exceptions: [], outside: { all: { type: "message", message: "Voltamos às 8h." }, connections: {} } },
      }),
      200,
    );
    await deliverOk(textWebhook(connection.phoneNumberId, from, wamid(), "alguém aí?", Math.floor(Date.now() / 1000)));
    await until(() => sentTexts(connection.phoneNumberId), (texts) => texts.includes("Voltamos às 8h."), "the outside-hours message");
  });

  it("a stop word on the snapshot opts the contact out, as a fresh read would, and the message is stored", async () => {
    const { connection, from } = await conversation();
    const contactId = await contactOf(from);
    await deliverOk(textWebhook(connection.phoneNumberId, from, wamid(), "SAIR"));
    const row = await env.DB.prepare("SELECT opted_out_at FROM contacts WHERE id = ?").bind(contactId).first<{ opted_out_at: number | null }>();
    expect(row?.opted_out_at).toEqual(expect.any(Number));
    expect((await messagesOf(from)).map((m) => m.body)).toEqual(["oi", "tudo bem?", "SAIR"]);
  });

  it("a run in progress takes the next message on the snapshot: the reply its flow waited for", async () => {
    const { owner, connection, from } = await conversation();
    const draft = flowDoc(
      [
        { id: "ask", type: "receive", data: { message: "Qual seu nome?", responseTimeSeconds: 86_400 } },
        { id: "thanks", type: "text", data: { message: "Obrigado!" } },
      ],
      [
        ["start", "next", "ask"],
        ["ask", "answered", "thanks"],
      ],
    );
    const { flow } = await publishedFlow(owner.token, draft, "Cadastro");
    await expectStatus(await call("POST", "/api/keywords", { token: owner.token, body: { name: "Cadastro", rules: [{ type: "is", words: ["cadastro"] }], flowId: flow.id } }), 201);
    await deliverOk(textWebhook(connection.phoneNumberId, from, wamid(), "cadastro"));
    await until(() => sentTexts(connection.phoneNumberId), (texts) => texts.includes("Qual seu nome?"), "the question");
    await deliverOk(textWebhook(connection.phoneNumberId, from, wamid(), "Maria"));
    await until(() => sentTexts(connection.phoneNumberId), (texts) => texts.includes("Obrigado!"), "the flow's next block");
    const stored = await messagesOf(from);
    expect(stored.map((m) => m.body)).toEqual(["oi", "tudo bem?", "cadastro", "Maria"]);
    expect(new Set(stored.map((m) => m.ticket_id)).size).toBe(1);
  });
});

describe("routing epochs (migration 0010_routing_epochs)", () => {
  it("move with what routing reads, and not with what every message writes", async () => {
    const { owner, connection, from, companyId } = await conversation();
    const contactId = await contactOf(from);
    const [ticket] = (await listTickets(owner.token)).results;
    const company = `company:${companyId}`;
    const contact = `contact:${contactId}`;
    const moves = async (sql: string, ...binds: unknown[]) => {
      const [c, k] = [await epochOf(company), await epochOf(contact)];
      await env.DB.prepare(sql).bind(...binds).run();
      return [(await epochOf(company)) - c, (await epochOf(contact)) - k];
    };
    // What a stored message writes moves nothing (else every message would miss the snapshot).
    expect(await moves("UPDATE tickets SET unread_count = unread_count + 1, last_message_at = ?, last_message_preview = 'x', updated_at = ? WHERE id = ?", Date.now(), Date.now(), ticket!.id)).toEqual([0, 0]);
    expect(await moves("UPDATE contacts SET last_message_at = ?, updated_at = ? WHERE id = ?", Date.now(), Date.now(), contactId)).toEqual([0, 0]);
    expect(await moves("UPDATE connections SET rejected_count = rejected_count + 1 WHERE id = ?", connection.id)).toEqual([0, 0]);
    expect(await moves("UPDATE companies SET name = 'Outro nome' WHERE id = ?", companyId)).toEqual([0, 0]);
    // The contact's routing data.
    expect(await moves("UPDATE tickets SET status = 'open' WHERE id = ?", ticket!.id)).toEqual([0, 2]);
    expect(await moves("UPDATE contacts SET name = 'Maria Silva' WHERE id = ?", contactId)).toEqual([0, 1]);
    expect(await moves("INSERT INTO contact_identities (id, company_id, contact_id, channel, external_id, created_at) VALUES (?, ?, ?, 'whatsapp-cloud', ?, ?)", crypto.randomUUID(), companyId, contactId, uniqueWaId(), Date.now())).toEqual([0, 1]);
    // The company's routing settings.
    expect(await moves("UPDATE companies SET opt_out_words = '[\"sair\"]' WHERE id = ?", companyId)).toEqual([1, 0]);
    expect(await moves("UPDATE connections SET greeting_message = 'Olá!' WHERE id = ?", connection.id)).toEqual([2, 0]);
    const { flow } = await publishedFlow(owner.token, flowDoc([{ id: "p", type: "text", data: { message: "oi" } }], [["start", "next", "p"]]), "Bot");
    const before = await epochOf(company);
    await expectStatus(await call("POST", "/api/keywords", { token: owner.token, body: { name: "Oi", rules: [{ type: "is", words: ["oi"] }], flowId: flow.id } }), 201);
    expect(await epochOf(company)).toBeGreaterThan(before);
  });
});
