/**
 * Retry paths under the fault switch (issue 17), inside workerd against real D1, Durable Objects and
 * Queues: provider sends retried with backoff in ticket order (TicketRoom), permanent provider errors
 * failing at once, only the provider's transient answers counted against the attempt limit (failures
 * of ours retried on a time budget, every attempt's reason kept), outbox effects and alarms re-armed after a failure (ContactSession), a run showing
 * an effect given up, queue messages redelivered by the platform and dead-lettered, and FAULTS
 * ignored in a production-marked environment. Faults are armed per number (the Graph API stand-in's
 * POST /__faults), per contact, ticket or job (Durable Object storage), never globally.
 */
import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { jobs } from "../../schema";
import type { FlowRunAnswer } from "../../schema/flow-api";
import type { JobAnswer } from "../../schema/api-types";
import type { MessageAnswer } from "../../schema/realtime";
import { getDb } from "../lib/db";
import { FaultInjected, armFault, faultRates, faultScopeOf, faultsEnabled, injectedSendFailure, maybeFail } from "../lib/faults";
import { newId } from "../lib/ids";
import { contactSessionOf, roomOf } from "../lib/realtime";
import { SEND_MAX_ATTEMPTS, SEND_OWN_RETRY_MS, attemptSummary, isProviderAnswer, sendRetryDelayMs, type SendAttemptReason } from "./ticket-room";
import { effectRetryDelayMs } from "./contact-session";
import { activeCompanyId, call, expectStatus, register } from "../test/helpers";
import { cloudConnection, deliverOk, onlyTicket, textWebhook, ticketMessages, uniqueWaId, wamid } from "../test/channel-helpers";
import { flowDoc, publishedFlow, setDefaultFlow } from "../test/flow-helpers";
import wranglerToml from "../../wrangler.toml?raw";
import { failSends, sendsTo, textOf, waitFor } from "../test/standin-sends";

/** A company with a Cloud API connection and a ticket opened by one inbound message. */
async function ticketSetup() {
  const owner = await register();
  const { phoneNumberId } = await cloudConnection(owner.token);
  await deliverOk(textWebhook(phoneNumberId, uniqueWaId(), wamid(), "Oi"));
  const ticket = await onlyTicket(owner.token);
  return { owner, phoneNumberId, ticketId: ticket.id };
}

async function memberSend(token: string, ticketId: string, body: string): Promise<MessageAnswer> {
  return expectStatus<MessageAnswer>(await call("POST", `/api/tickets/${ticketId}/messages`, { token, body: { type: "text", body } }), 201);
}

async function messageOf(token: string, ticketId: string, id: string): Promise<MessageAnswer | undefined> {
  return (await ticketMessages(token, ticketId)).results.find((m) => m.id === id);
}

