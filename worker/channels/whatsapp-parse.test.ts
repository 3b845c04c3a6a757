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

  it("reaction, location and contacts are normalised", () => {
    expect(one({ type: "reaction", reaction: { message_id: "wamid.0", emoji: "❤️" } })).toMatchObject({ type: "reaction", body: "❤️", payload: { targetExternalId: "wamid.0" } });
    // A removed reaction comes without an emoji.
    expect(one({ type: "reaction", reaction: { message_id: "wamid.0" } })).toMatchObject({ type: "reaction", body: "", payload: { emoji: null } });
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
      { type: "system", system: { body: "changed number" } },
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

  it("several entries and changes are grouped per phone_number_id; other fields and empty changes are skipped", () => {
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
    expect(routed.map((r) => [r.route.value, r.events.map((e) => (e.kind === "message" ? e.externalId : null))])).toEqual([
      ["111", ["a"]],
      ["222", ["b"]],
    ]);
  });

  it("messages without from or id are dropped, the others in the same change kept in order", () => {
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
    expect(routed[0]?.events.map((e) => (e.kind === "message" ? e.externalId : null))).toEqual(["m1", "m2"]);
  });

  it("a body that is not a WhatsApp Business Account envelope throws WebhookShapeError", () => {
    for (const body of [null, 42, "x", [], {}, { object: "page", entry: [] }, { object: "whatsapp_business_account" }, { object: "whatsapp_business_account", entry: [{ changes: {} }] }]) {
      expect(() => parseWhatsAppWebhook(body), JSON.stringify(body)).toThrow(WebhookShapeError);
    }
  });
});
