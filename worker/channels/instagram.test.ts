/**
 * The Instagram adapter's sends (issue 15) against the stand-in: message shapes (quick replies,
 * generic template, attachments by URL), the 24-hour window with HUMAN_AGENT for members up to 7
 * days, and Meta's errors mapped to retryable or not.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { connections, type ConnectionRow } from "../../schema";
import { getDb } from "../lib/db";
import { listTickets, until } from "../test/channel-helpers";
import { type Account, activeCompanyId, call, expectStatus, register } from "../test/helpers";
import { adapterFor } from ".";
import { windowFor } from "./instagram";
import { deliverInstagram, fromCustomer, igFail, igId, igMessagesOf, igMid, instagramConnection, messagingWebhook } from "./instagram-test-helpers";

const DAY = 24 * 3600 * 1000;

describe("Instagram adapter", () => {
  let owner: Account;
  let ig: { id: string; igUserId: string };
  let row: ConnectionRow;
  beforeAll(async () => {
    owner = await register({ companyName: "Loja Envios" });
    ig = await instagramConnection(await activeCompanyId(owner.token));
    row = (await getDb(env.DB).query.connections.findFirst({ where: eq(connections.id, ig.id) }))!;
  });

  it("sends quick replies (at most 13, titles cut at 20), the generic template for a link, and attachments by URL", async () => {
    const adapter = adapterFor(env, row);
    const to = { externalId: igId("9") };
    const buttons = Array.from({ length: 15 }, (_, i) => ({ id: `opt-${i + 1}`, title: `Opção número ${i + 1} bem longa` }));
    expect(await adapter.send(row, to, { type: "buttons", body: "Escolha:", buttons })).toMatchObject({ ok: true });
    await adapter.send(row, to, { type: "link", body: "Nosso catálogo", buttonText: "Abrir", url: "https://loja.example/catalogo" });
    await adapter.send(row, to, { type: "document", media: { url: "https://app.example/api/media/x.pdf?sig=1", mime: "application/pdf", fileName: "x.pdf" } });
    const [quick, link, file] = (await igMessagesOf(ig.igUserId)).filter((r) => JSON.stringify(r.body).includes(to.externalId)).map((r) => r.body!);
    const replies = (quick!.message as { quick_replies: { title: string; payload: string }[] }).quick_replies;
    expect(replies).toHaveLength(13);
    expect(replies[0]).toEqual({ content_type: "text", title: "Opção número 1 bem l", payload: "opt-1" });
    expect(link!.message).toEqual({
      attachment: { type: "template", payload: { template_type: "generic", elements: [{ title: "Nosso catálogo", buttons: [{ type: "web_url", url: "https://loja.example/catalogo", title: "Abrir" }] }] } },
    });
    expect(file!.message).toEqual({ attachment: { type: "file", payload: { url: "https://app.example/api/media/x.pdf?sig=1" } } });
  });

  it("maps Meta's errors: a 5xx or rate limit is retryable, a refused send is not", async () => {
    const adapter = adapterFor(env, row);
    await igFail(`/${ig.igUserId}/messages`, 1, 500, 2, "Service temporarily unavailable");
    expect(await adapter.send(row, { externalId: igId("9") }, { type: "text", body: "oi" })).toMatchObject({ ok: false, errorCode: "2", retryable: true });
    await igFail(`/${ig.igUserId}/messages`, 1, 400, 10, "This message is sent outside of allowed window.");
    expect(await adapter.send(row, { externalId: igId("9") }, { type: "text", body: "oi" })).toMatchObject({ ok: false, errorCode: "10", retryable: false });
  });

  it("replies within 24 h as RESPONSE, a member's reply up to 7 days with the HUMAN_AGENT tag, and refuses anything later", async () => {
    const igsid = igId("9");
    const mid = igMid();
    await expectStatus(await deliverInstagram(messagingWebhook(ig.igUserId, [fromCustomer(ig.igUserId, igsid, { message: { mid, text: "Oi" } })])), 200);
    const ticket = (await listTickets(owner.token)).results[0]!;
    // The customer wrote three days ago.
    await env.DB.prepare("UPDATE messages SET sent_at = ? WHERE external_id = ?").bind(Date.now() - 3 * DAY, mid).run();
    await expectStatus(await call("POST", `/api/tickets/${ticket.id}/messages`, { token: owner.token, body: { type: "text", body: "Desculpe a demora!" } }), 201);
    const sent = await until(() => igMessagesOf(ig.igUserId), (r) => r.some((x) => JSON.stringify(x.body).includes("Desculpe a demora!")), "the member's late reply");
    expect(sent.find((x) => JSON.stringify(x.body).includes("Desculpe a demora!"))!.body).toMatchObject({ recipient: { id: igsid }, messaging_type: "MESSAGE_TAG", tag: "HUMAN_AGENT" });

    const memberMessage = await env.DB.prepare("SELECT id FROM messages WHERE ticket_id = ? AND direction = 'out' ORDER BY seq DESC").bind(ticket.id).first<{ id: string }>();
    const db = getDb(env.DB);
    expect(await windowFor(db, row, memberMessage!.id)).toEqual({ kind: "human_agent" });
    // A bot's message three days later may not go out.
    await env.DB.prepare("UPDATE messages SET sender_member_id = NULL WHERE id = ?").bind(memberMessage!.id).run();
    expect(await windowFor(db, row, memberMessage!.id)).toEqual({ kind: "closed" });

    // Eight days: not even a member.
    await env.DB.prepare("UPDATE messages SET sent_at = ? WHERE external_id = ?").bind(Date.now() - 8 * DAY, mid).run();
    await expectStatus(await call("POST", `/api/tickets/${ticket.id}/messages`, { token: owner.token, body: { type: "text", body: "Ainda aí?" } }), 201);
    const failed = await until(
      () => env.DB.prepare("SELECT status, error_code FROM messages WHERE ticket_id = ? AND body LIKE '%Ainda aí?%'").bind(ticket.id).first<{ status: string; error_code: string }>(),
      (r) => r?.status === "failed",
      "the send refused",
    );
    expect(failed!.error_code).toBe("outside_window");
  });
});
