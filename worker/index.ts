/**
 * Worker entry: /api/* goes to the Hono app; everything else is the React app from static assets
 * (wrangler.toml `[assets]`, single-page-application fallback).
 */
import { app } from "./app";
import type { AppEnv } from "./env";

export { CompanyHub } from "./durable-objects/company-hub";
export { TicketRoom } from "./durable-objects/ticket-room";
export { ContactSession } from "./durable-objects/contact-session";
export { SandboxDevice } from "./durable-objects/sandbox-device";

export default {
  fetch(request, env, ctx) {
    return app.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<AppEnv>;
