/**
 * Chromium for the end-to-end tests: Debian's /usr/bin/chromium driven by playwright-core, with
 * the flags this closed-network machine needs (no background networking, no sandbox as root).
 */
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { mkdirSync } from "node:fs";

export const BASE_URL = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8787";
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
}

/** A fresh context (its own storage) with the product's base URL. */
export async function newContext(browser: Browser, locale = "pt-BR"): Promise<BrowserContext> {
  return browser.newContext({ baseURL: BASE_URL, locale, viewport: { width: 1280, height: 800 } });
}

/** Saves a screenshot under e2e/.artifacts for a human to look at after a failure. */
export async function snapshot(page: Page, name: string): Promise<void> {
  mkdirSync("e2e/.artifacts", { recursive: true });
  await page.screenshot({ path: `e2e/.artifacts/${name}.png`, fullPage: true });
}
