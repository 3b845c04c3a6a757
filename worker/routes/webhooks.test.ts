/**
 * Inbound webhooks end to end through the real worker (issue 11): managed under /api/webhooks,
 * received at the public POST /api/hooks/{token}, processed by the real `webhook-events` queue
 * consumer inside workerd, against the real local D1 and Durable Objects.
 *
 * Sample payloads of three platforms (worker/test/fixtures/webhooks/, each naming the
 * documentation page its field names come from) each end in the right contact, tag and flow run.
 * Also: test mode only captures; a blank name keeps the contact's name; 61 requests in a minute
 * switch the webhook to test mode and notify the members who manage webhooks; an unknown token
 * answers 404 and a body of 1 MiB + 1 byte 413, both with nothing stored; ids of another company in
 * the actions answer 400 naming the field; forms and multipart bodies are read.
 */
import { describe, expect, it } from "vitest";
import { env, runInDurableObject } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import type { ContactAnswer, TagAnswer } from "../../schema/api-types";
import type { FlowRunAnswer } from "../../schema/flow-api";
import type { WebhookAnswer, WebhookRequestPage } from "../../schema/validation/webhooks";
import { sandboxConnection } from "../test/channel-helpers";
import { createTag } from "../test/contact-helpers";
import { flowDoc, publishedFlow } from "../test/flow-helpers";
import { HOTMART_PURCHASE_APPROVED } from "../test/fixtures/webhooks/hotmart-purchase";
import { SHOPIFY_ORDER_CREATED } from "../test/fixtures/webhooks/shopify-order";
import { WOOCOMMERCE_ORDER_CREATED } from "../test/fixtures/webhooks/woocommerce-order";
import { activeCompanyId, call, countRows, expectInvalid, expectStatus, member, register, until, type Account } from "../test/helpers";
import { MAX_HOOK_BODY_BYTES } from "../../schema/validation/webhooks";
import { CYCLE_UNITS } from "../../schema/validation/shipping-cycles";

type Setup = { owner: Account; tag: TagAnswer; flowId: string; connectionId: string };

/** A company with a tag, a published one-message flow and a sandbox connection. */
async function setup(): Promise<Setup> {
  const owner = await register();
  const tag = await createTag(owner.token, `Cliente ${crypto.randomUUID().slice(0, 6)}`);
  const { flow } = await publishedFlow(owner.token, flowDoc([{ id: "t", type: "text", data: { message: "Obrigado pela compra!" } }], [["start", "next", "t"]]), "Pós-venda");
  const connection = await sandboxConnection(owner.token);
  return { owner, tag, flowId: flow.id, connectionId: connection.id };
}

async function createWebhook(token: string, body: Record<string, unknown>): Promise<WebhookAnswer> {
  return expectStatus<WebhookAnswer>(await call("POST", "/api/webhooks", { token, body: { name: `Loja ${crypto.randomUUID().slice(0, 6)}`, ...body } }), 201);
}

