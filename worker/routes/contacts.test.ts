import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ContactAnswer, ContactBulkAnswer, ContactDetailAnswer, ContactPage } from "../../schema/api-types";
import { newId } from "../lib/ids";
import { activeCompanyId, call, countRows, expectError, expectInvalid, expectStatus, member, register } from "../test/helpers";
import { cloudConnection, deliverOk, textWebhook, uniqueWaId, wamid } from "../test/channel-helpers";
import { createContact, createField, createTag, DOCS, phoneAt, uniquePhone } from "../test/contact-helpers";

async function list(token: string, query = ""): Promise<ContactPage> {
  return expectStatus<ContactPage>(await call("GET", `/api/contacts${query ? `?${query}` : ""}`, { token }), 200);
}

async function counterOf(companyId: string): Promise<number | null> {
  const row = await env.DB.prepare("SELECT value FROM counters WHERE company_id = ? AND name = 'contacts'").bind(companyId).first<{ value: number }>();
  return row?.value ?? null;
}

const SIGNED_IN_CALLS: [string, string][] = [
  ["GET", "/api/contacts"],
  ["POST", "/api/contacts"],
  ["POST", "/api/contacts/bulk"],
  ["GET", `/api/contacts/${newId()}`],
  ["PUT", `/api/contacts/${newId()}`],
  ["DELETE", `/api/contacts/${newId()}`],
];

describe("signed-in calls of /api/contacts", () => {
  it.each(SIGNED_IN_CALLS)("%s %s without a token answers 401", async (method, path) => {
    await expectError(await call(method, path), 401, "unauthorized");
  });

  it.each(SIGNED_IN_CALLS)("%s %s without the contacts permission answers 403", async (method, path) => {
    const owner = await register();
    const staff = await member(owner, ["tickets"]);
    await expectError(await call(method, path, { token: staff.token, body: method === "GET" ? undefined : {} }), 403, "forbidden");
  });
});

