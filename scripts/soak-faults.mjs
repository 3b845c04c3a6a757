// `npm run soak:faults`: a figure, not a test (issue 17). Kill-and-redeliver soak of the main job.
//
// Starts the Graph API stand-in (refusing SOAK_SEND_FAIL of the sends with Meta's transient error)
// and the product (`wrangler dev` on a prebuilt bundle and a frozen copy of wrangler.toml, fresh
// local state in a temp folder, the fault switch FAULTS=SOAK_FAULTS on), registers an owner with a WhatsApp Cloud API connection
// whose published default flow answers every message exactly once:
//
//   start → text "welcome {{first_name}}" → receive (saved into the field `soak_msg`)
//                                              ↑ answered ↓
//                                         text "echo {{soak_msg}}"
//
// so the first message of a contact is answered "welcome …" and every later one "echo <its body>":
// the expected replies are exactly N, each one naming its inbound message. It then delivers
// SOAK_MESSAGES signed webhooks across SOAK_CONTACTS contacts (SOAK_CONCURRENCY at once; a contact's
// messages one after another, each with its own timestamp a second apart) through a client that
// redelivers every non-2xx and every connection error like Meta (exponential backoff with jitter,
// bounded), while killing workerd with SIGKILL SOAK_KILLS times at random points of the delivery
// and restarting it on the same persisted state. After the last delivery it waits (bounded by
// SOAK_DRAIN_MS) for every expected reply to reach the stand-in, every ContactSession outbox to
// empty and every TicketRoom send queue to empty, then prints: messages stored vs N, duplicates, order violations within a ticket, bot replies
// vs expected, sends performed twice, and the time to drain; then the attempt reasons of every bot
// message left `failed` or `pending` (D1's error details, the TicketRoom's queued `sends` rows). Only loopback traffic; every loop is
// bounded in count and time; the script stops by itself.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundleWorker, capture, must, pool, reservePorts, root, verifyFromOutbox, waitFor, wranglerEnv } from "./lib.mjs";
import { metaSignature, startMetaStandIn } from "../standins/meta-graph.ts";

const N = Number(process.env.SOAK_MESSAGES ?? 5000);
const CONTACTS = Number(process.env.SOAK_CONTACTS ?? 200);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 20);
const KILLS = Number(process.env.SOAK_KILLS ?? 3);
const FAULTS = process.env.SOAK_FAULTS ?? "effect:0.1,alarm:0.05,send:0.1,queue:0.1";
const SEND_FAIL = Number(process.env.SOAK_SEND_FAIL ?? 0.1);
const DRAIN_MS = Number(process.env.SOAK_DRAIN_MS ?? 300_000);
/** When set, wrangler's output (log level SOAK_LOG_LEVEL, default error) goes to this file instead of the terminal. */
const LOG = process.env.SOAK_LOG ? openSync(process.env.SOAK_LOG, "a") : null;
const LOG_LEVEL = process.env.SOAK_LOG_LEVEL ?? "error";
/** A webhook is given up after this many attempts (Meta keeps trying for days; we cannot). */
const MAX_ATTEMPTS = 40;
const SECRET = "soak-app-secret";
const PHONE_NUMBER_ID = "3456789012345";
const TOKEN = "EAAG-soak-access-token-0000";
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

if (!(N > 0 && CONTACTS > 0 && CONTACTS <= N && CONCURRENCY > 0)) throw new Error("SOAK_MESSAGES ≥ SOAK_CONTACTS > 0 and SOAK_CONCURRENCY > 0 are required");

