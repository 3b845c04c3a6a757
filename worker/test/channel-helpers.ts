/**
 * Helpers for the main-job tests (channels, connections, tickets): Cloud API connections and signed
 * webhooks, the sandbox phone, the chat-centre calls, and the loopback Graph API stand-in's control
 * endpoints (GET /__sent, POST /__media, POST /__fail, POST /__numbers).
 */
import { env } from "cloudflare:test";
import { expect } from "vitest";
import type { MessageAnswer, TicketAnswer } from "../../schema/realtime";
import type { ConnectionAnswer } from "../routes/connections";
import { signHub } from "../lib/hmac";
import { call, expectStatus } from "./helpers";

/** The app secret and verify token vitest.config.mts gives the worker. */
export const APP_SECRET = "test-app-secret";
export const VERIFY_TOKEN = "test-verify-token";
/** The access token the Cloud API connections of these tests carry. */
export const ACCESS_TOKEN = "EAAG-test-access-token-000000";

let counter = 0;

/** A phone_number_id no other test uses (digits only, as Meta's). */
export function uniquePhoneNumberId(): string {
  counter += 1;
  return `${Date.now()}${counter}${Math.floor(Math.random() * 1e6)}`;
}

/** A wa_id that is also a valid Brazilian mobile number (55 11 98xxx-xxxx), unique per call. */
export function uniqueWaId(): string {
  counter += 1;
  const digits = String((Date.now() * 7 + counter * 7919 + Math.floor(Math.random() * 1e6)) % 1e6).padStart(6, "0");
  return `5511988${digits}`;
}

/** A wamid no other test uses. */
export function wamid(): string {
  return `wamid.${crypto.randomUUID()}`;
}

/** A number the Graph API stand-in knows (see standins/meta-graph.ts `StandInNumber`). */
export type StandInNumberInput = {
  displayPhoneNumber?: string;
  verifiedName?: string;
  qualityRating?: string;
  /** The access tokens that prove the number (default: ACCESS_TOKEN). */
  tokens?: string[];
  /** Makes every lookup of the number answer this (an outage at Meta). */
  failWith?: { status: number; code?: number; message?: string };
  /** `whatsapp_business_manager_messaging_limit` Meta answers (stand-in default TIER_250). */
  messagingLimit?: string;
  /** `throughput.level` Meta answers (stand-in default STANDARD). */
  throughputLevel?: string;
};

/** Meta's style of test number, "+1 555-xxx-xxxx", derived from the id (unique per id). */
export function testDisplayNumber(phoneNumberId: string): string {
  const d = phoneNumberId.replace(/\D/g, "").slice(-7).padStart(7, "0");
  return `+1 555-${d.slice(0, 3)}-${d.slice(3)}`;
}

/**
 * Registers `phoneNumberId` in the Graph API stand-in (POST /__numbers), so a token of `tokens`
 * proves it (a later call replaces the registration). Answers the display number registered.
 */
export async function registerNumber(phoneNumberId: string, options: StandInNumberInput = {}): Promise<string> {
  const displayPhoneNumber = options.displayPhoneNumber ?? testDisplayNumber(phoneNumberId);
  const res = await fetch(`${env.META_STANDIN_ORIGIN}/__numbers`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      phoneNumberId,
      displayPhoneNumber,
      verifiedName: options.verifiedName ?? "Loja Teste",
      qualityRating: options.qualityRating ?? "GREEN",
      tokens: options.tokens ?? [ACCESS_TOKEN],
      ...(options.failWith ? { failWith: options.failWith } : {}),
      ...(options.messagingLimit ? { messagingLimit: options.messagingLimit } : {}),
      ...(options.throughputLevel ? { throughputLevel: options.throughputLevel } : {}),
    }),
  });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  return displayPhoneNumber;
}

/**
 * POST /api/connections with `name`, or with `fallback` when no name is given: connection names are
 * unique in a company (issue 9), so a company's second default-named connection becomes
 * "<fallback> 2", "<fallback> 3", ...; a name given explicitly is sent once, as is.
 */
async function postNamed(token: string, name: string | undefined, fallback: string, body: Record<string, unknown>): Promise<Response> {
  for (let n = 1; ; n++) {
    const res = await call("POST", "/api/connections", { token, body: { ...body, name: name ?? (n === 1 ? fallback : `${fallback} ${n}`) } });
    if (name !== undefined || res.status !== 409 || n >= 20) return res;
    const answer = await res.clone().json<{ error?: { code?: string } }>();
    if (answer.error?.code !== "name_in_use") return res;
  }
}

