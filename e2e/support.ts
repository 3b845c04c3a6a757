/**
 * Helpers the end-to-end tests share: the JSON API with a bearer token, an English browser
 * context, signing in through the login screen, and reading the e-mail verification code.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { BASE_URL, newContext } from "./browser";

/** Calls the product's JSON API (with `token` as the bearer when given); throws on a non-2xx answer. */
export async function api<T>(method: string, path: string, token: string | null, body?: unknown): Promise<T> {
  const res = await fetch(`${BASE_URL}${path}`, {
    method,
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

/** A context whose pages speak English (the language cookie of spec §9). */
export async function englishContext(browser: Browser): Promise<BrowserContext> {
  const context = await newContext(browser, "en-US");
  await context.addCookies([{ name: "locale", value: "en-US", url: BASE_URL }]);
  return context;
}

/** Signs in through the login screen (English labels) and waits for the dashboard's navigation. */
export async function login(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await page.getByRole("navigation", { name: "Main navigation" }).waitFor();
}

/**
 * Registers a WhatsApp business number in the Graph API stand-in (its POST /__numbers control
 * endpoint) so that `accessToken` proves it: creating a Cloud API connection asks Meta first.
 */
export async function registerMetaNumber(phoneNumberId: string, accessToken: string, displayPhoneNumber = "+1 555-000-1111"): Promise<void> {
  const meta = process.env.E2E_META_ORIGIN ?? "";
  const res = await fetch(`${meta}/__numbers`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ phoneNumberId, displayPhoneNumber, verifiedName: "Loja E2E", qualityRating: "GREEN", tokens: [accessToken] }),
  });
  if (!res.ok) throw new Error(`registering ${phoneNumberId} in the stand-in → ${res.status} ${await res.text()}`);
}

/**
 * The newest 6-digit e-mail verification code mailed to `email`: read from the e2e server's local
 * D1 dev outbox (e2e/run.mjs starts it with MAIL_OUTBOX=on and passes its state folder as
 * E2E_STATE), the way a person reads their mailbox.
 */
export async function verificationCode(email: string): Promise<string> {
  const quoted = `'${email.toLowerCase().replaceAll("'", "''")}'`;
  const state = process.env.E2E_STATE;
  const sql = `SELECT body_text FROM mail_outbox WHERE to_address = ${quoted} AND (body_text LIKE '%verification code is%' OR body_text LIKE '%código de verifica%') ORDER BY created_at DESC LIMIT 1`;
  const { stdout } = await promisify(execFile)(
    "wrangler",
    ["d1", "execute", "DB", "--local", "--json", ...(state ? ["--persist-to", state] : []), "--command", sql],
    { env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true", NO_COLOR: "1" } },
  );
  const parsed: unknown = JSON.parse(stdout.slice(stdout.indexOf("[")));
  const first = Array.isArray(parsed) ? (parsed[0] as { results?: { body_text?: string }[] } | undefined) : undefined;
  const code = /(?:verification code is|código de verificação é|código de verificación es) (\d{6})/.exec(first?.results?.[0]?.body_text ?? "")?.[1];
  if (!code) throw new Error(`no verification code mailed to ${email}`);
  return code;
}

/** Registers through the API and verifies the e-mail with the mailed code; answers the token. */
export async function registerVerified(input: { name: string; email: string; phone: string; password: string; companyName: string }): Promise<string> {
  const { token } = await api<{ token: string }>("POST", "/api/register", null, input);
  await api("POST", "/api/me/verify-email", token, { code: await verificationCode(input.email) });
  return token;
}
