/**
 * Rejected provider events (issue 8 §7): a signed, valid delivery the pipeline could not place (no
 * sender identity, an unknown shape or message type, an unknown phone number id, a reaction whose
 * target is unknown) is kept, never dropped in silence: its raw payload in R2 under
 * `rejected/<companyId | "unrouted">/<id>.json`, a row in rejected_events (reason, detail, time of
 * receipt) and the connection's `rejected_count` moved in the same D1 batch.
 */
import { eq, sql } from "drizzle-orm";
import { connections, rejectedEvents, type Channel } from "../../schema";
import type { RejectReason } from "../channels/types";
import type { AppEnv } from "../env";
import type { Db } from "./db";
import { newId } from "./ids";

/** What one rejected event records; `payload` is the provider's JSON text as received (or its part). */
export type RejectedInput = {
  companyId: string | null;
  connectionId: string | null;
  channel: Channel;
  reason: RejectReason;
  detail: string;
  payload: string;
  /** Time of receipt, ms UTC (now by default). */
  receivedAt?: number;
};

/** The R2 key of a rejected event's payload. */
export function rejectedPayloadKey(companyId: string | null, id: string): string {
  return `rejected/${companyId ?? "unrouted"}/${id}.json`;
}

/**
 * Keeps one rejected event: the payload bytes to R2 first, then the row and the connection's count
 * in one batch. Throws when storage fails, so the webhook answers 500 and the provider redelivers.
 * Answers the event id.
 */
export async function keepRejected(env: AppEnv, db: Db, input: RejectedInput): Promise<string> {
  const id = newId();
  const key = rejectedPayloadKey(input.companyId, id);
  const bytes = new TextEncoder().encode(input.payload);
  await env.FILES.put(key, bytes, { httpMetadata: { contentType: "application/json" } });
  const row = db.insert(rejectedEvents).values({
    id,
    companyId: input.companyId,
    connectionId: input.connectionId,
    channel: input.channel,
    reason: input.reason,
    detail: input.detail.slice(0, 500),
    payloadKey: key,
    payloadSize: bytes.byteLength,
    receivedAt: input.receivedAt ?? Date.now(),
  });
  if (input.connectionId) {
    await db.batch([row, db.update(connections).set({ rejectedCount: sql`${connections.rejectedCount} + 1` }).where(eq(connections.id, input.connectionId))]);
  } else {
    await row;
  }
  return id;
}