describe("POST /api/contacts", () => {
  it("creates a contact with normalised phone, e-mail and document, tags and typed values", async () => {
    const owner = await register();
    const companyId = await activeCompanyId(owner.token);
    const vip = await createTag(owner.token, "VIP");
    const age = await createField(owner.token, { name: "Idade", type: "number", kind: "user" });
    const birthday = await createField(owner.token, { name: "Aniversário", type: "date", kind: "user" });
    const res = await call("POST", "/api/contacts", {
      token: owner.token,
      body: {
        name: "  Maria Silva ",
        phone: "(11) 97000-1234",
        email: "Maria@Example.COM",
        document: DOCS.cpf,
        tags: [vip.id],
        fields: { [age.id]: "42,5", [birthday.id]: "31/12/1990" },
      },
    });
    const contact = await expectStatus<ContactAnswer>(res, 201);
    expect(contact).toMatchObject({ name: "Maria Silva", phone: "+5511970001234", email: "maria@example.com", document: "52998224725", crmColumnId: null });
    expect(contact.tags).toEqual([{ id: vip.id, name: "VIP", color: vip.color }]);
    expect(contact.fields).toEqual({ [age.id]: "42.5", [birthday.id]: "1990-12-31" });
    const stored = await env.DB.prepare("SELECT value_number FROM contact_field_values WHERE contact_id = ? AND field_id = ?").bind(contact.id, age.id).first<{ value_number: number }>();
    expect(stored?.value_number).toBe(42.5);
    expect((await list(owner.token)).total).toBe(1);
    expect(await counterOf(companyId)).toBe(1);
  });

  it.each(Object.entries(DOCS))("accepts a valid %s", async (_kind, document) => {
    const owner = await register();
    const contact = await createContact(owner.token, { document });
    expect(contact.document).toBe(document.replace(/[.\-/\s]/g, "").toUpperCase());
  });

  it.each([
    ["name", { name: "" }, "required"],
    ["name", { name: "!!!" }, "invalid_name"],
    ["phone", { phone: "123" }, "invalid_phone"],
    ["phone", { phone: undefined }, "required"],
    ["email", { email: "not-an-email" }, "invalid_email"],
    ["document", { document: "529.982.247-24" }, "invalid_document"],
    ["document", { document: "12345678A" }, "invalid_document"],
    ["document", { document: "20-12345678-0" }, "invalid_document"],
    ["document", { document: "Z" }, "invalid_document"],
    ["tags", { tags: ["not-a-uuid"] }, undefined],
  ])("400 naming %s (%j) and writes nothing", async (field, override, reason) => {
    const owner = await register();
    const companyId = await activeCompanyId(owner.token);
    const res = await call("POST", "/api/contacts", { token: owner.token, body: { name: "Ana", phone: uniquePhone(), ...override } });
    await expectInvalid(res, field.startsWith("tags") ? "tags.0" : field, reason);
    expect(await countRows("contacts", "company_id = ?", companyId)).toBe(0);
  });

  it("a number field refuses 'abc' with a 400 naming the field, writing nothing", async () => {
    const owner = await register();
    const companyId = await activeCompanyId(owner.token);
    const age = await createField(owner.token, { name: "Idade", type: "number", kind: "user" });
    const res = await call("POST", "/api/contacts", { token: owner.token, body: { name: "Ana", phone: uniquePhone(), fields: { [age.id]: "abc" } } });
    await expectInvalid(res, `fields.${age.id}`, "invalid_number");
    expect(await countRows("contacts", "company_id = ?", companyId)).toBe(0);
    expect(await counterOf(companyId)).toBeNull();
  });

  it("another company's tag or field is refused", async () => {
    const owner = await register();
    const other = await register();
    const theirTag = await createTag(other.token, "Deles");
    const theirField = await createField(other.token, { name: "Campo", type: "text", kind: "user" });
    await expectInvalid(await call("POST", "/api/contacts", { token: owner.token, body: { name: "Ana", phone: uniquePhone(), tags: [theirTag.id] } }), "tags", "invalid_id");
    await expectInvalid(
      await call("POST", "/api/contacts", { token: owner.token, body: { name: "Ana", phone: uniquePhone(), fields: { [theirField.id]: "x" } } }),
      `fields.${theirField.id}`,
      "unknown_field",
    );
  });

  it("bot and formula fields are read-only per contact", async () => {
    const owner = await register();
    const bot = await createField(owner.token, { name: "Promo", type: "text", kind: "bot" });
    const res = await call("POST", "/api/contacts", { token: owner.token, body: { name: "Ana", phone: uniquePhone(), fields: { [bot.id]: "x" } } });
    await expectInvalid(res, `fields.${bot.id}`, "read_only");
  });

  it("a phone already in the company answers 409 phone_in_use, in any format", async () => {
    const owner = await register();
    const companyId = await activeCompanyId(owner.token);
    await createContact(owner.token, { phone: "+55 11 97000-5555" });
    const body = await expectError(await call("POST", "/api/contacts", { token: owner.token, body: { name: "Outra", phone: "11970005555" } }), 409, "phone_in_use");
    expect(body.error.message).toBe("A contact with this number already exists.");
    expect((await list(owner.token)).total).toBe(1);
    expect(await counterOf(companyId)).toBe(1);
    // Another company may hold the same number.
    const other = await register();
    await createContact(other.token, { phone: "+55 11 97000-5555" });
  });

  it("tags need contacts_tags and field values contacts_custom_fields (403)", async () => {
    const owner = await register();
    const tag = await createTag(owner.token, "VIP");
    const field = await createField(owner.token, { name: "Cidade", type: "text", kind: "user" });
    const staff = await member(owner, ["contacts"]);
    await expectError(await call("POST", "/api/contacts", { token: staff.token, body: { name: "Ana", phone: uniquePhone(), tags: [tag.id] } }), 403, "forbidden");
    await expectError(
      await call("POST", "/api/contacts", { token: staff.token, body: { name: "Ana", phone: uniquePhone(), fields: { [field.id]: "Recife" } } }),
      403,
      "forbidden",
    );
    await expectStatus(await call("POST", "/api/contacts", { token: staff.token, body: { name: "Ana", phone: uniquePhone() } }), 201);
    const full = await member(owner, ["contacts", "contacts_tags", "contacts_custom_fields"]);
    await expectStatus(await call("POST", "/api/contacts", { token: full.token, body: { name: "Ana", phone: uniquePhone(), tags: [tag.id], fields: { [field.id]: "Recife" } } }), 201);
  });
});

