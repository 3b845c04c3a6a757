/**
 * Flows in the ContactSession (issue 5; DESIGN.md "The main job" step 3): default flows and keyword
 * triggers answering real channel messages (the Graph API stand-in and the sandbox phone), timers
 * that survive a restart, a delay interrupted by the contact, ordering, the integration guard,
 * versions kept by running runs, and the runs/start-flow/default-flows routes.
 */
import { env, evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { DefaultFlowsAnswer, FlowRunAnswer, FlowStatsAnswer, KeywordAnswer } from "../../schema/flow-api";
import type { InboundMessage } from "../channels/types";
import type { TranscriptEntry } from "./sandbox-device";
import { performHttp } from "../pipeline/flow-effects";
import { newId } from "../lib/ids";
import { contactSessionOf } from "../lib/realtime";
import { activeCompanyId, call, expectError, expectInvalid, expectStatus, form, member, pngFile, register, type Account } from "../test/helpers";
import { cloudConnection, deliverOk, listTickets, onlyTicket, pairSandbox, sandboxConnection, sandboxEvents, sentTo, standInSent, textWebhook, ticketMessages, uniqueWaId, until, wamid, envelope, waMessage } from "../test/channel-helpers";
import { createField } from "../test/contact-helpers";
import { flowDoc, publishedFlow, setDefaultFlow } from "../test/flow-helpers";

/** The texts the stand-in was asked to send to one number, in order. */
async function botTexts(phoneNumberId: string): Promise<string[]> {
  return (await sentTo(phoneNumberId)).flatMap((r) => {
    if (typeof r.body !== "object" || r.body === null) return [];
    const text = r.body.text;
    return typeof text === "object" && text !== null && "body" in text ? [String(text.body)] : [];
  });
}

async function waitForTexts(phoneNumberId: string, count: number): Promise<string[]> {
  return until(() => botTexts(phoneNumberId), (texts) => texts.length >= count, `${count} bot message(s) to ${phoneNumberId}`);
}

/** A company with a Cloud API connection whose default flow is `draft` (published). */
async function botSetup(draft: unknown): Promise<{ owner: Account; connectionId: string; phoneNumberId: string; flowId: string; companyId: string }> {
  const owner = await register();
  const connection = await cloudConnection(owner.token, { greetingMessage: "Saudação da conexão" });
  const { flow } = await publishedFlow(owner.token, draft);
  await setDefaultFlow(owner.token, connection.id, flow.id);
  return { owner, connectionId: connection.id, phoneNumberId: connection.phoneNumberId, flowId: flow.id, companyId: await activeCompanyId(owner.token) };
}

/** Makes every armed timer of the contact's session due now. */
async function makeTimersDue(companyId: string, waId: string): Promise<void> {
  await runInDurableObject(contactSessionOf(env, companyId, "whatsapp-cloud", waId), (_instance, state) => {
    state.storage.sql.exec("UPDATE timers SET at = ?", Date.now() - 1_000);
  });
}

async function contactIdOf(companyId: string, waId: string): Promise<string> {
  const row = await env.DB.prepare("SELECT contact_id FROM contact_identities WHERE company_id = ? AND external_id = ?").bind(companyId, waId).first<{ contact_id: string }>();
  if (!row) throw new Error(`no contact for ${waId}`);
  return row.contact_id;
}

/** The provider's clock for a message sent now (Cloud API timestamps are in seconds). */
function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

function inbound(from: string, body: string): InboundMessage {
  return { kind: "message", externalId: wamid(), from, phone: `+${from}`, profileName: "Maria", timestamp: Date.now(), type: "text", body };
}

describe("default flows", () => {
  it("a default flow answers a Cloud API message; the conversation is in a pending ticket with the bot as sender", async () => {
    const { owner, phoneNumberId, flowId } = await botSetup(flowDoc([{ id: "hi", type: "text", data: { message: "Olá {{first_name}}, bem-vinda!" } }], [["start", "next", "hi"]]));
    await deliverOk(textWebhook(phoneNumberId, uniqueWaId(), wamid(), "bom dia", nowSeconds() - 1, "Maria Souza"));
    expect(await waitForTexts(phoneNumberId, 1)).toEqual(["Olá Maria, bem-vinda!"]);
    const ticket = await onlyTicket(owner.token);
    expect(ticket.status).toBe("pending");
    const page = await until(() => ticketMessages(owner.token, ticket.id), (p) => p.results.length === 2, "both messages in the ticket");
    expect(page.results.map((m) => [m.direction, m.body, m.sender?.name ?? null])).toEqual([
      ["in", "bom dia", null],
      ["out", "Olá Maria, bem-vinda!", null],
    ]);
    // The greeting of the connection is not sent when a flow answers.
    const stats = await expectStatus<FlowStatsAnswer>(await call("GET", `/api/flows/${flowId}/stats`, { token: owner.token }), 200);
    expect(stats).toMatchObject({ start: { reached: 1, stopped: 0 }, hi: { reached: 1, stopped: 1 } });
  });

  it("a default flow answers the sandbox phone", async () => {
    const owner = await register();
    const sandbox = await sandboxConnection(owner.token);
    const deviceToken = await pairSandbox(owner.token, sandbox.id);
    const { flow } = await publishedFlow(owner.token, flowDoc([{ id: "hi", type: "text", data: { message: "Oi do robô" } }], [["start", "next", "hi"]]));
    await setDefaultFlow(owner.token, sandbox.id, flow.id);
    const phone = "+5511987650001";
    await expectStatus(await sandboxEvents(deviceToken, [{ kind: "message", id: `sbx-${newId()}`, from: phone, name: "Cliente", type: "text", body: "Olá" }]), 200);
    const seen = await until(
      async () =>
        expectStatus<{ transcript: TranscriptEntry[] }>(
          await call("GET", `/api/channels/sandbox/transcript?phone=${encodeURIComponent(phone)}`, { headers: { Authorization: `Device ${deviceToken}` } }),
          200,
        ),
      (t) => t.transcript.some((e) => e.direction === "to_customer"),
      "the bot reply on the phone",
    );
    expect(seen.transcript.find((e) => e.direction === "to_customer")?.message).toMatchObject({ type: "text", body: "Oi do robô" });
  });

  it("a message while the ticket is open goes to the ticket, not to the default flow", async () => {
    const { owner, phoneNumberId } = await botSetup(flowDoc([{ id: "hi", type: "text", data: { message: "Bot" } }], [["start", "next", "hi"]]));
    const waId = uniqueWaId();
    await deliverOk(textWebhook(phoneNumberId, waId, wamid(), "primeira", nowSeconds()));
    await waitForTexts(phoneNumberId, 1);
    await deliverOk(textWebhook(phoneNumberId, waId, wamid(), "segunda", nowSeconds() + 1));
    const ticket = await onlyTicket(owner.token);
    const page = await until(() => ticketMessages(owner.token, ticket.id), (p) => p.results.length === 3, "three messages");
    expect(page.results.map((m) => m.body)).toEqual(["primeira", "Bot", "segunda"]);
    // The positive control: a keyword answered by the same session after "segunda"; anything the
    // default flow had sent for "segunda" would reach the provider before it.
    const { flow: control } = await publishedFlow(owner.token, flowDoc([{ id: "t", type: "text", data: { message: "controle" } }], [["start", "next", "t"]]));
    await expectStatus(await call("POST", "/api/keywords", { token: owner.token, body: { name: "Ping", rules: [{ type: "is", words: ["ping"] }], flowId: control.id } }), 201);
    await deliverOk(textWebhook(phoneNumberId, waId, wamid(), "ping", nowSeconds() + 2));
    expect(await waitForTexts(phoneNumberId, 2)).toEqual(["Bot", "controle"]);
  });
});

describe("keyword triggers", () => {
  it("a matching keyword starts its flow (before the open ticket) and counts the message", async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    const { flow } = await publishedFlow(owner.token, flowDoc([{ id: "promo", type: "text", data: { message: "Pão em dobro hoje!" } }], [["start", "next", "promo"]]));
    const keyword = await expectStatus<KeywordAnswer>(await call("POST", "/api/keywords", { token: owner.token, body: { name: "Promo", rules: [{ type: "contains", words: ["promoção"] }], flowId: flow.id } }), 201);
    const waId = uniqueWaId();
    await deliverOk(textWebhook(connection.phoneNumberId, waId, wamid(), "oi"));
    await deliverOk(textWebhook(connection.phoneNumberId, waId, wamid(), "Tem PROMOCAO hoje?"));
    expect(await waitForTexts(connection.phoneNumberId, 1)).toEqual(["Pão em dobro hoje!"]);
    // "oi" started nothing: the session handles a contact's messages in order, so anything "oi" had
    // started would be in the ticket before the reply to the second message.
    const ticket = await onlyTicket(owner.token);
    const page = await until(() => ticketMessages(owner.token, ticket.id), (p) => p.results.length >= 3, "both messages and the reply");
    expect(page.results.map((m) => [m.direction, m.body])).toEqual([
      ["in", "oi"],
      ["in", "Tem PROMOCAO hoje?"],
      ["out", "Pão em dobro hoje!"],
    ]);
    expect(await botTexts(connection.phoneNumberId)).toEqual(["Pão em dobro hoje!"]);
    const after = await expectStatus<KeywordAnswer>(await call("GET", `/api/keywords/${keyword.id}`, { token: owner.token }), 200);
    expect(after.createdMessages).toBe(1);
    expect((await listTickets(owner.token)).total).toBe(1);
  });

  it("a trigger that is off, or whose flow is unpublished, starts nothing", async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    const { flow } = await publishedFlow(owner.token, flowDoc([{ id: "t", type: "text", data: { message: "x" } }], [["start", "next", "t"]]));
    await expectStatus(await call("POST", "/api/keywords", { token: owner.token, body: { name: "Off", turnOn: false, rules: [{ type: "is", words: ["menu"] }], flowId: flow.id } }), 201);
    // The positive control: a trigger that is on, handled after the others by the same session.
    const { flow: control } = await publishedFlow(owner.token, flowDoc([{ id: "t", type: "text", data: { message: "controle" } }], [["start", "next", "t"]]));
    await expectStatus(await call("POST", "/api/keywords", { token: owner.token, body: { name: "On", rules: [{ type: "is", words: ["ping"] }], flowId: control.id } }), 201);
    const waId = uniqueWaId();
    await deliverOk(textWebhook(connection.phoneNumberId, waId, wamid(), "menu"));
    await deliverOk(textWebhook(connection.phoneNumberId, waId, wamid(), "ping"));
    expect(await waitForTexts(connection.phoneNumberId, 1)).toEqual(["controle"]);
  });
});

