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
//    recipient (default 10,000) and by the last one —, sent + rejected against N, duplicates (a
//    recipient the stand-in got twice)
//    and the highest number of sends the connection made in any one second (the limit is the
//    connection's 80 messages/s).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, must, root, startWrangler, waitFor, wranglerEnv } from "./lib.mjs";
import { startMetaStandIn } from "../standins/meta-graph.ts";

const N = Number(process.env.BENCH_RECIPIENTS ?? 100_000);
const SCALE = process.env.BENCH_DELAY_SCALE ?? "0.001";
const CHECKPOINT = Math.min(Number(process.env.BENCH_CHECKPOINT ?? 10_000), N);
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
  let total = 0;
  for (const [p, name] of names) {
    if (name !== "workerd") continue;
    let q = p;
    while (q && q !== "1" && q !== String(pid)) q = parent.get(q);
    if (q !== String(pid)) continue;
    try {
      total += Number(/^VmRSS:\s*(\d+)/m.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0) * 1024;
    } catch {
      // gone
    }
  }
  return total;
}

const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

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
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const build = join(state, "build");
const serverArgs = [
  join(build, "index.js"), "--no-bundle", "--config", join(root, "wrangler.toml"), "--persist-to", state, "--log-level", process.env.BENCH_LOG ?? "error",
  "--var", `PUBLIC_URL:${base}`, "--var", `WHATSAPP_GRAPH_URL:${meta.graphUrl}`, "--var", "ENVIRONMENT:local", "--var", `BROADCAST_DELAY_SCALE:${SCALE}`,
];
let server;
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
  await quiet("wrangler", ["deploy", "--dry-run", "--outdir", build]);
  await must("wrangler", ["d1", "migrations", "apply", "DB", "--local", "--persist-to", state], { env: wranglerEnv });
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
      `${range} INSERT INTO contacts (id, company_id, name, phone, opted_out_at, created_at, updated_at) SELECT ${cid}, '${company.id}', 'Contact ' || i, '+55119' || printf('%08d', i), CASE WHEN i % 100 = 99 THEN ${at} ELSE NULL END, ${at}, ${at} FROM n;`,
      `${range} INSERT INTO messages (id, company_id, ticket_id, contact_id, connection_id, direction, type, body, status, sent_at, seq, created_at, updated_at) SELECT '01900000-0000-7000-b000-' || printf('%012d', i), '${company.id}', '01900000-0000-7000-c000-' || printf('%012d', i), ${cid}, '${connection.id}', 'in', 'text', 'oi', 'received', ${at - 3_600_000}, 1, ${at}, ${at} FROM n;`,
    );
  }
  const seedFile = join(state, "seed.sql");
  writeFileSync(seedFile, lines.join("\n"));
  const s0 = performance.now();
  await quiet("wrangler", ["d1", "execute", "DB", "--local", "--persist-to", state, "--file", seedFile, "--yes"]);
  const seedSeconds = (performance.now() - s0) / 1000;

  server = startWrangler(port, serverArgs);
  await waitFor(`${base}/api/health`);
  const rssIdle = rssUnder(server.pid);
  const broadcast = await json("POST", "/api/broadcasts", token, { name: "Bench", connectionId: connection.id, flowId: flow.id, delay: "very_short", filters: [] });
  const t0 = performance.now();
  await json("POST", `/api/broadcasts/${broadcast.id}/start`, token);
  let peakAtCheckpoint = 0;
  let peak = 0;
  let checkpointSeconds = null;
  let last;
  for (;;) {
    await new Promise((r) => setTimeout(r, 1000));
    const rss = rssUnder(server.pid);
    peak = Math.max(peak, rss);
    last = await json("GET", `/api/broadcasts/${broadcast.id}`, token);
    const reached = last.counts.sent + last.counts.rejected;
    if (checkpointSeconds === null) peakAtCheckpoint = peak;
    if (checkpointSeconds === null && reached >= CHECKPOINT) checkpointSeconds = (performance.now() - t0) / 1000;
    if (process.env.BENCH_PROGRESS) console.log(`  ${reached}/${N} after ${((performance.now() - t0) / 1000).toFixed(0)} s, RSS ${mib(rss)}`);
    if (last.status === "done") break;
  }
  const seconds = (performance.now() - t0) / 1000;
  // The ticket rooms send after the hand-off: let the last ones arrive.
  const settle = Date.now() + 30_000;
  while (sends < last.counts.sent && Date.now() < settle) await new Promise((r) => setTimeout(r, 200));
  const duplicates = [...perRecipient.values()].filter((n) => n > 1).length;
  const busiest = Math.max(0, ...perSecond.values());

  console.log(`
broadcast benchmark: ${N.toLocaleString("en-US")} recipients (${(N - Math.floor(N / 100)).toLocaleString("en-US")} in the window, ${Math.floor(N / 100).toLocaleString("en-US")} opted out), delay "very_short" × ${SCALE}; seeded in ${seedSeconds.toFixed(1)} s
  status ${last.status}: sent ${last.counts.sent.toLocaleString("en-US")} + rejected ${last.counts.rejected.toLocaleString("en-US")} = ${(last.counts.sent + last.counts.rejected).toLocaleString("en-US")} of ${N.toLocaleString("en-US")} (total listed ${last.counts.total})
  time ${seconds.toFixed(1)} s → ${(last.counts.sent / seconds).toFixed(1)} sends/s, ${((last.counts.sent + last.counts.rejected) / seconds).toFixed(1)} recipients/s${checkpointSeconds === null ? "" : ` (first ${CHECKPOINT.toLocaleString("en-US")} in ${checkpointSeconds.toFixed(1)} s)`}
  stand-in: ${sends.toLocaleString("en-US")} sends to ${perRecipient.size.toLocaleString("en-US")} recipients, ${duplicates} duplicates; busiest second of the connection ${busiest} sends (limit 80/s)
  workerd RSS: ${mib(rssIdle)} idle, peak ${mib(peakAtCheckpoint)} by ${CHECKPOINT.toLocaleString("en-US")} recipients, peak ${mib(peak)} by ${N.toLocaleString("en-US")}
`);
} finally {
  await stopServer();
  await meta.close();
  rmSync(state, { recursive: true, force: true });
}
process.exit(0);
