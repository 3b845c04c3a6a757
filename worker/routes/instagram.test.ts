/**
 * Instagram (issue 15) against the Instagram stand-in (standins/instagram-graph.ts): business
 * login with a single-use state, the signed webhook into tickets through the same pipeline as
 * WhatsApp, story mentions and their flow, comment automations, and the token refresh job.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../lib/db";
import { JOBS } from "../scheduled";
import { instagramAccounts } from "../../schema";
import { eq } from "drizzle-orm";
import { decryptSecret } from "../lib/secrets";
import { secretsKey } from "../channels";
import { listTickets, ticketMessages, until } from "../test/channel-helpers";
import { flowDoc, publishedFlow } from "../test/flow-helpers";
import { type Account, activeCompanyId, call, countRows, expectInvalid, expectStatus, member, pngFile, register } from "../test/helpers";
import {
  commentWebhook,
  deliverInstagram,
  fromCustomer,
  igId,
  igFail,
  igMedia,
  igMessagesOf,
  igMid,
  igSent,
  instagramConnection,
  messagingWebhook,
} from "../channels/instagram-test-helpers";

type Connected = { id: string; name: string; channel: string; status: string; accessTokenHint: string | null };

/** Walks the login as the browser would: authorize → the stand-in's consent page → its Allow link. */
async function consent(token: string): Promise<{ code: string; state: string }> {
  const { url } = await expectStatus<{ url: string }>(await call("POST", "/api/channels/instagram/authorize", { token }), 200);
  const page = await (await fetch(url)).text();
  const href = /href="([^"]+)"[^>]*>Allow</.exec(page)?.[1];
  expect(href, page).toBeDefined();
  const redirect = new URL(href!.replace(/&#38;/g, "&"));
  expect(redirect.pathname).toBe("/callback/instagram");
  return { code: `${redirect.searchParams.get("code")}${redirect.hash}`, state: redirect.searchParams.get("state") ?? "" };
}

async function setAccount(userId: string, username: string) {
  await fetch(`${env.INSTAGRAM_STANDIN_ORIGIN}/__account`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ userId, username }) });
}

async function messagesOfOnlyTicket(token: string) {
  const tickets = await listTickets(token);
  expect(tickets.total, JSON.stringify(tickets)).toBe(1);
  return (await ticketMessages(token, tickets.results[0]!.id, "limit=100")).results;
}

describe("Instagram business login", () => {
  let owner: Account;
  beforeAll(async () => {
    owner = await register({ companyName: "Loja IG" });
  });

  it("connects the account: a CONNECTED instagram connection, the token encrypted and never returned, webhooks subscribed", async () => {
    const igUserId = igId();
    await setAccount(igUserId, "lojadaana");
    const { code, state } = await consent(owner.token);
    const connection = await expectStatus<Connected>(await call("POST", "/api/channels/instagram/callback", { token: owner.token, body: { code, state } }), 200);
    expect(connection).toMatchObject({ channel: "instagram", status: "CONNECTED", name: "Instagram @lojadaana" });
    expect(JSON.stringify(connection)).not.toContain("IGQW");
    const account = await getDb(env.DB).query.instagramAccounts.findFirst({ where: eq(instagramAccounts.connectionId, connection.id) });
    expect(account).toMatchObject({ igUserId, username: "lojadaana" });
    expect(account!.tokenExpiresAt).toBeGreaterThan(Date.now() + 59 * 24 * 3600 * 1000);
    const row = await env.DB.prepare("SELECT access_token_enc FROM connections WHERE id = ?").bind(connection.id).first<{ access_token_enc: string }>();
    expect(row!.access_token_enc).not.toContain("IGQW");
    expect(await decryptSecret(secretsKey(env), row!.access_token_enc)).toMatch(/^IGQWlong/);
    const subscribed = (await igSent()).find((r) => r.path.endsWith(`/${igUserId}/subscribed_apps`));
    expect(subscribed?.query.subscribed_fields).toBe("messages,messaging_postbacks,messaging_reactions,messaging_seen,comments");
  });

  it("refuses a replayed state: the second use of a state answers 400 invalid_state", async () => {
    await setAccount(igId(), "replay");
    const first = await consent(owner.token);
    await expectStatus(await call("POST", "/api/channels/instagram/callback", { token: owner.token, body: first }), 200);
    await expectInvalid(await call("POST", "/api/channels/instagram/callback", { token: owner.token, body: first }), "state", "invalid_state");
  });

  it("refuses a forged state and another user's state, and calls nothing at Instagram", async () => {
    await setAccount(igId(), "forged");
    const { code, state } = await consent(owner.token);
    const before = (await igSent()).filter((r) => r.path === "/oauth/access_token").length;
    await expectInvalid(await call("POST", "/api/channels/instagram/callback", { token: owner.token, body: { code, state: `${state.slice(0, -4)}AAAA` } }), "state", "invalid_state");
    const teammate = await member(owner, ["connections"]);
    await expectInvalid(await call("POST", "/api/channels/instagram/callback", { token: teammate.token, body: { code, state } }), "state", "invalid_state");
    expect((await igSent()).filter((r) => r.path === "/oauth/access_token").length).toBe(before);
    // The owner's state is still good: a foreign use did not burn it.
    await expectStatus(await call("POST", "/api/channels/instagram/callback", { token: owner.token, body: { code, state } }), 200);
  });

  it("answers the handshake only with the verify token", async () => {
    const ok = await call("GET", "/api/channels/instagram/webhook?hub.mode=subscribe&hub.verify_token=test-instagram-verify-token&hub.challenge=42abc");
    expect(await ok.text()).toBe("42abc");
    expect((await call("GET", "/api/channels/instagram/webhook?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1")).status).toBe(403);
  });
});