describe("timers", () => {
  it("a receive with a 3-day response time takes its no-answer path when the alarm fires after a restart", async () => {
    const draft = flowDoc(
      [
        { id: "ask", type: "receive", data: { message: "Qual seu nome?", responseTimeSeconds: 3 * 86_400 } },
        { id: "thanks", type: "text", data: { message: "Obrigado!" } },
        { id: "late", type: "text", data: { message: "Ainda está aí?" } },
      ],
      [
        ["start", "next", "ask"],
        ["ask", "answered", "thanks"],
        ["ask", "no_answer", "late"],
      ],
    );
    const { owner, phoneNumberId, companyId } = await botSetup(draft);
    const waId = uniqueWaId();
    const before = Date.now();
    await deliverOk(textWebhook(phoneNumberId, waId, wamid(), "oi"));
    expect(await waitForTexts(phoneNumberId, 1)).toEqual(["Qual seu nome?"]);
    const session = contactSessionOf(env, companyId, "whatsapp-cloud", waId);
    const alarm = await runInDurableObject(session, (_i, state) => state.storage.getAlarm());
    expect(alarm).toBeGreaterThanOrEqual(before + 3 * 86_400_000);
    expect(alarm).toBeLessThan(Date.now() + 3 * 86_400_000 + 1_000);

    // Three days pass; the alarm is lost with the old incarnation (a fired alarm is used up).
    await runInDurableObject(session, async (_i, state) => {
      state.storage.sql.exec("UPDATE timers SET at = ?", Date.now() - 1_000);
      await state.storage.deleteAlarm();
    });
    await evictDurableObject(session);
    // The first request to the new incarnation repairs the alarm from storage.
    const runs = await session.listRuns();
    expect(runs[0]).toMatchObject({ status: "waiting", waitingFor: "reply", nodeId: "ask" });
    expect(await runInDurableObject(session, (_i, state) => state.storage.getAlarm())).not.toBeNull();
    expect(await runDurableObjectAlarm(session)).toBe(true);
    expect(await waitForTexts(phoneNumberId, 2)).toEqual(["Qual seu nome?", "Ainda está aí?"]);
    // A second delivery of the same alarm does nothing more (idempotent).
    await runInDurableObject(session, (instance) => instance.alarm());
    expect(await botTexts(phoneNumberId)).toEqual(["Qual seu nome?", "Ainda está aí?"]);
    const contactId = await contactIdOf(companyId, waId);
    const shown = await expectStatus<FlowRunAnswer[]>(await call("GET", `/api/contacts/${contactId}/runs`, { token: owner.token }), 200);
    expect(shown[0]).toMatchObject({ status: "done", nodeId: "late", nodeType: "text", flowName: "Bot", version: 1 });
    expect(await runInDurableObject(session, (_i, state) => state.storage.getAlarm())).toBeNull();
  });

  it("a reply during a delay is kept and answers the question asked after it", async () => {
    const owner = await register();
    await createField(owner.token, { name: "Cidade", key: "cidade", type: "text", kind: "user" });
    const connection = await cloudConnection(owner.token);
    const { flow } = await publishedFlow(
      owner.token,
      flowDoc(
        [
          { id: "wait", type: "text", data: { message: "Um momento…" } },
          { id: "pause", type: "delay", data: { seconds: 60, indicator: "none" } },
          { id: "ask", type: "receive", data: { message: "Qual sua cidade?", fieldKey: "cidade", responseTimeSeconds: 600 } },
          { id: "done", type: "text", data: { message: "Anotado: {{cidade}}" } },
        ],
        [
          ["start", "next", "wait"],
          ["wait", "next", "pause"],
          ["pause", "next", "ask"],
          ["ask", "answered", "done"],
        ],
      ),
    );
    await setDefaultFlow(owner.token, connection.id, flow.id);
    const companyId = await activeCompanyId(owner.token);
    const waId = uniqueWaId();
    await deliverOk(textWebhook(connection.phoneNumberId, waId, wamid(), "oi"));
    expect(await waitForTexts(connection.phoneNumberId, 1)).toEqual(["Um momento…"]);
    await deliverOk(textWebhook(connection.phoneNumberId, waId, wamid(), "Recife"));
    expect(await botTexts(connection.phoneNumberId)).toEqual(["Um momento…"]);
    await makeTimersDue(companyId, waId);
    expect(await runDurableObjectAlarm(contactSessionOf(env, companyId, "whatsapp-cloud", waId))).toBe(true);
    expect(await waitForTexts(connection.phoneNumberId, 3)).toEqual(["Um momento…", "Qual sua cidade?", "Anotado: Recife"]);
    const value = await env.DB.prepare("SELECT v.value FROM contact_field_values v JOIN custom_fields f ON f.id = v.field_id WHERE f.company_id = ? AND f.key = 'cidade'").bind(companyId).first<{ value: string }>();
    expect(value?.value).toBe("Recife");
  });
});

