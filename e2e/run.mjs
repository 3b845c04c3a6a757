// End-to-end runner: builds the web app, applies migrations to a fresh local state folder, starts
// `wrangler dev` on a free loopback port and runs the Chromium tests (e2e/*.e2e.ts) against it.
// Extra arguments are passed to vitest (the test script adds its reporters).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureDevVars, freePort, must, run, startWrangler, waitFor, wranglerEnv } from "../scripts/lib.mjs";
import { startMetaStandIn } from "../standins/meta-graph.ts";

/** The app secret the e2e worker checks webhook signatures with (the stand-in signs with it). */
const E2E_APP_SECRET = "e2e-app-secret";

ensureDevVars();
const state = mkdtempSync(join(tmpdir(), "conversa-e2e-"));
// Meta's Graph API is out of reach: the real Cloud API adapter talks to the loopback stand-in.
const meta = await startMetaStandIn({ keepAlive: true });
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
let server;
let code = 1;
try {
  await must("vite", ["build", "--config", "web/vite.config.ts", "--logLevel", "warn"]);
  await must("wrangler", ["d1", "migrations", "apply", "DB", "--local", "--persist-to", state], { env: wranglerEnv });
  server = startWrangler(port, [
    "--persist-to", state, "--log-level", "warn",
    "--var", `WHATSAPP_GRAPH_URL:${meta.graphUrl}`,
    "--var", `WHATSAPP_APP_SECRET:${E2E_APP_SECRET}`,
    "--var", `PUBLIC_URL:${base}`,
    "--var", "MAIL_OUTBOX:on",
    // The platform administrator of e2e/dashboard.e2e.ts (issue 12).
    "--var", "PLATFORM_ADMINS:e2e-admin@conversa.test",
    // Every browser and API client of wrangler dev has the same address: the e2e files register
    // more accounts than one real client may in an hour.
    "--var", "REGISTER_RATE_LIMIT:1000",
  ]);
  await waitFor(`${base}/api/health`);
  code = await run("vitest", ["run", "--config", "e2e/vitest.config.mts", ...process.argv.slice(2)], {
    env: { E2E_BASE_URL: base, E2E_META_ORIGIN: meta.origin, E2E_APP_SECRET, E2E_STATE: state },
  });
} finally {
  server?.kill("SIGTERM");
  await meta.close();
  rmSync(state, { recursive: true, force: true });
}
process.exit(code);
