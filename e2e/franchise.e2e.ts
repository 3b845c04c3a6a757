/**
 * Issue 14 "Franchises", end to end in Chromium at `http://acme.localhost:<port>` (Chromium and the
 * worker treat `*.localhost` as loopback, so no DNS is needed):
 * - a platform administrator (PLATFORM_ADMINS of e2e/run.mjs) creates the Acme franchise with its
 *   colour, attaches the hostname `acme.localhost` and makes a user its administrator; that admin
 *   uploads a favicon;
 * - the HTML of the login page on that host carries the franchise's title, favicon and colour in
 *   the response bytes, and a page loaded with JavaScript disabled shows them (before any script);
 * - the franchise admin, in the /franchise screens, creates a role with two features (CRM and
 *   Quick messages) and a company holding it for a new client;
 * - the client chooses a password through the link mailed to them (the dev outbox) and sees only
 *   those two franchise features in the navigation (plus what no franchise role governs).
 * Selectors are test ids and form field names (new strings are not in the e2e build's catalog).
 */
import { request as httpRequest } from "node:http";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { BASE_URL, launch, snapshot } from "./browser";
import { api, registerVerified } from "./support";

const port = new URL(BASE_URL).port;
const HOST = "acme.localhost";
const ACME = `http://${HOST}:${port}`;
const ADMIN_EMAIL = "e2e-franchise-admin@conversa.test";
const PASSWORD = "franquia-senha-1";
const COLOR = "#aa3300";
/** A 1×1 PNG (the favicon). */
const PNG = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="), (c) => c.charCodeAt(0));

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** The platform administrator's token: signs in when another e2e file of this run registered the account already. */
async function platformAdminToken(): Promise<string> {
  // The passwords the other e2e files register this shared account with (the first file to run wins).
  for (const password of [PASSWORD, "billing-password-1", "dashboard-password-1"]) {
    try {
      const { token } = await api<{ token: string }>("POST", "/api/login", null, { email: ADMIN_EMAIL, password });
      return token;
    } catch {
      // Not this one (or not registered yet).
    }
  }
  return registerVerified({ name: "Ada Plataforma", email: ADMIN_EMAIL, phone: "+55 11 96666-7777", password: PASSWORD, companyName: "Plataforma" });
}

/** GET `path` on the worker with `Host: <host>`: the raw response bytes as text (no DOM, no script). */
function rawGet(host: string, path: string): Promise<{ status: number; body: string }> {
  const { hostname, port: targetPort } = new URL(BASE_URL);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port: targetPort, path, method: "GET", headers: { Host: host, Accept: "text/html" } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** The newest mail body sent to `email` in the e2e server's dev outbox (as a person reads their mailbox). */
async function lastMail(email: string): Promise<string> {
  const quoted = `'${email.toLowerCase().replaceAll("'", "''")}'`;
  const state = process.env.E2E_STATE;
  const sql = `SELECT body_text FROM mail_outbox WHERE to_address = ${quoted} ORDER BY created_at DESC LIMIT 1`;
  const { stdout } = await promisify(execFile)("wrangler", ["d1", "execute", "DB", "--local", "--json", ...(state ? ["--persist-to", state] : []), "--command", sql], {
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true", NO_COLOR: "1" },
  });
  const parsed: unknown = JSON.parse(stdout.slice(stdout.indexOf("[")));
  const first = Array.isArray(parsed) ? (parsed[0] as { results?: { body_text?: string }[] } | undefined) : undefined;
  return first?.results?.[0]?.body_text ?? "";
}

/** An English context on the franchise's host. */
async function acmeContext(options: { javaScriptEnabled?: boolean } = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: ACME, locale: "en-US", viewport: { width: 1280, height: 800 }, ...options });
  await context.addCookies([{ name: "locale", value: "en-US", url: ACME }]);
  return context;
}

/** Signs in on the franchise's host through the login screen. */
async function loginAt(page: Page, email: string): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await page.getByRole("navigation", { name: "Main navigation" }).waitFor({ timeout: 20_000 });
}

/** The paths of the main navigation's links. */
async function navPaths(page: Page): Promise<string[]> {
  const nav = page.getByRole("navigation", { name: "Main navigation" });
  await nav.locator("a").first().waitFor();
  return nav.locator("a").evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname));
}

