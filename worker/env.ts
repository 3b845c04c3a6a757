/**
 * The worker's bindings and variables. Bindings come from wrangler.toml (`npm run cf-typegen`
 * regenerates worker/worker-configuration.d.ts); secrets from `.dev.vars` locally and
 * `wrangler secret put` in production.
 */
export type AppEnv = Env & {
  /**
   * Root secret, ≥ 32 characters (generated into .dev.vars on first start). The session-token key
   * is derived from it with HKDF; so are the encryption and media-URL keys when SECRETS_KEY /
   * MEDIA_URL_KEY are unset (worker/lib/keys.ts).
   */
  JWT_SECRET: string;
  /** SMTP settings; without SMTP_HOST mails go to the dev outbox when MAIL_OUTBOX is "on". */
  SMTP_HOST?: string;
  SMTP_PORT?: string;
  SMTP_USER?: string;
  SMTP_PASSWORD?: string;
  SMTP_FROM?: string;
  /**
   * "on" keeps mails in the D1 dev outbox (`mail_outbox`) and prints them, when SMTP_HOST is unset.
   * Local development and tests only (npm start, the e2e runner and vitest set it); never set it in
   * a deployed configuration. Unset and no SMTP: mails are dropped with an error in the log.
   */
  MAIL_OUTBOX?: string;
  /** Meta app secret: the HMAC key of X-Hub-Signature-256 on WhatsApp webhooks. */
  WHATSAPP_APP_SECRET?: string;
  /** The token Meta's verification handshake must present (hub.verify_token). */
  WHATSAPP_VERIFY_TOKEN?: string;
  /** Instagram app id (business login, issue 15): `client_id` of the authorisation page and the token exchange. */
  INSTAGRAM_APP_ID?: string;
  /** Instagram app secret: the token exchange's `client_secret` and the HMAC key of Instagram webhooks' X-Hub-Signature-256. */
  INSTAGRAM_APP_SECRET?: string;
  /** The token Instagram's webhook verification handshake must present (hub.verify_token). */
  INSTAGRAM_VERIFY_TOKEN?: string;
  /** Instagram Graph API base with its version; https://graph.instagram.com/v23.0 when unset. Tests point it at the stand-in. */
  INSTAGRAM_GRAPH_URL?: string;
  /**
   * Base of Instagram's OAuth endpoints (`/oauth/authorize`, `/oauth/access_token`). Unset: the
   * authorisation page is https://www.instagram.com and the code exchange https://api.instagram.com.
   * Tests and `npm start` point it at the stand-in.
   */
  INSTAGRAM_OAUTH_URL?: string;
  /**
   * WhatsApp by QR code (issue 15): the Evolution API v2 server that holds the WhatsApp Web
   * sessions of `whatsapp-qr` connections, e.g. https://evo.example.com (a connection may name its
   * own). Unset and no per-connection server: such connections cannot be created. Tests, the e2e
   * run and `npm start` point it at standins/evolution.ts.
   */
  EVOLUTION_API_URL?: string;
  /** The Evolution server's global API key (its AUTHENTICATION_API_KEY), sent as the `apikey` header. */
  EVOLUTION_API_KEY?: string;
  /** Test only: control origin of standins/evolution.ts (vitest.config.mts). */
  EVOLUTION_STANDIN_ORIGIN?: string;
  /**
   * Graph API base (with version) the facebook pixel block posts Conversions API events to;
   * https://graph.facebook.com/v23.0 when unset. Tests point it at the loopback stand-in.
   */
  PIXEL_GRAPH_URL?: string;
  /**
   * Root secret of encryption at rest (provider tokens, AES-GCM); JWT_SECRET when unset. The AES key
   * is derived from it with HKDF (worker/lib/keys.ts).
   */
  SECRETS_KEY?: string;
  /**
   * Root secret of media-URL signatures (HMAC-SHA256); JWT_SECRET when unset. The HMAC key is
   * derived from it with HKDF (worker/lib/keys.ts), so it never equals the session key.
   */
  MEDIA_URL_KEY?: string;
  /**
   * Optional separate origin for user content (e.g. https://media.example.com, a route or custom
   * domain of this same worker). When set, media links are built on it, GET /api/media answers only
   * there, and that origin answers nothing else (worker/index.ts).
   */
  MEDIA_ORIGIN?: string;
  /**
   * Where this worker runs: "production" (wrangler.toml [vars], every deployed configuration),
   * "local" (wrangler dev with a .dev.vars or --var override) or "test" (vitest). Only local and
   * test honour FAULTS and armed faults (worker/lib/faults.ts).
   */
  ENVIRONMENT?: string;
  /**
   * The fault switch, local and test only: failure rates per operation, e.g.
   * "effect:0.1,alarm:0.05,send:0.1,queue:0.1" (worker/lib/faults.ts). Ignored when ENVIRONMENT is
   * "production" or unset.
   */
  FAULTS?: string;
  /**
   * Platform administrators (issue 12): comma-separated e-mails whose users get the Admin area
   * (announcements; later plans and franchises). Empty in wrangler.toml; `npm start` sets the demo owner.
   */
  PLATFORM_ADMINS?: string;
  /**
   * Requests per minute each company API key may make to the public API /api/v1 (a fixed window;
   * 600 when unset or not a positive integer; worker/routes/v1.ts).
   */
  API_RATE_LIMIT?: string;
  /**
   * Registrations per hour from one client address (20 when unset or not a positive integer;
   * worker/routes/accounts.ts). The e2e run raises it: `wrangler dev` gives every client the same
   * address, so all its test accounts would count against one client.
   */
  REGISTER_RATE_LIMIT?: string;
  /** "on" mounts /api/dev/bench (set only by the benchmark scripts). */
  BENCH_ENDPOINTS?: string;
  /** The benchmarks' skeleton objects (worker/durable-objects/bench-hop.ts; wrangler.toml binds it). */
  BENCH_HOP?: DurableObjectNamespace<import("./durable-objects/bench-hop").BenchHop>;
  /**
   * Broadcasts, local and test only: a factor (0 < x ≤ 1) applied to the delay presets' pauses and
   * to the 6 s per-user pair gap, so tests and `npm run bench:broadcast` run in seconds. Ignored
   * (1) when ENVIRONMENT is "production" or unset (worker/lib/broadcasts-limits.ts).
   */
  BROADCAST_DELAY_SCALE?: string;
  /**
   * Franchises (issue 14): Cloudflare's API base for custom hostnames (Cloudflare for SaaS);
   * https://api.cloudflare.com/client/v4 when unset. Tests and `npm start` point it at
   * standins/cloudflare.ts (worker/lib/custom-hostnames.ts).
   */
  CF_API_URL?: string;
  /** API token with "SSL and Certificates: Edit" on CF_ZONE_ID; unset: hostnames are not registered at Cloudflare. */
  CF_API_TOKEN?: string;
  /** The zone (our SaaS zone) custom hostnames are added to. */
  CF_ZONE_ID?: string;
  /**
   * Billing (issue 13; worker/billing): the payment provider, "sandbox" (local default: everything
   * in D1, test cards, a simulate-payment button) or "asaas". Default: "asaas" when ASAAS_API_KEY
   * is set, else "sandbox".
   */
  BILLING_PROVIDER?: string;
  /** Asaas API base with /v3, e.g. https://api.asaas.com/v3 (default) or https://api-sandbox.asaas.com/v3. */
  ASAAS_API_URL?: string;
  /** Asaas API key (header `access_token`); selects the asaas provider when set. */
  ASAAS_API_KEY?: string;
  /** The token Asaas sends in `asaas-access-token` on webhooks (32–255 characters); webhooks answer 401 without it. */
  ASAAS_WEBHOOK_TOKEN?: string;
  /** Trial length in days for new companies (default 7). */
  TRIAL_DAYS?: string;
  /** Days after an unpaid due date before a company is suspended (default 3). */
  BILLING_GRACE_DAYS?: string;
  /** Days before a due date the reminder mail is sent (default 3). */
  BILLING_REMINDER_DAYS?: string;
};
