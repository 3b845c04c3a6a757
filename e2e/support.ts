/**
 * Helpers the end-to-end tests share: the JSON API with a bearer token, an English browser
 * context, and signing in through the login screen.
 */
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