// ------------------------------------------------------------------------------------------------
// The Graph API stand-in: successful sends by "to|text" (each must appear once), refused ones counted.
// ------------------------------------------------------------------------------------------------
const sends = new Map(); // "to|body" → times (ms, this script's clock) of the successful sends
let refusedSends = 0;
let lastSendAt = 0;
// The server's port, held until just before wrangler starts.
const heldPorts = await reservePorts(1);
const [port] = heldPorts.ports;
const base = `http://127.0.0.1:${port}`;
const meta = await startMetaStandIn({
  keepAlive: true,
  sendFailRate: SEND_FAIL,
  // Like Meta: every accepted send is reported by a signed `sent` status webhook naming our message
  // (biz_opaque_callback_data), redelivered while the product is down.
  statusWebhook: { url: `${base}/api/channels/whatsapp/webhook`, appSecret: SECRET },
  onRequest: (record) => {
    const body = record.body && typeof record.body === "object" ? record.body : null;
    if (record.method !== "POST" || !body || body.status === "read" || typeof body.to !== "string") return;
    // The stand-in decides after onRequest; read the outcome once the answer is set.
    queueMicrotask(() => {
      lastSendAt = Date.now();
      if (!record.responseId) return void refusedSends++;
      const key = `${body.to}|${body.text?.body ?? JSON.stringify(body)}`;
      sends.set(key, [...(sends.get(key) ?? []), performance.now()]);
    });
  },
});

const state = mkdtempSync(join(tmpdir(), "conversa-soak-"));
mkdirSync(join(state, "tmp"));

// ------------------------------------------------------------------------------------------------
// The product, in its own process group so that it can be killed as a whole and restarted.
// ------------------------------------------------------------------------------------------------
let server = null;
let serverArgs = [];
/** When the delivery started (performance.now()); times in the figures count from it. */
let tDeliver = 0;
const restarts = [];

function startServer() {
  server = spawn("wrangler", ["dev", "--port", String(port), "--ip", "127.0.0.1", ...serverArgs], {
    cwd: root,
    stdio: ["ignore", LOG ?? "ignore", LOG ?? "inherit"],
    // Its temporary files under the state, removed with it (scripts/lib.mjs `startWrangler`).
    env: { ...process.env, ...wranglerEnv, TMPDIR: join(state, "tmp") },
    detached: true,
  });
  server.exited = new Promise((resolve) => server.on("exit", resolve));
}

/** Pids of the processes under `pid` (from /proc), with their names. */
function descendants(pid) {
  const children = new Map();
  for (const entry of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), { pid: Number(entry), name }]);
    } catch {
      // the process went away
    }
  }
  const out = [];
  const walk = (p) => {
    for (const child of children.get(p) ?? []) {
      out.push(child);
      walk(child.pid);
    }
  };
  walk(pid);
  return out;
}

