import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { MessageAnswer } from "../../schema/realtime";
import { signHub } from "../lib/hmac";
import { signedMediaUrl } from "../lib/media";
import {
  ACCESS_TOKEN,
  APP_SECRET,
  VERIFY_TOKEN,
  addStandInMedia,
  cloudConnection,
  deliver,
  deliverOk,
  deliverRaw,
  envelope,
  listTickets,
  messageWebhook,
  onlyTicket,
  pairSandbox,
  sandboxConnection,
  receive,
  sentTo,
  someBytes,
  textWebhook,
  ticketMessages,
  uniquePhoneNumberId,
  uniqueWaId,
  until,
  waMessage,
  wamid,
} from "../test/channel-helpers";
import { mediaBytes } from "../test/media-fixtures";
import { call, countRows, expectStatus, register } from "../test/helpers";

/** Rows of the company behind `connectionId` in the pipeline's tables. */
async function storedFor(connectionId: string) {
  return {
    messages: await countRows("messages", "connection_id = ?", connectionId),
    tickets: await countRows("tickets", "connection_id = ?", connectionId),
  };
}

describe("WhatsApp webhook verification handshake", () => {
  it("the right verify token echoes hub.challenge as text/plain with 200", async () => {
    const res = await call("GET", `/api/channels/whatsapp/webhook?hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=${VERIFY_TOKEN}`);
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/plain/);
    expect(text).toBe("1158201444");
  });

  it("a wrong verify token, a wrong mode or a missing token answers 403", async () => {
    for (const query of [
      "hub.mode=subscribe&hub.challenge=42&hub.verify_token=wrong-token",
      "hub.mode=unsubscribe&hub.challenge=42&hub.verify_token=" + VERIFY_TOKEN,
      "hub.challenge=42&hub.verify_token=" + VERIFY_TOKEN,
      "hub.mode=subscribe&hub.challenge=42",
      "hub.mode=subscribe&hub.challenge=42&hub.verify_token=" + VERIFY_TOKEN.slice(0, -1),
    ]) {
      const res = await call("GET", `/api/channels/whatsapp/webhook?${query}`);
      const text = await res.text();
      expect(res.status, `${query}: ${text}`).toBe(403);
      expect(text).not.toContain("42");
    }
  });
});

