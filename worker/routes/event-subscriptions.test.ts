/**
 * Outbound event subscriptions (issue 11 "Outbound event webhooks"): the signature a receiver gets
 * verifies with the secret shown once; a failing receiver is retried with backoff, every attempt
 * logged, until the delivery fails; loopback, private and local addresses are refused when the
 * subscription is created and again before an attempt; the events (broadcast.finished included)
 * are emitted where they happen.
 *
 * The receiver: every address the guard accepts is a public one, out of reach of this sandbox (and
 * the loopback stand-ins are exactly what the guard refuses), so the receiver answers in-process:
 * `fetch` is wrapped for the host `hooks.example.test` only (a reserved test domain), recording each
 * request and answering the status the test chose; everything else (the Graph API stand-in) goes
 * through unchanged. The consumer, signature, queue and D1 are the real ones.
 */
import { env } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { EventDeliveryAnswer, EventEnvelope, EventSubscriptionAnswer, EventSubscriptionCreatedAnswer, EventType } from "../../schema/validation/event-subscriptions";
import { MAX_DELIVERY_ATTEMPTS, deliveryBackoffSeconds, type EventDeliveryMessage } from "../lib/event-subscriptions";
import { newId } from "../lib/ids";
import { consumeEventDeliveries } from "../queues/event-deliveries";
import { cloudConnection, deliverOk, onlyTicket, sandboxConnection, textWebhook, uniqueWaId, wamid } from "../test/channel-helpers";
import { flowDoc, publishedFlow } from "../test/flow-helpers";
import { uniquePhone } from "../test/contact-helpers";
import { activeCompanyId, call, expectStatus, register, until, type Account, type ErrorBody } from "../test/helpers";

const RECEIVER = "https://hooks.example.test";

type Received = { url: string; headers: Headers; body: string };

/** What the in-process receiver got, and the statuses it answers (the last one repeats). */
let received: Received[] = [];
let statuses: number[] = [200];

beforeEach(() => {
  received = [];
  statuses = [200];
  const passThrough = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    if (new URL(request.url).hostname !== "hooks.example.test") return passThrough(input, init);
    received.push({ url: request.url, headers: request.headers, body: await request.text() });
    const status = statuses.length > 1 ? (statuses.shift() ?? 200) : (statuses[0] ?? 200);
    return new Response(status === 200 ? "ok" : "nope", { status });
  });
});

afterEach(() => {
  vi.restoreAllMocks();
});

async function subscribe(owner: Account, events: EventType[], path = "/conversa"): Promise<EventSubscriptionCreatedAnswer> {
  return expectStatus<EventSubscriptionCreatedAnswer>(await call("POST", "/api/event-subscriptions", { token: owner.token, body: { url: `${RECEIVER}${path}`, events } }), 201);
}

async function deliveriesOf(owner: Account, id: string): Promise<EventDeliveryAnswer[]> {
  return expectStatus<EventDeliveryAnswer[]>(await call("GET", `/api/event-subscriptions/${id}/deliveries`, { token: owner.token }), 200);
}