describe("provider sends (TicketRoom)", () => {
  it("a transient 500 is retried: the message shows pending, then sent, with exactly one send accepted", { timeout: 30_000 }, async () => {
    const { owner, phoneNumberId, ticketId } = await ticketSetup();
    await failSends(phoneNumberId, 1, 500, 131000, "Something went wrong");
    const sent = await memberSend(owner.token, ticketId, "Vai dar certo");
    expect(sent.status).toBe("pending");
    // The first attempt is refused; the message stays "sending…" (pending) until the retry.
    await waitFor(() => sendsTo(phoneNumberId), (r) => r.length >= 1, "the first attempt");
    expect((await messageOf(owner.token, ticketId, sent.id))?.status).toBe("pending");
    const message = await waitFor(() => messageOf(owner.token, ticketId, sent.id), (m) => m?.status === "sent", "the message to be sent");
    expect(message?.error ?? null).toBeNull();
    const attempts = await sendsTo(phoneNumberId);
    expect(attempts.map((r) => r.status ?? 200)).toEqual([500, 200]);
    expect(attempts.filter((r) => r.responseId)).toHaveLength(1);
    expect(attempts.map(textOf)).toEqual(["Vai dar certo", "Vai dar certo"]);
  });

  it("429s back off with growing gaps (exponential with jitter) before the send goes out", { timeout: 30_000 }, async () => {
    const { owner, phoneNumberId, ticketId } = await ticketSetup();
    await failSends(phoneNumberId, 3, 429, 130429, "Rate limit hit");
    const sent = await memberSend(owner.token, ticketId, "Devagar");
    await waitFor(() => messageOf(owner.token, ticketId, sent.id), (m) => m?.status === "sent", "the message to be sent after three 429s", 20_000);
    const attempts = await sendsTo(phoneNumberId);
    expect(attempts.map((r) => r.status ?? 200)).toEqual([429, 429, 429, 200]);
    const gaps = attempts.slice(1).map((r, i) => r.at - attempts[i]!.at);
    // Nominal 1 s, 2 s, 4 s with ±20 % jitter: each gap is at least 0.8× its nominal and longer than the one before.
    expect(gaps[0]).toBeGreaterThanOrEqual(800 - 50);
    expect(gaps[1]).toBeGreaterThan(gaps[0]!);
    expect(gaps[2]).toBeGreaterThan(gaps[1]!);
    expect(sendRetryDelayMs(1, () => 0)).toBe(800);
    expect(sendRetryDelayMs(3, () => 1)).toBe(4_800);
  });

  it("a permanent 131026 fails at once with the provider's reason after one attempt; later sends go on", { timeout: 30_000 }, async () => {
    const { owner, phoneNumberId, ticketId } = await ticketSetup();
    await failSends(phoneNumberId, 1, 400, 131026, "Message undeliverable");
    const first = await memberSend(owner.token, ticketId, "Não chega");
    const failed = await waitFor(() => messageOf(owner.token, ticketId, first.id), (m) => m?.status === "failed", "the send to fail");
    expect(failed?.error).toEqual({ code: "131026", message: "Message undeliverable", details: null });
    // Positive control: a later message is sent, so a retry of the first would have come before it.
    const second = await memberSend(owner.token, ticketId, "Esta chega");
    await waitFor(() => messageOf(owner.token, ticketId, second.id), (m) => m?.status === "sent", "the second message to be sent");
    const attempts = await sendsTo(phoneNumberId);
    expect(attempts.map((r) => [textOf(r), r.status ?? 200])).toEqual([
      ["Não chega", 400],
      ["Esta chega", 200],
    ]);
  });

  it("a message retried after a 500 holds the ticket's later messages back: the provider gets them in order", { timeout: 30_000 }, async () => {
    const { owner, phoneNumberId, ticketId } = await ticketSetup();
    await failSends(phoneNumberId, 1, 503, 2, "Service temporarily unavailable");
    const a = await memberSend(owner.token, ticketId, "primeira");
    const b = await memberSend(owner.token, ticketId, "segunda");
    const c = await memberSend(owner.token, ticketId, "terceira");
    for (const m of [a, b, c]) await waitFor(() => messageOf(owner.token, ticketId, m.id), (x) => x?.status === "sent", `${m.body} to be sent`);
    const attempts = await sendsTo(phoneNumberId);
    expect(attempts.map((r) => [textOf(r), r.status ?? 200])).toEqual([
      ["primeira", 503],
      ["primeira", 200],
      ["segunda", 200],
      ["terceira", 200],
    ]);
  });

  it("the room's alarm that throws is re-armed and the retried send completes", { timeout: 30_000 }, async () => {
    const { owner, phoneNumberId, ticketId } = await ticketSetup();
    expect(await roomOf(env, ticketId).armFaults("alarm", 1)).toBe(true);
    await failSends(phoneNumberId, 1, 500, 131000);
    const sent = await memberSend(owner.token, ticketId, "Depois do alarme");
    await waitFor(() => messageOf(owner.token, ticketId, sent.id), (m) => m?.status === "sent", "the send after a failed alarm", 20_000);
    expect((await sendsTo(phoneNumberId)).map((r) => r.status ?? 200)).toEqual([500, 200]);
  });
});

/** A send queued in a TicketRoom, as its `sends` table holds it. */
type QueuedSend = { attempts: number; provider_failures: number; own_since: number | null; reasons: string | null };

/** The room's first queued send, or undefined when its queue is empty. */
async function queuedSend(room: ReturnType<typeof roomOf>): Promise<QueuedSend | undefined> {
  return runInDurableObject(room, (_instance, ctx) =>
    ctx.storage.sql.exec<QueuedSend>("SELECT attempts, provider_failures, own_since, reasons FROM sends ORDER BY seq LIMIT 1").toArray()[0],
  );
}

