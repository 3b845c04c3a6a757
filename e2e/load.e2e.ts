/**
 * What the login page downloads (issue 9 "Load only what a screen needs"): read from Chromium's
 * network log against the built app. /login must not fetch the flow editor or @xyflow/react (nor
 * any other screen's chunk), and its scripts must be a small part of the whole app; the absolute
 * targets (/login ≤ 120 KiB gzip JS, /chats ≤ 250 KiB) are checked by `npm run bench:web`.
 */
import { readFileSync, readdirSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { launch, newContext } from "./browser";

type ManifestEntry = { file: string; src?: string; imports?: string[]; dynamicImports?: string[]; isEntry?: boolean };

const DIST = new URL("../dist/web/", import.meta.url);
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** The scripts /login fetched: path and gzip bytes of each body. */
async function loginScripts(): Promise<{ path: string; gzip: number }[]> {
  const context = await newContext(browser);
  const page = await context.newPage();
  const pending: Promise<{ path: string; gzip: number }>[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() !== "script") return;
    pending.push(response.body().then((body) => ({ path: new URL(response.url()).pathname, gzip: gzipSync(body, { level: 9 }).length })));
  });
  await page.goto("/login");
  await page.locator('input[type="email"]').waitFor({ state: "visible" });
  await page.waitForLoadState("networkidle");
  const scripts = await Promise.all(pending);
  await context.close();
  return scripts;
}

describe("the login page loads only its own code", () => {
  it("fetches no chunk of the flow editor, @xyflow/react, the CRM board or the chats centre", async () => {
    const manifest = JSON.parse(readFileSync(new URL("build-manifest.json", DIST), "utf8")) as Record<string, ManifestEntry>;
    const heavy = Object.entries(manifest)
      .filter(([key]) => /@xyflow|flows\/components\/editor\/|features\/crm\/|features\/chats\/components\/chats-page|@dnd-kit/.test(key))
      .map(([, entry]) => `/${entry.file}`);
    expect(heavy.length).toBeGreaterThan(0);
    const scripts = await loginScripts();
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.map((script) => script.path).filter((path) => heavy.includes(path))).toEqual([]);
    for (const script of scripts) {
      const body = readFileSync(new URL(`.${script.path}`, DIST), "utf8");
      expect(body, script.path).not.toContain("react-flow__");
    }
  });

  it("downloads less than half of the app's JavaScript (gzip)", async () => {
    const assets = new URL("assets/", DIST);
    const all = readdirSync(assets)
      .filter((file) => file.endsWith(".js"))
      .reduce((sum, file) => sum + gzipSync(readFileSync(new URL(file, assets)), { level: 9 }).length, 0);
    const login = (await loginScripts()).reduce((sum, script) => sum + script.gzip, 0);
    expect(login).toBeLessThan(all / 2);
  });
});
