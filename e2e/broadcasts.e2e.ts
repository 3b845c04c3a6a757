/**
 * Issue 10 "Broadcasts", end to end in Chromium: a member creates a broadcast to the contacts with
 * a tag through the sandbox connection in the slide-over form (the live recipient count shows the
 * tagged contacts), starts it, watches the sent count rise on the list without reloading, pauses
 * it (nothing more goes out), resumes it, and finds it finished in the history tab; the sandbox
 * phone received the flow's message once per tagged contact and nothing for the others. And the
 * shipping cycle screens: a cycle built in the editor (steps reordered), contacts added to it from
 * the contacts list's bulk action, the enrolment shown on the contact's page and removed there.
 * For a WhatsApp Cloud API connection the form offers the account's approved templates only and
 * maps their variables to contact fields.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { BASE_URL, launch, snapshot } from "./browser";
import { api, englishContext, login, registerMetaNumber } from "./support";

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

type TranscriptEntry = { direction: "to_customer" | "from_customer"; message: { type: string; body?: string } };

/** What the paired sandbox phone holds for one customer (GET /api/channels/sandbox/transcript, device token). */
async function transcript(deviceToken: string, phone: string): Promise<TranscriptEntry[]> {
  const res = await fetch(`${BASE_URL}/api/channels/sandbox/transcript?phone=${encodeURIComponent(phone)}`, { headers: { Authorization: `Device ${deviceToken}` } });
  if (!res.ok) throw new Error(`transcript ${phone} → ${res.status} ${await res.text()}`);
  return ((await res.json()) as { transcript: TranscriptEntry[] }).transcript;
}

/** The row's sent count as the list shows it. */
async function sentOf(page: Page, name: string): Promise<number> {
  const text = await page.locator(`[data-testid="broadcast-row"][data-name="${name}"] [data-testid="broadcast-sent"]`).textContent();
  return Number((text ?? "").replace(/\D/g, "") || "0");
}

