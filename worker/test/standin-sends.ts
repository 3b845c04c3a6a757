/**
 * The Graph API stand-in's record of message sends and its fault switch, for the tests of sends and
 * their retries (standins/meta-graph: GET /__sent, POST /__faults), a polling wait, and an outbound
 * message row as a send stores it.
 */
import { env } from "cloudflare:test";
import { expect } from "vitest";
import type { MessageRow } from "../../schema";
import { newId } from "../lib/ids";

/** A request the stand-in recorded, with what it answered (`status` of a refused send, `responseId` of an accepted one). */
export type Recorded = { method: string; path: string; body: Record<string, unknown> | null; at: number; responseId?: string; status?: number };

/** The message sends (read receipts excluded) the stand-in recorded for one number, in order. */
export async function sendsTo(phoneNumberId: string): Promise<Recorded[]> {
  const all = (await (await fetch(`${env.META_STANDIN_ORIGIN}/__sent`)).json()) as Recorded[];
  return all.filter((r) => r.method === "POST" && r.path.endsWith(`/${phoneNumberId}/messages`) && r.body !== null && typeof r.body === "object" && r.body.status === undefined);
}

/** The text a recorded send carried ("" for any other type). */
export const textOf = (r: Recorded) => String((r.body?.text as { body?: string } | undefined)?.body ?? "");

/** Makes the number's next `failNext` sends answer HTTP `status` with Meta's error `code` (POST /__faults). */
export async function failSends(phoneNumberId: string, failNext: number, status: number, code: number, message = "Injected failure"): Promise<void> {
  const res = await fetch(`${env.META_STANDIN_ORIGIN}/__faults`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ phoneNumberId, failNext, status, code, message }),
  });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
}

/** Polls `read` every 50 ms until `check` passes, for at most `timeoutMs` (then throws with the last value). */
export async function waitFor<T>(read: () => Promise<T>, check: (value: T) => boolean, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const last = await read();
    if (check(last)) return last;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A bot's text message as a send stores it (`pending`, no sender, no provider id) in `ticket`, with
 * `idempotencyKey` and `seq`: the row an instance that died after its D1 insert leaves behind.
 */
export function pendingOutbound(
  ticket: { id: string; companyId: string; contactId: string; connectionId: string },
  body: string,
  seq: number,
  idempotencyKey: string,
): MessageRow {
  const at = Date.now();
  return {
    id: newId(),
    companyId: ticket.companyId,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    connectionId: ticket.connectionId,
    seq,
    externalId: null,
    direction: "out",
    type: "text",
    body,
    payload: null,
    mediaKey: null,
    mediaMime: null,
    mediaName: null,
    mediaSize: null,
    quotedId: null,
    status: "pending",
    editedAt: null,
    forwarded: false,
    reactions: null,
    errorDetails: null,
    apiKeyId: null,
    errorCode: null,
    errorMessage: null,
    sentAt: at,
    senderMemberId: null,
    senderName: null,
    idempotencyKey,
    deletedAt: null,
    createdAt: at,
    updatedAt: at,
  };
}
