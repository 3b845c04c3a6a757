// Shared helpers of the start, test, e2e and benchmark scripts: running commands, waiting for the
// server, free ports, concurrency and latency percentiles.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createServer } from "node:net";
import { randomBytes } from "node:crypto";
import { request as httpRequest } from "node:http";
import { crc32, deflateSync } from "node:zlib";

export const root = new URL("..", import.meta.url).pathname;

/** Runs a command (inheriting stdio) and resolves with its exit code. */
export function run(cmd, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: "inherit", cwd: root, env: { ...process.env, ...options.env } });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** Runs a command and throws when it fails. */
export async function must(cmd, args, options) {
  const code = await run(cmd, args, options);
  if (code !== 0) throw new Error(`${cmd} ${args.join(" ")} exited with ${code}`);
}

/** Runs a command and resolves with its standard output; throws (with its output) when it fails. */
export function capture(cmd, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"], cwd: root, env: { ...process.env, ...options.env } });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.on("data", (chunk) => (err += chunk));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(" ")} exited with ${code}\n${out}${err}`))));
  });
}

/** The code in a verification mail of any product language (kept equal to worker/lib/mail-texts.ts). */
const VERIFICATION_CODE_IN_MAIL = /(?:verification code is|código de verificação é|código de verificación es) (\d{6})/;

/**
 * The newest 6-digit verification code mailed to `email`, read from the local D1 dev outbox
 * (`mail_outbox`, kept only with MAIL_OUTBOX=on) through `wrangler d1 execute --local`, as a person
 * would read their mailbox. `persistTo` is the local state folder when it is not the default one.
 * Answers null when no such mail is there.
 */
export async function outboxVerificationCode(email, persistTo) {
  const quoted = `'${String(email).toLowerCase().replaceAll("'", "''")}'`;
  const out = await capture(
    "wrangler",
    [
      "d1", "execute", "DB", "--local", "--json",
      ...(persistTo ? ["--persist-to", persistTo] : []),
      "--command", `SELECT body_text FROM mail_outbox WHERE to_address = ${quoted} ORDER BY created_at DESC LIMIT 10`,
    ],
    { env: wranglerEnv },
  );
  const rows = JSON.parse(out.slice(out.indexOf("[")))[0]?.results ?? [];
  // Mails go out in the recipient's language (worker/lib/mail-texts.ts VERIFICATION_CODE_IN_MAIL).
  for (const row of rows) {
    const code = VERIFICATION_CODE_IN_MAIL.exec(row.body_text ?? "")?.[1];
    if (code) return code;
  }
  return null;
}

/**
 * Verifies the e-mail of `token`'s user with the code from the dev outbox (asking for a new code
 * when none is there); the code also activates the companies the user owns. Throws on failure.
 */
export async function verifyFromOutbox(baseUrl, token, email, persistTo) {
  const headers = { "Content-Type": "application/json", Authorization: `Bearer ${token}` };
  let code = await outboxVerificationCode(email, persistTo);
  if (!code) {
    const resend = await fetch(`${baseUrl}/api/me/verify-email/resend`, { method: "POST", headers });
    if (!resend.ok) throw new Error(`resending the verification code failed: ${resend.status} ${await resend.text()}`);
    code = await outboxVerificationCode(email, persistTo);
  }
  if (!code) throw new Error(`no verification code for ${email} in the dev outbox (is MAIL_OUTBOX=on?)`);
  const res = await fetch(`${baseUrl}/api/me/verify-email`, { method: "POST", headers, body: JSON.stringify({ code }) });
  if (!res.ok) throw new Error(`verifying ${email} failed: ${res.status} ${await res.text()}`);
}

