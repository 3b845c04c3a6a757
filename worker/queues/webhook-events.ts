/**
 * The `webhook-events` queue (DESIGN.md "Queues"; STYLE habit 4; issue 11): production requests of
 * inbound webhooks, each mapped to a contact and acted on (worker/lib/webhooks-run.ts).
 *
 * Messages are a discriminated union on `type`, parsed with zod on arrival (a malformed one is
 * logged and acknowledged). A thrown error (D1 or a Durable Object unavailable) keeps the error on
 * the request and retries the message with exponential backoff (the `jobs` queue's
 * `retryDelaySeconds`); after `max_retries` (wrangler.toml) it lands on `webhook-events-dlq`, whose
 * handler marks the request failed with the last error. Delivery is at least once; processing is
 * exactly once per action (per-action done markers, see webhooks-run.ts).
 */
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { webhookRequests } from "../../schema";
import { idSchema } from "../../schema/validation/common";
import type { AppEnv } from "../env";
import { getDb } from "../lib/db";
import { maybeFailJob } from "../lib/faults";
import { failRequests } from "../lib/webhooks";
import { processWebhookRequest } from "../lib/webhooks-run";
import { retryDelaySeconds } from "./jobs";

export { WEBHOOK_EVENTS_DLQ, WEBHOOK_EVENTS_QUEUE } from "../lib/webhooks";

/** Messages of the `webhook-events` queue. */
export const webhookEventSchema = z.discriminatedUnion("type", [
  /** Process a stored production request. */
  z.object({ type: z.literal("webhook.request"), companyId: idSchema, requestId: idSchema }),
]);
export type WebhookEventMessage = z.infer<typeof webhookEventSchema>;

/** Enqueues a stored request for processing. */
export async function sendWebhookEvent(env: AppEnv, message: WebhookEventMessage): Promise<void> {
  await env.WEBHOOK_EVENTS.send(message, { contentType: "json" });
}

/**
 * The consumer of `webhook-events` (and, with `dead`, of `webhook-events-dlq`): each message is
 * parsed and processed, then acked; retried with backoff when processing throws.
 */
export async function consumeWebhookEvents(batch: MessageBatch, env: AppEnv, dead = false): Promise<void> {
  const db = getDb(env.DB);
  for (const msg of batch.messages) {
    const parsed = webhookEventSchema.safeParse(msg.body);
    if (!parsed.success) {
      console.error(`[webhook-events] malformed message on ${batch.queue}, dropped`, msg.id, JSON.stringify(msg.body).slice(0, 500));
      msg.ack();
      continue;
    }
    const { companyId, requestId } = parsed.data;
    try {
      if (dead) {
        const row = await db.query.webhookRequests.findFirst({ where: and(eq(webhookRequests.id, requestId), eq(webhookRequests.companyId, companyId)), columns: { error: true } });
        const cause = row?.error ? ` Last error: ${row.error}` : "";
        await failRequests(db, companyId, [requestId], `Processing stopped after several failed attempts (a temporary error kept recurring).${cause}`);
      } else {
        // The fault switch (local and test only): the message fails as a D1 hiccup would.
        await maybeFailJob(env, requestId);
        await processWebhookRequest(env, db, companyId, requestId);
      }
      msg.ack();
    } catch (error) {
      console.error(`[webhook-events] request ${requestId} failed (attempt ${msg.attempts}); retrying`, error);
      const text = error instanceof Error ? error.message : String(error);
      await db
        .update(webhookRequests)
        .set({ error: text.slice(0, 500) })
        .where(and(eq(webhookRequests.id, requestId), eq(webhookRequests.companyId, companyId), eq(webhookRequests.state, "pending")))
        .catch(() => undefined);
      msg.retry({ delaySeconds: retryDelaySeconds(env, msg.attempts, error) });
    }
  }
}
