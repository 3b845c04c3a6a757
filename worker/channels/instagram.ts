/**
 * Instagram adapter (issue 15; Instagram API with Instagram Login, shared/reference/
 * wire-formats-wave2.md §3.3). Sends through `POST {graph}/{ig-user-id}/messages` with the
 * connection's long-lived token as bearer: text, image/video/audio/file by URL (our signed media
 * URL, which Meta must reach), quick replies (at most 13, titles ≤ 20 characters) for buttons, and
 * the generic template for link buttons.
 *
 * The messaging window (platform-limits B2): a message goes out as `RESPONSE` within 24 h of the
 * customer's last message; after that a member's reply goes out with `tag: "HUMAN_AGENT"` up to 7
 * days; anything else fails at once with `outside_window` (not retried). Conversations can only be
 * started by the customer.
 *
 * Inbound deliveries are authenticated by `X-Hub-Signature-256` (HMAC-SHA256 of the raw body with
 * INSTAGRAM_APP_SECRET) and parsed by instagram-parse.ts; each entry is routed to the connection
 * whose account id (`instagram_accounts.ig_user_id`) it names.
 */
import { and, desc, eq, inArray } from "drizzle-orm";
import { instagramAccounts, messages, type ConnectionRow } from "../../schema";
import type { AppEnv } from "../env";
import { getDb, type Db } from "../lib/db";
import { AppError, unauthorized } from "../lib/errors";
import { verifyHubSignature } from "../lib/hmac";
import { graphCall, instagramOptions, InstagramError, type InstagramGraphOptions } from "../lib/instagram-graph";
import { decryptSecret } from "../lib/secrets";
import { InstagramShapeError, parseInstagramWebhook, type InstagramEntry } from "./instagram-parse";
import type { ChannelAdapter, ChannelCapabilities, InboundMedia, OutboundMessage, Recipient, RoutedEvents, SendResult } from "./types";

/** Largest webhook body accepted (bytes). */
export const MAX_INSTAGRAM_WEBHOOK_BYTES = 1024 * 1024;

/** The standard window after the customer's last message (ms). */
export const RESPONSE_WINDOW_MS = 24 * 3600 * 1000;
/** How long a member may still reply with the HUMAN_AGENT tag (ms). */
export const HUMAN_AGENT_WINDOW_MS = 7 * 24 * 3600 * 1000;
/** Most quick replies one message may carry. */
export const MAX_QUICK_REPLIES = 13;

/**
 * Instagram: quick replies stand in for reply buttons (up to 13); no list messages (the flow engine
 * sends a numbered menu), no templates, typing indicator (`sender_action`), no quoted replies.
 */
export const INSTAGRAM_CAPABILITIES: ChannelCapabilities = { buttons: true, lists: false, templates: false, presence: true, quotedReplies: false, maxButtons: MAX_QUICK_REPLIES };

/** Instagram's `message` objects for one outbound message (a media caption goes as a second text). */
export function instagramMessages(message: OutboundMessage): Record<string, unknown>[] {
  switch (message.type) {
    case "text":
      return [{ text: message.body.slice(0, 1000) }];
    case "image":
    case "sticker":
    case "video":
    case "ptv":
    case "audio":
    case "document": {
      const type = message.type === "document" ? "file" : message.type === "sticker" ? "image" : message.type === "ptv" ? "video" : message.type;
      const out: Record<string, unknown>[] = [{ attachment: { type, payload: { url: message.media.url } } }];
      if (message.caption?.trim()) out.push({ text: message.caption.slice(0, 1000) });
      return out;
    }
    case "buttons":
      return [
        {
          text: (message.footer ? `${message.body}\n\n${message.footer}` : message.body).slice(0, 1000),
          quick_replies: message.buttons.slice(0, MAX_QUICK_REPLIES).map((b) => ({ content_type: "text", title: b.title.slice(0, 20), payload: b.id.slice(0, 1000) })),
        },
      ];
    case "list":
      // Not declared (capabilities.lists is false): the engine sends a numbered menu instead. A list
      // reaching here anyway goes out as quick replies of its rows.
      return [
        {
          text: message.body.slice(0, 1000),
          quick_replies: message.sections
            .flatMap((s) => s.rows)
            .slice(0, MAX_QUICK_REPLIES)
            .map((r) => ({ content_type: "text", title: r.title.slice(0, 20), payload: r.id.slice(0, 1000) })),
        },
      ];
    case "link":
      return [
        {
          attachment: {
            type: "template",
            payload: {
              template_type: "generic",
              elements: [{ title: message.body.slice(0, 80) || message.buttonText.slice(0, 80), buttons: [{ type: "web_url", url: message.url, title: message.buttonText.slice(0, 20) }] }],
            },
          },
        },
      ];
    case "contact": {
      const org = message.contact.organization ? ` (${message.contact.organization})` : "";
      return [{ text: `${message.contact.name}${org}\n${message.contact.phone}` }];
    }
  }
}

