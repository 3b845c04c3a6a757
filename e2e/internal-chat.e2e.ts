/**
 * Issue 12 in Chromium, the internal chat: two members of one company, each in their own browser,
 * chat live. The owner starts a direct conversation with the teammate and writes; the teammate's
 * list shows it with an unread badge without reloading, opens it, types (the owner sees the typing
 * indicator) and answers (the owner sees the answer live). The owner @mentions the teammate through
 * the composer's member list and the teammate's notifications bell counts it. A third page on a
 * 390 px phone screen shows the conversation alone, with its way back to the list.
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

const stamp = Date.now().toString(36);
const owner = { name: "Ana Souza", email: `ana.chat.${stamp}@example.com`, phone: "+55 11 98888-1111", password: "senha-forte-ana", companyName: `Padaria ${stamp}` };
const mate = { name: "Bruno Lima", email: `bruno.chat.${stamp}@example.com`, phone: "+55 11 97777-2222", password: "senha-forte-bruno", companyName: `Oficina ${stamp}` };

/** The owner's company with the teammate in it (a role with `internal_chats`, invited and accepted), through the API. */
async function team(): Promise<void> {
  const ownerToken = await registerVerified(owner);
  const mateToken = await registerVerified(mate);
  const role = await api<{ id: string }>("POST", "/api/companies/roles", ownerToken, { name: "Equipe interna", description: "", permissions: ["internal_chats"] });
  const sent = await api<{ id: string }>("POST", "/api/companies/invite", ownerToken, { email: mate.email, roles: [role.id] });
  await api("POST", `/api/companies/invite/${sent.id}/accept`, mateToken);
  const company = await api<{ id: string }>("GET", "/api/companies/active", ownerToken);
  await api("PUT", "/api/me/change-active", mateToken, { companyId: company.id });
}

describe("internal chat, two members live", () => {
  it("two members chat in two pages: messages, unread badge, typing and an @mention arrive without reloading", async () => {
    await team();
    const ownerContext = await englishContext(browser);
    const mateContext = await englishContext(browser);
    const ana = await ownerContext.newPage();
    const bruno = await mateContext.newPage();
    try {
      await login(ana, owner.email, owner.password);
      await login(bruno, mate.email, mate.password);
      await bruno.goto("/internal-chats");
      await bruno.getByTestId("internal-chats-screen").waitFor();
      await ana.goto("/internal-chats");

      // Ana starts a direct conversation with Bruno and writes.
      await ana.getByTestId("internal-chat-new").click();
      await ana.getByTestId("internal-new-chat-member").filter({ hasText: mate.name }).click();
      await expect.poll(() => ana.getByTestId("internal-conversation-title").textContent(), { timeout: 15_000 }).toBe(mate.name);
      const anaComposer = ana.getByTestId("internal-chat-composer");
      await anaComposer.fill("Olá Bruno, o pedido 42 saiu?");
      await anaComposer.press("Enter");
      await ana.getByTestId("internal-message").filter({ hasText: "Olá Bruno, o pedido 42 saiu?" }).waitFor();

      // Bruno's list shows the conversation live, unread.
      const item = bruno.getByTestId("internal-chat-item").filter({ hasText: owner.name });
      await item.waitFor({ timeout: 15_000 });
      await expect.poll(() => item.getByTestId("internal-chat-unread").textContent(), { timeout: 15_000 }).toBe("1");
      await item.click();
      await bruno.getByTestId("internal-message").filter({ hasText: "Olá Bruno, o pedido 42 saiu?" }).waitFor();
      await expect.poll(() => item.getByTestId("internal-chat-unread").count(), { timeout: 15_000 }).toBe(0);

      // Bruno types: Ana sees it; then he answers and Ana reads it live.
      const brunoComposer = bruno.getByTestId("internal-chat-composer");
      await brunoComposer.pressSequentially("Saiu sim", { delay: 30 });
      await ana.getByTestId("internal-typing").waitFor({ timeout: 15_000 });
      await brunoComposer.press("Enter");
      await ana.getByTestId("internal-message").filter({ hasText: "Saiu sim" }).waitFor({ timeout: 15_000 });

      // Ana @mentions Bruno by picking him from the member list; his bell counts it. Her frames are
      // slowed to 80 ms (a loaded machine): typing on right after the pick must still land
      // after `@Name ` and send, not have the caret moved back into the mention by a late frame.
      await ana.evaluate(() => {
        const frame = window.requestAnimationFrame.bind(window);
        window.requestAnimationFrame = (callback) => window.setTimeout(() => frame(callback), 80);
      });
      await anaComposer.pressSequentially("@Bru", { delay: 30 });
      await ana.getByTestId("mention-suggestions").getByRole("option", { name: mate.name }).waitFor();
      await anaComposer.press("Enter");
      await expect.poll(() => anaComposer.inputValue(), { interval: 20 }).toBe(`@${mate.name} `);
      await anaComposer.pressSequentially("confere a nota?", { delay: 10 });
      await anaComposer.press("Enter");
      await bruno.getByTestId("internal-message").filter({ hasText: `@${mate.name} confere a nota?` }).waitFor({ timeout: 15_000 });
      await expect.poll(() => bruno.getByTestId("notifications-bell").textContent(), { timeout: 15_000 }).toContain("1");

      // On a 390 px phone the conversation is shown alone, with its way back to the list.
      await bruno.setViewportSize({ width: 390, height: 800 });
      await bruno.getByTestId("internal-conversation").waitFor();
      expect(await bruno.getByTestId("internal-chat-item").first().isVisible()).toBe(false);
      const width = await bruno.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(390);
    } catch (error) {
      await snapshot(ana, "internal-chat-ana");
      await snapshot(bruno, "internal-chat-bruno");
      throw error;
    } finally {
      await ownerContext.close();
      await mateContext.close();
    }
  });
});