/**
 * Environment for wrangler: no metrics, no interactive prompts, and no local trace collector.
 *
 * `wrangler dev` (4.156) turns on "local observability" unless `X_LOCAL_OBSERVABILITY` is false:
 * every invocation of the worker and of each Durable Object streams its trace (a span per D1 call,
 * storage call and RPC, with its attributes) to a collector worker that writes them to disk, on the
 * same workerd thread that serves the requests. Production runs no such collector (Workers traces
 * are opt-in, `[observability]`, and leave the request's thread). Measured on the inbound path it
 * took 10–12 % of the thread (`perf`: `TailStreamTarget::report`), a tax on every hop that a bare
 * endpoint pays once: the same tree stored 80.7 messages/s with it on, 145.7 and 96.7 with it off
 * (README, "The eleventh pass"). A run with it on also printed about 260 "trace-stream …
 * disconnected" errors. Off for `npm start`, the e2e run and the benchmarks;
 * `X_LOCAL_OBSERVABILITY=true` in the caller's environment turns it back on.
 */
export const wranglerEnv = { WRANGLER_SEND_METRICS: "false", CI: "true", NO_COLOR: "1", X_LOCAL_OBSERVABILITY: process.env.X_LOCAL_OBSERVABILITY ?? "false" };

/** Writes .dev.vars with a fresh random JWT_SECRET when it does not exist (never committed). */
export function ensureDevVars() {
  const path = `${root}.dev.vars`;
  if (existsSync(path)) return false;
  const template = readFileSync(`${root}.dev.vars.example`, "utf8");
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(path, template.replace(/^JWT_SECRET=.*$/m, `JWT_SECRET=${secret}`));
  return true;
}

/**
 * Starts `wrangler dev` on `port`; answers the child process. With `--persist-to <dir>` among
 * `extraArgs` (the fresh state of every benchmark and of the e2e runner; `npm start` passes none),
 * its temporary files (Miniflare's `miniflare-*` directories) go under `<dir>/tmp` too, so
 * removing the state removes them: a stopped `wrangler dev` leaves them behind, hundreds of MB a
 * run.
 */
export function startWrangler(port, extraArgs = []) {
  const persist = extraArgs.indexOf("--persist-to");
  const tmp = persist >= 0 && extraArgs[persist + 1] ? join(extraArgs[persist + 1], "tmp") : null;
  if (tmp) mkdirSync(tmp, { recursive: true });
  return spawn("wrangler", ["dev", "--port", String(port), "--ip", "127.0.0.1", ...extraArgs], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, ...wranglerEnv, ...(tmp ? { TMPDIR: tmp } : {}) },
    detached: false,
  });
}

/** Polls `url` until it answers 200 or `timeoutMs` passes. */
export async function waitFor(url, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** The demo owner the start script seeds (also printed in the README). */
export const DEMO = {
  name: "Demo Owner",
  email: "demo@conversa.local",
  password: "conversa-demo",
  phone: "+55 11 99999-0000",
  companyName: "Conversa Demo",
};

/**
 * Logs in as the demo owner, registering it first when it does not exist. The demo owner's e-mail
 * is verified (and so the demo company activated) with the code from the dev outbox, also for a
 * demo owner seeded before e-mail verification existed.
 */
export async function seedDemo(baseUrl) {
  const login = await fetch(`${baseUrl}/api/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: DEMO.email, password: DEMO.password }),
  });
  if (login.ok) {
    const { token } = await login.json();
    const me = await fetch(`${baseUrl}/api/me`, { headers: { Authorization: `Bearer ${token}` } });
    if (me.ok && (await me.json()).emailVerified === false) await verifyFromOutbox(baseUrl, token, DEMO.email);
    return "existing";
  }
  const reg = await fetch(`${baseUrl}/api/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Accept-Language": "pt-BR" },
    body: JSON.stringify(DEMO),
  });
  if (!reg.ok) throw new Error(`seeding the demo account failed: ${reg.status} ${await reg.text()}`);
  const { token } = await reg.json();
  await verifyFromOutbox(baseUrl, token, DEMO.email);
  await seedDemoData(baseUrl, token);
  return "created";
}

/** The demo franchise (issue 14) `npm start` seeds, and its administrator (also printed in the README). */
export const DEMO_FRANCHISE = {
  name: "Demo Franchise",
  hostname: "demo-franchise.localhost",
  primaryColor: "#7c3aed",
  admin: {
    name: "Demo Franchise Admin",
    email: "franchise@conversa.local",
    password: "conversa-franchise",
    phone: "+55 11 99999-0001",
    companyName: "Demo Franchise Client",
  },
};

