/**
 * Internal chat (issue 12): visibility (only members, 404 for everybody else on every route),
 * removal from the company, one direct conversation per pair, keyset paging, @mentions notifying
 * the member named, attachments typed by their bytes, unread counts, group editing rules, and real
 * time through the company hub to the conversation's members only, with catch-up after a reconnect.
 */
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:test";
import type { MeAnswer } from "../../schema/api-types";
import type { InternalChatAnswer, InternalChatPage, InternalMessageAnswer, InternalMessagePage } from "../../schema/validation/internal-chats";
import { type Account, type ErrorBody, type Member, activeCompanyId, call, countRows, expectInvalid, expectStatus, form, invite, member, pngFile, register } from "../test/helpers";
import { HTML_PAYLOAD } from "../test/media-fixtures";

type Frame = { type: string; seq?: number; chatId?: string; message?: { body: string }; notification?: { kind?: string; chatId?: string; from?: string; text?: string } };

/** Opens the hub socket of `token` through the worker; collects every frame. */
async function openHub(token: string, after?: number) {
  const query = `access_token=${encodeURIComponent(token)}${after !== undefined ? `&after=${after}` : ""}`;
  const res = await call("GET", `/api/ws/hub?${query}`, { headers: { Upgrade: "websocket" } });
  if (res.status !== 101) throw new Error(`expected 101, got ${res.status} ${await res.text()}`);
  const ws = res.webSocket;
  if (!ws) throw new Error("no WebSocket in the upgrade answer");
  const frames: Frame[] = [];
  ws.accept();
  ws.addEventListener("message", (e) => frames.push(JSON.parse(String(e.data))));
  await waitFor(() => frames, (f) => f.some((x) => x.type === "hello"));
  return { ws, frames };
}

