// `npm start`: the whole product locally on its embedded default (local D1, R2, Queues, Durable
// Objects inside workerd): migrations, web build, wrangler dev on http://localhost:8787, demo data.
import { DEMO, DEMO_FRANCHISE, ensureDevVars, must, asaasConfigured, seedDemo, seedDemoBilling, seedDemoFranchise, startWrangler, waitFor, wranglerEnv } from "./lib.mjs";
import { startCloudflareStandIn } from "../standins/cloudflare.ts";
import { startInstagramStandIn } from "../standins/instagram-graph.ts";
import { startEvolutionStandIn } from "../standins/evolution.ts";

const PORT = Number(process.env.PORT ?? 8787);
const base = `http://localhost:${PORT}`;

if (ensureDevVars()) console.log("Generated .dev.vars with a random JWT_SECRET.");
await must("wrangler", ["d1", "migrations", "apply", "DB", "--local"], { env: wranglerEnv });
await must("vite", ["build", "--config", "web/vite.config.ts"]);

// The dev mail outbox (reset links, verification codes in D1, printed as [mail outbox] lines) is
// for local development only: switched on here, never in a deployed configuration.
// The demo owner is the local platform administrator (issue 12: the Admin area, announcements);
// PLATFORM_ADMINS in the environment overrides it.
// Franchises (issue 14) are on locally, tried on *.localhost hostnames (demo-franchise.localhost);
// other hostnames are registered at a loopback stand-in of Cloudflare's custom hostnames API.
const cloudflare = await startCloudflareStandIn({ keepAlive: true });
// Instagram (issue 15): "Connect Instagram" logs in at a loopback stand-in of Instagram's business
// login and Graph API, which also delivers signed webhooks (README "Instagram").
const instagram = await startInstagramStandIn({ keepAlive: true, port: Number(process.env.INSTAGRAM_STANDIN_PORT ?? 8790), webhookUrl: `${base}/api/channels/instagram/webhook` });
// WhatsApp by QR code (issue 15): without EVOLUTION_API_URL, a loopback stand-in of Evolution API
// (its QR is not a real WhatsApp one: "scan" it with POST <stand-in>/__scan/conversa-<connection id>).
// The sandbox phone stays the way to try the product locally.
const evolution = process.env.EVOLUTION_API_URL ? null : await startEvolutionStandIn({ keepAlive: true, port: Number(process.env.EVOLUTION_STANDIN_PORT ?? 8791) });
const server = startWrangler(PORT, [
  "--var", `EVOLUTION_API_URL:${process.env.EVOLUTION_API_URL ?? evolution?.url ?? ""}`,
  "--var", `EVOLUTION_API_KEY:${process.env.EVOLUTION_API_KEY ?? evolution?.apiKey ?? ""}`,
  "--var", "MAIL_OUTBOX:on",
  "--var", `PLATFORM_ADMINS:${process.env.PLATFORM_ADMINS ?? DEMO.email}`,
  "--var", "FRANCHISE_MODE:on",
  // Billing (issue 13): the sandbox provider (test cards, simulated PIX) unless an Asaas key is configured.
  ...(asaasConfigured() ? [] : ["--var", "BILLING_PROVIDER:sandbox"]),
  "--var", `CF_API_URL:${cloudflare.apiUrl}`,
  "--var", `CF_API_TOKEN:${cloudflare.token}`,
  "--var", `CF_ZONE_ID:${cloudflare.zoneId}`,
  "--var", `INSTAGRAM_APP_ID:${instagram.appId}`,
  "--var", `INSTAGRAM_APP_SECRET:${instagram.appSecret}`,
  "--var", "INSTAGRAM_VERIFY_TOKEN:local-instagram-verify-token",
  "--var", `INSTAGRAM_GRAPH_URL:${instagram.graphUrl}`,
  "--var", `INSTAGRAM_OAUTH_URL:${instagram.oauthUrl}`,
]);
const stop = () => {
  server.kill("SIGTERM");
  void cloudflare.close();
  void instagram.close();
  void evolution?.close();
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
server.on("exit", (code) => process.exit(code ?? 0));

await waitFor(`${base}/api/health`);
const seeded = await seedDemo(base);
// Billing (issue 13): demo plans, and the demo company on the lifetime plan (sandbox provider).
const billingSeeded = await seedDemoBilling(base);
const franchiseSeeded = await seedDemoFranchise(base);
console.log(`
  Conversa is running at ${base}
  Demo owner (${seeded}): ${DEMO.email} / ${DEMO.password}
  Demo franchise (${franchiseSeeded}): http://${DEMO_FRANCHISE.hostname}:${PORT}  admin ${DEMO_FRANCHISE.admin.email} / ${DEMO_FRANCHISE.admin.password}
  Demo billing (${billingSeeded}): sandbox provider; test cards in the README ("Billing").
  Dev mail outbox: printed above as [mail outbox] lines.${evolution ? `
  WhatsApp (QR code): Evolution API stand-in at ${evolution.url} (scan: POST ${evolution.url}/__scan/conversa-<connection id>).` : ""}
`);
