/**
 * Issue 8 point 1, end to end in Chromium: a customer sends an .html document and an .svg "image",
 * each with a script that would mark the page (`window.__pwned`), write to localStorage and call a
 * marker URL; a signed-in member opens them from the chat (clicking the attachment and the image)
 * and by navigating to the media URLs directly. No script runs: the media answers are sandboxed
 * downloads, and the app's own pages refuse inline script (CSP `script-src 'self'`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Download, Page } from "playwright-core";
import { BASE_URL, launch, snapshot } from "./browser";
import { api, englishContext, login } from "./support";

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** A script that leaves three traces if it ever runs: a global, a localStorage entry, a request. */
const payloadScript = (from: string) =>
  `window.__pwned = "${from}"; try { (window.top || window).__pwned = "${from}"; } catch (e) {} ` +
  `try { localStorage.setItem("pwned", "${from}"); } catch (e) {} ` +
  `fetch("/pwned-marker?from=${from}&token=" + encodeURIComponent(String(localStorage.getItem("token")))).catch(function () {}); ` +
  `new Image().src = "/pwned-marker-img?from=${from}";`;

const HTML = `<!doctype html><html><body><h1>Fatura</h1><script>${payloadScript("html")}</script></body></html>`;
const SVG = `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><script>${payloadScript("svg")}</script><rect width="40" height="40" fill="red"/></svg>`;

type MediaMessage = { type: string; media: { url: string; mime: string; name: string | null } | null };

describe("nothing a customer sends runs as our origin", () => {
  it("an .html document and an .svg image with scripts, opened by a member, never execute", async () => {
    const context: BrowserContext = await englishContext(browser);
    const markers: string[] = [];
    const downloads: Download[] = [];
    // The app's own CSP reports (console) while it is used: it must need nothing the CSP forbids.
    const violations: string[] = [];
    const watch = (page: Page) => {
      page.on("request", (request) => {
        if (request.url().includes("pwned-marker")) markers.push(request.url());
      });
      page.on("download", (download) => downloads.push(download));
      page.on("console", (message) => {
        if (message.text().includes("Content Security Policy")) violations.push(message.text());
      });
    };
    context.on("page", watch);

    const email = `security.${Date.now().toString(36)}@example.com`;
    const password = "agent-password-1";
    const { token } = await api<{ token: string }>("POST", "/api/register", null, { name: "Sofia Segura", email, phone: "+55 11 93333-4444", password, companyName: "Loja Segura" });
    const agent = await context.newPage();
    try {
      await login(agent, email, password);

      // A sandbox connection paired through the API; the customer sends the two files.
      const connection = await api<{ id: string }>("POST", "/api/connections", token, { channel: "sandbox", name: "Balcão", greetingMessage: "", farewellMessage: "" });
      const pairing = await api<{ code: string }>("POST", `/api/connections/${connection.id}/pair`, token);
      const { deviceToken } = await api<{ deviceToken: string }>("POST", "/api/channels/sandbox/pair", null, { code: pairing.code });
      const phone = "+5511966665555";
      const at = Date.now();
      const base64 = (text: string) => Buffer.from(text).toString("base64");
      const events = [
        { kind: "message", id: `sbx-sec-${at}-1`, from: phone, name: "Cliente Curioso", type: "text", body: "Segue a fatura", timestamp: at },
        { kind: "message", id: `sbx-sec-${at}-2`, from: phone, type: "document", body: "", media: { mime: "text/html", fileName: "fatura.html", dataBase64: base64(HTML) }, timestamp: at + 1 },
        { kind: "message", id: `sbx-sec-${at}-3`, from: phone, type: "image", body: "", media: { mime: "image/svg+xml", fileName: "foto.svg", dataBase64: base64(SVG) }, timestamp: at + 2 },
      ];
      const delivered = await fetch(`${BASE_URL}/api/channels/sandbox/events`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Device ${deviceToken}` },
        body: JSON.stringify({ events }),
      });
      expect(delivered.status, await delivered.clone().text()).toBe(200);

      // The app's page carries its CSP.
      const navigation = await agent.goto("/chats");
      const csp = (await navigation?.allHeaders())?.["content-security-policy"] ?? "";
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      // Open the ticket and click the attachment: a download, nothing rendered.
      const item = agent.getByTestId("ticket-item").filter({ hasText: "Cliente Curioso" });
      await item.waitFor({ timeout: 15_000 });
      await item.click();
      const attachment = agent.getByRole("link", { name: "Download fatura.html" });
      await attachment.waitFor({ timeout: 15_000 });
      await attachment.click();
      await expect.poll(() => downloads.length, { timeout: 15_000 }).toBeGreaterThan(0);
      expect(downloads[0]?.suggestedFilename()).toBe("fatura.html");

      // The SVG shows as a broken image at most; its lightbox neither runs it.
      await agent.getByRole("button", { name: "Open image" }).first().click();
      await agent.getByRole("dialog").waitFor();
      await agent.keyboard.press("Escape");

      // Navigating to the media URLs directly: each answer is a sandboxed octet-stream download.
      const page = await api<{ results: MediaMessage[] }>("GET", `/api/tickets/${(await api<{ results: { id: string }[] }>("GET", "/api/tickets", token)).results[0]?.id}/messages`, token);
      const media = page.results.filter((m) => m.media).map((m) => m.media!);
      expect(media.map((m) => m.name)).toEqual(["fatura.html", "foto.svg"]);
      for (const { url } of media) {
        const res = await fetch(`${BASE_URL}${url}`);
        expect(res.headers.get("content-type")).toBe("application/octet-stream");
        expect(res.headers.get("content-disposition")).toMatch(/^attachment;/);
        expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
        expect(res.headers.get("x-content-type-options")).toBe("nosniff");
        await res.arrayBuffer();

        const direct = await context.newPage();
        const before = downloads.length;
        const outcome = await direct.goto(url).then(
          () => "rendered",
          (error: Error) => error.message,
        );
        // Chromium turns an attachment into a download ("Download is starting"), never a page.
        expect(outcome).toContain("Download is starting");
        await expect.poll(() => downloads.length, { timeout: 15_000 }).toBeGreaterThan(before);
        expect(await direct.evaluate(() => (window as unknown as { __pwned?: string }).__pwned ?? null)).toBeNull();
        await direct.close();
      }

      // No trace of either script: no marker request, no global, no localStorage entry.
      await agent.waitForTimeout(500);
      expect(markers).toEqual([]);
      expect(await agent.evaluate(() => (window as unknown as { __pwned?: string }).__pwned ?? null)).toBeNull();
      expect(await agent.evaluate(() => localStorage.getItem("pwned"))).toBeNull();
      // The app ran under its CSP without a single violation...
      expect(violations).toEqual([]);
      // ...and that CSP refuses an inline script added to the page.
      const inlineRan = await agent.evaluate(() => {
        const script = document.createElement("script");
        script.textContent = "window.__inlineRan = true;";
        document.head.appendChild(script);
        return (window as unknown as { __inlineRan?: boolean }).__inlineRan === true;
      });
      expect(inlineRan).toBe(false);
      // (The console listener above does see CSP reports: the refused probe is one.)
      await expect.poll(() => violations.length, { timeout: 5_000 }).toBeGreaterThan(0);
    } catch (error) {
      await snapshot(agent, "security-agent");
      throw error;
    } finally {
      await context.close();
    }
  });
});