/** SIGKILLs workerd first (the runtime holding the state), then wrangler's whole process group. */
async function killServer() {
  if (!server) return 0;
  const workerds = descendants(server.pid).filter((p) => p.name.startsWith("workerd"));
  for (const p of workerds) {
    try {
      process.kill(p.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  try {
    process.kill(-server.pid, "SIGKILL");
  } catch {
    // already gone
  }
  await Promise.race([server.exited, sleep(10_000)]);
  server = null;
  return workerds.length;
}

async function restart(reason) {
  const t0 = performance.now();
  const killed = await killServer();
  startServer();
  await waitFor(`${base}/api/health`, 180_000);
  restarts.push({ reason, workerds: killed, at: t0, downMs: performance.now() - t0 });
  console.log(`  [soak] ${reason}: SIGKILLed ${killed} workerd process(es), back after ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

// ------------------------------------------------------------------------------------------------
// Reading the state: D1 through wrangler, the ContactSession outboxes from their SQLite files.
// ------------------------------------------------------------------------------------------------
async function d1(sql) {
  const out = await capture("wrangler", ["d1", "execute", "DB", "--local", "--json", "--persist-to", state, "--command", sql], { env: wranglerEnv });
  return JSON.parse(out.slice(out.indexOf("[")))[0]?.results ?? [];
}

let sqlite = null;
try {
  sqlite = await import("node:sqlite");
} catch {
  sqlite = null;
}

/** Items left in the ContactSession outboxes and armed timers, or null when they cannot be read. */
function outboxes() {
  if (!sqlite) return null;
  const dir = join(state, "v3", "do");
  if (!existsSync(dir)) return null;
  const folder = readdirSync(dir).find((d) => d.endsWith("-ContactSession"));
  if (!folder) return { items: 0, failing: 0, timers: 0, objects: 0, givenUp: [] };
  /** Effects given up after their attempts (the runs' `effect_failed` warnings): a reply never stored. */
  const givenUp = [];
  let items = 0;
  let failing = 0;
  let timers = 0;
  let objects = 0;
  for (const file of readdirSync(join(dir, folder)).filter((f) => f.endsWith(".sqlite"))) {
    let db;
    try {
      db = new sqlite.DatabaseSync(join(dir, folder, file), { readOnly: true });
      objects++;
      items += Number(db.prepare("SELECT COUNT(*) AS n FROM outbox").get().n);
      failing += Number(db.prepare("SELECT COUNT(*) AS n FROM outbox WHERE attempts > 0").get().n);
      timers += Number(db.prepare("SELECT COUNT(*) AS n FROM timers").get().n);
      for (const run of db.prepare("SELECT warnings FROM runs WHERE warnings IS NOT NULL").all()) {
        for (const w of JSON.parse(run.warnings)) if (w.code === "effect_failed") givenUp.push(w.message);
      }
    } catch {
      // a table not created yet, or a file being written: counted next time
    } finally {
      db?.close();
    }
  }
  return { items, failing, timers, objects, givenUp };
}

/**
 * The sends still queued in the TicketRooms (their `sends` tables: nothing left to send when empty),
 * with each one's attempts and reasons, or null when they cannot be read.
 */
function roomQueues() {
  if (!sqlite) return null;
  const dir = join(state, "v3", "do");
  if (!existsSync(dir)) return null;
  const folder = readdirSync(dir).find((d) => d.endsWith("-TicketRoom"));
  if (!folder) return { sends: [], objects: 0 };
  const sends = [];
  let objects = 0;
  for (const file of readdirSync(join(dir, folder)).filter((f) => f.endsWith(".sqlite"))) {
    let db;
    try {
      db = new sqlite.DatabaseSync(join(dir, folder, file), { readOnly: true });
      objects++;
      const cols = new Set(db.prepare("PRAGMA table_info(sends)").all().map((c) => c.name));
      const pick = (c) => (cols.has(c) ? c : `NULL AS ${c}`);
      const rows = db.prepare(`SELECT message_id, attempts, next_at, external_id, in_flight_at, doubt_until, ${pick("provider_failures")}, ${pick("own_since")}, ${pick("reasons")} FROM sends`).all();
      sends.push(...rows.map((r) => ({ ...r })));
    } catch {
      // a table not created yet, or a file being written: counted next time
    } finally {
      db?.close();
    }
  }
  return { sends, objects };
}

/** One queued send's reasons as a line: "attempt n code (provider|ours)" for each failed attempt. */
function reasonsLine(reasons) {
  let list = [];
  try {
    list = JSON.parse(reasons ?? "[]");
  } catch {
    list = [];
  }
  return list.map((r) => `#${r.n} ${r.code} (${r.provider ? "provider" : "ours"})`).join(", ") || "no failed attempt";
}

// ------------------------------------------------------------------------------------------------
// The soak.
// ------------------------------------------------------------------------------------------------
const contactOf = (c) => `55119${String(c).padStart(8, "0")}`;
const bodyOf = (c, m) => `soak ${c}-${m}`;
const deliveries = { attempts: 0, redelivered: 0, givenUp: 0, byAnswer: new Map() };
let exitCode = 0;
try {
  await must("wrangler", ["d1", "migrations", "apply", "DB", "--local", "--persist-to", state], { env: { ...wranglerEnv, WRANGLER_LOG: "error" } });
  // wrangler dev reloads the worker when its config changes, and other work edits wrangler.toml:
  // the soak runs on a frozen copy (paths made absolute; a fresh JWT_SECRET instead of .dev.vars).
  const frozen = join(state, "wrangler.toml");
  writeFileSync(
    frozen,
    readFileSync(`${root}wrangler.toml`, "utf8")
      .replace(/^main = "(.*)"$/m, (_, path) => `main = "${root}${path}"`)
      .replace(/^directory = "(.*)"$/m, (_, path) => `directory = "${root}${path}"`)
      .replace(/^migrations_dir = "(.*)"$/m, (_, path) => `migrations_dir = "${root}${path}"`),
  );
  const bundled = await bundleWorker(join(state, "build"));
  bundled[bundled.indexOf("--config") + 1] = frozen;
  serverArgs = [
    ...bundled,
    "--var", `JWT_SECRET:${randomBytes(32).toString("base64url")}`,
    "--persist-to", state, "--log-level", LOG_LEVEL,
    "--var", `WHATSAPP_GRAPH_URL:${meta.graphUrl}`,
    "--var", `WHATSAPP_APP_SECRET:${SECRET}`,
    "--var", `PUBLIC_URL:${base}`,
    "--var", "MAIL_OUTBOX:on",
    // The fault switch is honoured only in a local or test environment (worker/lib/faults.ts).
    "--var", "ENVIRONMENT:local",
    "--var", `FAULTS:${FAULTS}`,
  ];
  await heldPorts.release();
  startServer();
  await waitFor(`${base}/api/health`, 180_000);

  // English mails: the verification code is read from the dev outbox by its English wording.
  const json = async (method, path, token, body) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { "Content-Type": "application/json", "Accept-Language": "en", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
  const email = `soak.${Date.now()}@example.com`;
  const { token } = await json("POST", "/api/register", null, { name: "Soak Owner", email, phone: "+5511977770000", password: "soak-password", companyName: "Soak Co" });
  await verifyFromOutbox(base, token, email, state);
  meta.addNumber({ phoneNumberId: PHONE_NUMBER_ID, displayPhoneNumber: "+1 555-010-0000", verifiedName: "Soak", qualityRating: "GREEN", tokens: [TOKEN] });
  const connection = await json("POST", "/api/connections", token, { channel: "whatsapp-cloud", name: "Soak", phoneNumberId: PHONE_NUMBER_ID, accessToken: TOKEN });
  const field = await json("POST", "/api/custom-fields", token, { name: "Soak msg", type: "text", kind: "user" });
  const flow = await json("POST", "/api/flows", token, { name: "Soak echo", type: "default" });
  await json("PUT", `/api/flows/${flow.id}`, token, {
    draft: {
      version: 1,
      nodes: [
        { id: "start", type: "start", position: { x: 0, y: 0 }, data: {} },
        { id: "welcome", type: "text", position: { x: 0, y: 120 }, data: { message: "welcome {{first_name}}" } },
        { id: "ask", type: "receive", position: { x: 0, y: 240 }, data: { message: "", fieldKey: field.key, responseTimeSeconds: null } },
        { id: "echo", type: "text", position: { x: 0, y: 360 }, data: { message: `echo {{${field.key}}}` } },
      ],
      edges: [
        { id: "e1", source: "start", sourceHandle: "next", target: "welcome" },
        { id: "e2", source: "welcome", sourceHandle: "next", target: "ask" },
        { id: "e3", source: "ask", sourceHandle: "answered", target: "echo" },
        { id: "e4", source: "echo", sourceHandle: "next", target: "ask" },
      ],
    },
  });
  await json("POST", `/api/flows/${flow.id}/publish`, token);
  await json("PUT", "/api/companies/default-flows", token, { channelId: connection.id, defaultFlowId: flow.id });

  // Contact c sends messages m = 0, 1, … (N spread as evenly as possible); timestamps a second apart
  // from a day ago (the product clamps only future clocks).
  const perContact = Array.from({ length: CONTACTS }, (_, c) => Math.floor(N / CONTACTS) + (c < N % CONTACTS ? 1 : 0));
  const t0Seconds = Math.floor(Date.now() / 1000) - 86_400;
  const jobs = [];
  for (let m = 0; m < Math.max(...perContact); m++) for (let c = 0; c < CONTACTS; c++) if (m < perContact[c]) jobs.push({ c, m });
  const expected = new Set();
  for (const { c, m } of jobs) expected.add(`${contactOf(c)}|${m === 0 ? `welcome Soak${c}` : `echo ${bodyOf(c, m)}`}`);

  /** Delivers one webhook until a 2xx, like Meta: backoff 250 ms × 2^attempt (≤ 8 s) with jitter. */
  async function deliver(c, m) {
    const from = contactOf(c);
    const raw = JSON.stringify({
      object: "whatsapp_business_account",
      entry: [{ id: "WABA", changes: [{ field: "messages", value: {
        messaging_product: "whatsapp",
        metadata: { display_phone_number: "15550100000", phone_number_id: PHONE_NUMBER_ID },
        contacts: [{ profile: { name: `Soak${c} Contact` }, wa_id: from }],
        messages: [{ from, id: `wamid.soak.${c}.${m}`, timestamp: String(t0Seconds + m), type: "text", text: { body: bodyOf(c, m) } }],
      } }] }],
    });
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (attempt > 0) {
        deliveries.redelivered++;
        await sleep(Math.min(8000, 250 * 2 ** Math.min(attempt - 1, 5)) * (0.5 + Math.random()));
      }
      deliveries.attempts++;
      let answer;
      try {
        const res = await fetch(`${base}/api/channels/whatsapp/webhook`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-Hub-Signature-256": metaSignature(SECRET, raw) },
          body: raw,
          signal: AbortSignal.timeout(30_000),
        });
        const text = await res.text();
        if (res.status >= 200 && res.status < 300) return true;
        answer = `HTTP ${res.status} ${text.replace(/\s+/g, " ").slice(0, 100)}`;
      } catch (error) {
        answer = error?.name === "TimeoutError" ? "timeout (30 s)" : "connection error";
      }
      deliveries.byAnswer.set(answer, (deliveries.byAnswer.get(answer) ?? 0) + 1);
    }
    deliveries.givenUp++;
    return false;
  }

  // The kills: at random points of the delivery (by webhooks answered), sorted.
  const killAt = Array.from({ length: KILLS }, () => Math.floor(jobs.length * (0.1 + 0.8 * Math.random()))).sort((a, b) => a - b);
  let answered = 0;
  let delivering = true;
  const killer = (async () => {
    for (const [i, at] of killAt.entries()) {
      while (delivering && answered < at) await sleep(50);
      if (!delivering) break;
      await sleep(Math.random() * 1000);
      await restart(`kill ${i + 1} of ${KILLS} after ${answered} webhooks answered`);
    }
  })();

  console.log(`  [soak] delivering ${jobs.length} webhooks across ${CONTACTS} contacts, concurrency ${CONCURRENCY}, FAULTS=${FAULTS}, sends refused ${SEND_FAIL * 100}%`);
  const chains = new Map();
  tDeliver = performance.now();
  const progress = setInterval(() => console.log(`  [soak] ${answered}/${jobs.length} answered, ${deliveries.redelivered} redeliveries, ${[...sends.values()].length} replies seen`), 15_000);
  await pool(jobs, CONCURRENCY, async ({ c, m }) => {
    // A contact's next message waits for the previous one to be accepted (as it is typed after it).
    const previous = chains.get(c) ?? Promise.resolve();
    const mine = previous.then(() => deliver(c, m));
    chains.set(c, mine);
    await mine;
    answered++;
  });
  delivering = false;
  await killer;
  clearInterval(progress);
  const deliverSeconds = (performance.now() - tDeliver) / 1000;

  // Drain: every expected reply out, every outbox and every room's send queue empty (bounded).
  const tDrain = performance.now();
  let box = outboxes();
  let rooms = roomQueues();
  const missingReplies = () => [...expected].filter((k) => !sends.has(k)).length;
  const settled = () => missingReplies() === 0 && (!box || (box.items === 0 && box.timers === 0)) && (!rooms || rooms.sends.length === 0);
  while (performance.now() - tDrain < DRAIN_MS) {
    box = outboxes();
    rooms = roomQueues();
    if (settled()) break;
    await sleep(1000);
  }
  const drained = settled();
  const drainSeconds = (performance.now() - tDrain) / 1000;
  // Sends that were still coming in (a late duplicate) have a few seconds to show up.
  const quietSince = Date.now();
  while (Date.now() - lastSendAt < 3000 && Date.now() - quietSince < 15_000) await sleep(500);

  // The figures.
  const inbound = await d1("SELECT external_id, body, ticket_id, sent_at, seq FROM messages WHERE direction = 'in'");
  const outbound = await d1("SELECT id, ticket_id, body, status, error_code, error_message, error_details, idempotency_key FROM messages WHERE direction = 'out'");
  const tickets = await d1("SELECT contact_id, COUNT(*) AS n FROM tickets GROUP BY contact_id");
  const wamids = new Set(inbound.map((r) => r.external_id));
  const expectedWamids = new Set(jobs.map(({ c, m }) => `wamid.soak.${c}.${m}`));
  const storedOfN = [...expectedWamids].filter((w) => wamids.has(w)).length;
  const duplicateWamids = inbound.length - wamids.size;
  const duplicateBodies = inbound.length - new Set(inbound.map((r) => r.body)).size;
  const byTicket = new Map();
  for (const row of inbound) byTicket.set(row.ticket_id, [...(byTicket.get(row.ticket_id) ?? []), row]);
  let orderViolations = 0;
  for (const rows of byTicket.values()) {
    rows.sort((a, b) => a.sent_at - b.sent_at || a.seq - b.seq);
    const ms = rows.map((r) => Number(/^wamid\.soak\.\d+\.(\d+)$/.exec(r.external_id)?.[1] ?? -1));
    for (let i = 1; i < ms.length; i++) if (ms[i] < ms[i - 1]) orderViolations++;
  }
  const ticketsPerContact = tickets.filter((t) => t.n > 1).length;
  const repliesOut = [...expected].filter((k) => sends.has(k)).length;
  const doubleSends = [...sends.entries()].filter(([, times]) => times.length > 1);
  const unexpectedSends = [...sends.keys()].filter((k) => !expected.has(k));
  // A double whose first send came less than 2 s before a kill and whose repeat came after it: the
  // provider accepted it but workerd died before the send was recorded.
  const atKill = doubleSends.filter(([, times]) => restarts.some((r) => times[0] <= r.at && r.at - times[0] < 2000 && times[1] > r.at)).length;
  const outStatus = new Map();
  for (const row of outbound) {
    const key = row.status + (row.error_code ? ` (${row.error_code})` : "");
    outStatus.set(key, (outStatus.get(key) ?? 0) + 1);
  }
  const outDupes = outbound.length - new Set(outbound.map((r) => `${r.ticket_id}|${r.body}`)).size;
  const ok = (cond) => (cond ? "ok" : "MISSED");
  const goal = storedOfN === jobs.length && duplicateWamids === 0 && duplicateBodies === 0 && orderViolations === 0 && doubleSends.length === 0 && repliesOut === expected.size;
  if (!goal) exitCode = 1;

  console.log(`
faults soak: ${jobs.length} webhooks across ${CONTACTS} contacts, concurrency ${CONCURRENCY}, ${restarts.length} SIGKILL + restarts, FAULTS=${FAULTS}, Graph stand-in refusing ${SEND_FAIL * 100}% of sends
  delivery:            ${deliverSeconds.toFixed(1)} s, ${deliveries.attempts} attempts (${deliveries.redelivered} redeliveries, ${deliveries.givenUp} given up after ${MAX_ATTEMPTS})${[...deliveries.byAnswer].map(([k, n]) => `\n                       ${n} × ${k}`).join("")}
  restarts:            ${restarts.map((r) => `at ${((r.at - tDeliver) / 1000).toFixed(1)} s, down ${(r.downMs / 1000).toFixed(1)} s`).join("; ") || "none"}
  stored messages:     ${storedOfN} of ${jobs.length} [${ok(storedOfN === jobs.length)}]
  duplicates:          ${duplicateWamids} wamids stored twice, ${duplicateBodies} customer texts stored twice [${ok(duplicateWamids === 0 && duplicateBodies === 0)}]
  order violations:    ${orderViolations} within ${byTicket.size} tickets (${ticketsPerContact} contacts with more than one ticket) [${ok(orderViolations === 0)}]
  bot replies:         ${repliesOut} of ${expected.size} expected out (${refusedSends} sends refused by the stand-in and retried; ${unexpectedSends.length} unexpected) [${ok(repliesOut === expected.size)}]
  sends twice:         ${doubleSends.length}${doubleSends.length ? ` (${atKill} first sent < 2 s before a kill and repeated after it)` : ""}${doubleSends.slice(0, 5).map(([k, times]) => `\n                       ${times.length} × ${k} (at ${times.map((t) => `${((t - tDeliver) / 1000).toFixed(1)} s`).join(", ")})`).join("")} [${ok(doubleSends.length === 0)}]
  stored bot messages: ${outbound.length} (${[...outStatus].map(([k, n]) => `${n} ${k}`).join(", ")}; ${outDupes} with the same text twice in a ticket)
  time to drain:       ${drained ? `${drainSeconds.toFixed(1)} s` : `not drained after ${drainSeconds.toFixed(0)} s`} after the last webhook was accepted${box ? ` (outbox items left ${box.items}, ${box.failing} of them failed before; timers ${box.timers}; ${box.objects} ContactSessions)` : " (outboxes not readable)"}${rooms ? ` (room sends left ${rooms.sends.length}; ${rooms.objects} TicketRooms)` : " (room queues not readable)"}
  goal:                ${goal ? "met" : "MISSED"}
`);
  if (box?.givenUp.length) {
    console.log(`  effects given up by ContactSessions (${box.givenUp.length}):`);
    for (const message of box.givenUp.slice(0, 10)) console.log(`    ${message.slice(0, 300)}`);
  }
  // Why every bot message left failed or pending failed its attempts.
  const queued = new Map((rooms?.sends ?? []).map((r) => [r.message_id, r]));
  const unsettled = outbound.filter((r) => r.status === "failed" || r.status === "pending");
  if (unsettled.length || queued.size) {
    console.log(`  attempt reasons of bot messages left failed or pending (${unsettled.length}; ${queued.size} still queued in a room):`);
    for (const row of unsettled.slice(0, 20)) {
      const q = queued.get(row.id);
      const where = q
        ? `queued: ${q.attempts} attempts (${q.provider_failures ?? "?"} provider answers), next in ${Math.max(0, Math.round((q.next_at - Date.now()) / 1000))} s${q.doubt_until ? ", in doubt" : ""}; ${reasonsLine(q.reasons)}`
        : `${row.error_code ?? ""} ${row.error_message ?? ""}${row.error_details ? ` — ${row.error_details}` : ""}`;
      console.log(`    ${row.status} "${row.body}": ${where}`);
    }
  }
  if (!goal) {
    const missingWamids = [...expectedWamids].filter((w) => !wamids.has(w));
    const missing = [...expected].filter((k) => !sends.has(k));
    if (missingWamids.length) console.log(`  missing messages (first 10): ${missingWamids.slice(0, 10).join(", ")}`);
    if (missing.length) console.log(`  missing replies (first 10): ${missing.slice(0, 10).join(", ")}`);
    if (unexpectedSends.length) console.log(`  unexpected sends (first 10): ${unexpectedSends.slice(0, 10).join(", ")}`);
  }
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  await heldPorts.release();
  await killServer();
  await meta.close();
  if (!process.env.SOAK_KEEP_STATE) rmSync(state, { recursive: true, force: true });
  else console.log(`  state kept in ${state}`);
}
process.exit(exitCode);
