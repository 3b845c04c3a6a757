/**
 * Issue "Foundation", end to end in Chromium: register → dashboard shell in pt-BR → switch to
 * en-US → create a role without settings_members and invite a member by e-mail → log out →
 * register the invited e-mail → verify it with the mailed code → accept the invite → switch active company → the role without
 * settings_members sees the access-denied page on /settings/members.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launch, newContext, snapshot } from "./browser";
import { verificationCode } from "./support";

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const stamp = Date.now().toString(36);
const owner = { name: "Ana Souza", email: `ana.${stamp}@example.com`, phone: "+55 11 98765-4321", password: "senha-forte-1", company: "Padaria Central" };
const invited = { name: "Bruno Lima", email: `bruno.${stamp}@example.com`, phone: "+55 21 99876-5432", password: "senha-forte-2", company: "Bruno Consultoria" };

/** Fills the register form by its pt-BR labels and submits it. */
async function registerPtBr(page: Page, who: typeof owner) {
  await page.goto("/register");
  await page.getByLabel("Seu nome").fill(who.name);
  await page.getByLabel("E-mail").fill(who.email);
  await page.getByLabel("Telefone").fill(who.phone);
  await page.getByLabel("Senha").fill(who.password);
  await page.getByLabel("Nome da empresa").fill(who.company);
  await page.getByRole("button", { name: "Criar conta" }).click();
}

async function switchLanguage(page: Page, current: RegExp, name: string) {
  await page.getByRole("button", { name: current }).first().click();
  await page.getByRole("menuitemradio", { name }).click();
}

async function logout(page: Page) {
  await page.getByRole("button", { name: /Account menu|Menu da conta/ }).click();
  await page.getByRole("menuitem", { name: /Log out|Sair/ }).click();
  await page.waitForURL("**/login");
}

describe("foundation, as a person would use it", () => {
  it("register, languages, invite, accept, switch company, access denied", async () => {
    const context = await newContext(browser, "pt-BR");
    const page = await context.newPage();
    try {
      // Register → the dashboard shell, in Brazilian Portuguese by default.
      await registerPtBr(page, owner);
      await page.getByRole("heading", { name: `Olá, ${owner.name}!` }).waitFor();
      await page.getByRole("navigation", { name: "Navegação principal" }).waitFor();
      expect(await page.title()).toBe("Conversa");

      // Switch to en-US: the shell speaks English.
      await switchLanguage(page, /^Idioma$/, "English (US)");
      await page.getByRole("navigation", { name: "Main navigation" }).waitFor();
      await page.getByRole("heading", { name: `Welcome, ${owner.name}!` }).waitFor();

      // A role without settings_members, then invite the second person with it.
      await page.goto("/settings/roles");
      await page.getByRole("button", { name: "New role" }).click();
      await page.getByLabel("Name").fill("Plantão");
      await page.getByLabel("Attend chats").check();
      await page.getByRole("button", { name: "Create role" }).click();
      await page.getByRole("button", { name: "Edit Plantão" }).waitFor();

      await page.goto("/settings/members");
      await page.getByRole("button", { name: "Invite member" }).first().click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Email").fill(invited.email);
      await dialog.getByLabel(/Plantão/).check();
      await dialog.getByRole("button", { name: "Send invitation" }).click();
      await page.getByRole("button", { name: `Cancel invitation to ${invited.email}` }).waitFor();

      await logout(page);

      // The invited e-mail registers (in the language the browser remembers) and accepts.
      await page.goto("/register");
      await page.getByLabel("Your name").fill(invited.name);
      await page.getByLabel("Email").fill(invited.email);
      await page.getByLabel("Phone").fill(invited.phone);
      await page.getByLabel("Password").fill(invited.password);
      await page.getByLabel("Company name").fill(invited.company);
      await page.getByRole("button", { name: "Create account" }).click();
      await page.getByRole("heading", { name: `Welcome, ${invited.name}!` }).waitFor();

      // Invitations show only once the address is proven with the code mailed at registration.
      await page.getByRole("button", { name: /^Invitations/ }).click();
      await page.getByRole("dialog").getByText("Verify your email").waitFor();
      await page.keyboard.press("Escape");
      await page.getByLabel("Verification code").fill(await verificationCode(invited.email));
      await page.getByRole("button", { name: "Verify", exact: true }).click();
      await page.getByText("Verify your email").waitFor({ state: "detached" });

      await page.getByRole("button", { name: /^Invitations/ }).click();
      await page.getByRole("button", { name: `Accept invitation from ${owner.company}` }).click();
      await page.getByRole("button", { name: `Accept invitation from ${owner.company}` }).waitFor({ state: "detached" });

      // Switch the active company to the one just joined.
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: "Switch company" }).click();
      await page.getByRole("menuitemradio", { name: new RegExp(owner.company) }).click();
      await expect.poll(async () => (await page.getByRole("button", { name: "Switch company" }).textContent()) ?? "").toContain(owner.company);

      // The Plantão role has no settings_members: the members page is refused.
      await page.goto("/settings/members");
      await page.getByText("You do not have permission to access this page!").waitFor();
    } catch (error) {
      await snapshot(page, "foundation-failure");
      throw error;
    } finally {
      await context.close();
    }
  });
});