describe("ordering", () => {
  it("two inbound messages at once for one contact run in order", async () => {
    const owner = await register();
    await createField(owner.token, { name: "Primeiro", key: "primeiro", type: "text", kind: "user" });
    await createField(owner.token, { name: "Segundo", key: "segundo", type: "text", kind: "user" });
    const connection = await cloudConnection(owner.token);
    const { flow } = await publishedFlow(
      owner.token,
      flowDoc(
        [
          { id: "a", type: "receive", data: { fieldKey: "primeiro" } },
          { id: "b", type: "receive", data: { fieldKey: "segundo" } },
          { id: "out", type: "text", data: { message: "{{primeiro}} depois {{segundo}}" } },
        ],
        [
          ["start", "next", "a"],
          ["a", "answered", "b"],
          ["b", "answered", "out"],
        ],
      ),
    );
    await setDefaultFlow(owner.token, connection.id, flow.id);
    const companyId = await activeCompanyId(owner.token);
    const waId = uniqueWaId();
    const session = contactSessionOf(env, companyId, "whatsapp-cloud", waId);
    await session.ingest(connection.id, inbound(waId, "começar"));
    const [first, second] = await Promise.all([session.ingest(connection.id, inbound(waId, "um")), session.ingest(connection.id, inbound(waId, "dois"))]);
    expect([first.status, second.status]).toEqual(["stored", "stored"]);
    expect(await waitForTexts(connection.phoneNumberId, 1)).toEqual(["um depois dois"]);
  });

  it("two messages in one webhook reach the run in the provider's order", async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    const { flow } = await publishedFlow(
      owner.token,
      flowDoc(
        [
          { id: "menu", type: "number", data: { message: "Escolha", options: [{ id: "a", title: "Pão" }, { id: "b", title: "Bolo" }], errorMessage: "Opção inválida" } },
          { id: "pao", type: "text", data: { message: "Pão!" } },
          { id: "bolo", type: "text", data: { message: "Bolo!" } },
        ],
        [
          ["start", "next", "menu"],
          ["menu", "option:a", "pao"],
          ["menu", "option:b", "bolo"],
        ],
      ),
    );
    await setDefaultFlow(owner.token, connection.id, flow.id);
    const waId = uniqueWaId();
    await deliverOk(textWebhook(connection.phoneNumberId, waId, wamid(), "oi"));
    await waitForTexts(connection.phoneNumberId, 1);
    await deliverOk(envelope(connection.phoneNumberId, { contacts: [{ wa_id: waId, name: "Maria" }], messages: [waMessage(waId, "text", { text: { body: "9" } }), waMessage(waId, "text", { text: { body: "2" } })] }));
    const texts = await waitForTexts(connection.phoneNumberId, 3);
    expect(texts.slice(1)).toEqual(["Opção inválida", "Bolo!"]);
  });
});

