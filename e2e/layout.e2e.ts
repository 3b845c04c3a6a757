/**
 * Issue 9 "Screens that fit", end to end in Chromium: the chat centre (an open ticket with the
 * contact panel), the flow editor and the CRM board at 1280×720, 1440×900, 1920×1080 and 390×844,
 * in the light and the dark theme, with screenshots under .tmp/layout/ (not committed) and
 * assertions on bounding boxes: the ticket header's parts never intersect and the name stays
 * readable, the composer lies inside the window, the page is never taller than the window on the
 * chat centre and the editor, nothing widens the page on a phone, the editor's minimap and zoom
 * controls are in view. The Spanish UI checks that a day chip never covers a message. Time fields
 * show and take times the app language's way (19:30, 7:30 PM), whatever the browser's language.
 * axe-core, injected into the page, finds no serious or critical violation on the main screens, in
 * either theme: none is tolerated.
 */
import { createHmac } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { BASE_URL, launch } from "./browser";
import { api, login, registerMetaNumber, registerVerified } from "./support";

const APP_SECRET = process.env.E2E_APP_SECRET ?? "";
const SHOTS = ".tmp/layout";
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

const SIZES = [
  { name: "1280x720", width: 1280, height: 720 },
  { name: "1440x900", width: 1440, height: 900 },
  { name: "1920x1080", width: 1920, height: 1080 },
  { name: "390x844", width: 390, height: 844 },
] as const;
const THEMES = ["light", "dark"] as const;
type Theme = (typeof THEMES)[number];
type Box = { x: number; y: number; width: number; height: number };

let browser: Browser;
let storageState: Awaited<ReturnType<BrowserContext["storageState"]>>;
let ticketId = "";
let flowId = "";
let ownerToken = "";
let boardColumns: string[] = [];

/** A context signed in as the test's owner, in `locale`, with `theme` stored before the app loads. */
async function screenContext(size: { width: number; height: number }, theme: Theme, locale = "en-US"): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: BASE_URL, locale, viewport: { width: size.width, height: size.height }, storageState, bypassCSP: true });
  await context.addCookies([{ name: "locale", value: locale, url: BASE_URL }]);
  await context.addInitScript((value) => localStorage.setItem("theme", value), theme);
  return context;
}

function intersects(a: Box, b: Box): boolean {
  return a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5;
}

async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  if (!found) throw new Error(`no box for ${locator.toString()}`);
  return found;
}

/** The visible boxes of the ticket header's direct parts (back, contact button, actions, toggle). */
async function headerParts(page: Page): Promise<{ label: string; box: Box }[]> {
  return page.getByTestId("ticket-header").evaluate((header) =>
    Array.from(header.querySelectorAll(":scope > *, :scope > button > *, :scope > div > *, :scope > div > div > *"))
      .map((element) => {
        const rect = element.getBoundingClientRect();
        return { label: element.getAttribute("aria-label") ?? element.getAttribute("data-testid") ?? element.tagName, box: { x: rect.x, y: rect.y, width: rect.width, height: rect.height } };
      })
      .filter((part) => part.box.width > 0 && part.box.height > 0),
  );
}

/** Elements whose right edge passes the window's (for a readable failure message). */
async function widerThanWindow(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll("body *"))
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1 && element.getBoundingClientRect().width > 0)
      .slice(0, 8)
      .map((element) => `${element.tagName.toLowerCase()}.${String(element.getAttribute("class") ?? "").slice(0, 80)} ${Math.round(element.getBoundingClientRect().right)}`),
  );
}

async function pageSize(page: Page): Promise<{ scrollWidth: number; scrollHeight: number; innerWidth: number; innerHeight: number }> {
  return page.evaluate(() => ({
    scrollWidth: document.scrollingElement?.scrollWidth ?? 0,
    scrollHeight: document.scrollingElement?.scrollHeight ?? 0,
    innerWidth: window.innerWidth,
    innerHeight: window.innerHeight,
  }));
}

/** Runs axe-core in the page (evaluated, so the app's CSP does not matter); answers serious/critical violations. */
async function axeViolations(page: Page): Promise<{ id: string; impact: string; help: string; targets: string[] }[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: string[]; html: string }[] }[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map((violation) => ({ id: violation.id, impact: violation.impact ?? "", help: violation.help, targets: violation.nodes.map((node) => `${node.target.join(" ")} ${node.html.slice(0, 160)}`) }));
  });
}

