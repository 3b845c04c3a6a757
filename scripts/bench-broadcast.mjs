// `npm run bench:broadcast`: one broadcast to BENCH_RECIPIENTS contacts (default 100,000) through
// the Graph API stand-in, on `wrangler dev` with a fresh local state (issue 10 "Benchmark").
//
// 1. Registers an owner, a WhatsApp Cloud API connection (proved at the stand-in) and a published
//    one-message flow through the API; stops the server and seeds the contacts straight into the
//    local D1 (recursive-CTE SQL), each with an inbound message an hour old (inside the 24 h
//    window), plus every 100th one opted out (rejected with `opted_out`).
// 2. Restarts the server with ENVIRONMENT=local and BROADCAST_DELAY_SCALE (BENCH_DELAY_SCALE,
//    default 0.001: the "very short" preset's 1–5 s pause becomes 1–5 ms; honoured only in local
//    and test), creates the broadcast and starts it.
// 3. Watches it to the end: sends/s, the workerd RSS (the process holding the scheduler object and
//    everything else of this server) sampled every second — its peak by the BENCH_CHECKPOINT-th
//    recipient (default 10,000) and by the last one —, the scheduler's own state read from the
//    bench-only GET /api/dev/bench/broadcast-scheduler (its storage bytes and keys, the most sends in
//    flight and recipients prefetched at once) at the same checkpoints, sent + rejected against N,
//    duplicates (a recipient the stand-in got twice) and the highest number of sends the connection
//    made in any one second (the limit is the connection's 80 messages/s).
//
// BENCH_OPT_OUT_EVERY (default 100): every n-th contact is opted out; 1 opts out everyone, so the
// scheduler only pages through the list and rejects (the RSS of the scheduler's own work, without
// the per-recipient ContactSessions, TicketRooms and messages). BENCH_PROGRESS=1 prints a line
// every 30 s. The build and the wrangler.toml it runs with are snapshotted at the start (the
// working tree may change during a long run).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { configWithoutAssets, must, reservePorts, root, startCpuProfile, startWrangler, summariseProfile, waitFor, wranglerEnv } from "./lib.mjs";
import { startMetaStandIn } from "../standins/meta-graph.ts";

const N = Number(process.env.BENCH_RECIPIENTS ?? 100_000);
const SCALE = process.env.BENCH_DELAY_SCALE ?? "0.001";
const CHECKPOINT = Math.min(Number(process.env.BENCH_CHECKPOINT ?? 10_000), N);
const OPT_OUT_EVERY = Math.max(1, Number(process.env.BENCH_OPT_OUT_EVERY ?? 100));
const OPTED_OUT = Math.floor(N / OPT_OUT_EVERY);
// BENCH_PROFILE=1: a CPU profile of the worker's isolate over the first BENCH_PROFILE_S seconds (default 30) of sending.
const PROFILE = process.env.BENCH_PROFILE === "1";
const PHONE_NUMBER_ID = "3456789012345";
const TOKEN = "EAAG-bench-broadcast-token-0000";

/** Runs a command with its stdout discarded; throws on failure. */
function quiet(cmd, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, ...wranglerEnv } });
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(" ")} exited with ${code}`))));
  });
}

/** RSS (bytes) of the workerd processes under `pid` (this benchmark's server only, not other runs on the machine). */
function rssUnder(pid) {
  return workerdUnder(pid).rss;
}

/** CPU seconds (user + system) the workerd processes under `pid` used so far. */
function cpuUnder(pid) {
  return workerdUnder(pid).cpu;
}

/** RSS (bytes) and CPU seconds of the workerd processes under `pid`. */
function workerdUnder(pid) {
  const parent = new Map();
  const names = new Map();
  for (const p of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      names.set(p, stat.slice(stat.indexOf("(") + 1, close));
      parent.set(p, stat.slice(close + 2).split(" ")[1]);
    } catch {
      // gone
    }
  }
  let rss = 0;
  let cpu = 0;
  for (const [p, name] of names) {
    if (name !== "workerd") continue;
    let q = p;
    while (q && q !== "1" && q !== String(pid)) q = parent.get(q);
    if (q !== String(pid)) continue;
    try {
      rss += Number(/^VmRSS:\s*(\d+)/m.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0) * 1024;
      const stat = readFileSync(`/proc/${p}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      cpu += (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      // gone
    }
  }
  return { rss, cpu };
}

