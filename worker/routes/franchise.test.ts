/**
 * Franchises, part A (issue 14): the mode gate (FRANCHISE_MODE off → 404 on every /api/franchise…
 * and /api/admin/franchises… route, enumerated from the router), the settings of the franchise the
 * user administers (another franchise's never reachable; the SMTP password and the Asaas key never
 * answered, stored encrypted), the test e-mail through the franchise's own SMTP (a real SMTP server
 * on loopback), branding at the first byte (/api/infos and the HTML bytes for a franchise host),
 * registration on a franchise host (company under the franchise, its mail branded and sent through
 * the franchise's SMTP), the links of a franchise's mails on its own hostname, and /api/me's `franchiseAdmin`.
 */
import { createExecutionContext, env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { MeAnswer } from "../../schema/api-types";
import type { FranchiseSettingsAnswer, InfosAnswer } from "../../schema/validation/franchise";
import indexHtml from "../../web/index.html?raw";
import { app } from "../app";
import worker from "../index";
import { invalidateFranchiseHosts } from "../lib/franchise-host";
import { call, expectStatus, mailTo, pngFile, register, uniqueEmail, uniqueIp, type Account } from "../test/helpers";
import { franchiseAdminAccount, registeredRoutes } from "../test/route-matrix";

type Received = { from: string; to: string[]; user: string | null; raw: string };

let adminA: Account;
let franchiseA: string;
let adminB: Account;
let franchiseB: string;
const hostA = `acme-${crypto.randomUUID().slice(0, 8)}.localhost`;

/** Attaches `hostname` to `franchiseId` straight in D1 (the Admin route is tested in admin-franchises.test.ts). */
async function attachHost(franchiseId: string, hostname: string): Promise<void> {
  const at = Date.now();
  await env.DB.prepare("INSERT INTO franchise_hostnames (id, franchise_id, hostname, status, verification_records, created_at, updated_at) VALUES (?, ?, ?, 'local', '[]', ?, ?)")
    .bind(crypto.randomUUID(), franchiseId, hostname, at, at)
    .run();
  await invalidateFranchiseHosts([hostname]);
}

/** A request to the worker on `host` (e.g. a franchise's hostname with a port). */
function callAt(host: string, method: string, path: string, options: { token?: string; body?: unknown; env?: Partial<typeof env> } = {}): Promise<Response> {
  const headers = new Headers({ "CF-Connecting-IP": uniqueIp() });
  if (options.token) headers.set("Authorization", `Bearer ${options.token}`);
  if (options.body !== undefined) headers.set("Content-Type", "application/json");
  const request = new Request(`http://${host}${path}`, { method, headers, body: options.body !== undefined ? JSON.stringify(options.body) : undefined });
  if (options.env) return worker.fetch!(request as Request<unknown, IncomingRequestCfProperties>, { ...env, ...options.env }, createExecutionContext());
  return exports.default.fetch(request);
}

async function mailsTo(address: string): Promise<Received[]> {
  for (let i = 0; i < 50; i++) {
    const mails = ((await (await fetch(`${env.SMTP_STANDIN_ORIGIN}/__mails`)).json()) as Received[]).filter((m) => m.to.includes(address));
    if (mails.length) return mails;
    await new Promise((r) => setTimeout(r, 20));
  }
  return [];
}

/** The raw mail with quoted-printable soft breaks and escapes undone (enough for assertions). */
function decodeQuotedPrintable(raw: string): string {
  const joined = raw.replace(/=\r?\n/g, "");
  return joined.replace(/(=[0-9A-F]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run.replace(/=/g, "%"));
    } catch {
      return run;
    }
  });
}

function settingsForm(fields: Record<string, string>, files: Record<string, File> = {}): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const [k, f] of Object.entries(files)) form.append(k, f);
  return form;
}

beforeAll(async () => {
  ({ account: adminA, franchiseId: franchiseA } = await franchiseAdminAccount("Acme Franquias"));
  ({ account: adminB, franchiseId: franchiseB } = await franchiseAdminAccount("Beta Revenda"));
  await attachHost(franchiseA, hostA);
});

