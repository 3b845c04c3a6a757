// End-to-end runner: builds the web app, applies migrations to a fresh local state folder, starts
// `wrangler dev` on a free loopback port and runs the Chromium tests (e2e/*.e2e.ts) against it.
// Extra arguments are passed to vitest (the test script adds its reporters).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureDevVars, must, reservePort, run, startWrangler, waitFor, wranglerEnv } from "../scripts/lib.mjs";
import { startMetaStandIn } from "../standins/meta-graph.ts";
import { startCloudflareStandIn } from "../standins/cloudflare.ts";
import { startInstagramStandIn } from "../standins/instagram-graph.ts";
import { startEvolutionStandIn } from "../standins/evolution.ts";

/** The app secret the e2e worker checks webhook signatures with (the stand-in signs with it). */
const E2E_APP_SECRET = "e2e-app-secret";

ensureDevVars();
const state = mkdtempSync(join(tmpdir(), "conversa-e2e-"));
// Meta's Graph API is out of reach: the real Cloud API adapter talks to the loopback stand-in.
const meta = await startMetaStandIn({ keepAlive: true });
// Cloudflare's custom hostnames API (franchise hostnames, issue 14).
const cloudflare = await startCloudflareStandIn({ keepAlive: true });
// Held until wrangler dev starts: the build and the migrations in between start processes of their own.
const { port, release } = await reservePort();
const base = `http://127.0.0.1:${port}`;
// Instagram's business login and Graph API (issue 15): its consent page and signed webhooks.
const instagram = await startInstagramStandIn({ keepAlive: true, webhookUrl: `${base}/api/channels/instagram/webhook` });
// Evolution API v2 (WhatsApp by QR code, issue 15): its control endpoints deliver webhooks to PUBLIC_URL.
const evolution = await startEvolutionStandIn({ keepAlive: true });
let server;
let code = 1;
try {
  await must("vite", ["build", "--config", "web/vite.config.ts", "--logLevel", "warn"]);
  await must("wrangler", ["d1", "migrations", "apply", "DB", "--local", "--persist-to", state], { env: wranglerEnv });
  await release();
  server = startWrangler(port, [
    "--persist-to", state, "--log-level", "warn",
    "--var", `WHATSAPP_GRAPH_URL:${meta.graphUrl}`,
    "--var", `WHATSAPP_APP_SECRET:${E2E_APP_SECRET}`,
    "--var", `PUBLIC_URL:${base}`,
    "--var", "MAIL_OUTBOX:on",
    // The platform administrator of e2e/dashboard.e2e.ts (issue 12).
    "--var", "PLATFORM_ADMINS:e2e-admin@conversa.test,e2e-billing-admin@conversa.test,e2e-franchise-admin@conversa.test",
    // Every browser and API client of wrangler dev has the same address: the e2e files register
    // more accounts than one real client may in an hour.
    "--var", "REGISTER_RATE_LIMIT:1000",
    // The dev-only test clock (POST /api/dev/clock) of e2e/billing.e2e.ts ends a trial (issue 13).
    "--var", "ENVIRONMENT:e2e",
    // Franchises (issue 14): on, tried on *.localhost hostnames; others go to the Cloudflare stand-in.
    "--var", "FRANCHISE_MODE:on",
    "--var", `CF_API_URL:${cloudflare.apiUrl}`,
    "--var", `CF_API_TOKEN:${cloudflare.token}`,
    "--var", `CF_ZONE_ID:${cloudflare.zoneId}`,
    "--var", `INSTAGRAM_APP_ID:${instagram.appId}`,
    "--var", `INSTAGRAM_APP_SECRET:${instagram.appSecret}`,
    "--var", "INSTAGRAM_VERIFY_TOKEN:e2e-instagram-verify-token",
    "--var", `INSTAGRAM_GRAPH_URL:${instagram.graphUrl}`,
    "--var", `INSTAGRAM_OAUTH_URL:${instagram.oauthUrl}`,
    "--var", `EVOLUTION_API_URL:${evolution.url}`,
    "--var", `EVOLUTION_API_KEY:${evolution.apiKey}`,
  ]);
  await waitFor(`${base}/api/health`);
  code = await run("vitest", ["run", "--config", "e2e/vitest.config.mts", ...process.argv.slice(2)], {
    env: { E2E_BASE_URL: base, E2E_META_ORIGIN: meta.origin, E2E_APP_SECRET, E2E_STATE: state, E2E_INSTAGRAM_ORIGIN: instagram.origin, E2E_EVOLUTION_ORIGIN: evolution.origin },
  });
} finally {
  await release();
  server?.kill("SIGTERM");
  await meta.close();
  await cloudflare.close();
  await instagram.close();
  await evolution.close();
  rmSync(state, { recursive: true, force: true });
}
process.exit(code);
