/**
 * WhatsApp Business Cloud API adapter (shared/reference/wire-formats.md "Cloud API send").
 * Sends through `POST {graphUrl}/{phoneNumberId}/messages` with `Authorization: Bearer <token>`;
 * media through `GET {graphUrl}/{mediaId}` then the returned URL. `graphUrl` is
 * `WHATSAPP_GRAPH_URL` (Meta's Graph API base with its version by default), so tests point it at the
 * loopback stand-in.
 */
import { z } from "zod";
import type { ConnectionRow } from "../../schema";
import { AppError, unauthorized } from "../lib/errors";
import { verifyHubSignature } from "../lib/hmac";
import { decryptSecret } from "../lib/secrets";
import { WebhookShapeError, parseWhatsAppWebhook } from "./whatsapp-parse";
import type { ChannelAdapter, InboundMedia, OutboundMessage, Recipient, SendResult } from "./types";

/** Meta's Graph API base, with the version this adapter was written against. */
export const DEFAULT_GRAPH_URL = "https://graph.facebook.com/v23.0";

/** Errors Meta documents as transient (rate limits, temporary failures): worth a retry. */
const RETRYABLE_CODES = new Set(["4", "80007", "130429", "131016", "131048", "131056", "133016"]);

const sendAnswer = z.object({ messages: z.array(z.object({ id: z.string() })).min(1) });
const errorAnswer = z.object({ error: z.object({ code: z.union([z.number(), z.string()]).optional(), message: z.string().optional() }) });
const mediaAnswer = z.object({ url: z.string(), mime_type: z.string().optional() });

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export type WhatsAppCloudOptions = {
  graphUrl: string;
  secretsKey: string;
  /** Meta app secret: the HMAC key of `X-Hub-Signature-256`. */
  appSecret: string;
  fetch?: typeof fetch;
};

/** Largest webhook body accepted (bytes); Meta's payloads are a few KB. */
export const MAX_WEBHOOK_BYTES = 1024 * 1024;

/** The request body Meta expects for one outbound message (without the common envelope fields). */
export function cloudMessageBody(message: OutboundMessage): Record<string, unknown> {
  const context = "quotedExternalId" in message && message.quotedExternalId ? { context: { message_id: message.quotedExternalId } } : {};
  switch (message.type) {
    case "text":
      return { type: "text", text: { preview_url: true, body: message.body.slice(0, 4096) }, ...context };
    case "image":
    case "video":
    case "audio":
    case "document":
    case "sticker":
    case "ptv": {
      // The Cloud API has no video-note type: a ptv goes out as a video.
      const type = message.type === "ptv" ? "video" : message.type;
      const media: Record<string, unknown> = { link: message.media.url };
      if (message.caption && type !== "audio" && type !== "sticker") media.caption = message.caption;
      if (type === "document" && message.media.fileName) media.filename = message.media.fileName;
      return { type, [type]: media, ...context };
    }
    case "buttons":
      return {
        type: "interactive",
        interactive: {
          type: "button",
          body: { text: message.body.slice(0, 1024) },
          ...(message.footer ? { footer: { text: message.footer.slice(0, 60) } } : {}),
          action: { buttons: message.buttons.slice(0, 3).map((b) => ({ type: "reply", reply: { id: b.id.slice(0, 256), title: b.title.slice(0, 20) } })) },
        },
      };
    case "list":
      return {
        type: "interactive",
        interactive: {
          type: "list",
          body: { text: message.body.slice(0, 4096) },
          action: {
            button: message.buttonText.slice(0, 20),
            sections: message.sections.slice(0, 10).map((s) => ({
              title: s.title.slice(0, 24),
              rows: s.rows.map((r) => ({ id: r.id.slice(0, 200), title: r.title.slice(0, 24), ...(r.description ? { description: r.description.slice(0, 72) } : {}) })),
            })),
          },
        },
      };
    case "link":
      return {
        type: "interactive",
        interactive: {
          type: "cta_url",
          body: { text: message.body.slice(0, 1024) },
          action: { name: "cta_url", parameters: { display_text: message.buttonText.slice(0, 20), url: message.url } },
        },
      };
    case "contact":
      return {
        type: "contacts",
        contacts: [
          {
            name: { formatted_name: message.contact.name, first_name: message.contact.name },
            phones: [{ phone: message.contact.phone, type: "WORK" }],
            ...(message.contact.organization ? { org: { company: message.contact.organization } } : {}),
          },
        ],
      };
  }
}

