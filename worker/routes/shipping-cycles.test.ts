/**
 * Shipping cycles (issue 10): the routes, and the company's CycleScheduler running the steps on
 * time through the real stack (D1, the Durable Objects, the Graph API stand-in).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ContactCycleAnswer, CycleEnrolAnswer, ShippingCycleAnswer } from "../../schema/validation/shipping-cycles";
import { cycleSchedulerOf } from "../lib/shipping-cycles";
import { activeCompanyId, call, expectError, expectInvalid, expectStatus, member, register, until, type Account } from "../test/helpers";
import { cloudConnection, deliverOk, sentTo, textWebhook, uniqueWaId, wamid } from "../test/channel-helpers";
import { createContact } from "../test/contact-helpers";
import { flowDoc, publishedFlow, setDefaultFlow } from "../test/flow-helpers";

/** The texts the stand-in sent to one number, with the time it received each send. */
async function sends(phoneNumberId: string): Promise<{ text: string; at: number }[]> {
  return (await sentTo(phoneNumberId)).flatMap((r) => {
    if (typeof r.body !== "object" || r.body === null) return [];
    const text = r.body.text;
    return typeof text === "object" && text !== null && "body" in text ? [{ text: String(text.body), at: r.at }] : [];
  });
}

async function waitForSends(phoneNumberId: string, count: number, timeoutMs = 10_000): Promise<{ text: string; at: number }[]> {
  let last: { text: string; at: number }[] = [];
  await until(async () => (last = await sends(phoneNumberId)).length >= count, timeoutMs, `${count} send(s) to ${phoneNumberId}`);
  return last;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The bodies of the contact's outbound messages with the time each was stored (ms UTC), in order.
 * A step's wait counts from the previous flow's last action, which is stored before its send reaches
 * the stand-in; the stand-in's receive times also carry each send's own delay, which under load
 * made two sends' gap shorter than the wait between their actions.
 */
async function storedSends(companyId: string, contactId: string): Promise<{ text: string; at: number }[]> {
  const { results } = await env.DB.prepare("SELECT body, created_at FROM messages WHERE company_id = ? AND contact_id = ? AND direction = 'out' ORDER BY created_at, seq")
    .bind(companyId, contactId)
    .all<{ body: string; created_at: number }>();
  return results.map((r) => ({ text: r.body, at: r.created_at }));
}

/** A flow that sends `text`, published. */
async function textFlow(token: string, text: string): Promise<string> {
  const { flow } = await publishedFlow(token, flowDoc([{ id: "t", type: "text", data: { message: text } }], [["start", "next", "t"]]), `Flow ${text}`);
  return flow.id;
}

/** A company with a Cloud API connection and one contact who wrote to it (identity and ticket). */
async function setup(): Promise<{ owner: Account; companyId: string; phoneNumberId: string; contactId: string }> {
  const owner = await register();
  const connection = await cloudConnection(owner.token);
  const waId = uniqueWaId();
  await deliverOk(textWebhook(connection.phoneNumberId, waId, wamid(), "oi"));
  const companyId = await activeCompanyId(owner.token);
  const row = await env.DB.prepare("SELECT contact_id FROM contact_identities WHERE company_id = ? AND external_id = ?").bind(companyId, waId).first<{ contact_id: string }>();
  if (!row) throw new Error("no contact");
  return { owner, companyId, phoneNumberId: connection.phoneNumberId, contactId: row.contact_id };
}

async function createCycle(token: string, body: Record<string, unknown>): Promise<ShippingCycleAnswer> {
  return expectStatus<ShippingCycleAnswer>(await call("POST", "/api/shipping-cycles", { token, body }), 201);
}

async function enrol(token: string, cycleId: string, contactIds: string[]): Promise<CycleEnrolAnswer> {
  return expectStatus<CycleEnrolAnswer>(await call("POST", `/api/shipping-cycles/${cycleId}/contacts`, { token, body: { contactIds } }), 200);
}

async function enrolments(token: string, contactId: string): Promise<ContactCycleAnswer[]> {
  return expectStatus<ContactCycleAnswer[]>(await call("GET", `/api/contacts/${contactId}/shipping-cycles`, { token }), 200);
}

describe("shipping cycle routes", () => {
  it("creates, lists, reads, updates and deletes a cycle with ordered steps", async () => {
    const owner = await register();
    const first = await textFlow(owner.token, "Um");
    const second = await textFlow(owner.token, "Dois");
    const cycle = await createCycle(owner.token, {
      name: "Boas-vindas",
      steps: [
        { flowId: first, wait: { value: 0, unit: "second" } },
        { flowId: second, wait: { value: 1, unit: "month" } },
      ],
    });
    expect(cycle).toMatchObject({ name: "Boas-vindas", active: true, enrolledCount: 0 });
    expect(cycle.steps).toEqual([
      { index: 0, flowId: first, flowName: "Flow Um", wait: { value: 0, unit: "second" } },
      { index: 1, flowId: second, flowName: "Flow Dois", wait: { value: 1, unit: "month" } },
    ]);
    expect(await expectStatus<ShippingCycleAnswer[]>(await call("GET", "/api/shipping-cycles", { token: owner.token }), 200)).toEqual([cycle]);
    const updated = await expectStatus<ShippingCycleAnswer>(
      await call("PUT", `/api/shipping-cycles/${cycle.id}`, { token: owner.token, body: { name: "Reativação", active: false } }),
      200,
    );
    expect(updated).toMatchObject({ name: "Reativação", active: false, steps: cycle.steps });
    expect(await expectStatus<ShippingCycleAnswer>(await call("GET", `/api/shipping-cycles/${cycle.id}`, { token: owner.token }), 200)).toMatchObject({ name: "Reativação" });
    await expectStatus(await call("DELETE", `/api/shipping-cycles/${cycle.id}`, { token: owner.token }), 204);
    await expectError(await call("GET", `/api/shipping-cycles/${cycle.id}`, { token: owner.token }), 404, "not_found");
  });

  it("names the field of a bad step, refuses another company's flow and a name in use", async () => {
    const owner = await register();
    const other = await register();
    const flowId = await textFlow(owner.token, "Oi");
    const foreign = await textFlow(other.token, "Oi");
    await expectInvalid(await call("POST", "/api/shipping-cycles", { token: owner.token, body: { name: "C", steps: [] } }), "steps", "required");
    await expectInvalid(
      await call("POST", "/api/shipping-cycles", { token: owner.token, body: { name: "C", steps: [{ flowId, wait: { value: 1, unit: "week" } }] } }),
      "steps.0.wait.unit",
      "invalid_unit",
    );
    await expectInvalid(
      await call("POST", "/api/shipping-cycles", { token: owner.token, body: { name: "C", steps: [{ flowId, wait: { value: -1, unit: "day" } }] } }),
      "steps.0.wait.value",
      "too_small",
    );
    await expectInvalid(
      await call("POST", "/api/shipping-cycles", { token: owner.token, body: { name: "C", steps: [{ flowId, wait: { value: 1, unit: "day" } }, { flowId: foreign, wait: { value: 1, unit: "day" } }] } }),
      "steps.1.flowId",
      "invalid_id",
    );
    await createCycle(owner.token, { name: "Nutrição", steps: [{ flowId, wait: { value: 1, unit: "day" } }] });
    await expectError(await call("POST", "/api/shipping-cycles", { token: owner.token, body: { name: "nutrição", steps: [{ flowId, wait: { value: 1, unit: "day" } }] } }), 409, "name_in_use");
  });

  it("another company's cycle answers 404 and enrols nobody; a member needs the permission", async () => {
    const owner = await register();
    const other = await register();
    const flowId = await textFlow(owner.token, "Oi");
    const cycle = await createCycle(owner.token, { name: "C", steps: [{ flowId, wait: { value: 1, unit: "day" } }] });
    const theirs = await createContact(other.token);
    await expectError(await call("GET", `/api/shipping-cycles/${cycle.id}`, { token: other.token }), 404, "not_found");
    await expectError(await call("POST", `/api/shipping-cycles/${cycle.id}/contacts`, { token: other.token, body: { contactIds: [theirs.id] } }), 404, "not_found");
    // Another company's contact in my cycle: skipped, not enrolled.
    const answer = await enrol(owner.token, cycle.id, [theirs.id]);
    expect(answer).toEqual({ enrolled: [], skipped: [{ contactId: theirs.id, reason: "not_found" }] });
    const agent = await member(owner, ["contacts_shipping_cycles", "contacts"]);
    await expectError(await call("POST", "/api/shipping-cycles", { token: agent.token, body: { name: "X", steps: [{ flowId, wait: { value: 1, unit: "day" } }] } }), 403, "forbidden");
    expect((await expectStatus<ShippingCycleAnswer[]>(await call("GET", "/api/shipping-cycles", { token: agent.token }), 200)).map((c) => c.id)).toEqual([cycle.id]);
    const mine = await createContact(owner.token);
    expect(await enrol(agent.token, cycle.id, [mine.id, mine.id])).toEqual({ enrolled: [mine.id], skipped: [] });
    expect(await enrol(agent.token, cycle.id, [mine.id])).toEqual({ enrolled: [], skipped: [{ contactId: mine.id, reason: "already_enrolled" }] });
    const shown = await enrolments(agent.token, mine.id);
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({ cycleId: cycle.id, cycleName: "C", status: "waiting", stepIndex: 0, stepCount: 1, lastRunAt: null });
    expect(shown[0]?.nextRunAt).toBeGreaterThan(Date.now() + 23 * 3600_000);
    await expectError(await call("GET", `/api/contacts/${mine.id}/shipping-cycles`, { token: other.token }), 404, "not_found");
  });
});

describe("cycle steps run on time", () => {
  it("three steps with second units run in order, each its wait after the previous one", async () => {
    const { owner, companyId, phoneNumberId, contactId } = await setup();
    const steps = [
      { flowId: await textFlow(owner.token, "Passo 1"), wait: { value: 1, unit: "second" } },
      { flowId: await textFlow(owner.token, "Passo 2"), wait: { value: 2, unit: "second" } },
      { flowId: await textFlow(owner.token, "Passo 3"), wait: { value: 1, unit: "second" } },
    ];
    const cycle = await createCycle(owner.token, { name: "Sequência", steps });
    const enrolledAt = Date.now();
    expect((await enrol(owner.token, cycle.id, [contactId])).enrolled).toEqual([contactId]);
    const sent = await waitForSends(phoneNumberId, 3, 15_000);
    expect(sent.map((s) => s.text)).toEqual(["Passo 1", "Passo 2", "Passo 3"]);
    // Each step its wait after the previous one, timed by when each message was stored.
    const stored = await storedSends(companyId, contactId);
    expect(stored.map((s) => s.text)).toEqual(["Passo 1", "Passo 2", "Passo 3"]);
    const [one, two, three] = stored.map((s) => s.at) as [number, number, number];
    expect(one - enrolledAt).toBeGreaterThanOrEqual(900);
    expect(two - one).toBeGreaterThanOrEqual(1_900);
    expect(three - two).toBeGreaterThanOrEqual(900);
    await until(async () => (await enrolments(owner.token, contactId))[0]?.status === "done", 5_000, "the enrolment done");
    expect((await enrolments(owner.token, contactId))[0]).toMatchObject({ status: "done", stepIndex: 3, nextRunAt: null });
    await sleep(500);
    expect((await sends(phoneNumberId)).length).toBe(3);
  }, 30_000);

  it("a step waits its time after the previous flow's last action, not after that flow started (spec §3)", async () => {
    const { owner, companyId, phoneNumberId, contactId } = await setup();
    // Step 1 sends "Antes", waits 2 s, then sends "Depois": its last action is the second send.
    const slow = await publishedFlow(
      owner.token,
      flowDoc(
        [
          { id: "a", type: "text", data: { message: "Antes" } },
          { id: "d", type: "delay", data: { seconds: 2, indicator: "none" } },
          { id: "b", type: "text", data: { message: "Depois" } },
        ],
        [["start", "next", "a"], ["a", "next", "d"], ["d", "next", "b"]],
      ),
      "Flow lento",
    );
    const cycle = await createCycle(owner.token, {
      name: "Depois da última ação",
      steps: [
        { flowId: slow.flow.id, wait: { value: 0, unit: "second" } },
        { flowId: await textFlow(owner.token, "Próximo"), wait: { value: 1, unit: "second" } },
      ],
    });
    await enrol(owner.token, cycle.id, [contactId]);
    const sent = await waitForSends(phoneNumberId, 3, 20_000);
    expect(sent.map((s) => s.text)).toEqual(["Antes", "Depois", "Próximo"]);
    const stored = await storedSends(companyId, contactId);
    expect(stored.map((s) => s.text)).toEqual(["Antes", "Depois", "Próximo"]);
    const [first, last, next] = stored.map((s) => s.at) as [number, number, number];
    // One wait after "Depois" (the last action), so at least 3 s after "Antes" (the flow's start).
    expect(next - last).toBeGreaterThanOrEqual(900);
    expect(next - first).toBeGreaterThanOrEqual(2_900);
  }, 30_000);

  it("removing a contact mid-cycle stops its next steps", async () => {
    const { owner, phoneNumberId, contactId } = await setup();
    const cycle = await createCycle(owner.token, {
      name: "Interrompido",
      steps: [
        { flowId: await textFlow(owner.token, "Primeiro"), wait: { value: 0, unit: "second" } },
        { flowId: await textFlow(owner.token, "Segundo"), wait: { value: 1, unit: "second" } },
      ],
    });
    await enrol(owner.token, cycle.id, [contactId]);
    expect((await waitForSends(phoneNumberId, 1)).map((s) => s.text)).toEqual(["Primeiro"]);
    await expectStatus(await call("DELETE", `/api/shipping-cycles/${cycle.id}/contacts/${contactId}`, { token: owner.token }), 204);
    await sleep(2_000);
    expect((await sends(phoneNumberId)).map((s) => s.text)).toEqual(["Primeiro"]);
    expect(await enrolments(owner.token, contactId)).toEqual([]);
    await expectError(await call("DELETE", `/api/shipping-cycles/${cycle.id}/contacts/${contactId}`, { token: owner.token }), 404, "not_found");
  }, 30_000);

  it("a deactivated cycle holds its enrolments; reactivated, the step whose time passed runs", async () => {
    const { owner, phoneNumberId, contactId } = await setup();
    const cycle = await createCycle(owner.token, { name: "Pausado", steps: [{ flowId: await textFlow(owner.token, "Retomado"), wait: { value: 1, unit: "second" } }] });
    await enrol(owner.token, cycle.id, [contactId]);
    await expectStatus(await call("PUT", `/api/shipping-cycles/${cycle.id}`, { token: owner.token, body: { active: false } }), 200);
    await sleep(2_000);
    expect(await sends(phoneNumberId)).toEqual([]);
    expect((await enrolments(owner.token, contactId))[0]).toMatchObject({ status: "held", cycleActive: false, nextRunAt: null, stepIndex: 0 });
    await expectStatus(await call("PUT", `/api/shipping-cycles/${cycle.id}`, { token: owner.token, body: { active: true } }), 200);
    expect((await waitForSends(phoneNumberId, 1)).map((s) => s.text)).toEqual(["Retomado"]);
  }, 30_000);

  it("an alarm that dies right after a step ran is retried without running the step again", async () => {
    const { owner, companyId, phoneNumberId, contactId } = await setup();
    const cycle = await createCycle(owner.token, {
      name: "Uma vez",
      steps: [
        { flowId: await textFlow(owner.token, "Só uma vez"), wait: { value: 0, unit: "second" } },
        { flowId: await textFlow(owner.token, "Depois"), wait: { value: 1, unit: "day" } },
      ],
    });
    const scheduler = cycleSchedulerOf(env, companyId);
    // The first alarm fails before anything; the retry runs the step, then dies after it.
    expect(await scheduler.armFaults("alarm", 1)).toBe(true);
    await enrol(owner.token, cycle.id, [contactId]);
    await sleep(300);
    expect(await sends(phoneNumberId)).toEqual([]);
    expect(await scheduler.armFaults("effect", 1)).toBe(true);
    await waitForSends(phoneNumberId, 1, 10_000);
    // The retried alarm (≥ 2 s later) finds the step's key done: it moves on without a second send.
    await until(async () => (await enrolments(owner.token, contactId))[0]?.stepIndex === 1, 10_000, "the enrolment on step 2");
    const shown = (await enrolments(owner.token, contactId))[0];
    expect(shown).toMatchObject({ status: "waiting", stepIndex: 1 });
    expect(shown?.nextRunAt).toBeGreaterThan(Date.now() + 23 * 3600_000);
    await sleep(500);
    expect((await sends(phoneNumberId)).map((s) => s.text)).toEqual(["Só uma vez"]);
    const done = await runInDurableObject(scheduler, (_i, state) => state.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM done").one().n);
    expect(done).toBe(1);
  }, 30_000);
});

describe("the flow builder's action block", () => {
  it('"add to shipping cycle" enrols the contact the flow runs for', async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    const cycle = await createCycle(owner.token, { name: "Pós-venda", steps: [{ flowId: await textFlow(owner.token, "Obrigado"), wait: { value: 2, unit: "day" } }] });
    const { flow } = await publishedFlow(
      owner.token,
      flowDoc([{ id: "act", type: "action", data: { actions: [{ kind: "add_to_cycle", cycleId: cycle.id }] } }], [["start", "next", "act"]]),
      "Entrada",
    );
    await setDefaultFlow(owner.token, connection.id, flow.id);
    const waId = uniqueWaId();
    await deliverOk(textWebhook(connection.phoneNumberId, waId, wamid(), "oi"));
    const companyId = await activeCompanyId(owner.token);
    const row = await env.DB.prepare("SELECT contact_id FROM contact_identities WHERE company_id = ? AND external_id = ?").bind(companyId, waId).first<{ contact_id: string }>();
    const contactId = row?.contact_id ?? "";
    await until(async () => (await enrolments(owner.token, contactId)).length === 1, 5_000, "the enrolment");
    expect((await enrolments(owner.token, contactId))[0]).toMatchObject({ cycleId: cycle.id, status: "waiting", stepIndex: 0 });
    expect((await expectStatus<ShippingCycleAnswer>(await call("GET", `/api/shipping-cycles/${cycle.id}`, { token: owner.token }), 200)).enrolledCount).toBe(1);
  });

  it("an action block without a cycle is not ready to publish", async () => {
    const owner = await register();
    const res = await call("POST", "/api/flows", { token: owner.token, body: { name: "Incompleto", type: "default" } });
    const created = await expectStatus<{ id: string }>(res, 201);
    await expectStatus(
      await call("PUT", `/api/flows/${created.id}`, {
        token: owner.token,
        body: { draft: flowDoc([{ id: "act", type: "action", data: { actions: [{ kind: "add_to_cycle", cycleId: "" }] } }], [["start", "next", "act"]]) },
      }),
      200,
    );
    const refused = await call("POST", `/api/flows/${created.id}/publish`, { token: owner.token });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("missing_cycle");
  });
});