/**
 * Creates a WhatsApp Cloud API connection in the caller's company, registering its number in the
 * Graph API stand-in first (ACCESS_TOKEN proves it) unless `register` is false.
 */
export async function cloudConnection(
  token: string,
  options: { phoneNumberId?: string; greetingMessage?: string; farewellMessage?: string; name?: string; register?: boolean } = {},
): Promise<ConnectionAnswer & { phoneNumberId: string }> {
  const phoneNumberId = options.phoneNumberId ?? uniquePhoneNumberId();
  if (options.register !== false) await registerNumber(phoneNumberId);
  const res = await postNamed(token, options.name, "Loja", {
    channel: "whatsapp-cloud",
    phoneNumberId,
    accessToken: ACCESS_TOKEN,
    greetingMessage: options.greetingMessage ?? "",
    farewellMessage: options.farewellMessage ?? "",
  });
  const answer = await expectStatus<ConnectionAnswer>(res, 201);
  return { ...answer, phoneNumberId };
}

/** One inbound Cloud API message object (`messages[]` entry). */
export function waMessage(
  from: string,
  type: string,
  content: Record<string, unknown>,
  options: { id?: string; ts?: number; context?: { id: string; from?: string } } = {},
): Record<string, unknown> {
  return {
    from,
    id: options.id ?? wamid(),
    timestamp: String(options.ts ?? 1_700_000_000),
    type,
    ...content,
    ...(options.context ? { context: options.context } : {}),
  };
}

/** A webhook envelope carrying `messages` and/or `statuses` for one phone_number_id. */
export function envelope(
  phoneNumberId: string,
  value: { messages?: unknown[]; statuses?: unknown[]; contacts?: { wa_id: string; name: string }[] },
): Record<string, unknown> {
  return {
    object: "whatsapp_business_account",
    entry: [
      {
        id: "WABA",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "15550000000", phone_number_id: phoneNumberId },
              ...(value.contacts ? { contacts: value.contacts.map((c) => ({ profile: { name: c.name }, wa_id: c.wa_id })) } : {}),
              ...(value.messages ? { messages: value.messages } : {}),
              ...(value.statuses ? { statuses: value.statuses } : {}),
            },
          },
        ],
      },
    ],
  };
}

/** A webhook with one message of `from` (profile name `name`). */
export function messageWebhook(phoneNumberId: string, message: Record<string, unknown>, name = "Maria"): Record<string, unknown> {
  return envelope(phoneNumberId, { contacts: [{ wa_id: String(message.from), name }], messages: [message] });
}

/** A webhook with one text message. */
export function textWebhook(phoneNumberId: string, from: string, id: string, body: string, ts = 1_700_000_000, name = "Maria") {
  return messageWebhook(phoneNumberId, waMessage(from, "text", { text: { body } }, { id, ts }), name);
}

/** A status report (`statuses[]` entry). */
export function waStatus(id: string, status: string, options: { ts?: number; recipient?: string; errors?: unknown[] } = {}) {
  return {
    id,
    status,
    timestamp: String(options.ts ?? Math.floor(Date.now() / 1000)),
    recipient_id: options.recipient ?? "5511988887777",
    ...(options.errors ? { errors: options.errors } : {}),
  };
}

/** POSTs `payload` to the webhook signed like Meta (with `secret`). */
export async function deliver(payload: unknown, secret = APP_SECRET): Promise<Response> {
  return deliverRaw(JSON.stringify(payload), await signHub(secret, JSON.stringify(payload)));
}

/** POSTs raw bytes to the webhook with the given signature header (none when undefined). */
export async function deliverRaw(raw: string, signature?: string): Promise<Response> {
  return call("POST", "/api/channels/whatsapp/webhook", {
    body: raw,
    headers: signature === undefined ? {} : { "X-Hub-Signature-256": signature },
  });
}

/** Signs and delivers `payload`, asserting 200. */
export async function deliverOk(payload: unknown): Promise<{ ok: true; stored: number }> {
  return expectStatus<{ ok: true; stored: number }>(await deliver(payload), 200);
}

export type TicketList = { results: TicketAnswer[]; cursor: string | null; total: number };
export type MessagePage = { results: MessageAnswer[]; cursor: string | null };

/** GET /api/tickets?<query> (200 asserted). */
export async function listTickets(token: string, query = ""): Promise<TicketList> {
  return expectStatus<TicketList>(await call("GET", `/api/tickets${query ? `?${query}` : ""}`, { token }), 200);
}

