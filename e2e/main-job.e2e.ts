/**
 * Issue "The main job", end to end in Chromium: an agent page and the sandbox phone page side by
 * side (pair by code → the customer sends 'Olá' → the pending ticket appears without reload → the
 * agent accepts and replies → the phone shows the reply and the agent sees it read → close → the
 * phone receives the farewell), and the same ticket flow through the WhatsApp Cloud API adapter
 * against the Graph API stand-in (signed webhooks in, sends recorded by the stand-in).
 */
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { BASE_URL, launch, snapshot } from "./browser";
import { api, englishContext, login, registerMetaNumber } from "./support";

const META = process.env.E2E_META_ORIGIN ?? "";
const APP_SECRET = process.env.E2E_APP_SECRET ?? "";

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** Registers an owner through the API and signs the agent page in through the login screen. */
async function agentPage(context: BrowserContext, label: string): Promise<{ page: Page; token: string }> {
  const email = `agent.${label}.${Date.now().toString(36)}@example.com`;
  const password = "agent-password-1";
  const { token } = await api<{ token: string }>("POST", "/api/register", null, {
    name: "Carla Agente",
    email,
    phone: "+55 11 91111-2222",
    password,
    companyName: `Loja ${label}`,
  });
  const page = await context.newPage();
  await login(page, email, password);
  return { page, token };
}

