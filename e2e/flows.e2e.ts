/**
 * Issue "The flow builder and the flow engine", end to end in Chromium: a member builds a flow in
 * the editor (start → text → reply buttons → receive into a custom field → condition → save →
 * action add tag) and publishes it, makes it the sandbox connection's default flow from the
 * Connections screen, and the sandbox phone walks it (writes, taps a button, answers); the contact
 * drawer then shows the answer in the custom field, the saved value and the tag.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Locator, Page } from "playwright-core";
import { launch, snapshot } from "./browser";
import { api, englishContext, login } from "./support";

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** Adds a block from the palette after the selected one; answers its (open) form. */
async function addBlock(page: Page, type: string): Promise<Locator> {
  const before = await page.getByTestId(`flow-node-${type}`).count();
  await page.getByTestId(`palette-${type}`).click();
  await expect.poll(() => page.getByTestId(`flow-node-${type}`).count()).toBe(before + 1);
  const sheet = page.getByTestId("block-sheet");
  await sheet.waitFor();
  return sheet;
}

describe("the flow builder, as a member and a customer would use it", () => {
  it("build in the editor, publish, default flow of the sandbox connection, phone taps a button and answers, field and tag on the contact", async () => {
    const memberContext = await englishContext(browser);
    const phoneContext = await englishContext(browser);
    const page = await memberContext.newPage();
    const phone = await phoneContext.newPage();
    const email = `flows.${Date.now().toString(36)}@example.com`;
    const password = "flows-password-1";
    try {
      // Setup through the API: what this test is not about.
      const { token } = await api<{ token: string }>("POST", "/api/register", null, {
        name: "Fabi Fluxos",
        email,
        phone: "+55 11 93333-4444",
        password,
        companyName: "Loja dos Fluxos",
      });
      const age = await api<{ key: string }>("POST", "/api/custom-fields", token, { name: "Idade", type: "number", kind: "user" });
      const profile = await api<{ key: string }>("POST", "/api/custom-fields", token, { name: "Perfil", type: "text", kind: "user" });
      await api("POST", "/api/tags", token, { name: "Lead quente", color: "#dc2626" });
      await api("POST", "/api/connections", token, { channel: "sandbox", name: "Robô" });
      await login(page, email, password);

      // A new builder from the Flow builder screen opens the editor with its start block.
      await page.goto("/folders");
      await page.getByRole("button", { name: "New builder" }).first().click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Name").fill("Qualificação");
      await dialog.getByRole("button", { name: "Create builder" }).click();
      await page.waitForURL(/\/flows\/[^/]+$/);
      await expect.poll(() => page.getByTestId("flow-name").textContent()).toBe("Qualificação");

      // Start selected, then each block is added after the previous one (connected by its first free output).
      await page.getByTestId("flow-node-start").click();
      let sheet = await addBlock(page, "text");
      await sheet.getByLabel("Message", { exact: true }).fill("Olá, {{first_name}}! Sou o robô da loja.");

      sheet = await addBlock(page, "link");
      await sheet.getByLabel("Kind of button", { exact: true }).selectOption("buttons");
      await sheet.getByLabel("Message", { exact: true }).fill("Quer fazer um cadastro rápido?");
      await sheet.getByRole("button", { name: "Add button" }).click();
      await sheet.getByLabel("Button 1", { exact: true }).fill("Sim");
      await sheet.getByRole("button", { name: "Add button" }).click();
      await sheet.getByLabel("Button 2", { exact: true }).fill("Agora não");
      // The link block's outputs follow its buttons: "Sim" is the first, so the next block hangs from it.
      const link = page.getByTestId("flow-node-link");
      await link.getByText("Sim", { exact: true }).waitFor();

      sheet = await addBlock(page, "receive");
      await sheet.getByLabel("Question (optional)", { exact: true }).fill("Qual é a sua idade?");
      await sheet.getByLabel("Save the answer into", { exact: true }).selectOption(age.key);
      await sheet.getByLabel("Error message", { exact: true }).fill("Responda só com números, por favor.");

      sheet = await addBlock(page, "condition");
      await sheet.getByRole("button", { name: "Add test" }).click();
      await sheet.getByLabel("Field of test 1", { exact: true }).selectOption(age.key);
      await sheet.getByLabel("Comparison", { exact: true }).selectOption("greater");
      await sheet.getByLabel("Compared value", { exact: true }).fill("17");

      sheet = await addBlock(page, "save");
      await sheet.getByLabel("Field", { exact: true }).selectOption(profile.key);
      await sheet.getByLabel("Value", { exact: true }).fill("Adulto");

      sheet = await addBlock(page, "action");
      await sheet.getByLabel("Tag", { exact: true }).fill("Lead quente");
      await sheet.getByRole("button", { name: "Done" }).click();
      await sheet.waitFor({ state: "hidden" });

      // Every block joined to the previous one: 6 edges (start→text→link→receive→condition→save→action).
      await expect.poll(() => page.locator(".react-flow__edge").count()).toBe(6);
      await expect.poll(() => page.getByTestId("flow-save-status").getAttribute("data-status"), { timeout: 15_000 }).toBe("saved");
      await page.getByRole("button", { name: "Publish" }).click();
      await expect.poll(() => page.getByTestId("flow-published-version").textContent(), { timeout: 15_000 }).toBe("Published v1");

      // The builder becomes the sandbox connection's default flow on the Connections screen.
      await page.goto("/connections");
      await page.getByRole("button", { name: "Default flows of Robô" }).click();
      const defaults = page.getByRole("dialog");
      await defaults.getByTestId("default-flow-defaultFlowId").selectOption({ label: "Qualificação" });
      await defaults.getByRole("button", { name: "Save changes" }).click();
      await defaults.waitFor({ state: "hidden" });

      // Pair the sandbox phone.
      await page.getByRole("button", { name: "Pair Robô" }).click();
      const codeEl = page.getByTestId("pairing-code");
      await codeEl.waitFor();
      const code = (await codeEl.getAttribute("data-code")) ?? "";
      expect(code).toMatch(/^[A-Z0-9]{8}$/);
      await phone.goto("/sandbox/phone");
      await phone.getByLabel("Pairing code").fill(code);
      await phone.getByRole("button", { name: "Pair phone" }).click();
      await expect.poll(() => page.getByTestId("connection-status").first().getAttribute("data-status"), { timeout: 15_000 }).toBe("connected");

      // The customer writes: the default flow greets with the variable filled and offers the buttons.
      await phone.getByLabel("Customer name").fill("Rafael Fluxo");
      await phone.getByLabel("Customer phone").fill("+55 11 96666-5555");
      await phone.getByRole("button", { name: "Start conversation" }).click();
      await phone.getByLabel("Message").fill("Oi");
      await phone.getByRole("button", { name: "Send", exact: true }).click();
      const fromBot = phone.locator('[data-testid="phone-message"][data-direction="to_customer"]');
      await fromBot.filter({ hasText: "Olá, Rafael! Sou o robô da loja." }).waitFor({ timeout: 15_000 });
      await fromBot.filter({ hasText: "Quer fazer um cadastro rápido?" }).waitFor({ timeout: 15_000 });

      // A tap on "Sim" leads to the question; the answer is a number over 17.
      await phone.getByRole("button", { name: "Sim", exact: true }).click();
      await fromBot.filter({ hasText: "Qual é a sua idade?" }).waitFor({ timeout: 15_000 });
      await phone.getByLabel("Message").fill("32");
      await phone.getByRole("button", { name: "Send", exact: true }).click();

      // The contact drawer shows the answer, the saved value and the tag.
      const contacts = await api<{ results: { id: string; name: string }[] }>("GET", "/api/contacts?search=Rafael%20Fluxo", token);
      const contactId = contacts.results[0]?.id;
      expect(contactId).toBeTruthy();
      await expect
        .poll(async () => {
          const detail = await api<{ tags: { name: string }[] }>("GET", `/api/contacts/${contactId}`, token);
          return detail.tags.map((tag) => tag.name);
        }, { timeout: 15_000 })
        .toContain("Lead quente");
      await page.goto("/contacts");
      await page.getByRole("button", { name: "Rafael Fluxo" }).first().click();
      const tags = page.getByRole("region", { name: "Tags", exact: true });
      await tags.getByText("Lead quente", { exact: true }).waitFor();
      const fields = page.getByRole("region", { name: "Custom fields", exact: true });
      await expect.poll(() => fields.locator("div", { has: page.getByText("Idade", { exact: true }) }).locator("dd").first().textContent()).toBe("32");
      await expect.poll(() => fields.locator("div", { has: page.getByText("Perfil", { exact: true }) }).locator("dd").first().textContent()).toBe("Adulto");
    } catch (error) {
      await snapshot(page, "flows-member");
      await snapshot(phone, "flows-phone");
      throw error;
    } finally {
      await memberContext.close();
      await phoneContext.close();
    }
  });
});