/** GET /api/tickets/{id}/messages (200 asserted). */
export async function ticketMessages(token: string, ticketId: string, query = ""): Promise<MessagePage> {
  return expectStatus<MessagePage>(await call("GET", `/api/tickets/${ticketId}/messages${query ? `?${query}` : ""}`, { token }), 200);
}

/** The only ticket of the caller's company (asserts there is exactly one). */
export async function onlyTicket(token: string): Promise<TicketAnswer> {
  const list = await listTickets(token);
  expect(list.total, JSON.stringify(list)).toBe(1);
  return list.results[0]!;
}

/** Delivers one inbound message and answers it as GET /api/tickets/{id}/messages shows it. */
export async function receive(token: string, phoneNumberId: string, message: Record<string, unknown>): Promise<MessageAnswer> {
  await deliverOk(messageWebhook(phoneNumberId, message));
  const row = await env.DB.prepare("SELECT id, ticket_id FROM messages WHERE external_id = ?")
    .bind(String(message.id))
    .first<{ id: string; ticket_id: string }>();
  expect(row, `message ${String(message.id)} was not stored`).not.toBeNull();
  const page = await ticketMessages(token, row!.ticket_id, "limit=100");
  const answer = page.results.find((m) => m.id === row!.id);
  expect(answer, JSON.stringify(page)).toBeDefined();
  return answer!;
}

/** Polls `read` until `check` passes (work finishing in waitUntil: sends, status updates). */
export async function until<T>(read: () => Promise<T>, check: (value: T) => boolean, what: string): Promise<T> {
  let last: T | undefined;
  for (let i = 0; i < 100; i++) {
    last = await read();
    if (check(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(last)}`);
}

/** A request the Graph API stand-in recorded. */
export type StandInRecord = { method: string; path: string; authorization: string | null; body: Record<string, unknown> | string | null; at: number };

/** Everything the stand-in was sent (by every test file; filter by phone number id). */
export async function standInSent(): Promise<StandInRecord[]> {
  return (await (await fetch(`${env.META_STANDIN_ORIGIN}/__sent`)).json()) as StandInRecord[];
}

/** The message sends the stand-in recorded for one phone number id (read receipts excluded). */
export async function sentTo(phoneNumberId: string): Promise<StandInRecord[]> {
  return (await standInSent()).filter(
    (r) => r.method === "POST" && r.path.endsWith(`/${phoneNumberId}/messages`) && typeof r.body === "object" && r.body !== null && r.body.status === undefined,
  );
}

/** Registers media the worker may download from the stand-in by id. */
export async function addStandInMedia(id: string, mime: string, bytes: Uint8Array): Promise<void> {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  const res = await fetch(`${env.META_STANDIN_ORIGIN}/__media`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ id, mime, base64: btoa(binary) }),
  });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
}

/** Makes the stand-in's next `times` POSTs fail with Meta's error `code`. */
export async function failNextSends(status: number, code: number, message: string, times = 1): Promise<void> {
  const res = await fetch(`${env.META_STANDIN_ORIGIN}/__fail`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ status, code, message, times }),
  });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
}

/** Creates a sandbox connection (DISCONNECTED until paired). */
export async function sandboxConnection(token: string, options: { greetingMessage?: string; farewellMessage?: string; name?: string } = {}) {
  const res = await postNamed(token, options.name, "Sandbox", { channel: "sandbox", greetingMessage: options.greetingMessage ?? "", farewellMessage: options.farewellMessage ?? "" });
  return expectStatus<ConnectionAnswer>(res, 201);
}

export type Pairing = { qrValue: string; code: string; expiresAt: number };

/** Asks for a pairing QR and code, then pairs with the code; answers the device token. */
export async function pairSandbox(token: string, connectionId: string): Promise<string> {
  const pairing = await expectStatus<Pairing>(await call("POST", `/api/connections/${connectionId}/pair`, { token }), 200);
  const paired = await expectStatus<{ deviceToken: string }>(await call("POST", "/api/channels/sandbox/pair", { body: { code: pairing.code } }), 200);
  return paired.deviceToken;
}

/** POST /api/channels/sandbox/events with the device token. */
export async function sandboxEvents(deviceToken: string, events: unknown[]): Promise<Response> {
  return call("POST", "/api/channels/sandbox/events", { body: { events }, headers: { Authorization: `Device ${deviceToken}` } });
}

/** A small byte array with a recognisable pattern. */
export function someBytes(length: number, seed = 1): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = (i * 31 + seed) & 255;
  return out;
}
