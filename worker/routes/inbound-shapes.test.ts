/**
 * Issue 8 §7 ("no customer message is acknowledged and lost") and §6 (future provider timestamps):
 * each WhatsApp Cloud API payload shape of Meta's webhook reference, signed like Meta, delivered
 * through the real webhook and read back through the API.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ContactDetailAnswer, RejectedEventPage } from "../../schema/api-types";
import type { MessageAnswer } from "../../schema/realtime";
import {
  cloudConnection,
  deliverOk,
  envelope,
  listTickets,
  messageWebhook,
  onlyTicket,
  receive,
  sentTo,
  textWebhook,
  ticketMessages,
  uniquePhoneNumberId,
  uniqueWaId,
  until,
  waMessage,
  waStatus,
  wamid,
} from "../test/channel-helpers";
import { call, countRows, expectStatus, member, register } from "../test/helpers";

/** A company with a Cloud API connection and a customer. */
async function setup() {
  const owner = await register();
  const connection = await cloudConnection(owner.token);
  return { owner, connection, phoneNumberId: connection.phoneNumberId, from: uniqueWaId() };
}

/** The message with provider id `externalId`, as GET /api/tickets/{id}/messages shows it. */
async function shownByExternalId(token: string, externalId: string): Promise<MessageAnswer> {
  const row = await env.DB.prepare("SELECT id, ticket_id FROM messages WHERE external_id = ?").bind(externalId).first<{ id: string; ticket_id: string }>();
  expect(row, `message ${externalId} was not stored`).not.toBeNull();
  const page = await ticketMessages(token, row!.ticket_id, "limit=100");
  const found = page.results.find((m) => m.id === row!.id);
  expect(found, JSON.stringify(page)).toBeDefined();
  return found!;
}

/** GET /api/connections/{id}/rejected-events (200 asserted). */
async function rejectedOf(token: string, connectionId: string, query = ""): Promise<RejectedEventPage> {
  return expectStatus<RejectedEventPage>(await call("GET", `/api/connections/${connectionId}/rejected-events${query ? `?${query}` : ""}`, { token }), 200);
}

describe("identity: business-scoped user ids (BSUID)", () => {
  it("a message whose contact has only a user_id (no wa_id, no from) is stored under the BSUID, phone unknown", async () => {
    const { owner, phoneNumberId } = await setup();
    const bsuid = `BR.${crypto.randomUUID().replace(/-/g, "").slice(0, 20)}`;
    const id = wamid();
    const payload = {
      object: "whatsapp_business_account",
      entry: [
        {
          id: "WABA",
          changes: [
            {
              field: "messages",
              value: {
                messaging_product: "whatsapp",
                metadata: { display_phone_number: "15550783881", phone_number_id: phoneNumberId },
                contacts: [{ profile: { name: "Ana", username: "@ana" }, user_id: bsuid }],
                messages: [{ id, timestamp: "1700000000", type: "text", text: { body: "Olá, sem número" } }],
              },
            },
          ],
        },
      ],
    };
    const answer = await deliverOk(payload);
    expect(answer.stored).toBe(1);
    const message = await shownByExternalId(owner.token, id);
    expect(message.body).toBe("Olá, sem número");
    const identity = await env.DB.prepare("SELECT contact_id FROM contact_identities WHERE external_id = ?").bind(bsuid).first<{ contact_id: string }>();
    expect(identity?.contact_id).toBe(message.contactId);
    const contact = await expectStatus<ContactDetailAnswer>(await call("GET", `/api/contacts/${message.contactId}`, { token: owner.token }), 200);
    expect(contact.name).toBe("Ana");
    expect(contact.phone).toBeNull();
  });

  it("a `from` that is a BSUID is the identity too; a later message with the wa_id and the same user_id finds the same contact", async () => {
    const { owner, phoneNumberId, from } = await setup();
    const bsuid = `US.${crypto.randomUUID().replace(/-/g, "").slice(0, 18)}`;
    const first = wamid();
    await deliverOk(
      envelope(phoneNumberId, { messages: [{ from: bsuid, id: first, timestamp: "1700000000", type: "text", text: { body: "um" } }] }),
    );
    const second = wamid();
    const withPhone = envelope(phoneNumberId, { messages: [waMessage(from, "text", { text: { body: "dois" } }, { id: second, ts: 1_700_000_010 })] });
    const value = ((withPhone.entry as { changes: { value: Record<string, unknown> }[] }[])[0]!.changes[0]!.value);
    value.contacts = [{ profile: { name: "Bia" }, wa_id: from, user_id: bsuid }];
    await deliverOk(withPhone);
    const a = await shownByExternalId(owner.token, first);
    const b = await shownByExternalId(owner.token, second);
    expect(b.contactId).toBe(a.contactId);
    expect(b.ticketId).toBe(a.ticketId);
    const contact = await expectStatus<ContactDetailAnswer>(await call("GET", `/api/contacts/${a.contactId}`, { token: owner.token }), 200);
    expect(contact.phone).toBe(`+${from}`);
  });
});

