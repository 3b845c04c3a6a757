import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { BASE_URL, launch, newContext } from "./browser";

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe("the served product", () => {
  it("GET /api/me without a token answers 401 in the error envelope", async () => {
    const res = await fetch(`${BASE_URL}/api/me`);
    expect(res.status).toBe(401);
    expect((await res.json()).error.code).toBe("unauthorized");
  });

  it("an unknown path is served the app, whose title is the product name", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto("/some/unknown/path");
    await expect.poll(() => page.title()).toBe("Conversa");
    await context.close();
  });
});