describe("Instagram webhook", () => {
  let owner: Account;
  let companyId: string;
  let ig: { id: string; igUserId: string };
  beforeAll(async () => {
    owner = await register({ companyName: "Loja DM" });
    companyId = await activeCompanyId(owner.token);
    ig = await instagramConnection(companyId);
  });

  it("refuses a bad signature with 401 and stores nothing", async () => {
    const mid = igMid();
    const payload = messagingWebhook(ig.igUserId, [fromCustomer(ig.igUserId, igId("9"), { message: { mid, text: "oi" } })]);
    expect((await deliverInstagram(payload, "not-the-app-secret")).status).toBe(401);
    const raw = JSON.stringify(payload);
    expect((await call("POST", "/api/channels/instagram/webhook", { body: raw })).status).toBe(401);
    expect(await countRows("messages", "external_id = ?", mid)).toBe(0);
  });

  it("stores a DM text in a ticket, once, the contact named from its Instagram profile and known by its IGSID", async () => {
    const igsid = igId("9");
    await fetch(`${env.INSTAGRAM_STANDIN_ORIGIN}/__profiles`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ igsid, name: "Ana Lima", username: "analima", profile_pic: "https://cdn.example/ana.jpg" }) });
    const mid = igMid();
    const payload = messagingWebhook(ig.igUserId, [fromCustomer(ig.igUserId, igsid, { message: { mid, text: "Oi, tem tamanho M?" } })]);
    expect(await expectStatus(await deliverInstagram(payload), 200)).toMatchObject({ stored: 1 });
    expect(await expectStatus(await deliverInstagram(payload), 200)).toMatchObject({ stored: 0, duplicates: 1 });
    const messages = await messagesOfOnlyTicket(owner.token);
    expect(messages.map((m) => [m.direction, m.type, m.body])).toEqual([["in", "text", "Oi, tem tamanho M?"]]);
    const contact = await env.DB.prepare("SELECT c.name FROM contacts c JOIN contact_identities i ON i.contact_id = c.id WHERE i.channel = 'instagram' AND i.external_id = ?").bind(igsid).first<{ name: string }>();
    expect(contact?.name).toBe("Ana Lima");
    const profile = await env.DB.prepare("SELECT username, picture_url FROM instagram_profiles WHERE company_id = ? AND igsid = ?").bind(companyId, igsid).first();
    expect(profile).toEqual({ username: "analima", picture_url: "https://cdn.example/ana.jpg" });
  });

  it("stores an image from the CDN in R2, applies a reaction and a read receipt, ignores an echo", async () => {
    const igsid = igId("9");
    const url = await igMedia(`photo-${igsid}.png`, "image/png", new Uint8Array(await pngFile().arrayBuffer()));
    const image = igMid();
    await expectStatus(await deliverInstagram(messagingWebhook(ig.igUserId, [fromCustomer(ig.igUserId, igsid, { message: { mid: image, attachments: [{ type: "image", payload: { url } }] } })])), 200);
    const stored = await env.DB.prepare("SELECT type, media_key, media_mime, ticket_id FROM messages WHERE external_id = ?").bind(image).first<{ type: string; media_key: string; media_mime: string; ticket_id: string }>();
    expect(stored).toMatchObject({ type: "image", media_mime: "image/png" });
    expect(await env.FILES.head(stored!.media_key)).not.toBeNull();

    await expectStatus(await deliverInstagram(messagingWebhook(ig.igUserId, [fromCustomer(ig.igUserId, igsid, { reaction: { mid: image, action: "react", reaction: "love", emoji: "❤️" } })])), 200);
    const reacted = await env.DB.prepare("SELECT reactions FROM messages WHERE external_id = ?").bind(image).first<{ reactions: string }>();
    expect(reacted!.reactions).toContain("❤️");

    const echo = igMid();
    await expectStatus(await deliverInstagram(messagingWebhook(ig.igUserId, [{ sender: { id: ig.igUserId }, recipient: { id: igsid }, timestamp: Date.now(), message: { mid: echo, text: "Resposta da loja", is_echo: true } }])), 200);
    expect(await countRows("messages", "external_id = ?", echo)).toBe(0);

    // Our own message, sent and then read by the customer.
    await expectStatus(await call("POST", `/api/tickets/${stored!.ticket_id}/messages`, { token: owner.token, body: { type: "text", body: "Linda foto!" } }), 201);
    const sentRow = await until(
      () => env.DB.prepare("SELECT external_id, status FROM messages WHERE ticket_id = ? AND direction = 'out'").bind(stored!.ticket_id).first<{ external_id: string | null; status: string }>(),
      (r) => r?.status === "sent",
      "the reply sent",
    );
    const sends = await igMessagesOf(ig.igUserId);
    expect(sends.at(-1)!.body).toMatchObject({ recipient: { id: igsid }, messaging_type: "RESPONSE" });
    expect(JSON.stringify(sends.at(-1)!.body)).toContain("Linda foto!");
    await expectStatus(await deliverInstagram(messagingWebhook(ig.igUserId, [fromCustomer(ig.igUserId, igsid, { read: { mid: sentRow!.external_id } })])), 200);
    const read = await env.DB.prepare("SELECT status FROM messages WHERE external_id = ?").bind(sentRow!.external_id).first<{ status: string }>();
    expect(read!.status).toBe("read");
  });

  it("takes a postback as the button's answer (its payload as reply id)", async () => {
    const igsid = igId("9");
    const mid = igMid();
    await expectStatus(await deliverInstagram(messagingWebhook(ig.igUserId, [fromCustomer(ig.igUserId, igsid, { postback: { mid, title: "Ver catálogo", payload: "CATALOG" } })])), 200);
    const row = await env.DB.prepare("SELECT type, body, payload FROM messages WHERE external_id = ?").bind(mid).first<{ type: string; body: string; payload: string }>();
    expect(row).toMatchObject({ type: "button_reply", body: "Ver catálogo" });
    expect(JSON.parse(row!.payload)).toMatchObject({ replyId: "CATALOG" });
  });
});