const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
const ownLine = (o) => (o ? `storage ${(o.storedBytes / 1024).toFixed(0)} KiB in ${o.keys} keys, at most ${o.peakInFlight} sends in flight and ${o.peakQueued} recipients prefetched` : "not reached");

// The stand-in's view: every accepted send of the connection, per recipient and per second.
const perRecipient = new Map();
const perSecond = new Map();
let sends = 0;
const meta = await startMetaStandIn({
  keepAlive: true,
  onRequest: (record) => {
    if (record.method !== "POST" || !record.path.endsWith(`/${PHONE_NUMBER_ID}/messages`)) return;
    const body = record.body && typeof record.body === "object" ? record.body : {};
    if (body.status === "read") return;
    sends++;
    const to = String(body.to ?? body.recipient ?? "");
    perRecipient.set(to, (perRecipient.get(to) ?? 0) + 1);
    const second = Math.floor(record.at / 1000);
    perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
  },
});
meta.addNumber({ phoneNumberId: PHONE_NUMBER_ID, displayPhoneNumber: "+1 555-020-0000", verifiedName: "Bench", qualityRating: "GREEN", tokens: [TOKEN] });

const state = mkdtempSync(join(tmpdir(), "conversa-bench-broadcast-"));
// The server's port and (profiling) the inspector's, held until just before wrangler starts.
const heldPorts = await reservePorts(PROFILE ? 2 : 1);
const [port, inspectorPort = 0] = heldPorts.ports;
const base = `http://127.0.0.1:${port}`;
const build = join(state, "build");
// The configuration as it is now, next to the original (its relative paths still resolve).
// The web app's assets are left out (an empty folder): a rebuild of dist/web by another run would
// make wrangler dev reload this server mid-benchmark.
const config = configWithoutAssets(join(root, "wrangler.toml"), state, "broadcast");
const serverArgs = [
  join(build, "index.js"), "--no-bundle", "--config", config, "--persist-to", state, "--log-level", process.env.BENCH_LOG ?? "error",
  "--var", `PUBLIC_URL:${base}`, "--var", `WHATSAPP_GRAPH_URL:${meta.graphUrl}`, "--var", "ENVIRONMENT:local", "--var", `BROADCAST_DELAY_SCALE:${SCALE}`, "--var", "BENCH_ENDPOINTS:on",
  ...(PROFILE ? ["--inspector-port", String(inspectorPort)] : []),
];
let server;
// Stopped with the benchmark (Ctrl-C or kill): the server goes with it.
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    server?.kill("SIGTERM");
    rmSync(config, { force: true });
    process.exit(130);
  });
}
const stopServer = async () => {
  if (!server) return;
  const exited = new Promise((resolve) => server.once("exit", resolve));
  server.kill("SIGTERM");
  await exited;
  server = undefined;
};

const json = async (method, path, token, body) => {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
};