/** POSTs to a webhook's public URL (no session). */
async function hook(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const path = new URL(url).pathname;
  return call("POST", path, { headers: { "Content-Type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
}

async function requestsOf(token: string, webhookId: string): Promise<WebhookRequestPage> {
  return expectStatus<WebhookRequestPage>(await call("GET", `/api/webhooks/${webhookId}/requests`, { token }), 200);
}

/** Waits until the request `id` left `pending` (the real queue consumer ran). */
async function settled(token: string, webhookId: string, id: string) {
  let found: WebhookRequestPage["results"][number] | undefined;
  await until(
    async () => {
      found = (await requestsOf(token, webhookId)).results.find((r) => r.id === id);
      return Boolean(found && found.state !== "pending");
    },
    15_000,
    `request ${id} processed`,
  );
  return found!;
}

async function contactByPhone(token: string, phone: string): Promise<ContactAnswer | undefined> {
  const list = await expectStatus<{ results: ContactAnswer[] }>(await call("GET", `/api/contacts?search=${encodeURIComponent(phone)}`, { token }), 200);
  return list.results.find((c) => c.phone === phone);
}

async function runsOf(token: string, contactId: string): Promise<FlowRunAnswer[]> {
  return expectStatus<FlowRunAnswer[]>(await call("GET", `/api/contacts/${contactId}/runs`, { token }), 200);
}

describe("published payloads end in the right contact, tag and flow", () => {
  const platforms = [
    {
      // https://shopify.dev/docs/api/admin-rest/latest/resources/order (orders/create)
      platform: "Shopify orders/create",
      payload: SHOPIFY_ORDER_CREATED,
      mapping: { phone: "customer.phone", name: "billing_address.name", email: "contact_email" },
      condition: { path: "financial_status", operator: "equals", value: "paid" },
      headers: { "X-Shopify-Topic": "orders/create", "X-Shopify-Hmac-Sha256": "c2VjcmV0" },
      phone: "+5511971234567",
      name: "Joana Prado",
      email: "joana.prado@example.com",
    },
    {
      // https://woocommerce.github.io/woocommerce-rest-api-docs/#order-properties (order.created)
      platform: "WooCommerce order.created",
      payload: WOOCOMMERCE_ORDER_CREATED,
      mapping: { phone: "billing.phone", name: "billing.first_name", email: "billing.email" },
      condition: { path: "status", operator: "equals", value: "processing" },
      headers: { "X-WC-Webhook-Topic": "order.created" },
      phone: "+5531998765432",
      name: "Rafael",
      email: "rafael.monteiro@example.com",
    },
    {
      // https://developers.hotmart.com/docs/en/2.0.0/webhook/purchase-webhook/ (PURCHASE_APPROVED)
      platform: "Hotmart PURCHASE_APPROVED (2.0.0)",
      payload: HOTMART_PURCHASE_APPROVED,
      mapping: { phone: "data.buyer.checkout_phone", name: "data.buyer.name", email: "data.buyer.email" },
      condition: { path: "data.purchase.status", operator: "equals", value: "APPROVED" },
      headers: { "X-Hotmart-Hottok": "shared-secret" },
      phone: "+5521987651234",
      name: "Lúcia Ferraz",
      email: "lucia.ferraz@example.com",
    },
  ] as const;

  for (const sample of platforms) {
    it(`${sample.platform}: the contact is created with its name and e-mail, tagged, and the flow started`, async () => {
      const { owner, tag, flowId, connectionId } = await setup();
      const webhook = await createWebhook(owner.token, {
        mode: "production",
        mapping: sample.mapping,
        actions: [
          { type: "add_tag", tagId: tag.id },
          { type: "start_flow", flowId, connectionId, condition: sample.condition },
        ],
      });
      expect(webhook.url).toMatch(/^http:\/\/localhost:8787\/api\/hooks\/[A-Za-z0-9_-]{43}$/);
      const res = await hook(webhook.url, sample.payload, sample.headers);
      const accepted = await expectStatus<{ id: string; state: string }>(res, 202);
      expect(accepted.state).toBe("pending");
      const request = await settled(owner.token, webhook.id, accepted.id);
      expect(request.state, JSON.stringify(request)).toBe("processed");
      expect(request.result?.contact).toMatchObject({ phone: sample.phone, created: true });
      expect(request.result?.actions.map((a) => [a.type, a.status])).toEqual([
        ["add_tag", "done"],
        ["start_flow", "done"],
      ]);
      // Kept headers: the platform's topic and content type, never the shared secrets.
      expect(request.headers["content-type"]).toBe("application/json");
      expect(JSON.stringify(request.headers)).not.toMatch(/c2VjcmV0|shared-secret|Bearer/);

      const contact = await contactByPhone(owner.token, sample.phone);
      expect(contact, `contact ${sample.phone}`).toBeDefined();
      expect(contact).toMatchObject({ name: sample.name, email: sample.email });
      expect(contact?.tags.map((t) => t.id)).toEqual([tag.id]);
      const runs = await runsOf(owner.token, contact!.id);
      expect(runs.map((r) => r.flowId)).toEqual([flowId]);
    });
  }

  it("a condition that does not hold skips its action (a refunded order does not start the flow)", async () => {
    const { owner, tag, flowId, connectionId } = await setup();
    const webhook = await createWebhook(owner.token, {
      mode: "production",
      mapping: { phone: "data.buyer.checkout_phone", name: "data.buyer.name", email: "" },
      actions: [
        { type: "add_tag", tagId: tag.id },
        { type: "start_flow", flowId, connectionId, condition: { path: "data.purchase.status", operator: "equals", value: "APPROVED" } },
      ],
    });
    const refunded = structuredClone(HOTMART_PURCHASE_APPROVED);
    refunded.event = "PURCHASE_REFUNDED";
    refunded.data.purchase.status = "REFUNDED";
    refunded.data.buyer.checkout_phone = "5521987650001";
    const accepted = await expectStatus<{ id: string }>(await hook(webhook.url, refunded), 202);
    const request = await settled(owner.token, webhook.id, accepted.id);
    expect(request.result?.actions.map((a) => [a.type, a.status])).toEqual([
      ["add_tag", "done"],
      ["start_flow", "skipped"],
    ]);
    const contact = await contactByPhone(owner.token, "+5521987650001");
    expect(await runsOf(owner.token, contact!.id)).toEqual([]);
  });
});

describe("shipping cycles", () => {
  it("add_to_cycle enrols the contact in the cycle (once)", async () => {
    const { owner, flowId } = await setup();
    const cycle = await expectStatus<{ id: string }>(
      await call("POST", "/api/shipping-cycles", { token: owner.token, body: { name: "Boas-vindas", steps: [{ flowId, wait: { value: 1, unit: CYCLE_UNITS[3] } }] } }),
      201,
    );
    const webhook = await createWebhook(owner.token, { mode: "production", mapping: { phone: "phone", name: "", email: "" }, actions: [{ type: "add_to_cycle", cycleId: cycle.id }] });
    const first = await expectStatus<{ id: string }>(await hook(webhook.url, { phone: "+5511970000009" }), 202);
    expect((await settled(owner.token, webhook.id, first.id)).result?.actions).toEqual([{ index: 0, type: "add_to_cycle", status: "done", detail: "Boas-vindas" }]);
    const second = await expectStatus<{ id: string }>(await hook(webhook.url, { phone: "+5511970000009" }), 202);
    expect((await settled(owner.token, webhook.id, second.id)).result?.actions[0]?.status).toBe("skipped");
    const contact = await contactByPhone(owner.token, "+5511970000009");
    const cycles = await expectStatus<{ cycleId: string }[]>(await call("GET", `/api/contacts/${contact!.id}/shipping-cycles`, { token: owner.token }), 200);
    expect(cycles.map((c) => c.cycleId)).toEqual([cycle.id]);
  });
});

describe("modes and phone rules", () => {
  it("test mode only captures the request: no contact, no tag, no flow", async () => {
    const { owner, tag, flowId, connectionId } = await setup();
    const companyId = await activeCompanyId(owner.token);
    const webhook = await createWebhook(owner.token, {
      mode: "test",
      mapping: { phone: "customer.phone", name: "billing_address.name", email: "" },
      actions: [
        { type: "add_tag", tagId: tag.id },
        { type: "start_flow", flowId, connectionId },
      ],
    });
    const contactsBefore = await countRows("contacts", "company_id = ?", companyId);
    const accepted = await expectStatus<{ id: string; state: string }>(await hook(webhook.url, SHOPIFY_ORDER_CREATED), 202);
    expect(accepted.state).toBe("captured");
    // Give a (wrongly) enqueued message time to be consumed before asserting nothing happened.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const [request] = (await requestsOf(owner.token, webhook.id)).results;
    expect(request).toMatchObject({ id: accepted.id, state: "captured", result: null });
    expect(request?.body).toEqual(SHOPIFY_ORDER_CREATED);
    expect(await countRows("contacts", "company_id = ?", companyId)).toBe(contactsBefore);
    expect(await countRows("contact_tags", "company_id = ?", companyId)).toBe(0);
    expect(await countRows("webhook_request_actions", "company_id = ?", companyId)).toBe(0);
  });

  it("a blank name or e-mail keeps the contact's own", async () => {
    const { owner } = await setup();
    const existing = await expectStatus<ContactAnswer>(
      await call("POST", "/api/contacts", { token: owner.token, body: { name: "Maria Original", phone: "+5511970000001", email: "maria@example.com" } }),
      201,
    );
    const webhook = await createWebhook(owner.token, { mode: "production", mapping: { phone: "phone", name: "name", email: "email" } });
    const accepted = await expectStatus<{ id: string }>(await hook(webhook.url, { phone: "55 (11) 97000-0001", name: "   ", email: "" }), 202);
    const request = await settled(owner.token, webhook.id, accepted.id);
    expect(request.state).toBe("processed");
    expect(request.result?.contact).toMatchObject({ id: existing.id, created: false, nameUpdated: false, emailUpdated: false });
    const after = await expectStatus<ContactAnswer>(await call("GET", `/api/contacts/${existing.id}`, { token: owner.token }), 200);
    expect(after).toMatchObject({ name: "Maria Original", email: "maria@example.com" });
  });

  it("an unusable phone fails the request with that reason", async () => {
    const { owner } = await setup();
    const companyId = await activeCompanyId(owner.token);
    const webhook = await createWebhook(owner.token, { mode: "production", mapping: { phone: "buyer.phone", name: "", email: "" } });
    const accepted = await expectStatus<{ id: string }>(await hook(webhook.url, { buyer: { phone: "12-34" } }), 202);
    const request = await settled(owner.token, webhook.id, accepted.id);
    expect(request.state).toBe("failed");
    expect(request.error).toMatch(/not a usable phone number/);
    expect(await countRows("contacts", "company_id = ?", companyId)).toBe(0);
  });

  it("reads url-encoded and multipart forms by field name (files only named)", async () => {
    const { owner, tag } = await setup();
    const webhook = await createWebhook(owner.token, { mode: "production", mapping: { phone: "customer[phone]", name: "nome", email: "" }, actions: [{ type: "add_tag", tagId: tag.id }] });
    const path = new URL(webhook.url).pathname;
    const encoded = await exports.default.fetch(
      new Request(`http://localhost${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ "customer[phone]": "+55 11 97000-0002", nome: "Carla Dias" }).toString(),
      }),
    );
    const first = await expectStatus<{ id: string }>(encoded, 202);
    expect((await settled(owner.token, webhook.id, first.id)).state).toBe("processed");
    expect(await contactByPhone(owner.token, "+5511970000002")).toMatchObject({ name: "Carla Dias" });

    const data = new FormData();
    data.append("customer[phone]", "+55 11 97000-0003");
    data.append("nome", "Davi Lima");
    data.append("comprovante", new File(["%PDF-1.4"], "recibo.pdf", { type: "application/pdf" }));
    const second = await expectStatus<{ id: string }>(await call("POST", path, { form: data }), 202);
    const request = await settled(owner.token, webhook.id, second.id);
    expect(request.body).toEqual({ "customer[phone]": "+55 11 97000-0003", nome: "Davi Lima", comprovante: "[file] recibo.pdf" });
    expect(await contactByPhone(owner.token, "+5511970000003")).toMatchObject({ name: "Davi Lima" });
  });
});

describe("what the public URL refuses", () => {
  it("an unknown token answers 404 and stores nothing", async () => {
    const { owner } = await setup();
    const webhook = await createWebhook(owner.token, { mode: "production", mapping: { phone: "phone", name: "", email: "" } });
    const before = await countRows("webhook_requests");
    const wrong = webhook.url.replace(/.$/, (ch) => (ch === "A" ? "B" : "A"));
    const res = await hook(wrong, { phone: "+5511970000004" });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("not_found");
    expect((await hook("http://localhost/api/hooks/short", {})).status).toBe(404);
    expect(await countRows("webhook_requests")).toBe(before);
  });

  it("a body of 1 MiB + 1 byte answers 413 and stores nothing; exactly 1 MiB is accepted", async () => {
    const { owner } = await setup();
    const webhook = await createWebhook(owner.token, { mode: "test" });
    const text = (size: number) => {
      const head = '{"pad":"';
      return head + "x".repeat(size - head.length - 2) + '"}';
    };
    const res = await hook(webhook.url, text(MAX_HOOK_BODY_BYTES + 1));
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("payload_too_large");
    expect((await requestsOf(owner.token, webhook.id)).results).toEqual([]);
    await expectStatus(await hook(webhook.url, text(MAX_HOOK_BODY_BYTES)), 202);
    expect((await requestsOf(owner.token, webhook.id)).results).toHaveLength(1);
  });

  it("invalid JSON declared as JSON answers 400 naming the body", async () => {
    const { owner } = await setup();
    const webhook = await createWebhook(owner.token, { mode: "test" });
    await expectInvalid(await hook(webhook.url, "{not json"), "body", "invalid_json");
  });
});

describe("spam (spec §4)", () => {
  it("61 requests in a minute switch the webhook to test mode, notify the managers, and the excess is not processed", async () => {
    const { owner } = await setup();
    const companyId = await activeCompanyId(owner.token);
    const manager = await member(owner, ["webhooks"]);
    const other = await member(owner, ["tickets"]);
    const webhook = await createWebhook(owner.token, { mode: "production", mapping: { phone: "phone", name: "", email: "" } });
    const states: string[] = [];
    for (let i = 0; i < 61; i++) {
      const res = await hook(webhook.url, { phone: "" });
      states.push((await expectStatus<{ state: string }>(res, 202)).state);
    }
    expect(states.slice(0, 60).every((s) => s === "pending")).toBe(true);
    expect(states[60]).toBe("spam");
    const after = await expectStatus<WebhookAnswer>(await call("GET", `/api/webhooks/${webhook.id}`, { token: owner.token }), 200);
    expect(after.mode).toBe("test");
    expect(after.spamAt).toBeTypeOf("number");
    // A 62nd in the same minute is spam too (and the webhook is not switched again).
    expect((await expectStatus<{ state: string }>(await hook(webhook.url, { phone: "" }), 202)).state).toBe("spam");

    // The notification: one hub event, only for the members who manage webhooks.
    const hub = env.COMPANY_HUB.get(env.COMPANY_HUB.idFromName(companyId));
    await until(
      () =>
        runInDurableObject(hub, (_, state) =>
          state.storage.sql.exec<{ body: string }>("SELECT body FROM events").toArray().some((e) => e.body.includes("webhook_spam")),
        ),
      5_000,
      "the spam notification",
    );
    const events = await runInDurableObject(hub, (_, state) =>
      state.storage.sql.exec<{ body: string; audience: string }>("SELECT body, audience FROM events").toArray().filter((e) => e.body.includes("webhook_spam")),
    );
    expect(events).toHaveLength(1);
    const audience = JSON.parse(events[0]!.audience) as { members: string[] };
    expect(audience.members).toContain(manager.memberId);
    expect(audience.members).not.toContain(other.memberId);
    expect(JSON.parse(events[0]!.body)).toMatchObject({ type: "notification", notification: { kind: "webhook_spam", webhookId: webhook.id, limit: 60 } });

    // The spam requests are kept, never processed.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const spam = await env.DB.prepare("SELECT state, processed_at, result FROM webhook_requests WHERE webhook_id = ? AND state = 'spam'").bind(webhook.id).all();
    expect(spam.results).toHaveLength(2);
    expect(spam.results.every((r) => r.processed_at === null && r.result === null)).toBe(true);
  }, 60_000);
});

describe("managing webhooks", () => {
  it("ids of another company in the actions answer 400 naming the field; names are unique", async () => {
    const { owner, tag, flowId, connectionId } = await setup();
    const other = await setup();
    const res = await call("POST", "/api/webhooks", {
      token: owner.token,
      body: {
        name: "Vendas",
        actions: [
          { type: "add_tag", tagId: other.tag.id },
          { type: "start_flow", flowId: other.flowId, connectionId },
          { type: "add_tag", tagId: tag.id },
        ],
      },
    });
    const error = await expectInvalid(res, "actions.0.tagId", "invalid_id");
    expect(error.error.fields).toEqual({ "actions.0.tagId": "invalid_id", "actions.1.flowId": "invalid_id" });
    await expectInvalid(await call("POST", "/api/webhooks", { token: owner.token, body: { name: "X", mapping: { phone: "a..b" } } }), "mapping.phone", "invalid_path");
    await createWebhook(owner.token, { name: "Vendas", actions: [{ type: "start_flow", flowId, connectionId }] });
    expect((await call("POST", "/api/webhooks", { token: owner.token, body: { name: "vendas" } })).status).toBe(409);
  });

  it("switching back to production clears spamAt; DELETE removes the webhook and its requests", async () => {
    const { owner } = await setup();
    const webhook = await createWebhook(owner.token, { mode: "test", spamLimit: 1 });
    await expectStatus(await hook(webhook.url, { a: 1 }), 202);
    await expectStatus(await hook(webhook.url, { a: 2 }), 202);
    const states = (await requestsOf(owner.token, webhook.id)).results.map((r) => r.state);
    expect(states).toEqual(["spam", "captured"]);
    const updated = await expectStatus<WebhookAnswer>(
      await call("PUT", `/api/webhooks/${webhook.id}`, { token: owner.token, body: { name: webhook.name, mode: "production", spamLimit: 100 } }),
      200,
    );
    expect(updated).toMatchObject({ mode: "production", spamAt: null, url: webhook.url, spamLimit: 100 });
    await expectStatus(await call("DELETE", `/api/webhooks/${webhook.id}`, { token: owner.token }), 204);
    expect(await countRows("webhook_requests", "webhook_id = ?", webhook.id)).toBe(0);
    expect((await hook(webhook.url, { a: 3 })).status).toBe(404);
  });

  it("pages requests newest first with a cursor", async () => {
    const { owner } = await setup();
    const webhook = await createWebhook(owner.token, { mode: "test" });
    for (let i = 0; i < 3; i++) await expectStatus(await hook(webhook.url, { i }), 202);
    const first = await expectStatus<WebhookRequestPage>(await call("GET", `/api/webhooks/${webhook.id}/requests?limit=2`, { token: owner.token }), 200);
    expect(first.results.map((r) => r.body)).toEqual([{ i: 2 }, { i: 1 }]);
    const second = await expectStatus<WebhookRequestPage>(await call("GET", `/api/webhooks/${webhook.id}/requests?limit=2&cursor=${first.cursor}`, { token: owner.token }), 200);
    expect(second).toMatchObject({ results: [{ body: { i: 0 } }], cursor: null });
  });
});
