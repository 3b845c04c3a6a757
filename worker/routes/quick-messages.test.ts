import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Page, QuickMessageAnswer, RenderedQuickMessage } from "../../schema/api-types";
import { newId } from "../lib/ids";
import { activeCompanyId, call, countRows, eventually, expectError, expectInvalid, expectStatus, form, member, pngFile, register } from "../test/helpers";
import { createContact, createField } from "../test/contact-helpers";

async function createQuick(token: string, body: Record<string, unknown>): Promise<QuickMessageAnswer> {
  return expectStatus<QuickMessageAnswer>(await call("POST", "/api/quick-messages", { token, body }), 201);
}

/** The R2 key behind a signed media URL. */
function mediaKey(url: string): string {
  return new URL(url, "http://x").pathname.replace(/^\/api\/media\//, "");
}

const SIGNED_IN_CALLS: [string, string][] = [
  ["GET", "/api/quick-messages"],
  ["POST", "/api/quick-messages"],
  ["GET", `/api/quick-messages/${newId()}`],
  ["PUT", `/api/quick-messages/${newId()}`],
  ["DELETE", `/api/quick-messages/${newId()}`],
  ["POST", `/api/quick-messages/${newId()}/render`],
];

describe("signed-in calls of /api/quick-messages", () => {
  it.each(SIGNED_IN_CALLS)("%s %s without a token answers 401", async (method, path) => {
    await expectError(await call(method, path), 401, "unauthorized");
  });

  it.each(SIGNED_IN_CALLS)("%s %s without a permission that allows it answers 403", async (method, path) => {
    const owner = await register();
    const staff = await member(owner, ["contacts"]);
    await expectError(await call(method, path, { token: staff.token, body: method === "GET" ? undefined : {} }), 403, "forbidden");
  });

  it("an attendant (tickets) may list and render but not manage", async () => {
    const owner = await register();
    const quick = await createQuick(owner.token, { name: "Oi", text: "Olá {{first_name}}" });
    const contact = await createContact(owner.token, { name: "Maria Silva" });
    const staff = await member(owner, ["tickets"]);
    await expectStatus(await call("GET", "/api/quick-messages", { token: staff.token }), 200);
    const rendered = await expectStatus<RenderedQuickMessage>(await call("POST", `/api/quick-messages/${quick.id}/render`, { token: staff.token, body: { contactId: contact.id } }), 200);
    expect(rendered.text).toBe("Olá Maria");
    await expectError(await call("POST", "/api/quick-messages", { token: staff.token, body: { name: "X", text: "Y" } }), 403, "forbidden");
  });
});

describe("/api/quick-messages", () => {
  it("creates, lists by name, reads, updates and deletes", async () => {
    const owner = await register();
    const b = await createQuick(owner.token, { name: "Boas-vindas", text: "Bem-vindo!" });
    await createQuick(owner.token, { name: "Agradecimento", text: "Obrigado!" });
    const page = await expectStatus<Page<QuickMessageAnswer>>(await call("GET", "/api/quick-messages", { token: owner.token }), 200);
    expect(page.results.map((q) => q.name)).toEqual(["Agradecimento", "Boas-vindas"]);
    expect(page.total).toBe(2);
    const searched = await expectStatus<Page<QuickMessageAnswer>>(await call("GET", "/api/quick-messages?search=boas", { token: owner.token }), 200);
    expect(searched.results.map((q) => q.id)).toEqual([b.id]);
    const updated = await expectStatus<QuickMessageAnswer>(await call("PUT", `/api/quick-messages/${b.id}`, { token: owner.token, body: { name: "Boas-vindas", text: "Oi!" } }), 200);
    expect(updated).toMatchObject({ id: b.id, text: "Oi!", media: null });
    await expectStatus(await call("DELETE", `/api/quick-messages/${b.id}`, { token: owner.token }), 204);
    await expectError(await call("GET", `/api/quick-messages/${b.id}`, { token: owner.token }), 404, "not_found");
  });

  it("keeps an optional attachment in R2, replaced or removed on update and deleted with the message", async () => {
    const owner = await register();
    const created = await expectStatus<QuickMessageAnswer>(
      await call("POST", "/api/quick-messages", { token: owner.token, form: form({ name: "Catálogo", text: "Veja", file: pngFile("catalogo.png") }) }),
      201,
    );
    expect(created.media).toMatchObject({ mime: "image/png", name: "catalogo.png" });
    const firstKey = mediaKey(created.media?.url ?? "");
    expect(await env.FILES.head(firstKey)).not.toBeNull();
    const fetched = await call("GET", created.media?.url ?? "");
    expect(fetched.status).toBe(200);
    await fetched.arrayBuffer();
    const kept = await expectStatus<QuickMessageAnswer>(await call("PUT", `/api/quick-messages/${created.id}`, { token: owner.token, body: { name: "Catálogo", text: "Novo" } }), 200);
    expect(kept.media?.name).toBe("catalogo.png");
    const removed = await expectStatus<QuickMessageAnswer>(
      await call("PUT", `/api/quick-messages/${created.id}`, { token: owner.token, form: form({ name: "Catálogo", text: "Sem anexo", removeMedia: "true" }) }),
      200,
    );
    expect(removed.media).toBeNull();
    await eventually(async () => (await env.FILES.head(firstKey)) === null, "the old attachment is deleted");
  });

  it("an attachment alone is enough; neither text nor file is a 400", async () => {
    const owner = await register();
    const companyId = await activeCompanyId(owner.token);
    await expectStatus(await call("POST", "/api/quick-messages", { token: owner.token, form: form({ name: "Só foto", file: pngFile() }) }), 201);
    await expectInvalid(await call("POST", "/api/quick-messages", { token: owner.token, body: { name: "Vazio", text: "  " } }), "text", "required");
    await expectInvalid(await call("POST", "/api/quick-messages", { token: owner.token, body: { text: "x" } }), "name", "required");
    await expectInvalid(await call("POST", "/api/quick-messages", { token: owner.token, body: { name: "x".repeat(61), text: "x" } }), "name", "too_long");
    await expectInvalid(await call("POST", "/api/quick-messages", { token: owner.token, body: { name: "Longo", text: "x".repeat(4097) } }), "text", "too_long");
    await expectInvalid(await call("POST", "/api/quick-messages", { token: owner.token, form: form({ name: "Arquivo", text: "x", file: "not a file" }) }), "file", "invalid_file");
    expect(await countRows("quick_messages", "company_id = ?", companyId)).toBe(1);
  });

  it("renders {{first_name}}, built-ins and custom fields (user and bot) for a contact", async () => {
    const owner = await register();
    const city = await createField(owner.token, { name: "Cidade", key: "city", type: "text", kind: "user" });
    await createField(owner.token, { name: "Cupom", key: "coupon", type: "text", kind: "bot", value: "PROMO10" });
    const contact = await createContact(owner.token, { name: "Maria da Silva", fields: { [city.id]: "Recife" } });
    const quick = await createQuick(owner.token, { name: "Promo", text: "Oi {{first_name}} {{last_name}} de {{city}}! Cupom {{coupon}}.{{unknown}}{{constructor}}" });
    const rendered = await expectStatus<RenderedQuickMessage>(await call("POST", `/api/quick-messages/${quick.id}/render`, { token: owner.token, body: { contactId: contact.id } }), 200);
    expect(rendered).toEqual({ text: "Oi Maria da Silva de Recife! Cupom PROMO10.", media: null });
  });

  it("another company's quick message or contact answers 404", async () => {
    const owner = await register();
    const other = await register();
    const theirs = await createQuick(other.token, { name: "Deles", text: "x" });
    const theirContact = await createContact(other.token);
    const mine = await createQuick(owner.token, { name: "Meu", text: "{{first_name}}" });
    await expectError(await call("GET", `/api/quick-messages/${theirs.id}`, { token: owner.token }), 404, "not_found");
    await expectError(await call("PUT", `/api/quick-messages/${theirs.id}`, { token: owner.token, body: { name: "x", text: "y" } }), 404, "not_found");
    await expectError(await call("DELETE", `/api/quick-messages/${theirs.id}`, { token: owner.token }), 404, "not_found");
    await expectError(await call("POST", `/api/quick-messages/${mine.id}/render`, { token: owner.token, body: { contactId: theirContact.id } }), 404, "not_found");
    await expectInvalid(await call("POST", `/api/quick-messages/${mine.id}/render`, { token: owner.token, body: { contactId: "x" } }), "contactId", "invalid_id");
  });
});
