/**
 * Issue 12 in Chromium, operating hours and data cleanup: a customer writing on the sandbox phone
 * while the company is closed (every day without ranges) gets the outside-hours message once, for
 * two messages, and the agent's chat list marks the conversation; the operating-hours screen shows
 * that schedule. A data cleanup confirmed by typing the company's name runs with its progress bar
 * to the end, and the contacts are gone.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launch, snapshot } from "./browser";
import { api, englishContext, login } from "./support";

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const CLOSED = { sun: [], mon: [], tue: [], wed: [], thu: [], fri: [], sat: [] };

/** Registers an owner through the API and signs the agent page in; answers the page, token and company name. */
async function ownerPage(context: BrowserContext, label: string): Promise<{ page: Page; token: string; companyName: string }> {
  const email = `owner.${label}.${Date.now().toString(36)}@example.com`;
  const password = "owner-password-1";
  const companyName = `Oficina ${label} ${Date.now().toString(36)}`;
  const { token } = await api<{ token: string }>("POST", "/api/register", null, { name: "Rita Dona", email, phone: "+55 11 93333-4444", password, companyName });
  const page = await context.newPage();
  await login(page, email, password);
  return { page, token, companyName };
}

describe("operating hours and data cleanup, as people would use them", () => {
  it("a customer writing outside hours gets the outside-hours message once, and the chat list marks it", async () => {
    const agentContext = await englishContext(browser);
    const phoneContext = await englishContext(browser);
    const { page: agent, token } = await ownerPage(agentContext, "hours");
    const phone = await phoneContext.newPage();
    try {
      const connection = await api<{ id: string }>("POST", "/api/connections", token, {
        channel: "sandbox",
        name: "Recepção",
        greetingMessage: "Olá! Em que podemos ajudar?",
        farewellMessage: "",
      });
      await api("PUT", "/api/companies/operating-hours", token, {
        enabled: true,
        weekly: CLOSED,
        exceptions: [],
        outside: { all: { type: "message", message: "Estamos fechados agora; respondemos no próximo dia útil." }, connections: {} },
      });

      // The screen shows the saved schedule: no time ranges, the message for all connections.
      await agent.goto("/settings/operating-hours");
      await expect.poll(() => agent.locator("textarea").first().inputValue(), { timeout: 15_000 }).toBe("Estamos fechados agora; respondemos no próximo dia útil.");
      expect(await agent.locator("main [data-time-field]").count()).toBe(0);

      const pairing = await api<{ code: string }>("POST", `/api/connections/${connection.id}/pair`, token);
      await phone.goto("/sandbox/phone");
      await phone.getByLabel("Pairing code").fill(pairing.code);
      await phone.getByRole("button", { name: "Pair phone" }).click();

      await agent.goto("/chats");
      await phone.getByLabel("Customer name").fill("João Noturno");
      await phone.getByLabel("Customer phone").fill("+55 11 96666-5555");
      await phone.getByRole("button", { name: "Start conversation" }).click();
      await phone.getByLabel("Message").fill("Boa noite, vocês estão abertos?");
      await phone.getByRole("button", { name: "Send", exact: true }).click();
      await phone.getByText("Estamos fechados agora; respondemos no próximo dia útil.").waitFor({ timeout: 15_000 });
      await phone.getByLabel("Message").fill("Alguém?");
      await phone.getByRole("button", { name: "Send", exact: true }).click();

      // The ticket is created, live, and marked as arrived outside hours.
      const item = agent.getByTestId("ticket-item").filter({ hasText: "João Noturno" });
      await item.waitFor({ timeout: 15_000 });
      await item.getByTestId("outside-hours-badge").waitFor({ timeout: 15_000 });
      await item.click();
      await agent.getByText("Alguém?", { exact: true }).waitFor({ timeout: 15_000 });

      // Once per conversation: the second message got no second answer, and no greeting went out.
      await phone.waitForTimeout(1500);
      const toCustomer = phone.locator('[data-testid="phone-message"][data-direction="to_customer"]');
      expect(await toCustomer.filter({ hasText: "Estamos fechados agora" }).count()).toBe(1);
      expect(await toCustomer.filter({ hasText: "Olá! Em que podemos ajudar?" }).count()).toBe(0);
    } catch (error) {
      await snapshot(agent, "outside-hours-agent");
      await snapshot(phone, "outside-hours-phone");
      throw error;
    } finally {
      await agentContext.close();
      await phoneContext.close();
    }
  });

  it("a data cleanup confirmed with the company's name runs with its progress bar to the end", async () => {
    const context = await englishContext(browser);
    const { page, token, companyName } = await ownerPage(context, "cleanup");
    try {
      const tag = await api<{ id: string }>("POST", "/api/tags", token, { name: "Cliente antigo", color: "#22c55e" });
      for (let i = 0; i < 12; i++) {
        await api("POST", "/api/contacts", token, { name: `Contato ${i}`, phone: `+55 11 9${String(40000000 + i)}`, tags: [tag.id] });
      }
      expect((await api<{ total: number }>("GET", "/api/contacts", token)).total).toBe(12);

      await page.goto("/settings/data-cleanup");
      await page.locator('input[type="radio"][value="contacts"]').check();
      await page.getByTestId("cleanup-start").click();
      const dialog = page.getByRole("dialog");
      await dialog.waitFor();
      // The confirmation stays off until the name is typed exactly.
      expect(await page.getByTestId("cleanup-confirm").isDisabled()).toBe(true);
      await dialog.getByLabel("Company name").fill(companyName);
      await page.getByTestId("cleanup-confirm").click();

      // The deleting state with its progress bar, live, to 100 %.
      const state = page.getByTestId("cleanup-state");
      await state.waitFor({ timeout: 15_000 });
      await expect.poll(() => state.getAttribute("data-status"), { timeout: 30_000 }).toBe("done");
      expect(await state.getByRole("progressbar").getAttribute("aria-valuenow")).toBe("100");

      expect((await api<{ total: number }>("GET", "/api/contacts", token)).total).toBe(0);
      // Only contacts: the tag stays.
      const tags = await api<{ id: string }[] | { results: { id: string }[] }>("GET", "/api/tags", token);
      const list = Array.isArray(tags) ? tags : tags.results;
      expect(list.map((t) => t.id)).toContain(tag.id);
    } catch (error) {
      await snapshot(page, "data-cleanup");
      throw error;
    } finally {
      await context.close();
    }
  });
});
