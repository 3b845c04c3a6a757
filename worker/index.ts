/**
 * Worker entry: /api/* goes to the Hono app; everything else is the React app from static assets
 * (wrangler.toml `[assets]`, single-page-application fallback). Queue batches go to their consumer
 * by queue name (wrangler.toml `[[queues.consumers]]`).
 */
import { app } from "./app";
import type { AppEnv } from "./env";
import { consumeJobs, JOBS_DLQ, JOBS_QUEUE } from "./queues/jobs";

export { CompanyHub } from "./durable-objects/company-hub";
export { TicketRoom } from "./durable-objects/ticket-room";
export { ContactSession } from "./durable-objects/contact-session";
export { SandboxDevice } from "./durable-objects/sandbox-device";

export default {
  fetch(request, env, ctx) {
    return app.fetch(request, env, ctx);
  },
  async queue(batch, env) {
    if (batch.queue === JOBS_QUEUE) return consumeJobs(batch, env);
    if (batch.queue === JOBS_DLQ) return consumeJobs(batch, env, true);
    console.error(`[queue] no consumer for ${batch.queue}; ${batch.messages.length} message(s) retried`);
    batch.retryAll({ delaySeconds: 60 });
  },
} satisfies ExportedHandler<AppEnv>;