describe("the main job, as people would use it", () => {
  it("sandbox phone and agent: pair, message, live ticket, reply with ticks, close with farewell", async () => {
    const agentContext = await englishContext(browser);
    const phoneContext = await englishContext(browser);
    const { page: agent, token } = await agentPage(agentContext, "sandbox");
    const phone = await phoneContext.newPage();
    try {
      await api("POST", "/api/connections", token, {
        channel: "sandbox",
        name: "Balcão",
        greetingMessage: "Olá! Já vamos te atender.",
        farewellMessage: "Obrigado pelo contato!",
      });

      // The agent pairs the phone by code from the Connections screen.
      await agent.goto("/connections");
      await agent.getByRole("button", { name: "Pair Balcão" }).click();
      const codeEl = agent.getByTestId("pairing-code");
      await codeEl.waitFor();
      const code = (await codeEl.getAttribute("data-code")) ?? "";
      expect(code).toMatch(/^[A-Z0-9]{8}$/);

      await phone.goto("/sandbox/phone");
      await phone.getByLabel("Pairing code").fill(code);
      await phone.getByRole("button", { name: "Pair phone" }).click();
      await expect.poll(() => agent.getByTestId("connection-status").first().getAttribute("data-status"), { timeout: 15_000 }).toBe("connected");

      // The agent watches the chat centre before anything arrives: no reload from here on.
      await agent.goto("/chats");

      await phone.getByLabel("Customer name").fill("Maria Cliente");
      await phone.getByLabel("Customer phone").fill("+55 11 97777-6666");
      await phone.getByRole("button", { name: "Start conversation" }).click();
      await phone.getByLabel("Message").fill("Olá");
      await phone.getByRole("button", { name: "Send", exact: true }).click();

      const item = agent.getByTestId("ticket-item").filter({ hasText: "Maria Cliente" });
      await item.waitFor({ timeout: 15_000 });
      await item.click();
      await agent.getByText("Olá", { exact: true }).waitFor();
      await agent.getByRole("button", { name: "Accept ticket" }).click();

      // The greeting went out with the new ticket; the agent's reply follows it.
      await phone.getByText("Olá! Já vamos te atender.").waitFor({ timeout: 15_000 });
      await agent.getByTestId("chat-composer").fill("Bom dia, Maria! Como posso ajudar?");
      await agent.getByTestId("chat-send").click();
      await phone.getByText("Bom dia, Maria! Como posso ajudar?").waitFor({ timeout: 15_000 });

      // The phone shows it and reports it read: the agent's bubble gets blue ticks.
      const reply = agent.locator("div", { hasText: "Bom dia, Maria! Como posso ajudar?" }).last();
      await expect.poll(async () => reply.getByRole("img", { name: "Read" }).count(), { timeout: 15_000 }).toBeGreaterThan(0);
      // The customer's own message carries ticks on the phone (read once the agent opened it).
      await expect
        .poll(async () => phone.locator('[data-testid="phone-message"][data-direction="from_customer"] [data-status="read"]').count(), { timeout: 15_000 })
        .toBeGreaterThan(0);

      // Close: the phone receives the farewell.
      await agent.getByRole("button", { name: "Close ticket" }).click();
      await agent.getByRole("alertdialog").getByRole("button", { name: "Close ticket" }).click();
      await phone.getByText("Obrigado pelo contato!").waitFor({ timeout: 15_000 });
    } catch (error) {
      await snapshot(agent, "main-job-agent");
      await snapshot(phone, "main-job-phone");
      throw error;
    } finally {
      await agentContext.close();
      await phoneContext.close();
    }
  });

  it("WhatsApp Cloud API: signed webhook in, reply out through the adapter, read status, farewell", async () => {
    const context = await englishContext(browser);
    const { page: agent, token } = await agentPage(context, "cloud");
    const phoneNumberId = String(Date.now()).slice(-12);
    const waId = "5511955554444";
    try {
      await registerMetaNumber(phoneNumberId, "EAAG-e2e-access-token-00000000", "+1 555-000-1111");
      await api("POST", "/api/connections", token, {
        channel: "whatsapp-cloud",
        name: "WhatsApp oficial",
        phoneNumberId,
        accessToken: "EAAG-e2e-access-token-00000000",
        farewellMessage: "Até logo!",
      });
      await fetch(`${META}/__reset`, { method: "POST" });
      await agent.goto("/chats");

      const deliver = async (value: Record<string, unknown>) => {
        const body = JSON.stringify({
          object: "whatsapp_business_account",
          entry: [{ id: "WABA", changes: [{ field: "messages", value: { messaging_product: "whatsapp", metadata: { display_phone_number: "15550001111", phone_number_id: phoneNumberId }, ...value } }] }],
        });
        const res = await fetch(`${BASE_URL}/api/channels/whatsapp/webhook`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-Hub-Signature-256": `sha256=${createHmac("sha256", APP_SECRET).update(body).digest("hex")}` },
          body,
        });
        expect(res.status, await res.clone().text()).toBe(200);
      };

      await deliver({
        contacts: [{ profile: { name: "João Cloud" }, wa_id: waId }],
        messages: [{ from: waId, id: `wamid.e2e.${Date.now()}`, timestamp: String(Math.floor(Date.now() / 1000)), type: "text", text: { body: "Oi, tudo bem?" } }],
      });
      const item = agent.getByTestId("ticket-item").filter({ hasText: "João Cloud" });
      await item.waitFor({ timeout: 15_000 });
      await item.click();
      await agent.getByRole("button", { name: "Accept ticket" }).click();
      await agent.getByTestId("chat-composer").fill("Tudo ótimo! Em que posso ajudar?");
      await agent.getByTestId("chat-send").click();

      // The adapter called the Graph API (the stand-in) with the token and the reply.
      type Sent = { path: string; authorization: string; responseId?: string; body: { to?: string; text?: { body?: string } } };
      const sentWith = async (text: string) =>
        ((await (await fetch(`${META}/__sent`)).json()) as Sent[]).find((r) => r.path.endsWith(`/${phoneNumberId}/messages`) && r.body.text?.body === text);
      await expect.poll(() => sentWith("Tudo ótimo! Em que posso ajudar?"), { timeout: 15_000 }).toBeTruthy();
      const sent = await sentWith("Tudo ótimo! Em que posso ajudar?");
      expect(sent?.authorization).toBe("Bearer EAAG-e2e-access-token-00000000");
      expect(sent?.body.to).toBe(waId);

      // Meta reports the reply delivered, then read: the agent's bubble turns blue without reload.
      const status = (name: string) => ({ statuses: [{ id: sent?.responseId, status: name, timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: waId }] });
      await deliver(status("delivered"));
      await deliver(status("read"));
      const reply = agent.locator("div", { hasText: "Tudo ótimo! Em que posso ajudar?" }).last();
      await expect.poll(async () => reply.getByRole("img", { name: "Read" }).count(), { timeout: 15_000 }).toBeGreaterThan(0);

      // Close: the farewell goes out through the adapter.
      await agent.getByRole("button", { name: "Close ticket" }).click();
      await agent.getByRole("alertdialog").getByRole("button", { name: "Close ticket" }).click();
      await expect.poll(() => sentWith("Até logo!"), { timeout: 15_000 }).toBeTruthy();
    } catch (error) {
      await snapshot(agent, "main-job-cloud-agent");
      throw error;
    } finally {
      await context.close();
    }
  });
});
