/**
 * The public URL of an inbound webhook (issue 11; spec §3 Webhook, §4 Webhook mode):
 *
 * POST /api/hooks/{token} — no session: the 256-bit token in the path is the credential (found by
 * its SHA-256, compared in constant time; worker/lib/webhooks.ts). Accepts `application/json`,
 * `application/x-www-form-urlencoded` and `multipart/form-data` (through worker/lib/multipart.ts;
 * files are not kept, only named as `[file] <name>`); any other type is read as JSON when it
 * parses, else kept as `{text}`. Bodies up to 1 MiB.
 *
 * Answers, at once:
 * - 202 `{id, state}`: the request is stored (kept headers, parsed body, time). `captured` in test
 *   mode (nothing else happens); `pending` in production (enqueued on `webhook-events`, processed
 *   there); `spam` beyond the webhook's requests per minute (never processed; the first one switches
 *   a production webhook to test mode and notifies the members who manage webhooks).
 * - 404 `not_found` for an unknown token, with nothing stored;
 * - 413 `payload_too_large` above 1 MiB, with nothing stored;
 * - 400 `validation_failed` (`body: invalid_json` or `malformed_multipart`) for a body that says it
 *   is JSON or a form and is not.
 */
import { Hono, type Context } from "hono";
import { z } from "zod";
import { MAX_HOOK_BODY_BYTES } from "../../schema/validation/webhooks";
import type { HonoEnv } from "../middleware/context";
import { AppError, notFound } from "../lib/errors";
import { isFormRequest, readForm } from "../lib/multipart";
import { zv } from "../lib/validate";
import { failRequests, keptHeaders, notifySpam, storeRequest, webhookByToken } from "../lib/webhooks";
import { sendWebhookEvent } from "../queues/webhook-events";

const tooLarge = () => new AppError("payload_too_large", `The body is larger than ${MAX_HOOK_BODY_BYTES} bytes (1 MiB).`);

/** The body's bytes, refusing more than MAX_HOOK_BODY_BYTES (by Content-Length first, then while reading). */
async function readLimited(c: Context<HonoEnv>): Promise<Uint8Array> {
  const declared = Number(c.req.header("Content-Length") ?? "NaN");
  if (Number.isFinite(declared) && declared > MAX_HOOK_BODY_BYTES) throw tooLarge();
  const stream = c.req.raw.body;
  if (!stream) return new Uint8Array(0);
  const reader = stream.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_HOOK_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    parts.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return bytes;
}

/** The body as kept: JSON as sent; a form as an object of its fields (files named, not kept). */
async function parseBody(c: Context<HonoEnv>, bytes: Uint8Array): Promise<unknown> {
  if (isFormRequest(c)) {
    // readForm parses what Hono's body cache holds: the bytes already read (and size-checked).
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    c.req.bodyCache.arrayBuffer = buffer instanceof ArrayBuffer ? buffer : new Uint8Array(bytes).buffer;
    const form = await readForm(c, "body");
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(form)) out[name] = typeof value === "string" ? value : `[file] ${value.name}`;
    return out;
  }
  const text = new TextDecoder().decode(bytes);
  if (!text.trim()) return {};
  const type = (c.req.header("Content-Type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  try {
    return JSON.parse(text);
  } catch {
    if (type === "application/json" || type.endsWith("+json")) throw new AppError("validation_failed", "The body is not valid JSON.", { body: "invalid_json" });
    return { text };
  }
}

export const hooksRoutes = new Hono<HonoEnv>()
  /** POST /api/hooks/{token} → 202 {id, state}; see the header. */
  .post("/:token", zv("param", z.object({ token: z.string().max(200, { error: "too_long" }) })), async (c) => {
    const db = c.var.db;
    const webhook = await webhookByToken(db, c.req.valid("param").token);
    if (!webhook) throw notFound("Webhook");
    const bytes = await readLimited(c);
    const body = await parseBody(c, bytes);
    const stored = await storeRequest(db, webhook, {
      contentType: c.req.header("Content-Type") ?? "",
      headers: keptHeaders(c.req.raw.headers),
      body: JSON.stringify(body),
      at: Date.now(),
    });
    if (stored.state === "pending") {
      try {
        await sendWebhookEvent(c.env, { type: "webhook.request", companyId: webhook.companyId, requestId: stored.id });
      } catch (error) {
        await failRequests(db, webhook.companyId, [stored.id], "The request could not be queued for processing.");
        throw error;
      }
    }
    if (stored.switchedToTest) {
      const notify = notifySpam(c.env, db, webhook).catch((error) => console.error("[hooks] spam notification failed", error));
      try {
        c.executionCtx.waitUntil(notify);
      } catch {
        await notify;
      }
    }
    return c.json({ id: stored.id, state: stored.state }, 202);
  });
