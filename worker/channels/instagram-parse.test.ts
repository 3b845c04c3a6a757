/**
 * The Instagram webhook parser (issue 15) on payloads of Meta's documented shapes
 * (shared/reference/wire-formats.md "Instagram", wire-formats-wave2.md §3.4).
 */
import { describe, expect, it } from "vitest";
import { InstagramShapeError, parseInstagramWebhook, storyMentionUrl } from "./instagram-parse";
import type { InboundMessage } from "./types";

const IG = "17841405793187218";
const USER = "1234567890123456";

function one(item: Record<string, unknown>) {
  const [entry] = parseInstagramWebhook({ object: "instagram", entry: [{ id: IG, time: 1_700_000_000_000, messaging: [{ sender: { id: USER }, recipient: { id: IG }, timestamp: 1_700_000_000_500, ...item }] }] });
  return entry!.events;
}

describe("parseInstagramWebhook", () => {
  it("refuses a body that is not an Instagram envelope", () => {
    expect(() => parseInstagramWebhook({ object: "whatsapp_business_account", entry: [] })).toThrow(InstagramShapeError);
    expect(() => parseInstagramWebhook({ object: "instagram" })).toThrow(InstagramShapeError);
  });

  it("reads a DM text with its sender and time, routed by the account id", () => {
    const [entry] = parseInstagramWebhook({ object: "instagram", entry: [{ id: IG, time: 1, messaging: [{ sender: { id: USER }, recipient: { id: IG }, timestamp: 1_700_000_000_500, message: { mid: "m1", text: "Oi!" } }] }] });
    expect(entry!.igUserId).toBe(IG);
    expect(entry!.events).toEqual([{ kind: "message", externalId: "m1", from: USER, timestamp: 1_700_000_000_500, type: "text", body: "Oi!" }]);
  });

  it("reads image, video, audio and file attachments as media to fetch from the CDN URL", () => {
    const events = one({
      message: {
        mid: "m2",
        attachments: [
          { type: "image", payload: { url: "https://cdn.example/a.jpg" } },
          { type: "video", payload: { url: "https://cdn.example/b.mp4" } },
          { type: "audio", payload: { url: "https://cdn.example/c.mp4" } },
          { type: "file", payload: { url: "https://cdn.example/d.pdf" } },
        ],
      },
    });
    expect(events.map((e) => (e.kind === "message" ? [e.externalId, e.type, e.media?.kind === "provider" ? e.media.providerMediaId : null] : e.kind))).toEqual([
      ["m2", "image", "https://cdn.example/a.jpg"],
      ["m2#1", "video", "https://cdn.example/b.mp4"],
      ["m2#2", "audio", "https://cdn.example/c.mp4"],
      ["m2#3", "document", "https://cdn.example/d.pdf"],
    ]);
  });

  it("keeps a story mention as its CDN link, never as media to copy", () => {
    const [event] = one({ message: { mid: "m3", attachments: [{ type: "story_mention", payload: { url: "https://lookaside.fbsbx.com/ig_messaging_cdn/?asset_id=1" } }] } });
    expect(event!.kind).toBe("message");
    const message = event as InboundMessage;
    expect(message.media).toBeUndefined();
    expect(storyMentionUrl(message)).toBe("https://lookaside.fbsbx.com/ig_messaging_cdn/?asset_id=1");
  });

  it("drops echoes of our own sends", () => {
    expect(one({ message: { mid: "m4", text: "Olá, sou a loja", is_echo: true } })).toEqual([]);
  });

  it("reads a reaction, and an unreact as a removal", () => {
    expect(one({ reaction: { mid: "m5", action: "react", reaction: "love", emoji: "❤️" } })).toMatchObject([{ kind: "reaction", targetExternalId: "m5", emoji: "❤️", from: USER }]);
    expect(one({ reaction: { mid: "m5", action: "unreact" } })).toMatchObject([{ kind: "reaction", targetExternalId: "m5", emoji: "" }]);
  });

  it("reads a postback and a quick reply as a button reply with the payload as reply id", () => {
    expect(one({ postback: { mid: "m6", title: "Falar com vendas", payload: "SALES" } })).toMatchObject([{ kind: "message", type: "button_reply", body: "Falar com vendas", payload: { replyId: "SALES" } }]);
    expect(one({ message: { mid: "m7", text: "Sim", quick_reply: { payload: "YES" } } })).toMatchObject([{ kind: "message", type: "button_reply", body: "Sim", payload: { replyId: "YES" } }]);
  });

  it("reads a read receipt as a read status, and a deleted message as a revoke", () => {
    expect(one({ read: { mid: "m8" } })).toMatchObject([{ kind: "status", externalId: "m8", status: "read" }]);
    expect(one({ message: { mid: "m9", is_deleted: true } })).toMatchObject([{ kind: "revoke", externalId: "m9", from: USER }]);
  });

  it("keeps what it cannot place as rejected, never drops it", () => {
    expect(one({ referral: { ref: "x" } })).toMatchObject([{ kind: "rejected", reason: "unknown_message_type" }]);
    expect(one({ message: { mid: "m10", attachments: [{ type: "mystery", payload: {} }] } })).toMatchObject([{ kind: "message", type: "unsupported", rejected: { reason: "unknown_message_type" } }]);
  });

  it("reads comments apart, skipping the account's own", () => {
    const [entry] = parseInstagramWebhook({
      object: "instagram",
      entry: [
        {
          id: IG,
          time: 1_700_000_000,
          changes: [
            { field: "comments", value: { from: { id: USER, username: "ana" }, media: { id: "179", media_product_type: "REELS" }, id: "c1", text: "Quero o preço" } },
            { field: "comments", value: { from: { id: IG, username: "loja" }, media: { id: "179" }, id: "c2", text: "Te chamei no direct" } },
          ],
        },
      ],
    });
    expect(entry!.comments).toEqual([{ id: "c1", fromId: USER, fromUsername: "ana", text: "Quero o preço", mediaId: "179", parentId: null, time: 1_700_000_000_000 }]);
    expect(entry!.events).toEqual([]);
  });
});
