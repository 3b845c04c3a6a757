import { describe, expect, it } from "vitest";
import type { CustomFieldAnswer, Page } from "../../schema/api-types";
import { newId } from "../lib/ids";
import { activeCompanyId, call, countRows, expectError, expectInvalid, expectStatus, member, register } from "../test/helpers";
import { createContact, createField } from "../test/contact-helpers";

const SIGNED_IN_CALLS: [string, string][] = [
  ["GET", "/api/custom-fields"],
  ["POST", "/api/custom-fields"],
  ["GET", `/api/custom-fields/${newId()}`],
  ["PUT", `/api/custom-fields/${newId()}`],
  ["DELETE", `/api/custom-fields/${newId()}`],
];

describe("signed-in calls of /api/custom-fields", () => {
  it.each(SIGNED_IN_CALLS)("%s %s without a token answers 401", async (method, path) => {
    await expectError(await call(method, path), 401, "unauthorized");
  });

  it.each(SIGNED_IN_CALLS)("%s %s without a permission that allows it answers 403", async (method, path) => {
    const owner = await register();
    const staff = await member(owner, ["tickets"]);
    await expectError(await call(method, path, { token: staff.token, body: method === "GET" ? undefined : {} }), 403, "forbidden");
  });

  it("a member with contacts may list but not create", async () => {
    const owner = await register();
    const staff = await member(owner, ["contacts"]);
    await expectStatus(await call("GET", "/api/custom-fields", { token: staff.token }), 200);
    await expectError(await call("POST", "/api/custom-fields", { token: staff.token, body: { name: "X", type: "text", kind: "user" } }), 403, "forbidden");
  });
});

describe("GET /api/custom-fields", () => {
  it("lists the read-only built-ins first, then the company's fields by name", async () => {
    const owner = await register();
    await createField(owner.token, { name: "Zeta", type: "text", kind: "user" });
    await createField(owner.token, { name: "Alfa", type: "number", kind: "bot" });
    const other = await register();
    await createField(other.token, { name: "Deles", type: "text", kind: "user" });
    const page = await expectStatus<Page<CustomFieldAnswer>>(await call("GET", "/api/custom-fields", { token: owner.token }), 200);
    expect(page.results.slice(0, 9).map((f) => f.key)).toEqual([
      "full_name",
      "first_name",
      "last_name",
      "document",
      "email",
      "phone",
      "last_message",
      "last_media",
      "last_campaign",
    ]);
    expect(page.results.slice(0, 9).every((f) => f.kind === "default" && f.readOnly && f.id === `default:${f.key}`)).toBe(true);
    expect(page.results.slice(9).map((f) => f.name)).toEqual(["Alfa", "Zeta"]);
    expect(page.total).toBe(11);
  });
});

describe("POST /api/custom-fields", () => {
  it("creates a field with a key made from its name", async () => {
    const owner = await register();
    const field = await createField(owner.token, { name: "Data de Nascimento", type: "date", kind: "user" });
    expect(field).toMatchObject({ name: "Data de Nascimento", key: "data_de_nascimento", type: "date", kind: "user", formula: null, value: null, readOnly: false });
    const again = await expectStatus<CustomFieldAnswer>(await call("GET", `/api/custom-fields/${field.id}`, { token: owner.token }), 200);
    expect(again).toEqual(field);
  });

  it("a bot field keeps one company-wide value, normalised by its type", async () => {
    const owner = await register();
    const field = await createField(owner.token, { name: "Desconto", type: "number", kind: "bot", value: "10,5" });
    expect(field.value).toBe("10.5");
    const updated = await expectStatus<CustomFieldAnswer>(await call("PUT", `/api/custom-fields/${field.id}`, { token: owner.token, body: { name: "Desconto", value: 12 } }), 200);
    expect(updated.value).toBe("12");
    await expectInvalid(await call("PUT", `/api/custom-fields/${field.id}`, { token: owner.token, body: { name: "Desconto", value: "abc" } }), "value", "invalid_number");
  });

  it.each([
    [{ type: "text", kind: "user" }, "name", "required"],
    [{ name: "X", type: "money", kind: "user" }, "type", "invalid_type"],
    [{ name: "X", type: "text", kind: "default" }, "kind", "invalid_kind"],
    [{ name: "X", key: "Bad Key", type: "text", kind: "user" }, "key", "invalid_key"],
    [{ name: "X", key: "first_name", type: "text", kind: "user" }, "key", "reserved_key"],
    [{ name: "X", type: "text", kind: "user", formula: "1+1" }, "formula", "needs_number_type"],
    [{ name: "X", type: "number", kind: "user", formula: "1/0" }, "formula", "division_by_zero"],
    [{ name: "X", type: "number", kind: "user", formula: "{{nope}} + 1" }, "formula", "unknown_field"],
    [{ name: "X", type: "number", kind: "user", formula: "(1 + 2" }, "formula", "syntax"],
    [{ name: "X", type: "number", kind: "user", formula: "constructor" }, "formula", "syntax"],
    [{ name: "X", type: "number", kind: "user", formula: "(".repeat(40) + "1" + ")".repeat(40) }, "formula", "too_deep"],
    [{ name: "X", type: "number", kind: "user", formula: "(".repeat(5000) + ")".repeat(5000) }, "formula", "too_long"],
    [{ name: "X", type: "text", kind: "user", value: "v" }, "value", "not_bot_field"],
    [{ name: "X", type: "date", kind: "bot", value: "32/01/2020" }, "value", "invalid_date"],
  ])("%j answers 400 naming %s (%s), writing nothing", async (body, field, reason) => {
    const owner = await register();
    const companyId = await activeCompanyId(owner.token);
    await expectInvalid(await call("POST", "/api/custom-fields", { token: owner.token, body }), field, reason);
    expect(await countRows("custom_fields", "company_id = ?", companyId)).toBe(0);
  });

  it("a formula may use numeric fields only", async () => {
    const owner = await register();
    await createField(owner.token, { name: "Cidade", key: "city", type: "text", kind: "user" });
    await createField(owner.token, { name: "Preço", key: "price", type: "number", kind: "user" });
    const total = await createField(owner.token, { name: "Total", type: "number", kind: "user", formula: "{{price}} * 1.1" });
    expect(total.formula).toBe("{{price}} * 1.1");
    await expectInvalid(await call("POST", "/api/custom-fields", { token: owner.token, body: { name: "Y", type: "number", kind: "user", formula: "{{city}} + 1" } }), "formula", "not_numeric");
    // A computed field cannot feed another formula (no cycles).
    await expectInvalid(
      await call("POST", "/api/custom-fields", { token: owner.token, body: { name: "Z", type: "number", kind: "user", formula: `{{${total.key}}} + 1` } }),
      "formula",
      "not_numeric",
    );
  });

  it("names and keys are unique in the company (409 name_in_use)", async () => {
    const owner = await register();
    await createField(owner.token, { name: "Cidade", key: "cidade", type: "text", kind: "user" });
    const byName = await expectError(await call("POST", "/api/custom-fields", { token: owner.token, body: { name: "cidade", type: "text", kind: "user" } }), 409, "name_in_use");
    expect(byName.error.message).toBe("This name is already in use.");
    await expectError(await call("POST", "/api/custom-fields", { token: owner.token, body: { name: "Outra", key: "cidade", type: "text", kind: "user" } }), 409, "name_in_use");
    const other = await register();
    await createField(other.token, { name: "Cidade", type: "text", kind: "user" });
  });
});

