/**
 * A stand-in for Meta's Graph API on loopback, for tests and benchmarks (we cannot reach Meta
 * here). It speaks the parts of the WhatsApp Cloud API the adapter uses, as documented
 * (shared/reference/wire-formats.md): send message, media lookup and download, media upload; it
 * records what it was sent, and it can sign and deliver webhook payloads to the worker like Meta.
 *
 * Control endpoints (not Meta's): GET /__sent, POST /__media {id, mime, base64}, POST /__fail
 * {status, code, message, times} (every number: prefer /__faults), POST /__faults {phoneNumberId,
 * failNext, status, code?, message?} (that number's next sends fail; see NumberFault), POST /__deliver {url, secret, payload}, POST /__reset (clears what
 * was sent and the failures; registered numbers stay), POST /__numbers {phoneNumberId,
 * displayPhoneNumber, verifiedName?, qualityRating?, tokens[], failWith?} (registers or replaces a number and
 * the access tokens that prove it).
 * POST /__templates {wabaId, templates[]} sets a WhatsApp Business Account's message templates, which
 * `GET /{version}/{wabaId}/message_templates?limit=&after=` then lists as Meta does (`data`, `paging.cursors`).
 *
 * Phone-number lookups (`GET /{version}/{phoneNumberId}?fields=…`) answer as the Graph API does:
 * the registered fields for a token that proves the number; Meta's OAuthException (code 190, HTTP
 * 401) for a token no number knows; code 100 (subcode 33, HTTP 400) for an id that does not exist
 * or that the (valid) token may not read. Other requests accept any bearer token, as before.
 */