describe("effects", () => {
  it("sends uploaded media as a signed absolute URL, tags the contact and posts the pixel event hashed", async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    const holder = await expectStatus<{ id: string }>(await call("POST", "/api/flows", { token: owner.token, body: { name: "Mídia" } }), 201);
    const media = await expectStatus<{ url: string }>(await call("POST", `/api/flows/${holder.id}/media`, { token: owner.token, form: form({ file: pngFile("cardapio.png") }) }), 200);
    const draft = flowDoc(
      [
        { id: "pic", type: "image", data: { media: { url: media.url, mime: "image/png" }, message: "Cardápio" } },
        { id: "tag", type: "action", data: { actions: [{ kind: "add_tag", tag: "Viu cardápio" }, { kind: "custom_event", name: "menu_seen" }] } },
        { id: "px", type: "facebook_pixel", data: { pixelId: "1234567890", accessToken: "EAApixel", eventName: "ViewContent" } },
      ],
      [
        ["start", "next", "pic"],
        ["pic", "next", "tag"],
        ["tag", "next", "px"],
      ],
    );
    await expectStatus(await call("PUT", `/api/flows/${holder.id}`, { token: owner.token, body: { draft } }), 200);
    await expectStatus(await call("POST", `/api/flows/${holder.id}/publish`, { token: owner.token }), 200);
    await setDefaultFlow(owner.token, connection.id, holder.id);
    const companyId = await activeCompanyId(owner.token);
    const waId = uniqueWaId();
    await deliverOk(textWebhook(connection.phoneNumberId, waId, wamid(), "oi"));
    const sent = await until(() => sentTo(connection.phoneNumberId), (r) => r.length >= 1, "the image send");
    expect(sent[0]?.body).toMatchObject({ type: "image", image: { caption: "Cardápio" } });
    expect(JSON.stringify(sent[0]?.body)).toMatch(/"link":"http:\/\/localhost:8787\/api\/media\/media\//);
    const contactId = await contactIdOf(companyId, waId);
    await until(
      () => env.DB.prepare("SELECT COUNT(*) AS n FROM contact_tags ct JOIN tags t ON t.id = ct.tag_id WHERE ct.contact_id = ? AND t.name = 'Viu cardápio'").bind(contactId).first<{ n: number }>(),
      (row) => row?.n === 1,
      "the tag on the contact",
    );
    expect(await env.DB.prepare("SELECT name FROM custom_events WHERE contact_id = ?").bind(contactId).first<{ name: string }>()).toEqual({ name: "menu_seen" });
    const pixel = await until(
      async () => (await standInSent()).filter((r) => r.path.endsWith("/1234567890/events")),
      (r) => r.length === 1,
      "the Conversions API post",
    );
    expect(pixel[0]?.authorization).toBe("Bearer EAApixel");
    const body = JSON.stringify(pixel[0]?.body);
    expect(body).toContain('"event_name":"ViewContent"');
    expect(body).toContain('"action_source":"chat"');
    expect(body).not.toContain(waId);
    expect(body).toMatch(/"ph":\["[0-9a-f]{64}"\]/);
  });
});