describe("PUT and DELETE /api/custom-fields/{id}", () => {
  it("type and kind cannot change", async () => {
    const owner = await register();
    const field = await createField(owner.token, { name: "Idade", type: "number", kind: "user" });
    await expectInvalid(await call("PUT", `/api/custom-fields/${field.id}`, { token: owner.token, body: { name: "Idade", type: "text" } }), "type", "immutable");
    await expectInvalid(await call("PUT", `/api/custom-fields/${field.id}`, { token: owner.token, body: { name: "Idade", kind: "bot" } }), "kind", "immutable");
    const renamed = await expectStatus<CustomFieldAnswer>(await call("PUT", `/api/custom-fields/${field.id}`, { token: owner.token, body: { name: "Anos" } }), 200);
    expect(renamed).toMatchObject({ name: "Anos", key: field.key, type: "number" });
  });

  it("a field used by a formula cannot be deleted, re-keyed or made computed (409/400)", async () => {
    const owner = await register();
    const price = await createField(owner.token, { name: "Preço", key: "price", type: "number", kind: "user" });
    const total = await createField(owner.token, { name: "Total", type: "number", kind: "user", formula: "{{price}} * 2" });
    await expectError(await call("DELETE", `/api/custom-fields/${price.id}`, { token: owner.token }), 409, "conflict");
    await expectError(await call("PUT", `/api/custom-fields/${price.id}`, { token: owner.token, body: { name: "Preço", key: "cost" } }), 409, "conflict");
    await expectInvalid(await call("PUT", `/api/custom-fields/${price.id}`, { token: owner.token, body: { name: "Preço", formula: "3" } }), "formula", "referenced_by_formula");
    await expectStatus(await call("DELETE", `/api/custom-fields/${total.id}`, { token: owner.token }), 204);
    await expectStatus(await call("DELETE", `/api/custom-fields/${price.id}`, { token: owner.token }), 204);
  });

  it("deleting a field deletes its values", async () => {
    const owner = await register();
    const city = await createField(owner.token, { name: "Cidade", type: "text", kind: "user" });
    await createContact(owner.token, { fields: { [city.id]: "Recife" } });
    expect(await countRows("contact_field_values", "field_id = ?", city.id)).toBe(1);
    await expectStatus(await call("DELETE", `/api/custom-fields/${city.id}`, { token: owner.token }), 204);
    expect(await countRows("contact_field_values", "field_id = ?", city.id)).toBe(0);
    await expectError(await call("GET", `/api/custom-fields/${city.id}`, { token: owner.token }), 404, "not_found");
  });

  it("another company's field answers 404", async () => {
    const owner = await register();
    const other = await register();
    const theirs = await createField(other.token, { name: "Deles", type: "text", kind: "user" });
    await expectError(await call("GET", `/api/custom-fields/${theirs.id}`, { token: owner.token }), 404, "not_found");
    await expectError(await call("PUT", `/api/custom-fields/${theirs.id}`, { token: owner.token, body: { name: "Meu" } }), 404, "not_found");
    await expectError(await call("DELETE", `/api/custom-fields/${theirs.id}`, { token: owner.token }), 404, "not_found");
  });
});
