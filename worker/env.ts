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
  /**
   * Broadcasts, local and test only: a factor (0 < x ≤ 1) applied to the delay presets' pauses and
   * to the 6 s per-user pair gap, so tests and `npm run bench:broadcast` run in seconds. Ignored
   * (1) when ENVIRONMENT is "production" or unset (worker/lib/broadcasts-limits.ts).
   */
  BROADCAST_DELAY_SCALE?: string;
};
