/**
 * WhatsApp by QR code (issue 15), end to end in Chromium against the Evolution API stand-in
 * (standins/evolution.ts, started by e2e/run.mjs): the owner creates a `whatsapp-qr` connection on
 * the Connections screen, the pairing dialog opens with the instance's QR code, the phone "scans"
 * it (the stand-in's control endpoint posts CONNECTION_UPDATE open to our webhook) and the status
 * turns Connected live, without a reload.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { launch, snapshot } from "./browser";
import { api, englishContext, login } from "./support";

const EVOLUTION = process.env.E2E_EVOLUTION_ORIGIN ?? "";

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe("WhatsApp by QR code", () => {
  it("pairs a whatsapp-qr connection from the QR dialog: the stand-in's scan turns it Connected live", async () => {
    const context = await englishContext(browser);
    const page = await context.newPage();
    try {
      const email = `qr.${Date.now().toString(36)}@example.com`;
      const password = "qr-owner-password-1";
      const { token } = await api<{ token: string }>("POST", "/api/register", null, { name: "Paula Dona", email, phone: "+55 11 93333-4444", password, companyName: "Loja QR" });
      await login(page, email, password);

      await page.goto("/connections");
      await page.getByRole("button", { name: "New connection" }).first().click();
      await page.getByLabel("Name").fill("Balcão QR");
      await page.getByLabel("Channel").selectOption("whatsapp-qr");
      await page.getByRole("button", { name: "Create" }).click();

      // The pairing dialog opens with the Evolution instance's QR.
      await page.getByTestId("pairing-qr").waitFor({ timeout: 15_000 });
      const [connection] = await api<{ id: string; channel: string; status: string }[]>("GET", "/api/connections", token);
      expect(connection).toMatchObject({ channel: "whatsapp-qr", status: "DISCONNECTED" });

      // The phone scans it: Evolution posts CONNECTION_UPDATE open to the connection's webhook.
      const scanned = await fetch(`${EVOLUTION}/__scan/conversa-${connection!.id}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ number: "5511933334444" }) });
      expect(((await scanned.json()) as { delivered: boolean }).delivered).toBe(true);

      await page.getByText("Phone connected.").waitFor({ timeout: 15_000 });
      await expect.poll(() => page.getByTestId("connection-status").first().getAttribute("data-status"), { timeout: 15_000 }).toBe("connected");
      await expect.poll(() => page.getByTestId("pairing-qr").count()).toBe(0);
    } catch (error) {
      await snapshot(page, "whatsapp-qr");
      throw error;
    } finally {
      await context.close();
    }
  });
});
