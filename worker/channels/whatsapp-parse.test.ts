import { describe, expect, it } from "vitest";
import type { InboundMessage, InboundStatus } from "./types";
import { WebhookShapeError, parseWhatsAppWebhook } from "./whatsapp-parse";

const PNID = "106540352242922";

function change(value: Record<string, unknown>, field = "messages") {
  return { object: "whatsapp_business_account", entry: [{ id: "WABA", changes: [{ field, value: { messaging_product: "whatsapp", metadata: { display_phone_number: "15550783881", phone_number_id: PNID }, ...value } }] }] };
}

function one(message: Record<string, unknown>): InboundMessage {
  const routed = parseWhatsAppWebhook(
    change({ contacts: [{ profile: { name: "Maria" }, wa_id: "5511988887777" }], messages: [{ from: "5511988887777", id: "wamid.1", timestamp: "1694427240", ...message }] }),
  );
  expect(routed).toHaveLength(1);
  const event = routed[0]!.events[0];
  if (event?.kind !== "message") throw new Error(`expected a message, got ${JSON.stringify(event)}`);
  return event;
}

describe("parseWhatsAppWebhook", () => {
  it("routes by metadata.phone_number_id and normalises a text message (ms timestamp, profile name, E.164 phone)", () => {
    const routed = parseWhatsAppWebhook(
      change({ contacts: [{ profile: { name: "Maria" }, wa_id: "5511988887777" }], messages: [{ from: "5511988887777", id: "wamid.1", timestamp: "1694427240", type: "text", text: { body: "Hi" } }] }),
    );
    expect(routed).toEqual([
      {
        route: { by: "phoneNumberId", value: PNID },
        events: [
          {
            kind: "message",
            externalId: "wamid.1",
            from: "5511988887777",
            profileName: "Maria",
            phone: "+5511988887777",
            timestamp: 1_694_427_240_000,
            type: "text",
            body: "Hi",
            quotedExternalId: undefined,
          },
        ],
        raw: expect.stringContaining('"wamid.1"'),
      },
    ]);
  });

  it("a wa_id that is not a valid phone number keeps the wa_id and no phone", () => {
    const routed = parseWhatsAppWebhook(change({ messages: [{ from: "123", id: "wamid.2", timestamp: 1, type: "text", text: { body: "x" } }] }));
    const event = routed[0]?.events[0];
    expect(event).toMatchObject({ from: "123", phone: undefined, profileName: undefined, timestamp: 1000 });
  });

  it.each(["image", "audio", "video", "document", "sticker"])("%s carries the provider media id, mime, caption and file name", (type) => {
    const m = one({ type, [type]: { id: "MEDIA1", mime_type: "x/y", sha256: "h", caption: "c", filename: "f.pdf" } });
    expect(m.type).toBe(type);
    expect(m.body).toBe("c");
    expect(m.media).toEqual({ kind: "provider", providerMediaId: "MEDIA1", mime: "x/y", fileName: "f.pdf", sha256: "h" });
  });

  it("media without a mime type defaults to application/octet-stream", () => {
    expect(one({ type: "audio", audio: { id: "A1" } }).media).toMatchObject({ mime: "application/octet-stream" });
  });

  it("interactive button_reply, list_reply and the template button become replies with their ids", () => {
    expect(one({ type: "interactive", interactive: { type: "button_reply", button_reply: { id: "b1", title: "Yes" } } })).toMatchObject({
      type: "button_reply",
      body: "Yes",
      payload: { replyId: "b1", title: "Yes" },
    });
    expect(one({ type: "interactive", interactive: { type: "list_reply", list_reply: { id: "r1", title: "Row", description: "D" } } })).toMatchObject({
      type: "list_reply",
      body: "Row",
      payload: { replyId: "r1", title: "Row", description: "D" },
    });
    expect(one({ type: "button", button: { text: "More", payload: "MORE" } })).toMatchObject({ type: "button_reply", body: "More", payload: { replyId: "MORE" } });
    expect(one({ type: "button", button: { text: "More" } })).toMatchObject({ payload: { replyId: "More" } });
  });

  it("location and contacts are normalised", () => {
    expect(one({ type: "location", location: { latitude: 1.5, longitude: -2 } })).toMatchObject({ type: "location", body: "1.5, -2" });
    expect(one({ type: "contacts", contacts: [{ name: { formatted_name: "Ana" }, phones: [{ phone: "+1 555" }] }] })).toMatchObject({
      type: "contact",
      body: "Ana",
      payload: { name: "Ana", phone: "+1 555" },
    });
  });

  it("unknown types and malformed known types become `unsupported` placeholders with the provider's type", () => {
    for (const message of [
      { type: "order", order: {} },
      { type: "order", order: { product_items: [] } },
      { type: "unsupported", errors: [{ code: 131051 }] },
      { type: "text" },
      { type: "text", text: { body: 5 } },
      { type: "image", image: {} },
      { type: "interactive", interactive: { type: "nfm_reply" } },
      { type: "location", location: { latitude: "north" } },
      { type: "contacts", contacts: [] },
    ]) {
      expect(one(message), JSON.stringify(message)).toMatchObject({ type: "unsupported", body: "", payload: { providerType: message.type } });
    }
  });

  it("context.id becomes the quoted provider id", () => {
    expect(one({ type: "text", text: { body: "re" }, context: { from: "15550783881", id: "wamid.Q" } }).quotedExternalId).toBe("wamid.Q");
  });

  it("statuses become status events; failed carries the first error's code and message; unknown statuses are skipped", () => {
    const routed = parseWhatsAppWebhook(
      change({
        statuses: [
          { id: "wamid.S", status: "sent", timestamp: "10", recipient_id: "5511988887777" },
          { id: "wamid.S", status: "delivered", timestamp: "11" },
          { id: "wamid.S", status: "read", timestamp: "12" },
          { id: "wamid.F", status: "failed", timestamp: "13", errors: [{ code: 131026, title: "Undeliverable", message: "Message undeliverable" }] },
          { id: "wamid.G", status: "failed", timestamp: "14", errors: [{ code: "131047", title: "Re-engagement" }] },
          { id: "wamid.P", status: "played", timestamp: "15" },
          { id: "wamid.D", status: "deleted", timestamp: "16" },
        ],
      }),
    );
    const events = routed[0]!.events as InboundStatus[];
    expect(events.map((e) => [e.externalId, e.status, e.timestamp])).toEqual([
      ["wamid.S", "sent", 10_000],
      ["wamid.S", "delivered", 11_000],
      ["wamid.S", "read", 12_000],
      ["wamid.F", "failed", 13_000],
      ["wamid.G", "failed", 14_000],
    ]);
    expect(events[3]).toMatchObject({ errorCode: "131026", errorMessage: "Message undeliverable" });
    expect(events[4]).toMatchObject({ errorCode: "131047", errorMessage: "Re-engagement" });
    expect(events[0]).not.toHaveProperty("errorCode");
  });

  it("several entries and changes are grouped per phone_number_id; other fields and empty changes are skipped; a change without metadata is rejected unrouted", () => {
    const routed = parseWhatsAppWebhook({
      object: "whatsapp_business_account",
      entry: [
        {
          id: "W1",
          changes: [
            { field: "messages", value: { metadata: { phone_number_id: "111" }, messages: [{ from: "1", id: "a", timestamp: "1", type: "text", text: { body: "a" } }] } },
            { field: "account_update", value: { metadata: { phone_number_id: "111" }, messages: [{ from: "1", id: "x", timestamp: "1", type: "text", text: { body: "x" } }] } },
            { field: "messages", value: { metadata: { phone_number_id: "111" }, messages: [] } },
          ],
        },
        { id: "W2", changes: [{ field: "messages", value: { metadata: { phone_number_id: "222" }, messages: [{ from: "2", id: "b", timestamp: "1", type: "text", text: { body: "b" } }] } }] },
        { id: "W3", changes: [{ field: "messages", value: { messages: [{ from: "3", id: "c", timestamp: "1", type: "text", text: { body: "c" } }] } }] },
      ],
    });
    expect(routed.map((r) => [r.route.value, r.events.map((e) => (e.kind === "message" ? e.externalId : e.kind === "rejected" ? e.reason : null))])).toEqual([
      ["111", ["a"]],
      ["222", ["b"]],
      ["", ["malformed_change"]],
    ]);
    // The body concerns several numbers: each batch keeps only its own changes.
    expect(routed[0]?.raw).toContain('"a"');
    expect(routed[0]?.raw).not.toContain('"b"');
  });

  it("messages without an identity or an id become rejected events, the others in the same change kept in order", () => {
    const routed = parseWhatsAppWebhook(
      change({
        messages: [
          { id: "no-from", timestamp: "1", type: "text", text: { body: "x" } },
          { from: "1", id: "m1", timestamp: "1", type: "text", text: { body: "1" } },
          null,
          { from: "1", timestamp: "1", type: "text", text: { body: "no id" } },
          { from: "1", id: "m2", timestamp: "2", type: "text", text: { body: "2" } },
        ],
      }),
    );
    expect(routed[0]?.events.map((e) => (e.kind === "message" ? e.externalId : e.kind === "rejected" ? e.reason : null))).toEqual([
      "no_sender_identity",
      "m1",
      "malformed_message",
      "malformed_message",
      "m2",
    ]);
  });

  it("a body that is not a WhatsApp Business Account envelope throws WebhookShapeError", () => {
    for (const body of [null, 42, "x", [], {}, { object: "page", entry: [] }, { object: "whatsapp_business_account" }, { object: "whatsapp_business_account", entry: [{ changes: {} }] }]) {
      expect(() => parseWhatsAppWebhook(body), JSON.stringify(body)).toThrow(WebhookShapeError);
    }
  });

  it("reaction, revoke and edit become changes of their target (not messages); an empty emoji removes the reaction", () => {
    const events = (message: Record<string, unknown>) =>
      parseWhatsAppWebhook(change({ contacts: [{ profile: { name: "Maria" }, wa_id: "5511988887777" }], messages: [{ from: "5511988887777", id: "wamid.1", timestamp: "1694427240", ...message }] }))[0]!.events;
    expect(events({ type: "reaction", reaction: { message_id: "wamid.0", emoji: "❤️" } })).toMatchObject([{ kind: "reaction", targetExternalId: "wamid.0", emoji: "❤️", from: "5511988887777" }]);
    expect(events({ type: "reaction", reaction: { message_id: "wamid.0" } })).toMatchObject([{ kind: "reaction", emoji: "" }]);
    expect(events({ type: "revoke", revoke: { original_message_id: "wamid.0" } })).toMatchObject([{ kind: "revoke", externalId: "wamid.0" }]);
    expect(events({ type: "edit", edit: { original_message_id: "wamid.0", message: { type: "image", image: { id: "M1", caption: "nova legenda" } } } })).toMatchObject([
      { kind: "edit", targetExternalId: "wamid.0", message: { externalId: "wamid.1", type: "image", body: "nova legenda" } },
    ]);
  });

  it("order, nfm_reply, system, referral and forwarded flags are kept", () => {
    expect(one({ type: "order", order: { catalog_id: "C", product_items: [{ product_retailer_id: "S", quantity: "3", item_price: 2.5, currency: "BRL" }] } })).toMatchObject({
      type: "order",
      payload: { catalogId: "C", items: [{ productRetailerId: "S", quantity: 3, itemPrice: 2.5, currency: "BRL" }] },
    });
    expect(one({ type: "interactive", interactive: { type: "nfm_reply", nfm_reply: { body: "Sent", response_json: '{"flow_token":"T","a":"1","b":{"c":2}}' } } })).toMatchObject({
      type: "flow_reply",
      body: "Sent",
      payload: { flowToken: "T", fields: { a: "1", b: '{"c":2}' } },
    });
    expect(one({ type: "system", system: { body: "User Maria changed from 5511988887777 to 5511977776666", wa_id: "5511977776666", type: "user_changed_number" } })).toMatchObject({
      type: "system",
      identityChange: { externalId: "5511977776666", phone: "+5511977776666" },
    });
    expect(one({ type: "text", text: { body: "ad" }, referral: { source_url: "https://fb.me/x", source_type: "ad", ctwa_clid: "CL", unknown: { x: 1 } } }).referral).toEqual({
      sourceUrl: "https://fb.me/x",
      sourceType: "ad",
      ctwaClid: "CL",
    });
    expect(one({ type: "text", text: { body: "f" }, context: { forwarded: true } }).forwarded).toBe(true);
    expect(one({ type: "text", text: { body: "f" }, context: { frequently_forwarded: true } }).forwarded).toBe(true);
    expect(one({ type: "text", text: { body: "f" } }).forwarded).toBeUndefined();
  });

  it("a sender without wa_id is identified by the business-scoped user id (contacts[].user_id, from_user_id, or a non-numeric from)", () => {
    const parse = (value: Record<string, unknown>) => parseWhatsAppWebhook(change(value))[0]!.events[0];
    expect(parse({ contacts: [{ profile: { name: "Ana" }, user_id: "BR.123abc" }], messages: [{ id: "w", timestamp: "1", type: "text", text: { body: "x" } }] })).toMatchObject({
      kind: "message",
      from: "BR.123abc",
      userId: "BR.123abc",
      phone: undefined,
      profileName: "Ana",
    });
    expect(parse({ messages: [{ from_user_id: "US.9", id: "w", timestamp: "1", type: "text", text: { body: "x" } }] })).toMatchObject({ from: "US.9", userId: "US.9" });
    expect(parse({ messages: [{ from: "US.9", id: "w", timestamp: "1", type: "text", text: { body: "x" } }] })).toMatchObject({ from: "US.9", phone: undefined });
    expect(parse({ contacts: [{ wa_id: "5511988887777", user_id: "BR.1" }], messages: [{ from: "5511988887777", id: "w", timestamp: "1", type: "text", text: { body: "x" } }] })).toMatchObject({
      from: "5511988887777",
      userId: "BR.1",
      phone: "+5511988887777",
    });
  });

  it("a failed status keeps errors[].error_data.details; Meta's value-level errors become a rejected event", () => {
    const routed = parseWhatsAppWebhook(
      change({
        statuses: [{ id: "wamid.F", status: "failed", timestamp: "13", errors: [{ code: 131026, title: "Undeliverable", error_data: { details: "Not a WhatsApp user." } }] }],
        errors: [{ code: 131000, title: "Something went wrong" }],
      }),
    );
    expect(routed[0]!.events).toMatchObject([
      { kind: "status", errorCode: "131026", errorDetails: "Not a WhatsApp user." },
      { kind: "rejected", reason: "provider_error" },
    ]);
  });

  it("an unknown type is shown as a placeholder and its raw payload kept as a rejected event (the body verbatim when given)", () => {
    const body = change({ contacts: [{ wa_id: "5511988887777" }], messages: [{ from: "5511988887777", id: "w", timestamp: "1", type: "poll", poll: {} }] });
    const raw = JSON.stringify(body);
    expect(parseWhatsAppWebhook(body, { raw })[0]!.events).toMatchObject([
      { kind: "message", type: "unsupported", payload: { providerType: "poll" }, rejected: { reason: "unknown_message_type", payload: raw } },
    ]);
  });

  it("a missing timestamp is the time of receipt", () => {
    const routed = parseWhatsAppWebhook(change({ messages: [{ from: "1", id: "w", type: "text", text: { body: "x" } }] }), { receivedAt: 42_000 });
    expect(routed[0]!.events[0]).toMatchObject({ timestamp: 42_000 });
  });
});
