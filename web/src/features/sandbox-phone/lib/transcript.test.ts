import { describe, expect, it } from "vitest";
import type { PhoneEntry } from "./protocol";
import { parseDeviceFrame } from "./protocol";
import {
  applyRead,
  applyReadUpTo,
  describeEntry,
  formatSegments,
  laterStatus,
  mergeEntries,
  phoneMediaUrl,
  sendableTypeOf,
  setEntryStatus,
  unreadCompanyMessages,
} from "./transcript";

const ORIGIN = "http://127.0.0.1:8791";
const line = (id: string, at: number, direction: PhoneEntry["direction"], status: PhoneEntry["status"], message: unknown = { type: "text", body: id }): PhoneEntry => ({
  id,
  phone: "+5511912345678",
  direction,
  message,
  status,
  at,
});

describe("mergeEntries", () => {
  it("dedupes by id, keeps order by time and the most advanced status", () => {
    const pending = line("a", 2, "from_customer", "pending");
    const merged = mergeEntries([pending], [line("b", 1, "to_customer", "sent"), line("a", 5, "from_customer", "sent")]);
    expect(merged.map((e) => e.id)).toEqual(["b", "a"]);
    expect(merged[1]?.status).toBe("sent");
    expect(merged[1]?.at).toBe(2);
    const again = mergeEntries(merged, [line("a", 2, "from_customer", "sent")]);
    expect(again).toHaveLength(2);
  });
  it("never moves a status back", () => {
    const merged = mergeEntries([line("a", 1, "to_customer", "read")], [line("a", 1, "to_customer", "sent")]);
    expect(merged[0]?.status).toBe("read");
    expect(laterStatus("failed", "sent")).toBe("sent");
  });
});

describe("statuses and ticks", () => {
  it("confirms, fails and retries a send", () => {
    let list = [line("a", 1, "from_customer", "pending")];
    list = setEntryStatus(list, "a", "failed");
    expect(list[0]?.status).toBe("failed");
    list = setEntryStatus(list, "a", "pending");
    expect(list[0]?.status).toBe("pending");
    list = setEntryStatus(list, "a", "sent");
    list = setEntryStatus(list, "a", "failed");
    expect(list[0]?.status).toBe("sent");
  });
  it("a read receipt turns that message and the earlier ones blue", () => {
    const list = [line("a", 1, "from_customer", "sent"), line("b", 2, "to_customer", "sent"), line("c", 3, "from_customer", "sent"), line("d", 4, "from_customer", "sent")];
    const { entries, upTo } = applyRead(list, "c");
    expect(upTo).toBe(3);
    expect(entries.map((e) => e.status)).toEqual(["read", "sent", "read", "sent"]);
    expect(applyRead(list, "zzz").upTo).toBeNull();
    expect(applyReadUpTo(list, 1)[0]?.status).toBe("read");
  });
  it("lists the company's messages still to report read", () => {
    const list = [line("a", 1, "to_customer", "sent"), line("b", 2, "to_customer", "read"), line("c", 3, "from_customer", "sent"), line("d", 4, "to_customer", "delivered")];
    expect(unreadCompanyMessages(list, new Set(["d"]))).toEqual(["a"]);
  });
});

describe("describeEntry", () => {
  it("shows the company's shapes", () => {
    expect(describeEntry(line("t", 1, "to_customer", "sent", { type: "text", body: "Olá" }), ORIGIN)).toEqual({ kind: "text", body: "Olá" });
    const image = describeEntry(
      line("i", 1, "to_customer", "sent", { type: "image", media: { url: "http://localhost:8787/api/media/x?sig=1", mime: "image/png" }, caption: "c" }),
      ORIGIN,
    );
    expect(image).toMatchObject({ kind: "image", url: `${ORIGIN}/api/media/x?sig=1`, caption: "c" });
    expect(describeEntry(line("b", 1, "to_customer", "sent", { type: "buttons", body: "Pick", buttons: [{ id: "y", title: "Yes" }] }), ORIGIN)).toMatchObject({
      kind: "buttons",
      buttons: [{ id: "y", title: "Yes" }],
    });
    expect(
      describeEntry(line("l", 1, "to_customer", "sent", { type: "list", body: "Menu", buttonText: "Open", sections: [{ title: "S", rows: [{ id: "r1", title: "Row" }] }] }), ORIGIN),
    ).toMatchObject({ kind: "list", buttonText: "Open" });
    expect(describeEntry(line("k", 1, "to_customer", "sent", { type: "link", body: "See", buttonText: "Go", url: "https://example.com/x" }), ORIGIN)).toMatchObject({
      kind: "link",
      url: "https://example.com/x",
    });
    expect(describeEntry(line("c", 1, "to_customer", "sent", { type: "contact", contact: { name: "Ana", phone: "+55119" } }), ORIGIN)).toEqual({
      kind: "contact",
      name: "Ana",
      phone: "+55119",
      organization: "",
    });
    expect(describeEntry(line("u", 1, "to_customer", "sent", { type: "hologram" }), ORIGIN)).toEqual({ kind: "unsupported" });
  });
  it("shows the customer's own messages, with media sent from this page", () => {
    const doc = line("d", 1, "from_customer", "sent", { type: "document", body: "a.pdf", media: { mime: "application/pdf", fileName: "a.pdf" } });
    expect(describeEntry(doc, ORIGIN)).toMatchObject({ kind: "document", url: null, fileName: "a.pdf" });
    expect(describeEntry(doc, ORIGIN, new Map([["d", "blob:x"]]))).toMatchObject({ url: "blob:x" });
    expect(describeEntry(line("r", 1, "from_customer", "sent", { type: "button_reply", body: "Yes" }), ORIGIN)).toEqual({ kind: "reply", body: "Yes" });
  });
  it("refuses script URLs", () => {
    expect(phoneMediaUrl("javascript:alert(1)", ORIGIN)).toBe("");
  });
});

describe("helpers", () => {
  it("maps a file's mime to the message type", () => {
    expect(sendableTypeOf("image/jpeg")).toBe("image");
    expect(sendableTypeOf("audio/ogg")).toBe("audio");
    expect(sendableTypeOf("video/mp4")).toBe("video");
    expect(sendableTypeOf("application/pdf")).toBe("document");
  });
  it("renders WhatsApp bold", () => {
    expect(formatSegments("*Ana:*\nHi")).toEqual([
      { text: "Ana:", bold: true },
      { text: "\nHi", bold: false },
    ]);
  });
  it("parses socket frames, ignoring unknown ones", () => {
    expect(parseDeviceFrame('{"type":"read","phone":"+1","externalId":"x"}')).toEqual({ type: "read", phone: "+1", externalId: "x" });
    expect(parseDeviceFrame('{"type":"disconnected"}')).toEqual({ type: "disconnected" });
    expect(parseDeviceFrame("nope")).toBeNull();
    expect(parseDeviceFrame('{"type":"other"}')).toBeNull();
  });
});