/** Opens the ticket in the chat centre; on wide windows makes sure the contact panel is open. */
async function openTicket(page: Page, width: number): Promise<void> {
  await page.goto(`/chats?ticket=${ticketId}`);
  await page.getByTestId("ticket-header").waitFor();
  await page.locator("[data-message-id]").first().waitFor();
  if (width >= 1280 && !(await page.getByTestId("contact-panel").isVisible())) {
    await page.getByTestId("ticket-contact-toggle").click();
    await page.getByTestId("contact-panel").waitFor();
  }
}

beforeAll(async () => {
  browser = await launch();
  mkdirSync(SHOTS, { recursive: true });
  const stamp = Date.now().toString(36);
  const email = `layout.${stamp}@example.com`;
  const password = "layout-password-1";
  const token = await registerVerified({ name: "Layout Owner", email, phone: "+55 11 93333-4444", password, companyName: `Layout ${stamp}` });

  // A WhatsApp Cloud API connection and a pending ticket with messages on two days.
  const phoneNumberId = String(Date.now()).slice(-12);
  await registerMetaNumber(phoneNumberId, "EAAG-layout-token-000000000", "+1 555-000-2222");
  await api("POST", "/api/connections", token, { channel: "whatsapp-cloud", name: "WhatsApp", phoneNumberId, accessToken: "EAAG-layout-token-000000000" });
  const waId = "5511944443333";
  const now = Math.floor(Date.now() / 1000);
  for (const [offset, text] of [
    [3 * 86_400, "Olá! Gostaria de saber o prazo de entrega para o meu pedido."],
    [60, "Ainda estou aguardando uma resposta, por favor."],
  ] as const) {
    const body = JSON.stringify({
      object: "whatsapp_business_account",
      entry: [{ id: "WABA", changes: [{ field: "messages", value: { messaging_product: "whatsapp", metadata: { display_phone_number: "15550002222", phone_number_id: phoneNumberId }, contacts: [{ profile: { name: "Maximiliana Albuquerque de Vasconcelos" }, wa_id: waId }], messages: [{ from: waId, id: `wamid.layout.${stamp}.${offset}`, timestamp: String(now - offset), type: "text", text: { body: text } }] } }] }],
    });
    const res = await fetch(`${BASE_URL}/api/channels/whatsapp/webhook`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Hub-Signature-256": `sha256=${createHmac("sha256", APP_SECRET).update(body).digest("hex")}` },
      body,
    });
    expect(res.status, await res.text()).toBe(200);
  }
  const tickets = await api<{ results: { id: string }[] }>("GET", "/api/tickets?status=all", token);
  ticketId = tickets.results[0]?.id ?? "";
  expect(ticketId).not.toBe("");

  // A flow with a few blocks, and a CRM board with the contact on it.
  const flow = await api<{ id: string }>("POST", "/api/flows", token, { name: "Atendimento", type: "default" });
  flowId = flow.id;
  const contacts = await api<{ results: { id: string }[] }>("GET", "/api/contacts", token);
  ownerToken = token;
  const first = await api<{ id: string }>("POST", "/api/crm/columns", token, { name: "Novo lead" });
  const second = await api<{ id: string }>("POST", "/api/crm/columns", token, { name: "Negociando" });
  boardColumns = [first.id, second.id];
  await api("POST", "/api/crm/columns", token, { name: "Ganho" });
  if (contacts.results[0]) await api("PUT", `/api/crm/contacts/${contacts.results[0].id}`, token, { columnId: first.id });

  const context = await browser.newContext({ baseURL: BASE_URL, locale: "en-US" });
  await context.addCookies([{ name: "locale", value: "en-US", url: BASE_URL }]);
  const page = await context.newPage();
  await login(page, email, password);
  storageState = await context.storageState();
  await context.close();
});

afterAll(async () => {
  await browser?.close();
});