describe("integration guard", () => {
  it("the integration block refuses a private address that answers, and takes its failure path", async () => {
    // The Graph API stand-in listens on loopback and answers GET /__sent with 200: without the guard
    // this flow would take its success path, so "recusado" proves the refusal, not an unreachable host.
    const loopback = `${env.META_STANDIN_ORIGIN}/__sent`;
    expect(new URL(loopback).hostname).toBe("127.0.0.1");
    expect((await fetch(loopback)).status).toBe(200);
    const { phoneNumberId } = await botSetup(
      flowDoc(
        [
          { id: "call", type: "integration", data: { method: "GET", url: loopback } },
          { id: "ok", type: "text", data: { message: "chamou" } },
          { id: "ko", type: "text", data: { message: "recusado" } },
        ],
        [
          ["start", "next", "call"],
          ["call", "success", "ok"],
          ["call", "failure", "ko"],
        ],
      ),
    );
    await deliverOk(textWebhook(phoneNumberId, uniqueWaId(), wamid(), "oi"));
    expect(await waitForTexts(phoneNumberId, 1)).toEqual(["recusado"]);
  });

  it("the performer checks the address again and never calls a private or local one", async () => {
    // The first address answers 200 when fetched directly (the loopback stand-in): only the guard stops it.
    const loopback = `${env.META_STANDIN_ORIGIN}/__sent`;
    expect((await fetch(loopback)).status).toBe(200);
    const cases: [string, string][] = [
      [loopback, "private_address"],
      ["http://127.0.0.1:8787/api/me", "private_address"],
      ["http://10.0.0.5/", "private_address"],
      ["http://[::1]/", "private_address"],
      ["http://localhost/", "local_name"],
      ["http://metadata.internal/", "local_name"],
      ["ftp://example.com/", "not_http"],
    ];
    for (const [url, refused] of cases) {
      expect(await performHttp({ method: "GET", url, headers: {}, body: null, timeoutMs: 1_000 }), url).toEqual({ ok: false, status: 0, body: "", refused });
    }
  });
});