/** A 64×64 PNG of one colour (`#rrggbb`): the demo franchise's logo, made without an image library. */
export function solidPng(hex, size = 64) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const row = Buffer.alloc(1 + size * 3);
  for (let x = 0; x < size; x++) row.set([r, g, b], 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: size }, () => row));
  const chunk = (type, data) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, "ascii");
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, "ascii"), data])) >>> 0, 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}

/**
 * Seeds the demo franchise through the API, as the platform administrator (the demo owner) and the
 * franchise's administrator would: the franchise with its colour, the hostname
 * demo-franchise.localhost, its administrator registered on that hostname (so their company, "Demo
 * Franchise Client", is the franchise's own company), added as administrator, and a logo and favicon
 * uploaded in the franchise settings. Idempotent: answers "existing" when the administrator can sign in.
 * Needs FRANCHISE_MODE on and the demo owner in PLATFORM_ADMINS. `persistTo`: the local state
 * folder when it is not the default one (for the dev outbox).
 */
export async function seedDemoFranchise(baseUrl, persistTo) {
  const json = async (method, path, { token, body, host } = {}) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers = { ...(payload ? { "Content-Type": "application/json" } : {}), ...(token ? { Authorization: `Bearer ${token}` } : {}) };
    const res = host ? await requestWithHost(baseUrl, host, method, `/api${path}`, headers, payload) : await fetch(`${baseUrl}/api${path}`, { method, headers, body: payload });
    const text = await res.text();
    if (!res.ok) throw new Error(`demo franchise: ${method} ${path} → ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
  const f = DEMO_FRANCHISE;
  const existing = await fetch(`${baseUrl}/api/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email: f.admin.email, password: f.admin.password }) });
  if (existing.ok) return "existing";
  const { token: owner } = await json("POST", "/login", { body: { email: DEMO.email, password: DEMO.password } });
  const franchise = await json("POST", "/admin/franchises", { token: owner, body: { name: f.name, primaryColor: f.primaryColor } });
  await json("POST", `/admin/franchises/${franchise.id}/hostnames`, { token: owner, body: { hostname: f.hostname } });
  const port = new URL(baseUrl).port;
  const { token: admin } = await json("POST", "/register", { host: `${f.hostname}${port ? `:${port}` : ""}`, body: f.admin });
  await verifyFromOutbox(baseUrl, admin, f.admin.email, persistTo);
  await json("POST", `/admin/franchises/${franchise.id}/admins`, { token: owner, body: { email: f.admin.email } });
  const form = new FormData();
  form.append("notInCompany", "Fale com a Demo Franchise para criar a sua empresa.");
  form.append("notPaid", "Sua fatura está em aberto: fale com a Demo Franchise.");
  form.append("logo", new File([solidPng(f.primaryColor)], "logo.png", { type: "image/png" }));
  form.append("favicon", new File([solidPng(f.primaryColor, 32)], "favicon.png", { type: "image/png" }));
  const put = await fetch(`${baseUrl}/api/franchise`, { method: "PUT", headers: { Authorization: `Bearer ${admin}` }, body: form });
  if (!put.ok) throw new Error(`demo franchise: PUT /franchise → ${put.status} ${await put.text()}`);
  return "created";
}

/**
 * An HTTP request to `baseUrl`'s server with another `Host` (a franchise's *.localhost hostname),
 * over node:http (fetch does not let a caller set Host). Answers a fetch-like Response.
 */
function requestWithHost(baseUrl, host, method, path, headers, body) {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname: url.hostname, port: url.port, method, path, headers: { ...headers, Host: host } }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 500 })));
    });
    req.on("error", reject);
    if (body) req.write(body);
    req.end();
  });
}

/**
 * Demo data of the demo company, made through the API like a person would: a sandbox connection to
 * pair (with greeting and farewell messages), tags, a custom field, a few contacts, CRM columns,
 * quick messages and an example bot (a draft, not the connection's default flow, so a message from
 * the sandbox phone opens a ticket as the README's walkthrough says).
 */