describe("WhatsApp Cloud API webhook", () => {
  it("the same webhook delivered three times stores one message in one pending ticket", async () => {
    const owner = await register();
    const { phoneNumberId } = await cloudConnection(owner.token);
    const payload = textWebhook(phoneNumberId, uniqueWaId(), wamid(), "Olá");
    for (let i = 0; i < 3; i++) await expectStatus(await deliver(payload), 200);
    const list = await listTickets(owner.token);
    expect(list.total).toBe(1);
    expect(list.results[0]?.status).toBe("pending");
    expect(list.results[0]?.lastMessagePreview).toBe("Olá");
    expect(list.results[0]?.unreadCount).toBe(1);
    const messages = await ticketMessages(owner.token, list.results[0]!.id);
    expect(messages.results.map((m) => m.body)).toEqual(["Olá"]);
  });

  it("the same webhook delivered three times concurrently still stores one message", async () => {
    const owner = await register();
    const { phoneNumberId } = await cloudConnection(owner.token);
    const payload = textWebhook(phoneNumberId, uniqueWaId(), wamid(), "Ao mesmo tempo");
    const answers = await Promise.all([deliver(payload), deliver(payload), deliver(payload)]);
    for (const res of answers) await expectStatus(res, 200);
    const ticket = await onlyTicket(owner.token);
    expect((await ticketMessages(owner.token, ticket.id)).results.map((m) => m.body)).toEqual(["Ao mesmo tempo"]);
  });

  it("a bad or missing signature answers 401 and stores nothing", async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    const payload = textWebhook(connection.phoneNumberId, uniqueWaId(), wamid(), "hi");
    const raw = JSON.stringify(payload);
    await expectStatus(await deliver(payload, "wrong-secret"), 401);
    await expectStatus(await deliverRaw(raw), 401);
    await expectStatus(await deliverRaw(raw, ""), 401);
    await expectStatus(await deliverRaw(raw, "sha256="), 401);
    await expectStatus(await deliverRaw(raw, "sha256=zz"), 401);
    // A valid signature of other bytes (e.g. the payload re-serialised differently) is refused too.
    await expectStatus(await deliverRaw(raw, await signHub(APP_SECRET, JSON.stringify(payload, null, 2))), 401);
    // The signature without its "sha256=" prefix.
    await expectStatus(await deliverRaw(raw, (await signHub(APP_SECRET, raw)).slice("sha256=".length)), 401);
    expect(await storedFor(connection.id)).toEqual({ messages: 0, tickets: 0 });
  });

  it("the signature is checked over the raw bytes: Meta's escaped unicode is accepted as signed", async () => {
    const owner = await register();
    const { phoneNumberId } = await cloudConnection(owner.token);
    const id = wamid();
    // Meta signs its own escaping (\u00e1); re-serialising would change the bytes and the HMAC.
    const raw = JSON.stringify(textWebhook(phoneNumberId, uniqueWaId(), id, "PLACEHOLDER")).replace("PLACEHOLDER", "Ol\\u00e1 \\ud83d\\ude00");
    await expectStatus(await deliverRaw(raw, await signHub(APP_SECRET, raw)), 200);
    const ticket = await onlyTicket(owner.token);
    expect((await ticketMessages(owner.token, ticket.id)).results[0]?.body).toBe("Olá 😀");
  });

  it("a signed body that is not JSON answers 400 and stores nothing", async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    for (const raw of ["{not json", "", `{"object":"whatsapp_business_account","entry":[`]) {
      const res = await deliverRaw(raw, await signHub(APP_SECRET, raw));
      const body = await expectStatus<{ error: { code: string } }>(res, 400);
      expect(body.error.code).toBe("validation_failed");
    }
    expect(await storedFor(connection.id)).toEqual({ messages: 0, tickets: 0 });
  });

  it("signed JSON that is not a WhatsApp Business Account envelope answers 400", async () => {
    for (const payload of [
      { hello: "world" },
      { object: "page", entry: [] },
      { object: "whatsapp_business_account" },
      { object: "whatsapp_business_account", entry: "nope" },
      { object: "whatsapp_business_account", entry: [{ changes: "nope" }] },
      [],
      null,
      "text",
      42,
    ]) {
      const body = await expectStatus<{ error: { code: string } }>(await deliver(payload), 400);
      expect(body.error.code, JSON.stringify(payload)).toBe("validation_failed");
    }
  });

  it("odd but valid shapes are stored as placeholders or skipped, never a 500", async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    const { phoneNumberId } = connection;
    const from = uniqueWaId();
    const noBody = wamid();
    const extra = wamid();
    const mediaNoId = wamid();
    const odd: unknown[] = [
      // A text message without its body: kept as a placeholder.
      messageWebhook(phoneNumberId, waMessage(from, "text", { text: {} }, { id: noBody, ts: 1_700_000_001 })),
      // Unknown fields everywhere: ignored, the message is stored as text.
      {
        ...envelope(phoneNumberId, {
          contacts: [{ wa_id: from, name: "Maria" }],
          messages: [{ ...waMessage(from, "text", { text: { body: "extra", future: true } }, { id: extra, ts: 1_700_000_002 }), brand_new: { x: 1 } }],
        }),
        surprise: [1, 2, 3],
      },
      // An image without its media id: a placeholder, not a crash.
      messageWebhook(phoneNumberId, waMessage(from, "image", { image: { mime_type: "image/jpeg" } }, { id: mediaNoId, ts: 1_700_000_003 })),
      // A message without `from` or `id` cannot be stored; the rest of the payload is fine.
      envelope(phoneNumberId, { messages: [{ type: "text", text: { body: "who?" } }, "garbage", 17, null] }),
      // A change of another field (account updates), or without metadata: skipped.
      { object: "whatsapp_business_account", entry: [{ id: "WABA", changes: [{ field: "account_update", value: { event: "VERIFIED" } }] }] },
      { object: "whatsapp_business_account", entry: [{ id: "WABA", changes: [{ field: "messages", value: { messages: [] } }] }] },
      { object: "whatsapp_business_account", entry: [{ id: "WABA", changes: [{ field: "messages", value: null }] }] },
      { object: "whatsapp_business_account", entry: [] },
      // Statuses of unknown kinds or for unknown messages.
      envelope(phoneNumberId, { statuses: [{ id: wamid(), status: "played", timestamp: "1700000000" }, { id: 5 }, "x"] }),
      envelope(phoneNumberId, { statuses: [{ id: wamid(), status: "read", timestamp: "not a number" }] }),
      // An errors-only change (Meta's out-of-band errors).
      { object: "whatsapp_business_account", entry: [{ id: "WABA", changes: [{ field: "messages", value: { metadata: { phone_number_id: phoneNumberId }, errors: [{ code: 131000 }] } }] }] },
    ];
    for (const payload of odd) {
      const res = await deliver(payload);
      const text = await res.text();
      expect(res.status, `${JSON.stringify(payload)} → ${res.status} ${text}`).toBe(200);
    }
    const ticket = await onlyTicket(owner.token);
    const page = await ticketMessages(owner.token, ticket.id);
    expect(page.results.map((m) => [m.type, m.body])).toEqual([
      ["unsupported", ""],
      ["text", "extra"],
      ["unsupported", ""],
    ]);
    expect(page.results[0]?.payload).toMatchObject({ providerType: "text" });
    expect(page.results[2]?.payload).toMatchObject({ providerType: "image" });
  });

  it("a phone_number_id of no connection answers 200 and stores nothing", async () => {
    const id = wamid();
    const from = uniqueWaId();
    const res = await deliver(textWebhook(uniquePhoneNumberId(), from, id, "anyone there?"));
    const body = await expectStatus<{ ok: boolean; stored: number }>(res, 200);
    expect(body.stored).toBe(0);
    expect(await countRows("messages", "external_id = ?", id)).toBe(0);
    expect(await countRows("contacts", "phone = ?", `+${from}`)).toBe(0);
    expect(await countRows("contact_identities", "external_id = ?", from)).toBe(0);
  });

  it("one payload with changes for two connections stores each message in its own company", async () => {
    const a = await register();
    const b = await register();
    const ca = await cloudConnection(a.token);
    const cb = await cloudConnection(b.token);
    const pa = envelope(ca.phoneNumberId, { messages: [waMessage(uniqueWaId(), "text", { text: { body: "para A" } })] });
    const pb = envelope(cb.phoneNumberId, { messages: [waMessage(uniqueWaId(), "text", { text: { body: "para B" } })] });
    const entries = (p: Record<string, unknown>) => p.entry as unknown[];
    await deliverOk({ object: "whatsapp_business_account", entry: [...entries(pa), ...entries(pb)] });
    expect((await onlyTicket(a.token)).lastMessagePreview).toBe("para A");
    expect((await onlyTicket(b.token)).lastMessagePreview).toBe("para B");
  });
});