describe("versions", () => {
  it("a running run keeps the version it started with after the draft changes and is republished", async () => {
    const v1 = flowDoc(
      [
        { id: "ask", type: "receive", data: { message: "Pergunta v1" } },
        { id: "end", type: "text", data: { message: "Fim v1" } },
      ],
      [
        ["start", "next", "ask"],
        ["ask", "answered", "end"],
      ],
    );
    const { owner, phoneNumberId, flowId, companyId } = await botSetup(v1);
    const waId = uniqueWaId();
    await deliverOk(textWebhook(phoneNumberId, waId, wamid(), "oi"));
    expect(await waitForTexts(phoneNumberId, 1)).toEqual(["Pergunta v1"]);
    const v2 = JSON.parse(JSON.stringify(v1).replaceAll("v1", "v2"));
    await expectStatus(await call("PUT", `/api/flows/${flowId}`, { token: owner.token, body: { draft: v2 } }), 200);
    await expectStatus(await call("POST", `/api/flows/${flowId}/publish`, { token: owner.token }), 200);
    await deliverOk(textWebhook(phoneNumberId, waId, wamid(), "resposta"));
    expect(await waitForTexts(phoneNumberId, 2)).toEqual(["Pergunta v1", "Fim v1"]);
    const runs = await expectStatus<FlowRunAnswer[]>(await call("GET", `/api/contacts/${await contactIdOf(companyId, waId)}/runs`, { token: owner.token }), 200);
    expect(runs[0]).toMatchObject({ version: 1, status: "done" });
  });
});

