/**
 * WhatsApp by QR code through Evolution API v2 (issue 15) against its loopback stand-in
 * (standins/evolution.ts): creating the instance with our secret webhook, pairing by QR and by
 * phone code, the status flipping live, each inbound event type through the pipeline, a send of
 * each type, redelivery stored once, a wrong path secret refused, disconnect and delete, and a
 * flow's list degraded to a numbered menu on this channel.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { connections, whatsappQrInstances, type ConnectionRow } from "../../schema";
import type { ConnectionAnswer } from "../routes/connections";
import { getDb } from "../lib/db";
import { listTickets, ticketMessages, until } from "../test/channel-helpers";
import { flowDoc, publishedFlow, setDefaultFlow } from "../test/flow-helpers";
import { type Account, activeCompanyId, call, countRows, expectInvalid, expectStatus, register } from "../test/helpers";
import { adapterFor } from ".";
import { EVOLUTION_EVENTS, EVOLUTION_WEBHOOK_PATH } from "./evolution";

type StandInInstance = { name: string; state: string; webhookUrl: string; events: string[]; number: string | null; qr: string; pairingCode: string | null };
type StandInSend = { path: string; action: string; body: Record<string, unknown>; id?: string };
type Emitted = { url: string; envelope: unknown };

const evo = (path: string, init?: RequestInit) => fetch(`${env.EVOLUTION_STANDIN_ORIGIN}${path}`, init);

async function instance(connectionId: string): Promise<StandInInstance> {
  const all = (await (await evo("/__instances")).json()) as StandInInstance[];
  const found = all.find((i) => i.name === `conversa-${connectionId}`);
  expect(found, `no instance for ${connectionId}`).toBeDefined();
  return found!;
}

async function sends(connectionId: string): Promise<StandInSend[]> {
  return (await (await evo(`/__sends/conversa-${connectionId}`)).json()) as StandInSend[];
}

/** Asks the stand-in for a control event without posting it (the worker runs inside workerd), then delivers it to the worker. */
async function emit(connectionId: string, control: string, body: unknown = {}): Promise<Response> {
  const res = await evo(`/${control}/conversa-${connectionId}?deliver=0`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const emitted = (await res.json()) as Emitted;
  return deliverTo(emitted.url, emitted.envelope);
}

function deliverTo(url: string, envelope: unknown): Promise<Response> {
  const path = new URL(url).pathname;
  return call("POST", path, { body: envelope });
}

/** A customer's messages.upsert (Evolution 2.3 shape). */
function upsert(from: string, id: string, message: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    event: "messages.upsert",
    data: {
      key: { remoteJid: `${from}@s.whatsapp.net`, fromMe: false, id },
      pushName: "Maria",
      status: "DELIVERY_ACK",
      message,
      messageType: Object.keys(message)[0],
      messageTimestamp: Math.floor(Date.now() / 1000),
      instanceId: "i-1",
      source: "android",
      ...extra,
    },
  };
}

let seq = 0;
const msgId = () => `3A${Date.now().toString(16).toUpperCase()}${(seq += 1)}`;
const customer = () => `55119${String(Date.now() % 1e8).padStart(8, "0")}${seq % 10}`.slice(0, 13);

async function hubBodies(companyId: string): Promise<string[]> {
  const hub = env.COMPANY_HUB.get(env.COMPANY_HUB.idFromName(companyId));
  return runInDurableObject(hub, (_, state) => state.storage.sql.exec<{ body: string }>("SELECT body FROM events").toArray().map((e) => e.body));
}

async function qrConnection(token: string, body: Record<string, unknown> = {}): Promise<ConnectionAnswer> {
  return expectStatus<ConnectionAnswer>(await call("POST", "/api/connections", { token, body: { channel: "whatsapp-qr", name: `WhatsApp ${++seq}`, ...body } }), 201);
}

async function rowOf(id: string): Promise<ConnectionRow> {
  return (await getDb(env.DB).query.connections.findFirst({ where: eq(connections.id, id) }))!;
}

