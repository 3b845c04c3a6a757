/**
 * A loopback stand-in for Evolution API v2 (the self-hosted WhatsApp Web gateway; issue 15), for
 * tests, the e2e run and `npm start`. It speaks the REST and webhook contract the adapter
 * (worker/channels/evolution.ts) uses, as read from EvolutionAPI/evolution-api 2.3.6
 * (shared/reference/wire-formats-wave2.md §1):
 *
 * - every call needs the header `apikey` equal to the global key (401 `{status, error, response}` otherwise);
 * - `POST /instance/create` `{instanceName, integration: "WHATSAPP-BAILEYS", qrcode, number?, webhook:
 *   {url, byEvents, base64?, events[]}}` → 201 `{instance: {instanceName, instanceId, integration,
 *   status}, hash, webhook: {webhookUrl, …}, qrcode?: {pairingCode, code, base64, count}}`; a name in
 *   use → 403; another integration → 400 "Invalid integration";
 * - `GET /instance/connect/{name}[?number=]` → the current `{pairingCode, code, base64, count}` while
 *   not paired (a pairing code only when a number was given), `{instance: {instanceName, state:
 *   "open"}}` once paired; an unknown name → 404;
 * - `GET /instance/connectionState/{name}`, `DELETE /instance/logout/{name}` (400 when already
 *   closed), `DELETE /instance/delete/{name}`;
 * - `POST /message/sendText|sendMedia|sendWhatsAppAudio|sendContact|sendSticker/{name}` → 201 the stored message
 *   `{key: {remoteJid, fromMe: true, id}, message, messageType, messageTimestamp, status: "PENDING"}`;
 *   400 with `response.message: [{jid, exists: false, number}]` for a number ending in 000000 (not
 *   on WhatsApp), 400 "Connection Closed" when the instance is not paired;
 * - `POST /chat/sendPresence/{name}` `{number, presence, delay}` → 201 `{presence}`;
 *   `POST /chat/markMessageAsRead/{name}` → 201; `POST /chat/getBase64FromMediaMessage/{name}`
 *   `{message: {key: {id}}}` → 201 `{mediaType, fileName, mimetype, base64}` (media registered with the event).
 *
 * Webhooks: `{event, instance, data, destination, date_time, sender, server_url, apikey}` POSTed to
 * the instance's webhook URL (no signature: the URL's secret is the authentication).
 *
 * Control (not Evolution's; `?deliver=0` makes them answer the webhook instead of posting it, for
 * tests whose worker is not on the network):
 * - `POST /__scan/{name}` `{number?}`: the phone scanned the QR → state open, CONNECTION_UPDATE open;
 * - `POST /__qr/{name}`: a new QR (the old one expired) → QRCODE_UPDATED;
 * - `POST /__event/{name}` `{event, data, media?: {base64, mimetype, fileName?}}`: any event, e.g.
 *   `messages.upsert` (media registered for getBase64FromMediaMessage under `data.key.id`);
 * - `GET /__instances` (name, state, webhook url, number), `GET /__sends/{name}` (what was sent), `POST /__reset`.
 * Each answers `{url, envelope, delivered, status}`.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

/** One request to a send or chat endpoint, as the stand-in received it. */
export type EvolutionSend = { path: string; action: string; body: Record<string, unknown>; at: number; id?: string };

type Instance = {
  name: string;
  id: string;
  token: string;
  webhook: { url: string; byEvents: boolean; base64: boolean; events: string[] };
  state: "close" | "connecting" | "open";
  qrCount: number;
  qr: string;
  pairingCode: string | null;
  number: string | null;
  sends: EvolutionSend[];
  media: Map<string, { base64: string; mimetype: string; fileName?: string }>;
};

export type EvolutionStandIn = {
  /** Base URL to use as EVOLUTION_API_URL. */
  url: string;
  origin: string;
  /** The global key (AUTHENTICATION_API_KEY) every call must present as `apikey`. */
  apiKey: string;
  instances: Map<string, Instance>;
  close(): Promise<void>;
};

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });
}

/** A QR value as Baileys makes it: "2@<ref>,<noise key>,<identity key>,<adv secret>". */
function qrValue(): string {
  const part = () => Buffer.from(randomUUID().replace(/-/g, ""), "hex").toString("base64");
  return `2@${part()}${part()},${part()},${part()},${part()}`;
}