export function whatsappCloudAdapter(options: WhatsAppCloudOptions): ChannelAdapter {
  const doFetch = options.fetch ?? fetch;
  const base = options.graphUrl.replace(/\/+$/, "");

  async function token(connection: ConnectionRow): Promise<string> {
    if (!connection.accessTokenEnc) throw new Error("connection has no access token");
    return decryptSecret(options.secretsKey, connection.accessTokenEnc);
  }

  async function post(connection: ConnectionRow, body: Record<string, unknown>): Promise<Response> {
    return doFetch(`${base}/${encodeURIComponent(connection.phoneNumberId ?? "")}/messages`, {
      method: "POST",
      headers: { Authorization: `Bearer ${await token(connection)}`, "Content-Type": "application/json" },
      body: JSON.stringify({ messaging_product: "whatsapp", ...body }),
    });
  }

  return {
    channel: "whatsapp-cloud",

    /**
     * A Meta webhook: the signature is checked over the raw bytes before any parsing (401, nothing
     * stored); a body that is not JSON or not a WhatsApp envelope answers 400.
     */
    async receive(request: Request) {
      const raw = await request.arrayBuffer();
      if (raw.byteLength > MAX_WEBHOOK_BYTES) throw new AppError("payload_too_large", "Webhook body too large.");
      if (!(await verifyHubSignature(options.appSecret, raw, request.headers.get("X-Hub-Signature-256")))) {
        throw unauthorized("Invalid webhook signature.");
      }
      let body: unknown;
      try {
        body = JSON.parse(new TextDecoder().decode(raw));
      } catch {
        throw new AppError("validation_failed", "The webhook body is not JSON.", { _: "invalid_json" });
      }
      try {
        return parseWhatsAppWebhook(body);
      } catch (error) {
        if (error instanceof WebhookShapeError) throw new AppError("validation_failed", error.message, { object: "invalid_envelope" });
        throw error;
      }
    },

    async send(connection: ConnectionRow, to: Recipient, message: OutboundMessage): Promise<SendResult> {
      let res: Response;
      try {
        res = await post(connection, { recipient_type: "individual", to: to.externalId, ...cloudMessageBody(message) });
      } catch (error) {
        return { ok: false, errorCode: "network", errorMessage: String(error), retryable: true };
      }
      const json = parseJson(await res.text());
      const sent = sendAnswer.safeParse(json);
      if (res.ok && sent.success && sent.data.messages[0]) return { ok: true, externalId: sent.data.messages[0].id };
      const failure = errorAnswer.safeParse(json);
      const err = failure.success ? failure.data.error : undefined;
      const code = String(err?.code ?? res.status);
      return {
        ok: false,
        errorCode: code,
        errorMessage: err?.message ?? `HTTP ${res.status}`,
        retryable: res.status >= 500 || res.status === 429 || RETRYABLE_CODES.has(code),
      };
    },

    async presence(connection, _to, state, replyTo) {
      // Meta's typing indicator needs an inbound message id and lasts at most 25 s; there is no
      // recording indicator and no explicit "paused".
      if (!replyTo || state === "paused") return;
      await post(connection, { status: "read", message_id: replyTo, typing_indicator: { type: "text" } }).catch(() => undefined);
    },

    async markRead(connection, _to, externalId) {
      await post(connection, { status: "read", message_id: externalId }).catch(() => undefined);
    },

    async fetchMedia(connection: ConnectionRow, media: Extract<InboundMedia, { kind: "provider" }>) {
      const auth = { Authorization: `Bearer ${await token(connection)}` };
      const meta = await doFetch(`${base}/${encodeURIComponent(media.providerMediaId)}`, { headers: auth });
      if (!meta.ok) throw new Error(`media lookup failed: ${meta.status}`);
      const info = mediaAnswer.safeParse(parseJson(await meta.text()));
      if (!info.success) throw new Error("media lookup answered no url");
      const file = await doFetch(info.data.url, { headers: auth });
      if (!file.ok) throw new Error(`media download failed: ${file.status}`);
      return { bytes: await file.arrayBuffer(), mime: info.data.mime_type ?? media.mime };
    },
  };
}