async function seedDemoData(baseUrl, token) {
  const call = async (method, path, body) => {
    const res = await fetch(`${baseUrl}/api${path}`, {
      method,
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`demo data: ${method} ${path} → ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
  await call("POST", "/connections", {
    channel: "sandbox",
    name: "Sandbox",
    greetingMessage: "Olá! Recebemos sua mensagem e já vamos te atender.",
    farewellMessage: "Obrigado pelo contato! Até a próxima.",
  });
  const vip = await call("POST", "/tags", { name: "VIP", color: "#dc2626" });
  const lead = await call("POST", "/tags", { name: "Lead", color: "#2563eb" });
  await call("POST", "/custom-fields", { name: "Cidade", type: "text", kind: "user" });
  const people = [
    ["Mariana Costa", "+55 11 98765-1001", [vip.id]],
    ["João Pereira", "+55 21 99876-2002", [lead.id]],
    ["Beatriz Almeida", "+55 31 98888-3003", [lead.id]],
    ["Rafael Souza", "+55 41 97777-4004", []],
  ];
  const contacts = [];
  for (const [name, phone, tags] of people) contacts.push(await call("POST", "/contacts", { name, phone, tags }));
  const columns = [];
  for (const name of ["Novo", "Em negociação", "Ganho"]) columns.push(await call("POST", "/crm/columns", { name }));
  await call("PUT", `/crm/contacts/${contacts[1].id}`, { columnId: columns[0].id });
  await call("PUT", `/crm/contacts/${contacts[2].id}`, { columnId: columns[1].id });
  await call("PUT", `/crm/contacts/${contacts[0].id}`, { columnId: columns[2].id });
  await call("POST", "/quick-messages", { name: "saudacao", text: "Olá, {{first_name}}! Como posso ajudar?" });
  await call("POST", "/quick-messages", { name: "horario", text: "Nosso horário de atendimento é de segunda a sexta, das 9h às 18h." });
  const flow = await call("POST", "/flows", { name: "Boas-vindas (exemplo)", type: "default" });
  await call("PUT", `/flows/${flow.id}`, {
    draft: {
      version: 1,
      nodes: [
        { id: "start", type: "start", position: { x: 0, y: 0 }, data: {} },
        { id: "hello", type: "text", position: { x: 320, y: 0 }, data: { message: "Olá, {{first_name}}! Eu sou o assistente virtual." } },
      ],
      edges: [{ id: "e1", source: "start", sourceHandle: "next", target: "hello" }],
    },
  });
}

/**
 * Bundles the worker once into `outdir` (wrangler deploy --dry-run) and answers the extra
 * `wrangler dev` arguments that serve that bundle as is: a benchmark must not be restarted by
 * someone editing a source file while it runs.
 */
export async function bundleWorker(outdir) {
  // On a fresh clone: wrangler.toml's assets directory must exist (the benchmarks serve no web app)
  // and the session key comes from .dev.vars, as `npm start` makes it.
  mkdirSync(`${root}dist/web`, { recursive: true });
  ensureDevVars();
  await must("wrangler", ["deploy", "--dry-run", "--outdir", outdir], { env: { ...wranglerEnv, WRANGLER_LOG: "error" } });
  return [`${outdir}/index.js`, "--no-bundle", "--config", `${root}wrangler.toml`];
}

/**
 * Holds a free loopback port until `release()` (a listening server on it), so the other processes a
 * runner starts meanwhile (the web build, `wrangler d1 migrations apply` with its own workerd
 * sockets, the stand-ins) cannot be handed the same port, as happened once to the e2e run
 * ("Address already in use" when wrangler dev started after the build). Answers
 * `{ port, release }`; `release()` resolves once the port is free again, just before its user binds it.
 */
export function reservePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      // Idempotent: a runner releases it before starting its server and again on its way out.
      resolve({ port, release: () => new Promise((done) => (srv.listening ? srv.close(() => done()) : done())) });
    });
    srv.on("error", reject);
  });
}

/**
 * Holds `count` free loopback ports at once (`reservePort`), for a benchmark's server and its
 * inspector: they stay held until just before `wrangler dev` starts, so nothing the runner starts
 * meanwhile (the migrations' workerd, the stand-ins) is handed them. Answers `{ ports, release }`;
 * `release()` frees them all and may be called again (once before the server starts, once on the
 * way out).
 */
export async function reservePorts(count) {
  const held = await Promise.all(Array.from({ length: count }, () => reservePort()));
  return { ports: held.map((h) => h.port), release: () => Promise.all(held.map((h) => h.release())) };
}

/** The `p`th percentile (0–100) of ascending `sorted` values; NaN when there are none. */
export function percentile(sorted, p) {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Runs `fn(item, index)` over `items`, at most `concurrency` at once. */
export async function pool(items, concurrency, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i], i);
      }
    }),
  );
}

/** The running `workerd` processes, each with its /proc `status` text (Linux). */
function workerdProcesses() {
  const found = [];
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      if (/^Name:\s*workerd/m.test(status)) found.push({ pid, status });
    } catch {
      // process went away
    }
  }
  return found;
}

/** RSS (bytes) of the workerd processes, read from /proc. */
export function workerdRss() {
  let total = 0;
  for (const { status } of workerdProcesses()) total += Number(/^VmRSS:\s*(\d+)/m.exec(status)?.[1] ?? 0) * 1024;
  return total;
}

/**
 * CPU time (ms) of every `workerd` process so far, and of its busiest thread, from /proc (Linux:
 * utime + stime of each task, in clock ticks of 10 ms). Two readings around a benchmark phase give
 * the phase's CPU per operation (`cpuSince`): the work an operation costs, apart from how busy
 * the phase kept the thread.
 */
export function workerdCpu() {
  const threads = new Map();
  let total = 0;
  for (const { pid } of workerdProcesses()) {
    try {
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        // Fields after the command name (which may hold spaces): utime and stime are 14th and 15th.
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        const ms = (Number(fields[11]) + Number(fields[12])) * 10;
        threads.set(`${pid}/${tid}`, ms);
        total += ms;
      }
    } catch {
      // process or thread went away
    }
  }
  return { total, threads, at: performance.now(), self: process.cpuUsage() };
}

/**
 * The CPU a phase used between `workerdCpu()` reading `before` and now: workerd's in all
 * (`workerdMs`), its busiest thread's (`threadMs`) and its share of the phase's wall time
 * (`threadBusy`, 0–1), and this benchmark process's own (`clientMs`, the load generator).
 */
export function cpuSince(before) {
  const now = workerdCpu();
  let threadMs = 0;
  for (const [id, ms] of now.threads) threadMs = Math.max(threadMs, ms - (before.threads.get(id) ?? 0));
  const wall = now.at - before.at;
  const self = process.cpuUsage(before.self);
  return { workerdMs: now.total - before.total, threadMs, threadBusy: wall > 0 ? threadMs / wall : 0, clientMs: (self.user + self.system) / 1000 };
}

/** Whether a real Asaas key is configured for `npm start` (the environment or .dev.vars). */
export function asaasConfigured() {
  const devVars = existsSync(`${root}.dev.vars`) ? readFileSync(`${root}.dev.vars`, "utf8") : "";
  return Boolean(process.env.ASAAS_API_KEY) || /^\s*ASAAS_API_KEY\s*=\s*\S/m.test(devVars);
}

/**
 * Billing demo data (issue 13), idempotent: three plans on sale (monthly, yearly, lifetime) created
 * by the demo owner as platform administrator, and the demo company on the lifetime plan, paid with
 * the sandbox's approved test card, so `npm start` never locks it. Skipped payment when a real Asaas
 * key is configured (.dev.vars or the environment): the sandbox provider is then not in use.
 */
export async function seedDemoBilling(baseUrl) {
  const json = async (method, path, token, body) => {
    const res = await fetch(`${baseUrl}/api${path}`, {
      method,
      headers: { ...(body ? { "Content-Type": "application/json" } : {}), Authorization: `Bearer ${token}` },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`demo billing: ${method} ${path} → ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
  const login = await fetch(`${baseUrl}/api/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email: DEMO.email, password: DEMO.password }) });
  if (!login.ok) throw new Error(`demo billing: login → ${login.status}`);
  const { token } = await login.json();
  let plans = (await json("GET", "/admin/plans", token)).results;
  if (plans.length === 0) {
    for (const plan of [
      { name: "Mensal", priceCents: 9900, cycle: "monthly", maxMembers: 5, maxConnections: 2, features: ["internal_chats", "broadcasts", "crm", "keywords", "quick_messages", "flow"] },
      { name: "Anual", priceCents: 99000, cycle: "yearly", maxMembers: 10, maxConnections: 5, features: ["internal_chats", "broadcasts", "shipping_cycles", "crm", "keywords", "webhooks", "quick_messages", "flow", "integration"] },
      { name: "Vitalício", priceCents: 299000, cycle: "lifetime", maxMembers: null, maxConnections: null, features: ["internal_chats", "broadcasts", "shipping_cycles", "crm", "keywords", "webhooks", "quick_messages", "flow", "integration"] },
    ]) await json("POST", "/admin/plans", token, plan);
    plans = (await json("GET", "/admin/plans", token)).results;
  }
  if (asaasConfigured()) return "plans only (Asaas configured)";
  const current = await json("GET", "/companies/subscription", token);
  if (current.plan?.cycle === "lifetime" && current.status === "active") return "existing";
  const lifetime = plans.find((p) => p.cycle === "lifetime" && p.active);
  if (!lifetime) return "no lifetime plan";
  await json("POST", "/companies/subscription", token, {
    planId: lifetime.id,
    billingType: "CREDIT_CARD",
    creditCard: { holderName: "DEMO OWNER", number: "4111111111111111", expiryMonth: 12, expiryYear: 2099, ccv: "123" },
    holder: { name: DEMO.name, email: DEMO.email, cpfCnpj: "52998224725", postalCode: "01310100", address: "Avenida Paulista", addressNumber: "1000", province: "Bela Vista", city: "São Paulo", state: "SP", phone: "11987654321" },
  });
  return "lifetime";
}

/**
 * Starts a CPU profile of the worker's isolate (the Worker and its Durable Objects) through the
 * inspector `wrangler dev --inspector-port <port>` serves; answers `stop()`, which answers the
 * profile (Chrome DevTools `Profiler.Profile`). For `BENCH_PROFILE=1` runs of the benchmarks.
 */
export async function startCpuProfile(inspectorPort) {
  const targets = await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json();
  const target = targets.find((t) => t.webSocketDebuggerUrl) ?? targets[0];
  // The inspector proxy accepts only a local or devtools Origin.
  const ws = new WebSocket(target.webSocketDebuggerUrl, { headers: { Origin: "http://127.0.0.1" } });
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  let id = 0;
  const waiting = new Map();
  ws.onmessage = (e) => {
    const msg = JSON.parse(String(e.data));
    if (msg.id && waiting.has(msg.id)) {
      waiting.get(msg.id)(msg);
      waiting.delete(msg.id);
    }
  };
  const call = (method, params = {}) =>
    new Promise((resolve) => {
      const n = ++id;
      waiting.set(n, resolve);
      ws.send(JSON.stringify({ id: n, method, params }));
    });
  await call("Profiler.enable");
  await call("Profiler.setSamplingInterval", { interval: 200 });
  await call("Profiler.start");
  return async () => {
    const answer = await call("Profiler.stop");
    ws.close();
    return answer.result?.profile;
  };
}

/**
 * Self time of a CPU profile by source module of the bundle `bundlePath` (esbuild's `// path`
 * comments mark where each module starts) and by function; answers printable lines, the `top`
 * heaviest of each, and the share of samples that were idle or garbage collection.
 *
 * A sample stands for the time since the one before it, up to three times the median interval
 * between samples. The profiler samples this isolate only: while the thread of `workerd` runs
 * something else (local D1's own object, workerd's plumbing between objects and services, a
 * storage commit) or sleeps, no sample is taken, and the next sample's time delta holds that gap.
 * Counting the gap for whichever function was sampled next would put it on the first call after
 * every wait (the eighth pass in the README: an earlier reading of "the first SQL call after a
 * fetch costs 1 ms" was this), so the gaps are summed apart, as time outside this isolate.
 */
export function summariseProfile(profile, bundlePath, top = 25) {
  const lines = readFileSync(bundlePath, "utf8").split("\n");
  const starts = [];
  lines.forEach((line, i) => {
    const m = /^\/\/ ((?:node_modules|worker|schema|src|\.\.)[^\s]*)$/.exec(line);
    if (m) starts.push([i, m[1]]);
  });
  const moduleAt = (line) => {
    let lo = 0;
    let hi = starts.length - 1;
    let found = "(bundle head)";
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid][0] <= line) {
        found = starts[mid][1];
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found.replace(/^node_modules\/((?:@[^/]+\/)?[^/]+).*$/, "$1 (npm)");
  };
  const self = new Map();
  for (const node of profile.nodes) self.set(node.id, 0);
  const dts = profile.timeDeltas ?? [];
  const sorted = [...dts].sort((a, b) => a - b);
  const cap = 3 * (sorted[Math.floor(sorted.length / 2)] ?? 0);
  let outside = 0;
  profile.samples.forEach((nodeId, i) => {
    const dt = dts[i] ?? 0;
    const counted = cap > 0 ? Math.min(dt, cap) : dt;
    outside += (dt - counted) / 1000;
    self.set(nodeId, self.get(nodeId) + counted / 1000);
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0) || 1;
  const byModule = new Map();
  const byFunction = new Map();
  for (const node of profile.nodes) {
    const ms = self.get(node.id);
    if (!ms) continue;
    const cf = node.callFrame;
    const inBundle = cf.url && cf.url.endsWith(".js") && !cf.url.startsWith("node:") && cf.lineNumber >= 0;
    const module = cf.functionName.startsWith("(") ? cf.functionName : inBundle ? moduleAt(cf.lineNumber) : cf.url || "(native)";
    byModule.set(module, (byModule.get(module) ?? 0) + ms);
    const fn = `${cf.functionName || "(anonymous)"} ${inBundle ? moduleAt(cf.lineNumber) : cf.url}:${cf.lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
  }
  const fmt = (map) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, ms]) => `    ${ms.toFixed(0).padStart(7)} ms ${((100 * ms) / total).toFixed(1).padStart(5)} %  ${k}`);
  return [
    `  CPU profile: ${total.toFixed(0)} ms in this isolate (sampled), ${outside.toFixed(0)} ms between its samples (the thread elsewhere: local D1's object, workerd's own work, commits; or idle)`,
    "  by module (self time in this isolate):",
    ...fmt(byModule),
    "  by function (self time in this isolate):",
    ...fmt(byFunction),
  ];
}

/**
 * Writes a copy of the wrangler configuration `configPath` next to it (so its relative paths still
 * resolve), named `.bench-<name>-<pid>.toml`, that serves an empty folder under `state` instead of
 * the web app's assets: `wrangler dev` reloads when its config or any file of `dist/web` changes
 * (another job's build in a shared tree), and a reload mid-benchmark holds requests for seconds.
 * Answers the copy's path; the caller removes it at the end (`.gitignore` lists the pattern).
 */
export function configWithoutAssets(configPath, state, name) {
  const copy = join(dirname(configPath), `.bench-${name}-${process.pid}.toml`);
  mkdirSync(join(state, "assets"), { recursive: true });
  writeFileSync(copy, readFileSync(configPath, "utf8").replace(/^directory = "dist\/web"$/m, `directory = ${JSON.stringify(join(state, "assets"))}`));
  return copy;
}

/**
 * The bench-only stage timings (worker/lib/bench-trace.ts) gathered since the last read, read and
 * reset through `GET /api/dev/bench/trace?reset=1` on `base`, as lines under a "stages (label)"
 * heading (mean and max in ms).
 */
export async function traceLines(base, label) {
  const { spans } = await (await fetch(`${base}/api/dev/bench/trace?reset=1`)).json();
  const rows = Object.entries(spans).map(([name, t]) => `    ${name.padEnd(34)} n ${String(t.n).padStart(6)}  mean ${t.meanMs.toFixed(2).padStart(8)} ms  max ${String(t.maxMs).padStart(6)} ms`);
  return `\n  stages (${label}):\n${rows.join("\n")}`;
}