try {
  await quiet("wrangler", ["deploy", "--dry-run", "--config", config, "--outdir", build]);
  await must("wrangler", ["d1", "migrations", "apply", "DB", "--local", "--config", config, "--persist-to", state], { env: wranglerEnv });
  await heldPorts.release();
  server = startWrangler(port, serverArgs);
  await waitFor(`${base}/api/health`);
  const { token } = await json("POST", "/api/register", null, { name: "Bench Owner", email: `bench.broadcast.${Date.now()}@example.com`, phone: "+5511999990000", password: "bench-password", companyName: "Bench Broadcast" });
  const company = await json("GET", "/api/companies/active", token);
  const connection = await json("POST", "/api/connections", token, { channel: "whatsapp-cloud", name: "Bench", phoneNumberId: PHONE_NUMBER_ID, accessToken: TOKEN });
  const flow = await json("POST", "/api/flows", token, { name: "Oferta", type: "default" });
  const draft = {
    version: 1,
    nodes: [
      { id: "start", type: "start", position: { x: 0, y: 0 }, data: {} },
      { id: "offer", type: "text", position: { x: 0, y: 120 }, data: { message: "Olá, {{first_name}}! Oferta de hoje." } },
    ],
    edges: [{ id: "e1", source: "start", sourceHandle: "next", target: "offer" }],
  };
  await json("PUT", `/api/flows/${flow.id}`, token, { draft });
  await json("POST", `/api/flows/${flow.id}/publish`, token);
  await stopServer();

  // Seed while the server is down (one writer at a time).
  const at = Date.now();
  const lines = [];
  for (let from = 0; from < N; from += 50_000) {
    const to = Math.min(N, from + 50_000) - 1;
    const range = `WITH RECURSIVE n(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM n WHERE i < ${to})`;
    const cid = `'01900000-0000-7000-8000-' || printf('%012d', i)`;
    lines.push(
      `${range} INSERT INTO contacts (id, company_id, name, phone, opted_out_at, created_at, updated_at) SELECT ${cid}, '${company.id}', 'Contact ' || i, '+55119' || printf('%08d', i), CASE WHEN i % ${OPT_OUT_EVERY} = ${OPT_OUT_EVERY - 1} THEN ${at} ELSE NULL END, ${at}, ${at} FROM n;`,
      `${range} INSERT INTO messages (id, company_id, ticket_id, contact_id, connection_id, direction, type, body, status, sent_at, seq, created_at, updated_at) SELECT '01900000-0000-7000-b000-' || printf('%012d', i), '${company.id}', '01900000-0000-7000-c000-' || printf('%012d', i), ${cid}, '${connection.id}', 'in', 'text', 'oi', 'received', ${at - 3_600_000}, 1, ${at}, ${at} FROM n;`,
    );
  }
  const seedFile = join(state, "seed.sql");
  writeFileSync(seedFile, lines.join("\n"));
  const s0 = performance.now();
  await quiet("wrangler", ["d1", "execute", "DB", "--local", "--config", config, "--persist-to", state, "--file", seedFile, "--yes"]);
  const seedSeconds = (performance.now() - s0) / 1000;

  server = startWrangler(port, serverArgs);
  await waitFor(`${base}/api/health`);
  const rssIdle = rssUnder(server.pid);
  const broadcast = await json("POST", "/api/broadcasts", token, { name: "Bench", connectionId: connection.id, flowId: flow.id, delay: "very_short", filters: [] });
  const loadAtStart = loadavg().map((n) => n.toFixed(2)).join(", ");
  const cpuAtStart = cpuUnder(server.pid);
  await json("GET", "/api/dev/bench/trace?reset=1", token);
  const stopProfile = PROFILE ? await startCpuProfile(inspectorPort) : null;
  let traced = false;
  const profileUntil = Date.now() + Number(process.env.BENCH_PROFILE_S ?? 30) * 1000;
  const t0 = performance.now();
  await json("POST", `/api/broadcasts/${broadcast.id}/start`, token);
  let peakAtCheckpoint = 0;
  let peak = 0;
  let checkpointSeconds = null;
  let last;
  // The scheduler's own state (bench-only endpoint): the largest storage and key count seen, and its in-memory peaks.
  const own = { storedBytes: 0, keys: 0, peakInFlight: 0, peakQueued: 0 };
  let ownAtCheckpoint = null;
  const readOwn = async () => {
    const seen = await json("GET", `/api/dev/bench/broadcast-scheduler?id=${broadcast.id}`, token);
    own.storedBytes = Math.max(own.storedBytes, seen.storedBytes);
    own.keys = Math.max(own.keys, seen.keys);
    own.peakInFlight = Math.max(own.peakInFlight, seen.peakInFlight);
    own.peakQueued = Math.max(own.peakQueued, seen.peakQueued);
  };
  let lastProgress = performance.now();
  for (let tick = 0; ; tick++) {
    await new Promise((r) => setTimeout(r, 1000));
    const rss = rssUnder(server.pid);
    peak = Math.max(peak, rss);
    last = await json("GET", `/api/broadcasts/${broadcast.id}`, token);
    if (tick % 5 === 0 || last.status === "done") await readOwn();
    const reached = last.counts.sent + last.counts.rejected;
    if (checkpointSeconds === null) peakAtCheckpoint = peak;
    if (checkpointSeconds === null && reached >= CHECKPOINT) {
      checkpointSeconds = (performance.now() - t0) / 1000;
      await readOwn();
      ownAtCheckpoint = { ...own };
    }
    if (process.env.BENCH_PROGRESS && (performance.now() - lastProgress > Number(process.env.BENCH_PROGRESS_MS ?? 30_000) || last.status === "done")) {
      lastProgress = performance.now();
      console.log(`  ${reached}/${N} after ${((performance.now() - t0) / 1000).toFixed(0)} s (stand-in ${sends} sends), RSS ${mib(rss)}, scheduler ${JSON.stringify(own)}`);
    }
    if (traced === false && (Date.now() > profileUntil || last.status === "done")) {
      traced = true;
      const profile = stopProfile ? await stopProfile() : null;
      if (profile) console.log(summariseProfile(profile, join(build, "index.js")).join("\n"));
      // The scheduler's stages (worker/lib/bench-trace.ts spans), wall time per recipient.
      if (process.env.BENCH_PROGRESS) console.log(JSON.stringify((await json("GET", "/api/dev/bench/trace", token)).spans));
    }
    if (last.status === "done") break;
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpuSeconds = cpuUnder(server.pid) - cpuAtStart;
  const perSent = last.counts.sent > 0 ? cpuSeconds / last.counts.sent : 0;
  // The ticket rooms send after the hand-off: let the last ones arrive.
  const settle = Date.now() + 30_000;
  while (sends < last.counts.sent && Date.now() < settle) await new Promise((r) => setTimeout(r, 200));
  const duplicates = [...perRecipient.values()].filter((n) => n > 1).length;
  const busiest = Math.max(0, ...perSecond.values());

  console.log(`
broadcast benchmark: ${N.toLocaleString("en-US")} recipients (${(N - OPTED_OUT).toLocaleString("en-US")} in the window, ${OPTED_OUT.toLocaleString("en-US")} opted out), delay "very_short" × ${SCALE}; seeded in ${seedSeconds.toFixed(1)} s
  status ${last.status}: sent ${last.counts.sent.toLocaleString("en-US")} + rejected ${last.counts.rejected.toLocaleString("en-US")} = ${(last.counts.sent + last.counts.rejected).toLocaleString("en-US")} of ${N.toLocaleString("en-US")} (total listed ${last.counts.total})
  time ${seconds.toFixed(1)} s → ${(last.counts.sent / seconds).toFixed(1)} sends/s, ${((last.counts.sent + last.counts.rejected) / seconds).toFixed(1)} recipients/s${checkpointSeconds === null ? "" : ` (first ${CHECKPOINT.toLocaleString("en-US")} in ${checkpointSeconds.toFixed(1)} s)`}
  stand-in: ${sends.toLocaleString("en-US")} sends to ${perRecipient.size.toLocaleString("en-US")} recipients, ${duplicates} duplicates; busiest second of the connection ${busiest} sends (limit 80/s)
  workerd RSS: ${mib(rssIdle)} idle, peak ${mib(peakAtCheckpoint)} by ${CHECKPOINT.toLocaleString("en-US")} recipients, peak ${mib(peak)} by ${N.toLocaleString("en-US")}
  workerd CPU: ${cpuSeconds.toFixed(0)} s over ${seconds.toFixed(0)} s (${((100 * cpuSeconds) / seconds).toFixed(0)} % of one core)${perSent ? `; ${(perSent * 1000).toFixed(0)} ms per sent recipient → 100,000 recipients (99,000 sent) need ${((perSent * 99_000) / 60).toFixed(0)} CPU-minutes: ${((perSent * 99_000 * seconds) / cpuSeconds / 3600).toFixed(1)} h at this run's share, ${((perSent * 99_000) / 3600).toFixed(1)} h on one whole core` : ""}
  load average (1, 5, 15 min) at the start ${loadAtStart}, at the end ${loadavg().map((n) => n.toFixed(2)).join(", ")}
  scheduler's own state: by ${CHECKPOINT.toLocaleString("en-US")} ${ownLine(ownAtCheckpoint)}; by ${N.toLocaleString("en-US")} ${ownLine(own)}
`);
} finally {
  await heldPorts.release();
  await stopServer();
  await meta.close();
  rmSync(state, { recursive: true, force: true });
  rmSync(config, { force: true });
}
process.exit(0);
