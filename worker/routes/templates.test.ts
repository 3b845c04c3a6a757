/**
 * WhatsApp message templates (issue 10 "Templates"): synced from the WhatsApp Business Account
 * through the Graph API stand-in (`GET /{waba-id}/message_templates`, paged), kept per connection,
 * none for the sandbox; and sent with their parameters by the Cloud API adapter's `sendTemplate`.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { connections } from "../../schema";
import type { TemplatesAnswer } from "../../schema/validation/templates";
import { adapterFor } from "../channels";
import { parseTemplate, resolveTemplateSend, templateMessageBody } from "../channels/whatsapp-templates";
import { getDb } from "../lib/db";
import { call, expectError, expectInvalid, expectStatus, member, register } from "../test/helpers";
import { cloudConnection, sandboxConnection, sentTo, uniqueWaId } from "../test/channel-helpers";

/** Sets the WhatsApp Business Account's templates in the stand-in. */
async function setStandInTemplates(wabaId: string, templates: unknown[]): Promise<void> {
  const res = await fetch(`${env.META_STANDIN_ORIGIN}/__templates`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ wabaId, templates }) });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
}

const uniqueWabaId = () => String(100_000_000 + Math.floor(Math.random() * 899_999_999));

const ORDER = {
  name: "pedido_confirmado",
  language: "pt_BR",
  status: "APPROVED",
  category: "UTILITY",
  id: "1234567890",
  components: [
    { type: "HEADER", format: "TEXT", text: "Pedido {{1}}" },
    { type: "BODY", text: "Olá {{1}}, seu pedido {{2}} foi confirmado." },
    { type: "FOOTER", text: "Loja" },
    { type: "BUTTONS", buttons: [{ type: "QUICK_REPLY", text: "Ok" }] },
  ],
};
const PROMO = {
  name: "promo",
  language: "en_US",
  status: "PENDING",
  category: "MARKETING",
  id: "555",
  parameter_format: "NAMED",
  components: [{ type: "BODY", text: "Hi {{first_name}}!" }],
};

