/**
 * /api/broadcasts (issue 10 "Broadcasts"): validation (flow, scheduledDate, filters), tenancy
 * (another company's broadcast answers 404), the current/history tabs, the live audience count,
 * the status transitions, the recipients with their reasons (opted out), the `last_campaign`
 * built-in field, a scheduled start, and replies routed to the connection's campaign flow.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ContactDetailAnswer, Page } from "../../schema/api-types";
import type { AudienceAnswer, BroadcastDetail, BroadcastRecipientRow } from "../../schema/validation/broadcasts";
import { cloudConnection, deliverOk, pairSandbox, sandboxConnection, sentTo, textWebhook, uniqueWaId, wamid } from "../test/channel-helpers";
import { createColumn, createContact, createTag } from "../test/contact-helpers";
import { createFlow, flowDoc, publishedFlow } from "../test/flow-helpers";
import { call, expectInvalid, expectStatus, register } from "../test/helpers";

async function company() {
  const owner = await register({ companyName: "Loja" });
  const connection = await sandboxConnection(owner.token);
  // A paired sandbox phone takes the messages (an unpaired one refuses them: `send_failed`).
  await pairSandbox(owner.token, connection.id);
  const { flow } = await publishedFlow(owner.token, flowDoc([{ id: "t", type: "text", data: { message: "Oferta!" } }], [["start", "next", "t"]]), "Oferta");
  return { token: owner.token, connectionId: connection.id, flowId: flow.id };
}

type Company = Awaited<ReturnType<typeof company>>;

function body(c: Company, extra: Record<string, unknown> = {}) {
  return { name: "Natal", connectionId: c.connectionId, flowId: c.flowId, delay: "very_short", filters: [], ...extra };
}

async function create(c: Company, extra: Record<string, unknown> = {}): Promise<BroadcastDetail> {
  return expectStatus<BroadcastDetail>(await call("POST", "/api/broadcasts", { token: c.token, body: body(c, extra) }), 201);
}

async function waitDone(c: Company, id: string, ms = 60_000): Promise<BroadcastDetail> {
  const end = Date.now() + ms;
  for (;;) {
    const b = await expectStatus<BroadcastDetail>(await call("GET", `/api/broadcasts/${id}`, { token: c.token }), 200);
    if (b.status === "done") return b;
    if (Date.now() > end) throw new Error(`not done: ${JSON.stringify(b)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("broadcast validation", () => {
  it("a flow that is not published answers 400 flowId: invalid_flow", async () => {
    const c = await company();
    const draft = await createFlow(c.token, { name: "Rascunho" });
    await expectInvalid(await call("POST", "/api/broadcasts", { token: c.token, body: body(c, { flowId: draft.id }) }), "flowId", "invalid_flow");
  });

  it("another company's flow answers 400 flowId: invalid_flow", async () => {
    const c = await company();
    const other = await company();
    await expectInvalid(await call("POST", "/api/broadcasts", { token: c.token, body: body(c, { flowId: other.flowId }) }), "flowId", "invalid_flow");
  });

  it("a scheduledDate earlier than now answers 400 scheduledDate: invalid_scheduled_date", async () => {
    const c = await company();
    const past = new Date(Date.now() - 60_000).toISOString();
    await expectInvalid(await call("POST", "/api/broadcasts", { token: c.token, body: body(c, { scheduledDate: past }) }), "scheduledDate", "invalid_scheduled_date");
    await expectInvalid(await call("POST", "/api/broadcasts", { token: c.token, body: body(c, { scheduledDate: "amanhã" }) }), "scheduledDate", "invalid_scheduled_date");
  });

  it("an unknown delay preset and a condition that does not fit its item answer 400 naming the field", async () => {
    const c = await company();
    await expectInvalid(await call("POST", "/api/broadcasts", { token: c.token, body: body(c, { delay: "instant" }) }), "delay", "invalid_delay");
    const tag = await createTag(c.token, "VIP");
    await expectInvalid(
      await call("POST", "/api/broadcasts", { token: c.token, body: body(c, { filters: [{ item: "tag", condition: "greater", tag: tag.id }] }) }),
      "filters.0.condition",
      "invalid_condition",
    );
  });

  it("another company's tag in a filter answers 400 filters.0.tag: invalid_id", async () => {
    const c = await company();
    const other = await company();
    const tag = await createTag(other.token, "Deles");
    await expectInvalid(await call("POST", "/api/broadcasts/audience", { token: c.token, body: { connectionId: c.connectionId, filters: [{ item: "tag", condition: "has_tag", tag: tag.id }] } }), "filters.0.tag", "invalid_id");
  });
});

describe("broadcast tenancy", () => {
  it("another company's broadcast answers 404 on every route", async () => {
    const a = await company();
    const b = await company();
    const theirs = await create(b);
    for (const [method, path, payload] of [
      ["GET", `/api/broadcasts/${theirs.id}`, undefined],
      ["PUT", `/api/broadcasts/${theirs.id}`, { name: "Mine now" }],
      ["DELETE", `/api/broadcasts/${theirs.id}`, undefined],
      ["POST", `/api/broadcasts/${theirs.id}/start`, undefined],
      ["POST", `/api/broadcasts/${theirs.id}/pause`, undefined],
      ["POST", `/api/broadcasts/${theirs.id}/resume`, undefined],
      ["GET", `/api/broadcasts/${theirs.id}/recipients`, undefined],
    ] as const) {
      const res = await call(method, path, { token: a.token, body: payload });
      expect((await expectStatus<{ error: { code: string } }>(res, 404)).error.code, `${method} ${path}`).toBe("not_found");
    }
    const still = await expectStatus<BroadcastDetail>(await call("GET", `/api/broadcasts/${theirs.id}`, { token: b.token }), 200);
    expect(still).toMatchObject({ name: "Natal", status: "waiting" });
    const list = await expectStatus<Page<BroadcastDetail>>(await call("GET", "/api/broadcasts", { token: a.token }), 200);
    expect(list.results.map((r) => r.id)).not.toContain(theirs.id);
  });
});

describe("broadcast lifecycle", () => {
  it("the current tab lists waiting ones newest first with a cursor; a deleted one is cancelled into history", async () => {
    const c = await company();
    const first = await create(c, { name: "Um" });
    const second = await create(c, { name: "Dois" });
    const third = await create(c, { name: "Três" });
    const page1 = await expectStatus<Page<BroadcastDetail>>(await call("GET", "/api/broadcasts?tab=current&limit=2", { token: c.token }), 200);
    expect(page1.results.map((r) => r.id)).toEqual([third.id, second.id]);
    expect(page1.total).toBe(3);
    const page2 = await expectStatus<Page<BroadcastDetail>>(await call("GET", `/api/broadcasts?tab=current&limit=2&cursor=${page1.cursor}`, { token: c.token }), 200);
    expect(page2.results.map((r) => r.id)).toEqual([first.id]);
    expect(page2.cursor).toBeNull();
    await expectStatus(await call("DELETE", `/api/broadcasts/${second.id}`, { token: c.token }), 204);
    const history = await expectStatus<Page<BroadcastDetail>>(await call("GET", "/api/broadcasts?tab=history", { token: c.token }), 200);
    expect(history.results.map((r) => [r.id, r.status])).toEqual([[second.id, "cancelled"]]);
    // Deleting one in history removes it.
    await expectStatus(await call("DELETE", `/api/broadcasts/${second.id}`, { token: c.token }), 204);
    await expectStatus(await call("GET", `/api/broadcasts/${second.id}`, { token: c.token }), 404);
  });

  it("pausing or resuming a waiting broadcast answers 409; a started one only changes its name and delay", async () => {
    const c = await company();
    const b = await create(c);
    expect((await expectStatus<{ error: { code: string } }>(await call("POST", `/api/broadcasts/${b.id}/pause`, { token: c.token }), 409)).error.code).toBe("conflict");
    expect((await expectStatus<{ error: { code: string } }>(await call("POST", `/api/broadcasts/${b.id}/resume`, { token: c.token }), 409)).error.code).toBe("conflict");
    const renamed = await expectStatus<BroadcastDetail>(await call("PUT", `/api/broadcasts/${b.id}`, { token: c.token, body: { name: "Ano novo", delay: "long" } }), 200);
    expect(renamed).toMatchObject({ name: "Ano novo", delay: "long", status: "waiting" });
  });

  it("the audience count follows the filters: tag, CRM column, creation date", async () => {
    const c = await company();
    const vip = await createTag(c.token, "VIP");
    const column = await createColumn(c.token, "Quentes");
    const tagged = await createContact(c.token, { name: "Ana", tags: [vip.id] });
    await createContact(c.token, { name: "Bruno", tags: [vip.id] });
    await createContact(c.token, { name: "Carla" });
    await expectStatus(await call("PUT", `/api/crm/contacts/${tagged.id}`, { token: c.token, body: { columnId: column.id } }), 200);
    const count = async (filters: unknown[]) =>
      (await expectStatus<AudienceAnswer>(await call("POST", "/api/broadcasts/audience", { token: c.token, body: { connectionId: c.connectionId, filters } }), 200)).count;
    expect(await count([])).toBe(3);
    expect(await count([{ item: "tag", condition: "has_tag", tag: vip.id }])).toBe(2);
    expect(await count([{ item: "tag", condition: "has_not_tag", tag: vip.id }])).toBe(1);
    expect(await count([{ item: "tag", condition: "has_tag", tag: vip.id }, { item: "crm_column", condition: "is_not", value: column.id }])).toBe(1);
    expect(await count([{ item: "created_date", condition: "before", value: "2000-01-01" }])).toBe(0);
    expect(await count([{ item: "custom_field", condition: "contains", fieldId: "default:full_name", value: "ar" }])).toBe(1);
  });

  it("a sandbox broadcast sends without a window, rejects an opted-out contact with opted_out, ends in history and sets last_campaign", { timeout: 90_000 }, async () => {
    const c = await company();
    const vip = await createTag(c.token, "Clientes");
    const ana = await createContact(c.token, { name: "Ana", tags: [vip.id] });
    const bia = await createContact(c.token, { name: "Bia", tags: [vip.id] });
    await createContact(c.token, { name: "Fora" });
    await env.DB.prepare("UPDATE contacts SET opted_out_at = ? WHERE id = ?").bind(Date.now(), bia.id).run();
    const b = await create(c, { name: "Promoção de verão", filters: [{ item: "tag", condition: "has_tag", tag: vip.id }] });
    const started = await expectStatus<BroadcastDetail>(await call("POST", `/api/broadcasts/${b.id}/start`, { token: c.token }), 200);
    expect(started.status).toBe("started");
    const done = await waitDone(c, b.id);
    expect(done.counts).toEqual({ total: 2, sent: 1, rejected: 1, pending: 0 });
    const rejected = await expectStatus<Page<BroadcastRecipientRow>>(await call("GET", `/api/broadcasts/${b.id}/recipients?status=rejected`, { token: c.token }), 200);
    expect(rejected.results.map((r) => [r.contactId, r.reason])).toEqual([[bia.id, "opted_out"]]);
    const sent = await expectStatus<Page<BroadcastRecipientRow>>(await call("GET", `/api/broadcasts/${b.id}/recipients?status=sent`, { token: c.token }), 200);
    expect(sent.results.map((r) => r.contactId)).toEqual([ana.id]);
    const history = await expectStatus<Page<BroadcastDetail>>(await call("GET", "/api/broadcasts?tab=history", { token: c.token }), 200);
    expect(history.results.map((r) => r.id)).toContain(b.id);
    const detail = await expectStatus<ContactDetailAnswer>(await call("GET", `/api/contacts/${ana.id}`, { token: c.token }), 200);
    expect(detail.values.find((v) => v.key === "last_campaign")?.value).toBe("Promoção de verão");
  });

  it("a broadcast with a scheduledDate waits, then starts by itself at that time", { timeout: 60_000 }, async () => {
    const c = await company();
    await createContact(c.token, { name: "Ana" });
    const b = await create(c, { scheduledDate: new Date(Date.now() + 1_500).toISOString() });
    expect(b.status).toBe("waiting");
    expect(b.scheduledDate).toBeGreaterThan(Date.now());
    const done = await waitDone(c, b.id);
    expect(done.counts).toMatchObject({ total: 1, sent: 1 });
    expect(done.startedAt ?? 0).toBeGreaterThanOrEqual(b.scheduledDate ?? 0);
  });

  it("the first reply to a broadcast goes to the connection's campaign flow; a second reply does not restart it", { timeout: 90_000 }, async () => {
    const owner = await register({ companyName: "Loja Cloud" });
    const cloud = await cloudConnection(owner.token);
    const { flow } = await publishedFlow(owner.token, flowDoc([{ id: "t", type: "text", data: { message: "Oferta relâmpago!" } }], [["start", "next", "t"]]), "Oferta");
    const { flow: campaign } = await publishedFlow(owner.token, flowDoc([{ id: "t", type: "text", data: { message: "Obrigado pela resposta!" } }], [["start", "next", "t"]]), "Campanha");
    await expectStatus(await call("PUT", "/api/companies/default-flows", { token: owner.token, body: { channelId: cloud.id, campaignFlowId: campaign.id } }), 200);
    const waId = uniqueWaId();
    // The customer wrote first: inside the 24 h window, a plain flow message may go out.
    await deliverOk(textWebhook(cloud.phoneNumberId, waId, wamid(), "Oi", Math.floor(Date.now() / 1000)));
    const c = { token: owner.token, connectionId: cloud.id, flowId: flow.id };
    const b = await create(c);
    await expectStatus(await call("POST", `/api/broadcasts/${b.id}/start`, { token: owner.token }), 200);
    expect((await waitDone(c, b.id)).counts).toMatchObject({ total: 1, sent: 1 });
    const texts = async () => (await sentTo(cloud.phoneNumberId)).map((r) => (typeof r.body === "object" && r.body ? JSON.stringify(r.body.text ?? "") : ""));
    const waitText = async (text: string, n: number) => {
      const end = Date.now() + 20_000;
      while ((await texts()).filter((t) => t.includes(text)).length < n) {
        if (Date.now() > end) throw new Error(`no "${text}" ×${n}: ${JSON.stringify(await texts())}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    await waitText("Oferta relâmpago!", 1);
    await deliverOk(textWebhook(cloud.phoneNumberId, waId, wamid(), "Quero!", Math.floor(Date.now() / 1000)));
    await waitText("Obrigado pela resposta!", 1);
    await deliverOk(textWebhook(cloud.phoneNumberId, waId, wamid(), "Mais uma", Math.floor(Date.now() / 1000)));
    await new Promise((r) => setTimeout(r, 1_000));
    expect((await texts()).filter((t) => t.includes("Obrigado pela resposta!")).length).toBe(1);
  });
});