/**
 * Runs the room's retries without waiting out their backoff: makes the queued send due and runs the
 * room's alarm (one attempt each time), until `done` holds for the queued send (undefined: the queue
 * is empty). Answers that queued send.
 */
async function fastForward(room: ReturnType<typeof roomOf>, done: (row: QueuedSend | undefined) => boolean, what: string): Promise<QueuedSend | undefined> {
  for (let step = 0; step < 60; step++) {
    const row = await queuedSend(room);
    if (done(row)) return row;
    await runInDurableObject(room, (_instance, ctx) => void ctx.storage.sql.exec("UPDATE sends SET next_at = 0 WHERE in_flight_at IS NULL"));
    await runDurableObjectAlarm(room);
  }
  throw new Error(`the room's send never reached: ${what}; last: ${JSON.stringify(await queuedSend(room))}`);
}

describe("what counts against a send's attempts (TicketRoom)", () => {
  it("failures of ours (no answer from the provider) do not use up the provider's attempts: the send goes out after them", { timeout: 30_000 }, async () => {
    const { owner, phoneNumberId, ticketId } = await ticketSetup();
    const room = roomOf(env, ticketId);
    // As many injected failures of ours as the provider's attempt limit.
    expect(await room.armFaults("send", SEND_MAX_ATTEMPTS)).toBe(true);
    const sent = await memberSend(owner.token, ticketId, "Nossa rede falhou");
    const held = await fastForward(room, (r) => r === undefined || r.attempts >= SEND_MAX_ATTEMPTS, `${SEND_MAX_ATTEMPTS} failed attempts`);
    // Still queued and pending: none of them was the provider's answer. Each reason is kept.
    expect(held).toMatchObject({ attempts: SEND_MAX_ATTEMPTS, provider_failures: 0 });
    expect(held?.own_since).toBeGreaterThan(0);
    const reasons = JSON.parse(held?.reasons ?? "[]") as SendAttemptReason[];
    expect(reasons.map((r) => [r.n, r.code, r.provider])).toEqual(Array.from({ length: SEND_MAX_ATTEMPTS }, (_, i) => [i + 1, "fault_injected", false]));
    expect((await messageOf(owner.token, ticketId, sent.id))?.status).toBe("pending");
    await fastForward(room, (r) => r === undefined, "the send to leave the queue");
    const message = await waitFor(() => messageOf(owner.token, ticketId, sent.id), (m) => m?.status !== "pending", "the message to settle");
    expect(message?.status).toBe("sent");
    expect(message?.error ?? null).toBeNull();
    // The provider saw one request, the one it accepted.
    expect((await sendsTo(phoneNumberId)).map((r) => [textOf(r), r.status ?? 200])).toEqual([["Nossa rede falhou", 200]]);
  });

  it("only the provider's transient answers count: after SEND_MAX_ATTEMPTS of them it fails with the provider's reason and every attempt's", { timeout: 30_000 }, async () => {
    const { owner, phoneNumberId, ticketId } = await ticketSetup();
    const room = roomOf(env, ticketId);
    expect(await room.armFaults("send", 3)).toBe(true);
    await failSends(phoneNumberId, SEND_MAX_ATTEMPTS, 503, 2, "Service temporarily unavailable");
    const sent = await memberSend(owner.token, ticketId, "Meta fora do ar");
    await fastForward(room, (r) => r === undefined, "the send to fail for good");
    const failed = await waitFor(() => messageOf(owner.token, ticketId, sent.id), (m) => m?.status !== "pending", "the message to settle");
    expect(failed?.status).toBe("failed");
    expect(failed?.error?.code).toBe("2");
    expect(failed?.error?.message).toBe("Service temporarily unavailable");
    expect(failed?.error?.details).toMatch(new RegExp(`^Tried ${SEND_MAX_ATTEMPTS + 3} times over \\d+ s\\. Provider: 2 ×${SEND_MAX_ATTEMPTS}\\. Ours: fault_injected ×3\\.$`));
    // The three failures of ours never reached the provider; it refused all SEND_MAX_ATTEMPTS that did.
    const attempts = await sendsTo(phoneNumberId);
    expect(attempts.map((r) => r.status ?? 200)).toEqual(Array.from({ length: SEND_MAX_ATTEMPTS }, () => 503));
    // Positive control: the queue moved on.
    const later = await memberSend(owner.token, ticketId, "Depois da falha");
    await waitFor(() => messageOf(owner.token, ticketId, later.id), (m) => m?.status === "sent", "the later message to be sent");
  });

  it("failures of ours end on a time budget: SEND_OWN_RETRY_MS after the first, the send fails with that reason", { timeout: 30_000 }, async () => {
    const { owner, phoneNumberId, ticketId } = await ticketSetup();
    const room = roomOf(env, ticketId);
    expect(await room.armFaults("send", 100)).toBe(true);
    const sent = await memberSend(owner.token, ticketId, "Nunca sai");
    await fastForward(room, (r) => r === undefined || r.attempts >= 2, "two failed attempts");
    // The first failure of ours is now SEND_OWN_RETRY_MS old: the next one ends the send.
    await runInDurableObject(room, (_instance, ctx) => void ctx.storage.sql.exec("UPDATE sends SET own_since = own_since - ?", SEND_OWN_RETRY_MS));
    await fastForward(room, (r) => r === undefined, "the send to fail for good");
    const failed = await waitFor(() => messageOf(owner.token, ticketId, sent.id), (m) => m?.status !== "pending", "the message to settle");
    expect(failed?.status).toBe("failed");
    expect(failed?.error?.code).toBe("fault_injected");
    expect(failed?.error?.details).toMatch(/^Tried (\d+) times over \d+ s\. Ours: fault_injected ×\1\.$/);
    // Positive control for "never reached the provider": the connection's number got no send at all.
    expect(await sendsTo(phoneNumberId)).toEqual([]);
  });

  it("classifies failures: network, injected and internal ones are ours; HTTP and Meta codes are the provider's", () => {
    for (const code of ["network", "fault_injected", "internal"]) expect(isProviderAnswer(code)).toBe(false);
    for (const code of ["2", "4", "131000", "130429", "500", "evolution_unavailable"]) expect(isProviderAnswer(code)).toBe(true);
    expect(isProviderAnswer(injectedSendFailure({ ENVIRONMENT: "test", FAULTS: "send:1" })!.errorCode)).toBe(false);
    const reasons: SendAttemptReason[] = [
      { n: 1, at: 1_000, code: "network", provider: false, message: "" },
      { n: 2, at: 3_000, code: "2", provider: true, message: "" },
      { n: 3, at: 8_000, code: "2", provider: true, message: "" },
    ];
    expect(attemptSummary(reasons, 3, 11_400)).toBe("Tried 3 times over 10 s. Provider: 2 ×2. Ours: network ×1.");
  });
});