describe("each inbound message type is stored right", () => {
  async function setup() {
    const owner = await register();
    const { phoneNumberId } = await cloudConnection(owner.token);
    return { owner, phoneNumberId, from: uniqueWaId() };
  }

  it("a text message is stored with its body, the contact's profile name and E.164 phone", async () => {
    const { owner, phoneNumberId, from } = await setup();
    const message = await receive(owner.token, phoneNumberId, waMessage(from, "text", { text: { body: "Bom dia" } }, { ts: 1_700_000_123 }));
    expect(message).toMatchObject({ direction: "in", type: "text", body: "Bom dia", status: "received", sentAt: 1_700_000_123_000, media: null, quoted: null });
    const ticket = await onlyTicket(owner.token);
    expect(ticket.contact).toMatchObject({ name: "Maria", phone: `+${from}` });
  });

  for (const [type, mime, extra] of [
    ["image", "image/jpeg", { caption: "Foto do pedido" }],
    ["audio", "audio/ogg", {}],
    ["video", "video/mp4", { caption: "Vídeo" }],
    ["document", "application/pdf", { caption: "Nota fiscal", filename: "nota.pdf" }],
    ["sticker", "image/webp", {}],
  ] as const) {
    it(`an inbound ${type} is fetched from the Graph API, stored in R2 and served through a signed URL`, async () => {
      const { owner, phoneNumberId, from } = await setup();
      const mediaId = `${Date.now()}${Math.floor(Math.random() * 1e9)}`;
      const bytes = mediaBytes(mime, 2048, type.length);
      await addStandInMedia(mediaId, mime, bytes);
      const message = await receive(owner.token, phoneNumberId, waMessage(from, type, { [type]: { id: mediaId, mime_type: mime, sha256: "abc", ...extra } }));
      expect(message.type).toBe(type);
      expect(message.body).toBe("caption" in extra ? extra.caption : "");
      expect(message.media, JSON.stringify(message)).not.toBeNull();
      expect(message.media?.mime).toBe(mime);
      expect(message.media?.size).toBe(bytes.byteLength);
      if ("filename" in extra) expect(message.media?.name).toBe(extra.filename);
      const url = message.media!.url;
      expect(url).toMatch(/^\/api\/media\/media\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.[a-z0-9]+\?exp=\d+&sig=[0-9a-f]{64}$/);
      const res = await call("GET", url);
      if (res.status !== 200) expect.fail(`${res.status} ${await res.text()}`);
      expect(res.headers.get("Content-Type")).toBe(mime);
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
      // The adapter fetched the media with the connection's bearer token.
      const lookups = (await (await fetch(`${env.META_STANDIN_ORIGIN}/__sent`)).json()) as { method: string; path: string; authorization: string }[];
      const lookup = lookups.find((r) => r.method === "GET" && r.path.endsWith(`/${mediaId}`));
      expect(lookup?.authorization).toBe(`Bearer ${ACCESS_TOKEN}`);
    });
  }

  it("a media URL with a bad signature, a changed expiry or an expired signature answers 403", async () => {
    const { owner, phoneNumberId, from } = await setup();
    const mediaId = `${Date.now()}${Math.floor(Math.random() * 1e9)}`;
    await addStandInMedia(mediaId, "image/png", someBytes(64));
    const message = await receive(owner.token, phoneNumberId, waMessage(from, "image", { image: { id: mediaId, mime_type: "image/png" } }));
    const url = new URL(message.media!.url, "http://localhost");
    const key = url.pathname.slice("/api/media/".length);
    const sig = url.searchParams.get("sig")!;
    const exp = Number(url.searchParams.get("exp"));
    const flipped = sig.slice(0, -1) + (sig.endsWith("0") ? "1" : "0");
    const expired = new URL(await signedMediaUrl(env, key, Date.now() - 7 * 60 * 60 * 1000), "http://localhost");
    for (const bad of [
      `/api/media/${key}?exp=${exp}&sig=${flipped}`,
      `/api/media/${key}?exp=${exp + 1000}&sig=${sig}`,
      `/api/media/${key}?exp=${exp}`,
      `/api/media/${key}`,
      `${expired.pathname}${expired.search}`,
    ]) {
      const res = await call("GET", bad);
      const text = await res.text();
      expect(res.status, `${bad}: ${text}`).toBe(403);
      expect(text).not.toContain("\u0000");
    }
  });

  it("media the provider cannot deliver keeps the message, without media and with the reason", async () => {
    const { owner, phoneNumberId, from } = await setup();
    const message = await receive(owner.token, phoneNumberId, waMessage(from, "image", { image: { id: "no-such-media-id", mime_type: "image/jpeg", caption: "foto" } }));
    expect(message.type).toBe("image");
    expect(message.body).toBe("foto");
    expect(message.media).toBeNull();
    expect(message.payload).toMatchObject({ mediaError: "download_failed" });
  });

  it("a contact card is stored as type contact with the card's name and phone", async () => {
    const { owner, phoneNumberId, from } = await setup();
    const message = await receive(
      owner.token,
      phoneNumberId,
      waMessage(from, "contacts", {
        contacts: [
          {
            name: { formatted_name: "João Pereira", first_name: "João" },
            phones: [{ phone: "+55 11 91234-5678", type: "CELL", wa_id: "5511912345678" }],
            org: { company: "Padaria" },
          },
        ],
      }),
    );
    expect(message.type).toBe("contact");
    expect(message.body).toBe("João Pereira");
    expect(message.payload).toMatchObject({ name: "João Pereira", phone: "+55 11 91234-5678", contacts: [{ name: "João Pereira", phone: "+55 11 91234-5678", organization: "Padaria" }] });
  });

  it("a location is stored with its coordinates and name", async () => {
    const { owner, phoneNumberId, from } = await setup();
    const message = await receive(
      owner.token,
      phoneNumberId,
      waMessage(from, "location", { location: { latitude: -23.5505, longitude: -46.6333, name: "Praça da Sé", address: "São Paulo" } }),
    );
    expect(message.type).toBe("location");
    expect(message.body).toBe("Praça da Sé");
    expect(message.payload).toMatchObject({ latitude: -23.5505, longitude: -46.6333, name: "Praça da Sé", address: "São Paulo" });
  });

  it("an interactive button_reply is stored with the button's id and title", async () => {
    const { owner, phoneNumberId, from } = await setup();
    const message = await receive(
      owner.token,
      phoneNumberId,
      waMessage(from, "interactive", { interactive: { type: "button_reply", button_reply: { id: "btn-yes", title: "Sim" } } }, { context: { from: "15550000000", id: wamid() } }),
    );
    expect(message.type).toBe("button_reply");
    expect(message.body).toBe("Sim");
    expect(message.payload).toMatchObject({ replyId: "btn-yes", title: "Sim" });
  });

  it("an interactive list_reply is stored with the row's id, title and description", async () => {
    const { owner, phoneNumberId, from } = await setup();
    const message = await receive(
      owner.token,
      phoneNumberId,
      waMessage(from, "interactive", { interactive: { type: "list_reply", list_reply: { id: "row-2", title: "Entrega", description: "Em até 2 dias" } } }),
    );
    expect(message.type).toBe("list_reply");
    expect(message.body).toBe("Entrega");
    expect(message.payload).toMatchObject({ replyId: "row-2", title: "Entrega", description: "Em até 2 dias" });
  });

  it("a template quick-reply `button` is stored as a button reply with its payload", async () => {
    const { owner, phoneNumberId, from } = await setup();
    const message = await receive(owner.token, phoneNumberId, waMessage(from, "button", { button: { text: "Quero saber mais", payload: "MORE_INFO" } }));
    expect(message.type).toBe("button_reply");
    expect(message.body).toBe("Quero saber mais");
    expect(message.payload).toMatchObject({ replyId: "MORE_INFO", title: "Quero saber mais" });
  });

  it("a reaction shows on its target message (no message of its own) and does not replace the list preview", async () => {
    const { owner, phoneNumberId, from } = await setup();
    const target = wamid();
    await receive(owner.token, phoneNumberId, waMessage(from, "text", { text: { body: "Chegou?" } }, { id: target, ts: 1_700_000_000 }));
    await deliverOk(messageWebhook(phoneNumberId, waMessage(from, "reaction", { reaction: { message_id: target, emoji: "👍" } }, { ts: 1_700_000_010 })));
    const ticket = await onlyTicket(owner.token);
    const page = await ticketMessages(owner.token, ticket.id);
    expect(page.results.map((m) => [m.body, m.reactions.map((r) => r.emoji)])).toEqual([["Chegou?", ["👍"]]]);
    expect(ticket.lastMessagePreview).toBe("Chegou?");
  });

  it("an unknown message type is stored as `unsupported` (shown as 'Waiting for this message.'), not dropped", async () => {
    const { owner, phoneNumberId, from } = await setup();
    const message = await receive(owner.token, phoneNumberId, waMessage(from, "poll", { poll: { question: "?" } }));
    expect(message.type).toBe("unsupported");
    expect(message.body).toBe("");
    expect(message.payload).toMatchObject({ providerType: "poll" });
    const ticket = await onlyTicket(owner.token);
    expect(ticket.status).toBe("pending");
    expect(ticket.unreadCount).toBe(1);
  });

  it("a reply quoting an earlier message (context.id) is stored with the quoted message", async () => {
    const { owner, phoneNumberId, from } = await setup();
    const first = wamid();
    const original = await receive(owner.token, phoneNumberId, waMessage(from, "text", { text: { body: "Qual o preço?" } }, { id: first, ts: 1_700_000_000 }));
    const reply = await receive(
      owner.token,
      phoneNumberId,
      waMessage(from, "text", { text: { body: "Respondendo" } }, { ts: 1_700_000_005, context: { from, id: first } }),
    );
    expect(reply.quoted).toEqual({ id: original.id, body: "Qual o preço?", type: "text", direction: "in" });
    // A context id the worker never saw quotes nothing, and the message is still stored.
    const orphan = await receive(
      owner.token,
      phoneNumberId,
      waMessage(from, "text", { text: { body: "Sem contexto" } }, { ts: 1_700_000_009, context: { from, id: wamid() } }),
    );
    expect(orphan.quoted).toBeNull();
  });
});

