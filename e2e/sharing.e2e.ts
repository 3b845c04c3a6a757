/**
 * Issue 5, the paths the main flows test does not take: a member of another company opens a
 * shared flow and clones it (and is refused once cloning is off), and a member starts a flow for a
 * contact from a ticket in the chat centre ('builder started'), whose bot message reaches the
 * customer through the Cloud API adapter (the Graph API stand-in).
 */
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
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

/** Registers an owner through the API; answers the token and the credentials. */
async function owner(label: string) {
  const email = `${label}.${Date.now().toString(36)}@example.com`;
  const password = `${label}-password-1`;
  const { token } = await api<{ token: string }>("POST", "/api/register", null, {
    name: `Dono ${label}`,
    email,
    phone: "+55 11 93333-4444",
    password,
    companyName: `Empresa ${label}`,
  });
  return { token, email, password };
}

/** A published flow: start → text. */
async function publishedGreeting(token: string, name: string, text: string) {
  const flow = await api<{ id: string }>("POST", "/api/flows", token, { name, type: "default" });
  await api("PUT", `/api/flows/${flow.id}`, token, {
    draft: {
      version: 1,
      nodes: [
        { id: "start", type: "start", position: { x: 0, y: 0 }, data: {} },
        { id: "hello", type: "text", position: { x: 0, y: 120 }, data: { message: text } },
      ],
      edges: [{ id: "e1", source: "start", sourceHandle: "next", target: "hello" }],
    },
  });
  await api("POST", `/api/flows/${flow.id}/publish`, token);
  return flow;
}

describe("sharing flows and starting them from the chat", () => {
  it("another company clones a shared flow, and is refused once cloning is off", async () => {
    const a = await owner("share-a");
    const b = await owner("share-b");
    const flow = await publishedGreeting(a.token, "Boas-vindas compartilhadas", "Olá!");
    await api("PUT", `/api/flows/${flow.id}`, a.token, { shareActive: true, cloneActive: true });

    const context = await englishContext(browser);
    const page = await context.newPage();
    try {
      await login(page, b.email, b.password);
      await page.goto(`/share-flow/${flow.id}`);
      await page.getByText("Boas-vindas compartilhadas").first().waitFor();
      await page.getByRole("button", { name: "Clone into my company" }).click();
      await expect
        .poll(async () => (await api<{ name: string }[]>("GET", "/api/flows", b.token)).some((f) => f.name.startsWith("Boas-vindas compartilhadas")), { timeout: 15_000 })
        .toBe(true);

      await api("PUT", `/api/flows/${flow.id}`, a.token, { cloneActive: false });
      await page.goto(`/share-flow/${flow.id}`);
      await page.getByTestId("share-refusal").waitFor();
      expect(await page.getByRole("button", { name: "Clone into my company" }).count()).toBe(0);
    } catch (error) {
      await snapshot(page, "sharing-clone");
      throw error;
    } finally {
      await context.close();
    }
  });

  it("a member starts a flow from a ticket and the customer receives the bot's message", async () => {
    const a = await owner("start-flow");
    await publishedGreeting(a.token, "Pesquisa de satisfação", "Como foi o seu atendimento?");
    const phoneNumberId = String(Date.now()).slice(-12);
    await registerMetaNumber(phoneNumberId, "EAAG-e2e-access-token-00000000");
    await api("POST", "/api/connections", a.token, { channel: "whatsapp-cloud", name: "Oficial", phoneNumberId, accessToken: "EAAG-e2e-access-token-00000000" });
    const waId = "5511944443333";
    const body = JSON.stringify({
      object: "whatsapp_business_account",
      entry: [{ id: "WABA", changes: [{ field: "messages", value: {
        messaging_product: "whatsapp",
        metadata: { display_phone_number: "15550001111", phone_number_id: phoneNumberId },
        contacts: [{ profile: { name: "Paula Pesquisa" }, wa_id: waId }],
        messages: [{ from: waId, id: `wamid.e2e.start.${Date.now()}`, timestamp: String(Math.floor(Date.now() / 1000)), type: "text", text: { body: "Obrigada!" } }],
      } }] }],
    });
    const res = await fetch(`${BASE_URL}/api/channels/whatsapp/webhook`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Hub-Signature-256": `sha256=${createHmac("sha256", APP_SECRET).update(body).digest("hex")}` },
      body,
    });
    expect(res.status).toBe(200);

    const context = await englishContext(browser);
    const page = await context.newPage();
    try {
      await login(page, a.email, a.password);
      await page.goto("/chats");
      await page.getByTestId("ticket-item").filter({ hasText: "Paula Pesquisa" }).click();
      await page.getByTestId("ticket-start-flow").click();
      await page.getByRole("option", { name: /Pesquisa de satisfação/ }).click();
      await page.getByTestId("start-flow-confirm").click();
      // GETs (the number's proof at creation, media lookups) are recorded with a null body.
      type Sent = { path: string; body: { to?: string; text?: { body?: string } } | null };
      await expect
        .poll(async () => ((await (await fetch(`${META}/__sent`)).json()) as Sent[]).some((r) => r.body?.to === waId && r.body.text?.body === "Como foi o seu atendimento?"), { timeout: 15_000 })
        .toBe(true);
    } catch (error) {
      await snapshot(page, "sharing-start-flow");
      throw error;
    } finally {
      await context.close();
    }
  });
});
