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
import { startInstagramStandIn } from "./standins/instagram-graph.ts";
import { startCloudflareStandIn } from "./standins/cloudflare.ts";
import { startEvolutionStandIn } from "./standins/evolution.ts";
import { startAsaasStandIn } from "./standins/asaas.ts";

// Meta's Graph API is out of reach here: the real adapter talks to this loopback stand-in.
const meta = await startMetaStandIn();
// A real SMTP server on loopback for the mail adapter's test.
const smtp = await startSmtpStandIn();
// Instagram's business login and Graph API (issue 15): the real Instagram adapter talks to this stand-in.
const instagram = await startInstagramStandIn();
// Cloudflare's custom hostnames API (franchise hostnames, issue 14).
const cloudflare = await startCloudflareStandIn();
// Evolution API v2 (WhatsApp by QR code, issue 15).
const evolution = await startEvolutionStandIn();
// Asaas (billing, issue 13): the real `asaas` adapter talks to this stand-in when a test selects it.
const asaas = await startAsaasStandIn({ webhookToken: "test-asaas-webhook-token-0123456789abcdef" });
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
          INSTAGRAM_APP_ID: instagram.appId,
          INSTAGRAM_APP_SECRET: instagram.appSecret,
          INSTAGRAM_VERIFY_TOKEN: "test-instagram-verify-token",
          INSTAGRAM_GRAPH_URL: instagram.graphUrl,
          INSTAGRAM_OAUTH_URL: instagram.oauthUrl,
          INSTAGRAM_STANDIN_ORIGIN: instagram.origin,
          // Billing (issue 13): the sandbox provider is the default (no ASAAS_API_KEY); tests pick the
          // asaas adapter with providerFor(env, {apiUrl: ASAAS_API_URL, apiKey: ASAAS_STANDIN_KEY}).
          ASAAS_API_URL: asaas.apiUrl,
          ASAAS_STANDIN_KEY: asaas.apiKey,
          ASAAS_STANDIN_ORIGIN: asaas.origin,
          ASAAS_WEBHOOK_TOKEN: "test-asaas-webhook-token-0123456789abcdef",
          META_STANDIN_ORIGIN: meta.origin,
          SMTP_TEST_PORT: String(smtp.port),
          SMTP_STANDIN_ORIGIN: smtp.controlOrigin,
          CF_API_URL: cloudflare.apiUrl,
          CF_API_TOKEN: cloudflare.token,
          CF_ZONE_ID: cloudflare.zoneId,
          CF_STANDIN_ORIGIN: cloudflare.origin,
          EVOLUTION_API_URL: evolution.url,
          EVOLUTION_API_KEY: evolution.apiKey,
          EVOLUTION_STANDIN_ORIGIN: evolution.origin,
          // Franchises (issue 14) are on in tests, so the route matrix reaches their routes; the "off → 404"
          // tests call the worker with FRANCHISE_MODE "off" (worker/routes/franchise.test.ts).
          FRANCHISE_MODE: "on",
          // Platform administrators (issue 12): worker/routes/admin-announcements.test.ts signs in as this one.
          PLATFORM_ADMINS: "platform-admin@conversa.test, Second-Admin@Conversa.test",
        },
      },
    }),
  ],
  test: {
    include: ["worker/**/*.test.ts"],
    setupFiles: ["./worker/test/setup.ts"],
    // Two files at a time: much of a file's time is waiting (alarms, pacing, queue redelivery), and
    // vitest's default on this 2-core machine is one. Measured on an idle machine: 436 s for the
    // suite against about 560 s one at a time. Stand-in state is kept per number, connection or
    // token, so files running side by side do not see each other's sends.
    maxWorkers: 2,
    // A ceiling against hangs, not a speed check (speed lives in the benchmarks): two files side by
    // side on two shared cores can make a data-heavy test (the search comparison over a generated
    // set, the zip bomb) take several times its idle duration.
    testTimeout: 30_000,
  },
});
