// End-to-end runner: builds the web app, applies migrations to a fresh local state folder, starts
// `wrangler dev` on a free loopback port and runs the Chromium tests (e2e/*.e2e.ts) against it.
// Extra arguments are passed to vitest (the test script adds its reporters).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer } from "node:net";
import { ensureDevVars, must, run, startWrangler, waitFor, wranglerEnv } from "../scripts/lib.mjs";

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

ensureDevVars();
const state = mkdtempSync(join(tmpdir(), "conversa-e2e-"));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
let server;
let code = 1;
try {
  await must("vite", ["build", "--config", "web/vite.config.ts", "--logLevel", "warn"]);
  await must("wrangler", ["d1", "migrations", "apply", "DB", "--local", "--persist-to", state], { env: wranglerEnv });
  server = startWrangler(port, ["--persist-to", state, "--log-level", "warn"]);
  await waitFor(`${base}/api/health`);
  code = await run("vitest", ["run", "--config", "e2e/vitest.config.mts", ...process.argv.slice(2)], {
    env: { E2E_BASE_URL: base },
  });
} finally {
  server?.kill("SIGTERM");
  rmSync(state, { recursive: true, force: true });
}
process.exit(code);