/** How a send may go out: within 24 h, with the HUMAN_AGENT tag, or not at all. */
export type WindowAnswer = { kind: "response" } | { kind: "human_agent" } | { kind: "closed" };

/**
 * The window for our message `reference` (messages.id): measured from the contact's last inbound
 * message on the connection; a member's message (`sender_member_id`) may use HUMAN_AGENT up to 7
 * days. A send without a known message (presence) counts as within the window.
 */
export async function windowFor(db: Db, connection: Pick<ConnectionRow, "id" | "companyId">, reference: string | undefined, at = Date.now()): Promise<WindowAnswer> {
  if (!reference) return { kind: "response" };
  const ours = await db.query.messages.findFirst({
    where: and(eq(messages.id, reference), eq(messages.companyId, connection.companyId)),
    columns: { contactId: true, senderMemberId: true },
  });
  if (!ours) return { kind: "response" };
  const [last] = await db
    .select({ sentAt: messages.sentAt })
    .from(messages)
    .where(and(eq(messages.contactId, ours.contactId), eq(messages.companyId, connection.companyId), eq(messages.connectionId, connection.id), eq(messages.direction, "in")))
    .orderBy(desc(messages.sentAt))
    .limit(1);
  if (!last) return { kind: "closed" };
  const age = at - last.sentAt;
  if (age <= RESPONSE_WINDOW_MS) return { kind: "response" };
  if (ours.senderMemberId && age <= HUMAN_AGENT_WINDOW_MS) return { kind: "human_agent" };
  return { kind: "closed" };
}

/** The connections of the accounts `igUserIds` name, by account id. */
export async function connectionsOfAccounts(db: Db, igUserIds: string[]): Promise<Map<string, string>> {
  if (igUserIds.length === 0) return new Map();
  const rows = await db
    .select({ igUserId: instagramAccounts.igUserId, connectionId: instagramAccounts.connectionId })
    .from(instagramAccounts)
    .where(inArray(instagramAccounts.igUserId, [...new Set(igUserIds)]));
  return new Map(rows.map((r) => [r.igUserId, r.connectionId]));
}

/**
 * Authenticates one Instagram delivery and parses it: 401 (nothing read further) for a bad or
 * missing signature, 413 over 1 MiB, 400 when it is not JSON or not an Instagram envelope.
 */
export async function readInstagramDelivery(appSecret: string, request: Request): Promise<InstagramEntry[]> {
  const raw = await request.arrayBuffer();
  if (raw.byteLength > MAX_INSTAGRAM_WEBHOOK_BYTES) throw new AppError("payload_too_large", "Webhook body too large.");
  if (!(await verifyHubSignature(appSecret, raw, request.headers.get("X-Hub-Signature-256")))) throw unauthorized("Invalid webhook signature.");
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(raw));
  } catch {
    throw new AppError("validation_failed", "The webhook body is not JSON.", { _: "invalid_json" });
  }
  try {
    return parseInstagramWebhook(body);
  } catch (error) {
    if (error instanceof InstagramShapeError) throw new AppError("validation_failed", error.message, { object: "invalid_envelope" });
    throw error;
  }
}

export type InstagramAdapterOptions = InstagramGraphOptions & {
  secretsKey: string;
  db: Db;
  /** The fault switch's answer for a send (worker/lib/faults.ts), or null to send for real. */
  injectFailure?: () => Extract<SendResult, { ok: false }> | null;
};

/** The adapter of `env` (INSTAGRAM_* settings). */
export function instagramAdapterOf(env: AppEnv, secretsKey: string, injectFailure?: InstagramAdapterOptions["injectFailure"]): ChannelAdapter {
  return instagramAdapter({ ...instagramOptions(env), secretsKey, db: getDb(env.DB), injectFailure });
}

