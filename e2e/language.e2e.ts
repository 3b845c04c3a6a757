/**
 * Issue 9 "The same rule everywhere" (errors and language), in Chromium: a keyword without a flow
 * says to choose one, an unknown flow address shows the not-found page, a connection never paired
 * says so instead of "Connection lost"; counts are plurals, the flow canvas's and the toasts' own
 * controls speak the user's language, a duplicated builder is named in it, the start-a-flow dialog's
 * button is a verb, and <html lang> follows the chosen language.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { BASE_URL, launch, newContext, snapshot } from "./browser";
import { api, englishContext, login } from "./support";

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
  const { token } = await api<{ token: string }>("POST", "/api/register", null, { name: `Dono ${label}`, email, phone: "+55 11 93333-4444", password, companyName: `Empresa ${label}` });
  return { token, email, password };
}

/** A context whose pages speak Brazilian Portuguese (the language cookie of spec §9). */
async function portugueseContext(): Promise<BrowserContext> {
  const context = await newContext(browser, "pt-BR");
  await context.addCookies([{ name: "locale", value: "pt-BR", url: BASE_URL }]);
  return context;
}

/** Signs in through the login screen in Portuguese. */
async function loginPt(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Senha").fill(password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await page.getByRole("navigation").first().waitFor();
}

/** A published flow: start → text. */
async function publishedGreeting(token: string, name: string) {
  const flow = await api<{ id: string }>("POST", "/api/flows", token, { name, type: "default" });
  await api("PUT", `/api/flows/${flow.id}`, token, {
    draft: {
      version: 1,
      nodes: [
        { id: "start", type: "start", position: { x: 0, y: 0 }, data: {} },
        { id: "hello", type: "text", position: { x: 0, y: 120 }, data: { message: "Olá!" } },
      ],
      edges: [{ id: "e1", source: "start", sourceHandle: "next", target: "hello" }],
    },
  });
  await api("POST", `/api/flows/${flow.id}/publish`, token);
  return flow;
}

describe("errors say what is wrong (issue 9)", () => {
  it("a keyword without a flow, an unknown flow address, a connection never paired", async () => {
    const a = await owner("errors");
    await api("POST", "/api/connections", a.token, { channel: "sandbox", name: "Balcão", greetingMessage: "", farewellMessage: "" });
    const context = await englishContext(browser);
    const page = await context.newPage();
    try {
      await login(page, a.email, a.password);

      // A connection created but never paired: "Not paired yet", in the shell and on its row.
      const notice = page.getByTestId("connection-lost");
      await notice.waitFor({ timeout: 15_000 });
      expect(await notice.getAttribute("data-state")).toBe("unpaired");
      expect(await notice.textContent()).toContain("Not paired yet");
      expect(await notice.textContent()).not.toContain("Connection lost");
      await page.goto("/connections");
      const status = page.getByTestId("connection-status").first();
      await status.waitFor({ timeout: 15_000 });
      await expect.poll(() => status.getAttribute("data-status"), { timeout: 15_000 }).toBe("unpaired");
      expect(await status.textContent()).toContain("Not paired yet");

      // A keyword saved without choosing a flow.
      await page.goto("/keywords");
      await page.getByRole("button", { name: "New keyword" }).first().click({ timeout: 15_000 });
      const sheet = page.getByRole("dialog");
      await sheet.getByLabel("Name", { exact: true }).fill("Preço");
      const words = sheet.getByLabel("Words of rule 1");
      await words.fill("preço");
      await words.press("Enter");
      await sheet.getByRole("button", { name: "Create keyword" }).click();
      await sheet.getByText("Choose a flow.", { exact: true }).waitFor({ timeout: 15_000 });
      expect(await sheet.getByText("Invalid identifier.").count()).toBe(0);

      // /flows/{anything unknown}: the app's not-found page, not "check your connection".
      for (const path of ["/flows/not-a-flow", "/flows/00000000-0000-4000-8000-000000000000"]) {
        await page.goto(path);
        await page.getByText("Page Not Found").waitFor({ timeout: 15_000 });
        expect(await page.getByText("Check your connection and try again.").count(), path).toBe(0);
      }
    } catch (error) {
      await snapshot(page, "language-errors");
      throw error;
    } finally {
      await context.close();
    }
  });
});