describe("FRANCHISE_MODE off", () => {
  it("answers 404 on every franchise route of the router, to a franchise admin and to a platform admin alike", async () => {
    const franchiseRoutes = registeredRoutes(app.routes).filter((r) => /^[A-Z]+ \/api\/(franchise|admin\/franchises)(\/|$)/.test(r));
    // Every /api/franchise… route of the issue (FB's companies, users, invoices, roles too) once they are mounted.
    expect(franchiseRoutes.length).toBeGreaterThanOrEqual(14);
    const problems: string[] = [];
    for (const route of franchiseRoutes) {
      const method = route.slice(0, route.indexOf(" "));
      const path = route.slice(route.indexOf(" ") + 1).replace(/:[A-Za-z]+/g, () => crypto.randomUUID());
      const res = await callAt("localhost", method, path, { token: adminA.token, body: ["GET", "DELETE"].includes(method) ? undefined : {}, env: { FRANCHISE_MODE: "off" } });
      if (res.status !== 404) problems.push(`${route}: ${res.status} ${await res.text()}`);
      else await res.arrayBuffer();
    }
    expect(problems).toEqual([]);
  });

  it("/api/infos answers the product's own brand on a franchise host, and /api/me no franchiseAdmin", async () => {
    const infos = await expectStatus<InfosAnswer>(await callAt(`${hostA}:8787`, "GET", "/api/infos", { env: { FRANCHISE_MODE: "off" } }), 200);
    expect(infos).toMatchObject({ name: env.APP_NAME, franchise: false, franchiseMode: false });
    const me = await expectStatus<MeAnswer>(await callAt("localhost", "GET", "/api/me", { token: adminA.token, env: { FRANCHISE_MODE: "off" } }), 200);
    expect(me.franchiseAdmin).toBe(false);
  });
});

