/**
 * Issue 15, Instagram end to end in Chromium: a member clicks "Connect Instagram" on the
 * Connections screen, allows access on the stand-in's consent page, comes back through
 * /callback/instagram to a connected Instagram connection; a customer mentions the shop in a story
 * (the stand-in delivers Meta's signed webhook) and the ticket shows the mention and the answer of
 * the connection's story-mention flow.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { BASE_URL, launch, snapshot } from "./browser";
import { api, englishContext, login } from "./support";

const INSTAGRAM = process.env.E2E_INSTAGRAM_ORIGIN ?? "";

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

async function control(path: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${INSTAGRAM}${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${path} → ${res.status} ${text}`);
  return JSON.parse(text);
}

describe("Instagram, as a shop would connect and use it", () => {
  it("connect through the consent page, a story mention arrives, the story-mention flow answers in the ticket", async () => {
    const context = await englishContext(browser);
    const page = await context.newPage();
    const email = `instagram.${Date.now().toString(36)}@example.com`;
    const password = "instagram-password-1";
    const igUserId = `1784${Date.now()}`;
    const username = `loja.e2e.${Date.now().toString(36)}`;
    try {
      const { token } = await api<{ token: string }>("POST", "/api/register", null, { name: "Iris Insta", email, phone: "+55 11 94444-5555", password, companyName: "Loja do Insta" });
      // The story-mention flow: one text block.
      const flow = await api<{ id: string }>("POST", "/api/flows", token, { name: "Menções", type: "story_mention" });
      await api("PUT", `/api/flows/${flow.id}`, token, {
        draft: {
          version: 1,
          nodes: [
            { id: "start", type: "start", position: { x: 0, y: 0 }, data: {} },
            { id: "t", type: "text", position: { x: 0, y: 100 }, data: { message: "Obrigado por mencionar a loja!" } },
          ],
          edges: [{ id: "e0", source: "start", sourceHandle: "next", target: "t" }],
        },
      });
      await api("POST", `/api/flows/${flow.id}/publish`, token);
      await control("/__account", { userId: igUserId, username });
      await login(page, email, password);

      // Connect Instagram: the business login page (the stand-in's), Allow, back to the app.
      await page.goto("/connections");
      await page.getByTestId("connect-instagram").click();
      await page.waitForURL(`${INSTAGRAM}/oauth/authorize?**`);
      await page.getByRole("button", { name: "Allow" }).click();
      await page.waitForURL(`${BASE_URL}/connections`, { timeout: 20_000 });
      const row = page.getByTestId("connection-row").filter({ hasText: `@${username}` });
      await row.waitFor({ timeout: 15_000 });
      await expect.poll(() => row.getByTestId("connection-status").getAttribute("data-status")).toBe("connected");
      await snapshot(page, "instagram-connected");

      // The connection's story-mention flow.
      const connections = await api<{ id: string; channel: string }[]>("GET", "/api/connections", token);
      const instagram = connections.find((c) => c.channel === "instagram");
      expect(instagram).toBeDefined();
      await api("PUT", "/api/companies/default-flows", token, { channelId: instagram!.id, storyFlowId: flow.id });

      // A customer mentions the shop in a story: Meta's signed webhook, from the stand-in.
      const igsid = `9${Date.now()}`;
      await control("/__profiles", { igsid, name: "Clara Stories", username: "clara.stories" });
      const delivered = (await control("/__deliver", {
        payload: {
          object: "instagram",
          entry: [
            {
              id: igUserId,
              time: Date.now(),
              messaging: [
                {
                  sender: { id: igsid },
                  recipient: { id: igUserId },
                  timestamp: Date.now(),
                  message: { mid: `aWdfZAG1faXRlbToxOk${Date.now()}`, attachments: [{ type: "story_mention", payload: { url: `${INSTAGRAM}/cdn/story-${igsid}.jpg` } }] },
                },
              ],
            },
          ],
        },
      })) as { status: number };
      expect(delivered.status).toBe(200);

      // The ticket shows the mention (its link, nothing copied) and the flow's answer.
      await page.goto("/chats");
      const item = page.getByTestId("ticket-item").filter({ hasText: "Clara Stories" });
      await item.waitFor({ timeout: 15_000 });
      await item.click();
      await page.getByTestId("story-mention").waitFor({ timeout: 15_000 });
      await page.getByText("Obrigado por mencionar a loja!").first().waitFor({ timeout: 15_000 });
      await snapshot(page, "instagram-story-mention");

      // The answer went out to Instagram, to the customer.
      type Sent = { path: string; body: { recipient?: { id?: string }; message?: { text?: string } } | null };
      const sent = async () => ((await (await fetch(`${INSTAGRAM}/__sent`)).json()) as Sent[]).filter((r) => r.path.endsWith(`/${igUserId}/messages`) && r.body?.recipient?.id === igsid);
      await expect.poll(async () => (await sent()).some((r) => r.body?.message?.text === "Obrigado por mencionar a loja!"), { timeout: 15_000 }).toBe(true);
    } finally {
      await context.close();
    }
  }, 120_000);
});