/** A company whose Cloud API connection answers every new conversation with `draft`, and a contact about to write. */
async function botSetup(draft: unknown) {
  const owner = await register();
  const connection = await cloudConnection(owner.token);
  const { flow } = await publishedFlow(owner.token, draft);
  await setDefaultFlow(owner.token, connection.id, flow.id);
  const companyId = await activeCompanyId(owner.token);
  const waId = uniqueWaId();
  return { owner, companyId, phoneNumberId: connection.phoneNumberId, waId, session: contactSessionOf(env, companyId, "whatsapp-cloud", waId) };
}

async function botMessages(token: string): Promise<MessageAnswer[]> {
  const ticket = await onlyTicket(token);
  return (await ticketMessages(token, ticket.id)).results.filter((m) => m.direction === "out");
}

async function runsOf(token: string, companyId: string, waId: string): Promise<FlowRunAnswer[]> {
  const row = await env.DB.prepare("SELECT contact_id FROM contact_identities WHERE company_id = ? AND external_id = ?").bind(companyId, waId).first<{ contact_id: string }>();
  if (!row) return [];
  return expectStatus<FlowRunAnswer[]>(await call("GET", `/api/contacts/${row.contact_id}/runs`, { token }), 200);
}

describe("outbox effects and alarms (ContactSession)", () => {
  it("an effect failing twice is retried from the alarm and performed once", { timeout: 30_000 }, async () => {
    const { owner, companyId, phoneNumberId, waId, session } = await botSetup(flowDoc([{ id: "hi", type: "text", data: { message: "Olá do robô" } }], [["start", "next", "hi"]]));
    expect(await session.armFaults("effect", 2)).toBe(true);
    await deliverOk(textWebhook(phoneNumberId, waId, wamid(), "oi"));
    await waitFor(() => sendsTo(phoneNumberId), (r) => r.length >= 1, "the bot's message after two failed attempts", 20_000);
    // Settled: the run ended (its stats effect ran after the send).
    const runs = await waitFor(() => runsOf(owner.token, companyId, waId), (r) => r[0]?.status === "done", "the run to end");
    expect(runs[0]?.warnings).toEqual([]);
    expect((await sendsTo(phoneNumberId)).map(textOf)).toEqual(["Olá do robô"]);
    expect((await botMessages(owner.token)).map((m) => [m.body, m.status])).toEqual([["Olá do robô", "sent"]]);
    expect(effectRetryDelayMs(1)).toBe(1_000);
    expect(effectRetryDelayMs(4)).toBe(8_000);
  });

  it("an effect that keeps failing is dropped after its attempts, with the reason shown on the run", { timeout: 40_000 }, async () => {
    const { owner, companyId, phoneNumberId, waId, session } = await botSetup(
      flowDoc(
        [
          { id: "hi", type: "text", data: { message: "Nunca sai" } },
          { id: "bye", type: "text", data: { message: "Sai depois" } },
        ],
        [
          ["start", "next", "hi"],
          ["hi", "next", "bye"],
        ],
      ),
    );
    expect(await session.armFaults("effect", 5)).toBe(true);
    await deliverOk(textWebhook(phoneNumberId, waId, wamid(), "oi"));
    const runs = await waitFor(() => runsOf(owner.token, companyId, waId), (r) => (r[0]?.warnings.length ?? 0) > 0, "the warning on the run", 30_000);
    expect(runs[0]?.warnings[0]).toMatchObject({ code: "effect_failed", nodeId: "hi" });
    expect(runs[0]?.warnings[0]?.message).toContain("failed 5 times");
    expect(runs[0]?.warnings[0]?.message).toContain("Injected fault (effect)");
    // The outbox went on after it: the next block's message is sent, the dropped one never.
    await waitFor(() => sendsTo(phoneNumberId), (r) => r.length >= 1, "the next effect");
    expect((await sendsTo(phoneNumberId)).map(textOf)).toEqual(["Sai depois"]);
  });

  it("an alarm that throws is re-armed and the delayed step completes", { timeout: 30_000 }, async () => {
    const { phoneNumberId, waId, session } = await botSetup(
      flowDoc(
        [
          { id: "a", type: "text", data: { message: "antes" } },
          { id: "pause", type: "delay", data: { seconds: 1, indicator: "none" } },
          { id: "b", type: "text", data: { message: "depois" } },
        ],
        [
          ["start", "next", "a"],
          ["a", "next", "pause"],
          ["pause", "next", "b"],
        ],
      ),
    );
    expect(await session.armFaults("alarm", 1)).toBe(true);
    await deliverOk(textWebhook(phoneNumberId, waId, wamid(), "oi"));
    const sends = await waitFor(() => sendsTo(phoneNumberId), (r) => r.length >= 2, "the message after the delay", 20_000);
    expect(sends.map(textOf)).toEqual(["antes", "depois"]);
    // The armed alarm fault was used (the alarm did throw once).
    expect(await session.takeFault("alarm")).toBe(false);
  });
});

