// `npm run bench:flows`: the flow engine's speed in workerd and inbound → first bot reply latency.
//
// 1. Engine: GET /api/dev/bench/engine runs a 200-block linear flow BENCH_ITERATIONS times inside
//    workerd; the Workers clock does not advance during synchronous work, so the request is timed
//    from here against an iterations=0 request, and steps/s = steps / (t(N) - t(0)).
// 2. Bot reply: a published flow (start → text) is the default flow of a WhatsApp Cloud API
//    connection; BENCH_MESSAGES signed webhooks from distinct contacts (BENCH_CONCURRENCY at once);
//    latency is from the webhook POST to the Graph API stand-in receiving the bot's reply; then
//    BENCH_SERIAL (default 100) more contacts one at a time (concurrency 1), each reply awaited
//    before the next webhook (issue 16: p95 ≤ 40 ms at concurrency 1, p50 ≤ 250 ms at 20).
// 3. The platform's floor in the same run: POST /api/dev/bench/skeleton (Worker → object A with one
//    storage write → object B with one storage write and one D1 batch of an insert and an update,
//    worker/durable-objects/bench-hop.ts), one pair of new objects per contact as the replies have,
//    at the same concurrency and then one at a time; the reply figures are printed as ratios to it.
// 4. The floor of a reply in the same run: the same skeleton whose object B then sends one text
//    through the Graph API stand-in (the outbound request every reply makes), timed from the POST
//    to the stand-in receiving it, as the replies are; printed with the replies' ratios to it.
// 5. The reply floor in the same run: the skeleton's two objects making every platform operation of
//    a new contact's message and its bot's reply instead (worker/durable-objects/bench-hop.ts
//    `replyHop`), the send after the answer, as the product did until a new contact's first reply
//    was sent by its ContactSession alone (worker/pipeline/first-reply.ts, README's thirteenth
//    pass); printed with the replies' ratios to it.
// 6. The fewest operations that keep the same guarantees (`replyMin`: one object, three D1 round
//    trips, one durable commit before the send, one hub call): the shape the product's first reply
//    now has, with its own work on top.
// BENCH_TRACE=1 prints the inbound path's stage timings (GET /api/dev/bench/trace) of each phase;
// BENCH_PROFILE=1 takes a CPU profile of the worker during the concurrent phase (BENCH_PROFILE=serial:
// the one-at-a-time phase instead) and prints its
// self time by module and function (scripts/lib.mjs summariseProfile); BENCH_PROFILE_OUT=<dir> keeps
// the raw profile and the bundle there.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundleWorker, configWithoutAssets, must, percentile, pool, reservePorts, startCpuProfile, startWrangler, summariseProfile, traceLines, waitFor, wranglerEnv } from "./lib.mjs";
import { metaSignature, startMetaStandIn } from "../standins/meta-graph.ts";

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 200);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 300);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const SERIAL = Number(process.env.BENCH_SERIAL ?? 100);
const SECRET = "bench-app-secret";
const TRACE = process.env.BENCH_TRACE === "1";
// "1": the concurrent phase; "serial": the one-at-a-time phase instead.
const PROFILE = process.env.BENCH_PROFILE === "1" || process.env.BENCH_PROFILE === "serial";
const PROFILE_SERIAL = process.env.BENCH_PROFILE === "serial";

async function timed(url) {
  const t0 = performance.now();
  const res = await fetch(url);
  const body = await res.json();
  if (!res.ok) throw new Error(`${url} → ${res.status} ${JSON.stringify(body)}`);
  return { ms: performance.now() - t0, body };
}