describe("runs", () => {
  it("a member starts a flow from the chat, sees the run on the contact and stops it", async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    const waId = uniqueWaId();
    await deliverOk(textWebhook(connection.phoneNumberId, waId, wamid(), "oi"));
    const ticket = await onlyTicket(owner.token);
    const { flow } = await publishedFlow(owner.token, flowDoc([{ id: "ask", type: "receive", data: { message: "Posso ajudar?" } }], [["start", "next", "ask"]]), "Ajuda");
    const started = await expectStatus<{ runId: string }>(await call("POST", `/api/tickets/${ticket.id}/start-flow`, { token: owner.token, body: { flowId: flow.id } }), 200);
    expect(await waitForTexts(connection.phoneNumberId, 1)).toEqual(["Posso ajudar?"]);
    const runs = await expectStatus<FlowRunAnswer[]>(await call("GET", `/api/contacts/${ticket.contact.id}/runs`, { token: owner.token }), 200);
    expect(runs[0]).toMatchObject({ id: started.runId, flowId: flow.id, flowName: "Ajuda", version: 1, nodeId: "ask", nodeType: "receive", status: "waiting", waitingFor: "reply", error: null });
    await expectStatus(await call("POST", `/api/contacts/${ticket.contact.id}/runs/${started.runId}/stop`, { token: owner.token }), 204);
    const after = await expectStatus<FlowRunAnswer[]>(await call("GET", `/api/contacts/${ticket.contact.id}/runs`, { token: owner.token }), 200);
    expect(after[0]).toMatchObject({ id: started.runId, status: "done", waitingFor: null });
    await expectError(await call("POST", `/api/contacts/${ticket.contact.id}/runs/${started.runId}/stop`, { token: owner.token }), 404, "not_found");
    // The reply now goes to the ticket only.
    await deliverOk(textWebhook(connection.phoneNumberId, waId, wamid(), "sim"));
    expect(await botTexts(connection.phoneNumberId)).toEqual(["Posso ajudar?"]);
  });

  it("start-flow validates, refuses unpublished flows, and hides other companies' tickets and contacts", async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    await deliverOk(textWebhook(connection.phoneNumberId, uniqueWaId(), wamid(), "oi"));
    const ticket = await onlyTicket(owner.token);
    const draftOnly = await expectStatus<{ id: string }>(await call("POST", "/api/flows", { token: owner.token, body: { name: "Rascunho" } }), 201);
    await expectError(await call("POST", `/api/tickets/${ticket.id}/start-flow`, { token: owner.token, body: { flowId: draftOnly.id } }), 409, "conflict");
    await expectInvalid(await call("POST", `/api/tickets/${ticket.id}/start-flow`, { token: owner.token, body: {} }), "flowId", "required");
    await expectError(await call("POST", `/api/tickets/${ticket.id}/start-flow`, { token: owner.token, body: { flowId: newId() } }), 404, "not_found");
    await expectError(await call("POST", `/api/tickets/${ticket.id}/start-flow`, { body: { flowId: draftOnly.id } }), 401, "unauthorized");
    const staff = await member(owner, ["flow"]);
    await expectError(await call("POST", `/api/tickets/${ticket.id}/start-flow`, { token: staff.token, body: { flowId: draftOnly.id } }), 403, "forbidden");
    await expectError(await call("GET", `/api/contacts/${ticket.contact.id}/runs`, { token: staff.token }), 403, "forbidden");
    const other = await register();
    const { flow: theirFlow } = await publishedFlow(other.token, flowDoc([{ id: "t", type: "text", data: { message: "x" } }], [["start", "next", "t"]]));
    await expectError(await call("POST", `/api/tickets/${ticket.id}/start-flow`, { token: other.token, body: { flowId: theirFlow.id } }), 404, "not_found");
    await expectError(await call("GET", `/api/contacts/${ticket.contact.id}/runs`, { token: other.token }), 404, "not_found");
    await expectError(await call("POST", `/api/contacts/${ticket.contact.id}/runs/${newId()}/stop`, { token: other.token }), 404, "not_found");
  });

  it("the loop guard stops a runaway run and records the error on it", async () => {
    const { owner, phoneNumberId, companyId } = await botSetup(
      flowDoc([{ id: "spin", type: "condition", data: { rules: [] } }], [
        ["start", "next", "spin"],
        ["spin", "true", "spin"],
      ]),
    );
    const waId = uniqueWaId();
    await deliverOk(textWebhook(phoneNumberId, waId, wamid(), "oi"));
    const runs = await expectStatus<FlowRunAnswer[]>(await call("GET", `/api/contacts/${await contactIdOf(companyId, waId)}/runs`, { token: owner.token }), 200);
    expect(runs[0]).toMatchObject({ status: "failed", error: { code: "loop_guard", nodeId: "spin" } });
  });
});

