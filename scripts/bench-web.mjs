// `npm run bench:web`: what each screen of the web app downloads and how fast it becomes usable
// (issue 9 "Load only what a screen needs"; figures, not timed tests).
//
// 1. Builds the web app (vite, with its manifest build-manifest.json) and the worker, applies the
//    migrations to a fresh local state, starts `wrangler dev` and registers an owner through the API;
//    a sandbox connection and a flow are created through the API.
// 2. Stops the server and seeds BENCH_TICKETS (default 100) contacts, each with one open ticket and
//    one inbound message, straight into the local D1 (`wrangler d1 execute --local`), like
//    bench-contacts does; restarts the server.
// 3. For /login, /chats, /contacts and /flows/{id}, opens the page in Debian's Chromium
//    (playwright-core, as the e2e tests do) with an empty cache, BENCH_RUNS times, and prints
//    - the gzip bytes of JS and CSS the page loaded, from Chromium's network log (each script or
//      style response's body gzipped at level 9: the local server does not compress), and
//    - the time from navigation to the first usable screen (the login form's e-mail field; the
//      first seeded ticket in the chat list; the first seeded contact; a flow block on the canvas),
//      p50 over the runs.
//    It also prints what the Vite manifest says the route's static imports weigh, and a bare-endpoint
//    figure in the same run for comparison (GET / and the API call behind the chat list).
// 4. Checks the targets (/login ≤ 120 KiB gzip JS, /chats ≤ 250 KiB) and that /login loads
//    no chunk of the flow editor (@xyflow/react); exits 1 when a check fails.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { must, percentile, reservePorts, root, startWrangler, waitFor, wranglerEnv } from "./lib.mjs";

const TICKETS = Number(process.env.BENCH_TICKETS ?? 100);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/** Targets of issue 9, in bytes of gzip JS. */
const TARGETS = { "/login": 120 * 1024, "/chats": 250 * 1024 };

/** Runs a command with its stdout discarded; throws on failure. */
function quiet(cmd, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, ...wranglerEnv } });
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(" ")} exited with ${code}`))));
  });
}

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const id = (group, n) => `01900000-0000-7000-${group}-${String(n).padStart(12, "0")}`;
const quote = (text) => `'${String(text).replaceAll("'", "''")}'`;

/** SQL for `TICKETS` contacts, each with an open ticket on `connectionId` and one inbound message. */
function seedSql(companyId, connectionId) {
  const now = Date.now();
  const lines = [];
  for (let i = 0; i < TICKETS; i++) {
    const at = now - (TICKETS - i) * 60_000;
    const contact = id("b000", i);
    const ticket = id("c000", i);
    const name = `Bench contact ${String(i).padStart(3, "0")}`;
    const text = `Hello from ${name}`;
    lines.push(
      `INSERT INTO contacts (id, company_id, name, phone, created_at, updated_at, last_message_at) VALUES (${quote(contact)}, ${quote(companyId)}, ${quote(name)}, '+5511977${String(i).padStart(6, "0")}', ${at}, ${at}, ${at});`,
      `INSERT INTO tickets (id, company_id, contact_id, connection_id, status, unread_count, last_message_at, last_message_preview, created_at, updated_at) VALUES (${quote(ticket)}, ${quote(companyId)}, ${quote(contact)}, ${quote(connectionId)}, 'pending', 1, ${at}, ${quote(text)}, ${at}, ${at});`,
      `INSERT INTO messages (id, company_id, ticket_id, contact_id, connection_id, direction, type, body, status, sent_at, seq, created_at, updated_at) VALUES (${quote(id("d000", i))}, ${quote(companyId)}, ${quote(ticket)}, ${quote(contact)}, ${quote(connectionId)}, 'in', 'text', ${quote(text)}, 'received', ${at}, 1, ${at}, ${at});`,
    );
  }
  lines.push(`INSERT INTO counters (company_id, name, value) VALUES (${quote(companyId)}, 'contacts', ${TICKETS}) ON CONFLICT (company_id, name) DO UPDATE SET value = excluded.value;`);
  return lines.join("\n");
}

/** Static-import closure of the manifest entries whose source path contains each of `parts`, gzip bytes by kind. */
function manifestWeight(dir, manifest, parts) {
  const keys = ["index.html", ...parts.map((part) => Object.keys(manifest).find((key) => key.includes(part))).filter(Boolean)];
  const seen = new Set();
  const walk = (key) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const next of manifest[key].imports ?? []) walk(next);
  };
  keys.forEach(walk);
  const files = new Set();
  for (const key of seen) {
    files.add(manifest[key].file);
    for (const css of manifest[key].css ?? []) files.add(css);
  }
  let js = 0;
  let css = 0;
  for (const file of files) {
    const size = gzipSync(readFileSync(join(dir, file)), { level: 9 }).length;
    if (file.endsWith(".css")) css += size;
    else js += size;
  }
  return { js, css };
}

