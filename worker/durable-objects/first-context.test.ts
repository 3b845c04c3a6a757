/**
 * A new contact's first flow context (issue 16): the turn that created the contact knows its one
 * message, so the flow's context takes the last message from it and reads only the company's fields
 * and the flow's rotary counters: with the contact's insert (the connection's default flow), or
 * while the message is stored (a keyword's flow). The reply must read as it did when everything
 * was read from D1 after the message was stored.
 */
import { describe, expect, it } from "vitest";
import { call, expectStatus, register } from "../test/helpers";
import { cloudConnection, deliverOk, sentTo, textWebhook, uniqueWaId, until, wamid } from "../test/channel-helpers";
import { createField } from "../test/contact-helpers";
import { flowDoc, publishedFlow, setDefaultFlow } from "../test/flow-helpers";

/** The texts the stand-in was asked to send to one number, in order. */
async function botTexts(phoneNumberId: string): Promise<string[]> {
  return (await sentTo(phoneNumberId)).flatMap((r) => {
    if (typeof r.body !== "object" || r.body === null) return [];
    const text = r.body.text;
    return typeof text === "object" && text !== null && "body" in text ? [String(text.body)] : [];
  });
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe("a new contact's first flow context", () => {
  it("the default flow sees the first message as the last message, the company's field values and the contact's name", async () => {
    const owner = await register();
    await createField(owner.token, { name: "Loja", key: "loja", type: "text", kind: "bot", value: "Centro" });
    const connection = await cloudConnection(owner.token);
    const { flow } = await publishedFlow(
      owner.token,
      flowDoc([{ id: "hi", type: "text", data: { message: "Oi {{first_name}}, você disse: {{last_message}} ({{loja}}; mídia: {{last_media}})" } }], [["start", "next", "hi"]]),
    );
    await setDefaultFlow(owner.token, connection.id, flow.id);
    await deliverOk(textWebhook(connection.phoneNumberId, uniqueWaId(), wamid(), "quero um orçamento", nowSeconds() - 1, "Ana Lima"));
    const texts = await until(() => botTexts(connection.phoneNumberId), (t) => t.length >= 1, "the default flow's reply");
    expect(texts).toEqual(["Oi Ana, você disse: quero um orçamento (Centro; mídia: )"]);
  });

  it("a keyword's flow (not the default flow read with the insert) sees the same", async () => {
    const owner = await register();
    await createField(owner.token, { name: "Loja", key: "loja", type: "text", kind: "bot", value: "Norte" });
    const connection = await cloudConnection(owner.token);
    const { flow: fallback } = await publishedFlow(owner.token, flowDoc([{ id: "d", type: "text", data: { message: "padrão" } }], [["start", "next", "d"]]));
    await setDefaultFlow(owner.token, connection.id, fallback.id);
    const { flow } = await publishedFlow(owner.token, flowDoc([{ id: "k", type: "text", data: { message: "{{first_name}}: {{last_message}} / {{loja}}" } }], [["start", "next", "k"]]));
    await expectStatus(await call("POST", "/api/keywords", { token: owner.token, body: { name: "Preço", rules: [{ type: "contains", words: ["preço"] }], flowId: flow.id } }), 201);
    await deliverOk(textWebhook(connection.phoneNumberId, uniqueWaId(), wamid(), "qual o preço?", nowSeconds() - 1, "Bruno Reis"));
    const texts = await until(() => botTexts(connection.phoneNumberId), (t) => t.length >= 1, "the keyword flow's reply");
    expect(texts).toEqual(["Bruno: qual o preço? / Norte"]);
  });
});
