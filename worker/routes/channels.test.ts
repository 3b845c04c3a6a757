import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { signHub } from "../lib/hmac";
import { call, expectStatus, register } from "../test/helpers";

async function cloudConnection(token: string, phoneNumberId: string) {
  const res = await call("POST", "/api/connections", {
    token,
    body: { channel: "whatsapp-cloud", name: "Loja", phoneNumberId, accessToken: "EAAG-test-access-token-000000", greetingMessage: "" },
  });
  return expectStatus<{ id: string }>(res, 201);
}

function textWebhook(phoneNumberId: string, from: string, id: string, body: string, ts = 1_700_000_000) {
  return {
    object: "whatsapp_business_account",
    entry: [
      {
        id: "WABA",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "15550000000", phone_number_id: phoneNumberId },
              contacts: [{ profile: { name: "Maria" }, wa_id: from }],
              messages: [{ from, id, timestamp: String(ts), type: "text", text: { body } }],
            },
          },
        ],
      },
    ],
  };
}

async function deliver(payload: unknown, secret = "test-app-secret") {
  const raw = JSON.stringify(payload);
  return call("POST", "/api/channels/whatsapp/webhook", {
    body: raw,
    headers: { "X-Hub-Signature-256": await signHub(secret, raw) },
  });
}

describe("WhatsApp Cloud API webhook", () => {
  it("the same webhook delivered three times stores one message in one pending ticket", async () => {
    const owner = await register();
    const phoneNumberId = String(Date.now()).slice(-10) + "1";
    await cloudConnection(owner.token, phoneNumberId);
    const payload = textWebhook(phoneNumberId, "5511988887777", `wamid.${crypto.randomUUID()}`, "Olá");
    for (let i = 0; i < 3; i++) await expectStatus(await deliver(payload), 200);
    const list = await expectStatus<{ results: { id: string; status: string; lastMessagePreview: string }[]; total: number }>(
      await call("GET", "/api/tickets", { token: owner.token }),
      200,
    );
    expect(list.total).toBe(1);
    expect(list.results[0]?.status).toBe("pending");
    expect(list.results[0]?.lastMessagePreview).toBe("Olá");
    const messages = await expectStatus<{ results: { body: string; direction: string }[] }>(
      await call("GET", `/api/tickets/${list.results[0]?.id}/messages`, { token: owner.token }),
      200,
    );
    expect(messages.results.map((m) => m.body)).toEqual(["Olá"]);
  });

  it("a bad or missing signature answers 401 and stores nothing", async () => {
    const before = await env.DB.prepare("SELECT COUNT(*) AS n FROM messages").first<{ n: number }>();
    const payload = textWebhook("999", "5511988887777", "wamid.x", "hi");
    await expectStatus(await deliver(payload, "wrong-secret"), 401);
    await expectStatus(await call("POST", "/api/channels/whatsapp/webhook", { body: JSON.stringify(payload) }), 401);
    const after = await env.DB.prepare("SELECT COUNT(*) AS n FROM messages").first<{ n: number }>();
    expect(after?.n).toBe(before?.n);
  });
});

describe("sending through the Cloud API adapter", () => {
  it("a member's reply reaches the Graph API stand-in with the bearer token and the wamid comes back", async () => {
    const owner = await register();
    const phoneNumberId = String(Date.now()).slice(-10) + "2";
    await cloudConnection(owner.token, phoneNumberId);
    await expectStatus(await deliver(textWebhook(phoneNumberId, "5511977776666", `wamid.${crypto.randomUUID()}`, "Oi")), 200);
    const list = await expectStatus<{ results: { id: string }[] }>(await call("GET", "/api/tickets", { token: owner.token }), 200);
    const ticketId = list.results[0]!.id;
    const sent = await expectStatus<{ id: string; status: string }>(
      await call("POST", `/api/tickets/${ticketId}/messages`, { token: owner.token, body: { type: "text", body: "Bom dia!", idempotencyKey: "key-123456" } }),
      201,
    );
    expect(sent.status).toBe("pending");
    // The same idempotency key answers the first message and sends nothing more.
    const again = await expectStatus<{ id: string }>(
      await call("POST", `/api/tickets/${ticketId}/messages`, { token: owner.token, body: { type: "text", body: "Bom dia!", idempotencyKey: "key-123456" } }),
      200,
    );
    expect(again.id).toBe(sent.id);
    await expect
      .poll(async () => {
        const page = await expectStatus<{ results: { id: string; status: string }[] }>(
          await call("GET", `/api/tickets/${ticketId}/messages`, { token: owner.token }),
          200,
        );
        return page.results.find((m) => m.id === sent.id)?.status;
      })
      .toBe("sent");
    const recorded = (await (await fetch(`${env.META_STANDIN_ORIGIN}/__sent`)).json()) as { path: string; authorization: string; body: { to?: string; text?: { body: string } } }[];
    const mine = recorded.filter((r) => r.path === `/v23.0/${phoneNumberId}/messages`);
    expect(mine).toHaveLength(1);
    expect(mine[0]?.authorization).toBe("Bearer EAAG-test-access-token-000000");
    expect(mine[0]?.body.to).toBe("5511977776666");
    expect(mine[0]?.body.text?.body).toBe("Bom dia!");
  });
});