/**
 * The pt-BR catalogs (lingui.config.ts) a page loads: the entry's (core, preferences), then those its
 * layout and screen list in web/src/app/router.tsx.
 */
const catalogs = (...names) => ["core", "preferences", ...names].map((name) => `locales/pt-BR/${name}.po`);
/** What an app page loads besides its screen: the query frame, the guards' sources, the catalog map, the default layout. */
const APP_FRAME = ["app/query-provider", "app/guard-sources", "lib/catalogs/pt-BR", "layouts/default-layout"];
const SHELL_CATALOGS = ["announcements", "billing", "companies", "connections", "errors", "invites", "notifications", "session", "shell"];

/** The screens measured: path, ready check (a locator on the page), manifest entries (with the boot chunk, grouped in web/vite.config.ts). */
function screens(flowId) {
  return [
    { path: "/login", auth: false, ready: (page) => page.locator('input[type="email"]'), entries: ["_login-", ...catalogs("auth")] },
    {
      path: "/chats",
      auth: true,
      ready: (page) => page.getByText(/Bench contact \d{3}/).first(),
      entries: [...APP_FRAME, "chats/components/chats-page", ...catalogs(...SHELL_CATALOGS, "chats", "instagram", "quick-messages")],
    },
    {
      path: "/contacts",
      auth: true,
      ready: (page) => page.getByText(/Bench contact \d{3}/).first(),
      entries: [...APP_FRAME, "contacts/components/contacts-page", ...catalogs(...SHELL_CATALOGS, "contacts", "flows", "registers", "shipping-cycles")],
    },
    {
      path: `/flows/${flowId}`,
      auth: true,
      ready: (page) => page.locator(".react-flow__node").first(),
      entries: [...APP_FRAME, "editor/flow-editor-page", ...catalogs(...SHELL_CATALOGS, "flows")],
    },
  ];
}

/** One cold load of `path`: gzip bytes of JS/CSS from the network log, ms to the ready locator, JS file names. */
async function load(browser, base, screen, token) {
  const context = await browser.newContext({ baseURL: base, locale: "pt-BR", viewport: { width: 1440, height: 900 } });
  if (screen.auth) await context.addInitScript((value) => localStorage.setItem("token", value), token);
  const page = await context.newPage();
  const pending = [];
  page.on("response", (response) => {
    const type = response.request().resourceType();
    if (type !== "script" && type !== "stylesheet") return;
    pending.push(
      response.body().then(
        (body) => ({ type, url: response.url(), gzip: gzipSync(body, { level: 9 }).length }),
        () => ({ type, url: response.url(), gzip: 0 }),
      ),
    );
  });
  const t0 = performance.now();
  await page.goto(screen.path, { waitUntil: "commit" });
  let ready = null;
  try {
    await screen.ready(page).waitFor({ state: "visible", timeout: 30_000 });
    ready = performance.now() - t0;
  } catch {
    ready = null;
  }
  await page.waitForLoadState("networkidle").catch(() => undefined);
  const files = await Promise.all(pending);
  await context.close();
  const sum = (type) => files.filter((f) => f.type === type).reduce((n, f) => n + f.gzip, 0);
  return { js: sum("script"), css: sum("stylesheet"), ready, scripts: files.filter((f) => f.type === "script").map((f) => new URL(f.url).pathname) };
}