describe("GET /api/contacts/{id}", () => {
  it("answers the contact with built-ins, field values, computed formulas and its tickets", async () => {
    const owner = await register();
    const price = await createField(owner.token, { name: "Preço", key: "price", type: "number", kind: "user" });
    const rate = await createField(owner.token, { name: "Taxa", key: "rate", type: "number", kind: "bot", value: "2" });
    const total = await createField(owner.token, { name: "Total", type: "number", kind: "user", formula: "{{price}} * {{rate}} + 1" });
    const ratio = await createField(owner.token, { name: "Razão", type: "number", kind: "user", formula: "{{price}} / ({{rate}} - 2)" });
    const contact = await createContact(owner.token, { name: "Maria da Silva", email: "maria@example.com", fields: { [price.id]: "10" } });
    const detail = await expectStatus<ContactDetailAnswer>(await call("GET", `/api/contacts/${contact.id}`, { token: owner.token }), 200);
    const byKey = new Map(detail.values.map((v) => [v.key, v]));
    expect(byKey.get("full_name")).toMatchObject({ value: "Maria da Silva", kind: "default", readOnly: true });
    expect(byKey.get("first_name")?.value).toBe("Maria");
    expect(byKey.get("last_name")?.value).toBe("da Silva");
    expect(byKey.get("email")?.value).toBe("maria@example.com");
    expect(byKey.get("phone")?.value).toBe(contact.phone);
    expect(byKey.get("last_message")?.value).toBeNull();
    expect(byKey.get("last_campaign")?.value).toBeNull();
    expect(byKey.get("price")).toMatchObject({ id: price.id, value: "10", readOnly: false });
    expect(byKey.get("rate")).toMatchObject({ id: rate.id, value: "2", kind: "bot" });
    expect(byKey.get(total.key)).toMatchObject({ value: "21", readOnly: true });
    expect(byKey.get(ratio.key)).toMatchObject({ value: null, error: "division_by_zero" });
    expect(detail.tickets).toEqual([]);
  });

  it("an inbound message creates the contact, counts it, and shows as its last message and ticket", async () => {
    const owner = await register();
    const companyId = await activeCompanyId(owner.token);
    expect((await list(owner.token)).total).toBe(0);
    const connection = await cloudConnection(owner.token);
    const from = uniqueWaId();
    await deliverOk(textWebhook(connection.phoneNumberId, from, wamid(), "Quero um orçamento", 1_700_000_000, "Joana Prado"));
    const page = await list(owner.token);
    expect(page.total).toBe(1);
    expect(await counterOf(companyId)).toBe(1);
    const detail = await expectStatus<ContactDetailAnswer>(await call("GET", `/api/contacts/${page.results[0]!.id}`, { token: owner.token }), 200);
    expect(detail.name).toBe("Joana Prado");
    expect(detail.values.find((v) => v.key === "last_message")?.value).toBe("Quero um orçamento");
    expect(detail.tickets).toHaveLength(1);
    expect(detail.tickets[0]).toMatchObject({ status: "pending", connection: { id: connection.id } });
  });

  it("another company's contact answers 404 on GET, PUT and DELETE", async () => {
    const owner = await register();
    const other = await register();
    const theirs = await createContact(other.token);
    await expectError(await call("GET", `/api/contacts/${theirs.id}`, { token: owner.token }), 404, "not_found");
    await expectError(await call("PUT", `/api/contacts/${theirs.id}`, { token: owner.token, body: { name: "Roubado" } }), 404, "not_found");
    await expectError(await call("DELETE", `/api/contacts/${theirs.id}`, { token: owner.token }), 404, "not_found");
    expect((await expectStatus<ContactAnswer>(await call("GET", `/api/contacts/${theirs.id}`, { token: other.token }), 200)).name).toBe("Maria Silva");
  });

  it("a malformed id answers 400", async () => {
    const owner = await register();
    await expectInvalid(await call("GET", "/api/contacts/nope", { token: owner.token }), "id", "invalid_id");
  });
});

