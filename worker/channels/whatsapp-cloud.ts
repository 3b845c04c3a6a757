/**
 * WhatsApp Business Cloud API adapter (shared/reference/wire-formats.md "Cloud API send").
 * Sends through `POST {graphUrl}/{phoneNumberId}/messages` with `Authorization: Bearer <token>`;
 * media through `GET {graphUrl}/{mediaId}` then the returned URL. `graphUrl` is
 * `WHATSAPP_GRAPH_URL` (Meta's Graph API base with its version by default), so tests point it at the
 * loopback stand-in. `proveCloudNumber` checks, before a connection is saved, that its access token
 * may use its phone number id (`GET {graphUrl}/{phoneNumberId}?fields=…`).
 */
import { z } from "zod";
import { parsePhoneNumberFromString } from "libphonenumber-js/min";
import type { ConnectionRow } from "../../schema";
import { AppError, unauthorized } from "../lib/errors";
import { verifyHubSignature } from "../lib/hmac";
import { decryptSecret } from "../lib/secrets";
import { WebhookShapeError, parseWhatsAppWebhook } from "./whatsapp-parse";
import type { ChannelAdapter, ChannelCapabilities, InboundMedia, OutboundMessage, Recipient, SendResult } from "./types";
import { fetchTemplates, templateMessageBody } from "./whatsapp-templates";

/** Meta's Graph API base, with the version this adapter was written against. */
export const DEFAULT_GRAPH_URL = "https://graph.facebook.com/v23.0";

/**
 * Graph error codes that are transient, worth a retry with backoff (Meta's error-codes page;
 * shared/reference/platform-limits.md B1, wire-formats-wave2.md §4.3): 1 unknown API error, 2
 * service temporarily unavailable, 4 app rate limit, 80007 WABA rate limit, 130429 throughput
 * reached, 131000 "something went wrong", 131016 service unavailable, 131056 pair rate limit,
 * 133004 server temporarily unavailable, 133016 registration rate limit. Any HTTP 5xx or 429 is
 * transient too. Everything else (131026 undeliverable, 131047 re-engagement window, 131051
 * unsupported type, 131048 spam restriction, other 4xx) is permanent: the message fails at once
 * with Meta's reason.
 */
export const RETRYABLE_CODES = new Set(["1", "2", "4", "80007", "130429", "131000", "131016", "131056", "133004", "133016"]);

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
  /** The fault switch's answer for a send (worker/lib/faults.ts), or null to send for real. */
  injectFailure?: () => Extract<SendResult, { ok: false }> | null;
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

/** What the Graph API says about a number whose access token proved it. */
export type CloudNumberProof = {
  /** As Meta shows it, e.g. "+1 555-010-0001". */
  displayPhoneNumber: string;
  verifiedName: string | null;
  /** GREEN, YELLOW, RED or UNKNOWN (anything else Meta answers is kept as UNKNOWN). */
  qualityRating: "GREEN" | "YELLOW" | "RED" | "UNKNOWN";
  /** The display number in E.164 ("+15550100001"), null when it holds no plausible number. */
  phone: string | null;
  /**
   * The messaging limit (`whatsapp_business_manager_messaging_limit`, e.g. `TIER_250`, `TIER_2K`,
   * `TIER_UNLIMITED`): unique users reachable outside a service window per moving 24 h; null when
   * Meta did not say (platform-limits.md "Messaging limits").
   */
  messagingTier: string | null;
  /** Meta's throughput level of the number (`STANDARD` 80 msg/s, `HIGH` 1,000), null when not said. */
  throughputLevel: string | null;
};

const QUALITY_RATINGS = ["GREEN", "YELLOW", "RED", "UNKNOWN"] as const;

const phoneNumberAnswer = z.object({
  id: z.string().min(1),
  display_phone_number: z.string().min(1),
  verified_name: z.string().optional(),
  quality_rating: z.string().optional(),
  whatsapp_business_manager_messaging_limit: z.string().max(40).optional(),
  throughput: z.object({ level: z.string().max(40).optional() }).optional(),
});

/** How long the proof lookup may take before Meta counts as unavailable (ms). */
const PROOF_TIMEOUT_MS = 10_000;

/**
 * A display number as E.164 through libphonenumber-js. Meta's test numbers (+1 555 01xx…) are not
 * "valid" North-American numbers, so a number that parses is kept as written rather than refused.
 */
export function displayNumberToE164(display: string): string | null {
  const digits = display.replace(/\D/g, "");
  if (digits.length < 7 || digits.length > 15) return null;
  const parsed = parsePhoneNumberFromString(`+${digits}`);
  return parsed?.number ?? `+${digits}`;
}

/** WhatsApp Cloud API: reply buttons (at most 3), lists, templates, typing indicator, quoted replies. */
export const WHATSAPP_CLOUD_CAPABILITIES: ChannelCapabilities = { buttons: true, lists: true, templates: true, presence: true, quotedReplies: true, maxButtons: 3 };

