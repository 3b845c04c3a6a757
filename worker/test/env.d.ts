// Test-only typing: the migrations binding the vitest config adds.
declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    /** Origin of the loopback Graph API stand-in (its /__ control endpoints). */
    META_STANDIN_ORIGIN: string;
    /** Origin of the loopback Instagram stand-in (standins/instagram-graph.ts; its /__ control endpoints). */
    INSTAGRAM_STANDIN_ORIGIN: string;
    /** The Instagram app secret the stand-in signs with (vitest.config.mts). */
    INSTAGRAM_APP_SECRET: string;
    /** Port of the loopback SMTP server and origin of its control endpoint (GET /__mails). */
    SMTP_TEST_PORT: string;
    SMTP_STANDIN_ORIGIN: string;
    /** Franchises (issue 14): origin of the Cloudflare custom hostnames stand-in (its /__ control endpoints). */
    CF_STANDIN_ORIGIN: string;
    /** WhatsApp by QR code (issue 15): origin of the Evolution API stand-in (its /__ control endpoints). */
    EVOLUTION_STANDIN_ORIGIN: string;
    EVOLUTION_API_URL: string;
    EVOLUTION_API_KEY: string;
    /** Billing (issue 13): the Asaas stand-in's API key and origin (its /__ control endpoints). */
    ASAAS_STANDIN_KEY: string;
    ASAAS_API_URL: string;
    ASAAS_WEBHOOK_TOKEN: string;
    ASAAS_STANDIN_ORIGIN: string;
  }
}

// Vite's raw imports (a file's text), e.g. wrangler.toml in worker/durable-objects/retries.test.ts.
declare module "*?raw" {
  const text: string;
  export default text;
}