const replies = new Map();
const meta = await startMetaStandIn({
  keepAlive: true,
  onRequest: (record) => {
    const to = record.body && typeof record.body === "object" ? record.body.to : undefined;
    if (record.method === "POST" && typeof to === "string" && !replies.has(to)) replies.set(to, performance.now());
  },
});
const state = mkdtempSync(join(tmpdir(), "conversa-bench-flows-"));
// The server's port and (profiling) the inspector's, held until just before wrangler starts.
const heldPorts = await reservePorts(PROFILE ? 2 : 1);
const [port, inspectorPort = 0] = heldPorts.ports;
const base = `http://127.0.0.1:${port}`;
let server;
let config;
// Each phase starts BENCH_QUIET_MS (default 2,000) after the one before: the work a phase leaves
// running once its last reply arrived (settles, hub publishes, the webhooks' answers) stays out of
// the next phase (the first replies one at a time after the concurrent phase took 2-3 times the
// median before this pause).
const QUIET_MS = Number(process.env.BENCH_QUIET_MS ?? 2000);
const quiet = () => new Promise((r) => setTimeout(r, QUIET_MS));
const traceOf = async (label) => (TRACE ? traceLines(base, label) : "");
// A send arms its object's alarm 30 s ahead (TicketRoom SEND_LEASE_MS), so the sends of one phase
// wake their objects during a later one. A phase that leaves leases armed pushes `leasesFireBy` to
// its end + LEASE_MS + 1 s; each floor starts after it (`afterLeases`), so no phase is timed while
// another's alarms fire.
const LEASE_MS = 30_000; // TicketRoom SEND_LEASE_MS (and BenchHop replyStore's and replyMin's)
let leasesFireBy = 0;
const leasesArmed = () => {
  leasesFireBy = performance.now() + LEASE_MS + 1_000;
};
const afterLeases = () => new Promise((r) => setTimeout(r, Math.max(0, leasesFireBy - performance.now())));
// The lease alarms (`room.alarm`, `hop.alarm` in the trace) that fired since the trace was last read
// or reset; reads and resets the trace.
const alarmsFired = async () => {
  const { spans } = await (await fetch(`${base}/api/dev/bench/trace?reset=1`)).json();
  return (spans["room.alarm"]?.n ?? 0) + (spans["hop.alarm"]?.n ?? 0);
};
try {
  await must("wrangler", ["d1", "migrations", "apply", "DB", "--local", "--persist-to", state], { env: wranglerEnv });
  const bundle = await bundleWorker(join(state, "build"));
  // The configuration served is a copy without the web app's assets (scripts/lib.mjs
  // `configWithoutAssets`), removed at the end.
  config = configWithoutAssets(bundle[3], state, "flows");
  bundle[3] = config;
  await heldPorts.release();
  server = startWrangler(port, [
    ...bundle,
    ...(PROFILE ? ["--inspector-port", String(inspectorPort)] : []),
    "--persist-to", state, "--log-level", "error",
    "--var", `WHATSAPP_GRAPH_URL:${meta.graphUrl}`,
    "--var", `WHATSAPP_APP_SECRET:${SECRET}`,
    "--var", `PUBLIC_URL:${base}`,
    "--var", "BENCH_ENDPOINTS:on",
  ]);
  await waitFor(`${base}/api/health`);

  // 1. The engine in workerd.
  await timed(`${base}/api/dev/bench/engine?blocks=200&iterations=1`); // warm up
  const zero = [];
  const full = [];
  let steps = 0;
  for (let i = 0; i < 5; i++) {
    zero.push((await timed(`${base}/api/dev/bench/engine?blocks=200&iterations=0`)).ms);
    const run = await timed(`${base}/api/dev/bench/engine?blocks=200&iterations=${ITERATIONS}`);
    full.push(run.ms);
    steps = run.body.steps;
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const engineMs = Math.max(0.001, median(full) - median(zero));
  const stepsPerSecond = steps / (engineMs / 1000);

  // 2. Inbound message → first bot reply through the whole local stack.
  const json = (method, path, token, body) =>
    fetch(`${base}${path}`, {
      method,
      headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (r) => {
      const text = await r.text();
      if (!r.ok) throw new Error(`${method} ${path} → ${r.status} ${text}`);
      return text ? JSON.parse(text) : null;
    });
  const { token } = await json("POST", "/api/register", null, { name: "Bench Bot", email: `bench.flows.${Date.now()}@example.com`, phone: "+5511988880000", password: "bench-password", companyName: "Bench Flows" });
  const phoneNumberId = "2345678901234";
  // Creating a Cloud API connection proves the token at the Graph API (the stand-in) first.
  meta.addNumber({ phoneNumberId, displayPhoneNumber: "+1 555-010-0000", verifiedName: "Bench", qualityRating: "GREEN", tokens: ["EAAG-bench-access-token-0000"] });
  const connection = await json("POST", "/api/connections", token, { channel: "whatsapp-cloud", name: "Bench", phoneNumberId, accessToken: "EAAG-bench-access-token-0000" });
  const flow = await json("POST", "/api/flows", token, { name: "Boas-vindas", type: "default" });
  const draft = {
    version: 1,
    nodes: [
      { id: "start", type: "start", position: { x: 0, y: 0 }, data: {} },
      { id: "hello", type: "text", position: { x: 0, y: 120 }, data: { message: "Olá, {{first_name}}! Como posso ajudar?" } },
    ],
    edges: [{ id: "e1", source: "start", sourceHandle: "next", target: "hello" }],
  };
  await json("PUT", `/api/flows/${flow.id}`, token, { draft });
  await json("POST", `/api/flows/${flow.id}/publish`, token);
  await json("PUT", "/api/companies/default-flows", token, { channelId: connection.id, defaultFlowId: flow.id });

  const started = new Map();
  let failures = 0;
  const jobs = Array.from({ length: MESSAGES }, (_, i) => `55119${String(i).padStart(8, "0")}`);
  const t0 = performance.now();
  const deliver = async (from) => {
    const raw = JSON.stringify({
      object: "whatsapp_business_account",
      entry: [{ id: "WABA", changes: [{ field: "messages", value: {
        messaging_product: "whatsapp",
        metadata: { display_phone_number: "15550000000", phone_number_id: phoneNumberId },
        contacts: [{ profile: { name: `Contato ${from.slice(-4)}` }, wa_id: from }],
        messages: [{ from, id: `wamid.flows.${from}`, timestamp: String(Math.floor(Date.now() / 1000)), type: "text", text: { body: "Oi" } }],
      } }] }],
    });
    started.set(from, performance.now());
    const res = await fetch(`${base}/api/channels/whatsapp/webhook`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Hub-Signature-256": metaSignature(SECRET, raw) },
      body: raw,
    });
    await res.arrayBuffer();
    if (res.status !== 200) failures++;
  };
  await fetch(`${base}/api/dev/bench/trace?reset=1`);
  let stopProfile = PROFILE && !PROFILE_SERIAL ? await startCpuProfile(inspectorPort) : null;
  await pool(jobs, CONCURRENCY, deliver);
  const deadline = Date.now() + 30_000;
  while (replies.size < MESSAGES - failures && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const elapsed = (performance.now() - t0) / 1000;
  const latencies = jobs.flatMap((from) => (replies.has(from) ? [replies.get(from) - started.get(from)] : [])).sort((a, b) => a - b);
  let profile = stopProfile ? await stopProfile() : null;
  // BENCH_PROFILE_OUT=<dir>: the raw profile and the bundle it refers to are kept there (for a call tree).
  const keepProfile = () => {
    if (!profile || !process.env.BENCH_PROFILE_OUT) return;
    mkdirSync(process.env.BENCH_PROFILE_OUT, { recursive: true });
    writeFileSync(join(process.env.BENCH_PROFILE_OUT, "flows.cpuprofile"), JSON.stringify(profile));
    writeFileSync(join(process.env.BENCH_PROFILE_OUT, "index.js"), readFileSync(bundle[0]));
  };
  keepProfile();
  const concurrentStages = await traceOf(`concurrency ${CONCURRENCY}`);

  // Concurrency 1: new contacts one at a time, each reply awaited before the next webhook.
  await quiet();
  const serialJobs = Array.from({ length: SERIAL }, (_, i) => `55219${String(i).padStart(8, "0")}`);
  if (PROFILE_SERIAL) stopProfile = await startCpuProfile(inspectorPort);
  for (const from of serialJobs) {
    await deliver(from);
    const until = Date.now() + 5_000;
    while (!replies.has(from) && Date.now() < until) await new Promise((r) => setTimeout(r, 1));
  }
  if (PROFILE_SERIAL) {
    profile = await stopProfile();
    keepProfile();
  }
  const serial = serialJobs.flatMap((from) => (replies.has(from) ? [replies.get(from) - started.get(from)] : [])).sort((a, b) => a - b);
  const serialStages = await traceOf("concurrency 1");
  leasesArmed();

  // Each floor below runs at the same concurrency (one new pair of objects per contact, as the
  // replies have), then one at a time; `time(key, to)` answers one request's latency in ms. Each
  // floor's keys start with its own letters and its recipients with its own digit (the stand-in's
  // first request to a recipient is the one timed).
  const floor = async (time, [concurrentKey, serialKey], digit, armsLeases) => {
    const concurrent = [];
    await quiet();
    await afterLeases();
    await alarmsFired();
    const began = performance.now();
    await pool(jobs, CONCURRENCY, async (from) => concurrent.push(await time(`${concurrentKey}${from}`, `${digit}${from}`)));
    const seconds = (performance.now() - began) / 1000;
    const one = [];
    await quiet();
    for (const from of serialJobs) one.push(await time(`${serialKey}${from}`, `${digit}${from}`));
    const alarms = await alarmsFired();
    if (armsLeases) leasesArmed();
    return { latencies: concurrent.sort((a, b) => a - b), elapsed: seconds, serial: one.sort((a, b) => a - b), alarms: alarms ? `; ${alarms} lease alarms of earlier sends fired during it` : "" };
  };
  // 3. The platform's floor, same run: the skeleton.
  const skeleton = async (key) => {
    const t = performance.now();
    const res = await fetch(`${base}/api/dev/bench/skeleton?key=${key}`, { method: "POST" });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`skeleton → ${res.status}`);
    return performance.now() - t;
  };
  const { latencies: skeletonLatencies, elapsed: skeletonElapsed, serial: skeletonSerial, alarms: skeletonAlarms } = await floor(skeleton, ["f", "s"], 0);
  // 4. The floor of a reply, same run: the skeleton whose object B then sends one text through the
  //    Graph API stand-in (the request a reply ends with), timed like the replies: from the POST to
  //    the stand-in receiving the send (`reply`: "1" or "min", the reply floors 5 and 6 below, whose
  //    send may follow the answer, as the product's does).
  const sendSkeleton = async (key, to, reply = "0") => {
    const t = performance.now();
    const res = await fetch(`${base}/api/dev/bench/skeleton?key=${key}&phoneNumberId=${phoneNumberId}&token=EAAG-bench-access-token-0000&to=${to}&reply=${reply}`, { method: "POST" });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`skeleton with send (reply=${reply}) → ${res.status}`);
    const until = Date.now() + 5_000;
    while (!replies.has(to) && Date.now() < until) await new Promise((r) => setTimeout(r, 1));
    if (!replies.has(to)) throw new Error(`skeleton with send (reply=${reply}): the stand-in got nothing for ${to}`);
    return replies.get(to) - t;
  };
  const { latencies: sendLatencies, elapsed: sendElapsed, serial: sendSerial, alarms: sendAlarms } = await floor(sendSkeleton, ["r", "q"], 7);
  // 5. The reply floor, same run: the two objects make every platform operation of a new contact's
  //    message and its bot's reply (D1 batches, storage writes and transactions, the durable mark
  //    before the send, the hub calls; BenchHop.replyHop).
  const { latencies: floorLatencies, elapsed: floorElapsed, serial: floorSerial, alarms: floorAlarms } = await floor((key, to) => sendSkeleton(key, to, "1"), ["g", "h"], 6, true);
  // 6. The fewest operations that keep the same guarantees (BenchHop.replyMin: one object, three D1
  //    round trips, one durable commit before the send, one hub call).
  const { latencies: minLatencies, elapsed: minElapsed, serial: minSerial, alarms: minAlarms } = await floor((key, to) => sendSkeleton(key, to, "min"), ["k", "l"], 3, true);
  const p = (xs, n) => percentile(xs, n);

  console.log(`
flows benchmark
  engine (workerd):   ${steps} block steps (200-block flow × ${ITERATIONS}) in ${engineMs.toFixed(1)} ms → ${Math.round(stepsPerSecond).toLocaleString("en-US")} steps/s
  inbound → bot reply: ${latencies.length}/${MESSAGES} answered (${failures} non-200) in ${elapsed.toFixed(1)} s, concurrency ${CONCURRENCY}
                       p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms
  concurrency 1:       ${serial.length}/${SERIAL} answered, p50 ${percentile(serial, 50).toFixed(1)} ms, p95 ${percentile(serial, 95).toFixed(1)} ms (target p95 ≤ 40 ms; concurrency ${CONCURRENCY} target p50 ≤ 250 ms)
  skeleton (floor):    ${MESSAGES} at concurrency ${CONCURRENCY} in ${skeletonElapsed.toFixed(1)} s (${(MESSAGES / skeletonElapsed).toFixed(1)}/s vs replies ${(latencies.length / elapsed).toFixed(1)}/s), p50 ${p(skeletonLatencies, 50).toFixed(1)} ms, p95 ${p(skeletonLatencies, 95).toFixed(1)} ms; one at a time p50 ${p(skeletonSerial, 50).toFixed(1)} ms, p95 ${p(skeletonSerial, 95).toFixed(1)} ms${skeletonAlarms}
  ratio to skeleton:   concurrency ${CONCURRENCY} p50 reply / skeleton p50 = ${(p(latencies, 50) / p(skeletonLatencies, 50)).toFixed(1)}; concurrency 1 p95 reply / skeleton p95 = ${(p(serial, 95) / p(skeletonSerial, 95)).toFixed(1)}
  skeleton + send:     (the floor of a reply: the skeleton, then one Graph API send to the stand-in) ${MESSAGES} at concurrency ${CONCURRENCY} in ${sendElapsed.toFixed(1)} s (${(MESSAGES / sendElapsed).toFixed(1)}/s), p50 ${p(sendLatencies, 50).toFixed(1)} ms, p95 ${p(sendLatencies, 95).toFixed(1)} ms; one at a time p50 ${p(sendSerial, 50).toFixed(1)} ms, p95 ${p(sendSerial, 95).toFixed(1)} ms${sendAlarms}
  ratio to it:         concurrency ${CONCURRENCY} p50 reply / its p50 = ${(p(latencies, 50) / p(sendLatencies, 50)).toFixed(1)}; concurrency 1 p95 reply / its p95 = ${(p(serial, 95) / p(sendSerial, 95)).toFixed(1)}
  reply floor:         (the platform operations of a new contact's reply, nothing of the product's own work) ${MESSAGES} at concurrency ${CONCURRENCY} in ${floorElapsed.toFixed(1)} s (${(MESSAGES / floorElapsed).toFixed(1)}/s), p50 ${p(floorLatencies, 50).toFixed(1)} ms, p95 ${p(floorLatencies, 95).toFixed(1)} ms; one at a time p50 ${p(floorSerial, 50).toFixed(1)} ms, p95 ${p(floorSerial, 95).toFixed(1)} ms${floorAlarms}
  ratio to it:         replies per second / its = ${(latencies.length / elapsed / (MESSAGES / floorElapsed)).toFixed(2)}; concurrency ${CONCURRENCY} p50 reply / its p50 = ${(p(latencies, 50) / p(floorLatencies, 50)).toFixed(1)}; concurrency 1 p95 reply / its p95 = ${(p(serial, 95) / p(floorSerial, 95)).toFixed(1)}
  fewest operations:   (one object, three D1 round trips, one durable commit before the send, one hub call) ${MESSAGES} at concurrency ${CONCURRENCY} in ${minElapsed.toFixed(1)} s (${(MESSAGES / minElapsed).toFixed(1)}/s), p50 ${p(minLatencies, 50).toFixed(1)} ms, p95 ${p(minLatencies, 95).toFixed(1)} ms; one at a time p50 ${p(minSerial, 50).toFixed(1)} ms, p95 ${p(minSerial, 95).toFixed(1)} ms${minAlarms}${concurrentStages}${serialStages}
${profile ? summariseProfile(profile, bundle[0]).join("\n") : ""}`);
} finally {
  await heldPorts.release();
  server?.kill("SIGTERM");
  await meta.close();
  if (config) rmSync(config, { force: true });
  rmSync(state, { recursive: true, force: true });
}
process.exit(0);