/**
 * Proves that `accessToken` may use `phoneNumberId`: `GET {graphUrl}/{phoneNumberId}?fields=
 * display_phone_number,verified_name,quality_rating,throughput,whatsapp_business_manager_messaging_limit`
 * with the token as bearer (the messaging tier and throughput level come with it; Meta "WhatsApp
 * Business Phone Number" node; shared/reference/wire-formats-wave2.md §4.4). Only a 200 answer that
 * names this very id proves it.
 *
 * Errors (AppError, nothing is written by the caller):
 * - 400 `validation_failed`, field `accessToken` = `access_token_rejected` when Graph refuses the
 *   token (OAuthException code 190, HTTP 401/403);
 * - 400 `validation_failed`, field `phoneNumberId` = `phone_number_not_found` when the id does not
 *   exist or the token may not read it (code 100, or a 2xx answer without the id);
 * - 502 `provider_unavailable` on a network failure, a timeout, a 5xx or a rate-limit answer.
 */
export async function proveCloudNumber(
  options: { graphUrl: string; fetch?: typeof fetch },
  phoneNumberId: string,
  accessToken: string,
): Promise<CloudNumberProof> {
  const doFetch = options.fetch ?? fetch;
  const base = options.graphUrl.replace(/\/+$/, "");
  const url = `${base}/${encodeURIComponent(phoneNumberId)}?fields=display_phone_number,verified_name,quality_rating,throughput,whatsapp_business_manager_messaging_limit`;
  let res: Response;
  let text: string;
  try {
    res = await doFetch(url, { headers: { Authorization: `Bearer ${accessToken}` }, signal: AbortSignal.timeout(PROOF_TIMEOUT_MS) });
    text = await res.text();
  } catch {
    throw providerUnavailable();
  }
  const json = parseJson(text);
  if (res.ok) {
    const answer = phoneNumberAnswer.safeParse(json);
    if (!answer.success || answer.data.id !== phoneNumberId) throw numberNotFound();
    const rating = (answer.data.quality_rating ?? "UNKNOWN").toUpperCase();
    return {
      displayPhoneNumber: answer.data.display_phone_number,
      verifiedName: answer.data.verified_name?.trim() || null,
      qualityRating: QUALITY_RATINGS.find((q) => q === rating) ?? "UNKNOWN",
      phone: displayNumberToE164(answer.data.display_phone_number),
      messagingTier: answer.data.whatsapp_business_manager_messaging_limit?.trim().toUpperCase() || null,
      throughputLevel: answer.data.throughput?.level?.trim().toUpperCase() || null,
    };
  }
  const failure = errorAnswer.safeParse(json);
  const code = failure.success ? String(failure.data.error.code ?? "") : "";
  if (res.status >= 500 || res.status === 429 || RETRYABLE_CODES.has(code)) throw providerUnavailable();
  if (code === "190" || res.status === 401 || res.status === 403) {
    throw new AppError("validation_failed", "Meta did not accept this access token.", { accessToken: "access_token_rejected" });
  }
  throw numberNotFound();
}

const numberNotFound = () =>
  new AppError("validation_failed", "This access token cannot use this phone number ID.", { phoneNumberId: "phone_number_not_found" });
const providerUnavailable = () => new AppError("provider_unavailable", "Meta's Graph API could not be reached; nothing was saved. Try again in a moment.");

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

  /**
   * POSTs one message `body` (text, media, interactive or template) to the number; never throws.
   * `reference` (our message id, ≤ 512 chars) travels as `biz_opaque_callback_data` and comes back in
   * the message's status webhooks. A failure says whether it is `retryable` (network, HTTP 5xx/429,
   * RETRYABLE_CODES).
   */
  async function sendBody(connection: ConnectionRow, to: Recipient, body: Record<string, unknown>, reference?: string): Promise<SendResult> {
    const injected = options.injectFailure?.();
    if (injected) return injected;
    let res: Response;
    try {
      // A contact known only by its business-scoped user id (no wa_id) is addressed by `recipient`.
      const address = /^\d+$/.test(to.externalId) ? { to: to.externalId } : { recipient: to.externalId };
      const callback = reference ? { biz_opaque_callback_data: reference.slice(0, 512) } : {};
      res = await post(connection, { recipient_type: "individual", ...address, ...body, ...callback });
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
  }

  return {
    channel: "whatsapp-cloud",
    capabilities: WHATSAPP_CLOUD_CAPABILITIES,
    confirmsByReference: true,

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
      const text = new TextDecoder().decode(raw);
      try {
        body = JSON.parse(text);
      } catch {
        throw new AppError("validation_failed", "The webhook body is not JSON.", { _: "invalid_json" });
      }
      try {
        return parseWhatsAppWebhook(body, { raw: text, receivedAt: Date.now() });
      } catch (error) {
        if (error instanceof WebhookShapeError) throw new AppError("validation_failed", error.message, { object: "invalid_envelope" });
        throw error;
      }
    },

    /**
     * One send; never throws. A failure says whether it is `retryable` (network, HTTP 5xx/429,
     * RETRYABLE_CODES); the TicketRoom retries those with backoff and fails the rest at once.
     */
    async send(connection: ConnectionRow, to: Recipient, message: OutboundMessage, reference?: string): Promise<SendResult> {
      return sendBody(connection, to, cloudMessageBody(message), reference);
    },

    /**
     * Sends an approved template (issue 10: outside the 24-hour window only a template may start the
     * conversation) with its parameters in order; answers like `send`, never throws.
     */
    async sendTemplate(connection, to, template, reference) {
      return sendBody(connection, to, templateMessageBody(template), reference);
    },

    /** The message templates of the connection's WhatsApp Business Account (`wabaId`; none without one). */
    async listTemplates(connection) {
      if (!connection.wabaId) return [];
      return fetchTemplates({ graphUrl: base, fetch: doFetch }, connection.wabaId, await token(connection));
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