describe("the app speaks one language (issue 9)", () => {
  it("counts are plurals, and <html lang> follows the chosen language", async () => {
    const a = await owner("plurals");
    await api("POST", "/api/contacts", a.token, { name: "Única Pessoa", phone: "+55 11 95555-0001" });
    const context = await englishContext(browser);
    const page = await context.newPage();
    try {
      await login(page, a.email, a.password);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe("en-US");
      await page.goto("/contacts");
      await expect.poll(() => page.getByTestId("contacts-total").textContent(), { timeout: 15_000 }).toBe("1 contact");

      await page.getByRole("button", { name: "Language" }).first().click();
      await page.getByRole("menuitemradio", { name: "Español (España)" }).click();
      await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe("es-ES");
      await page.getByRole("button", { name: "Idioma" }).first().click();
      await page.getByRole("menuitemradio", { name: "English (US)" }).click();
      await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe("en-US");
    } catch (error) {
      await snapshot(page, "language-plurals");
      throw error;
    } finally {
      await context.close();
    }
  });

  it("in Portuguese: the canvas's and the toasts' own controls, the copy's name, and the Start verb", async () => {
    const a = await owner("idioma");
    const flow = await publishedGreeting(a.token, "Boas-vindas");
    const connection = await api<{ id: string }>("POST", "/api/connections", a.token, { channel: "sandbox", name: "Balcão", greetingMessage: "", farewellMessage: "" });
    const pairing = await api<{ code: string }>("POST", `/api/connections/${connection.id}/pair`, a.token);
    const { deviceToken } = await api<{ deviceToken: string }>("POST", "/api/channels/sandbox/pair", null, { code: pairing.code });
    const delivered = await fetch(`${BASE_URL}/api/channels/sandbox/events`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Device ${deviceToken}` },
      body: JSON.stringify({ events: [{ kind: "message", id: `sbx-lang-${Date.now()}`, from: "+5511966661234", name: "Carla Cliente", type: "text", body: "Oi", timestamp: Date.now() }] }),
    });
    expect(delivered.status, await delivered.clone().text()).toBe(200);

    const context = await portugueseContext();
    const page = await context.newPage();
    try {
      await loginPt(page, a.email, a.password);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe("pt-BR");

      // xyflow's zoom, fit and lock buttons are named in Portuguese, not in xyflow's English.
      await page.goto(`/flows/${flow.id}`);
      await page.locator(".react-flow__controls-zoomin").waitFor();
      for (const [selector, english] of [
        [".react-flow__controls-zoomin", "Zoom In"],
        [".react-flow__controls-zoomout", "Zoom Out"],
        [".react-flow__controls-fitview", "Fit View"],
        [".react-flow__controls-interactive", "Toggle Interactivity"],
      ] as const) {
        const label = (await page.locator(selector).getAttribute("aria-label")) ?? "";
        expect(label, selector).not.toBe("");
        expect(label.toLowerCase(), selector).not.toBe(english.toLowerCase());
      }

      // Duplicating names the copy in Portuguese; the toast's close button is named in Portuguese.
      await page.goto("/folders");
      await page.getByRole("button", { name: "Ações para Boas-vindas" }).click();
      await page.getByRole("menuitem", { name: "Duplicar" }).click();
      await page.getByTestId("flow-row").filter({ hasText: "Boas-vindas (cópia)" }).waitFor({ timeout: 15_000 });
      const close = page.locator("[data-sonner-toast] [data-close-button]").first();
      await close.waitFor();
      const closeLabel = (await close.getAttribute("aria-label")) ?? "";
      expect(closeLabel).not.toBe("");
      expect(closeLabel).not.toBe("Close toast");

      // The start-a-flow dialog's button is the verb "Iniciar", not the block's name "Início".
      await page.goto("/chats");
      await page.getByTestId("ticket-item").filter({ hasText: "Carla Cliente" }).click();
      // The header shows the button inline when it fits, else in "More actions": wait until
      // one of the two is on screen before choosing.
      const inline = page.getByTestId("ticket-start-flow");
      await inline.or(page.getByTestId("ticket-more")).filter({ visible: true }).first().waitFor();
      if (await inline.isVisible()) await inline.click();
      else {
        await page.getByTestId("ticket-more").click();
        await page.getByTestId("ticket-menu-start-flow").click();
      }
      const confirm = page.getByTestId("start-flow-confirm");
      await confirm.waitFor();
      expect((await confirm.textContent())?.trim()).toBe("Iniciar");
    } catch (error) {
      await snapshot(page, "language-portuguese");
      throw error;
    } finally {
      await context.close();
    }
  });
});