/** An export job of a fresh company, queued but not enqueued (the test sends its message itself). */
async function exportJob() {
  const owner = await register();
  const companyId = await activeCompanyId(owner.token);
  const memberRow = await env.DB.prepare("SELECT m.id FROM members m JOIN users u ON u.id = m.user_id WHERE m.company_id = ? AND u.email = ?")
    .bind(companyId, owner.email)
    .first<{ id: string }>();
  const jobId = newId();
  const at = Date.now();
  await getDb(env.DB).insert(jobs).values({ id: jobId, companyId, type: "export", status: "queued", params: { filter: {} }, createdBy: memberRow?.id ?? "x", createdAt: at, updatedAt: at });
  return { owner, companyId, jobId };
}

async function jobOf(token: string, id: string): Promise<JobAnswer> {
  return expectStatus<JobAnswer>(await call("GET", `/api/jobs/${id}`, { token }), 200);
}

describe("queue messages redelivered by the platform", () => {
  it("a consumer failing once: the platform redelivers and the job completes", { timeout: 30_000 }, async () => {
    const { owner, companyId, jobId } = await exportJob();
    const scope = faultScopeOf(env, `job:${jobId}`);
    expect(await scope.armFaults("queue", 1)).toBe(true);
    await env.JOBS.send({ type: "export", jobId, companyId }, { contentType: "json" });
    const done = await waitFor(() => jobOf(owner.token, jobId), (j) => j.status === "done" || j.status === "failed", "the job to end", 20_000);
    expect(done).toMatchObject({ status: "done", errorMessage: null });
    expect(done.resultUrl).toMatch(/^\/api\/media\//);
    // The first delivery did fail (its armed fault is used up).
    expect(await scope.takeFault("queue")).toBe(false);
  });

  it("a consumer failing always: after max_retries the message reaches the dead-letter queue and the job fails with a reason", { timeout: 40_000 }, async () => {
    const { owner, companyId, jobId } = await exportJob();
    const scope = faultScopeOf(env, `job:${jobId}`);
    expect(await scope.armFaults("queue", 100)).toBe(true);
    await env.JOBS.send({ type: "export", jobId, companyId }, { contentType: "json" });
    const failed = await waitFor(() => jobOf(owner.token, jobId), (j) => j.status === "failed" || j.status === "done", "the job to fail", 30_000);
    expect(failed.status).toBe("failed");
    expect(failed.errorMessage).toContain("several failed attempts");
    // wrangler.toml max_retries = 5: the first delivery and 5 retries each took one armed fault.
    const left = await env.CONTACT_SESSION.get(env.CONTACT_SESSION.idFromName(`faults:job:${jobId}`)).takeFault("queue");
    expect(left).toBe(true);
  });
});

describe("the fault switch", () => {
  it("FAULTS is ignored in a production-marked (or unmarked) environment, honoured locally", () => {
    for (const ENVIRONMENT of ["production", undefined, "staging"]) {
      const prod = { ENVIRONMENT, FAULTS: "effect:1,alarm:1,send:1,queue:1" };
      expect(faultsEnabled(prod)).toBe(false);
      expect(faultRates(prod).size).toBe(0);
      expect(() => maybeFail(prod, "effect")).not.toThrow();
      expect(injectedSendFailure(prod)).toBeNull();
    }
    const local = { ENVIRONMENT: "local", FAULTS: "effect:1, send:1,bogus:1,queue:x" };
    expect([...faultRates(local).entries()]).toEqual([
      ["effect", 1],
      ["send", 1],
    ]);
    expect(() => maybeFail(local, "effect")).toThrow(FaultInjected);
    expect(injectedSendFailure(local)).toMatchObject({ ok: false, retryable: true, errorCode: "fault_injected" });
  });

  it("the deployed configuration is production-marked: wrangler.toml [vars] sets ENVIRONMENT = \"production\"", () => {
    const vars = wranglerToml.split(/^\[vars\]$/m)[1]?.split(/^\[/m)[0] ?? "";
    expect(vars).toMatch(/^ENVIRONMENT = "production"$/m);
    expect(vars).not.toMatch(/^FAULTS\b/m);
    expect(faultsEnabled({ ENVIRONMENT: "production" })).toBe(false);
  });

  it("a production-marked object never stores an armed fault", async () => {
    let stored = true;
    const fakeSql = { exec: () => ((stored = true), { toArray: () => [] }) } as unknown as SqlStorage;
    stored = false;
    expect(armFault({ ENVIRONMENT: "production" }, fakeSql, "send", 3)).toBe(false);
    expect(stored).toBe(false);
    expect((env as { ENVIRONMENT?: string }).ENVIRONMENT).toBe("test");
  });
});