describe("screens that fit every window", () => {
  for (const theme of THEMES) {
    for (const size of SIZES) {
      it(`${size.name} ${theme}: chats header, composer, editor and board fit`, async () => {
        const context = await screenContext(size, theme);
        const page = await context.newPage();
        const phone = size.width < 768;
        try {
          // Chats: an open ticket with the contact panel (beside the conversation on wide windows).
          await openTicket(page, size.width);
          const parts = await headerParts(page);
          for (const a of parts) for (const b of parts) if (a !== b) {
            const nested = a.box.x <= b.box.x && a.box.x + a.box.width >= b.box.x + b.box.width && a.box.y <= b.box.y && a.box.y + a.box.height >= b.box.y + b.box.height;
            const nestedOther = b.box.x <= a.box.x && b.box.x + b.box.width >= a.box.x + a.box.width && b.box.y <= a.box.y && b.box.y + b.box.height >= a.box.y + a.box.height;
            if (!nested && !nestedOther) expect(intersects(a.box, b.box), `${a.label} overlaps ${b.label}`).toBe(false);
          }
          // The ticket's actions that do not fit go into "More actions": inline or in the menu, never neither.
          const inline = await page.getByTestId("ticket-start-flow").isVisible();
          expect(inline !== (await page.getByTestId("ticket-more").isVisible()), "actions inline xor in the menu").toBe(true);
          if (phone) expect(inline, "a phone puts them in the menu").toBe(false);
          const name = await box(page.getByTestId("ticket-header-name"));
          expect(name.width, "the contact's name keeps room").toBeGreaterThan(60);
          const header = await box(page.getByTestId("ticket-header"));
          expect(name.x + name.width).toBeLessThanOrEqual(header.x + header.width);
          const composer = await box(page.getByTestId("composer"));
          expect(composer.y).toBeGreaterThanOrEqual(0);
          expect(composer.y + composer.height).toBeLessThanOrEqual(size.height + 0.5);
          let sizes = await pageSize(page);
          expect(sizes.scrollHeight, "the chat centre is never taller than the window").toBeLessThanOrEqual(sizes.innerHeight + 1);
          if (phone) expect(sizes.scrollWidth).toBeLessThanOrEqual(sizes.innerWidth);
          if (phone) expect(await page.getByTestId("ticket-item").first().isVisible()).toBe(false);
          await page.screenshot({ path: `${SHOTS}/chats-${size.name}-${theme}.png` });

          // The flow editor: minimap and zoom controls in view, the page no taller than the window.
          await page.goto(`/flows/${flowId}`);
          await page.getByTestId("flow-canvas").waitFor();
          await page.locator(".react-flow__controls").waitFor();
          for (const selector of [".react-flow__controls", ".react-flow__minimap"]) {
            const element = page.locator(selector);
            if (phone && selector === ".react-flow__minimap" && !(await element.isVisible())) continue;
            const found = await box(element);
            expect(found.y + found.height, `${selector} in view`).toBeLessThanOrEqual(size.height + 0.5);
            expect(found.x + found.width, `${selector} in view`).toBeLessThanOrEqual(size.width + 0.5);
          }
          sizes = await pageSize(page);
          expect(sizes.scrollHeight, "the editor is never taller than the window").toBeLessThanOrEqual(sizes.innerHeight + 1);
          if (phone) expect(sizes.scrollWidth).toBeLessThanOrEqual(sizes.innerWidth);
          await page.screenshot({ path: `${SHOTS}/flow-editor-${size.name}-${theme}.png` });

          // The CRM board: on a phone it scrolls inside itself, never widening the page.
          await page.goto("/crm");
          await page.getByTestId("crm-board").waitFor();
          sizes = await pageSize(page);
          if (phone) expect(sizes.scrollWidth, `the board does not widen the page: ${(await widerThanWindow(page)).join(" | ")}`).toBeLessThanOrEqual(sizes.innerWidth);
          await page.screenshot({ path: `${SHOTS}/crm-${size.name}-${theme}.png` });
        } finally {
          await context.close();
        }
      });
    }
  }

  it("Spanish, 1440×900 with the contact panel: day chips never cover a message", async () => {
    const context = await screenContext({ width: 1440, height: 900 }, "light", "es-ES");
    const page = await context.newPage();
    try {
      await openTicket(page, 1440);
      const chips = page.getByRole("separator");
      expect(await chips.count()).toBeGreaterThanOrEqual(2);
      const messages = await page.locator("[data-message-id]").all();
      for (const chip of await chips.all()) {
        const chipBox = await box(chip.locator("span"));
        for (const message of messages) expect(intersects(chipBox, await box(message)), `${await chip.getAttribute("aria-label")} covers a message`).toBe(false);
      }
      const parts = await headerParts(page);
      expect(parts.length).toBeGreaterThan(1);
      expect((await box(page.getByTestId("ticket-header-name"))).width).toBeGreaterThan(60);
      await page.screenshot({ path: `${SHOTS}/chats-es-1440x900.png` });
    } finally {
      await context.close();
    }
  });
});

