/**
 * The worker's bindings and variables. Bindings come from wrangler.toml (`npm run cf-typegen`
 * regenerates worker/worker-configuration.d.ts); secrets from `.dev.vars` locally and
 * `wrangler secret put` in production.
 */
export type AppEnv = Env & {
  /** HS256 key for session tokens, ≥ 32 characters. Generated into .dev.vars on first start. */
  JWT_SECRET: string;
  /** SMTP settings; without SMTP_HOST mails go to the dev outbox (DESIGN.md "Email"). */
  SMTP_HOST?: string;
  SMTP_PORT?: string;
  SMTP_USER?: string;
  SMTP_PASSWORD?: string;
  SMTP_FROM?: string;
  /** Meta app secret: the HMAC key of X-Hub-Signature-256 on WhatsApp webhooks. */
  WHATSAPP_APP_SECRET?: string;
  /** The token Meta's verification handshake must present (hub.verify_token). */
  WHATSAPP_VERIFY_TOKEN?: string;
  /**
   * Graph API base (with version) the facebook pixel block posts Conversions API events to;
   * https://graph.facebook.com/v23.0 when unset. Tests point it at the loopback stand-in.
   */
  PIXEL_GRAPH_URL?: string;
  /** Key that encrypts provider secrets at rest (AES-GCM); JWT_SECRET when unset. */
  SECRETS_KEY?: string;
  /** "on" mounts /api/dev/bench (set only by the benchmark scripts). */
  BENCH_ENDPOINTS?: string;
};
