/**
 * Worker entry. The worker runs first for every request (wrangler.toml `[assets] run_worker_first
 * = true`): /api/* goes to the Hono app; everything else is the React app from the static assets
 * (`env.ASSETS`, single-page-application fallback), answered with the app's security headers
 * (worker/lib/security-headers.ts: CSP, Referrer-Policy, Permissions-Policy, nosniff); on a
 * franchise's hostname the app's HTML is rebranded first (worker/lib/branding.ts, issue 14). When
 * MEDIA_ORIGIN is set to a separate origin, that origin answers GET /api/media/* and nothing else.
 * Queue batches go to their consumer by queue name (wrangler.toml `[[queues.consumers]]`).
 */
import { app } from "./app";
import type { AppEnv } from "./env";
import { mediaOrigin } from "./lib/media";
import { withAppHeaders } from "./lib/security-headers";
import { isHtmlResponse, rewriteAppHtml } from "./lib/branding";
import { resolveFranchise } from "./lib/franchise-host";
import { MEDIA_CSP } from "./lib/sniff";
import { consumeJobs, JOBS_DLQ, JOBS_QUEUE } from "./queues/jobs";
import { scheduled as runScheduled } from "./scheduled";
import { consumeWebhookEvents, WEBHOOK_EVENTS_DLQ, WEBHOOK_EVENTS_QUEUE } from "./queues/webhook-events";
import { consumeEventDeliveries, EVENT_DELIVERIES_DLQ, EVENT_DELIVERIES_QUEUE } from "./queues/event-deliveries";

export { CompanyHub } from "./durable-objects/company-hub";
export { TicketRoom } from "./durable-objects/ticket-room";
export { ContactSession } from "./durable-objects/contact-session";
export { SandboxDevice } from "./durable-objects/sandbox-device";
export { BroadcastScheduler } from "./durable-objects/broadcast-scheduler";
export { CycleScheduler } from "./durable-objects/cycle-scheduler";
export { BenchHop } from "./durable-objects/bench-hop";

/** Whether `url` is on the separate user-content origin (never when that equals PUBLIC_URL's). */
function onMediaOrigin(url: URL, env: AppEnv): boolean {
  const media = mediaOrigin(env);
  if (!media || url.origin !== media) return false;
  try {
    return new URL(env.PUBLIC_URL).origin !== media;
  } catch {
    return true;
  }
}

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (onMediaOrigin(url, env)) {
      if (url.pathname.startsWith("/api/media/")) return app.fetch(request, env, ctx);
      return new Response("Not found.", { status: 404, headers: { "Content-Security-Policy": MEDIA_CSP, "X-Content-Type-Options": "nosniff" } });
    }
    if (url.pathname === "/api" || url.pathname.startsWith("/api/")) return app.fetch(request, env, ctx);
    const asset = await env.ASSETS.fetch(request);
    // A franchise host gets the app's HTML rebranded at the first byte (worker/lib/branding.ts).
    const brand = isHtmlResponse(asset) ? await resolveFranchise(env, url.host) : null;
    return withAppHeaders(brand ? rewriteAppHtml(asset, brand) : asset, url, env);
  },
  async queue(batch, env) {
    if (batch.queue === JOBS_QUEUE) return consumeJobs(batch, env);
    if (batch.queue === JOBS_DLQ) return consumeJobs(batch, env, true);
    if (batch.queue === WEBHOOK_EVENTS_QUEUE) return consumeWebhookEvents(batch, env);
    if (batch.queue === WEBHOOK_EVENTS_DLQ) return consumeWebhookEvents(batch, env, true);
    if (batch.queue === EVENT_DELIVERIES_QUEUE) return consumeEventDeliveries(batch, env);
    if (batch.queue === EVENT_DELIVERIES_DLQ) return consumeEventDeliveries(batch, env, true);
    console.error(`[queue] no consumer for ${batch.queue}; ${batch.messages.length} message(s) retried`);
    batch.retryAll({ delaySeconds: 60 });
  },
  // Cron Triggers (wrangler.toml [triggers]): the jobs of worker/scheduled.ts.
  scheduled(controller, env, ctx) {
    return runScheduled(controller, env, ctx);
  },
} satisfies ExportedHandler<AppEnv>;
