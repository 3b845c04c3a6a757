// `npm run bench:dashboard`: GET /api/dashboard at scale, against `wrangler dev` on a fresh local
// state (issue 12 "Dashboard": p95 ≤ 100 ms for 100,000 tickets and 1,000,000 contacts; figures,
// not timed tests).
//
// 1. Registers an owner through the API, stops the server and seeds straight into the local D1
//    (`wrangler d1 execute --local --file`, recursive-CTE SQL as scripts/bench-contacts.mjs does):
//    BENCH_CONTACTS contacts (default 1,000,000) and BENCH_TICKETS tickets (default 100,000), both
//    spread over the last 365 days; a quarter of the tickets started by the company, the others
//    answered (first response 30–520 s) and two thirds closed (10 min – 2 h 38 min). The
//    dashboard's counters (dashboard_days, dashboard_events: 20 event names) are then built from
//    those rows with SQL, as the product keeps them on every write; the company's time zone is
//    America/Sao_Paulo.
// 2. Restarts the server and prints p50/p95 (BENCH_RUNS sequential requests each) of GET
//    /api/dashboard for the default range (30 days), 90 days and the longest range (366 days), of
//    GET /api/health (a bare endpoint) and GET /api/me/permissions (the same session and membership
//    checks, no figures) in the same run, with the ratio; and the 366-day dashboard of an empty
//    company, so the company's size can be told from the machine's load.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { must, percentile, reservePorts, root, startWrangler, waitFor, wranglerEnv } from "./lib.mjs";

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 1_000_000);
const TICKETS = Number(process.env.BENCH_TICKETS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const SEED_CHUNK = 100_000;
const DAY = 86_400_000;
const OFFSET_S = 3 * 3600; // America/Sao_Paulo: UTC−3 all year.

/** Runs a command with its stdout discarded; throws on failure. */
function quiet(cmd, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, ...wranglerEnv } });
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(" ")} exited with ${code}`))));
  });
}

/** The seed as SQL: rows generated inside SQLite, then the counters built from them. */
function seedSql(companyId) {
  const start = Date.now() - 365 * DAY;
  const localDay = (column) => `date(${column} / 1000 - ${OFFSET_S}, 'unixepoch')`;
  const lines = [`UPDATE companies SET timezone = 'America/Sao_Paulo' WHERE id = '${companyId}';`];
  const contactStep = Math.floor((365 * DAY) / CONTACTS);
  for (let from = 0; from < CONTACTS; from += SEED_CHUNK) {
    const to = Math.min(CONTACTS, from + SEED_CHUNK) - 1;
    lines.push(
      `WITH RECURSIVE n(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM n WHERE i < ${to}) INSERT INTO contacts (id, company_id, name, phone, created_at, updated_at) SELECT '01900000-0000-7000-8000-' || printf('%012d', i), '${companyId}', 'Contact ' || i, '+55119' || printf('%08d', i), ${start} + i * ${contactStep}, ${start} + i * ${contactStep} FROM n;`,
    );
  }
  const ticketStep = Math.floor((365 * DAY) / TICKETS);
  for (let from = 0; from < TICKETS; from += SEED_CHUNK) {
    const to = Math.min(TICKETS, from + SEED_CHUNK) - 1;
    // Durations are exact histogram buckets (worker/lib/dashboard.ts durationBucket), so the counters built below are what the product would have kept.
    const created = `${start} + i * ${ticketStep}`;
    const first = `CASE WHEN i % 4 = 0 THEN NULL ELSE ${created} + (30 + ((i * 37) % 50) * 10) * 1000 END`;
    const closed = `CASE WHEN i % 3 = 0 THEN NULL ELSE ${created} + (600 + ((i * 13) % 90) * 100) * 1000 END`;
    lines.push(
      `WITH RECURSIVE n(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM n WHERE i < ${to}) INSERT INTO tickets (id, company_id, contact_id, connection_id, status, origin, first_response_at, closed_at, last_message_at, last_message_preview, created_at, updated_at) SELECT '01900000-0000-7000-7000-' || printf('%012d', i), '${companyId}', '01900000-0000-7000-8000-' || printf('%012d', i % ${CONTACTS}), '01900000-0000-7000-6000-000000000001', CASE WHEN i % 3 = 0 THEN 'open' ELSE 'closed' END, CASE WHEN i % 4 = 0 THEN 'company' ELSE 'customer' END, ${first}, ${closed}, ${created}, 'Olá', ${created}, ${created} FROM n;`,
    );
  }
  lines.push(
    `INSERT INTO dashboard_days (company_id, day, tickets_receptive, tickets_active) SELECT company_id, ${localDay("created_at")}, sum(origin = 'customer'), sum(origin = 'company') FROM tickets WHERE company_id = '${companyId}' GROUP BY 2;`,
    `INSERT INTO dashboard_days (company_id, day, new_contacts) SELECT company_id, ${localDay("created_at")}, count(*) FROM contacts WHERE company_id = '${companyId}' GROUP BY 2 ON CONFLICT (company_id, day) DO UPDATE SET new_contacts = excluded.new_contacts;`,
    `INSERT INTO dashboard_days (company_id, day, first_responses, first_response_hist) SELECT '${companyId}', d, sum(n), json_group_object(b, n) FROM (SELECT ${localDay("first_response_at")} AS d, (first_response_at - created_at) / 1000 AS b, count(*) AS n FROM tickets WHERE company_id = '${companyId}' AND first_response_at IS NOT NULL GROUP BY d, b) WHERE true GROUP BY d ON CONFLICT (company_id, day) DO UPDATE SET first_responses = excluded.first_responses, first_response_hist = excluded.first_response_hist;`,
    `INSERT INTO dashboard_days (company_id, day, resolutions, resolution_hist) SELECT '${companyId}', d, sum(n), json_group_object(b, n) FROM (SELECT ${localDay("closed_at")} AS d, (closed_at - created_at) / 1000 AS b, count(*) AS n FROM tickets WHERE company_id = '${companyId}' AND closed_at IS NOT NULL GROUP BY d, b) WHERE true GROUP BY d ON CONFLICT (company_id, day) DO UPDATE SET resolutions = excluded.resolutions, resolution_hist = excluded.resolution_hist;`,
    `WITH RECURSIVE e(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM e WHERE k < 19) INSERT INTO dashboard_events (company_id, day, name, count) SELECT '${companyId}', day, 'event-' || k, 1 + (k * 7 + length(day)) % 13 FROM dashboard_days, e WHERE company_id = '${companyId}';`,
    `INSERT INTO counters (company_id, name, value) VALUES ('${companyId}', 'contacts', ${CONTACTS}) ON CONFLICT (company_id, name) DO UPDATE SET value = excluded.value;`,
  );
  return lines.join("\n");
}

async function timed(label, runs, request) {
  const times = [];
  let last;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    last = await request();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const p50 = percentile(times, 50);
  const p95 = percentile(times, 95);
  console.log(`  ${label.padEnd(30)} p50 ${p50.toFixed(1).padStart(7)} ms   p95 ${p95.toFixed(1).padStart(7)} ms   (${last})`);
  return { p50, p95 };
}

const isoDay = (ms) => new Date(ms - OFFSET_S * 1000).toISOString().slice(0, 10);

const state = mkdtempSync(join(tmpdir(), "conversa-bench-dashboard-"));
// The server's port, held until just before wrangler starts.
const heldPorts = await reservePorts(1);
const [port] = heldPorts.ports;
const base = `http://127.0.0.1:${port}`;
// Bundled once and served unbundled, so an edit elsewhere in the working tree cannot reload it mid-run.
const build = join(state, "build");
const serverArgs = [join(build, "index.js"), "--no-bundle", "--config", join(root, "wrangler.toml"), "--persist-to", state, "--log-level", process.env.BENCH_LOG ?? "error", "--var", `PUBLIC_URL:${base}`];
let server;
const stopServer = async () => {
  if (!server) return;
  const exited = new Promise((resolve) => server.once("exit", resolve));
  server.kill("SIGTERM");
  await exited;
  server = undefined;
};
let failed = false;
try {
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
  const auth = { Authorization: `Bearer ${token}` };
  const company = await (await fetch(`${base}/api/companies/active`, { headers: auth })).json();
  // A second company left empty: the same request on it shows what the company's size adds.
  const emptyReg = await fetch(`${base}/api/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name: "Empty Owner", email: `bench.empty.${Date.now()}@example.com`, phone: "+5511999990001", password: "bench-password", companyName: "Empty Co" }),
  });
  if (emptyReg.status !== 201) throw new Error(`register: ${emptyReg.status} ${await emptyReg.text()}`);
  const emptyAuth = { Authorization: `Bearer ${(await emptyReg.json()).token}` };
  await stopServer();

  const seedFile = join(state, "seed.sql");
  writeFileSync(seedFile, seedSql(company.id));
  const s0 = performance.now();
  await quiet("wrangler", ["d1", "execute", "DB", "--local", "--persist-to", state, "--file", seedFile, "--yes"]);
  const seedSeconds = (performance.now() - s0) / 1000;

  server = startWrangler(port, serverArgs);
  await waitFor(`${base}/api/health`);
  const get = async (path) => {
    const res = await fetch(`${base}${path}`, { headers: auth });
    const body = await res.json();
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
    return body;
  };
  const today = isoDay(Date.now());
  const daysBack = (n) => isoDay(Date.now() - (n - 1) * DAY);
  const summary = (d) => `${d.attendances.toLocaleString("en-US")} attendances, ${d.newContacts.toLocaleString("en-US")} new contacts, ${d.series.length} days`;
  // Warm-up: the first request of a fresh isolate compiles the bundle.
  await get(`/api/dashboard`);
  await get(`/api/health`);

  console.log(`\ndashboard benchmark: ${CONTACTS.toLocaleString("en-US")} contacts, ${TICKETS.toLocaleString("en-US")} tickets over 365 days; seeded in ${seedSeconds.toFixed(1)} s; ${RUNS} sequential requests each`);
  const results = [];
  results.push(await timed("GET /api/dashboard (30 days)", RUNS, async () => summary(await get(`/api/dashboard`))));
  results.push(await timed("GET /api/dashboard (90 days)", RUNS, async () => summary(await get(`/api/dashboard?from=${daysBack(90)}&to=${today}`))));
  results.push(await timed("GET /api/dashboard (366 days)", RUNS, async () => summary(await get(`/api/dashboard?from=${daysBack(366)}&to=${today}`))));
  await timed("same, empty company (366 days)", RUNS, async () => {
    const res = await fetch(`${base}/api/dashboard?from=${daysBack(366)}&to=${today}`, { headers: emptyAuth });
    return summary(await res.json());
  });
  const bare = await timed("GET /api/health (bare)", RUNS, async () => JSON.stringify(await get(`/api/health`)));
  // The same session and membership checks as the dashboard, with no figures: what the counters add.
  await timed("GET /api/me/permissions (auth)", RUNS, async () => `${(await get(`/api/me/permissions`)).length} permissions`);
  const worst = Math.max(...results.map((r) => r.p95));
  console.log(`  worst dashboard p95 ${worst.toFixed(1)} ms (target ≤ 100 ms: ${worst <= 100 ? "met" : "NOT met"}); bare endpoint p95 ${bare.p95.toFixed(1)} ms, ratio ${(worst / Math.max(bare.p95, 0.1)).toFixed(1)}`);
} catch (error) {
  failed = true;
  console.error(error);
} finally {
  await heldPorts.release();
  await stopServer();
  rmSync(state, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