/** An 8-character pairing code of WhatsApp's alphabet. */
function pairingCode(): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTVWXYZ123456789";
  let code = "";
  for (let i = 0; i < 8; i++) code += alphabet[Math.floor(Math.random() * alphabet.length)];
  return code;
}

/** A WhatsApp message id as Baileys makes it for its own sends. */
function messageId(): string {
  return `3EB0${randomUUID().replace(/-/g, "").slice(0, 18).toUpperCase()}`;
}

/** `5511999998888` / `+55 11 …` / a JID → the JID Evolution answers with. */
function jidOf(number: string): string {
  if (number.includes("@")) return number;
  return `${number.replace(/\D/g, "")}@s.whatsapp.net`;
}

/** Starts the stand-in on 127.0.0.1 (a free port unless `port` is given). */
export async function startEvolutionStandIn(options: { apiKey?: string; port?: number; keepAlive?: boolean } = {}): Promise<EvolutionStandIn> {
  const apiKey = options.apiKey ?? "evo-standin-key";
  const instances = new Map<string, Instance>();
  let origin = "";

  const qrObject = (instance: Instance) => ({
    pairingCode: instance.pairingCode,
    code: instance.qr,
    base64: `data:image/png;base64,${Buffer.from(instance.qr).toString("base64")}`,
    count: instance.qrCount,
  });

  const envelope = (instance: Instance, event: string, data: unknown) => ({
    event,
    instance: instance.name,
    data,
    destination: instance.webhook.url,
    date_time: new Date().toISOString(),
    sender: instance.number ? `${instance.number}@s.whatsapp.net` : null,
    server_url: origin,
    apikey: instance.token,
  });

  /** Posts an event to the instance's webhook (unless `deliver` is false); answers what was (or would be) posted. */
  async function emit(instance: Instance, event: string, data: unknown, deliver: boolean) {
    const body = envelope(instance, event, data);
    const configName = event.replace(/[.-]/g, "_").toUpperCase();
    const subscribed = instance.webhook.events.length === 0 || instance.webhook.events.includes(configName);
    let status = 0;
    if (deliver && subscribed && instance.webhook.url) {
      try {
        const res = await fetch(instance.webhook.url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
        status = res.status;
      } catch {
        status = 0;
      }
    }
    return { url: instance.webhook.url, envelope: body, subscribed, delivered: status >= 200 && status < 300, status };
  }

  const server: Server = createServer(async (req, res: ServerResponse) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const refuse = (status: number, error: string, message: unknown) => send(status, { status, error, response: { message: Array.isArray(message) ? message : [message] } });
    const url = new URL(req.url ?? "/", "http://localhost");
    const parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
    const deliver = url.searchParams.get("deliver") !== "0";
    let body: Record<string, unknown> = {};
    if (req.method === "POST" || req.method === "PUT") {
      const text = await readBody(req);
      if (text) {
        try {
          const parsed: unknown = JSON.parse(text);
          if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
        } catch {
          return refuse(400, "Bad Request", "Invalid JSON");
        }
      }
    }

    // Control endpoints.
    if (parts[0] === "__reset" && req.method === "POST") {
      instances.clear();
      return send(200, { ok: true });
    }
    if (parts[0] === "__instances") {
      return send(200, [...instances.values()].map((i) => ({ name: i.name, state: i.state, webhookUrl: i.webhook.url, events: i.webhook.events, number: i.number, qr: i.qr, pairingCode: i.pairingCode })));
    }
    if (parts[0]?.startsWith("__")) {
      const instance = instances.get(parts[1] ?? "");
      if (!instance) return refuse(404, "Not Found", `The "${parts[1]}" instance does not exist`);
      if (parts[0] === "__sends") return send(200, instance.sends);
      if (parts[0] === "__scan" && req.method === "POST") {
        instance.state = "open";
        instance.number = typeof body.number === "string" ? body.number.replace(/\D/g, "") : (instance.number ?? "5511955550000");
        instance.pairingCode = null;
        return send(200, await emit(instance, "connection.update", { instance: instance.name, state: "open", statusReason: 200, wuid: `${instance.number}@s.whatsapp.net`, profileName: "Loja", profilePictureUrl: null }, deliver));
      }
      if (parts[0] === "__qr" && req.method === "POST") {
        instance.qr = qrValue();
        instance.qrCount += 1;
        return send(200, await emit(instance, "qrcode.updated", { qrcode: { instance: instance.name, ...qrObject(instance) } }, deliver));
      }
      if (parts[0] === "__event" && req.method === "POST") {
        const event = typeof body.event === "string" ? body.event : "";
        const media = body.media as { base64?: string; mimetype?: string; fileName?: string } | undefined;
        const data = body.data as { key?: { id?: string } } | undefined;
        if (media?.base64 && data?.key?.id) instance.media.set(data.key.id, { base64: media.base64, mimetype: media.mimetype ?? "application/octet-stream", fileName: media.fileName });
        if (event === "connection.update" && (body.data as { state?: string } | undefined)?.state === "close") instance.state = "close";
        return send(200, await emit(instance, event, body.data ?? {}, deliver));
      }
      return refuse(404, "Not Found", "Unknown control route");
    }

    if (req.headers.apikey !== apiKey) return refuse(401, "Unauthorized", "Unauthorized");

    // POST /instance/create
    if (parts[0] === "instance" && parts[1] === "create" && req.method === "POST") {
      const name = typeof body.instanceName === "string" ? body.instanceName.trim() : "";
      if (!name) return refuse(400, "Bad Request", ['instance requires property "instanceName"']);
      if (body.integration !== "WHATSAPP-BAILEYS") return refuse(400, "Bad Request", "Invalid integration");
      if (instances.has(name)) return refuse(403, "Forbidden", [`This name "${name}" is already in use.`]);
      const hook = (body.webhook ?? {}) as { url?: unknown; byEvents?: unknown; base64?: unknown; events?: unknown };
      if (!Array.isArray(hook.events)) return refuse(400, "Bad Request", "webhook.events must be an array");
      const number = typeof body.number === "string" && body.number ? body.number.replace(/\D/g, "") : null;
      const instance: Instance = {
        name,
        id: randomUUID(),
        token: randomUUID().toUpperCase(),
        webhook: { url: typeof hook.url === "string" ? hook.url : "", byEvents: hook.byEvents === true, base64: hook.base64 === true, events: hook.events.map(String) },
        state: body.qrcode === true ? "connecting" : "close",
        qrCount: body.qrcode === true ? 1 : 0,
        qr: qrValue(),
        pairingCode: body.qrcode === true && number ? pairingCode() : null,
        number,
        sends: [],
        media: new Map(),
      };
      instances.set(name, instance);
      return send(201, {
        instance: { instanceName: name, instanceId: instance.id, integration: "WHATSAPP-BAILEYS", webhookWaBusiness: null, accessTokenWaBusiness: "", status: instance.state },
        hash: instance.token,
        webhook: { webhookUrl: instance.webhook.url, webhookHeaders: {}, webhookByEvents: instance.webhook.byEvents, webhookBase64: instance.webhook.base64 },
        websocket: {},
        rabbitmq: {},
        nats: {},
        sqs: {},
        settings: { rejectCall: false, msgCall: "", groupsIgnore: false, alwaysOnline: false, readMessages: false, readStatus: false, syncFullHistory: false, wavoipToken: "" },
        ...(body.qrcode === true ? { qrcode: qrObject(instance) } : {}),
      });
    }

    const instance = instances.get(parts[2] ?? "");
    if (!instance) return refuse(404, "Not Found", [`The "${parts[2] ?? ""}" instance does not exist`]);

    if (parts[0] === "instance") {
      if (parts[1] === "connect" && req.method === "GET") {
        if (instance.state === "open") return send(200, { instance: { instanceName: instance.name, state: "open" } });
        const number = url.searchParams.get("number")?.replace(/\D/g, "") ?? "";
        if (instance.state === "close") {
          instance.state = "connecting";
          instance.qr = qrValue();
          instance.qrCount += 1;
          instance.pairingCode = null;
        }
        if (number && !instance.pairingCode) {
          instance.number = number;
          instance.pairingCode = pairingCode();
        }
        return send(200, qrObject(instance));
      }
      if (parts[1] === "connectionState" && req.method === "GET") return send(200, { instance: { instanceName: instance.name, state: instance.state } });
      if (parts[1] === "logout" && req.method === "DELETE") {
        if (instance.state === "close") return refuse(400, "Bad Request", [`The "${instance.name}" instance is not connected`]);
        instance.state = "close";
        instance.pairingCode = null;
        await emit(instance, "connection.update", { instance: instance.name, state: "close", statusReason: 401 }, deliver);
        return send(200, { status: "SUCCESS", error: false, response: { message: "Instance logged out" } });
      }
      if (parts[1] === "delete" && req.method === "DELETE") {
        instances.delete(instance.name);
        return send(200, { status: "SUCCESS", error: false, response: { message: "Instance deleted" } });
      }
    }

    if (parts[0] === "chat" && req.method === "POST") {
      const record = (): EvolutionSend => {
        const sent: EvolutionSend = { path: url.pathname, action: parts[1] ?? "", body, at: Date.now() };
        instance.sends.push(sent);
        return sent;
      };
      if (parts[1] === "sendPresence") {
        if (typeof body.number !== "string" || typeof body.presence !== "string" || typeof body.delay !== "number") return refuse(400, "Bad Request", "number, presence and delay are required");
        record();
        return send(201, { presence: body.presence });
      }
      if (parts[1] === "markMessageAsRead") {
        record();
        return send(201, { message: "Read messages", read: "success" });
      }
      if (parts[1] === "getBase64FromMediaMessage") {
        const id = ((body.message as { key?: { id?: string } } | undefined)?.key?.id) ?? "";
        const media = instance.media.get(id);
        if (!media) return refuse(400, "Bad Request", "Message not found");
        return send(201, { mediaType: "imageMessage", fileName: media.fileName ?? `${id}.bin`, caption: null, size: { fileLength: Buffer.from(media.base64, "base64").length }, mimetype: media.mimetype, base64: media.base64, buffer: null });
      }
    }

    if (parts[0] === "message" && req.method === "POST") {
      const action = parts[1] ?? "";
      if (!["sendText", "sendMedia", "sendWhatsAppAudio", "sendContact", "sendSticker", "sendPtv"].includes(action)) return refuse(404, "Not Found", "Cannot POST");
      const number = typeof body.number === "string" ? body.number : "";
      if (!number) return refuse(400, "Bad Request", ['instance requires property "number"']);
      if (action === "sendText" && (typeof body.text !== "string" || !body.text.trim())) return refuse(400, "Bad Request", ["text is required"]);
      if (action === "sendMedia" && (typeof body.media !== "string" || typeof body.mediatype !== "string")) return refuse(400, "Bad Request", ["media and mediatype are required"]);
      if (action === "sendWhatsAppAudio" && typeof body.audio !== "string") return refuse(400, "Bad Request", ["audio is required"]);
      if (action === "sendContact") {
        const cards = body.contact;
        if (!Array.isArray(cards) || cards.some((c: { fullName?: unknown; phoneNumber?: unknown }) => typeof c.fullName !== "string" || typeof c.phoneNumber !== "string" || c.phoneNumber.length < 10)) {
          return refuse(400, "Bad Request", ["contact requires fullName and phoneNumber (at least 10 characters)"]);
        }
      }
      if (instance.state !== "open") return refuse(400, "Bad Request", ["Connection Closed"]);
      if (/000000$/.test(number.replace(/\D/g, ""))) return refuse(400, "Bad Request", [{ jid: jidOf(number), exists: false, number }]);
      const id = messageId();
      instance.sends.push({ path: url.pathname, action, body, at: Date.now(), id });
      const messageType = { sendText: "conversation", sendMedia: `${String(body.mediatype)}Message`, sendWhatsAppAudio: "audioMessage", sendContact: "contactMessage", sendSticker: "stickerMessage", sendPtv: "ptvMessage" }[action];
      return send(201, {
        key: { remoteJid: jidOf(number), fromMe: true, id },
        pushName: "",
        status: "PENDING",
        message: action === "sendText" ? { conversation: body.text } : {},
        contextInfo: null,
        messageType,
        messageTimestamp: Math.floor(Date.now() / 1000),
        instanceId: instance.id,
        source: "unknown",
      });
    }
    return refuse(404, "Not Found", `Cannot ${req.method} ${url.pathname}`);
  });

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", () => resolve()));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  if (!options.keepAlive) server.unref();
  origin = `http://127.0.0.1:${port}`;
  return { url: origin, origin, apiKey, instances, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
