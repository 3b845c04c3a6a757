/**
 * A WhatsApp message template that went out, kept in its ticket (issue 10 "Templates"): a
 * template is sent straight through the adapter's `sendTemplate` (it opens the conversation, so it
 * does not queue behind the ticket's other sends), then stored here in the ticket's order as a
 * `sent` message carrying the provider's id, so the chat shows what the customer received and the
 * status webhooks (delivered, read) find it. Used by the public API's template send
 * (worker/routes/v1.ts) and by broadcasts outside the 24-hour window
 * (worker/durable-objects/broadcast-scheduler.ts).
 */
import type { MessageAnswer } from "../../schema/realtime";
import type { TemplateSend } from "../../schema/validation/templates";
import type { AppEnv } from "../env";
import { emitEvent } from "./event-subscriptions";
import { roomOf } from "./realtime";

/** What the chat shows for a template: its name in brackets, then its parameter values in order. */
export function templateShownText(template: Pick<TemplateSend, "name" | "headerParams" | "bodyParams"> & { buttonParams?: { text: string }[] }): string {
  return [`[${template.name}]`, ...template.headerParams, ...template.bodyParams, ...(template.buttonParams ?? []).map((b) => b.text)].join(" ");
}

/**
 * Stores the sent `template` in ticket `ticket` (type `text`, shown as templateShownText, the
 * template in `payload`), status `sent` with the provider's `externalId` (a repeat of the same
 * external id stores nothing: the TicketRoom's dedupe), and emits `message.sent`. `sender`: who
 * sent it — an API key (`apiKeyId`, its name) or the bot (a broadcast: no member, `name` null).
 * Answers the stored message.
 */
export async function storeSentTemplate(
  env: AppEnv,
  ticket: { id: string; companyId: string; contactId: string },
  connectionId: string,
  template: Pick<TemplateSend, "name" | "language" | "headerParams" | "bodyParams"> & { buttonParams?: { index: number; text: string }[] },
  externalId: string,
  sender: { name: string | null; apiKeyId: string | null },
): Promise<MessageAnswer> {
  const at = Date.now();
  const result = await roomOf(env, ticket.id).append({
    companyId: ticket.companyId,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    connectionId,
    externalId,
    direction: "out",
    type: "text",
    body: templateShownText(template),
    payload: {
      template: {
        name: template.name,
        language: template.language,
        headerParams: template.headerParams,
        bodyParams: template.bodyParams,
        ...(template.buttonParams?.length ? { buttonParams: template.buttonParams } : {}),
      },
    },
    mediaKey: null,
    mediaMime: null,
    mediaName: null,
    mediaSize: null,
    quotedId: null,
    status: "sent",
    errorCode: null,
    errorMessage: null,
    errorDetails: null,
    sentAt: at,
    senderMemberId: null,
    senderName: sender.name,
    apiKeyId: sender.apiKeyId,
    idempotencyKey: null,
    deletedAt: null,
    editedAt: null,
    forwarded: false,
    reactions: null,
  });
  if (!result.duplicate) {
    await emitEvent(env, ticket.companyId, "message.sent", {
      message: { id: result.message.id, ticketId: ticket.id, connectionId, externalId, sentAt: at },
    });
  }
  return result.message;
}