/** HMAC-SHA256 of `body` with `secret`, as `sha256=<hex>`, computed here independently of the worker. */
async function expectedSignature(secret: string, body: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(body)));
  return `sha256=${[...mac].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** Runs the consumer on one hand-made message; answers what it did (acked, or the retry delay). */
async function attempt(message: EventDeliveryMessage, attempts: number, queue = "event-deliveries"): Promise<{ acked: boolean; retry: number | null }> {
  let acked = false;
  let retry: number | null = null;
  const msg: Message<EventDeliveryMessage> = {
    id: newId(),
    timestamp: new Date(),
    attempts,
    body: message,
    ack: () => void (acked = true),
    retry: (options) => void (retry = options?.delaySeconds ?? 0),
  };
  await consumeEventDeliveries({ queue, metadata: { metrics: { backlogCount: 1, backlogBytes: 0 } }, messages: [msg], ackAll: () => undefined, retryAll: () => undefined }, env, queue.endsWith("-dlq"));
  return { acked, retry };
}

describe("event subscriptions", () => {
  it("refuses loopback, private and local receivers, and plain http", async () => {
    const owner = await register();
    // The Graph API stand-in listens on loopback and answers: only the guard keeps it out.
    const cases: [string, string][] = [
      [`${env.META_STANDIN_ORIGIN}/__sent`, "private_address"],
      ["https://127.0.0.1/hook", "private_address"],
      ["https://10.1.2.3/hook", "private_address"],
      ["https://[::1]/hook", "private_address"],
      ["https://169.254.169.254/latest/meta-data", "private_address"],
      ["https://localhost/hook", "local_name"],
      ["https://erp.internal/hook", "local_name"],
      ["http://hooks.example.test/hook", "https_required"],
      ["ftp://hooks.example.test/hook", "not_http"],
    ];
    for (const [url, reason] of cases) {
      const res = await call("POST", "/api/event-subscriptions", { token: owner.token, body: { url, events: ["contact.created"] } });
      const body = await expectStatus<ErrorBody>(res, 400);
      expect(body.error.fields, url).toEqual({ url: reason });
    }
    const bad = await expectStatus<ErrorBody>(await call("POST", "/api/event-subscriptions", { token: owner.token, body: { url: `${RECEIVER}/x`, events: ["ticket.deleted"] } }), 400);
    expect(bad.error.fields).toEqual({ "events.0": "invalid_event" });
    expect(await expectStatus<EventSubscriptionAnswer[]>(await call("GET", "/api/event-subscriptions", { token: owner.token }), 200)).toEqual([]);
  });

  it("an address refused by the guard is never called at delivery time either", async () => {
    const owner = await register();
    const companyId = await activeCompanyId(owner.token);
    const subscription = await subscribe(owner, ["contact.created"]);
    // A row holding a loopback URL (as if stored before a guard change): the attempt is refused, not made.
    await env.DB.prepare("UPDATE event_subscriptions SET url = ? WHERE id = ?").bind(`${env.META_STANDIN_ORIGIN}/__sent`, subscription.id).run();
    const deliveryId = newId();
    await env.DB.prepare(
      "INSERT INTO event_deliveries (id, company_id, subscription_id, event_id, event_type, body, status, attempts, created_at, updated_at) VALUES (?, ?, ?, ?, 'contact.created', '{}', 'pending', 0, ?, ?)",
    )
      .bind(deliveryId, companyId, subscription.id, newId(), Date.now(), Date.now())
      .run();
    const standInCalls = vi.mocked(globalThis.fetch).mock.calls.length;
    expect(await attempt({ type: "event.deliver", deliveryId, companyId }, 1)).toEqual({ acked: true, retry: null });
    expect(vi.mocked(globalThis.fetch).mock.calls.length).toBe(standInCalls);
    const [delivery] = await deliveriesOf(owner, subscription.id);
    expect(delivery).toMatchObject({ id: deliveryId, status: "failed", lastError: "private_address", attempts: [{ attempt: 1, statusCode: null, error: "private_address" }] });
  });

  it("a delivery is signed: X-Conversa-Signature is the HMAC-SHA256 of the body with the secret shown once", async () => {
    const owner = await register();
    const subscription = await subscribe(owner, ["contact.created"]);
    expect(subscription.secret).toMatch(/^cvs_[A-Za-z0-9_-]{40,}$/);
    const listed = await expectStatus<EventSubscriptionAnswer[]>(await call("GET", "/api/event-subscriptions", { token: owner.token }), 200);
    expect(JSON.stringify(listed)).not.toContain(subscription.secret);
    expect(listed[0]?.secretHint.endsWith(subscription.secret.slice(-4))).toBe(true);

    const contact = await expectStatus<{ id: string }>(await call("POST", "/api/contacts", { token: owner.token, body: { name: "Maria Souza", phone: uniquePhone() } }), 201);
    await until(() => received.length > 0, 10_000, "the delivery at the receiver");
    const [got] = received;
    if (!got) throw new Error("no delivery");
    expect(got.url).toBe(`${RECEIVER}/conversa`);
    expect(got.headers.get("Content-Type")).toBe("application/json");
    expect(got.headers.get("X-Conversa-Signature")).toBe(await expectedSignature(subscription.secret, got.body));
    // A body changed in transit does not verify.
    expect(got.headers.get("X-Conversa-Signature")).not.toBe(await expectedSignature(subscription.secret, got.body.replace("Maria", "Mario")));
    const event: EventEnvelope = JSON.parse(got.body);
    expect(event).toMatchObject({ type: "contact.created", data: { contact: { id: contact.id, name: "Maria Souza" } } });
    expect(got.headers.get("X-Conversa-Event")).toBe("contact.created");
    expect(got.headers.get("X-Conversa-Event-Id")).toBe(event.id);
    await until(async () => (await deliveriesOf(owner, subscription.id))[0]?.status === "delivered", 5_000, "the delivery marked delivered");
    const [delivery] = await deliveriesOf(owner, subscription.id);
    expect(delivery).toMatchObject({ eventId: event.id, eventType: "contact.created", status: "delivered", lastError: null, attempts: [{ attempt: 1, statusCode: 200, error: null }] });
  });

  it("a failing receiver is retried with growing backoff, each attempt logged, until the delivery fails", async () => {
    statuses = [500];
    const owner = await register();
    const companyId = await activeCompanyId(owner.token);
    const subscription = await subscribe(owner, ["contact.created"]);
    await call("POST", "/api/contacts", { token: owner.token, body: { name: "João", phone: uniquePhone() } });
    // The first attempt runs on the real queue at once and fails; the queue holds its retry for 30 s.
    await until(async () => (await deliveriesOf(owner, subscription.id))[0]?.attempts.length === 1, 10_000, "the first attempt logged");
    const [first] = await deliveriesOf(owner, subscription.id);
    if (!first) throw new Error("no delivery");
    expect(first).toMatchObject({ status: "pending", lastError: "http_500", attempts: [{ attempt: 1, statusCode: 500, error: "http_500" }] });
    // The queue's redeliveries, driven by hand: each is retried after a longer delay until the last.
    const message: EventDeliveryMessage = { type: "event.deliver", deliveryId: first.id, companyId };
    const delays: (number | null)[] = [];
    for (let n = 2; n <= MAX_DELIVERY_ATTEMPTS; n++) {
      const outcome = await attempt(message, n);
      delays.push(outcome.retry);
      if (n === MAX_DELIVERY_ATTEMPTS) expect(outcome.acked).toBe(true);
    }
    expect(delays).toEqual([...Array.from({ length: MAX_DELIVERY_ATTEMPTS - 2 }, (_, i) => deliveryBackoffSeconds(i + 2)), null]);
    expect(delays.slice(0, 3)).toEqual([60, 120, 240]);
    const [failed] = await deliveriesOf(owner, subscription.id);
    expect(failed?.status).toBe("failed");
    expect(failed?.attempts.map((a) => [a.attempt, a.statusCode, a.error])).toEqual(Array.from({ length: MAX_DELIVERY_ATTEMPTS }, (_, i) => [i + 1, 500, "http_500"]));
    expect(received.filter((r) => r.url === `${RECEIVER}/conversa`)).toHaveLength(MAX_DELIVERY_ATTEMPTS);
    // Every attempt carries the same body and signature: the receiver can deduplicate on the event id.
    expect(new Set(received.map((r) => r.headers.get("X-Conversa-Signature"))).size).toBe(1);
    // A redelivery after that changes nothing.
    expect(await attempt(message, MAX_DELIVERY_ATTEMPTS + 1)).toEqual({ acked: true, retry: null });
    expect((await deliveriesOf(owner, subscription.id))[0]?.attempts).toHaveLength(MAX_DELIVERY_ATTEMPTS);
  });

  it("a receiver that recovers gets the delivery on a retry; the dead-letter queue fails what the consumer could not finish", async () => {
    statuses = [503, 200];
    const owner = await register();
    const companyId = await activeCompanyId(owner.token);
    const subscription = await subscribe(owner, ["contact.created"]);
    await call("POST", "/api/contacts", { token: owner.token, body: { name: "Rita", phone: uniquePhone() } });
    await until(async () => (await deliveriesOf(owner, subscription.id))[0]?.attempts.length === 1, 10_000, "the first attempt logged");
    const [pending] = await deliveriesOf(owner, subscription.id);
    if (!pending) throw new Error("no delivery");
    expect(await attempt({ type: "event.deliver", deliveryId: pending.id, companyId }, 2)).toEqual({ acked: true, retry: null });
    const [delivered] = await deliveriesOf(owner, subscription.id);
    expect(delivered).toMatchObject({ status: "delivered", attempts: [{ statusCode: 503, error: "http_503" }, { statusCode: 200, error: null }] });

    await call("POST", "/api/contacts", { token: owner.token, body: { name: "Caio", phone: uniquePhone() } });
    statuses = [500];
    await until(async () => (await deliveriesOf(owner, subscription.id)).length === 2, 10_000, "the second delivery");
    const [stuck] = await deliveriesOf(owner, subscription.id);
    if (!stuck) throw new Error("no delivery");
    expect(await attempt({ type: "event.deliver", deliveryId: stuck.id, companyId }, 11, "event-deliveries-dlq")).toEqual({ acked: true, retry: null });
    const [dead] = await deliveriesOf(owner, subscription.id);
    expect(dead).toMatchObject({ id: stuck.id, status: "failed", lastError: "retries_exhausted" });
  });

  it("emits message.received, ticket.created, message.sent and ticket.closed where they happen, only to the events subscribed", async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    await subscribe(owner, ["message.received", "ticket.created", "message.sent", "ticket.closed"], "/all");
    await subscribe(owner, ["ticket.closed"], "/closed");
    const from = uniqueWaId();
    await deliverOk(textWebhook(connection.phoneNumberId, from, wamid(), "Quero saber do meu pedido"));
    const ticket = await onlyTicket(owner.token);
    await expectStatus(await call("POST", `/api/tickets/${ticket.id}/messages`, { token: owner.token, body: { type: "text", body: "Já vou verificar" } }), 201);
    await expectStatus(await call("POST", `/api/tickets/${ticket.id}/close`, { token: owner.token }), 200);
    const typesAt = (path: string) => received.filter((r) => r.url === `${RECEIVER}${path}`).map((r) => (JSON.parse(r.body) as EventEnvelope).type);
    await until(() => typesAt("/all").length >= 4 && typesAt("/closed").length >= 1, 10_000, "four events at /all and one at /closed");
    expect(typesAt("/all").sort()).toEqual(["message.received", "message.sent", "ticket.closed", "ticket.created"]);
    expect(typesAt("/closed")).toEqual(["ticket.closed"]);
    const receivedEvent = received.map((r) => JSON.parse(r.body) as EventEnvelope).find((e) => e.type === "message.received");
    expect(receivedEvent?.data).toMatchObject({ message: { ticketId: ticket.id, type: "text", body: "Quero saber do meu pedido" }, contact: { id: ticket.contact.id } });
  });

  it("emits broadcast.finished once when a broadcast ends", async () => {
    const owner = await register();
    const connection = await sandboxConnection(owner.token);
    const { flow } = await publishedFlow(owner.token, flowDoc([{ id: "t", type: "text", data: { message: "Promoção" } }], [["start", "next", "t"]]));
    await subscribe(owner, ["broadcast.finished"]);
    const broadcast = await expectStatus<{ id: string }>(
      await call("POST", "/api/broadcasts", { token: owner.token, body: { name: "Promoção de sábado", connectionId: connection.id, flowId: flow.id, delay: "very_short", filters: [] } }),
      201,
    );
    await expectStatus(await call("POST", `/api/broadcasts/${broadcast.id}/start`, { token: owner.token }), 200);
    await until(() => received.length > 0, 10_000, "broadcast.finished at the receiver");
    await new Promise((resolve) => setTimeout(resolve, 300));
    const events = received.map((r) => JSON.parse(r.body) as EventEnvelope);
    expect(events.map((e) => e.type)).toEqual(["broadcast.finished"]);
    expect(events[0]?.data).toMatchObject({ broadcast: { id: broadcast.id, name: "Promoção de sábado", sent: 0, rejected: 0 } });
  });

  it("deleting a subscription stops its deliveries and removes its log", async () => {
    const owner = await register();
    const subscription = await subscribe(owner, ["contact.created"]);
    await expectStatus(await call("DELETE", `/api/event-subscriptions/${subscription.id}`, { token: owner.token }), 204);
    await call("POST", "/api/contacts", { token: owner.token, body: { name: "Lia", phone: uniquePhone() } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received).toEqual([]);
    await expectStatus(await call("GET", `/api/event-subscriptions/${subscription.id}/deliveries`, { token: owner.token }), 404);
    expect(await expectStatus<EventSubscriptionAnswer[]>(await call("GET", "/api/event-subscriptions", { token: owner.token }), 200)).toEqual([]);
  });
});