describe("a franchise on its own hostname, as people would use it", () => {
  it("is branded at the first byte; its admin makes a role and a company; the client sees only the role's features", async () => {
    const stamp = Date.now().toString(36);
    const franchiseName = `Acme Franquias ${stamp}`;

    // The platform administrator creates the franchise, its hostname and its administrator.
    const adminToken = await platformAdminToken();
    const franchise = await api<{ id: string }>("POST", "/api/admin/franchises", adminToken, { name: franchiseName, primaryColor: COLOR });
    const host = await api<{ status: string }>("POST", `/api/admin/franchises/${franchise.id}/hostnames`, adminToken, { hostname: HOST });
    expect(host.status).toBe("local");
    const acmeAdminEmail = `acme.admin.${stamp}@example.com`;
    const acmeAdminToken = await registerVerified({ name: "Alice Acme", email: acmeAdminEmail, phone: "+55 11 95555-0001", password: PASSWORD, companyName: "Acme Matriz" });
    await api("POST", `/api/admin/franchises/${franchise.id}/admins`, adminToken, { email: acmeAdminEmail });

    // The franchise admin uploads its favicon (PUT /api/franchise multipart).
    const form = new FormData();
    form.set("favicon", new File([PNG], "favicon.png", { type: "image/png" }));
    const put = await fetch(`${BASE_URL}/api/franchise`, { method: "PUT", headers: { Authorization: `Bearer ${acmeAdminToken}` }, body: form });
    expect(put.status, await put.clone().text()).toBe(200);
    const settings = (await put.json()) as { favicon: string | null; primaryColor: string | null };
    expect(settings.primaryColor).toBe(COLOR);
    expect(settings.favicon).toBeTruthy();
    const favicon = settings.favicon ?? "";

    // The bytes of the login page on the franchise's host already carry its brand.
    const html = await rawGet(`${HOST}:${port}`, "/login");
    expect(html.status).toBe(200);
    expect(html.body).toContain(`<title>${franchiseName}</title>`);
    expect(html.body).toContain(`<meta name="theme-color" content="${COLOR}">`);
    expect(html.body).toMatch(new RegExp(`<link rel="icon" id="app-favicon" href="${favicon.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"`));
    expect(html.body).toContain(`--primary:${COLOR};`);
    // …and the product's own host does not.
    const own = await rawGet(new URL(BASE_URL).host, "/login");
    expect(own.body).not.toContain(franchiseName);

    // Before any script runs: the page with JavaScript off has the franchise's title, favicon and colour.
    const noScript = await acmeContext({ javaScriptEnabled: false });
    const bare = await noScript.newPage();
    try {
      await bare.goto("/login");
      expect(await bare.title()).toBe(franchiseName);
      expect(await bare.locator("link#app-favicon").getAttribute("href")).toBe(favicon);
      expect(await bare.locator('meta[name="theme-color"]').getAttribute("content")).toBe(COLOR);
      const primary = await bare.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--primary").trim());
      expect(primary).toBe(COLOR);
    } finally {
      await noScript.close();
    }

    const adminContext = await acmeContext();
    const ownerContext = await acmeContext();
    const page = await adminContext.newPage();
    const owner = await ownerContext.newPage();
    try {
      // With scripts, the login page keeps the franchise's name and colour (no flash back to the product's).
      await page.goto("/login");
      await expect.poll(() => page.getByTestId("brand-name").textContent(), { timeout: 15_000 }).toBe(franchiseName);
      expect(await page.title()).toBe(franchiseName);
      expect(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--primary").trim())).toBe(COLOR);

      // The franchise admin creates a role with two features.
      await loginAt(page, acmeAdminEmail);
      // The Franchise entry joins once GET /api/me tells the user administers one.
      await expect.poll(() => navPaths(page), { timeout: 15_000 }).toContain("/franchise");
      await page.goto("/franchise/roles");
      await page.getByTestId("new-franchise-role").click();
      await page.locator('input[name="name"]').fill("Básico");
      await page.getByTestId("feature-crm").click();
      await page.getByTestId("feature-quick_messages").click();
      await page.locator('form button[type="submit"]').click();
      const roleRow = page.getByTestId("franchise-role-row").filter({ hasText: "Básico" });
      await roleRow.waitFor({ timeout: 15_000 });

      // …and a company holding it, for a client invited by e-mail.
      const ownerEmail = `cliente.${stamp}@example.com`;
      await page.goto("/franchise/companies");
      await page.getByTestId("new-franchise-company").click();
      await page.locator('input[name="name"]').fill("Padaria do Cliente");
      await page.locator('input[name="ownerEmail"]').fill(ownerEmail);
      const roleSelect = page.locator('select[name="franchiseRoleId"]');
      await expect.poll(() => roleSelect.locator("option").count(), { timeout: 15_000 }).toBeGreaterThan(1);
      await roleSelect.selectOption({ label: "Básico" });
      await page.locator('form button[type="submit"]').click();
      await page.getByTestId("franchise-company-row").filter({ hasText: "Padaria do Cliente" }).waitFor({ timeout: 15_000 });

      // The client follows the mailed link, chooses a password and is signed in.
      let mail = "";
      await expect.poll(async () => (mail = await lastMail(ownerEmail)), { timeout: 20_000, interval: 500 }).toMatch(/reset-password\?token=/);
      const link = new URL(/https?:\/\/\S+reset-password\?token=\S+/.exec(mail)?.[0] ?? "");
      await owner.goto(`${link.pathname}${link.search}`);
      await owner.getByLabel("New password", { exact: true }).fill(PASSWORD);
      await owner.getByLabel("Confirm the new password").fill(PASSWORD);
      await owner.getByRole("button", { name: "Save new password" }).click();
      await owner.getByRole("navigation", { name: "Main navigation" }).waitFor({ timeout: 20_000 });

      // Only the role's two franchise features are in the navigation; the others are gone.
      const paths = await navPaths(owner);
      expect(paths).toContain("/crm");
      expect(paths).toContain("/quick-messages");
      for (const hidden of ["/internal-chats", "/broadcasts", "/shipping-cycle", "/folders", "/keywords", "/webhook"]) expect(paths, hidden).not.toContain(hidden);
      // Features outside franchise roles stay (contacts, connections, settings).
      expect(paths).toContain("/contacts");
      expect(paths).toContain("/settings");
      expect(paths).not.toContain("/franchise");
      // The API (`integration`) is outside the role too: Settings has no Integration tab.
      await owner.goto("/settings");
      const tabs = owner.getByRole("navigation", { name: "Settings sections" });
      await tabs.locator('a[href="/settings/company"]').waitFor({ timeout: 15_000 });
      expect(await tabs.locator('a[href="/settings/integration"]').count()).toBe(0);
    } catch (error) {
      await snapshot(page, "franchise-admin");
      await snapshot(owner, "franchise-owner");
      throw error;
    } finally {
      await adminContext.close();
      await ownerContext.close();
    }
  });
});
