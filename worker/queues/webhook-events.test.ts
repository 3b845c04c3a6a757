/**
 * The `webhook-events` consumer called directly (STYLE habit 4; issue 11): a redelivered message
 * runs the actions once (the tag, the field, the CRM column and the flow run are not repeated, even
 * when the request was not marked processed before the redelivery); a failing attempt is retried
 * with backoff and keeps its error; the dead-letter handler marks the request failed with that
 * reason; malformed messages are dropped.
 */
import { describe, expect, it } from "vitest";
import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { webhooks } from "../../schema";
import type { ContactAnswer } from "../../schema/api-types";
import type { FlowRunAnswer } from "../../schema/flow-api";
import type { WebhookAnswer } from "../../schema/validation/webhooks";
import { getDb } from "../lib/db";
import { faultScopeOf } from "../lib/faults";
import { storeRequest } from "../lib/webhooks";
import { sandboxConnection } from "../test/channel-helpers";
import { createColumn, createField, createTag } from "../test/contact-helpers";
import { flowDoc, publishedFlow } from "../test/flow-helpers";
import { HOTMART_PURCHASE_APPROVED } from "../test/fixtures/webhooks/hotmart-purchase";
import { activeCompanyId, call, countRows, expectStatus, register } from "../test/helpers";
import { consumeWebhookEvents, type WebhookEventMessage } from "./webhook-events";

/** A production webhook (Hotmart mapping) with four actions, and a request stored but not enqueued. */
async function storedRequest() {
  const owner = await register();
  const companyId = await activeCompanyId(owner.token);
  const tag = await createTag(owner.token, "Comprador");
  const field = await createField(owner.token, { name: "Transação", type: "text", kind: "user" });
  const column = await createColumn(owner.token, "Pagos");
  const { flow } = await publishedFlow(owner.token, flowDoc([{ id: "t", type: "text", data: { message: "Bem-vinda!" } }], [["start", "next", "t"]]));
  const connection = await sandboxConnection(owner.token);
  const created = await expectStatus<WebhookAnswer>(
    await call("POST", "/api/webhooks", {
      token: owner.token,
      body: {
        name: "Hotmart",
        mode: "production",
        mapping: { phone: "data.buyer.checkout_phone", name: "data.buyer.name", email: "data.buyer.email" },
        actions: [
          { type: "add_tag", tagId: tag.id },
          { type: "set_field", customFieldId: field.id, path: "data.purchase.transaction" },
          { type: "move_crm", columnId: column.id },
          { type: "start_flow", flowId: flow.id, connectionId: connection.id, condition: { path: "data.purchase.status", operator: "equals", value: "APPROVED" } },
        ],
      },
    }),
    201,
  );
  const db = getDb(env.DB);
  const row = await db.query.webhooks.findFirst({ where: eq(webhooks.id, created.id) });
  const stored = await storeRequest(db, row!, { contentType: "application/json", headers: {}, body: JSON.stringify(HOTMART_PURCHASE_APPROVED), at: Date.now() });
  expect(stored.state).toBe("pending");
  const message: WebhookEventMessage = { type: "webhook.request", companyId, requestId: stored.id };
  return { owner, companyId, requestId: stored.id, message, flowId: flow.id, columnId: column.id };
}

async function deliver(message: unknown, queue = "webhook-events", attempts = 1) {
  const batch = createMessageBatch<unknown>(queue, [{ id: `m-${crypto.randomUUID()}`, timestamp: new Date(), attempts, body: message }]);
  await consumeWebhookEvents(batch, env, queue.endsWith("-dlq"));
  return getQueueResult(batch, createExecutionContext());
}

async function contactOf(token: string): Promise<ContactAnswer> {
  const list = await expectStatus<{ results: ContactAnswer[] }>(await call("GET", "/api/contacts", { token }), 200);
  const contact = list.results.find((c) => c.phone === "+5521987651234");
  expect(contact).toBeDefined();
  return contact!;
}

async function requestRow(id: string) {
  return env.DB.prepare("SELECT state, error, result FROM webhook_requests WHERE id = ?").bind(id).first<{ state: string; error: string | null; result: string | null }>();
}

describe("webhook-events consumer", () => {
  it("runs the actions once when the queue redelivers, even before the request was marked processed", async () => {
    const { owner, companyId, requestId, message, flowId, columnId } = await storedRequest();
    expect((await deliver(message)).explicitAcks).toHaveLength(1);
    expect((await requestRow(requestId))?.state).toBe("processed");
    const contact = await contactOf(owner.token);
    const runs = async () => expectStatus<FlowRunAnswer[]>(await call("GET", `/api/contacts/${contact.id}/runs`, { token: owner.token }), 200);
    expect((await runs()).map((r) => r.flowId)).toEqual([flowId]);

    // Redelivered as is: nothing runs again.
    await deliver(message, "webhook-events", 2);
    // Redelivered after a crash between the actions and the "processed" mark: the markers hold.
    await env.DB.prepare("UPDATE webhook_requests SET state = 'pending', result = NULL WHERE id = ?").bind(requestId).run();
    await deliver(message, "webhook-events", 3);

    expect((await requestRow(requestId))?.state).toBe("processed");
    expect(await countRows("contacts", "company_id = ?", companyId)).toBe(1);
    expect(await countRows("contact_tags", "company_id = ?", companyId)).toBe(1);
    expect(await countRows("webhook_request_actions", "request_id = ?", requestId)).toBe(4);
    expect(await countRows("tickets", "company_id = ?", companyId)).toBe(1);
    expect((await runs()).map((r) => r.flowId)).toEqual([flowId]);
    const after = await expectStatus<ContactAnswer & { fields?: unknown }>(await call("GET", `/api/contacts/${contact.id}`, { token: owner.token }), 200);
    expect(JSON.stringify(after)).toContain("HP1763647100123");
    const placed = await env.DB.prepare("SELECT crm_column_id, crm_position FROM contacts WHERE id = ?").bind(contact.id).first<{ crm_column_id: string; crm_position: number }>();
    expect(placed).toEqual({ crm_column_id: columnId, crm_position: 1 });
    const result = JSON.parse((await requestRow(requestId))?.result ?? "null");
    expect(result.actions.map((a: { type: string; status: string }) => `${a.type}:${a.status}`)).toEqual(["add_tag:done", "set_field:done", "move_crm:done", "start_flow:done"]);
  });

  it("a failing attempt is retried with backoff and keeps its error; the dead-letter queue marks the request failed with it", async () => {
    const { requestId, message } = await storedRequest();
    await faultScopeOf(env, `job:${requestId}`).armFaults("queue", 1);
    const first = await deliver(message);
    expect(first.retryMessages).toHaveLength(1);
    expect(await requestRow(requestId)).toMatchObject({ state: "pending", error: "Injected fault (queue)" });

    const dead = await deliver(message, "webhook-events-dlq", 6);
    expect(dead.explicitAcks).toHaveLength(1);
    const row = await requestRow(requestId);
    expect(row?.state).toBe("failed");
    expect(row?.error).toMatch(/^Processing stopped after several failed attempts.*Last error: Injected fault \(queue\)/);
  });

  it("drops a malformed message", async () => {
    const result = await deliver({ type: "webhook.request", companyId: "nope" });
    expect(result.explicitAcks).toHaveLength(1);
    expect(result.retryMessages).toHaveLength(0);
  });
});