async function waitFor<T>(read: () => T, check: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const value = read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A member of `owner`'s company holding `internal_chats`, renamed to `name` (mentions go by name). */
async function teammate(owner: Account, name: string): Promise<Member> {
  const joined = await member(owner, ["internal_chats"]);
  await env.DB.prepare("UPDATE users SET name = ? WHERE id = ?").bind(name, joined.userId).run();
  return { ...joined, name };
}

async function ownMemberId(token: string): Promise<string> {
  const me = await expectStatus<MeAnswer>(await call("GET", "/api/me", { token }), 200);
  const row = await env.DB.prepare("SELECT id FROM members WHERE user_id = ? AND company_id = ?").bind(me.id, await activeCompanyId(token)).first<{ id: string }>();
  if (!row) throw new Error("no membership");
  return row.id;
}

async function createGroup(token: string, name: string, memberIds: string[]): Promise<InternalChatAnswer> {
  return expectStatus<InternalChatAnswer>(await call("POST", "/api/internal-chats", { token, body: { kind: "group", name, memberIds } }), 201);
}

async function send(token: string, chatId: string, body: string): Promise<InternalMessageAnswer> {
  return expectStatus<InternalMessageAnswer>(await call("POST", `/api/internal-chats/${chatId}/messages`, { token, body: { body } }), 201);
}

/** A 404 of the conversation lookup (not the router's "No route for …"). */
async function expectConversation404(res: Response): Promise<void> {
  const body = await expectStatus<ErrorBody>(res, 404);
  expect(body.error, JSON.stringify(body)).toEqual({ code: "not_found", message: "Conversation not found." });
}

describe("internal chat: who reads a conversation", () => {
  it("answers 404 on every route to a member of the company who is not in the conversation, and to another company", async () => {
    const owner = await register({ name: "Ana Souza" });
    const bruno = await teammate(owner, "Bruno Lima");
    const carla = await teammate(owner, "Carla Dias");
    const group = await createGroup(owner.token, "Vendas", [bruno.memberId]);
    await send(owner.token, group.id, "só para o grupo");
    const outsider = await register({ companyName: "Outra" });
    const filesBefore = (await env.FILES.list({ prefix: `media/${bruno.companyId}/` })).objects.length;
    for (const who of [carla, outsider]) {
      const t = who.token;
      await expectConversation404(await call("GET", `/api/internal-chats/${group.id}`, { token: t }));
      await expectConversation404(await call("GET", `/api/internal-chats/${group.id}/messages`, { token: t }));
      await expectConversation404(await call("POST", `/api/internal-chats/${group.id}/messages`, { token: t, body: { body: "intruso" } }));
      await expectConversation404(await call("POST", `/api/internal-chats/${group.id}/messages`, { token: t, form: form({ file: pngFile() }) }));
      await expectConversation404(await call("POST", `/api/internal-chats/${group.id}/read`, { token: t }));
      await expectConversation404(await call("POST", `/api/internal-chats/${group.id}/typing`, { token: t, body: { state: "typing" } }));
      await expectConversation404(await call("PUT", `/api/internal-chats/${group.id}`, { token: t, body: { name: "Tomado", memberIds: [] } }));
      const list = await expectStatus<InternalChatPage>(await call("GET", "/api/internal-chats", { token: t }), 200);
      expect(list.results.map((c) => c.id)).not.toContain(group.id);
    }
    // Nothing an outsider sent was stored: no message, no file, the name unchanged.
    expect(await countRows("internal_chat_messages", "chat_id = ?", group.id)).toBe(1);
    expect((await env.FILES.list({ prefix: `media/${bruno.companyId}/` })).objects.length).toBe(filesBefore);
    const seen = await expectStatus<InternalChatAnswer>(await call("GET", `/api/internal-chats/${group.id}`, { token: bruno.token }), 200);
    expect(seen.name).toBe("Vendas");
  });

  it("a member removed from the company leaves its conversations and, invited back, cannot read them", async () => {
    const owner = await register({ name: "Ana Souza" });
    const bruno = await teammate(owner, "Bruno Lima");
    const group = await createGroup(owner.token, "Suporte", [bruno.memberId]);
    const direct = await expectStatus<InternalChatAnswer>(await call("POST", "/api/internal-chats", { token: owner.token, body: { kind: "direct", memberId: bruno.memberId } }), 201);
    await send(owner.token, group.id, "segredo do grupo");
    await expectStatus(await call("DELETE", `/api/companies/members/${bruno.memberId}`, { token: owner.token }), 204);
    expect(await countRows("internal_chat_members", "member_id = ?", bruno.memberId)).toBe(0);
    const after = await expectStatus<InternalChatAnswer>(await call("GET", `/api/internal-chats/${group.id}`, { token: owner.token }), 200);
    expect(after.members.map((m) => m.memberId)).toEqual([await ownMemberId(owner.token)]);
    // Invited again, the same person is a new member: the old conversations stay closed to them.
    const sent = await invite(owner, bruno.email, [bruno.roleId]);
    await expectStatus(await call("POST", `/api/companies/invite/${sent.id}/accept`, { token: bruno.token }), 200);
    await expectStatus(await call("PUT", "/api/me/change-active", { token: bruno.token, body: { companyId: bruno.companyId } }), 200);
    await expectConversation404(await call("GET", `/api/internal-chats/${group.id}/messages`, { token: bruno.token }));
    await expectConversation404(await call("GET", `/api/internal-chats/${direct.id}`, { token: bruno.token }));
    const list = await expectStatus<InternalChatPage>(await call("GET", "/api/internal-chats", { token: bruno.token }), 200);
    expect(list.results).toEqual([]);
  });
});

describe("internal chat: conversations", () => {
  it("keeps one direct conversation per pair: creating it again, from either side, answers the same one", async () => {
    const owner = await register({ name: "Ana Souza" });
    const bruno = await teammate(owner, "Bruno Lima");
    const first = await expectStatus<InternalChatAnswer>(await call("POST", "/api/internal-chats", { token: owner.token, body: { kind: "direct", memberId: bruno.memberId } }), 201);
    const again = await expectStatus<InternalChatAnswer>(await call("POST", "/api/internal-chats", { token: owner.token, body: { kind: "direct", memberId: bruno.memberId } }), 200);
    const reverse = await expectStatus<InternalChatAnswer>(await call("POST", "/api/internal-chats", { token: bruno.token, body: { kind: "direct", memberId: await ownMemberId(owner.token) } }), 200);
    expect(again.id).toBe(first.id);
    expect(reverse.id).toBe(first.id);
    expect(first.kind).toBe("direct");
    expect(first.members.map((m) => m.name)).toEqual(["Ana Souza", "Bruno Lima"]);
    expect(await countRows("internal_chats", "direct_key IS NOT NULL AND company_id = ?", bruno.companyId)).toBe(1);
    await expectInvalid(await call("POST", "/api/internal-chats", { token: owner.token, body: { kind: "direct", memberId: await ownMemberId(owner.token) } }), "memberId", "own_member");
    const stranger = await register({ companyName: "Outra" });
    await expectInvalid(await call("POST", "/api/internal-chats", { token: owner.token, body: { kind: "direct", memberId: await ownMemberId(stranger.token) } }), "memberId", "invalid_id");
    await expectInvalid(await call("POST", "/api/internal-chats", { token: owner.token, body: { kind: "group", name: "", memberIds: [bruno.memberId] } }), "name");
  });

  it("pages messages newest first with a keyset cursor, oldest first inside each page", async () => {
    const owner = await register();
    const bruno = await teammate(owner, "Bruno Lima");
    const group = await createGroup(owner.token, "Paginação", [bruno.memberId]);
    for (const body of ["um", "dois", "três", "quatro", "cinco"]) await send(owner.token, group.id, body);
    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?limit=2&cursor=${encodeURIComponent(cursor)}` : "?limit=2";
      const page: InternalMessagePage = await expectStatus<InternalMessagePage>(await call("GET", `/api/internal-chats/${group.id}/messages${query}`, { token: bruno.token }), 200);
      pages.push(page.results.map((m) => m.body));
      cursor = page.cursor;
    } while (cursor);
    expect(pages).toEqual([["quatro", "cinco"], ["dois", "três"], ["um"]]);
    await expectInvalid(await call("GET", `/api/internal-chats/${group.id}/messages?cursor=garbage`, { token: bruno.token }), "cursor", "invalid_cursor");
  });

  it("counts unread messages per member and clears them on read", async () => {
    const owner = await register();
    const bruno = await teammate(owner, "Bruno Lima");
    const group = await createGroup(owner.token, "Leitura", [bruno.memberId]);
    await send(owner.token, group.id, "primeira");
    await send(owner.token, group.id, "segunda");
    const listed = async (token: string) =>
      (await expectStatus<InternalChatPage>(await call("GET", "/api/internal-chats", { token }), 200)).results.find((c) => c.id === group.id);
    expect((await listed(bruno.token))?.unreadCount).toBe(2);
    expect((await listed(bruno.token))?.lastMessage?.preview).toBe("segunda");
    expect((await listed(owner.token))?.unreadCount).toBe(0);
    const read = await expectStatus<{ unreadCount: number; lastReadSeq: number }>(await call("POST", `/api/internal-chats/${group.id}/read`, { token: bruno.token }), 200);
    expect(read).toMatchObject({ unreadCount: 0, lastReadSeq: 2 });
    expect((await listed(bruno.token))?.unreadCount).toBe(0);
  });

  it("lets any member rename the group and add members, only its creator remove others, and anyone leave", async () => {
    const owner = await register({ name: "Ana Souza" });
    const bruno = await teammate(owner, "Bruno Lima");
    const carla = await teammate(owner, "Carla Dias");
    const ownerId = await ownMemberId(owner.token);
    const group = await createGroup(owner.token, "Equipe", [bruno.memberId]);
    const renamed = await expectStatus<InternalChatAnswer>(
      await call("PUT", `/api/internal-chats/${group.id}`, { token: bruno.token, body: { name: "Equipe B", memberIds: [ownerId, bruno.memberId, carla.memberId] } }),
      200,
    );
    expect(renamed.name).toBe("Equipe B");
    expect(renamed.members.map((m) => m.name)).toEqual(["Ana Souza", "Bruno Lima", "Carla Dias"]);
    const refused = await expectStatus<ErrorBody>(await call("PUT", `/api/internal-chats/${group.id}`, { token: bruno.token, body: { memberIds: [ownerId, bruno.memberId] } }), 403);
    expect(refused.error.fields).toEqual({ memberIds: "creator_only" });
    await expectStatus(await call("PUT", `/api/internal-chats/${group.id}`, { token: carla.token, body: { memberIds: [ownerId, bruno.memberId] } }), 204);
    await expectConversation404(await call("GET", `/api/internal-chats/${group.id}`, { token: carla.token }));
    const removed = await expectStatus<InternalChatAnswer>(await call("PUT", `/api/internal-chats/${group.id}`, { token: owner.token, body: { memberIds: [ownerId] } }), 200);
    expect(removed.members.map((m) => m.memberId)).toEqual([ownerId]);
    const direct = await expectStatus<InternalChatAnswer>(await call("POST", "/api/internal-chats", { token: owner.token, body: { kind: "direct", memberId: bruno.memberId } }), 201);
    await expectStatus(await call("PUT", `/api/internal-chats/${direct.id}`, { token: owner.token, body: { name: "Não" } }), 409);
  });

  it("stores an attachment typed by its bytes, never by the type the client declared", async () => {
    const owner = await register();
    const bruno = await teammate(owner, "Bruno Lima");
    const group = await createGroup(owner.token, "Arquivos", [bruno.memberId]);
    const html = new File([HTML_PAYLOAD], "foto.png", { type: "image/png" });
    const sentHtml = await expectStatus<InternalMessageAnswer>(await call("POST", `/api/internal-chats/${group.id}/messages`, { token: owner.token, form: form({ file: html, body: "veja" }) }), 201);
    expect(sentHtml.media?.mime).toBe("application/octet-stream");
    expect(sentHtml.body).toBe("veja");
    const png = new File([await pngFile().arrayBuffer()], "grafico.bin", { type: "application/octet-stream" });
    const sentPng = await expectStatus<InternalMessageAnswer>(await call("POST", `/api/internal-chats/${group.id}/messages`, { token: owner.token, form: form({ file: png }) }), 201);
    expect(sentPng.media?.mime).toBe("image/png");
    expect(sentPng.media?.name).toBe("grafico.bin");
    // The signed URL serves the HTML as a sandboxed download.
    const served = await call("GET", sentHtml.media?.url ?? "");
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("application/octet-stream");
    expect(served.headers.get("Content-Disposition")).toMatch(/^attachment/);
    await served.arrayBuffer();
    const list = await expectStatus<InternalChatPage>(await call("GET", "/api/internal-chats", { token: bruno.token }), 200);
    expect(list.results.find((c) => c.id === group.id)?.lastMessage?.preview).toBe("📎 grafico.bin");
    await expectInvalid(await call("POST", `/api/internal-chats/${group.id}/messages`, { token: owner.token, form: form({ body: "sem arquivo" }) }), "file");
  });
});

describe("internal chat: real time", () => {
  it("delivers messages and typing to the conversation's members only, and @mentions to the member named", async () => {
    const owner = await register({ name: "Ana Souza" });
    const bruno = await teammate(owner, "Bruno Lima");
    const carla = await teammate(owner, "Carla Dias");
    const dora = await teammate(owner, "Dora Reis");
    const group = await createGroup(owner.token, "Tempo real", [bruno.memberId, carla.memberId]);
    const hubs = { bruno: await openHub(bruno.token), carla: await openHub(carla.token), dora: await openHub(dora.token) };
    await expectStatus(await call("POST", `/api/internal-chats/${group.id}/typing`, { token: owner.token, body: { state: "typing" } }), 204);
    await send(owner.token, group.id, "Oi @Bruno Lima, pode ver isso?");
    for (const hub of [hubs.bruno, hubs.carla]) {
      const got = await waitFor(() => hub.frames.filter((f) => f.type === "internal_chat.message"), (f) => f.length > 0);
      expect(got[0]?.message?.body).toBe("Oi @Bruno Lima, pode ver isso?");
      expect(hub.frames.some((f) => f.type === "internal_chat.typing" && f.chatId === group.id)).toBe(true);
    }
    const mention = await waitFor(() => hubs.bruno.frames.filter((f) => f.type === "notification"), (f) => f.length > 0);
    expect(mention[0]?.notification).toMatchObject({ kind: "internal_mention", chatId: group.id, from: "Ana Souza", text: "Oi @Bruno Lima, pode ver isso?" });
    // A direct conversation between Ana and Dora afterwards reaches Dora: anything of the group sent to her before it would have arrived first.
    const direct = await expectStatus<InternalChatAnswer>(await call("POST", "/api/internal-chats", { token: owner.token, body: { kind: "direct", memberId: dora.memberId } }), 201);
    await send(owner.token, direct.id, "só para a Dora");
    await waitFor(() => hubs.dora.frames, (f) => f.some((x) => x.type === "internal_chat.message" && x.chatId === direct.id));
    expect(hubs.dora.frames.filter((f) => f.chatId === group.id || f.type === "notification")).toEqual([]);
    expect(hubs.carla.frames.filter((f) => f.type === "notification")).toEqual([]);
    expect(hubs.bruno.frames.filter((f) => f.chatId === direct.id)).toEqual([]);
    for (const hub of Object.values(hubs)) hub.ws.close(1000, "done");
  });

  it("a member who reconnects with after=<seq> receives the messages they missed, in order, once", async () => {
    const owner = await register();
    const bruno = await teammate(owner, "Bruno Lima");
    const group = await createGroup(owner.token, "Reconexão", [bruno.memberId]);
    const first = await openHub(bruno.token);
    const hello = first.frames.find((f) => f.type === "hello");
    first.ws.close(1000, "offline");
    for (const body of ["um", "dois", "três"]) await send(owner.token, group.id, body);
    const second = await openHub(bruno.token, hello?.seq ?? 0);
    const bodies = await waitFor(
      () => second.frames.filter((f) => f.type === "internal_chat.message").map((f) => f.message?.body),
      (b) => b.length >= 3,
    );
    expect(bodies).toEqual(["um", "dois", "três"]);
    second.ws.close(1000, "done");
  });
});