describe("WhatsApp by QR code: connection and pairing", () => {
  let owner: Account;
  let companyId: string;
  beforeAll(async () => {
    owner = await register({ companyName: "Loja QR" });
    companyId = await activeCompanyId(owner.token);
  });

  it("creating a connection creates a Baileys instance with our secret webhook and events; only the secret's hash is kept", async () => {
    const created = await qrConnection(owner.token);
    expect(created).toMatchObject({ channel: "whatsapp-qr", status: "DISCONNECTED", connected: false });
    const made = await instance(created.id);
    expect(made.state).toBe("connecting");
    expect(made.events).toEqual([...EVOLUTION_EVENTS]);
    const url = new URL(made.webhookUrl);
    expect(url.origin).toBe(env.PUBLIC_URL);
    expect(url.pathname.startsWith(EVOLUTION_WEBHOOK_PATH)).toBe(true);
    const secret = url.pathname.slice(EVOLUTION_WEBHOOK_PATH.length);
    const row = await getDb(env.DB).query.whatsappQrInstances.findFirst({ where: eq(whatsappQrInstances.connectionId, created.id) });
    expect(row!.webhookSecretHash).not.toContain(secret);
    expect(JSON.stringify(row)).not.toContain(secret);
  });

  it("a connection with its own server keeps the URL and key encrypted and never returns them", async () => {
    const created = await qrConnection(owner.token, { evolutionUrl: env.EVOLUTION_API_URL, evolutionApiKey: env.EVOLUTION_API_KEY });
    expect(JSON.stringify(created)).not.toContain(env.EVOLUTION_API_KEY);
    const row = await getDb(env.DB).query.whatsappQrInstances.findFirst({ where: eq(whatsappQrInstances.connectionId, created.id) });
    expect(row!.apiKeyEnc).toBeTruthy();
    expect(row!.apiKeyEnc).not.toContain(env.EVOLUTION_API_KEY);
    expect(row!.apiUrlEnc).not.toContain("127.0.0.1");
    // A key the server refuses: 400 naming the field, nothing stored.
    const before = await countRows("connections", "company_id = ?", companyId);
    await expectInvalid(await call("POST", "/api/connections", { token: owner.token, body: { channel: "whatsapp-qr", name: "Bad key", evolutionUrl: env.EVOLUTION_API_URL, evolutionApiKey: "wrong-key-123" } }), "evolutionApiKey", "rejected");
    expect(await countRows("connections", "company_id = ?", companyId)).toBe(before);
  });

  it("pairs by QR: the dialog gets the instance's QR, a QRCODE_UPDATED refreshes it (hub signal), and the scan flips the status live", async () => {
    const created = await qrConnection(owner.token);
    const first = await expectStatus<{ qrValue: string; code: string; expiresAt: number }>(await call("POST", `/api/connections/${created.id}/pair`, { token: owner.token }), 200);
    expect(first.qrValue).toBe((await instance(created.id)).qr);
    expect(first.code).toBe("");
    expect(first.expiresAt).toBeGreaterThan(Date.now());

    await expectStatus(await emit(created.id, "__qr"), 200);
    const renewed = (await instance(created.id)).qr;
    expect(renewed).not.toBe(first.qrValue);
    expect((await hubBodies(companyId)).some((b) => b.includes('"connection.pairing"') && b.includes(created.id))).toBe(true);
    const row = await getDb(env.DB).query.whatsappQrInstances.findFirst({ where: eq(whatsappQrInstances.connectionId, created.id) });
    expect(row!.qrCode).toBe(renewed);
    const second = await expectStatus<{ qrValue: string }>(await call("POST", `/api/connections/${created.id}/pair`, { token: owner.token }), 200);
    expect(second.qrValue).toBe(renewed);

    await expectStatus(await emit(created.id, "__scan", { number: "5511955551234" }), 200);
    const after = await expectStatus<ConnectionAnswer>(await call("GET", `/api/connections/${created.id}`, { token: owner.token }), 200);
    expect(after).toMatchObject({ status: "CONNECTED", connected: true, phone: "+5511955551234" });
    expect((await hubBodies(companyId)).some((b) => b.includes('"connection.updated"') && b.includes(created.id) && b.includes("CONNECTED"))).toBe(true);
  });

  it("pairs by phone code: a connection with its number gets Evolution's pairing code", async () => {
    const created = await qrConnection(owner.token, { phone: "+5511955554321" });
    const pairing = await expectStatus<{ qrValue: string; code: string }>(await call("POST", `/api/connections/${created.id}/pair`, { token: owner.token }), 200);
    const made = await instance(created.id);
    expect(made.pairingCode).toMatch(/^[A-Z0-9]{8}$/);
    expect(pairing.code).toBe(made.pairingCode);
    expect(made.number).toBe("5511955554321");
  });

  it("disconnecting logs the instance out; a close event keeps it DISCONNECTED; deleting the connection deletes the instance", async () => {
    const created = await qrConnection(owner.token);
    await emit(created.id, "__scan");
    expect((await rowOf(created.id)).status).toBe("CONNECTED");
    const disconnected = await expectStatus<ConnectionAnswer>(await call("POST", `/api/connections/${created.id}/disconnect`, { token: owner.token }), 200);
    expect(disconnected.status).toBe("DISCONNECTED");
    expect((await instance(created.id)).state).toBe("close");
    await expectStatus(await call("DELETE", `/api/connections/${created.id}`, { token: owner.token }), 204);
    const all = (await (await evo("/__instances")).json()) as StandInInstance[];
    expect(all.some((i) => i.name === `conversa-${created.id}`)).toBe(false);
    expect(await countRows("whatsapp_qr_instances", "connection_id = ?", created.id)).toBe(0);
  });

  it("a CONNECTION_UPDATE close from the server turns the connection DISCONNECTED", async () => {
    const created = await qrConnection(owner.token);
    await emit(created.id, "__scan");
    await emit(created.id, "__event", { event: "connection.update", data: { instance: `conversa-${created.id}`, state: "close", statusReason: 401 } });
    expect((await rowOf(created.id)).status).toBe("DISCONNECTED");
  });
});