const state = mkdtempSync(join(tmpdir(), "conversa-bench-web-"));
// The server's port, held until just before wrangler starts.
const heldPorts = await reservePorts(1);
const [port] = heldPorts.ports;
const base = `http://127.0.0.1:${port}`;
const build = join(state, "build");
const serverArgs = [join(build, "index.js"), "--no-bundle", "--config", join(root, "wrangler.toml"), "--persist-to", state, "--log-level", process.env.BENCH_LOG ?? "error", "--var", `PUBLIC_URL:${base}`, "--var", "MAIL_OUTBOX:on"];
let server;
let browser;
let failed = false;
const stopServer = async () => {
  if (!server) return;
  const exited = new Promise((resolve) => server.once("exit", resolve));
  server.kill("SIGTERM");
  await exited;
  server = undefined;
};
try {
  await must("vite", ["build", "--config", "web/vite.config.ts", "--logLevel", "warn"]);
  await quiet("wrangler", ["deploy", "--dry-run", "--outdir", build]);
  await must("wrangler", ["d1", "migrations", "apply", "DB", "--local", "--persist-to", state], { env: wranglerEnv });
  await heldPorts.release();
  server = startWrangler(port, serverArgs);
  await waitFor(`${base}/api/health`);
  const reg = await fetch(`${base}/api/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name: "Bench Owner", email: `bench.${Date.now()}@example.com`, phone: "+5511999990000", password: "bench-password", companyName: "Bench Co" }),
  });
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${await reg.text()}`);
  const { token } = await reg.json();
  const json = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
  const company = await (await fetch(`${base}/api/companies/active`, { headers: json })).json();
  const connection = await fetch(`${base}/api/connections`, { method: "POST", headers: json, body: JSON.stringify({ channel: "sandbox", name: "Bench phone" }) });
  if (connection.status !== 201) throw new Error(`connection: ${connection.status} ${await connection.text()}`);
  const connectionId = (await connection.json()).id;
  const flow = await fetch(`${base}/api/flows`, { method: "POST", headers: json, body: JSON.stringify({ name: "Bench flow" }) });
  if (flow.status !== 201) throw new Error(`flow: ${flow.status} ${await flow.text()}`);
  const flowId = (await flow.json()).id;
  await stopServer();

  const seedFile = join(state, "seed.sql");
  writeFileSync(seedFile, seedSql(company.id, connectionId));
  await quiet("wrangler", ["d1", "execute", "DB", "--local", "--persist-to", state, "--file", seedFile, "--yes"]);
  server = startWrangler(port, serverArgs);
  await waitFor(`${base}/api/health`);

  const dist = join(root, "dist/web");
  const manifest = JSON.parse(readFileSync(join(dist, "build-manifest.json"), "utf8"));
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"],
  });

  console.log(`\nweb benchmark: ${TICKETS} tickets seeded, Chromium ${browser.version()}, 1440×900, pt-BR, cold cache, ${RUNS} loads each (p50)`);
  console.log(`${"page".padEnd(16)} ${"JS gzip".padStart(10)} ${"CSS gzip".padStart(10)} ${"manifest JS".padStart(12)} ${"usable".padStart(9)}  target`);
  for (const screen of screens(flowId)) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await load(browser, base, screen, token));
    const last = runs[runs.length - 1];
    const times = runs.map((r) => r.ready).filter((t) => t !== null).sort((a, b) => a - b);
    const usable = times.length === runs.length ? `${percentile(times, 50).toFixed(0)} ms` : "not ready";
    const fromManifest = manifestWeight(dist, manifest, screen.entries);
    const label = screen.path.startsWith("/flows/") ? "/flows/{id}" : screen.path;
    const target = TARGETS[screen.path];
    const verdict = target === undefined ? "" : last.js <= target ? `≤ ${kib(target)} ok` : `> ${kib(target)} FAIL`;
    if (target !== undefined && last.js > target) failed = true;
    if (usable === "not ready") failed = true;
    console.log(`${label.padEnd(16)} ${kib(last.js).padStart(10)} ${kib(last.css).padStart(10)} ${kib(fromManifest.js).padStart(12)} ${usable.padStart(9)}  ${verdict}`);
    if (screen.path === "/login") {
      const editorChunks = [manifest["web/src/features/flows/components/editor/flow-editor-page.tsx"]?.file, ...Object.entries(manifest).filter(([key]) => key.includes("@xyflow")).map(([, entry]) => entry.file)]
        .filter(Boolean)
        .map((file) => `/${file}`);
      const leaked = last.scripts.filter((script) => editorChunks.includes(script));
      if (leaked.length > 0) {
        failed = true;
        console.log(`  FAIL: /login loaded the flow editor's chunks: ${leaked.join(", ")}`);
      }
    }
  }

  // Bare endpoints in the same run: the HTML shell, and the API call behind the chat list.
  const bare = async (label, path, headers = {}) => {
    const times = [];
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      const res = await fetch(`${base}${path}`, { headers });
      await res.arrayBuffer();
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    console.log(`  ${label.padEnd(40)} p50 ${percentile(times, 50).toFixed(1).padStart(6)} ms   p95 ${percentile(times, 95).toFixed(1).padStart(6)} ms`);
  };
  console.log(`bare endpoints (20 sequential requests each):`);
  await bare("GET / (index.html)", "/");
  await bare("GET /api/tickets?status=pending", "/api/tickets?status=pending", json);
  await bare("GET /api/contacts?limit=30", "/api/contacts?limit=30", json);
  console.log(failed ? "\nFAIL: a target or a check above was missed\n" : "\nall targets met\n");
} finally {
  await heldPorts.release();
  await browser?.close().catch(() => undefined);
  await stopServer().catch(() => undefined);
  rmSync(state, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