describe("the flow editor's palette", () => {
  for (const locale of ["pt-BR", "es-ES"]) {
    it(`${locale}, 1280×720: no block label is cut`, async () => {
      const context = await screenContext({ width: 1280, height: 720 }, "light", locale);
      const page = await context.newPage();
      try {
        await page.goto(`/flows/${flowId}`);
        await page.getByTestId("palette-text").waitFor();
        const cut = await page.locator('[data-testid^="palette-"]').evaluateAll((buttons) =>
          buttons.flatMap((button) => {
            const label = button.querySelector("span");
            if (!label) return [`${button.getAttribute("data-testid")}: no label`];
            const style = getComputedStyle(label);
            const clipped = label.scrollWidth > label.clientWidth + 1 || button.scrollHeight > button.clientHeight + 1 || style.textOverflow === "ellipsis" || style.webkitLineClamp !== "none";
            return clipped ? [`${button.getAttribute("data-testid")}: ${label.textContent}`] : [];
          }),
        );
        expect(cut).toEqual([]);
        expect(await page.locator('[data-testid^="palette-"]').count()).toBeGreaterThanOrEqual(20);
      } finally {
        await context.close();
      }
    });
  }
});

describe("CRM cards are dragged by their whole body", () => {
  it("a mouse drag started in the middle of a card moves it to another column; a click opens the contact", async () => {
    const context = await screenContext({ width: 1440, height: 900 }, "light");
    const page = await context.newPage();
    try {
      await page.goto("/crm");
      const card = page.getByTestId("crm-card").first();
      await card.waitFor();
      const from = await box(card);
      const target = await box(page.getByRole("heading", { name: "Negociando" }));
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await page.mouse.down();
      for (let step = 1; step <= 12; step++) await page.mouse.move(from.x + from.width / 2 + ((target.x + 40 - from.x) * step) / 12, from.y + from.height / 2 + 20 * (step / 12));
      await page.mouse.move(target.x + 20, target.y + 70);
      await page.mouse.up();
      await expect
        .poll(async () => (await api<{ columns: { id: string; contacts: { id: string }[] }[] }>("GET", "/api/crm/board", ownerToken)).columns.find((c) => c.id === boardColumns[1])?.contacts.length ?? 0, { timeout: 10_000 })
        .toBe(1);
      await page.getByTestId("crm-card").first().click();
      await page.waitForURL(/\/contacts\?contact=/);
    } finally {
      await context.close();
    }
  });

  it("a finger held on the card, then moved, drags it back to the first column", async () => {
    // Start from the second column whatever the mouse test did.
    const board = await api<{ columns: { id: string; contacts: { id: string }[] }[] }>("GET", "/api/crm/board", ownerToken);
    const contactId = board.columns.flatMap((column) => column.contacts)[0]?.id;
    await api("PUT", `/api/crm/contacts/${contactId}`, ownerToken, { columnId: boardColumns[1] });
    const context = await browser.newContext({ baseURL: BASE_URL, locale: "en-US", viewport: { width: 1280, height: 800 }, storageState, hasTouch: true });
    const page = await context.newPage();
    try {
      await page.goto("/crm");
      const card = page.getByTestId("crm-card").first();
      await card.waitFor();
      const from = await box(card);
      const target = await box(page.getByRole("heading", { name: "Novo lead" }));
      const cdp = await context.newCDPSession(page);
      const touch = (type: "touchStart" | "touchMove" | "touchEnd", x: number, y: number) =>
        cdp.send("Input.dispatchTouchEvent", { type, touchPoints: type === "touchEnd" ? [] : [{ x, y }] });
      const [startX, startY] = [from.x + from.width / 2, from.y + from.height / 2];
      await touch("touchStart", startX, startY);
      await page.waitForTimeout(400); // past the 250 ms hold that tells a drag from a swipe
      for (let step = 1; step <= 12; step++) await touch("touchMove", startX + ((target.x + 40 - startX) * step) / 12, startY + 20 * (step / 12));
      await touch("touchMove", target.x + 20, target.y + 70);
      await touch("touchEnd", target.x + 20, target.y + 70);
      await expect
        .poll(async () => (await api<{ columns: { id: string; contacts: { id: string }[] }[] }>("GET", "/api/crm/board", ownerToken)).columns.find((c) => c.id === boardColumns[0])?.contacts.length ?? 0, { timeout: 10_000 })
        .toBe(1);
    } finally {
      await context.close();
    }
  });
});