describe("WhatsApp by QR code: inbound events", () => {
  let owner: Account;
  let qr: ConnectionAnswer;
  beforeAll(async () => {
    owner = await register({ companyName: "Loja QR Inbound" });
    qr = await qrConnection(owner.token);
    await emit(qr.id, "__scan");
  });

  async function messagesOf(from: string) {
    const tickets = await listTickets(owner.token);
    const ticket = tickets.results.find((t) => t.contact.phone === `+${from}`);
    expect(ticket, JSON.stringify(tickets.results.map((t) => t.contact))).toBeDefined();
    return (await ticketMessages(owner.token, ticket!.id, "limit=100")).results;
  }

  it("a text message opens a ticket under the customer's number and name; the same webhook twice stores it once", async () => {
    const from = customer();
    const id = msgId();
    const event = upsert(from, id, { conversation: "Oi, tudo bem?" });
    const first = await expectStatus<{ stored: number }>(await emit(qr.id, "__event", event), 200);
    expect(first.stored).toBe(1);
    const again = await expectStatus<{ stored: number; duplicates: number }>(await emit(qr.id, "__event", event), 200);
    expect(again).toMatchObject({ stored: 0, duplicates: 1 });
    const list = await messagesOf(from);
    expect(list.filter((m) => m.body === "Oi, tudo bem?")).toHaveLength(1);
    const tickets = await listTickets(owner.token);
    expect(tickets.results.find((t) => t.contact.phone === `+${from}`)?.contact.name).toBe("Maria");
  });

  it("an image is fetched from Evolution (getBase64FromMediaMessage) and stored in R2, with its caption; a quoted reply links its message", async () => {
    const from = customer();
    const imageId = msgId();
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
    await expectStatus(await emit(qr.id, "__event", { ...upsert(from, imageId, { imageMessage: { mimetype: "image/png", caption: "Olha a foto", url: "https://mmg.whatsapp.net/x" } }), media: { base64: png, mimetype: "image/png" } }), 200);
    const replyId = msgId();
    await expectStatus(await emit(qr.id, "__event", upsert(from, replyId, { conversation: "essa aqui" }, { contextInfo: { stanzaId: imageId } })), 200);
    const list = await messagesOf(from);
    const image = list.find((m) => m.type === "image");
    expect(image).toMatchObject({ body: "Olha a foto", direction: "in" });
    expect(image!.media?.url).toBeTruthy();
    const stored = await env.DB.prepare("SELECT media_key, media_mime FROM messages WHERE external_id = ?").bind(imageId).first<{ media_key: string; media_mime: string }>();
    expect(stored!.media_mime).toBe("image/png");
    expect(await env.FILES.head(stored!.media_key)).not.toBeNull();
    const reply = list.find((m) => m.body === "essa aqui");
    expect(reply!.quoted?.id).toBe(image!.id);
  });

  it("a reaction lands on its message; MESSAGES_DELETE revokes one", async () => {
    const from = customer();
    const id = msgId();
    await emit(qr.id, "__event", upsert(from, id, { conversation: "vou apagar" }));
    await emit(qr.id, "__event", upsert(from, msgId(), { reactionMessage: { key: { remoteJid: `${from}@s.whatsapp.net`, fromMe: false, id }, text: "👍" } }));
    await until(
      () => messagesOf(from),
      (list) => JSON.stringify(list.find((m) => m.body === "vou apagar")?.reactions ?? []).includes("👍"),
      "the reaction",
    );
    await expectStatus(await emit(qr.id, "__event", { event: "messages.delete", data: { remoteJid: `${from}@s.whatsapp.net`, fromMe: false, id } }), 200);
    const row = await env.DB.prepare("SELECT deleted_at FROM messages WHERE external_id = ?").bind(id).first<{ deleted_at: number | null }>();
    expect(row!.deleted_at).toBeTypeOf("number");
  });

  it("a message sent on the phone itself (fromMe) is stored as the company's, once", async () => {
    const from = customer();
    await emit(qr.id, "__event", upsert(from, msgId(), { conversation: "Quero comprar" }));
    const id = msgId();
    const fromPhone = upsert(from, id, { conversation: "Claro! Qual tamanho?" });
    fromPhone.data.key.fromMe = true;
    await expectStatus(await emit(qr.id, "__event", fromPhone), 200);
    await expectStatus(await emit(qr.id, "__event", fromPhone), 200);
    const list = await messagesOf(from);
    const mine = list.filter((m) => m.body === "Claro! Qual tamanho?");
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ direction: "out", status: "sent" });
  });

  it("MESSAGES_UPDATE moves our message to delivered, then read; the echo of our own send is not stored again", async () => {
    const from = customer();
    await emit(qr.id, "__event", upsert(from, msgId(), { conversation: "Oi" }));
    const ticket = (await listTickets(owner.token)).results.find((t) => t.contact.phone === `+${from}`)!;
    await expectStatus(await call("POST", `/api/tickets/${ticket.id}/messages`, { token: owner.token, body: { type: "text", body: "Olá, como posso ajudar?" } }), 201);
    const sent = await until(
      () => ticketMessages(owner.token, ticket.id, "limit=100"),
      (page) => page.results.some((m) => m.direction === "out" && m.status === "sent"),
      "the send",
    );
    const externalId = (await env.DB.prepare("SELECT external_id FROM messages WHERE ticket_id = ? AND direction = 'out'").bind(ticket.id).first<{ external_id: string }>())!.external_id;
    expect(sent.results.length).toBeGreaterThan(1);
    expect((await sends(qr.id)).some((s) => s.action === "sendText" && s.body.text === "Olá, como posso ajudar?" && s.body.number === from)).toBe(true);
    // Evolution reports our own send back as a fromMe upsert: it is not stored a second time.
    const echo = upsert(from, externalId, { conversation: "Olá, como posso ajudar?" });
    echo.data.key.fromMe = true;
    await expectStatus(await emit(qr.id, "__event", echo), 200);
    expect(await countRows("messages", "ticket_id = ? AND direction = 'out'", ticket.id)).toBe(1);
    for (const status of ["DELIVERY_ACK", "READ"]) {
      await expectStatus(await emit(qr.id, "__event", { event: "messages.update", data: { keyId: externalId, remoteJid: `${from}@s.whatsapp.net`, fromMe: true, status, instanceId: "i-1" } }), 200);
    }
    const row = await env.DB.prepare("SELECT status FROM messages WHERE external_id = ?").bind(externalId).first<{ status: string }>();
    expect(row!.status).toBe("read");
  });

  it("a wrong path secret answers 401 and stores nothing", async () => {
    const before = await countRows("messages");
    const made = await instance(qr.id);
    const wrong = made.webhookUrl.replace(/[^/]+$/, "A".repeat(43));
    const res = await deliverTo(wrong, { instance: made.name, ...upsert(customer(), msgId(), { conversation: "intruso" }) });
    expect(res.status).toBe(401);
    expect(await countRows("messages")).toBe(before);
    expect((await call("POST", "/api/channels/evolution/webhook/short", { body: {} })).status).toBe(401);
  });

  it("a body of another instance answers 400", async () => {
    const made = await instance(qr.id);
    const res = await deliverTo(made.webhookUrl, { ...upsert(customer(), msgId(), { conversation: "x" }), instance: "someone-else" });
    expect(res.status).toBe(400);
  });
});

