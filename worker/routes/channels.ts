/**
 * Provider endpoints (DESIGN.md "The main job", step 1). Public: each authenticates its caller its
 * own way (Meta's signature; the sandbox device's token).
 */
import { Hono } from "hono";
import { and, eq, gt, or } from "drizzle-orm";
import { z } from "zod";
import { connections, type ConnectionRow } from "../../schema";
import { phoneSchema } from "../../schema/validation/phone";
import { sandboxPairInput } from "../../schema/validation/connections";
import type { HonoEnv } from "../middleware/context";
import { adapterFor, channelOfProvider } from "../channels";
import { deviceConnection, deviceTokenOf } from "../channels/sandbox";
import { setConnectionStatus } from "../lib/connections";
import { randomToken, sha256Hex } from "../lib/crypto";
import { now } from "../lib/db";
import { span } from "../lib/bench-trace";
import { AppError } from "../lib/errors";
import { hit } from "../lib/rate-limit";
import { sandboxDeviceOf } from "../lib/realtime";
import { zv } from "../lib/validate";
import { ingestBatch, type IngestSummary } from "../pipeline/inbound";

/** Constant-time string comparison (for the verify token). */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * One provider delivery, whoever the provider: its adapter authenticates and normalises it, each
 * batch goes to its connection and is stored, deduplicated; what cannot be placed (an unknown
 * number, an event without identity) is kept as a rejected event. Answers 200 only after storing,
 * so a failure (500) makes the provider redeliver: a message is never acknowledged before it is
 * stored.
 */
async function receiveDelivery(env: HonoEnv["Bindings"], db: HonoEnv["Variables"]["db"], channel: ConnectionRow["channel"], request: Request) {
  const adapter = adapterFor(env, { channel });
  const receivedAt = Date.now();
  const received = span(env, "webhook.receive");
  const routed = await adapter.receive(request);
  received();
  const total: IngestSummary = { stored: 0, duplicates: 0, statuses: 0, ignored: 0, rejected: 0 };
  for (const batch of routed) {
    const ingested = span(env, "webhook.ingest");
    const summary = await ingestBatch(env, db, channel, batch, receivedAt);
    ingested();
    total.stored += summary.stored;
    total.duplicates += summary.duplicates;
    total.statuses += summary.statuses;
    total.ignored += summary.ignored;
    total.rejected += summary.rejected;
  }
  return { ok: true, ...total };
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
   * POST /api/channels/{provider}/webhook (provider: `whatsapp`, `sandbox`): one delivery of the
   * provider → 200 {ok, stored, duplicates, statuses, ignored, rejected}. WhatsApp: Meta's signed
   * events (bad or missing `X-Hub-Signature-256` → 401, nothing stored; not JSON or not an envelope
   * → 400; an unknown phone_number_id is kept as a rejected event without a company). Sandbox: the phone's events with its device
   * token. 404 for an unknown provider.
   */
  .post("/:provider/webhook", async (c) => {
    const channel = channelOfProvider(c.req.param("provider"));
    if (!channel) throw new AppError("not_found", "Unknown channel provider.");
    return c.json(await receiveDelivery(c.env, c.var.db, channel, c.req.raw));
  })
  /**
   * POST /api/channels/evolution/webhook/{secret}: one Evolution API webhook of a `whatsapp-qr`
   * connection (issue 15; worker/channels/evolution.ts) → 200 {ok, stored, …}. The path's secret
   * is the connection's (401 when none has it, nothing stored); 400 for a body that is not an
   * Evolution envelope of that connection's instance.
   */
  .post("/evolution/webhook/:secret", async (c) => c.json(await receiveDelivery(c.env, c.var.db, "whatsapp-qr", c.req.raw)))
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
  /** POST /api/channels/sandbox/events: the sandbox phone's name for its webhook (same as above). */
  .post("/sandbox/events", async (c) => c.json(await receiveDelivery(c.env, c.var.db, "sandbox", c.req.raw)))
  /** GET /api/channels/sandbox/transcript?phone= (device token) → TranscriptEntry[]. */
  .get("/sandbox/transcript", zv("query", z.object({ phone: phoneSchema, token: z.string().optional() })), async (c) => {
    const connection = await deviceConnection(c.env, deviceTokenOf(c.req.raw));
    return c.json({ connection: { id: connection.id, name: connection.name }, transcript: await sandboxDeviceOf(c.env, connection.id).transcript(c.req.valid("query").phone) });
  })
  /** GET /api/channels/sandbox/ws?token= → the phone page's WebSocket. */
  .get("/sandbox/ws", async (c) => {
    const connection = await deviceConnection(c.env, deviceTokenOf(c.req.raw));
    if (c.req.header("Upgrade") !== "websocket") throw new AppError("validation_failed", "Expected a WebSocket upgrade.", { Upgrade: "required" });
    return sandboxDeviceOf(c.env, connection.id).fetch(c.req.raw);
  });
