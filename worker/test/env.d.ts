// Test-only typing: the migrations binding the vitest config adds.
declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    /** Origin of the loopback Graph API stand-in (its /__ control endpoints). */
    META_STANDIN_ORIGIN: string;
  }
}