describe("WhatsApp by QR code: sends", () => {
  let owner: Account;
  let qr: ConnectionAnswer;
  let row: ConnectionRow;
  beforeAll(async () => {
    owner = await register({ companyName: "Loja QR Envios" });
    qr = await qrConnection(owner.token);
    await emit(qr.id, "__scan");
    row = await rowOf(qr.id);
  });

  it("sends text (quoting), media, a voice note, a contact card and presence; the stand-in records each", async () => {
    const adapter = adapterFor(env, row);
    const to = { externalId: "5511966660001", phone: "+5511966660001" };
    const url = "https://app.example/api/media/x?sig=1";
    expect(await adapter.send(row, to, { type: "text", body: "Oi", quotedExternalId: "3AQUOTED" })).toMatchObject({ ok: true });
    expect(await adapter.send(row, to, { type: "image", media: { url, mime: "image/jpeg" }, caption: "Foto" })).toMatchObject({ ok: true });
    expect(await adapter.send(row, to, { type: "document", media: { url, mime: "application/pdf", fileName: "nota.pdf" } })).toMatchObject({ ok: true });
    expect(await adapter.send(row, to, { type: "audio", media: { url, mime: "audio/ogg" } })).toMatchObject({ ok: true });
    expect(await adapter.send(row, to, { type: "contact", contact: { name: "Suporte", phone: "+551140000000" } })).toMatchObject({ ok: true });
    await adapter.presence(row, to, "typing");
    const recorded = await sends(qr.id);
    expect(recorded.find((s) => s.action === "sendText")?.body).toEqual({ number: "5511966660001", text: "Oi", quoted: { key: { id: "3AQUOTED" } } });
    expect(recorded.find((s) => s.action === "sendMedia" && s.body.mediatype === "image")?.body).toMatchObject({ number: "5511966660001", media: url, mimetype: "image/jpeg", caption: "Foto" });
    expect(recorded.find((s) => s.action === "sendMedia" && s.body.mediatype === "document")?.body).toMatchObject({ fileName: "nota.pdf" });
    expect(recorded.find((s) => s.action === "sendWhatsAppAudio")?.body).toEqual({ number: "5511966660001", audio: url });
    expect(recorded.find((s) => s.action === "sendContact")?.body).toEqual({ number: "5511966660001", contact: [{ fullName: "Suporte", wuid: "551140000000", phoneNumber: "+551140000000" }] });
    expect(recorded.find((s) => s.action === "sendPresence")?.body).toMatchObject({ number: "5511966660001", presence: "composing" });
  });

  it("maps failures: a number not on WhatsApp is permanent; an unpaired instance is a refusal", async () => {
    const adapter = adapterFor(env, row);
    expect(await adapter.send(row, { externalId: "5511900000000" }, { type: "text", body: "Oi" })).toMatchObject({ ok: false, errorCode: "not_on_whatsapp", retryable: false });
    const other = await qrConnection(owner.token);
    const otherRow = await rowOf(other.id);
    expect(await adapterFor(env, otherRow).send(otherRow, { externalId: "5511966660001" }, { type: "text", body: "Oi" })).toMatchObject({ ok: false, errorCode: "evolution_rejected", retryable: false });
  });

  it("a flow's list goes out as a numbered menu on this channel, and the answer \"2\" follows the second option", async () => {
    const draft = flowDoc(
      [
        { id: "menu", type: "list", data: { message: "Como posso ajudar?", buttonText: "Ver", sectionTitle: "Opções", responses: [{ id: "a", title: "Vendas" }, { id: "b", title: "Suporte" }], errorLimit: 0 } },
        { id: "sales", type: "text", data: { message: "Vendas, um momento." } },
        { id: "support", type: "text", data: { message: "Suporte, um momento." } },
      ],
      [
        ["start", "next", "menu"],
        ["menu", "option:a", "sales"],
        ["menu", "option:b", "support"],
      ],
    );
    const { flow } = await publishedFlow(owner.token, draft, "Menu");
    await setDefaultFlow(owner.token, qr.id, flow.id);
    const from = "5511977770002";
    await emit(qr.id, "__event", upsert(from, msgId(), { conversation: "oi" }));
    const menu = await until(
      () => sends(qr.id),
      (list) => list.some((s) => s.body.number === from && String(s.body.text).includes("1. Vendas")),
      "the numbered menu",
    );
    expect(menu.find((s) => s.body.number === from)?.body.text).toBe("Como posso ajudar?\n\n1. Vendas\n2. Suporte");
    await emit(qr.id, "__event", upsert(from, msgId(), { conversation: "2" }));
    await until(
      () => sends(qr.id),
      (list) => list.some((s) => s.body.number === from && s.body.text === "Suporte, um momento."),
      "the second option's answer",
    );
  });
});