describe("PUT /api/contacts/{id}", () => {
  it("changes only what it is given; tags are replaced; null clears", async () => {
    const owner = await register();
    const a = await createTag(owner.token, "A");
    const b = await createTag(owner.token, "B");
    const city = await createField(owner.token, { name: "Cidade", type: "text", kind: "user" });
    const contact = await createContact(owner.token, { email: "x@example.com", document: DOCS.dni, tags: [a.id], fields: { [city.id]: "Recife" } });
    const updated = await expectStatus<ContactAnswer>(
      await call("PUT", `/api/contacts/${contact.id}`, { token: owner.token, body: { name: "Maria Souza", email: null, tags: [b.id], fields: { [city.id]: null } } }),
      200,
    );
    expect(updated).toMatchObject({ name: "Maria Souza", email: null, document: "12345678Z", phone: contact.phone });
    expect(updated.tags.map((t) => t.name)).toEqual(["B"]);
    expect(updated.fields).toEqual({});
  });

  it("409 phone_in_use when the new phone is another contact's, nothing changed", async () => {
    const owner = await register();
    const first = await createContact(owner.token);
    const second = await createContact(owner.token, { name: "Segundo" });
    await expectError(await call("PUT", `/api/contacts/${second.id}`, { token: owner.token, body: { name: "Mudado", phone: first.phone } }), 409, "phone_in_use");
    const row = await env.DB.prepare("SELECT name, phone FROM contacts WHERE id = ?").bind(second.id).first<{ name: string; phone: string }>();
    expect(row).toEqual({ name: "Segundo", phone: second.phone });
  });

  it("400 naming the field for an invalid value, nothing changed", async () => {
    const owner = await register();
    const when = await createField(owner.token, { name: "Quando", type: "datetime", kind: "user" });
    const contact = await createContact(owner.token);
    await expectInvalid(await call("PUT", `/api/contacts/${contact.id}`, { token: owner.token, body: { name: "Nova", fields: { [when.id]: "ontem" } } }), `fields.${when.id}`, "invalid_datetime");
    await expectInvalid(await call("PUT", `/api/contacts/${contact.id}`, { token: owner.token, body: { email: "@" } }), "email", "invalid_email");
    expect((await env.DB.prepare("SELECT name FROM contacts WHERE id = ?").bind(contact.id).first<{ name: string }>())?.name).toBe("Maria Silva");
  });

  it("a datetime without an offset is read in the company's time zone and stored as ms UTC", async () => {
    const owner = await register();
    await expectStatus(await call("PUT", "/api/companies/active", { token: owner.token, form: formOf({ timezone: "America/Sao_Paulo", showAttendantName: "false" }) }), 200);
    const when = await createField(owner.token, { name: "Quando", type: "datetime", kind: "user" });
    const contact = await createContact(owner.token, { fields: { [when.id]: "2024-05-01 10:00" } });
    expect(contact.fields[when.id]).toBe(String(Date.UTC(2024, 4, 1, 13, 0)));
  });
});

function formOf(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  return data;
}

describe("DELETE /api/contacts/{id}", () => {
  it("deletes the contact with its tags and values and keeps the count right", async () => {
    const owner = await register();
    const companyId = await activeCompanyId(owner.token);
    const tag = await createTag(owner.token, "A");
    const city = await createField(owner.token, { name: "Cidade", type: "text", kind: "user" });
    const keep = await createContact(owner.token);
    const gone = await createContact(owner.token, { tags: [tag.id], fields: { [city.id]: "Recife" } });
    await expectStatus(await call("DELETE", `/api/contacts/${gone.id}`, { token: owner.token }), 204);
    expect(await countRows("contact_tags", "contact_id = ?", gone.id)).toBe(0);
    expect(await countRows("contact_field_values", "contact_id = ?", gone.id)).toBe(0);
    const page = await list(owner.token);
    expect(page.total).toBe(1);
    expect(page.results.map((c) => c.id)).toEqual([keep.id]);
    expect(await counterOf(companyId)).toBe(1);
    await expectError(await call("DELETE", `/api/contacts/${gone.id}`, { token: owner.token }), 404, "not_found");
  });
});

