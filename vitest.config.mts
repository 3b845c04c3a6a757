/**
 * Worker tests: run inside workerd through @cloudflare/vitest-plugin, against the real local D1,
 * R2, Durable Objects and Queues declared in wrangler.toml. Migrations are read from the flat
 * migrations/ folder and applied by worker/test/setup.ts.
 */
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { startMetaStandIn } from "./standins/meta-graph.ts";
import { startSmtpStandIn } from "./standins/smtp.ts";

// Meta's Graph API is out of reach here: the real adapter talks to this loopback stand-in.
const meta = await startMetaStandIn();
// A real SMTP server on loopback for the mail adapter's test.
const smtp = await startSmtpStandIn();
process.on("exit", () => void meta.close());

const migrations = await readD1Migrations(fileURLToPath(new URL("./migrations", import.meta.url)));

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: {
          TEST_MIGRATIONS: migrations,
          JWT_SECRET: "test-secret-test-secret-test-secret-0123",
          PUBLIC_URL: "http://localhost:8787",
          MAIL_OUTBOX: "on",
          // Faults may be armed per contact, ticket or job (worker/lib/faults.ts); no rate is set.
          ENVIRONMENT: "test",
          // Broadcasts pace at 1/100 of the delay presets and the pair gap (worker/lib/broadcasts-limits.ts).
          BROADCAST_DELAY_SCALE: "0.01",
          WHATSAPP_APP_SECRET: "test-app-secret",
          WHATSAPP_VERIFY_TOKEN: "test-verify-token",
          WHATSAPP_GRAPH_URL: meta.graphUrl,
          PIXEL_GRAPH_URL: meta.graphUrl,
          META_STANDIN_ORIGIN: meta.origin,
          SMTP_TEST_PORT: String(smtp.port),
          SMTP_STANDIN_ORIGIN: smtp.controlOrigin,
          // Platform administrators (issue 12): worker/routes/admin-announcements.test.ts signs in as this one.
          PLATFORM_ADMINS: "platform-admin@conversa.test, Second-Admin@Conversa.test",
        },
      },
    }),
  ],
  test: {
    include: ["worker/**/*.test.ts"],
    setupFiles: ["./worker/test/setup.ts"],
  },
});