describe("/api/companies/default-flows", () => {
  it("reads and sets a connection's default flows, validating each slot", async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    const empty = await expectStatus<DefaultFlowsAnswer>(await call("GET", `/api/companies/default-flows?id=${connection.id}`, { token: owner.token }), 200);
    expect(empty).toEqual({ channelId: connection.id, defaultFlowId: null, mediaFlowId: null, campaignFlowId: null, storyFlowId: null });
    const { flow } = await publishedFlow(owner.token, flowDoc([{ id: "t", type: "text", data: { message: "x" } }], [["start", "next", "t"]]));
    const set = await expectStatus<DefaultFlowsAnswer>(
      await call("PUT", "/api/companies/default-flows", { token: owner.token, body: { channelId: connection.id, defaultFlowId: flow.id, mediaFlowId: flow.id } }),
      200,
    );
    expect(set).toMatchObject({ defaultFlowId: flow.id, mediaFlowId: flow.id, campaignFlowId: null });
    await expectInvalid(await call("PUT", "/api/companies/default-flows", { token: owner.token, body: { channelId: connection.id, storyFlowId: newId() } }), "storyFlowId", "invalid_id");
    await expectInvalid(await call("PUT", "/api/companies/default-flows", { token: owner.token, body: { defaultFlowId: flow.id } }), "channelId", "required");
    await expectInvalid(await call("GET", "/api/companies/default-flows?id=x", { token: owner.token }), "id", "invalid_id");
    await expectError(await call("GET", `/api/companies/default-flows?id=${connection.id}`), 401, "unauthorized");
    const staff = await member(owner, ["tickets"]);
    await expectError(await call("GET", `/api/companies/default-flows?id=${connection.id}`, { token: staff.token }), 403, "forbidden");
    const other = await register();
    await expectError(await call("GET", `/api/companies/default-flows?id=${connection.id}`, { token: other.token }), 404, "not_found");
    await expectError(await call("PUT", "/api/companies/default-flows", { token: other.token, body: { channelId: connection.id } }), 404, "not_found");
    const otherConnection = await cloudConnection(other.token);
    await expectInvalid(await call("PUT", "/api/companies/default-flows", { token: other.token, body: { channelId: otherConnection.id, defaultFlowId: flow.id } }), "defaultFlowId", "invalid_id");
  });
});
