// `npm run bench:contacts`: the contact list at scale and the .xlsx import, against `wrangler dev`
// on a fresh local state (issue 4 "Benchmark"; figures, not timed tests).
//
// 1. Registers an owner through the API, then stops the server and seeds BENCH_CONTACTS contacts
//    (default 1,000,000) with BENCH_TAGS tags (each contact has 1–2) and two custom fields (a text
//    and a number value on every contact) straight into the local D1 with `wrangler d1 execute
//    --local --file`: the SQL generates rows with recursive CTEs, SEED_CHUNK contacts per statement,
//    so the file stays a few KB whatever the size. The maintained contact counter is set.
// 2. Restarts the server and prints p50/p95 (BENCH_RUNS requests each, sequential) of GET
//    /api/contacts: the first page, a name search, a phone search, a tag filter, and the 50th page
//    (keyset cursor walked once, then fetched repeatedly).
// 3. Imports BENCH_IMPORTS (default "10000,500000") row .xlsx files through POST
//    /api/contacts/import + /api/jobs/{id}/start and the `jobs` queue, printing rows/s and the
//    workerd RSS (from /proc, as bench-inbound does) before and at its peak during each import, and
//    p95 of GET /api/health requested one after another while the import runs, against the same
//    endpoint idle (5 s before and 5 s after the import, pooled; issue 16: the rest of the API keeps
//    answering, target ≤ 3×).
// 4. (issue 16) The chat list at BENCH_TICKETS tickets (default 100,000, one per seeded contact, on
//    one seeded connection; statuses, groups, unread and assignment spread over them): p50/p95 of
//    GET /api/tickets first page, each status and type filter, and a name and phone search.
// BENCH_PARTS (default "contacts,tickets,imports") runs only the named parts; each part prints
// GET /api/health sequentially first, the floor of any request on this machine at that moment.
// BENCH_TRACE=1 (issue 16) mounts the bench endpoints and prints the import's stage timings after
// each import (GET /api/dev/bench/trace: the chunk upserts, the finish, its report and its staging
// deletion); the longest /api/health requests are placed in "reading the file", "writing chunks"
// or "finishing" (every row counted, the report and the job's end not yet seen).
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { must, percentile, reservePorts, root, startWrangler, traceLines, waitFor, workerdRss, wranglerEnv } from "./lib.mjs";
import { XlsxWriter, concatBytes } from "../worker/lib/xlsx-writer.ts";

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 1_000_000);
const TAGS = Number(process.env.BENCH_TAGS ?? 20);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const IMPORTS = (process.env.BENCH_IMPORTS ?? "10000,500000").split(",").map(Number).filter((n) => n > 0);
const SEED_CHUNK = 100_000;
const TICKETS = Math.min(Number(process.env.BENCH_TICKETS ?? 100_000), CONTACTS);
// Which parts run (to iterate on one): any of contacts, tickets, imports; default all three.
const PARTS = new Set((process.env.BENCH_PARTS ?? "contacts,tickets,imports").split(",").map((p) => p.trim()));
const TRACE = process.env.BENCH_TRACE === "1";