describe("franchise settings (GET/PUT /api/franchise)", () => {
  it("answers the settings of the franchise the user administers; a non-admin gets 403", async () => {
    const a = await expectStatus<FranchiseSettingsAnswer>(await call("GET", "/api/franchise", { token: adminA.token }), 200);
    expect(a).toMatchObject({ id: franchiseA, name: "Acme Franquias", mailPasswordSet: false, asaasApiKeySet: false });
    expect(a.hostnames.map((h) => h.hostname)).toEqual([hostA]);
    const me = await expectStatus<MeAnswer>(await call("GET", "/api/me", { token: adminA.token }), 200);
    expect(me.franchiseAdmin).toBe(true);
  });

  it("stores the SMTP password encrypted and never answers it (PUT answer, GET, Admin list)", async () => {
    const secret = `smtp-secret-${crypto.randomUUID()}`;
    const res = await call("PUT", "/api/franchise", {
      token: adminA.token,
      form: settingsForm(
        { name: "Acme Franquias", primaryColor: "#AA3300", notPaid: "Fale com a Acme.", mailUser: "envio@acme.test", mailHost: "127.0.0.1", mailPort: env.SMTP_TEST_PORT, mailPassword: secret, sendEmailToUnpaidCompany: "true" },
        { logo: pngFile("logo.png"), favicon: pngFile("favicon.png") },
      ),
    });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(text).not.toContain(secret);
    const put = JSON.parse(text) as FranchiseSettingsAnswer;
    expect(put).toMatchObject({ primaryColor: "#aa3300", notPaid: "Fale com a Acme.", mailUser: "envio@acme.test", mailPort: Number(env.SMTP_TEST_PORT), mailPasswordSet: true, sendEmailToUnpaidCompany: true });
    expect(put.logo).toMatch(/^\/api\/files\/images\/franchises\/[0-9a-f-]{36}\.png$/);
    expect(put.favicon).toMatch(/^\/api\/files\/images\/franchises\/[0-9a-f-]{36}\.png$/);
    const got = await call("GET", "/api/franchise", { token: adminA.token });
    expect(await got.text()).not.toContain(secret);
    // Nor the platform administrators' list of franchises.
    const platformAdmin = await register({ email: "platform-admin@conversa.test", companyName: "Plataforma" });
    const list = await call("GET", "/api/admin/franchises", { token: platformAdmin.token });
    const listed = await list.text();
    expect(list.status, listed).toBe(200);
    expect(listed).toContain(franchiseA);
    expect(listed).not.toContain(secret);
    expect(listed).not.toMatch(/mailPassword"/);
    const stored = await env.DB.prepare("SELECT mail_password FROM franchises WHERE id = ?").bind(franchiseA).first<{ mail_password: string }>();
    expect(stored?.mail_password).toMatch(/^v2:/);
    expect(stored?.mail_password).not.toContain(secret);
    // A blank password leaves the stored one in place.
    await expectStatus(await call("PUT", "/api/franchise", { token: adminA.token, form: settingsForm({ mailPassword: "" }) }), 200);
    const after = await env.DB.prepare("SELECT mail_password FROM franchises WHERE id = ?").bind(franchiseA).first<{ mail_password: string }>();
    expect(after?.mail_password).toBe(stored?.mail_password);
  });

  it("rejects a non-image logo and a bad colour, naming the field", async () => {
    const svg = new File(['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'], "logo.svg", { type: "image/svg+xml" });
    const bad = await expectStatus<{ error: { fields: Record<string, string> } }>(await call("PUT", "/api/franchise", { token: adminA.token, form: settingsForm({}, { logo: svg }) }), 400);
    expect(bad.error.fields.logo).toBe("invalid_image");
    const color = await expectStatus<{ error: { fields: Record<string, string> } }>(await call("PUT", "/api/franchise", { token: adminA.token, form: settingsForm({ primaryColor: "red" }) }), 400);
    expect(color.error.fields.primaryColor).toBe("invalid_color");
  });

  it("never reaches another franchise's settings: each admin reads and writes only their own", async () => {
    await expectStatus(await call("PUT", "/api/franchise", { token: adminB.token, form: settingsForm({ name: "Beta Renomeada", notInCompany: "Fale com a Beta." }) }), 200);
    const a = await expectStatus<FranchiseSettingsAnswer>(await call("GET", "/api/franchise", { token: adminA.token }), 200);
    const b = await expectStatus<FranchiseSettingsAnswer>(await call("GET", "/api/franchise", { token: adminB.token }), 200);
    expect(a.id).toBe(franchiseA);
    expect(a.name).toBe("Acme Franquias");
    expect(a.notInCompany).toBe("");
    expect(b).toMatchObject({ id: franchiseB, name: "Beta Renomeada", notInCompany: "Fale com a Beta.", mailPasswordSet: false, hostnames: [] });
    // Even on franchise A's own hostname, B's admin gets B's settings.
    const onA = await expectStatus<FranchiseSettingsAnswer>(await callAt(hostA, "GET", "/api/franchise", { token: adminB.token }), 200);
    expect(onA.id).toBe(franchiseB);
  });

  it("stores the Asaas key encrypted and answers only whether it is set", async () => {
    const key = `$aact_${crypto.randomUUID()}`;
    const res = await call("PUT", "/api/franchise/integrations", { token: adminA.token, body: { asaasApiKey: key } });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(JSON.parse(text)).toEqual({ asaasApiKeySet: true });
    const got = await call("GET", "/api/franchise", { token: adminA.token });
    const body = await got.text();
    expect(body).not.toContain(key);
    expect((JSON.parse(body) as FranchiseSettingsAnswer).asaasApiKeySet).toBe(true);
    const stored = await env.DB.prepare("SELECT asaas_api_key FROM franchises WHERE id = ?").bind(franchiseA).first<{ asaas_api_key: string }>();
    expect(stored?.asaas_api_key).toMatch(/^v2:/);
  });
});

describe("franchise e-mail", () => {
  it("sends the test e-mail through the franchise's own SMTP server, authenticated as its user", async () => {
    const to = uniqueEmail("franchise-test");
    const res = await call("POST", "/api/franchise/email/test", { token: adminA.token, body: { to } });
    expect(await expectStatus(res, 200)).toEqual({ sent: true, to });
    const [mail] = await mailsTo(to);
    expect(mail?.from).toBe("envio@acme.test");
    expect(mail?.user).toBe("envio@acme.test");
    expect(mail?.raw).toContain("Acme Franquias");
  });

  it("answers 400 naming mailHost when the franchise has no SMTP settings", async () => {
    const res = await call("POST", "/api/franchise/email/test", { token: adminB.token, body: {} });
    const body = await expectStatus<{ error: { fields: Record<string, string> } }>(res, 400);
    expect(body.error.fields.mailHost).toBe("not_configured");
  });
});

describe("branding at the first byte", () => {
  it("/api/infos answers the franchise of the host (any case, with port), else the product's", async () => {
    const infos = await expectStatus<InfosAnswer>(await callAt(`${hostA.toUpperCase()}:8787`, "GET", "/api/infos"), 200);
    expect(infos).toMatchObject({ name: "Acme Franquias", primaryColor: "#aa3300", franchise: true, franchiseMode: true });
    expect(infos.logo).toMatch(/^\/api\/files\/images\/franchises\//);
    expect(infos.favicon).toMatch(/^\/api\/files\/images\/franchises\//);
    const own = await expectStatus<InfosAnswer>(await callAt("localhost:8787", "GET", "/api/infos"), 200);
    expect(own).toMatchObject({ name: env.APP_NAME, logo: null, favicon: null, franchise: false });
  });

  it("/api/infos carries the franchise's notInCompany text for the no-company screen (spec §3), null when blank", async () => {
    await expectStatus(await call("PUT", "/api/franchise", { token: adminA.token, form: settingsForm({ notInCompany: "Fale com a Acme para ganhar acesso." }) }), 200);
    const infos = await expectStatus<InfosAnswer>(await callAt(hostA, "GET", "/api/infos"), 200);
    expect(infos.notInCompany).toBe("Fale com a Acme para ganhar acesso.");
    await expectStatus(await call("PUT", "/api/franchise", { token: adminA.token, form: settingsForm({ notInCompany: "  " }) }), 200);
    expect((await expectStatus<InfosAnswer>(await callAt(hostA, "GET", "/api/infos"), 200)).notInCompany).toBeNull();
    expect((await expectStatus<InfosAnswer>(await callAt("localhost:8787", "GET", "/api/infos"), 200)).notInCompany).toBeNull();
  });

  it("the app's HTML for a franchise host carries its title, favicon, theme colour and primary colour in the bytes", async () => {
    // The static-asset binding answers the app's own index.html (web/index.html), as wrangler's does.
    const ASSETS = { fetch: async () => new Response(indexHtml, { headers: { "Content-Type": "text/html; charset=utf-8" } }) } as unknown as Fetcher;
    const infos = await expectStatus<InfosAnswer>(await callAt(hostA, "GET", "/api/infos"), 200);
    const res = await callAt(`${hostA}:8787`, "GET", "/login", { env: { ASSETS } });
    expect(res.status).toBe(200);
    const html = new TextDecoder().decode(await res.arrayBuffer());
    expect(html).toContain("<title>Acme Franquias</title>");
    expect(html).not.toContain("<title>Conversa</title>");
    expect(html).toMatch(new RegExp(`<link rel="icon" id="app-favicon" href="${infos.favicon}"`));
    expect(html).not.toContain("/favicon.svg");
    expect(html).toContain('<meta name="theme-color" content="#aa3300">');
    expect(html).toContain('<meta property="og:site_name" content="Acme Franquias">');
    expect(html).toMatch(/<style data-franchise-brand>[^<]*--primary:#aa3300;--primary-foreground:#ffffff;/);
    // Still the app's CSP: no inline script was added.
    expect(res.headers.get("Content-Security-Policy")).toContain("script-src 'self'");
    expect(html).not.toMatch(/<script>(?!<\/script>)/);

    const own = await callAt("localhost:8787", "GET", "/login", { env: { ASSETS } });
    const ownHtml = await own.text();
    expect(ownHtml).toContain("<title>Conversa</title>");
    expect(ownHtml).not.toContain("data-franchise-brand");
  });

  it("escapes the franchise name in the HTML", async () => {
    const { franchiseId, account } = await franchiseAdminAccount("Loja <b>&</b> \"Cia\"");
    const host = `esc-${crypto.randomUUID().slice(0, 8)}.localhost`;
    await attachHost(franchiseId, host);
    expect(account.token).toBeTruthy();
    const ASSETS = { fetch: async () => new Response(indexHtml, { headers: { "Content-Type": "text/html" } }) } as unknown as Fetcher;
    const html = await (await callAt(host, "GET", "/", { env: { ASSETS } })).text();
    expect(html).toContain('<title>Loja &lt;b&gt;&amp;&lt;/b&gt; "Cia"</title>');
    expect(html).toContain('<meta property="og:site_name" content="Loja &lt;b&gt;&amp;&lt;/b&gt; &quot;Cia&quot;">');
    expect(html).not.toContain("<b>&</b>");
  });
});

describe("registration on a franchise host", () => {
  it("creates the company under the franchise and sends its mail with the franchise's name through its SMTP", async () => {
    const email = uniqueEmail("franchise-client");
    const res = await callAt(`${hostA}:8787`, "POST", "/api/register", {
      body: { name: "Cliente Acme", email, phone: "+55 11 98765-4321", password: "correct horse battery", companyName: "Cliente da Acme" },
    });
    await expectStatus(res, 201);
    const company = await env.DB.prepare("SELECT c.franchise_id FROM companies c JOIN users u ON u.id = c.owner_id WHERE u.email = ?").bind(email).first<{ franchise_id: string | null }>();
    expect(company?.franchise_id).toBe(franchiseA);
    const [mail] = await mailsTo(email);
    expect(mail?.from).toBe("envio@acme.test");
    expect(mail?.raw).toMatch(/From: "?Acme Franquias"? <envio@acme\.test>/);
    const text = decodeQuotedPrintable(mail?.raw ?? "");
    // Its logo (an absolute URL of our origin) and its name in place of the product's.
    expect(text).toMatch(/<img src="http:\/\/localhost:8787\/api\/files\/images\/franchises\/[0-9a-f-]{36}\.png"/);
    expect(text).toContain("Digite-o no Acme Franquias para verificar");
    expect(text).not.toContain("Conversa");

    const elsewhere = uniqueEmail("own-client");
    await expectStatus(
      await callAt("localhost:8787", "POST", "/api/register", {
        body: { name: "Cliente", email: elsewhere, phone: "+55 11 98765-4321", password: "correct horse battery", companyName: "Cliente direto" },
      }),
      201,
    );
    const own = await env.DB.prepare("SELECT c.franchise_id FROM companies c JOIN users u ON u.id = c.owner_id WHERE u.email = ?").bind(elsewhere).first<{ franchise_id: string | null }>();
    expect(own?.franchise_id).toBeNull();
  });
});

describe("links in a franchise's mails", () => {
  let gama: Account;
  let gamaHost: string;
  beforeAll(async () => {
    let franchiseId: string;
    ({ account: gama, franchiseId } = await franchiseAdminAccount("Gama Revenda"));
    gamaHost = `gama-${crypto.randomUUID().slice(0, 8)}.localhost`;
    await attachHost(franchiseId, gamaHost);
  });

  it("a password reset asked on the franchise's hostname links back to it under the franchise's name; on the product's host, to PUBLIC_URL", async () => {
    const email = uniqueEmail("gama-client");
    await expectStatus(
      await callAt(`${gamaHost}:8787`, "POST", "/api/register", { body: { name: "Cliente Gama", email, phone: "+55 11 98765-4321", password: "correct horse battery", companyName: "Loja Gama" } }),
      201,
    );
    await expectStatus(await callAt(`${gamaHost}:8787`, "POST", "/api/forgot-password", { body: { email } }), 200);
    const mail = await mailTo(email, "reset-password?token=");
    expect(mail.body_text).toContain(`http://${gamaHost}:8787/reset-password?token=`);
    expect(mail.body_text).toContain("Gama Revenda");

    const own = await register();
    await expectStatus(await callAt("localhost:8787", "POST", "/api/forgot-password", { body: { email: own.email } }), 200);
    expect((await mailTo(own.email, "reset-password?token=")).body_text).toContain("http://localhost:8787/reset-password?token=");
  });

  it("a company the franchise admin makes from the product's host sends its new owner to the franchise's hostname", async () => {
    const ownerEmail = uniqueEmail("gama-owner");
    await expectStatus(await callAt("localhost:8787", "POST", "/api/franchise/companies", { token: gama.token, body: { name: "Filial Gama", ownerEmail, ownerName: "Dora Lima" } }), 201);
    expect((await mailTo(ownerEmail, "reset-password?token=")).body_text).toContain(`http://${gamaHost}:8787/reset-password?token=`);
  });
});