describe("broadcasts, as a member would use them", () => {
  it("creates a broadcast to tagged contacts through the sandbox, watches it live, pauses, resumes, sees it in history; each phone gets it once", async () => {
    const context = await englishContext(browser);
    const page = await context.newPage();
    const email = `broadcasts.${Date.now().toString(36)}@example.com`;
    const password = "broadcasts-password-1";
    const message = "Promoção de fim de ano: 20% em tudo!";
    const name = "Promo de dezembro";
    try {
      // Setup through the API: what this test is not about.
      const { token } = await api<{ token: string }>("POST", "/api/register", null, {
        name: "Bia Broadcast",
        email,
        phone: "+55 11 95555-6666",
        password,
        companyName: "Loja das Campanhas",
      });
      const connection = await api<{ id: string }>("POST", "/api/connections", token, { channel: "sandbox", name: "Balcão" });
      const { code } = await api<{ code: string }>("POST", `/api/connections/${connection.id}/pair`, token);
      const { deviceToken } = await api<{ deviceToken: string }>("POST", "/api/channels/sandbox/pair", null, { code });
      const flow = await api<{ id: string }>("POST", "/api/flows", token, { name: "Oferta", type: "default" });
      await api("PUT", `/api/flows/${flow.id}`, token, {
        draft: {
          version: 1,
          nodes: [
            { id: "start", type: "start", position: { x: 0, y: 0 }, data: {} },
            { id: "hi", type: "text", position: { x: 0, y: 100 }, data: { message } },
          ],
          edges: [{ id: "e0", source: "start", sourceHandle: "next", target: "hi" }],
        },
      });
      await api("POST", `/api/flows/${flow.id}/publish`, token);
      const tag = await api<{ id: string }>("POST", "/api/tags", token, { name: "Clientes VIP", color: "#16a34a" });

      // Seven customers write from the sandbox phone; six of them get the tag (enough sends, at
      // 1–5 s apart, for the pause to land while some are still pending).
      const customers = [
        { name: "Ana Cliente", phone: "+5511970000001" },
        { name: "Bruno Cliente", phone: "+5511970000002" },
        { name: "Carla Cliente", phone: "+5511970000003" },
        { name: "Duda Cliente", phone: "+5511970000005" },
        { name: "Elis Cliente", phone: "+5511970000006" },
        { name: "Fred Cliente", phone: "+5511970000007" },
        { name: "Davi Sem Tag", phone: "+5511970000004" },
      ];
      const TAGGED = customers.length - 1;
      await fetch(`${BASE_URL}/api/channels/sandbox/events`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Device ${deviceToken}` },
        body: JSON.stringify({
          events: customers.map((customer, index) => ({ kind: "message", id: `e2e-bc-${Date.now()}-${index}`, from: customer.phone, name: customer.name, type: "text", body: "Oi!" })),
        }),
      }).then(async (res) => expect(res.status, await res.text()).toBe(200));
      type ContactRow = { id: string; name: string };
      await expect.poll(async () => (await api<{ results: ContactRow[] }>("GET", "/api/contacts?limit=100", token)).results.length, { timeout: 15_000 }).toBe(customers.length);
      const contacts = (await api<{ results: ContactRow[] }>("GET", "/api/contacts?limit=100", token)).results;
      const tagged = contacts.filter((contact) => contact.name !== "Davi Sem Tag").map((contact) => contact.id);
      await api("POST", "/api/contacts/bulk", token, { ids: tagged, action: "tag", tagIds: [tag.id] });

      await login(page, email, password);
      await page.goto("/broadcasts");

      // The slide-over form: name, connection, flow, a tag filter with its live count, a short delay.
      await page.getByRole("button", { name: "New broadcast" }).first().click();
      const sheet = page.getByRole("dialog");
      await sheet.getByLabel("Name").fill(name);
      await sheet.getByLabel("Connection").selectOption({ label: "Balcão" });
      await sheet.getByLabel("Flow", { exact: true }).selectOption({ label: "Oferta" });
      await expect.poll(() => sheet.getByTestId("audience-count").getAttribute("data-count"), { timeout: 15_000 }).toBe(String(customers.length));
      await sheet.getByRole("button", { name: "Add filter" }).click();
      await sheet.getByLabel("Tag of filter 1").selectOption({ label: "Clientes VIP" });
      await expect.poll(() => sheet.getByTestId("audience-count").getAttribute("data-count"), { timeout: 15_000 }).toBe(String(TAGGED));
      await sheet.getByLabel("Pause between two messages").selectOption("very_short");
      await sheet.getByRole("button", { name: "Create broadcast" }).click();
      await sheet.waitFor({ state: "detached" });

      const row = page.locator(`[data-testid="broadcast-row"][data-name="${name}"]`);
      await row.waitFor();
      expect(await row.getAttribute("data-status")).toBe("waiting");

      // Start: the sent count rises on the list, pushed by the hub (no reload from here on).
      await page.getByRole("button", { name: `Start ${name} now` }).click();
      await expect.poll(() => row.getAttribute("data-status"), { timeout: 15_000 }).toBe("started");
      await expect.poll(() => sentOf(page, name), { timeout: 30_000 }).toBeGreaterThanOrEqual(1);

      // Pause: it stops at once; nothing more goes out while paused.
      await page.getByRole("button", { name: `Pause ${name}` }).click();
      await expect.poll(() => row.getAttribute("data-status"), { timeout: 15_000 }).toBe("paused");
      // A send already handed to the channel when the pause came may still be reported; then nothing moves.
      await page.waitForTimeout(1_000);
      const atPause = await sentOf(page, name);
      await page.waitForTimeout(6_000);
      expect(await sentOf(page, name)).toBe(atPause);
      const sentWhilePaused = (await Promise.all(customers.map((c) => transcript(deviceToken, c.phone)))).flat().filter((entry) => entry.direction === "to_customer" && entry.message.body === message).length;
      expect(sentWhilePaused).toBe(atPause);

      // Resume: it continues where it stopped and leaves the current tab when every recipient is reached.
      if (atPause < TAGGED) {
        await page.getByRole("button", { name: `Resume ${name}` }).click();
        await row.waitFor({ state: "detached", timeout: 90_000 });
      } else {
        // Every recipient was reached before the pause: it finished and left the tab by itself.
        await row.waitFor({ state: "detached", timeout: 30_000 });
      }

      // History: finished, every tagged contact sent, none rejected; the recipients drawer lists them as sent.
      await page.getByRole("link", { name: "History" }).click();
      const done = page.locator(`[data-testid="broadcast-row"][data-name="${name}"]`);
      await done.waitFor();
      expect(await done.getAttribute("data-status")).toBe("done");
      expect(await sentOf(page, name)).toBe(TAGGED);
      expect(await done.getByTestId("broadcast-rejected").textContent()).toBe("0");
      await page.getByRole("button", { name: `Recipients of ${name}` }).click();
      await page.getByRole("tab", { name: /Sent/ }).click();
      await expect.poll(() => page.locator('[data-testid="broadcast-recipient"][data-status="sent"]').count(), { timeout: 15_000 }).toBe(TAGGED);

      // The sandbox phone received the message exactly once per tagged customer, none for the other.
      for (const customer of customers) {
        const received = (await transcript(deviceToken, customer.phone)).filter((entry) => entry.direction === "to_customer" && entry.message.body === message);
        expect(received.length, customer.name).toBe(customer.name === "Davi Sem Tag" ? 0 : 1);
      }
    } catch (error) {
      await snapshot(page, "broadcasts");
      throw error;
    } finally {
      await context.close();
    }
  });
  it("builds a shipping cycle in the editor, adds contacts from the list, shows and removes the enrolment on the contact", async () => {
    const context = await englishContext(browser);
    const page = await context.newPage();
    const email = `cycles.${Date.now().toString(36)}@example.com`;
    const password = "cycles-password-1";
    try {
      const { token } = await api<{ token: string }>("POST", "/api/register", null, {
        name: "Caio Ciclos",
        email,
        phone: "+55 11 96666-7777",
        password,
        companyName: "Loja dos Ciclos",
      });
      const draft = (text: string) => ({
        version: 1,
        nodes: [
          { id: "start", type: "start", position: { x: 0, y: 0 }, data: {} },
          { id: "hi", type: "text", position: { x: 0, y: 100 }, data: { message: text } },
        ],
        edges: [{ id: "e0", source: "start", sourceHandle: "next", target: "hi" }],
      });
      for (const flowName of ["Boas-vindas", "Dica"]) {
        const flow = await api<{ id: string }>("POST", "/api/flows", token, { name: flowName, type: "default" });
        await api("PUT", `/api/flows/${flow.id}`, token, { draft: draft(`${flowName}!`) });
        await api("POST", `/api/flows/${flow.id}/publish`, token);
      }
      await api("POST", "/api/contacts", token, { name: "Eva Ciclo", phone: "+55 11 97100-0001", email: null, document: null });
      await api("POST", "/api/contacts", token, { name: "Fábio Ciclo", phone: "+55 11 97100-0002", email: null, document: null });
      await login(page, email, password);

      // The editor: name, two steps, the second moved up, saved; the address becomes the cycle's.
      await page.goto("/shipping-cycle");
      await page.getByRole("button", { name: "New cycle" }).first().click();
      await page.waitForURL(/\/shipping-cycle\/new$/);
      await page.getByLabel("Name").fill("Sequência de boas-vindas");
      const steps = page.getByTestId("cycle-step");
      await steps.nth(0).getByLabel("Flow to start").selectOption({ label: "Dica" });
      await page.getByRole("button", { name: "Add step" }).click();
      await steps.nth(1).getByLabel("Flow to start").selectOption({ label: "Boas-vindas" });
      await steps.nth(1).getByLabel("Wait").fill("30");
      await steps.nth(1).getByLabel("Unit").selectOption("second");
      await page.getByRole("button", { name: "Move step 2 up" }).click();
      expect(await steps.nth(0).getByLabel("Flow to start").inputValue()).not.toBe(await steps.nth(1).getByLabel("Flow to start").inputValue());
      expect(await steps.nth(0).getByLabel("Unit").inputValue()).toBe("second");
      await page.getByRole("button", { name: "Create cycle" }).click();
      await page.waitForURL((url) => /\/shipping-cycle\/[0-9a-f-]{36}$/.test(url.pathname));
      await expect.poll(() => steps.count()).toBe(2);
      expect(await steps.nth(0).getByLabel("Wait").inputValue()).toBe("30");

      // The list shows it with its two steps.
      await page.goto("/shipping-cycle");
      const row = page.getByTestId("cycle-row").filter({ hasText: "Sequência de boas-vindas" });
      await row.waitFor();

      // Contacts: select all, bulk "Add to shipping cycle".
      await page.goto("/contacts");
      await page.getByRole("checkbox", { name: "Select all loaded contacts" }).click();
      await page.getByRole("button", { name: "Add to shipping cycle" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Shipping cycle").selectOption({ label: "Sequência de boas-vindas" });
      await dialog.getByRole("button", { name: "Add to cycle" }).click();
      await dialog.waitFor({ state: "detached" });

      // The contact's page shows the enrolment (step 1 of 2, its next run) and removes it.
      await page.getByRole("button", { name: "Eva Ciclo" }).click();
      const enrolment = page.getByTestId("contact-cycle");
      await enrolment.waitFor();
      expect(await enrolment.textContent()).toContain("Sequência de boas-vindas");
      expect(await enrolment.textContent()).toContain("1 of 2");
      await enrolment.getByRole("button", { name: "Remove from Sequência de boas-vindas" }).click();
      await page.getByRole("alertdialog").getByRole("button", { name: "Remove" }).click();
      await enrolment.waitFor({ state: "detached" });
    } catch (error) {
      await snapshot(page, "shipping-cycles");
      throw error;
    } finally {
      await context.close();
    }
  });
  it("offers a Cloud API connection's approved templates and saves one with its variables mapped", async () => {
    const context = await englishContext(browser);
    const page = await context.newPage();
    const email = `templates.${Date.now().toString(36)}@example.com`;
    const password = "templates-password-1";
    const meta = process.env.E2E_META_ORIGIN ?? "";
    const phoneNumberId = String(Date.now()).slice(-12);
    const wabaId = `9${phoneNumberId}`;
    const accessToken = "EAAG-e2e-templates-token-0000000";
    try {
      const { token } = await api<{ token: string }>("POST", "/api/register", null, {
        name: "Tati Templates",
        email,
        phone: "+55 11 97777-8888",
        password,
        companyName: "Loja dos Modelos",
      });
      await registerMetaNumber(phoneNumberId, accessToken);
      const body = (text: string) => [{ type: "BODY", text }];
      const res = await fetch(`${meta}/__templates`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          wabaId,
          templates: [
            { id: "101", name: "oferta_natal", language: "pt_BR", category: "MARKETING", status: "APPROVED", components: body("Olá {{1}}, seu cupom é {{2}}.") },
            { id: "102", name: "aviso_pendente", language: "pt_BR", category: "UTILITY", status: "PENDING", components: body("Em análise") },
          ],
        }),
      });
      expect(res.status, await res.text()).toBe(200);
      await api("POST", "/api/connections", token, { channel: "whatsapp-cloud", name: "WhatsApp oficial", phoneNumberId, accessToken, wabaId });
      const flow = await api<{ id: string }>("POST", "/api/flows", token, { name: "Natal", type: "default" });
      await api("PUT", `/api/flows/${flow.id}`, token, {
        draft: {
          version: 1,
          nodes: [
            { id: "start", type: "start", position: { x: 0, y: 0 }, data: {} },
            { id: "hi", type: "text", position: { x: 0, y: 100 }, data: { message: "Feliz Natal!" } },
          ],
          edges: [{ id: "e0", source: "start", sourceHandle: "next", target: "hi" }],
        },
      });
      await api("POST", `/api/flows/${flow.id}/publish`, token);
      await login(page, email, password);

      await page.goto("/broadcasts");
      await page.getByRole("button", { name: "New broadcast" }).first().click();
      const sheet = page.getByRole("dialog");
      await sheet.getByLabel("Name").fill("Natal no WhatsApp");
      await sheet.getByLabel("Connection").selectOption({ label: "WhatsApp oficial" });
      await sheet.getByLabel("Flow", { exact: true }).selectOption({ label: "Natal" });
      // Only the approved template is offered; choosing it shows its text and one row per variable.
      const picker = sheet.getByLabel("Template", { exact: true });
      await expect.poll(async () => (await picker.locator("option").allTextContents()).join("|"), { timeout: 15_000 }).toContain("oferta_natal");
      expect((await picker.locator("option").allTextContents()).join("|")).not.toContain("aviso_pendente");
      await picker.selectOption({ label: "oferta_natal · pt_BR" });
      await sheet.getByText("Olá {{1}}, seu cupom é {{2}}.").waitFor();
      await expect.poll(() => sheet.getByTestId("template-variable").count()).toBe(2);
      await sheet.getByLabel("Source of variable 2").selectOption("text");
      await sheet.getByLabel("Text of variable 2").fill("NATAL20");
      await sheet.getByRole("button", { name: "Create broadcast" }).click();
      await sheet.waitFor({ state: "detached" });

      const list = await api<{ results: { id: string; name: string }[] }>("GET", "/api/broadcasts?tab=current", token);
      const created = list.results.find((row) => row.name === "Natal no WhatsApp");
      expect(created).toBeTruthy();
      const detail = await api<{ template: unknown }>("GET", `/api/broadcasts/${created?.id}`, token);
      expect(detail.template).toEqual({
        name: "oferta_natal",
        language: "pt_BR",
        variables: [
          { component: "body", index: 1, source: { type: "contact", field: "first_name" } },
          { component: "body", index: 2, source: { type: "text", text: "NATAL20" } },
        ],
      });
    } catch (error) {
      await snapshot(page, "broadcast-templates");
      throw error;
    } finally {
      await context.close();
    }
  });
});