describe("order of a contact's messages", () => {
  it("50 messages of one contact delivered concurrently in shuffled order land in one ticket in the customer's order", async () => {
    const owner = await register();
    const { phoneNumberId } = await cloudConnection(owner.token, { greetingMessage: "Olá! Já vamos atender." });
    const from = uniqueWaId();
    const base = 1_700_100_000;
    const sent = Array.from({ length: 50 }, (_, i) => ({ id: wamid(), ts: base + i, body: `mensagem ${String(i).padStart(2, "0")}` }));
    const shuffled = [...sent];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
    }
    const answers = await Promise.all(shuffled.map((m) => deliver(textWebhook(phoneNumberId, from, m.id, m.body, m.ts))));
    for (const res of answers) await expectStatus(res, 200);

    const list = await listTickets(owner.token);
    expect(list.total, JSON.stringify(list.results.map((t) => [t.id, t.status]))).toBe(1);
    const ticket = list.results[0]!;
    expect(ticket.unreadCount).toBe(50);
    // The greeting went out (worker clock, now) after the customer's messages (provider clock, 2023).
    expect(ticket.lastMessagePreview).toBe("Olá! Já vamos atender.");
    expect(ticket.lastMessageAt).toBeGreaterThan((base + 49) * 1000);
    expect(await countRows("contacts", "company_id = (SELECT company_id FROM tickets WHERE id = ?)", ticket.id)).toBe(1);

    const page = await ticketMessages(owner.token, ticket.id, "limit=100");
    const inbound = page.results.filter((m) => m.direction === "in");
    expect(inbound.map((m) => m.body)).toEqual(sent.map((m) => m.body));
    // Exactly one greeting for the one new ticket.
    expect(page.results.filter((m) => m.direction === "out").map((m) => m.body)).toEqual(["Olá! Já vamos atender."]);
    // seq numbers are unique within the ticket.
    expect(new Set(page.results.map((m) => m.seq)).size).toBe(page.results.length);
  }, 30_000); // 50 webhooks through the whole pipeline: slow on a loaded 2-core machine, never a speed check.

  it("messages with the same provider timestamp keep their arrival order", async () => {
    const owner = await register();
    const { phoneNumberId } = await cloudConnection(owner.token);
    const from = uniqueWaId();
    for (const body of ["um", "dois", "três"]) await deliverOk(textWebhook(phoneNumberId, from, wamid(), body, 1_700_000_000));
    const ticket = await onlyTicket(owner.token);
    expect((await ticketMessages(owner.token, ticket.id)).results.map((m) => m.body)).toEqual(["um", "dois", "três"]);
  });

  it("a late, older message is shown before the newer ones and pages backwards through the cursor", async () => {
    const owner = await register();
    const { phoneNumberId } = await cloudConnection(owner.token);
    const from = uniqueWaId();
    await deliverOk(textWebhook(phoneNumberId, from, wamid(), "c", 1_700_000_030));
    await deliverOk(textWebhook(phoneNumberId, from, wamid(), "b", 1_700_000_020));
    await deliverOk(textWebhook(phoneNumberId, from, wamid(), "a", 1_700_000_010));
    const ticket = await onlyTicket(owner.token);
    expect(ticket.lastMessagePreview).toBe("c");
    const newest = await ticketMessages(owner.token, ticket.id, "limit=2");
    expect(newest.results.map((m) => m.body)).toEqual(["b", "c"]);
    expect(newest.cursor).not.toBeNull();
    const older = await ticketMessages(owner.token, ticket.id, `limit=2&cursor=${encodeURIComponent(newest.cursor!)}`);
    expect(older.results.map((m) => m.body)).toEqual(["a"]);
    expect(older.cursor).toBeNull();
  });
});