describe("GET /api/contacts", () => {
  it("pages newest first with a keyset cursor, without duplicates or gaps", async () => {
    const owner = await register();
    const created: string[] = [];
    for (let i = 0; i < 23; i++) created.push((await createContact(owner.token, { name: `Pessoa ${i}` })).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: ContactPage = await list(owner.token, `limit=7${cursor ? `&cursor=${cursor}` : ""}`);
      expect(page.total).toBe(23);
      seen.push(...page.results.map((c) => c.id));
      cursor = page.cursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(pages).toBe(4);
    expect(seen).toHaveLength(23);
    expect(new Set(seen).size).toBe(23);
    expect([...seen].sort()).toEqual([...created].sort());
    expect(seen).toEqual([...created].reverse());
  });

  it("total comes from a counter created from a real count for contacts that predate it", async () => {
    const owner = await register();
    const companyId = await activeCompanyId(owner.token);
    for (let i = 0; i < 3; i++) {
      await env.DB.prepare("INSERT INTO contacts (id, company_id, name, phone, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)")
        .bind(newId(), companyId, `Old ${i}`, phoneAt(100 + i), Date.now(), Date.now())
        .run();
    }
    expect(await counterOf(companyId)).toBeNull();
    expect((await list(owner.token)).total).toBe(3);
    expect(await counterOf(companyId)).toBe(3);
    await createContact(owner.token);
    expect((await list(owner.token)).total).toBe(4);
  });

  it("searches name, e-mail and phone digits; LIKE wildcards are literal", async () => {
    const owner = await register();
    const joana = await createContact(owner.token, { name: "Joana D'Arc", phone: "+5511970004321" });
    const pedro = await createContact(owner.token, { name: "Pedro 100%", email: "pedro@acme.com" });
    await createContact(owner.token, { name: "Outro" });
    expect((await list(owner.token, "search=joana")).results.map((c) => c.id)).toEqual([joana.id]);
    expect((await list(owner.token, "search=acme.com")).results.map((c) => c.id)).toEqual([pedro.id]);
    expect((await list(owner.token, `search=${encodeURIComponent("(11) 97000-4321")}`)).results.map((c) => c.id)).toEqual([joana.id]);
    expect((await list(owner.token, `search=${encodeURIComponent("100%")}`)).results.map((c) => c.id)).toEqual([pedro.id]);
    expect((await list(owner.token, `search=${encodeURIComponent("%")}`)).results.map((c) => c.id)).toEqual([pedro.id]);
    const filtered = await list(owner.token, "search=o");
    expect(filtered.total).toBe(3);
    expect(filtered.totalCapped).toBe(false);
  });

  it.each([
    ["40 × 'ç' (80 bytes)", "ç".repeat(40)],
    ["13 emoji (52 bytes)", "😀".repeat(13)],
    ["41 ASCII characters", "a".repeat(41)],
    ["25 percent signs (50 bytes once escaped)", "%".repeat(25)],
  ])("a search over D1's 50-byte LIKE limit (%s) answers 400, not 500", async (_what, search) => {
    const owner = await register();
    await expectInvalid(await call("GET", `/api/contacts?search=${encodeURIComponent(search)}`, { token: owner.token }), "search", "too_long");
  });

  it("a multibyte search within the limit works", async () => {
    const owner = await register();
    const c = await createContact(owner.token, { name: "Conceição Araújo" });
    expect((await list(owner.token, `search=${encodeURIComponent("ção ara")}`)).results.map((x) => x.id)).toEqual([c.id]);
    expect((await list(owner.token, `search=${encodeURIComponent("ç".repeat(24))}`)).results).toEqual([]);
  });

  it("filters by ANY of the tags and by exact field values (normalised by type)", async () => {
    const owner = await register();
    const vip = await createTag(owner.token, "VIP");
    const lead = await createTag(owner.token, "Lead");
    const score = await createField(owner.token, { name: "Score", type: "number", kind: "user" });
    const a = await createContact(owner.token, { tags: [vip.id], fields: { [score.id]: "1.5" } });
    const b = await createContact(owner.token, { tags: [lead.id], fields: { [score.id]: "2" } });
    await createContact(owner.token);
    expect((await list(owner.token, `tags=${vip.id}`)).results.map((c) => c.id)).toEqual([a.id]);
    expect(new Set((await list(owner.token, `tags=${vip.id},${lead.id}`)).results.map((c) => c.id))).toEqual(new Set([a.id, b.id]));
    expect((await list(owner.token, `field.${score.id}=${encodeURIComponent("1,50")}`)).results.map((c) => c.id)).toEqual([a.id]);
    const both = await list(owner.token, `tags=${lead.id}&field.${score.id}=2`);
    expect(both.results.map((c) => c.id)).toEqual([b.id]);
    expect(both.total).toBe(1);
    await expectInvalid(await call("GET", `/api/contacts?field.${score.id}=abc`, { token: owner.token }), `field.${score.id}`, "invalid_number");
    const unknownId = newId();
    await expectInvalid(await call("GET", `/api/contacts?field.${unknownId}=1`, { token: owner.token }), `field.${unknownId}`, "unknown_field");
  });

  it("another company's tag or field in a filter answers 400; its contacts never show", async () => {
    const owner = await register();
    const other = await register();
    const theirTag = await createTag(other.token, "Deles");
    await createContact(other.token, { tags: [theirTag.id] });
    await expectInvalid(await call("GET", `/api/contacts?tags=${theirTag.id}`, { token: owner.token }), "tags", "invalid_id");
    expect((await list(owner.token)).total).toBe(0);
  });

  it.each([
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["cursor=%%%", "cursor"],
    ["tags=nope", "tags"],
    ["field.nope=1", "field.nope"],
  ])("?%s answers 400 naming %s", async (query, field) => {
    const owner = await register();
    await expectInvalid(await call("GET", `/api/contacts?${query}`, { token: owner.token }), field);
  });
});

describe("POST /api/contacts/bulk", () => {
  it("tags and untags by ids; other companies' ids are ignored", async () => {
    const owner = await register();
    const other = await register();
    const theirs = await createContact(other.token);
    const tag = await createTag(owner.token, "Campanha");
    const a = await createContact(owner.token);
    const b = await createContact(owner.token);
    const tagged = await expectStatus<ContactBulkAnswer>(
      await call("POST", "/api/contacts/bulk", { token: owner.token, body: { ids: [a.id, b.id, theirs.id], action: "tag", tagIds: [tag.id] } }),
      200,
    );
    expect(tagged).toEqual({ affected: 2, done: true });
    expect(await countRows("contact_tags", "contact_id = ?", theirs.id)).toBe(0);
    const untagged = await expectStatus<ContactBulkAnswer>(
      await call("POST", "/api/contacts/bulk", { token: owner.token, body: { ids: [a.id], action: "untag", tagIds: [tag.id] } }),
      200,
    );
    expect(untagged.affected).toBe(1);
    expect((await list(owner.token, `tags=${tag.id}`)).results.map((c) => c.id)).toEqual([b.id]);
  });

  it("tags by filter in one statement", async () => {
    const owner = await register();
    const tag = await createTag(owner.token, "Recife");
    await createContact(owner.token, { name: "Ana Recife" });
    await createContact(owner.token, { name: "Bia Recife" });
    await createContact(owner.token, { name: "Caio Olinda" });
    const answer = await expectStatus<ContactBulkAnswer>(
      await call("POST", "/api/contacts/bulk", { token: owner.token, body: { filter: { search: "recife" }, action: "tag", tagIds: [tag.id] } }),
      200,
    );
    expect(answer).toEqual({ affected: 2, done: true });
    expect((await list(owner.token, `tags=${tag.id}`)).total).toBe(2);
  });

  it("deletes by ids and by filter, keeping the count right", async () => {
    const owner = await register();
    const companyId = await activeCompanyId(owner.token);
    const tag = await createTag(owner.token, "Apagar");
    const a = await createContact(owner.token);
    await createContact(owner.token, { tags: [tag.id] });
    await createContact(owner.token, { tags: [tag.id] });
    const keep = await createContact(owner.token);
    expect(await expectStatus(await call("POST", "/api/contacts/bulk", { token: owner.token, body: { ids: [a.id], action: "delete" } }), 200)).toEqual({ affected: 1, done: true });
    expect(
      await expectStatus(await call("POST", "/api/contacts/bulk", { token: owner.token, body: { filter: { tags: [tag.id] }, action: "delete" } }), 200),
    ).toEqual({ affected: 2, done: true });
    const page = await list(owner.token);
    expect(page.results.map((c) => c.id)).toEqual([keep.id]);
    expect(page.total).toBe(1);
    expect(await counterOf(companyId)).toBe(1);
    expect(await countRows("contacts", "company_id = ?", companyId)).toBe(1);
  });

  it.each([
    [{ action: "tag", ids: [] }, "ids"],
    [{ action: "tag" }, "ids"],
    [{ action: "explode", ids: ["00000000-0000-7000-8000-000000000000"] }, "action"],
    [{ action: "tag", ids: ["00000000-0000-7000-8000-000000000000"] }, "tagIds"],
    [{ action: "delete", ids: ["x"] }, "ids.0"],
    [{ action: "delete", filter: { search: "ç".repeat(30) } }, "filter.search"],
  ])("%j answers 400 naming %s", async (body, field) => {
    const owner = await register();
    await expectInvalid(await call("POST", "/api/contacts/bulk", { token: owner.token, body }), field);
  });

  it("tag and untag need contacts_tags (403); another company's tag is refused", async () => {
    const owner = await register();
    const other = await register();
    const theirTag = await createTag(other.token, "Deles");
    const tag = await createTag(owner.token, "Nosso");
    const contact = await createContact(owner.token);
    const staff = await member(owner, ["contacts"]);
    await expectError(await call("POST", "/api/contacts/bulk", { token: staff.token, body: { ids: [contact.id], action: "tag", tagIds: [tag.id] } }), 403, "forbidden");
    await expectInvalid(await call("POST", "/api/contacts/bulk", { token: owner.token, body: { ids: [contact.id], action: "tag", tagIds: [theirTag.id] } }), "tagIds", "invalid_id");
  });
});