describe("templates", () => {
  it("syncs a connection's templates from the Graph API, every page, and lists them by status", async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    const wabaId = uniqueWabaId();
    await expectStatus(await call("PUT", `/api/connections/${connection.id}`, { token: owner.token, body: { wabaId } }), 200);
    // 120 templates, more than one page of 100: the sync follows the cursor.
    const many = Array.from({ length: 118 }, (_, i) => ({ name: `aviso_${String(i).padStart(3, "0")}`, language: "pt_BR", status: "APPROVED", category: "UTILITY", id: `9${i}`, components: [{ type: "BODY", text: "Aviso" }] }));
    await setStandInTemplates(wabaId, [ORDER, PROMO, ...many]);
    const synced = await expectStatus<TemplatesAnswer>(await call("POST", `/api/connections/${connection.id}/templates/sync`, { token: owner.token }), 200);
    expect(synced.templates).toHaveLength(120);
    expect(synced.syncedAt).toBeGreaterThan(Date.now() - 60_000);
    const order = synced.templates.find((t) => t.name === "pedido_confirmado");
    expect(order).toEqual({
      id: "1234567890",
      name: "pedido_confirmado",
      language: "pt_BR",
      category: "UTILITY",
      status: "APPROVED",
      parameterFormat: "POSITIONAL",
      components: ORDER.components,
      headerParams: ["1"],
      bodyParams: ["1", "2"],
    });
    expect(synced.templates.find((t) => t.name === "promo")).toMatchObject({ parameterFormat: "NAMED", bodyParams: ["first_name"], status: "PENDING" });
    // The request Meta got: the WABA's edge with the bearer token.
    const asked = (await (await fetch(`${env.META_STANDIN_ORIGIN}/__sent`)).json<{ method: string; path: string; authorization: string }[]>()).filter((r) => r.path.endsWith(`/${wabaId}/message_templates`));
    expect(asked).toHaveLength(2);
    expect(asked[0]?.authorization).toMatch(/^Bearer /);

    // Read back from storage; the stand-in's list changing does not show until the next sync.
    await setStandInTemplates(wabaId, [ORDER]);
    const listed = await expectStatus<TemplatesAnswer>(await call("GET", `/api/connections/${connection.id}/templates`, { token: owner.token }), 200);
    expect(listed).toEqual(synced);
    const approved = await expectStatus<TemplatesAnswer>(await call("GET", `/api/connections/${connection.id}/templates?status=approved`, { token: owner.token }), 200);
    expect(approved.templates.every((t) => t.status === "APPROVED")).toBe(true);
    expect(approved.templates).toHaveLength(119);
    const resynced = await expectStatus<TemplatesAnswer>(await call("POST", `/api/connections/${connection.id}/templates/sync`, { token: owner.token }), 200);
    expect(resynced.templates.map((t) => t.name)).toEqual(["pedido_confirmado"]);
  });

  it("a sandbox connection has no templates; a Cloud API connection without an account id cannot sync", async () => {
    const owner = await register();
    const sandbox = await sandboxConnection(owner.token);
    expect(await expectStatus<TemplatesAnswer>(await call("GET", `/api/connections/${sandbox.id}/templates`, { token: owner.token }), 200)).toEqual({ templates: [], syncedAt: null });
    expect(await expectStatus<TemplatesAnswer>(await call("POST", `/api/connections/${sandbox.id}/templates/sync`, { token: owner.token }), 200)).toEqual({ templates: [], syncedAt: null });
    const cloud = await cloudConnection(owner.token);
    expect(await expectStatus<TemplatesAnswer>(await call("GET", `/api/connections/${cloud.id}/templates`, { token: owner.token }), 200)).toEqual({ templates: [], syncedAt: null });
    await expectInvalid(await call("POST", `/api/connections/${cloud.id}/templates/sync`, { token: owner.token }), "wabaId", "required");
  });

  it("another company's connection answers 404; broadcasts may read and sync, a member without access may not", async () => {
    const owner = await register();
    const other = await register();
    const cloud = await cloudConnection(owner.token);
    const wabaId = uniqueWabaId();
    await expectStatus(await call("PUT", `/api/connections/${cloud.id}`, { token: owner.token, body: { wabaId } }), 200);
    await setStandInTemplates(wabaId, [ORDER]);
    await expectError(await call("GET", `/api/connections/${cloud.id}/templates`, { token: other.token }), 404, "not_found");
    await expectError(await call("POST", `/api/connections/${cloud.id}/templates/sync`, { token: other.token }), 404, "not_found");
    const marketer = await member(owner, ["broadcasts"]);
    expect((await expectStatus<TemplatesAnswer>(await call("GET", `/api/connections/${cloud.id}/templates`, { token: marketer.token }), 200)).templates.map((t) => t.name)).toEqual(["pedido_confirmado"]);
    const builder = await member(owner, ["flow"]);
    await expectStatus(await call("GET", `/api/connections/${cloud.id}/templates`, { token: builder.token }), 200);
    await expectError(await call("POST", `/api/connections/${cloud.id}/templates/sync`, { token: builder.token }), 403, "forbidden");
    const agent = await member(owner, ["tickets"]);
    await expectError(await call("GET", `/api/connections/${cloud.id}/templates`, { token: agent.token }), 403, "forbidden");
  });

  it("sendTemplate sends the template with its parameters in order through the Cloud API", async () => {
    const owner = await register();
    const cloud = await cloudConnection(owner.token);
    const row = await getDb(env.DB).query.connections.findFirst({ where: eq(connections.id, cloud.id) });
    if (!row) throw new Error("no connection");
    const adapter = adapterFor(env, row);
    const to = uniqueWaId();
    const result = await adapter.sendTemplate?.(row, { externalId: to }, { name: "pedido_confirmado", language: "pt_BR", headerParams: ["#1234"], bodyParams: ["Maria", "#1234"] }, "msg-ref");
    expect(result).toMatchObject({ ok: true });
    const sent = await sentTo(cloud.phoneNumberId);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to,
      type: "template",
      template: {
        name: "pedido_confirmado",
        language: { code: "pt_BR" },
        components: [
          { type: "header", parameters: [{ type: "text", text: "#1234" }] },
          { type: "body", parameters: [{ type: "text", text: "Maria" }, { type: "text", text: "#1234" }] },
        ],
      },
      biz_opaque_callback_data: "msg-ref",
    });
  });

  it("names the parameters of a NAMED template and keeps a template without parameters bare", () => {
    const promo = parseTemplate(PROMO);
    expect(promo?.bodyParams).toEqual(["first_name"]);
    expect(templateMessageBody({ name: "promo", language: "en_US", headerParams: [], bodyParams: ["Ana"], parameterNames: { header: [], body: promo?.bodyParams ?? [] } })).toEqual({
      type: "template",
      template: { name: "promo", language: { code: "en_US" }, components: [{ type: "body", parameters: [{ type: "text", text: "Ana", parameter_name: "first_name" }] }] },
    });
    expect(templateMessageBody({ name: "hello_world", language: "en_US", headerParams: [], bodyParams: [] })).toEqual({ type: "template", template: { name: "hello_world", language: { code: "en_US" } } });
    expect(parseTemplate({ name: "", language: "pt_BR" })).toBeNull();
  });

  it("fills a chosen template's parameters with the contact's variables", () => {
    const vars = new Map<string, string | null>([["first_name", "Ana"], ["pedido", "#77"], ["email", null]]);
    const order = parseTemplate(ORDER);
    expect(resolveTemplateSend({ name: "pedido_confirmado", language: "pt_BR", headerParams: ["{{pedido}}"], bodyParams: ["{{ first_name }}", "nº {{pedido}}"] }, order, vars)).toEqual({
      name: "pedido_confirmado",
      language: "pt_BR",
      headerParams: ["#77"],
      bodyParams: ["Ana", "nº #77"],
    });
    expect(resolveTemplateSend({ name: "promo", language: "en_US", headerParams: [], bodyParams: ["{{email}}"] }, parseTemplate(PROMO), vars)).toEqual({
      name: "promo",
      language: "en_US",
      headerParams: [],
      bodyParams: ["-"],
      parameterNames: { header: [], body: ["first_name"] },
    });
  });
});