import { createHmac, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

/** A WhatsApp business number the stand-in knows, and the access tokens that prove it. */
export type StandInNumber = {
  phoneNumberId: string;
  /** As Meta shows it, e.g. "+1 555-010-0001" or "+55 11 99999-8888". */
  displayPhoneNumber: string;
  verifiedName?: string;
  /** GREEN, YELLOW, RED or UNKNOWN. */
  qualityRating?: string;
  /** `whatsapp_business_manager_messaging_limit` (default TIER_250, a new portfolio's). */
  messagingLimit?: string;
  /** `throughput.level` (default STANDARD). */
  throughputLevel?: string;
  tokens: string[];
  /** When set, every lookup of this number answers this status with Meta's error body (outages). */
  failWith?: { status: number; code?: number; message?: string };
};

/**
 * Failures of one number's sends (POST /__faults): its next `failNext` message sends (read receipts
 * excluded) answer HTTP `status` with Meta's error `code` (default 130429 for a 429, else 131000).
 */
export type NumberFault = { failNext: number; status: number; code: number; message: string };

/** One request the stand-in received; `responseId` is the wamid it answered a send with; `status` is set on a send it refused (sendFailRate). */
export type RecordedRequest = { method: string; path: string; authorization: string | null; body: unknown; at: number; responseId?: string; status?: number };

export type MetaStandIn = {
  /** Base URL with the API version, e.g. http://127.0.0.1:PORT/v23.0 (use as WHATSAPP_GRAPH_URL). */
  graphUrl: string;
  origin: string;
  sent: RecordedRequest[];
  /** Registers media the worker may download by id. */
  addMedia(id: string, mime: string, bytes: Uint8Array): void;
  /** Registers (or replaces) a business number and the tokens that prove it. */
  addNumber(number: StandInNumber): void;
  /** Signs `payload` with `secret` and POSTs it to `url` as Meta does; answers the status. */
  deliver(url: string, secret: string, payload: unknown): Promise<number>;
  close(): Promise<void>;
};

/** HMAC-SHA256 of the body, as in `X-Hub-Signature-256`. */
export function metaSignature(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** Graph's answer for an object id that does not exist or that the token may not read (HTTP 400). */
function unsupportedGet(id: string) {
  return {
    error: {
      message: `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
      type: "GraphMethodException",
      code: 100,
      error_subcode: 33,
      fbtrace_id: "standin",
    },
  };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

/** Starts the stand-in on 127.0.0.1 (port 0 = any free port). */
export async function startMetaStandIn(
  options: {
    port?: number;
    version?: string;
    accessToken?: string;
    keepAlive?: boolean;
    /** Called for every Graph API request as it arrives (benchmarks time replies with it). */
    onRequest?: (record: RecordedRequest) => void;
    /**
     * Fraction (0–1) of message sends (POST /{phone}/messages, read receipts excluded) answered
     * with Meta's transient error (HTTP 500, code 2, `is_transient`), drawn at random per request;
     * the record of a refused send has `status: 500` and no `responseId` (soaks: `npm run soak:faults`).
     */
    sendFailRate?: number;
    /**
     * Like Meta, report every accepted send with a signed `statuses` webhook (`sent`, carrying the
     * send's `biz_opaque_callback_data`) to `url`, redelivered with backoff (250 ms × 2^n, ≤ 8 s, at
     * most 40 attempts) until it is answered 2xx. Off unless given (soaks: `npm run soak:faults`).
     */
    statusWebhook?: { url: string; appSecret: string };
  } = {},
): Promise<MetaStandIn> {
  const version = options.version ?? "v23.0";
  const sent: RecordedRequest[] = [];
  const media = new Map<string, { mime: string; bytes: Uint8Array }>();
  const numbers = new Map<string, StandInNumber>();
  const addNumber = (number: StandInNumber) => numbers.set(String(number.phoneNumberId), { ...number, tokens: [...number.tokens] });
  const knownToken = (token: string) => [...numbers.values()].some((n) => n.tokens.includes(token));
  let failures: { status: number; code: number; message: string; times: number } | null = null;
  /** Per-number send failures (POST /__faults), so test files sharing the stand-in never interfere. */
  const numberFaults = new Map<string, NumberFault>();
  /** Message templates by WhatsApp Business Account id (POST /__templates). */
  const wabaTemplates = new Map<string, unknown[]>();
  let origin = "";

  async function deliver(url: string, secret: string, payload: unknown): Promise<number> {
    const body = JSON.stringify(payload);
    const res = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Hub-Signature-256": metaSignature(secret, body) },
      body,
    });
    await res.arrayBuffer();
    return res.status;
  }

  /** The `sent` status webhook of an accepted send, redelivered until answered 2xx (see `statusWebhook`). */
  function reportSent(target: { url: string; appSecret: string }, phoneNumberId: string, wamid: string, to: string, sendBody: unknown): void {
    const callback = (sendBody as { biz_opaque_callback_data?: unknown } | null)?.biz_opaque_callback_data;
    const status = {
      id: wamid,
      status: "sent",
      timestamp: String(Math.floor(Date.now() / 1000)),
      recipient_id: to.replace(/\D/g, ""),
      ...(typeof callback === "string" ? { biz_opaque_callback_data: callback } : {}),
    };
    const payload = {
      object: "whatsapp_business_account",
      entry: [{ id: "standin-waba", changes: [{ field: "messages", value: { messaging_product: "whatsapp", metadata: { display_phone_number: phoneNumberId, phone_number_id: phoneNumberId }, statuses: [status] } }] }],
    };
    void (async () => {
      for (let attempt = 0; attempt < 40; attempt++) {
        await new Promise((r) => setTimeout(r, attempt === 0 ? 50 : Math.min(8000, 250 * 2 ** attempt) * (0.5 + Math.random())));
        try {
          const code = await deliver(target.url, target.appSecret, payload);
          if (code >= 200 && code < 300) return;
        } catch {
          // The receiver is down (a soak's kill): try again later, as Meta does.
        }
      }
    })();
  }

  const server: Server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", "http://standin");
      const path = url.pathname;
      const raw = await readBody(req);
      const text = raw.toString("utf8");
      let body: unknown = null;
      if (text && (req.headers["content-type"] ?? "").includes("json")) body = JSON.parse(text);

      // Control endpoints.
      if (path === "/__sent") return json(res, 200, sent);
      if (path === "/__reset") {
        sent.length = 0;
        failures = null;
        return json(res, 200, { ok: true });
      }
      if (path === "/__media" && req.method === "POST") {
        const b = body as { id: string; mime: string; base64: string };
        media.set(b.id, { mime: b.mime, bytes: new Uint8Array(Buffer.from(b.base64, "base64")) });
        return json(res, 200, { ok: true });
      }
      if (path === "/__numbers" && req.method === "POST") {
        const b = body as StandInNumber;
        if (!b || typeof b.phoneNumberId !== "string" || typeof b.displayPhoneNumber !== "string" || !Array.isArray(b.tokens)) {
          return json(res, 400, { error: "phoneNumberId, displayPhoneNumber and tokens[] are required" });
        }
        addNumber(b);
        return json(res, 200, { ok: true });
      }
      if (path === "/__templates" && req.method === "POST") {
        const b = body as { wabaId?: unknown; templates?: unknown };
        if (!b || typeof b.wabaId !== "string" || !Array.isArray(b.templates)) return json(res, 400, { error: "wabaId and templates[] are required" });
        wabaTemplates.set(b.wabaId, b.templates);
        return json(res, 200, { ok: true });
      }
      if (path === "/__fail" && req.method === "POST") {
        failures = body as typeof failures;
        return json(res, 200, { ok: true });
      }
      if (path === "/__faults" && req.method === "POST") {
        const b = body as Partial<NumberFault> & { phoneNumberId?: unknown };
        if (!b || typeof b.phoneNumberId !== "string" || typeof b.failNext !== "number" || typeof b.status !== "number") {
          return json(res, 400, { error: "phoneNumberId, failNext and status are required" });
        }
        numberFaults.set(b.phoneNumberId, { failNext: b.failNext, status: b.status, code: b.code ?? (b.status === 429 ? 130429 : 131000), message: b.message ?? "Injected failure" });
        return json(res, 200, { ok: true });
      }
      if (path === "/__deliver" && req.method === "POST") {
        const b = body as { url: string; secret: string; payload: unknown };
        return json(res, 200, { status: await deliver(b.url, b.secret, b.payload) });
      }
      if (path.startsWith("/media-bytes/")) {
        const item = media.get(decodeURIComponent(path.slice("/media-bytes/".length)));
        if (!item) return json(res, 404, { error: { message: "Unknown media", code: 100 } });
        res.writeHead(200, { "Content-Type": item.mime, "Content-Length": item.bytes.byteLength });
        return res.end(Buffer.from(item.bytes));
      }

      // Graph API.
      const auth = req.headers.authorization ?? null;
      const record: RecordedRequest = { method: req.method ?? "GET", path, authorization: auth, body: body ?? (text || null), at: Date.now() };
      sent.push(record);
      options.onRequest?.(record);
      if (!auth?.startsWith("Bearer ") || (options.accessToken && auth !== `Bearer ${options.accessToken}`)) {
        return json(res, 401, { error: { message: "Invalid OAuth access token.", type: "OAuthException", code: 190 } });
      }
      const parts = path.split("/").filter(Boolean);
      if (parts[0] !== version) return json(res, 400, { error: { message: "Unknown path components", code: 2500 } });
      const fault = req.method === "POST" && parts.length === 3 && parts[2] === "messages" ? numberFaults.get(decodeURIComponent(parts[1] ?? "")) : undefined;
      if (fault && fault.failNext > 0 && (body as { status?: string } | null)?.status !== "read") {
        fault.failNext -= 1;
        record.status = fault.status;
        return json(res, fault.status, { error: { message: fault.message, code: fault.code, type: "OAuthException", fbtrace_id: "standin" } });
      }
      if (failures && failures.times > 0 && req.method === "POST") {
        failures.times -= 1;
        return json(res, failures.status, { error: { message: failures.message, code: failures.code, type: "OAuthException" } });
      }
      if (req.method === "POST" && parts.length === 3 && parts[2] === "messages") {
        const b = (body ?? {}) as { to?: string; status?: string };
        if (b.status === "read") return json(res, 200, { success: true });
        const to = String(b.to ?? "");
        if (options.sendFailRate && Math.random() < options.sendFailRate) {
          record.status = 500;
          return json(res, 500, { error: { message: "Service temporarily unavailable", type: "OAuthException", code: 2, is_transient: true, fbtrace_id: "standin" } });
        }
        record.responseId = `wamid.${randomUUID()}`;
        if (options.statusWebhook) reportSent(options.statusWebhook, decodeURIComponent(parts[1] ?? ""), record.responseId, to, body);
        return json(res, 200, { messaging_product: "whatsapp", contacts: [{ input: to, wa_id: to.replace(/\D/g, "") }], messages: [{ id: record.responseId }] });
      }
      if (req.method === "POST" && parts.length === 3 && parts[2] === "media") {
        const id = `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
        media.set(id, { mime: String(req.headers["content-type"] ?? "application/octet-stream"), bytes: new Uint8Array(raw) });
        return json(res, 200, { id });
      }
      if (req.method === "GET" && parts.length === 3 && parts[2] === "message_templates") {
        // Meta's template list (wire-formats-wave2.md §4.1): pages of `limit` (default 25) after the cursor.
        const list = wabaTemplates.get(decodeURIComponent(parts[1] ?? "")) ?? [];
        const limit = Math.max(1, Math.min(100, Number(url.searchParams.get("limit")) || 25));
        const start = Number(url.searchParams.get("after") ?? "0") || 0;
        const page = list.slice(start, start + limit);
        const more = start + limit < list.length;
        const cursors = { before: String(start), after: String(start + page.length) };
        return json(res, 200, { data: page, paging: { cursors, ...(more ? { next: `${origin}${path}?limit=${limit}&after=${start + page.length}` } : {}) } });
      }
      if (req.method === "GET" && parts.length === 2) {
        const id = decodeURIComponent(parts[1] ?? "");
        const number = numbers.get(id);
        if (number?.failWith) {
          const f = number.failWith;
          return json(res, f.status, { error: { message: f.message ?? "An unexpected error has occurred. Please retry your request later.", type: "OAuthException", code: f.code ?? 2, is_transient: true } });
        }
        if (number) {
          const token = auth.slice("Bearer ".length);
          if (!number.tokens.includes(token)) {
            if (!knownToken(token)) {
              return json(res, 401, { error: { message: "Invalid OAuth access token - Cannot parse access token", type: "OAuthException", code: 190, fbtrace_id: "standin" } });
            }
            return json(res, 400, unsupportedGet(id));
          }
          const fields = new Set((url.searchParams.get("fields") ?? "display_phone_number,verified_name,quality_rating").split(",").map((f) => f.trim()));
          const answer: Record<string, unknown> = {};
          if (fields.has("display_phone_number")) answer.display_phone_number = number.displayPhoneNumber;
          if (fields.has("verified_name")) answer.verified_name = number.verifiedName ?? "Test Number";
          if (fields.has("quality_rating")) answer.quality_rating = number.qualityRating ?? "GREEN";
          if (fields.has("whatsapp_business_manager_messaging_limit")) answer.whatsapp_business_manager_messaging_limit = number.messagingLimit ?? "TIER_250";
          if (fields.has("throughput")) answer.throughput = { level: number.throughputLevel ?? "STANDARD" };
          answer.id = number.phoneNumberId;
          return json(res, 200, answer);
        }
        const item = media.get(id);
        if (!item) return json(res, 400, unsupportedGet(id));
        return json(res, 200, { messaging_product: "whatsapp", url: `${origin}/media-bytes/${encodeURIComponent(id)}`, mime_type: item.mime, file_size: item.bytes.byteLength, id });
      }
      return json(res, 404, { error: { message: "Unknown path", code: 100 } });
    } catch (error) {
      json(res, 500, { error: { message: String(error), code: 1 } });
    }
  });

  // Idle keep-alive connections stay open longer than workerd's pool keeps them (Node's default of
  // 5 s closes some just as workerd reuses them: "Network connection lost" under concurrent sends).
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  // Inside a test runner the stand-in must not keep the process alive after the tests.
  if (!options.keepAlive) server.unref();
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  origin = `http://127.0.0.1:${port}`;
  return {
    graphUrl: `${origin}/${version}`,
    origin,
    sent,
    addMedia: (id, mime, bytes) => media.set(id, { mime, bytes }),
    addNumber,
    deliver,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