export function instagramAdapter(options: InstagramAdapterOptions): ChannelAdapter {
  const doFetch = options.fetch ?? fetch;

  async function token(connection: ConnectionRow): Promise<string> {
    if (!connection.accessTokenEnc) throw new InstagramError("no_token", "The connection has no access token; connect Instagram again.", false, 0);
    return decryptSecret(options.secretsKey, connection.accessTokenEnc);
  }

  async function igUserIdOf(connection: ConnectionRow): Promise<string> {
    const account = await options.db.query.instagramAccounts.findFirst({ where: eq(instagramAccounts.connectionId, connection.id), columns: { igUserId: true } });
    if (!account) throw new InstagramError("no_account", "The connection has no Instagram account; connect Instagram again.", false, 0);
    return account.igUserId;
  }

  async function post(connection: ConnectionRow, body: Record<string, unknown>): Promise<unknown> {
    return graphCall({ fetch: doFetch }, `${options.graphUrl}/${encodeURIComponent(await igUserIdOf(connection))}/messages`, {
      method: "POST",
      headers: { Authorization: `Bearer ${await token(connection)}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  }

  return {
    channel: "instagram",
    capabilities: INSTAGRAM_CAPABILITIES,

    async receive(request: Request): Promise<RoutedEvents[]> {
      const entries = await readInstagramDelivery(options.appSecret, request);
      const routes = await connectionsOfAccounts(options.db, entries.map((e) => e.igUserId));
      return entries
        .filter((e) => e.events.length > 0)
        .map((e) => ({ route: { by: "connectionId" as const, value: routes.get(e.igUserId) ?? "" }, events: e.events, raw: e.raw }));
    },

    /**
     * One send; never throws. Within 24 h of the customer's last message it goes as `RESPONSE`, a
     * member's reply up to 7 days with the HUMAN_AGENT tag; otherwise `outside_window` (permanent).
     * Network, HTTP 5xx/429 and Meta's rate-limit codes are `retryable`.
     */
    async send(connection: ConnectionRow, to: Recipient, message: OutboundMessage, reference?: string): Promise<SendResult> {
      const injected = options.injectFailure?.();
      if (injected) return injected;
      let externalId = "";
      try {
        const window = await windowFor(options.db, connection, reference);
        if (window.kind === "closed") {
          return { ok: false, errorCode: "outside_window", errorMessage: "Instagram only allows replies within 24 hours of the customer's last message (7 days for a member's reply).", retryable: false };
        }
        const envelope = window.kind === "human_agent" ? { messaging_type: "MESSAGE_TAG", tag: "HUMAN_AGENT" } : { messaging_type: "RESPONSE" };
        for (const [index, body] of instagramMessages(message).entries()) {
          try {
            const answer = await post(connection, { recipient: { id: to.externalId }, ...envelope, message: body });
            const id = typeof answer === "object" && answer !== null && "message_id" in answer && typeof answer.message_id === "string" ? answer.message_id : "";
            if (index === 0) externalId = id;
          } catch (error) {
            // A caption that failed after its media went out is not worth failing the message for.
            if (index > 0) break;
            throw error;
          }
        }
      } catch (error) {
        if (error instanceof InstagramError) return { ok: false, errorCode: error.code, errorMessage: error.message, retryable: error.retryable };
        return { ok: false, errorCode: "network", errorMessage: String(error), retryable: true };
      }
      if (!externalId) return { ok: false, errorCode: "invalid_answer", errorMessage: "Instagram answered no message id.", retryable: false };
      return { ok: true, externalId };
    },

    async presence(connection, to, state) {
      if (state !== "typing") return;
      await post(connection, { recipient: { id: to.externalId }, sender_action: "typing_on" }).catch(() => undefined);
    },

    async markRead(connection, to) {
      await post(connection, { recipient: { id: to.externalId }, sender_action: "mark_seen" }).catch(() => undefined);
    },

    /** Downloads an attachment from Instagram's CDN (`providerMediaId` is its URL; http(s) only). */
    async fetchMedia(_connection: ConnectionRow, media: Extract<InboundMedia, { kind: "provider" }>) {
      const url = new URL(media.providerMediaId);
      if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error("media URL is not http(s)");
      const file = await doFetch(url.toString(), { signal: AbortSignal.timeout(30_000) });
      if (!file.ok) throw new Error(`media download failed: ${file.status}`);
      return { bytes: await file.arrayBuffer(), mime: file.headers.get("Content-Type")?.split(";")[0]?.trim() || media.mime };
    },
  };
}