describe("Story mentions", () => {
  it("shows the story's CDN link in the ticket (nothing copied to R2) and starts the connection's story-mention flow", async () => {
    const owner = await register({ companyName: "Loja Stories" });
    const companyId = await activeCompanyId(owner.token);
    const ig = await instagramConnection(companyId);
    const { flow } = await publishedFlow(owner.token, flowDoc([{ id: "t", type: "text", data: { message: "Obrigado pela menção!" } }], [["start", "next", "t"]]), "Menções");
    await expectStatus(await call("PUT", "/api/companies/default-flows", { token: owner.token, body: { channelId: ig.id, storyFlowId: flow.id } }), 200);
    const igsid = igId("9");
    const mid = igMid();
    const cdn = "https://lookaside.fbsbx.com/ig_messaging_cdn/?asset_id=17912345&signature=abc";
    await expectStatus(await deliverInstagram(messagingWebhook(ig.igUserId, [fromCustomer(ig.igUserId, igsid, { message: { mid, attachments: [{ type: "story_mention", payload: { url: cdn } }] } })])), 200);
    const messages = await until(() => messagesOfOnlyTicket(owner.token), (list) => list.some((m) => m.direction === "out"), "the story flow's answer");
    const mention = messages.find((m) => m.direction === "in")!;
    expect(mention.payload).toMatchObject({ storyMention: { url: cdn } });
    expect(mention.media).toBeNull();
    expect(messages.find((m) => m.direction === "out")!.body).toBe("Obrigado pela menção!");
    await until(() => igMessagesOf(ig.igUserId), (sends) => sends.some((s) => JSON.stringify(s.body).includes("Obrigado pela menção!")), "the answer sent to Instagram");
  });
});

