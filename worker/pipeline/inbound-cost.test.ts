/**
 * The inbound path's cost (issue 16): D1 round trips per stored message, counted by the test-only
 * wrapper (worker/lib/d1-count.ts) around every D1 binding handed to drizzle, from the webhook
 * route through the ContactSession, the TicketRoom and the CompanyHub; and a flow started on a
 * ticket (issue 10's broadcast recipient) up to its reply settled.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { startD1Count, stopD1Count } from "../lib/d1-count";
import { contactSessionOf } from "../lib/realtime";
import { cloudConnection, deliverOk, onlyTicket, textWebhook, uniqueWaId, until, wamid } from "../test/channel-helpers";
import { flowDoc, publishedFlow } from "../test/flow-helpers";
import { activeCompanyId, register } from "../test/helpers";

describe("inbound cost", () => {
  it("a message to an open conversation costs at most three D1 round trips", async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    const from = uniqueWaId();
    // The first message creates the contact and the ticket; the later ones are the common case.
    await deliverOk(textWebhook(connection.phoneNumberId, from, wamid(), "oi"));
    await deliverOk(textWebhook(connection.phoneNumberId, from, wamid(), "tudo bem?"));
    startD1Count();
    const answer = await deliverOk(textWebhook(connection.phoneNumberId, from, wamid(), "quero saber do pedido"));
    const { trips, statements } = stopD1Count();
    expect(answer.stored).toBe(1);
    console.log(`inbound: ${trips} D1 round trips\n  ${statements.join("\n  ")}`);
    expect(trips, statements.join("\n")).toBeLessThanOrEqual(3);
  });

  it("a new contact's first message costs at most four D1 round trips: its contact and its ticket are one batch", async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    // A first message of another contact: the company's settings and the isolate's statements are warm.
    await deliverOk(textWebhook(connection.phoneNumberId, uniqueWaId(), wamid(), "oi"));
    const waId = uniqueWaId();
    startD1Count();
    const answer = await deliverOk(textWebhook(connection.phoneNumberId, waId, wamid(), "primeira mensagem"));
    const { trips, statements } = stopD1Count();
    expect(answer.stored).toBe(1);
    console.log(`new contact: ${trips} D1 round trips\n  ${statements.join("\n  ")}`);
    // The connection (1), the read batch with the phone look-up (1), the contact with its identity,
    // counters and pending ticket (1), the room's batch (1). Before (2026-11-24 09:45): the phone
    // looked up on its own, the new contact's open tickets looked up in D1, the ticket its own batch.
    expect(trips, statements.join("\n")).toBeLessThanOrEqual(4);
    // One pending ticket, holding the message (read past the counting wrapper).
    const rows = await env.DB.prepare(
      "SELECT t.status AS status, (SELECT COUNT(*) FROM messages m WHERE m.ticket_id = t.id) AS n FROM tickets t JOIN contact_identities i ON i.contact_id = t.contact_id AND i.company_id = t.company_id WHERE i.external_id = ?",
    )
      .bind(waId)
      .all<{ status: string; n: number }>();
    expect(rows.results).toEqual([{ status: "pending", n: 1 }]);
  });
});

describe("flow start cost", () => {
  it("a flow started on a ticket it is handed (a broadcast's recipient) costs four D1 round trips up to its reply settled as sent", async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    const waId = uniqueWaId();
    await deliverOk(textWebhook(connection.phoneNumberId, waId, wamid(), "oi"));
    const ticket = await onlyTicket(owner.token);
    const companyId = await activeCompanyId(owner.token);
    const { flow } = await publishedFlow(owner.token, flowDoc([{ id: "hi", type: "text", data: { message: "Promoção de hoje" } }], [["start", "next", "hi"]]), "Promo");
    const session = contactSessionOf(env, companyId, "whatsapp-cloud", waId);
    // The replies sent, read past the counting wrapper (the raw binding is never wrapped).
    const sent = async () =>
      (await env.DB.prepare("SELECT COUNT(*) AS n FROM messages WHERE ticket_id = ? AND direction = 'out' AND status = 'sent'").bind(ticket.id).first<{ n: number }>())?.n ?? 0;
    const start = () =>
      session.startFlow({
        companyId,
        channel: "whatsapp-cloud",
        externalId: waId,
        connectionId: connection.id,
        ticketId: ticket.id,
        ticket: { id: ticket.id, companyId, contactId: ticket.contact.id },
        flowId: flow.id,
      });
    // The first start compiles the published version (two reads, once per isolate and version).
    expect((await start()).ok).toBe(true);
    await until(sent, (n) => n === 1, "the first reply settled as sent");
    startD1Count();
    const started = await start();
    await until(sent, (n) => n === 2, "the second reply settled as sent");
    const { trips, statements } = stopD1Count();
    expect(started.ok).toBe(true);
    console.log(`flow start: ${trips} D1 round trips\n  ${statements.join("\n  ")}`);
    // The start's reads with the run's context (1), the reply's insert (1), the step's stats (1) and
    // the send's settlement (1); before issue 16's second pass: 16 (each read on its own).
    expect(trips, statements.join("\n")).toBeLessThanOrEqual(4);
  });
});
