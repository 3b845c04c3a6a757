/**
 * Provider endpoints (DESIGN.md "The main job", step 1). Public: each authenticates its caller its
 * own way (Meta's signature; the sandbox device's token).
 */
import { Hono } from "hono";
import { and, eq, gt, or } from "drizzle-orm";
import { z } from "zod";
import { connections, type ConnectionRow } from "../../schema";
import { phoneSchema } from "../../schema/validation/common";
import { sandboxEventsInput, sandboxPairInput, type SandboxEventInput } from "../../schema/validation/connections";
import type { HonoEnv } from "../middleware/context";
import { WebhookShapeError, parseWhatsAppWebhook } from "../channels/whatsapp-parse";
import type { InboundEvent } from "../channels/types";
import { setConnectionStatus } from "../lib/connections";
import { randomToken, sha256Hex } from "../lib/crypto";
import { verifyHubSignature } from "../lib/hmac";
import { now } from "../lib/db";
import { AppError, unauthorized } from "../lib/errors";
import { hit } from "../lib/rate-limit";
import { sandboxDeviceOf } from "../lib/realtime";
import { zv } from "../lib/validate";
import { ingestEvents, routeConnection } from "../pipeline/inbound";

/** Largest webhook body accepted (bytes); Meta's payloads are a few KB. */
const MAX_WEBHOOK_BYTES = 1024 * 1024;

/** Constant-time string comparison (for the verify token). */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** The sandbox device of the request (`Authorization: Device <token>` or `?token=`). */
async function deviceConnection(db: HonoEnv["Variables"]["db"], token: string | undefined): Promise<ConnectionRow> {
  if (!token) throw unauthorized("Device token required.");
  const row = await db.query.connections.findFirst({
    where: and(eq(connections.deviceTokenHash, await sha256Hex(token)), eq(connections.channel, "sandbox")),
  });
  if (!row || row.status !== "CONNECTED") throw unauthorized("This device is not paired.");
  return row;
}

function deviceToken(c: { req: { header(name: string): string | undefined; query(name: string): string | undefined } }): string | undefined {
  const header = c.req.header("Authorization");
  const match = header ? /^Device\s+(.+)$/i.exec(header) : null;
  return match?.[1]?.trim() ?? c.req.query("token");
}

/** Converts a sandbox phone event into the normalised InboundEvent. */
function fromSandbox(event: z.output<typeof sandboxEventsInput>["events"][number]): InboundEvent {
  switch (event.kind) {
    case "message":
      return {
        kind: "message",
        externalId: event.id,
        from: event.from,
        phone: event.from,
        profileName: event.name,
        timestamp: event.timestamp ?? Date.now(),
        type: event.type,
        body: event.body,
        ...(event.media ? { media: { kind: "inline" as const, dataBase64: event.media.dataBase64, mime: event.media.mime, fileName: event.media.fileName } } : {}),
        ...(event.replyId ? { payload: { replyId: event.replyId, title: event.body } } : {}),
        quotedExternalId: event.quotedId,
      };
    case "status":
      return { kind: "status", externalId: event.id, status: event.status, timestamp: Date.now() };
    case "presence":
      return { kind: "presence", from: event.from, state: event.state };
    case "revoke":
      return { kind: "revoke", externalId: event.id, from: event.from, timestamp: Date.now() };
  }
}

