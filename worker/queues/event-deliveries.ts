/**
 * The `event-deliveries` queue (issue 11 "Outbound event webhooks"; STYLE habit 4): one message per
 * delivery of an event to one subscription (worker/lib/event-subscriptions.ts).
 *
 * A message is parsed with zod (a malformed one is logged and acknowledged). The handler
 * (`deliverEvent`) performs one attempt and logs it; a receiver that does not answer 2xx is retried
 * by the queue after `deliveryBackoffSeconds` (30 s, 1 min, 2 min … ≤ 1 h), up to
 * MAX_DELIVERY_ATTEMPTS, after which the delivery is marked failed and acknowledged. A thrown error
 * (D1 unavailable) retries the message the same way; after the queue's `max_retries`
 * (wrangler.toml) it lands on `event-deliveries-dlq`, whose handler marks the delivery failed.
 */
import { z } from "zod";
import type { AppEnv } from "../env";
import { idSchema } from "../../schema/validation/common";
import { deliverEvent, deliveryBackoffSeconds, failDelivery, type EventDeliveryMessage } from "../lib/event-subscriptions";

/** Queue names (wrangler.toml). */
export const EVENT_DELIVERIES_QUEUE = "event-deliveries";
export const EVENT_DELIVERIES_DLQ = "event-deliveries-dlq";

/** Messages of the `event-deliveries` queue. */
export const eventDeliveryMessageSchema = z.discriminatedUnion("type", [z.object({ type: z.literal("event.deliver"), deliveryId: idSchema, companyId: idSchema })]);

/**
 * The consumer of `event-deliveries` (and, with `dead`, of its dead-letter queue): each message is
 * parsed and attempted, then acked, or retried with backoff while the delivery stays pending.
 */
export async function consumeEventDeliveries(batch: MessageBatch, env: AppEnv, dead = false): Promise<void> {
  for (const msg of batch.messages) {
    const parsed = eventDeliveryMessageSchema.safeParse(msg.body);
    if (!parsed.success) {
      console.error(`[events] malformed message on ${batch.queue}, dropped`, msg.id, JSON.stringify(msg.body).slice(0, 300));
      msg.ack();
      continue;
    }
    const message: EventDeliveryMessage = parsed.data;
    try {
      if (dead) {
        await failDelivery(env, message);
        msg.ack();
        continue;
      }
      const outcome = await deliverEvent(env, message);
      if (outcome.result === "retry") msg.retry({ delaySeconds: outcome.delaySeconds });
      else msg.ack();
    } catch (error) {
      console.error(`[events] delivery ${message.deliveryId} failed (attempt ${msg.attempts}); retrying`, error);
      msg.retry({ delaySeconds: deliveryBackoffSeconds(msg.attempts) });
    }
  }
}