describe("sending through the Cloud API adapter", () => {
  it("a member's reply reaches the Graph API stand-in with the bearer token and the wamid comes back", async () => {
    const owner = await register();
    const { phoneNumberId } = await cloudConnection(owner.token);
    const from = uniqueWaId();
    await deliverOk(textWebhook(phoneNumberId, from, wamid(), "Oi"));
    const ticketId = (await onlyTicket(owner.token)).id;
    const sent = await expectStatus<MessageAnswer>(
      await call("POST", `/api/tickets/${ticketId}/messages`, { token: owner.token, body: { type: "text", body: "Bom dia!", idempotencyKey: "key-123456" } }),
      201,
    );
    expect(sent.status).toBe("pending");
    // The same idempotency key answers the first message and sends nothing more.
    const again = await expectStatus<MessageAnswer>(
      await call("POST", `/api/tickets/${ticketId}/messages`, { token: owner.token, body: { type: "text", body: "Bom dia!", idempotencyKey: "key-123456" } }),
      200,
    );
    expect(again.id).toBe(sent.id);
    await until(
      () => ticketMessages(owner.token, ticketId),
      (page) => page.results.find((m) => m.id === sent.id)?.status === "sent",
      "the message to be sent",
    );
    const mine = await sentTo(phoneNumberId);
    expect(mine).toHaveLength(1);
    expect(mine[0]?.authorization).toBe(`Bearer ${ACCESS_TOKEN}`);
    expect(mine[0]?.body).toMatchObject({ messaging_product: "whatsapp", to: from, type: "text", text: { body: "Bom dia!" } });
    const page = await ticketMessages(owner.token, ticketId);
    expect(page.results.filter((m) => m.direction === "out")).toHaveLength(1);
  });

  it("a file sent as multipart is stored in R2, linked to the provider through a signed URL and shown with its media", async () => {
    const owner = await register();
    const { phoneNumberId } = await cloudConnection(owner.token);
    const from = uniqueWaId();
    await deliverOk(textWebhook(phoneNumberId, from, wamid(), "Manda o boleto"));
    const ticketId = (await onlyTicket(owner.token)).id;
    const bytes = mediaBytes("application/pdf", 3000, 7);
    const form = new FormData();
    form.append("file", new File([bytes], "boleto.pdf", { type: "application/pdf" }));
    form.append("body", "Segue o boleto");
    form.append("idempotencyKey", "file-key-0001");
    const sent = await expectStatus<MessageAnswer>(await call("POST", `/api/tickets/${ticketId}/messages`, { token: owner.token, form }), 201);
    expect(sent).toMatchObject({ direction: "out", type: "document", body: "Segue o boleto", status: "pending" });
    expect(sent.media).toMatchObject({ mime: "application/pdf", name: "boleto.pdf", size: 3000 });
    const res = await call("GET", sent.media!.url);
    if (res.status !== 200) expect.fail(`${res.status} ${await res.text()}`);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);

    // A retry of the same upload (same idempotency key) answers the first message.
    const retry = new FormData();
    retry.append("file", new File([bytes], "boleto.pdf", { type: "application/pdf" }));
    retry.append("body", "Segue o boleto");
    retry.append("idempotencyKey", "file-key-0001");
    const again = await expectStatus<MessageAnswer>(await call("POST", `/api/tickets/${ticketId}/messages`, { token: owner.token, form: retry }), 200);
    expect(again.id).toBe(sent.id);

    const [out] = await until(() => sentTo(phoneNumberId), (r) => r.length >= 1, "the document send");
    expect(out?.body).toMatchObject({ to: from, type: "document", document: { caption: "Segue o boleto", filename: "boleto.pdf" } });
    const link = (out?.body as { document: { link: string } }).document.link;
    expect(link).toMatch(/^http:\/\/localhost:8787\/api\/media\/media\/.+\?exp=\d+&sig=[0-9a-f]{64}$/);
    const viaLink = await call("GET", new URL(link).pathname + new URL(link).search);
    expect(new Uint8Array(await viaLink.arrayBuffer())).toEqual(bytes);
    await until(() => sentTo(phoneNumberId), (r) => r.length === 1, "exactly one send");
    expect(await sentTo(phoneNumberId)).toHaveLength(1);
  });

  it("an image sent as multipart goes out as type image with its caption", async () => {
    const owner = await register();
    const { phoneNumberId } = await cloudConnection(owner.token);
    await deliverOk(textWebhook(phoneNumberId, uniqueWaId(), wamid(), "Foto?"));
    const ticketId = (await onlyTicket(owner.token)).id;
    const form = new FormData();
    form.append("file", new File([mediaBytes("image/png", 100)], "foto.png", { type: "image/png" }));
    form.append("body", "Aqui");
    const sent = await expectStatus<MessageAnswer>(await call("POST", `/api/tickets/${ticketId}/messages`, { token: owner.token, form }), 201);
    expect(sent.type).toBe("image");
    const [out] = await until(() => sentTo(phoneNumberId), (r) => r.length >= 1, "the image send");
    expect(out?.body).toMatchObject({ type: "image", image: { caption: "Aqui" } });
  });

  it("a multipart send without a file or with an empty file answers 400 naming the file", async () => {
    const owner = await register();
    const { phoneNumberId } = await cloudConnection(owner.token);
    await deliverOk(textWebhook(phoneNumberId, uniqueWaId(), wamid(), "Oi"));
    const ticketId = (await onlyTicket(owner.token)).id;
    const noFile = new FormData();
    noFile.append("body", "sem arquivo");
    const a = await expectStatus<{ error: { fields: Record<string, string> } }>(await call("POST", `/api/tickets/${ticketId}/messages`, { token: owner.token, form: noFile }), 400);
    expect(Object.keys(a.error.fields)).toContain("file");
    const empty = new FormData();
    empty.append("file", new File([], "vazio.txt", { type: "text/plain" }));
    const b = await expectStatus<{ error: { fields: Record<string, string> } }>(await call("POST", `/api/tickets/${ticketId}/messages`, { token: owner.token, form: empty }), 400);
    expect(Object.keys(b.error.fields)).toContain("file");
    expect(await sentTo(phoneNumberId)).toHaveLength(0);
  });

  it("a reply quoting a customer's message carries the quoted wamid as context", async () => {
    const owner = await register();
    const { phoneNumberId } = await cloudConnection(owner.token);
    const inboundId = wamid();
    await deliverOk(textWebhook(phoneNumberId, uniqueWaId(), inboundId, "Tem pão?"));
    const ticketId = (await onlyTicket(owner.token)).id;
    const quoted = (await ticketMessages(owner.token, ticketId)).results[0]!;
    const sent = await expectStatus<MessageAnswer>(
      await call("POST", `/api/tickets/${ticketId}/messages`, { token: owner.token, body: { type: "text", body: "Tem sim", quotedId: quoted.id } }),
      201,
    );
    expect(sent.quoted?.id).toBe(quoted.id);
    const [out] = await until(() => sentTo(phoneNumberId), (r) => r.length >= 1, "the quoted send");
    expect(out?.body).toMatchObject({ type: "text", text: { body: "Tem sim" }, context: { message_id: inboundId } });
  });

  it("a send the provider refuses is marked failed with the provider's code and message", async () => {
    const owner = await register();
    const { phoneNumberId } = await cloudConnection(owner.token);
    await deliverOk(textWebhook(phoneNumberId, uniqueWaId(), wamid(), "Oi"));
    const ticketId = (await onlyTicket(owner.token)).id;
    await fetch(`${env.META_STANDIN_ORIGIN}/__faults`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ phoneNumberId, failNext: 1, status: 400, code: 131047, message: "Re-engagement message" }),
    }).then((r) => r.arrayBuffer());
    const sent = await expectStatus<MessageAnswer>(await call("POST", `/api/tickets/${ticketId}/messages`, { token: owner.token, body: { type: "text", body: "Voltou?" } }), 201);
    const page = await until(
      () => ticketMessages(owner.token, ticketId),
      (p) => p.results.find((m) => m.id === sent.id)?.status === "failed",
      "the send to fail",
    );
    expect(page.results.find((m) => m.id === sent.id)?.error).toEqual({ code: "131047", message: "Re-engagement message", details: null });
  });
});

describe("one webhook path per provider", () => {
  it("an unknown provider answers 404; the sandbox phone's events also arrive at /api/channels/sandbox/webhook", async () => {
    const missing = await call("POST", "/api/channels/telegram/webhook", { body: {} });
    expect(missing.status).toBe(404);
    const owner = await register();
    const connection = await sandboxConnection(owner.token);
    const deviceToken = await pairSandbox(owner.token, connection.id);
    const res = await call("POST", "/api/channels/sandbox/webhook", {
      headers: { Authorization: `Device ${deviceToken}` },
      body: { events: [{ kind: "message", id: `sbx-${crypto.randomUUID()}`, from: "+5511912345678", name: "Rita", type: "text", body: "Oi pelo webhook" }] },
    });
    const summary = await expectStatus<{ ok: boolean; stored: number }>(res, 200);
    expect(summary.stored).toBe(1);
    const ticket = await onlyTicket(owner.token);
    expect(ticket.lastMessagePreview).toBe("Oi pelo webhook");
  });
});