describe("Comment automations", () => {
  let owner: Account;
  let ig: { id: string; igUserId: string };
  let flowId: string;
  beforeAll(async () => {
    owner = await register({ companyName: "Loja Comentários" });
    ig = await instagramConnection(await activeCompanyId(owner.token));
    flowId = (await publishedFlow(owner.token, flowDoc([{ id: "t", type: "text", data: { message: "Aqui está o link do catálogo" } }], [["start", "next", "t"]]), "Catálogo")).flow.id;
  });

  it("creates, lists, edits and deletes rules; another channel's connection answers 400", async () => {
    const body = { name: "Preço", rules: [{ type: "contains", words: ["preço"] }], privateReply: "Te mandei o preço no direct!", publicReply: "Enviamos no direct 😉", flowId };
    const created = await expectStatus<{ id: string; mediaIds: null }>(await call("POST", `/api/connections/${ig.id}/comment-rules`, { token: owner.token, body }), 201);
    expect(created.mediaIds).toBeNull();
    const list = await expectStatus<{ id: string }[]>(await call("GET", `/api/connections/${ig.id}/comment-rules`, { token: owner.token }), 200);
    expect(list.map((r) => r.id)).toContain(created.id);
    const edited = await expectStatus<{ name: string; mediaIds: string[] }>(
      await call("PUT", `/api/connections/${ig.id}/comment-rules/${created.id}`, { token: owner.token, body: { ...body, name: "Preço (reels)", mediaIds: ["17999"] } }),
      200,
    );
    expect(edited).toMatchObject({ name: "Preço (reels)", mediaIds: ["17999"] });
    expect((await call("DELETE", `/api/connections/${ig.id}/comment-rules/${created.id}`, { token: owner.token })).status).toBe(204);
    const sandbox = await expectStatus<{ id: string }>(await call("POST", "/api/connections", { token: owner.token, body: { channel: "sandbox", name: "Sandbox X" } }), 201);
    await expectInvalid(await call("POST", `/api/connections/${sandbox.id}/comment-rules`, { token: owner.token, body }), "channel", "not_instagram");
  });

  it("answers a matching comment with one private and one public reply, also when the notification comes twice; a DM afterwards starts the rule's flow", async () => {
    await expectStatus(
      await call("POST", `/api/connections/${ig.id}/comment-rules`, {
        token: owner.token,
        body: { name: "Catálogo", rules: [{ type: "contains", words: ["catálogo"] }], privateReply: "Oi! Quer receber o catálogo?", publicReply: "Te chamamos no direct!", flowId },
      }),
      201,
    );
    const commenter = igId("9");
    const commentId = igId("179");
    const payload = commentWebhook(ig.igUserId, { id: commentId, fromId: commenter, text: "Quero o CATALOGO por favor" });
    expect(await expectStatus(await deliverInstagram(payload), 200)).toMatchObject({ comments: { replied: 1 } });
    expect(await expectStatus(await deliverInstagram(payload), 200)).toMatchObject({ comments: { duplicate: 1 } });
    const sent = await igSent();
    const privateReplies = sent.filter((r) => r.path.endsWith(`/${ig.igUserId}/messages`) && JSON.stringify(r.body).includes(commentId));
    expect(privateReplies.map((r) => r.body)).toEqual([{ recipient: { comment_id: commentId }, message: { text: "Oi! Quer receber o catálogo?" } }]);
    const publicReplies = sent.filter((r) => r.path.endsWith(`/${commentId}/replies`));
    expect(publicReplies.map((r) => r.query.message)).toEqual(["Te chamamos no direct!"]);

    // A private reply Instagram could not take for a moment: 502, nothing kept, so Meta's redelivery acts.
    const retried = igId("179");
    await igFail(`/${ig.igUserId}/messages`, 1, 503, 2, "Service temporarily unavailable");
    const flaky = commentWebhook(ig.igUserId, { id: retried, fromId: igId("9"), text: "catálogo?" });
    expect((await deliverInstagram(flaky)).status).toBe(502);
    expect(await countRows("instagram_comment_actions", "comment_id = ?", retried)).toBe(0);
    expect(await expectStatus(await deliverInstagram(flaky), 200)).toMatchObject({ comments: { replied: 1 } });

    // A comment that matches no rule gets nothing.
    const other = igId("179");
    expect(await expectStatus(await deliverInstagram(commentWebhook(ig.igUserId, { id: other, fromId: commenter, text: "Lindo!" })), 200)).toMatchObject({ comments: { no_rule: 1 } });

    // The person answers the DM: the rule's flow starts and answers.
    await expectStatus(await deliverInstagram(messagingWebhook(ig.igUserId, [fromCustomer(ig.igUserId, commenter, { message: { mid: igMid(), text: "Quero sim!" } })])), 200);
    await until(() => igMessagesOf(ig.igUserId), (sends) => sends.some((s) => JSON.stringify(s.body).includes("Aqui está o link do catálogo") && JSON.stringify(s.body).includes(commenter)), "the rule's flow answer");
    const action = await env.DB.prepare("SELECT flow_started_at FROM instagram_comment_actions WHERE comment_id = ?").bind(commentId).first<{ flow_started_at: number | null }>();
    expect(action!.flow_started_at).not.toBeNull();
  });
});

