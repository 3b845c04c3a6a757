import { describe, expect, it } from "vitest";
import { mentionedMembers, type InternalChatAnswer, type InternalMessageAnswer } from "../../../../../schema/validation/internal-chats";
import { applyTyping, chatRead, chatTitle, chatWithMessage, flattenMessages, insertMention, mentionAt, mentionCandidates, typingNames, withMessage } from "./internal-chats";

const member = (memberId: string, name: string) => ({ memberId, userId: `u-${memberId}`, name, image: null });

const chat = (over: Partial<InternalChatAnswer> = {}): InternalChatAnswer => ({
  id: "c1",
  kind: "group",
  name: "Vendas",
  createdByMemberId: "m1",
  members: [member("m1", "Ana Souza"), member("m2", "Bruno Lima")],
  lastMessage: null,
  lastSeq: 3,
  lastReadSeq: 3,
  unreadCount: 0,
  activityAt: 1000,
  createdAt: 1000,
  ...over,
});

const message = (seq: number, sender = "m2", body = `m${seq}`): InternalMessageAnswer => ({
  id: `msg-${seq}`,
  chatId: "c1",
  seq,
  sender: { memberId: sender, name: sender === "m1" ? "Ana Souza" : "Bruno Lima" },
  body,
  media: null,
  mentions: [],
  createdAt: 1000 + seq,
});

describe("internal chat list", () => {
  it("names a direct conversation after the other member, and null when they left", () => {
    const direct = chat({ kind: "direct", name: null });
    expect(chatTitle(direct, "m1")).toBe("Bruno Lima");
    expect(chatTitle({ ...direct, members: [member("m1", "Ana Souza")] }, "m1")).toBeNull();
    expect(chatTitle(chat(), "m1")).toBe("Vendas");
  });

  it("counts someone else's new message as unread unless the conversation is open, and never one's own", () => {
    expect(chatWithMessage(chat(), message(4), "m1", false)).toMatchObject({ unreadCount: 1, lastSeq: 4, lastMessage: { preview: "m4" } });
    expect(chatWithMessage(chat(), message(4), "m1", true)).toMatchObject({ unreadCount: 0, lastReadSeq: 4 });
    expect(chatWithMessage(chat({ unreadCount: 2, lastReadSeq: 1 }), message(4, "m1"), "m1", false)).toMatchObject({ unreadCount: 0, lastReadSeq: 4 });
    const same = chat();
    expect(chatWithMessage(same, message(3), "m1", false)).toBe(same);
  });

  it("clears the unread count with a read mark from another tab", () => {
    expect(chatRead(chat({ lastSeq: 5, lastReadSeq: 2, unreadCount: 3 }), 5)).toMatchObject({ unreadCount: 0, lastReadSeq: 5 });
    expect(chatRead(chat({ lastSeq: 5, lastReadSeq: 2, unreadCount: 3 }), 4)).toMatchObject({ unreadCount: 1 });
  });
});

describe("internal chat messages", () => {
  it("keeps each message once, in the conversation's order", () => {
    const data = { pages: [{ results: [message(3), message(4)], cursor: "x" }, { results: [message(1), message(2)], cursor: null }], pageParams: [null, "x"] };
    const added = withMessage(withMessage(data, message(5)), message(5));
    expect(flattenMessages(added).map((m) => m.seq)).toEqual([1, 2, 3, 4, 5]);
  });

  it("shows typing for a few seconds and ignores a replayed old typing event", () => {
    const now = 10_000;
    const typing = applyTyping(new Map(), { chatId: "c1", memberId: "m2", name: "Bruno Lima", state: "typing", at: now }, now);
    expect(typingNames(typing, "c1", now + 1000)).toEqual(["Bruno Lima"]);
    expect(typingNames(typing, "c1", now + 7000)).toEqual([]);
    expect(typingNames(applyTyping(typing, { chatId: "c1", memberId: "m2", name: "Bruno Lima", state: "paused", at: now + 10 }, now + 10), "c1", now + 20)).toEqual([]);
    expect(applyTyping(new Map(), { chatId: "c1", memberId: "m2", name: "Bruno Lima", state: "typing", at: now - 60_000 }, now).size).toBe(0);
  });
});

describe("@mentions", () => {
  const members = [member("m2", "Bruno Lima"), member("m3", "Bruna Alves"), member("m4", "Ana")];

  it("finds the mention being typed and the members it may name", () => {
    expect(mentionAt("oi @Bru", 7)).toEqual({ start: 3, query: "Bru" });
    expect(mentionAt("mail@x", 6)).toBeNull();
    expect(mentionCandidates(members, "bru").map((m) => m.name)).toEqual(["Bruno Lima", "Bruna Alves"]);
    expect(mentionCandidates(members, "bruno l").map((m) => m.name)).toEqual(["Bruno Lima"]);
    expect(insertMention("oi @Bru tudo", 3, 7, "Bruno Lima")).toEqual({ text: "oi @Bruno Lima  tudo", caret: 15 });
  });

  it("reads the members a text mentions by their full name, as the worker does", () => {
    expect(mentionedMembers("Oi @Bruno Lima e @ana, veja", members)).toEqual(["m2", "m4"]);
    expect(mentionedMembers("@Bruno Limao não é ninguém", members)).toEqual([]);
    expect(mentionedMembers("sem menção", members)).toEqual([]);
  });
});