export const channelsRoutes = new Hono<HonoEnv>()
  /**
   * GET /api/channels/whatsapp/webhook: Meta's verification handshake. Answers `hub.challenge` as
   * plain text when `hub.mode=subscribe` and `hub.verify_token` equals WHATSAPP_VERIFY_TOKEN; 403
   * otherwise.
   */
  .get("/whatsapp/webhook", (c) => {
    const mode = c.req.query("hub.mode");
    const token = c.req.query("hub.verify_token") ?? "";
    const challenge = c.req.query("hub.challenge") ?? "";
    const expected = c.env.WHATSAPP_VERIFY_TOKEN ?? "";
    if (mode === "subscribe" && expected && sameText(token, expected)) return c.text(challenge, 200);
    return c.json({ error: { code: "forbidden", message: "Verification failed." } }, 403);
  })
  /**
   * POST /api/channels/whatsapp/webhook: signed events from Meta. The signature is checked over the
   * raw bytes before any parsing (401, nothing stored); a body that is not JSON or not a WhatsApp
   * envelope answers 400; events for an unknown phone_number_id are skipped; otherwise the events
   * are stored (deduplicated) and the answer is 200. A storage failure answers 500 so Meta
   * redelivers: a message is never acknowledged before it is stored.
   */
  .post("/whatsapp/webhook", async (c) => {
    const raw = await c.req.arrayBuffer();
    if (raw.byteLength > MAX_WEBHOOK_BYTES) throw new AppError("payload_too_large", "Webhook body too large.");
    if (!(await verifyHubSignature(c.env.WHATSAPP_APP_SECRET ?? "", raw, c.req.header("X-Hub-Signature-256")))) {
      throw unauthorized("Invalid webhook signature.");
    }
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder().decode(raw));
    } catch {
      throw new AppError("validation_failed", "The webhook body is not JSON.", { _: "invalid_json" });
    }
    let routed;
    try {
      routed = parseWhatsAppWebhook(body);
    } catch (error) {
      if (error instanceof WebhookShapeError) throw new AppError("validation_failed", error.message, { object: "invalid_envelope" });
      throw error;
    }
    const db = c.var.db;
    let stored = 0;
    for (const batch of routed) {
      const connection = await routeConnection(db, batch.route, "whatsapp-cloud");
      if (!connection) continue;
      const summary = await ingestEvents(c.env, connection, batch.events);
      stored += summary.stored;
    }
    return c.json({ ok: true, stored });
  })
  /**
   * POST /api/channels/sandbox/pair {secret | code} → {deviceToken, connection: {id, name}}: pairs
   * the sandbox phone with the connection whose QR secret or phone code is current. 400
   * invalid_code when none matches or it expired; 429 after 20 tries a minute from one IP.
   */
  .post("/sandbox/pair", zv("json", sandboxPairInput), async (c) => {
    const input = c.req.valid("json");
    const db = c.var.db;
    await hit(db, [{ key: `pair:ip:${c.req.header("CF-Connecting-IP") ?? "local"}`, max: 20, windowMs: 60_000 }]);
    const conditions = [];
    if (input.secret) conditions.push(eq(connections.pairingSecretHash, await sha256Hex(input.secret)));
    if (input.code) conditions.push(eq(connections.pairingCodeHash, await sha256Hex(input.code)));
    const row = await db.query.connections.findFirst({
      where: and(eq(connections.channel, "sandbox"), gt(connections.pairingExpiresAt, now()), or(...conditions)),
    });
    if (!row) throw new AppError("validation_failed", "The code is not valid or has expired.", { code: "invalid_code" });
    const token = randomToken(32);
    await setConnectionStatus(c.env, db, row, "CONNECTED", {
      deviceTokenHash: await sha256Hex(token),
      pairingSecretHash: null,
      pairingCodeHash: null,
      pairingExpiresAt: null,
    });
    await sandboxDeviceOf(c.env, row.id).paired();
    return c.json({ deviceToken: token, connection: { id: row.id, name: row.name } });
  })
  /**
   * POST /api/channels/sandbox/events {events} (Authorization: Device <token>) → {stored}: the
   * simulated customers' messages, receipts and presence, through the same pipeline as a provider's.
   */
  .post("/sandbox/events", zv("json", sandboxEventsInput), async (c) => {
    const connection = await deviceConnection(c.var.db, deviceToken(c));
    const { events } = c.req.valid("json");
    const device = sandboxDeviceOf(c.env, connection.id);
    for (const event of events) {
      if (event.kind === "status") await device.setStatus(event.id, event.status);
      if (event.kind === "message") {
        await device.record(event.from, event.id, recordable(event), event.timestamp ?? Date.now());
      }
    }
    const summary = await ingestEvents(c.env, connection, events.map(fromSandbox));
    return c.json(summary);
  })
  /** GET /api/channels/sandbox/transcript?phone= (device token) → TranscriptEntry[]. */
  .get("/sandbox/transcript", zv("query", z.object({ phone: phoneSchema, token: z.string().optional() })), async (c) => {
    const connection = await deviceConnection(c.var.db, deviceToken(c));
    return c.json({ connection: { id: connection.id, name: connection.name }, transcript: await sandboxDeviceOf(c.env, connection.id).transcript(c.req.valid("query").phone) });
  })
  /** GET /api/channels/sandbox/ws?token= → the phone page's WebSocket. */
  .get("/sandbox/ws", async (c) => {
    const connection = await deviceConnection(c.var.db, deviceToken(c));
    if (c.req.header("Upgrade") !== "websocket") throw new AppError("validation_failed", "Expected a WebSocket upgrade.", { Upgrade: "required" });
    return sandboxDeviceOf(c.env, connection.id).fetch(c.req.raw);
  });

/** What the transcript keeps of a customer's message (media bytes are not kept twice). */
function recordable(event: Extract<SandboxEventInput, { kind: "message" }>) {
  return {
    type: event.type,
    body: event.body ?? "",
    ...(event.media ? { media: { mime: event.media.mime, fileName: event.media.fileName } } : {}),
  };
}