describe("time fields follow the app's language, not the browser's (issue 9)", () => {
  const cases = [
    { locale: "pt-BR", browser: "en-US", closes: "18:00", keys: ["2", "1", "4", "5"], typed: "21:45" },
    { locale: "en-US", browser: "pt-BR", closes: "6:00 PM", keys: ["9", "4", "5", "p"], typed: "9:45 PM" },
  ] as const;
  for (const { locale, browser: browserLocale, closes, keys, typed } of cases) {
    it(`${locale} in a ${browserLocale} browser: operating hours show ${closes} and typing ${keys.join(" ")} saves 21:45`, async () => {
      await api("PUT", "/api/companies/operating-hours", ownerToken, {
        enabled: false,
        weekly: { sun: [], mon: [{ open: "09:00", close: "18:00" }], tue: [], wed: [], thu: [], fri: [], sat: [] },
        exceptions: [],
        outside: { all: { type: "none" }, connections: {} },
      });
      // The browser's own language differs from the app's (the cookie): a native time input would follow the browser.
      const context = await browser.newContext({ baseURL: BASE_URL, locale: browserLocale, viewport: { width: 1280, height: 800 }, storageState });
      await context.addCookies([{ name: "locale", value: locale, url: BASE_URL }]);
      const page = await context.newPage();
      try {
        await page.goto("/settings/operating-hours");
        const close = page.locator('main input[data-value="18:00"]');
        await close.waitFor();
        expect(await page.locator('main input[type="time"]').count(), "no native time input").toBe(0);
        expect((await close.inputValue()).replace(/\s/g, " ")).toBe(closes);
        await close.click({ position: { x: 14, y: 12 } });
        for (const key of keys) await page.keyboard.press(key);
        await expect.poll(async () => (await page.locator('main input[data-value="21:45"]').inputValue()).replace(/\s/g, " ")).toBe(typed);
        await page.getByRole("button", { name: /Save changes|Salvar alterações/ }).click();
        await expect
          .poll(async () => (await api<{ weekly: { mon: { open: string; close: string }[] } }>("GET", "/api/companies/operating-hours", ownerToken)).weekly.mon, { timeout: 10_000 })
          .toEqual([{ open: "09:00", close: "21:45" }]);
      } finally {
        await context.close();
      }
    });
  }
});

describe("axe-core on the main screens", () => {
  for (const theme of THEMES) {
    it(`${theme}: no serious or critical violations`, async () => {
      const found: Record<string, unknown> = {};
      const anonymous = await browser.newContext({ baseURL: BASE_URL, locale: "en-US", bypassCSP: true });
      await anonymous.addCookies([{ name: "locale", value: "en-US", url: BASE_URL }]);
      await anonymous.addInitScript((value) => localStorage.setItem("theme", value), theme);
      const loginPage = await anonymous.newPage();
      await loginPage.goto("/login");
      await loginPage.getByLabel("Email").waitFor();
      const onLogin = await axeViolations(loginPage);
      if (onLogin.length) found["/login"] = onLogin;
      await anonymous.close();

      const context = await screenContext({ width: 1440, height: 900 }, theme);
      const page = await context.newPage();
      try {
        const screens: [string, () => Promise<void>][] = [
          [`/chats?ticket=${ticketId}`, () => openTicket(page, 1440)],
          ["/contacts", async () => void (await page.goto("/contacts"))],
          ["/flows", async () => void (await page.goto("/flows"))],
          [`/flows/${flowId}`, async () => void (await page.goto(`/flows/${flowId}`), await page.locator(".react-flow__controls").waitFor())],
          ["/crm", async () => void (await page.goto("/crm"), await page.getByTestId("crm-board").waitFor())],
          ["/connections", async () => void (await page.goto("/connections"))],
          ["/settings/company", async () => void (await page.goto("/settings/company"))],
        ];
        for (const [path, open] of screens) {
          await open();
          await page.locator("main h1, main h2, main [data-testid]").first().waitFor();
          await page.waitForLoadState("networkidle");
          await page.waitForTimeout(300);
          const violations = await axeViolations(page);
          if (violations.length) found[path] = violations;
        }
      } finally {
        await context.close();
      }
      expect(found).toEqual({});
    });
  }
});