describe("rejected events: kept, counted, listed, never dropped in silence", () => {
  it("a message without any identity and an unknown shape are stored with their raw payload in R2, counted and listed; 200 to Meta", async () => {
    const { owner, connection, phoneNumberId } = await setup();
    const noIdentity = envelope(phoneNumberId, { messages: [{ id: wamid(), timestamp: "1700000000", type: "text", text: { body: "quem sou eu?" } }] });
    const raw = JSON.stringify(noIdentity);
    await deliverOk(noIdentity);
    const unknownType = messageWebhook(phoneNumberId, waMessage(uniqueWaId(), "poll", { poll: { question: "?" } }));
    await deliverOk(unknownType);
    // Meta's redelivery of the same message keeps it once.
    await deliverOk(unknownType);

    const page = await rejectedOf(owner.token, connection.id);
    expect(page.total).toBe(2);
    expect(page.results.map((r) => r.reason)).toEqual(["unknown_message_type", "no_sender_identity"]);
    const first = page.results[1]!;
    expect(first.size).toBe(new TextEncoder().encode(raw).byteLength);
    expect(first.receivedAt).toBeGreaterThan(Date.now() - 60_000);
    const row = await env.DB.prepare("SELECT payload_key, company_id FROM rejected_events WHERE id = ?").bind(first.id).first<{ payload_key: string; company_id: string }>();
    const object = await env.FILES.get(row!.payload_key);
    expect(await object?.text()).toBe(raw);
    const counted = await env.DB.prepare("SELECT rejected_count FROM connections WHERE id = ?").bind(connection.id).first<{ rejected_count: number }>();
    expect(counted?.rejected_count).toBe(2);

    // The raw JSON downloads as an attachment, never rendered.
    const download = await call("GET", `/api/connections/${connection.id}/rejected-events/${first.id}/payload`, { token: owner.token });
    const text = await download.text();
    expect(download.status, text).toBe(200);
    expect(text).toBe(raw);
    expect(download.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(download.headers.get("Content-Disposition")).toMatch(/^attachment/);
    expect(download.headers.get("X-Content-Type-Options")).toBe("nosniff");

    // Pages through the cursor.
    const one = await rejectedOf(owner.token, connection.id, "limit=1");
    expect(one.results).toHaveLength(1);
    const next = await rejectedOf(owner.token, connection.id, `limit=1&cursor=${one.cursor}`);
    expect(next.results.map((r) => r.id)).toEqual([first.id]);
    expect(next.cursor).toBeNull();
    const bad = await expectStatus<{ error: { fields: Record<string, string> } }>(
      await call("GET", `/api/connections/${connection.id}/rejected-events?cursor=nonsense`, { token: owner.token }),
      400,
    );
    expect(bad.error.fields.cursor).toBeDefined();
  });

  it("another company's connection and rejected events answer 404", async () => {
    const { owner, connection, phoneNumberId } = await setup();
    await deliverOk(envelope(phoneNumberId, { messages: [{ id: wamid(), timestamp: "1700000000", type: "text", text: { body: "?" } }] }));
    const eventId = (await rejectedOf(owner.token, connection.id)).results[0]!.id;
    const other = await register();
    const otherConnection = await cloudConnection(other.token);
    for (const path of [
      `/api/connections/${connection.id}/rejected-events`,
      `/api/connections/${connection.id}/rejected-events/${eventId}/payload`,
      `/api/connections/${otherConnection.id}/rejected-events/${eventId}/payload`,
    ]) {
      const res = await call("GET", path, { token: other.token });
      const body = await res.text();
      expect(res.status, `${path}: ${body}`).toBe(404);
      expect(body).not.toContain("quem");
    }
    expect(await call("GET", `/api/connections/${connection.id}/rejected-events`).then((r) => r.status)).toBe(401);
  });

  it("a member without the connections permission answers 403", async () => {
    const { owner, connection } = await setup();
    const clerk = await member(owner, ["tickets"]);
    const res = await call("GET", `/api/connections/${connection.id}/rejected-events`, { token: clerk.token });
    const body = await res.text();
    expect(res.status, body).toBe(403);
  });

  it("a batch for a phone_number_id no connection has is kept (without a company) before the 200", async () => {
    const number = uniquePhoneNumberId();
    const payload = textWebhook(number, uniqueWaId(), wamid(), "alguém aí?");
    await deliverOk(payload);
    const row = await env.DB.prepare("SELECT reason, company_id, payload_key FROM rejected_events WHERE detail LIKE ?")
      .bind(`%${number}%`)
      .first<{ reason: string; company_id: string | null; payload_key: string }>();
    expect(row).toMatchObject({ reason: "unknown_phone_number_id", company_id: null });
    expect(await (await env.FILES.get(row!.payload_key))?.text()).toBe(JSON.stringify(payload));
  });
});

describe("reactions, revokes and edits change their target message", () => {
  it("a reaction shows on its target (no bubble, no unread, no preview change); a newer one replaces it; an empty emoji clears it", async () => {
    const { owner, phoneNumberId, from } = await setup();
    const target = wamid();
    await receive(owner.token, phoneNumberId, waMessage(from, "text", { text: { body: "Chegou?" } }, { id: target, ts: 1_700_000_000 }));
    const before = await onlyTicket(owner.token);
    await deliverOk(messageWebhook(phoneNumberId, waMessage(from, "reaction", { reaction: { message_id: target, emoji: "👍" } }, { ts: 1_700_000_010 })));
    let shown = await shownByExternalId(owner.token, target);
    expect(shown.reactions).toEqual([{ from: "contact", emoji: "👍", at: 1_700_000_010_000 }]);
    const page = await ticketMessages(owner.token, shown.ticketId);
    expect(page.results).toHaveLength(1);
    const after = await onlyTicket(owner.token);
    expect(after.unreadCount).toBe(before.unreadCount);
    expect(after.lastMessagePreview).toBe("Chegou?");
    expect(after.lastMessageAt).toBe(before.lastMessageAt);

    await deliverOk(messageWebhook(phoneNumberId, waMessage(from, "reaction", { reaction: { message_id: target, emoji: "❤️" } }, { ts: 1_700_000_020 })));
    shown = await shownByExternalId(owner.token, target);
    expect(shown.reactions.map((r) => r.emoji)).toEqual(["❤️"]);
    // An older reaction redelivered late does not bring the old emoji back.
    await deliverOk(messageWebhook(phoneNumberId, waMessage(from, "reaction", { reaction: { message_id: target, emoji: "😮" } }, { ts: 1_700_000_015 })));
    expect((await shownByExternalId(owner.token, target)).reactions.map((r) => r.emoji)).toEqual(["❤️"]);

    await deliverOk(messageWebhook(phoneNumberId, waMessage(from, "reaction", { reaction: { message_id: target } }, { ts: 1_700_000_030 })));
    shown = await shownByExternalId(owner.token, target);
    expect(shown.reactions).toEqual([]);
    expect((await onlyTicket(owner.token)).unreadCount).toBe(before.unreadCount);
    expect(await countRows("messages", "ticket_id = ?", shown.ticketId)).toBe(1);
  });

  it("a reaction to our own outbound message shows on it", async () => {
    const { owner, phoneNumberId, from } = await setup();
    await receive(owner.token, phoneNumberId, waMessage(from, "text", { text: { body: "Oi" } }));
    const ticket = await onlyTicket(owner.token);
    const sent = await expectStatus<MessageAnswer>(
      await call("POST", `/api/tickets/${ticket.id}/messages`, { token: owner.token, body: { type: "text", body: "Olá!", idempotencyKey: `k-${crypto.randomUUID()}` } }),
      201,
    );
    const externalId = await until(
      async () => (await env.DB.prepare("SELECT external_id FROM messages WHERE id = ?").bind(sent.id).first<{ external_id: string | null }>())?.external_id ?? null,
      (id) => id !== null,
      "the provider's id of the sent message",
    );
    expect(externalId).not.toBeNull();
    await deliverOk(messageWebhook(phoneNumberId, waMessage(from, "reaction", { reaction: { message_id: externalId, emoji: "🙏" } }, { ts: Math.floor(Date.now() / 1000) })));
    const page = await ticketMessages(owner.token, ticket.id);
    expect(page.results.find((m) => m.id === sent.id)?.reactions.map((r) => r.emoji)).toEqual(["🙏"]);
  });

  it("a reaction whose target is not stored yet is kept as a rejected event and applied when the message arrives", async () => {
    const { owner, connection, phoneNumberId, from } = await setup();
    const target = wamid();
    const res = await deliverOk(messageWebhook(phoneNumberId, waMessage(from, "reaction", { reaction: { message_id: target, emoji: "🔥" } }, { ts: 1_700_000_010 })));
    expect(res.stored).toBe(0);
    expect((await rejectedOf(owner.token, connection.id)).results.map((r) => r.reason)).toEqual(["reaction_target_unknown"]);
    await deliverOk(messageWebhook(phoneNumberId, waMessage(from, "text", { text: { body: "atrasada" } }, { id: target, ts: 1_700_000_000 })));
    expect((await shownByExternalId(owner.token, target)).reactions.map((r) => r.emoji)).toEqual(["🔥"]);
  });

  it("a revoke marks its target deleted (shown as 'Message deleted.': no body, no payload)", async () => {
    const { owner, phoneNumberId, from } = await setup();
    const target = wamid();
    await receive(owner.token, phoneNumberId, waMessage(from, "text", { text: { body: "ops, errado" } }, { id: target, ts: 1_700_000_000 }));
    await deliverOk(messageWebhook(phoneNumberId, waMessage(from, "revoke", { revoke: { original_message_id: target } }, { ts: 1_700_000_050 })));
    const shown = await shownByExternalId(owner.token, target);
    expect(shown.deleted).toBe(true);
    expect(shown.body).toBe("");
    expect(await countRows("messages", "ticket_id = ?", shown.ticketId)).toBe(1);
  });

  it("an edit replaces its target's text and marks it edited; an edit of an unknown message is stored as a message", async () => {
    const { owner, phoneNumberId, from } = await setup();
    const target = wamid();
    await receive(owner.token, phoneNumberId, waMessage(from, "text", { text: { body: "Quero 2 pizas" } }, { id: target, ts: 1_700_000_000 }));
    await deliverOk(
      messageWebhook(
        phoneNumberId,
        waMessage(from, "edit", { edit: { original_message_id: target, message: { type: "text", text: { body: "Quero 2 pizzas" } } } }, { ts: 1_700_000_060 }),
      ),
    );
    const shown = await shownByExternalId(owner.token, target);
    expect(shown.body).toBe("Quero 2 pizzas");
    expect(shown.editedAt).toBe(1_700_000_060_000);
    expect(await countRows("messages", "ticket_id = ?", shown.ticketId)).toBe(1);

    const editId = wamid();
    await deliverOk(
      messageWebhook(
        phoneNumberId,
        waMessage(from, "edit", { edit: { original_message_id: wamid(), message: { type: "text", text: { body: "texto novo" } } } }, { id: editId, ts: 1_700_000_070 }),
      ),
    );
    expect((await shownByExternalId(owner.token, editId)).body).toBe("texto novo");
  });
});

describe("orders, WhatsApp Flows answers, system events, referrals, forwards", () => {
  it("an order is stored as type order with its items", async () => {
    const { owner, phoneNumberId, from } = await setup();
    const message = await receive(
      owner.token,
      phoneNumberId,
      waMessage(from, "order", {
        order: {
          catalog_id: "CAT1",
          text: "Entrega à tarde",
          product_items: [
            { product_retailer_id: "SKU-1", quantity: "2", item_price: "19.9", currency: "BRL" },
            { product_retailer_id: "SKU-2", quantity: 1, item_price: 5, currency: "BRL" },
          ],
        },
      }),
    );
    expect(message.type).toBe("order");
    expect(message.body).toBe("Entrega à tarde");
    expect(message.payload).toEqual({
      catalogId: "CAT1",
      text: "Entrega à tarde",
      items: [
        { productRetailerId: "SKU-1", quantity: 2, itemPrice: 19.9, currency: "BRL" },
        { productRetailerId: "SKU-2", quantity: 1, itemPrice: 5, currency: "BRL" },
      ],
    });
    expect((await onlyTicket(owner.token)).unreadCount).toBe(1);
  });

  it("an interactive nfm_reply (WhatsApp Flows) is stored as flow_reply with the answers as fields", async () => {
    const { owner, phoneNumberId, from } = await setup();
    const message = await receive(
      owner.token,
      phoneNumberId,
      waMessage(
        from,
        "interactive",
        {
          interactive: {
            type: "nfm_reply",
            nfm_reply: { name: "flow", body: "Sent", response_json: JSON.stringify({ flow_token: "TOKEN", nome: "Ana", idade: 31, aceita: true, sabores: ["calabresa", "queijo"] }) },
          },
        },
        { context: { from: "15550783881", id: wamid() } },
      ),
    );
    expect(message.type).toBe("flow_reply");
    expect(message.body).toBe("Sent");
    expect(message.payload).toEqual({ name: "flow", flowToken: "TOKEN", fields: { nome: "Ana", idade: 31, aceita: true, sabores: "calabresa, queijo" } });
  });

  it("a system number change adds the new wa_id and phone to the contact and shows the event (not unread); the new number's messages join the same contact", async () => {
    const { owner, phoneNumberId, from } = await setup();
    await receive(owner.token, phoneNumberId, waMessage(from, "text", { text: { body: "Oi" } }, { ts: 1_700_000_000 }));
    const newWaId = uniqueWaId();
    const systemId = wamid();
    await deliverOk(
      envelope(phoneNumberId, {
        messages: [
          waMessage(
            from,
            "system",
            { system: { body: `User Maria changed from ${from} to ${newWaId}`, wa_id: newWaId, type: "user_changed_number" } },
            { id: systemId, ts: 1_700_000_100 },
          ),
        ],
      }),
    );
    const shown = await shownByExternalId(owner.token, systemId);
    expect(shown.type).toBe("system");
    expect(shown.body).toContain(newWaId);
    const ticket = await onlyTicket(owner.token);
    expect(ticket.unreadCount).toBe(1);
    expect(ticket.contact.phone).toBe(`+${newWaId}`);
    const identity = await env.DB.prepare("SELECT contact_id FROM contact_identities WHERE external_id = ?").bind(newWaId).first<{ contact_id: string }>();
    expect(identity?.contact_id).toBe(shown.contactId);
    const later = wamid();
    await deliverOk(textWebhook(phoneNumberId, newWaId, later, "do número novo", 1_700_000_200));
    const next = await shownByExternalId(owner.token, later);
    expect(next.contactId).toBe(shown.contactId);
    expect(next.ticketId).toBe(ticket.id);
    expect((await listTickets(owner.token)).total).toBe(1);
    // A member's reply goes to the new number.
    await expectStatus(
      await call("POST", `/api/tickets/${ticket.id}/messages`, { token: owner.token, body: { type: "text", body: "Anotado!", idempotencyKey: `k-${crypto.randomUUID()}` } }),
      201,
    );
    const sends = await until(() => sentTo(phoneNumberId), (records) => records.length > 0, "the reply to reach the stand-in");
    expect(sends[0]?.body).toMatchObject({ to: newWaId, text: { body: "Anotado!" } });
  });

  it("a referral (click-to-WhatsApp ad) is kept on the ticket and the contact", async () => {
    const { owner, phoneNumberId, from } = await setup();
    const referral = {
      source_url: "https://fb.me/ad123",
      source_id: "120210000000",
      source_type: "ad",
      headline: "Pizza em dobro",
      body: "Só hoje",
      media_type: "image",
      image_url: "https://scontent.example/ad.jpg",
      thumbnail_url: "https://scontent.example/thumb.jpg",
      ctwa_clid: "ARAkLkA8rmlFeiCktEJQ",
    };
    const message = await receive(owner.token, phoneNumberId, waMessage(from, "text", { text: { body: "Vi o anúncio" }, referral }));
    expect(message.body).toBe("Vi o anúncio");
    const expected = {
      sourceUrl: "https://fb.me/ad123",
      sourceId: "120210000000",
      sourceType: "ad",
      headline: "Pizza em dobro",
      body: "Só hoje",
      mediaType: "image",
      imageUrl: "https://scontent.example/ad.jpg",
      thumbnailUrl: "https://scontent.example/thumb.jpg",
      ctwaClid: "ARAkLkA8rmlFeiCktEJQ",
    };
    expect((await onlyTicket(owner.token)).referral).toEqual(expected);
    const contact = await expectStatus<ContactDetailAnswer>(await call("GET", `/api/contacts/${message.contactId}`, { token: owner.token }), 200);
    expect(contact.referral).toEqual(expected);
  });

  it("context.forwarded and frequently_forwarded mark the message forwarded", async () => {
    const { owner, phoneNumberId, from } = await setup();
    const plain = await receive(owner.token, phoneNumberId, waMessage(from, "text", { text: { body: "normal" } }));
    const forwarded = await receive(owner.token, phoneNumberId, { ...waMessage(from, "text", { text: { body: "encaminhada" } }), context: { forwarded: true } });
    const often = await receive(owner.token, phoneNumberId, { ...waMessage(from, "text", { text: { body: "muito encaminhada" } }), context: { frequently_forwarded: true } });
    expect([plain.forwarded, forwarded.forwarded, often.forwarded]).toEqual([false, true, true]);
  });
});

describe("failed statuses keep the provider's detail", () => {
  it("a failed status's errors[].error_data.details is stored and shown with the failure", async () => {
    const { owner, phoneNumberId, from } = await setup();
    await receive(owner.token, phoneNumberId, waMessage(from, "text", { text: { body: "Oi" } }));
    const ticket = await onlyTicket(owner.token);
    const sent = await expectStatus<MessageAnswer>(
      await call("POST", `/api/tickets/${ticket.id}/messages`, { token: owner.token, body: { type: "text", body: "Promo", idempotencyKey: `k-${crypto.randomUUID()}` } }),
      201,
    );
    const externalId = await until(
      async () => (await env.DB.prepare("SELECT external_id FROM messages WHERE id = ?").bind(sent.id).first<{ external_id: string | null }>())?.external_id ?? null,
      (id) => id !== null,
      "the provider's id of the sent message",
    );
    await deliverOk(
      envelope(phoneNumberId, {
        statuses: [
          waStatus(externalId!, "failed", {
            errors: [{ code: 131047, title: "Re-engagement message", message: "Re-engagement message", error_data: { details: "Message failed to send because more than 24 hours have passed since the customer last replied to this number." } }],
          }),
        ],
      }),
    );
    const page = await ticketMessages(owner.token, ticket.id);
    expect(page.results.find((m) => m.id === sent.id)).toMatchObject({
      status: "failed",
      error: { code: "131047", message: "Re-engagement message", details: "Message failed to send because more than 24 hours have passed since the customer last replied to this number." },
    });
  });
});

describe("provider timestamps", () => {
  it("a timestamp far in the future is clamped to the time of receipt, keeping the conversation's order", async () => {
    const { owner, phoneNumberId, from } = await setup();
    const now = Math.floor(Date.now() / 1000);
    const past = wamid();
    const future = wamid();
    const after = wamid();
    const before = Date.now();
    await deliverOk(textWebhook(phoneNumberId, from, past, "antes", now - 60));
    await deliverOk(textWebhook(phoneNumberId, from, future, "do futuro", now + 10 * 365 * 24 * 3600));
    const received = Date.now();
    await deliverOk(textWebhook(phoneNumberId, from, after, "depois", now + 60));
    const shown = await shownByExternalId(owner.token, future);
    expect(shown.sentAt).toBeGreaterThanOrEqual(before);
    expect(shown.sentAt).toBeLessThanOrEqual(received);
    // A small skew (a minute ahead) is kept as the provider said.
    expect((await shownByExternalId(owner.token, after)).sentAt).toBe((now + 60) * 1000);
    const page = await ticketMessages(owner.token, shown.ticketId);
    expect(page.results.map((m) => m.body)).toEqual(["antes", "do futuro", "depois"]);
    expect((await onlyTicket(owner.token)).lastMessagePreview).toBe("depois");
  });
});
