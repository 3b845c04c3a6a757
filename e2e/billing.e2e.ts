/**
 * Issue 13 "Subscription billing", end to end in Chromium with the sandbox provider: a new
 * company's 7-day trial ends (the dev-only test clock, POST /api/dev/clock, moves its "now" 8 days
 * on), so the app sends its owner to /failed-subscription; there they choose a plan and PIX, follow
 * the payment to the invoice's /checkout page, where the sandbox's "Simulate payment" pays the PIX
 * code; the page confirms the payment by itself and its link leads back into the app (the
 * dashboard, no longer the failed-subscription notice). The plan is created by the platform
 * administrator of e2e/run.mjs (PLATFORM_ADMINS). Selectors are test ids and form field names (new
 * strings are not in the e2e build's catalog).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { launch, snapshot } from "./browser";
import { api, englishContext, login, registerVerified } from "./support";

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const DAY_MS = 24 * 3600 * 1000;
const ADMIN_EMAIL = "e2e-billing-admin@conversa.test";
const PASSWORD = "billing-password-1";

/** The platform administrator's token: registered on first use, signed in afterwards (other files may have registered it). */
async function adminToken(): Promise<string> {
  try {
    return await registerVerified({ name: "Ada Plataforma", email: ADMIN_EMAIL, phone: "+55 11 96666-7777", password: PASSWORD, companyName: "Plataforma" });
  } catch {
    const { token } = await api<{ token: string }>("POST", "/api/login", null, { email: ADMIN_EMAIL, password: PASSWORD });
    return token;
  }
}

describe("subscription billing, as a company would live it", () => {
  it("a company whose trial ended pays by PIX on the checkout page and is back in the app", async () => {
    const stamp = Date.now().toString(36);
    const planName = `Plano E2E ${stamp}`;
    await api("POST", "/api/admin/plans", await adminToken(), { name: planName, priceCents: 4990, cycle: "monthly", maxMembers: 5, maxConnections: 2, features: ["broadcasts", "flow"], active: true });

    const email = `billing.${stamp}@example.com`;
    const token = await registerVerified({ name: "Bruno Cobrança", email, phone: "+55 11 94444-5555", password: PASSWORD, companyName: "Loja da Cobrança" });
    // The trial lasts 7 days: move this company's clock 8 days on.
    await api("POST", "/api/dev/clock", token, { offsetMs: 8 * DAY_MS });

    const context = await englishContext(browser);
    const page = await context.newPage();
    try {
      await login(page, email, PASSWORD);
      await page.goto("/");
      await page.waitForURL("**/failed-subscription");
      await page.getByTestId("failed-subscription").waitFor();

      // Choose the plan and PIX; the billing details are the payer's.
      await page.getByTestId("plan-card").filter({ hasText: planName }).getByTestId("choose-plan").click();
      await page.getByTestId("method-PIX").click();
      await page.locator('input[name="holder.name"]').fill("Bruno Cobrança");
      await page.locator('input[name="holder.cpfCnpj"]').fill("52998224725");
      await page.locator('input[name="holder.email"]').fill(email);
      await page.locator('input[name="holder.phone"]').fill("11944445555");
      await page.locator('input[name="holder.postalCode"]').fill("01310100");
      await page.locator('input[name="holder.address"]').fill("Avenida Paulista");
      await page.locator('input[name="holder.addressNumber"]').fill("1000");
      await page.locator('input[name="holder.province"]').fill("Bela Vista");
      await page.locator('input[name="holder.city"]').fill("São Paulo");
      await page.locator('select[name="holder.state"]').selectOption("SP");
      await page.locator('form button[type="submit"]').click();

      // The PIX code, then its invoice's checkout page.
      await page.getByTestId("pix-payment").waitFor({ timeout: 15_000 });
      expect((await page.getByTestId("pix-payload").inputValue()).length).toBeGreaterThan(20);
      await page.getByTestId("follow-payment").click();
      await page.waitForURL("**/checkout/**");
      await page.getByTestId("pix-payment").waitFor();
      await page.getByTestId("simulate-payment").click();

      // The page confirms the payment by itself and leads back into the app.
      await page.getByTestId("checkout-paid").waitFor({ timeout: 15_000 });
      await page.getByTestId("back-to-app").click();
      await page.waitForURL((url) => url.pathname === "/");
      await page.getByRole("navigation", { name: "Main navigation" }).waitFor();
      expect(new URL(page.url()).pathname).toBe("/");
      expect(await page.getByTestId("failed-subscription").count()).toBe(0);

      // The company's subscription says so too.
      const subscription = await api<{ status: string; valid: boolean; plan: { name: string } | null }>("GET", "/api/companies/subscription", token);
      expect(subscription).toMatchObject({ status: "active", valid: true, plan: { name: planName } });
    } catch (error) {
      await snapshot(page, "billing");
      throw error;
    } finally {
      await context.close();
    }
  });
});
