/**
 * Issue 12 "Dashboard" and "Announcements", end to end in Chromium: after a customer writes through
 * the sandbox phone and a member adds a contact, the dashboard shows those numbers (attendances,
 * contacts, new contacts); a platform administrator (PLATFORM_ADMINS of e2e/run.mjs) publishes an
 * announcement in the Admin area and a member sees it on the dashboard and marks it as seen.
 * Selectors are test ids and form field names (new strings are not in the e2e build's catalog).
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

/** The number a metric card shows. */
async function metric(page: import("playwright-core").Page, id: string): Promise<string> {
  return ((await page.getByTestId(`metric-${id}`).textContent()) ?? "").trim();
}

describe("the dashboard and announcements, as people would use them", () => {
  it("shows the numbers of a customer's message and a new contact; an admin's announcement is seen and dismissed", async () => {
    const stamp = Date.now().toString(36);
    const memberEmail = `dash.${stamp}@example.com`;
    const password = "dashboard-password-1";
    const token = await registerVerified({ name: "Beatriz Painel", email: memberEmail, phone: "+55 11 93333-4444", password, companyName: "Loja do Painel" });

    // Activity through the sandbox: pair a simulated phone and have a customer write.
    const connection = await api<{ id: string }>("POST", "/api/connections", token, { channel: "sandbox", name: "Balcão", greetingMessage: "", farewellMessage: "" });
    const pairing = await api<{ code: string }>("POST", `/api/connections/${connection.id}/pair`, token);
    const { deviceToken } = await api<{ deviceToken: string }>("POST", "/api/channels/sandbox/pair", null, { code: pairing.code });
    const events = await fetch(`${process.env.E2E_BASE_URL ?? "http://127.0.0.1:8787"}/api/channels/sandbox/events`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Device ${deviceToken}` },
      body: JSON.stringify({ events: [{ kind: "message", id: `sbx-${stamp}`, from: "+5511977776666", name: "Rita Cliente", type: "text", body: "Olá, quero um orçamento" }] }),
    });
    expect(events.status, await events.text()).toBeLessThan(300);
    // A member adds a contact.
    await api("POST", "/api/contacts", token, { name: "Sérgio Contato", phone: "+55 11 95555-1212" });

    const adminContext = await englishContext(browser);
    const memberContext = await englishContext(browser);
    const member = await memberContext.newPage();
    const admin = await adminContext.newPage();
    try {
      await login(member, memberEmail, password);
      await member.goto("/");
      await expect.poll(() => metric(member, "attendances"), { timeout: 15_000 }).toBe("1");
      expect(await metric(member, "contacts")).toBe("2");
      expect(await metric(member, "new-contacts")).toBe("2");

      // The platform administrator publishes an announcement for the dashboard.
      const adminEmail = "e2e-admin@conversa.test";
      await registerVerified({ name: "Ada Plataforma", email: adminEmail, phone: "+55 11 96666-7777", password, companyName: "Plataforma" });
      await login(admin, adminEmail, password);
      await admin.goto("/admin/announcements");
      await admin.getByTestId("new-announcement").click();
      await admin.locator('input[name="title"]').fill("Nova versão do painel");
      await admin.locator('textarea[name="body"]').fill("Veja as novidades em https://example.com/novidades");
      await admin.locator('input[name="code"]').fill("dashboard");
      await admin.locator('form button[type="submit"]').click();
      await admin.getByTestId("admin-announcement-row").filter({ hasText: "Nova versão do painel" }).waitFor({ timeout: 15_000 });

      // The member sees it on the dashboard, with its link, and marks it as seen.
      await member.reload();
      const card = member.getByTestId("dashboard-announcement").filter({ hasText: "Nova versão do painel" });
      await card.waitFor({ timeout: 15_000 });
      expect(await card.getByRole("link", { name: "https://example.com/novidades" }).getAttribute("href")).toBe("https://example.com/novidades");
      await card.getByTestId("announcement-seen").click();
      await expect.poll(() => card.count(), { timeout: 15_000 }).toBe(0);
      await member.reload();
      await member.getByTestId("metric-attendances").waitFor();
      expect(await member.getByTestId("dashboard-announcement").filter({ hasText: "Nova versão do painel" }).count()).toBe(0);
    } catch (error) {
      await snapshot(member, "dashboard-member");
      await snapshot(admin, "dashboard-admin");
      throw error;
    } finally {
      await adminContext.close();
      await memberContext.close();
    }
  });
});
