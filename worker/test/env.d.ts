// Test-only typing: the migrations binding the vitest config adds.
declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    /** Origin of the loopback Graph API stand-in (its /__ control endpoints). */
    META_STANDIN_ORIGIN: string;
    /** Port of the loopback SMTP server and origin of its control endpoint (GET /__mails). */
    SMTP_TEST_PORT: string;
    SMTP_STANDIN_ORIGIN: string;
  }
}

// Vite's raw imports (a file's text), e.g. wrangler.toml in worker/durable-objects/retries.test.ts.
declare module "*?raw" {
  const text: string;
  export default text;
}