/** Runs a command with its stdout discarded (wrangler d1 execute prints every statement's result); throws on failure. */
function quiet(cmd, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, ...wranglerEnv } });
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(" ")} exited with ${code}`))));
  });
}

const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
const id = (group, n) => `01900000-0000-7000-${group}-${String(n).padStart(12, "0")}`;

/** The seed as SQL: recursive CTEs generate the rows inside SQLite. */
function seedSql(companyId) {
  const at = Date.now() - CONTACTS * 1000;
  const lines = [];
  for (let t = 0; t < TAGS; t++) {
    lines.push(`INSERT INTO tags (id, company_id, name, color, kind, created_at, updated_at) VALUES ('${id("9000", t)}', '${companyId}', 'tag-${t}', '#0ea5e9', 'contact', ${at}, ${at});`);
  }
  lines.push(`INSERT INTO custom_fields (id, company_id, name, key, type, kind, created_at, updated_at) VALUES ('${id("a000", 1)}', '${companyId}', 'Cidade', 'cidade', 'text', 'user', ${at}, ${at});`);
  lines.push(`INSERT INTO custom_fields (id, company_id, name, key, type, kind, created_at, updated_at) VALUES ('${id("a000", 2)}', '${companyId}', 'Pontos', 'pontos', 'number', 'user', ${at}, ${at});`);
  for (let from = 0; from < CONTACTS; from += SEED_CHUNK) {
    const to = Math.min(CONTACTS, from + SEED_CHUNK) - 1;
    const range = `WITH RECURSIVE n(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM n WHERE i < ${to})`;
    const cid = `'01900000-0000-7000-8000-' || printf('%012d', i)`;
    lines.push(
      `${range} INSERT INTO contacts (id, company_id, name, phone, email, created_at, updated_at) SELECT ${cid}, '${companyId}', 'Contact ' || i, '+55119' || printf('%08d', i), 'contact' || i || '@example.com', ${at} + i * 1000, ${at} + i * 1000 FROM n;`,
      `${range} INSERT INTO contact_tags (company_id, contact_id, tag_id) SELECT '${companyId}', ${cid}, '01900000-0000-7000-9000-' || printf('%012d', i % ${TAGS}) FROM n;`,
      `${range} INSERT INTO contact_tags (company_id, contact_id, tag_id) SELECT '${companyId}', ${cid}, '01900000-0000-7000-9000-' || printf('%012d', (i * 7 + 3) % ${TAGS}) FROM n WHERE i % 2 = 0 AND (i * 7 + 3) % ${TAGS} <> i % ${TAGS};`,
      `${range} INSERT INTO contact_field_values (company_id, contact_id, field_id, value, value_number, updated_at) SELECT '${companyId}', ${cid}, '${id("a000", 1)}', 'City ' || (i % 500), NULL, ${at} FROM n;`,
      `${range} INSERT INTO contact_field_values (company_id, contact_id, field_id, value, value_number, updated_at) SELECT '${companyId}', ${cid}, '${id("a000", 2)}', CAST(i % 1000 AS TEXT), i % 1000, ${at} FROM n;`,
    );
  }
  lines.push(`INSERT INTO counters (company_id, name, value) VALUES ('${companyId}', 'contacts', ${CONTACTS}) ON CONFLICT (company_id, name) DO UPDATE SET value = excluded.value;`);
  // The chat list: one ticket per contact for the first TICKETS contacts, on one connection; a
  // fifth open and assigned to the owner's membership, a fifth closed, the rest pending; 1 in 20
  // a group; 1 in 3 unread.
  lines.push(`INSERT INTO connections (id, company_id, name, channel, status, created_at, updated_at) VALUES ('${id("b000", 1)}', '${companyId}', 'Bench', 'whatsapp-cloud', 'CONNECTED', ${at}, ${at});`);
  for (let from = 0; from < TICKETS; from += SEED_CHUNK) {
    const to = Math.min(TICKETS, from + SEED_CHUNK) - 1;
    const range = `WITH RECURSIVE n(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM n WHERE i < ${to})`;
    lines.push(
      `${range} INSERT INTO tickets (id, company_id, contact_id, connection_id, status, assigned_member_id, is_group, unread_count, last_message_at, last_message_preview, created_at, updated_at) ` +
        `SELECT '01900000-0000-7000-c000-' || printf('%012d', i), '${companyId}', '01900000-0000-7000-8000-' || printf('%012d', i), '${id("b000", 1)}', ` +
        `CASE i % 5 WHEN 0 THEN 'open' WHEN 1 THEN 'closed' ELSE 'pending' END, CASE i % 5 WHEN 0 THEN (SELECT id FROM members WHERE company_id = '${companyId}' LIMIT 1) END, ` +
        `CASE WHEN i % 20 = 7 THEN 1 ELSE 0 END, CASE WHEN i % 3 = 0 THEN 1 ELSE 0 END, ${at} + i * 1000, 'message ' || i, ${at} + i * 1000, ${at} + i * 1000 FROM n;`,
    );
  }
  return lines.join("\n");
}

/** An .xlsx of `rows` new contacts (phones outside the seeded range), two of every 1,000 refused. */
function importFile(rows, offset) {
  const writer = new XlsxWriter({ level: 6 });
  const chunks = [];
  writer.addRow(["Nome", "Telefone", "Email", "Tags", "Cidade"], { header: true });
  for (let i = 0; i < rows; i++) {
    const n = offset + i;
    const phone = i % 1000 === 7 ? "12345" : `+55219${String(n).padStart(8, "0")}`;
    const email = i % 1000 === 9 ? "not-an-email" : `imported${n}@example.com`;
    writer.addRow([`Imported ${n}`, phone, email, `import, lote-${i % 5}`, `City ${i % 50}`]);
    if (i % 5000 === 0) chunks.push(...writer.take());
  }
  chunks.push(...writer.finish());
  return concatBytes(chunks);
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
  console.log(`  ${label.padEnd(34)} p50 ${percentile(times, 50).toFixed(1).padStart(7)} ms   p95 ${percentile(times, 95).toFixed(1).padStart(7)} ms   (${last})`);
}

const state = mkdtempSync(join(tmpdir(), "conversa-bench-contacts-"));
// The server's port, held until just before wrangler starts.
const heldPorts = await reservePorts(1);
const [port] = heldPorts.ports;
const base = `http://127.0.0.1:${port}`;
// The worker is bundled once and served unbundled: `wrangler dev` would otherwise rebuild and
// reload on every source change in the working tree, losing the local queue's message in flight.
const build = join(state, "build");
// The server reads a copy of wrangler.toml and .dev.vars (paths made absolute) and serves an empty
// assets directory: `wrangler dev` restarts when its config or any built web file changes, which in
// a shared working tree (another build of dist/web) drops the import in flight.
const config = join(state, "wrangler.toml");
mkdirSync(join(state, "assets"));
writeFileSync(join(state, "assets", "index.html"), "<!doctype html><title>bench</title>");
writeFileSync(
  config,
  readFileSync(join(root, "wrangler.toml"), "utf8")
    .replace(/^main = "(.*)"$/m, (_, path) => `main = "${join(root, path)}"`)
    .replace(/^directory = "(.*)"$/m, () => `directory = "${join(state, "assets")}"`)
    .replace(/^migrations_dir = "(.*)"$/m, (_, path) => `migrations_dir = "${join(root, path)}"`),
);
if (existsSync(join(root, ".dev.vars"))) copyFileSync(join(root, ".dev.vars"), join(state, ".dev.vars"));
const serverArgs = [join(build, "index.js"), "--no-bundle", "--config", config, "--persist-to", state, "--log-level", process.env.BENCH_LOG ?? "error", "--var", `PUBLIC_URL:${base}`, ...(TRACE ? ["--var", "BENCH_ENDPOINTS:on"] : [])];
let server;
const stopServer = async () => {
  if (!server) return;
  const exited = new Promise((resolve) => server.once("exit", resolve));
  server.kill("SIGTERM");
  await exited;
  server = undefined;
};
const t0 = performance.now();
try {
  await quiet("wrangler", ["deploy", "--dry-run", "--config", config, "--outdir", build]);
  await must("wrangler", ["d1", "migrations", "apply", "DB", "--local", "--config", config, "--persist-to", state], { env: wranglerEnv });
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
  await stopServer();

  // Seed straight into the local D1 while the server is down (one writer at a time).
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

  console.log(`\ncontacts benchmark: ${CONTACTS.toLocaleString("en-US")} contacts, ${TAGS} tags, 2 custom fields; seeded in ${seedSeconds.toFixed(1)} s`);
  const health = async () => {
    const res = await fetch(`${base}/api/health`);
    await res.arrayBuffer();
    return `${res.status}`;
  };
  if (PARTS.has("contacts")) {
  console.log(`GET /api/contacts (limit 30, ${RUNS} sequential requests each):`);
  await timed("GET /api/health (the floor)", RUNS, health);
  const first = await get("/api/contacts?limit=30");
  if (first.total !== CONTACTS) console.log(`  (warning: total ${first.total}, expected ${CONTACTS})`);
  await timed("first page", RUNS, async () => `${(await get("/api/contacts?limit=30")).results.length} rows, total ${first.total}`);
  const pick = Math.floor(CONTACTS * 0.37);
  await timed(`search by name "Contact ${pick}"`, RUNS, async () => `${(await get(`/api/contacts?limit=30&search=${encodeURIComponent(`Contact ${pick}`)}`)).results.length} rows`);
  await timed(`search by phone "${String(pick).padStart(8, "0").slice(-6)}"`, RUNS, async () => `${(await get(`/api/contacts?limit=30&search=${String(pick).padStart(8, "0").slice(-6)}`)).results.length} rows`);
  await timed("tag filter (tag-3)", RUNS, async () => {
    const page = await get(`/api/contacts?limit=30&tags=${id("9000", 3)}`);
    return `${page.results.length} rows, total ${page.total}${page.totalCapped ? "+" : ""}`;
  });
  let cursor = first.cursor;
  let page = 1;
  for (; page < 49 && cursor; page++) cursor = (await get(`/api/contacts?limit=30&cursor=${encodeURIComponent(cursor)}`)).cursor;
  if (cursor) await timed("50th page (keyset cursor)", RUNS, async () => `${(await get(`/api/contacts?limit=30&cursor=${encodeURIComponent(cursor)}`)).results.length} rows`);
  else console.log(`  50th page: the list ends at page ${page}`);
  }

  // 4. The chat list at TICKETS tickets.
  if (PARTS.has("tickets")) {
  console.log(`\nGET /api/tickets at ${TICKETS.toLocaleString("en-US")} tickets (limit 30, ${RUNS} sequential requests each; target p95 ≤ 50 ms):`);
  await timed("GET /api/health (the floor)", RUNS, health);
  await timed("GET /api/contacts first page", RUNS, async () => `${(await get("/api/contacts?limit=30")).results.length} rows`);
  const list = (query) => async () => {
    const page = await get(`/api/tickets?limit=30${query ? `&${query}` : ""}`);
    return `${page.results.length} rows, total ${page.total}${page.totalCapped ? "+" : ""}`;
  };
  await timed("first page", RUNS, list(""));
  for (const status of ["open", "pending", "closed"]) await timed(`status=${status}`, RUNS, list(`status=${status}`));
  for (const type of ["chats", "unread", "groups", "mine"]) await timed(`type=${type}`, RUNS, list(`type=${type}`));
  const tpick = Math.floor(TICKETS * 0.37);
  await timed(`search by name "Contact ${tpick}"`, RUNS, list(`search=${encodeURIComponent(`Contact ${tpick}`)}`));
  await timed(`search by phone "${String(tpick).padStart(8, "0").slice(-6)}"`, RUNS, list(`search=${String(tpick).padStart(8, "0").slice(-6)}`));
  }

  console.log(`\n.xlsx import through the jobs queue (each row: 2 tags and a field value; 0.2% refused):`);
  // GET /api/health one request after another until `stop()`; answers the sorted times.
  const healthProbe = () => {
    const times = [];
    let running = true;
    const done = (async () => {
      while (running) {
        const h0 = performance.now();
        // A kept-alive socket the server closed while the file was generated fails once: ask again.
        const res = await fetch(`${base}/api/health`).catch(() => fetch(`${base}/api/health`));
        await res.arrayBuffer();
        times.push(performance.now() - h0);
        slow.push([h0, performance.now() - h0]);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    return async () => {
      running = false;
      await done;
      return times.sort((a, b) => a - b);
    };
  };
  let offset = 0;
  // [start, duration] of every health request, to place the longest ones in the import's phases.
  let slow = [];
  for (const rows of PARTS.has("imports") ? IMPORTS : []) {
    slow = [];
    const file = importFile(rows, offset);
    offset += rows;
    const form = new FormData();
    form.append("file", new File([file], `bench-${rows}.xlsx`));
    const rssBefore = workerdRss();
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, workerdRss())), 100);
    // Idle: 5 s before the import (after 2 s for the file's generation to settle) and 5 s after it,
    // pooled: one 3 s window's p95 (about the sixth-longest of ~110 requests) moved 7.7–17.5 ms
    // between runs of the same code, and the ratio with it.
    const idleProbe = async () => {
      await new Promise((r) => setTimeout(r, 2_000));
      const stop = healthProbe();
      await new Promise((r) => setTimeout(r, 5_000));
      return stop();
    };
    const idleBefore = await idleProbe();
    const busyStop = healthProbe();
    const i0 = performance.now();
    const up = await fetch(`${base}/api/contacts/import`, { method: "POST", headers: auth, body: form }).catch(() => fetch(`${base}/api/contacts/import`, { method: "POST", headers: auth, body: form }));
    const uploaded = await up.json();
    if (up.status !== 201) throw new Error(`upload: ${up.status} ${JSON.stringify(uploaded)}`);
    const mapping = { 0: "name", 1: "phone", 2: "email", 3: "tags", 4: `field:${id("a000", 1)}` };
    const started = await fetch(`${base}/api/jobs/${uploaded.jobId}/start`, { method: "POST", headers: { ...auth, "Content-Type": "application/json" }, body: JSON.stringify({ mapping }) });
    if (started.status !== 200) throw new Error(`start: ${started.status} ${await started.text()}`);
    let job;
    let stagedAt = null;
    let countedAt = null;
    let lastChange = performance.now();
    let lastProcessed = -1;
    for (;;) {
      job = await get(`/api/jobs/${uploaded.jobId}`);
      if (stagedAt === null && job.total > 0) stagedAt = performance.now();
      if (countedAt === null && job.total > 0 && job.processed >= job.total) countedAt = performance.now();
      if (job.status === "done" || job.status === "failed") break;
      if (job.processed !== lastProcessed) [lastProcessed, lastChange] = [job.processed, performance.now()];
      // `wrangler dev` reloads the worker when a source file changes, and the local queue loses
      // the message in flight: say so instead of waiting forever.
      if (performance.now() - lastChange > 180_000) throw new Error(`import stalled at ${job.processed}/${job.total} rows for 3 minutes (was the worker reloaded by a source change?)`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const seconds = (performance.now() - i0) / 1000;
    const busy = await busyStop();
    const finishedAt = performance.now();
    clearInterval(sampler);
    peak = Math.max(peak, workerdRss());
    const idleAfter = await idleProbe();
    const idle = [...idleBefore, ...idleAfter].sort((a, b) => a - b);
    console.log(
      `  ${String(rows).padStart(7)} rows (${(file.length / 1024 / 1024).toFixed(1)} MiB .xlsx): ${job.status}, ${job.processed - job.errors} imported, ${job.errors} refused, ` +
        `${seconds.toFixed(1)} s = ${(rows / seconds).toFixed(0)} rows/s (read+staged after ${stagedAt === null ? "?" : ((stagedAt - i0) / 1000).toFixed(1)} s); workerd RSS ${mib(rssBefore)} before, peak ${mib(peak)} (+${mib(peak - rssBefore)})`,
    );
    const idle95 = percentile(idle, 95);
    const busy95 = percentile(busy, 95);
    console.log(
      `    GET /api/health p95 idle ${idle95.toFixed(1)} ms (${idle.length} requests), during the import ${busy95.toFixed(1)} ms (${busy.length} requests, max ${busy[busy.length - 1]?.toFixed(0)} ms): ratio ${(busy95 / idle95).toFixed(2)} (target ≤ 3)`,
    );
    const spread = (times) => [50, 75, 90, 95, 99].map((q) => `p${q} ${percentile(times, q).toFixed(1)}`).join(", ");
    const before95 = percentile(idleBefore, 95);
    console.log(`    GET /api/health idle ${spread(idle)} ms (p95 ${before95.toFixed(1)} before, ${percentile(idleAfter, 95).toFixed(1)} after: ratio ${(busy95 / before95).toFixed(2)} against the idle before alone); during the import ${spread(busy)} ms`);
    const phase = (at) => (stagedAt === null || at < stagedAt ? "reading the file" : countedAt === null || at < countedAt ? "writing chunks" : "finishing");
    const longest = slow.filter(([at]) => at >= i0 && at < finishedAt).sort((a, b) => b[1] - a[1]).slice(0, 5);
    console.log(`    longest /api/health: ${longest.map(([at, ms]) => `${ms.toFixed(0)} ms at ${((at - i0) / 1000).toFixed(1)} s (${phase(at)})`).join("; ")}; import took ${((finishedAt - i0) / 1000).toFixed(1)} s`);
    if (countedAt !== null) console.log(`    every row counted at ${((countedAt - i0) / 1000).toFixed(1)} s; done seen ${(seconds - (countedAt - i0) / 1000).toFixed(1)} s later (polled every 250 ms)`);
    if (job.status !== "done") console.log(`    ${job.errorMessage}`);
    if (TRACE) {
      // The finish deletes the staging after `done`: give it a moment before reading the spans.
      await new Promise((r) => setTimeout(r, 2_000));
      console.log(await traceLines(base, `import of ${rows} rows`));
    }
  }
  console.log(`\ntotal wall time ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
} finally {
  await heldPorts.release();
  await stopServer().catch(() => undefined);
  rmSync(state, { recursive: true, force: true });
}
process.exit(0);
