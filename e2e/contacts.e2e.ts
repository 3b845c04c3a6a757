/**
 * Issue "Contacts, custom fields and tags, CRM board, quick messages", end to end in Chromium:
 * import a small .xlsx through the screen with its progress bar, filter by a tag, edit a contact's
 * custom field, export and download the file, and move a contact on the CRM board.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { XlsxWriter, concatBytes } from "../worker/lib/xlsx-writer";
import { BASE_URL, launch, snapshot } from "./browser";
import { api, englishContext, login } from "./support";

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** A small spreadsheet: a header row and four customers, one with a bad phone. */
function spreadsheet(): Buffer {
  const writer = new XlsxWriter();
  writer.addRow(["Nome", "Telefone", "Idade", "Tags"], { header: true });
  writer.addRow(["Ana Import", "+55 11 91234-0001", 31, "VIP"]);
  writer.addRow(["Bruno Import", "+55 11 91234-0002", 45, "VIP"]);
  writer.addRow(["Carla Import", "+55 11 91234-0003", 28, ""]);
  writer.addRow(["Telefone ruim", "123", 50, ""]);
  return Buffer.from(concatBytes(writer.finish()));
}

describe("contacts and the CRM board, as a person would use them", () => {
  it("import with progress, filter by tag, edit a custom field, export and download, move on the CRM board", async () => {
    const context = await englishContext(browser);
    const page = await context.newPage();
    const email = `contacts.${Date.now().toString(36)}@example.com`;
    const password = "contacts-password-1";
    const { token } = await api<{ token: string }>("POST", "/api/register", null, {
      name: "Dora Dona",
      email,
      phone: "+55 11 92222-3333",
      password,
      companyName: "Loja de Contatos",
    });
    try {
      await api("POST", "/api/custom-fields", token, { name: "Idade", type: "number", kind: "user" });
      await api("POST", "/api/tags", token, { name: "VIP", color: "#16a34a" });
      await login(page, email, password);

      // Import through the screen: upload, mapping (suggested), start, live progress, toast.
      await page.goto("/contacts");
      await page.getByRole("button", { name: "Import contacts" }).first().click();
      await page.getByLabel("Spreadsheet (.xlsx)").setInputFiles({
        name: "clientes.xlsx",
        mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        buffer: spreadsheet(),
      });
      await page.getByRole("button", { name: "Upload and continue" }).click();
      // Step 2: the mapping, with the first rows previewed and the suggestion preselected.
      await page.getByRole("cell", { name: "Ana Import" }).first().waitFor();
      await page.getByRole("button", { name: "Start import" }).click();
      await page.getByRole("progressbar", { name: "Import progress" }).first().waitFor();
      await page.getByText(/3 imported/).first().waitFor({ timeout: 30_000 });
      await page.getByRole("link", { name: "Download the refused rows" }).first().waitFor();
      await page.keyboard.press("Escape");

      // Filter by the VIP tag: only Ana and Bruno.
      await page.getByRole("button", { name: "Filter by tag" }).click();
      await page.getByRole("option", { name: /VIP/ }).click();
      await page.keyboard.press("Escape");
      await expect.poll(async () => page.getByRole("button", { name: "Carla Import" }).count(), { timeout: 15_000 }).toBe(0);
      await page.getByRole("button", { name: "Ana Import" }).waitFor();
      await page.getByRole("button", { name: "Bruno Import" }).waitFor();

      // Edit Ana's custom field.
      await page.getByRole("button", { name: "Ana Import" }).click();
      await page.getByRole("button", { name: "Edit" }).first().click();
      const age = page.getByLabel("Idade");
      await age.fill("32");
      await page.getByRole("button", { name: "Save changes" }).click();
      const contacts = await api<{ results: { id: string; name: string }[] }>("GET", "/api/contacts?search=Ana%20Import", token);
      const ana = contacts.results[0];
      expect(ana).toBeTruthy();
      await expect
        .poll(async () => {
          const detail = await api<{ values: { key: string; value: unknown }[] }>("GET", `/api/contacts/${ana?.id}`, token);
          return detail.values.find((v) => v.key === "idade")?.value;
        }, { timeout: 15_000 })
        .toBe("32");

      // Export and download the file.
      await page.goto("/contacts");
      await page.getByRole("button", { name: "Export contacts" }).first().click();
      const download = page.getByRole("link", { name: "Download export" }).first();
      await download.waitFor({ timeout: 30_000 });
      const href = (await download.getAttribute("href")) ?? "";
      const file = await fetch(new URL(href, BASE_URL));
      expect(file.status).toBe(200);
      const bytes = new Uint8Array(await file.arrayBuffer());
      expect([bytes[0], bytes[1]]).toEqual([0x50, 0x4b]); // a zip: the .xlsx container

      // CRM: Ana sits in "New"; move her to "Won" with the keyboard, as dnd-kit supports.
      const fresh = await api<{ id: string }>("POST", "/api/crm/columns", token, { name: "New" });
      const won = await api<{ id: string }>("POST", "/api/crm/columns", token, { name: "Won" });
      await api("PUT", `/api/crm/contacts/${ana?.id}`, token, { columnId: fresh.id });
      await page.goto("/crm");
      const handle = page.getByRole("button", { name: "Move contact Ana Import" });
      await handle.waitFor();
      await handle.focus();
      await page.keyboard.press("Space");
      await page.waitForTimeout(200);
      await page.keyboard.press("ArrowRight");
      await page.waitForTimeout(200);
      await page.keyboard.press("Space");
      await expect
        .poll(async () => {
          const board = await api<{ columns: { id: string; contacts: { id: string }[] }[] }>("GET", "/api/crm/board", token);
          return board.columns.find((c) => c.id === won.id)?.contacts.some((card) => card.id === ana?.id) ?? false;
        }, { timeout: 15_000 })
        .toBe(true);
    } catch (error) {
      await snapshot(page, "contacts-failure");
      throw error;
    } finally {
      await context.close();
    }
  });
});