describe("Token refresh job", () => {
  it("refreshes a token that expires soon and is over a day old, leaves a fresh one, and disconnects an expired one", async () => {
    const owner = await register({ companyName: "Loja Tokens" });
    const companyId = await activeCompanyId(owner.token);
    // A real long-lived token of the stand-in, obtained through the login.
    const igUserId = igId();
    await setAccount(igUserId, "tokens");
    const { code, state } = await consent(owner.token);
    const connected = await expectStatus<Connected>(await call("POST", "/api/channels/instagram/callback", { token: owner.token, body: { code, state } }), 200);
    const db = getDb(env.DB);
    const at = Date.now();
    await db.update(instagramAccounts).set({ tokenExpiresAt: at + 3 * 24 * 3600 * 1000, tokenRefreshedAt: at - 58 * 24 * 3600 * 1000 }).where(eq(instagramAccounts.connectionId, connected.id));
    const fresh = await instagramConnection(companyId, igId(), { expiresAt: at + 3 * 24 * 3600 * 1000, refreshedAt: at - 3600 * 1000 });
    const expired = await instagramConnection(companyId, igId(), { expiresAt: at - 1000, refreshedAt: at - 61 * 24 * 3600 * 1000 });
    const before = await env.DB.prepare("SELECT access_token_enc FROM connections WHERE id = ?").bind(connected.id).first<{ access_token_enc: string }>();

    // Through the scheduled handler's job list (worker/scheduled.ts), as the cron runs it.
    await JOBS.find((job) => job.name === "instagram-tokens")!.run(env, at);

    const account = await db.query.instagramAccounts.findFirst({ where: eq(instagramAccounts.connectionId, connected.id) });
    expect(account!.tokenExpiresAt).toBeGreaterThan(at + 59 * 24 * 3600 * 1000);
    const after = await env.DB.prepare("SELECT access_token_enc FROM connections WHERE id = ?").bind(connected.id).first<{ access_token_enc: string }>();
    expect(await decryptSecret(secretsKey(env), after!.access_token_enc)).not.toBe(await decryptSecret(secretsKey(env), before!.access_token_enc));
    expect((await db.query.instagramAccounts.findFirst({ where: eq(instagramAccounts.connectionId, fresh.id) }))!.tokenExpiresAt).toBe(at + 3 * 24 * 3600 * 1000);
    const status = await env.DB.prepare("SELECT status FROM connections WHERE id = ?").bind(expired.id).first<{ status: string }>();
    expect(status!.status).toBe("DISCONNECTED");
  });
});
