/**
 * Issue 11 "Inbound webhooks", end to end in Chromium: create a webhook on /webhook, send it a
 * sample request (a Hotmart-like purchase, fetched from the test as the platform would post it),
 * map the phone and name by clicking fields of the captured body, add a tag action, switch to
 * production, send again, and see the contact appear with its tag on /contacts.
 *
 * The screens' new strings are not in the catalogs until the lead extracts them, so the steps
 * find their controls by test ids.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { BASE_URL, launch, snapshot } from "./browser";
import { api, englishContext, login } from "./support";

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** A purchase as Hotmart's 2.0.0 webhook posts it (https://developers.hotmart.com/docs/en/2.0.0/webhook/purchase-webhook/), trimmed. */
const purchase = {
  id: "0f8e1f6a-7b1d-4c9a-9d5e-3b7a1c2d4e5f",
  event: "PURCHASE_APPROVED",
  version: "2.0.0",
  data: {
    buyer: { name: "Helena Castro", email: "helena.castro@example.com", checkout_phone: "5511976543210" },
    purchase: { status: "APPROVED", transaction: "HP0000000001" },
  },
};

async function post(url: string, body: unknown): Promise<void> {
  const res = await fetch(url.replace(/^https?:\/\/[^/]+/, BASE_URL), { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  expect(res.status, await res.text()).toBe(202);
}

describe("inbound webhooks, as a person would set one up", () => {
  it("create, capture a sample, map by clicking, switch to production, and the contact appears with its tag", async () => {
    const context = await englishContext(browser);
    const page = await context.newPage();
    const email = `webhooks.${Date.now().toString(36)}@example.com`;
    const password = "webhooks-password-1";
    const { token } = await api<{ token: string }>("POST", "/api/register", null, {
      name: "Wanda Web",
      email,
      phone: "+55 11 93333-4444",
      password,
      companyName: "Loja dos Ganchos",
    });
    try {
      await api("POST", "/api/tags", token, { name: "Comprou", color: "#16a34a" });
      await login(page, email, password);

      // Create: a name, then the webhook's own screen in test mode.
      await page.goto("/webhook");
      await page.getByTestId("new-webhook").first().click();
      await page.getByTestId("webhook-name").fill("Hotmart");
      await page.getByTestId("webhook-name").press("Enter");
      await page.waitForURL(/\/webhook\/[0-9a-f-]{36}$/);
      await page.locator('[data-testid="webhook-mode"][data-mode="test"]').waitFor();
      const url = (await page.getByTestId("webhook-url").textContent())?.trim() ?? "";
      expect(url).toMatch(/\/api\/hooks\/[A-Za-z0-9_-]{43}$/);

      // A sample request: captured, shown as a tree within seconds.
      await post(url, purchase);
      const phoneLeaf = page.locator('[data-testid="json-leaf"][data-path="data.buyer.checkout_phone"]');
      await phoneLeaf.waitFor({ timeout: 15_000 });
      await page.locator('[data-testid="webhook-request"][data-state="captured"]').first().waitFor();

      // Map by clicking the fields.
      await phoneLeaf.click();
      await page.getByTestId("pick-phone").click();
      await page.locator('[data-testid="json-leaf"][data-path="data.buyer.name"]').click();
      await page.getByTestId("pick-name").click();
      await expect.poll(() => page.getByTestId("mapping-phone").inputValue()).toBe("data.buyer.checkout_phone");
      await expect.poll(() => page.getByTestId("mapping-name").inputValue()).toBe("data.buyer.name");

      // An action: add the tag (the only one, chosen by default).
      await page.getByTestId("add-action").click();
      await page.getByTestId("add-action-add_tag").click();
      await page.locator('[data-testid="webhook-action"][data-type="add_tag"]').waitFor();
      await snapshot(page, "webhook-mapped");

      // Production: the switch saves the mapping and the action with the mode.
      await page.getByTestId("mode-switch").click();
      await page.locator('[data-testid="webhook-mode"][data-mode="production"]').waitFor();

      // Send again: processed, and the contact is there with its tag.
      await post(url, purchase);
      await page.locator('[data-testid="webhook-request"][data-state="processed"]').first().waitFor({ timeout: 20_000 });
      await page.goto("/contacts");
      const row = page.getByRole("row").filter({ hasText: "Helena Castro" });
      await row.first().waitFor({ timeout: 15_000 });
      await expect.poll(async () => (await row.first().textContent()) ?? "").toContain("Comprou");
      await snapshot(page, "webhook-contact");
    } finally {
      await context.close();
    }
  }, 180_000);
});
