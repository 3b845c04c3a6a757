/**
 * "Uniqueness: name" (spec §5; issue 9): quick message shortcuts, CRM column names, folder names
 * within a parent, keyword names and connection names answer 409 `name_in_use` naming `name`,
 * ignoring case, on create and on rename; another company or another parent may reuse the name.
 * The unique indexes of migration 0005 hold even when the code check is bypassed.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { newId } from "../lib/ids";
import { activeCompanyId, call, expectError, expectStatus, register, type Account } from "../test/helpers";
import { createFlow } from "../test/flow-helpers";

type Created = { id: string; name: string };

/** POSTs `body` to `path` and answers the created row. */
async function create(owner: Account, path: string, body: Record<string, unknown>): Promise<Created> {
  return expectStatus<Created>(await call("POST", path, { token: owner.token, body }), 201);
}

/** A 409 `name_in_use` naming `name`, message 'This name is already in use.'. */
async function expectNameInUse(response: Response): Promise<void> {
  const body = await expectError(response, 409, "name_in_use");
  expect(body.error.fields?.name).toBe("name_in_use");
  expect(body.error.message).toBe("This name is already in use.");
}

describe("names are unique in the company, ignoring case (409 name_in_use)", () => {
  it("quick message shortcuts", async () => {
    const owner = await register();
    const first = await create(owner, "/api/quick-messages", { name: "Saudacao", text: "Olá" });
    await expectNameInUse(await call("POST", "/api/quick-messages", { token: owner.token, body: { name: "SAUDACAO", text: "Oi" } }));
    const second = await create(owner, "/api/quick-messages", { name: "Tchau", text: "Até logo" });
    await expectNameInUse(await call("PUT", `/api/quick-messages/${second.id}`, { token: owner.token, body: { name: "saudacao", text: "Até logo" } }));
    // Keeping its own name is no clash; another company may use it.
    await expectStatus(await call("PUT", `/api/quick-messages/${first.id}`, { token: owner.token, body: { name: "Saudacao", text: "Olá!" } }), 200);
    await create(await register(), "/api/quick-messages", { name: "Saudacao", text: "Olá" });
  });

  it("CRM column names", async () => {
    const owner = await register();
    const first = await create(owner, "/api/crm/columns", { name: "Negociando" });
    await expectNameInUse(await call("POST", "/api/crm/columns", { token: owner.token, body: { name: "negociando" } }));
    const second = await create(owner, "/api/crm/columns", { name: "Fechado" });
    await expectNameInUse(await call("PUT", `/api/crm/columns/${second.id}`, { token: owner.token, body: { name: "NEGOCIANDO" } }));
    await expectStatus(await call("PUT", `/api/crm/columns/${first.id}`, { token: owner.token, body: { name: "Negociando", color: "#112233" } }), 200);
    await create(await register(), "/api/crm/columns", { name: "Negociando" });
  });

  it("folder names within a parent (another parent may reuse the name)", async () => {
    const owner = await register();
    const parent = await create(owner, "/api/folders", { name: "Vendas" });
    await expectNameInUse(await call("POST", "/api/folders", { token: owner.token, body: { name: "VENDAS" } }));
    const child = await create(owner, "/api/folders", { name: "vendas", parentId: parent.id });
    await expectNameInUse(await call("POST", "/api/folders", { token: owner.token, body: { name: "Vendas", parentId: parent.id } }));
    const other = await create(owner, "/api/folders", { name: "Suporte" });
    await expectNameInUse(await call("PUT", `/api/folders/${other.id}`, { token: owner.token, body: { name: "vendas" } }));
    // Moving the child to the root, where "Vendas" is, clashes too.
    await expectNameInUse(await call("PUT", `/api/folders/${child.id}`, { token: owner.token, body: { parentId: null } }));
    await create(await register(), "/api/folders", { name: "Vendas" });
  });

  it("keyword names", async () => {
    const owner = await register();
    const flow = await createFlow(owner.token);
    const body = { name: "Saudação", turnOn: true, rules: [{ type: "start_with", words: ["oi"] }], flowId: flow.id };
    await create(owner, "/api/keywords", body);
    await expectNameInUse(await call("POST", "/api/keywords", { token: owner.token, body: { ...body, name: "saudação" } }));
    const second = await create(owner, "/api/keywords", { ...body, name: "Preço" });
    await expectNameInUse(await call("PUT", `/api/keywords/${second.id}`, { token: owner.token, body: { ...body, name: "SAUDAçãO" } }));
  });

  it("connection names", async () => {
    const owner = await register();
    await create(owner, "/api/connections", { channel: "sandbox", name: "Atendimento" });
    await expectNameInUse(await call("POST", "/api/connections", { token: owner.token, body: { channel: "sandbox", name: "atendimento" } }));
    const second = await create(owner, "/api/connections", { channel: "sandbox", name: "Vendas" });
    await expectNameInUse(await call("PUT", `/api/connections/${second.id}`, { token: owner.token, body: { name: "ATENDIMENTO" } }));
    await create(await register(), "/api/connections", { channel: "sandbox", name: "Atendimento" });
  });

  it("the database refuses a clash the code did not see (unique indexes of migration 0005)", async () => {
    const owner = await register();
    const companyId = await activeCompanyId(owner.token);
    const at = Date.now();
    const insert = (table: string, columns: string, values: unknown[]) =>
      env.DB.prepare(`INSERT INTO ${table} (${columns}) VALUES (${values.map(() => "?").join(", ")})`).bind(...values).run();
    await insert("quick_messages", "id, company_id, name, text, created_at, updated_at", [newId(), companyId, "Oi", "a", at, at]);
    await expect(insert("quick_messages", "id, company_id, name, text, created_at, updated_at", [newId(), companyId, "OI", "b", at, at])).rejects.toThrow(/UNIQUE/);
    await insert("flow_folders", "id, company_id, name, parent_id, created_at, updated_at", [newId(), companyId, "Raiz", null, at, at]);
    await expect(insert("flow_folders", "id, company_id, name, parent_id, created_at, updated_at", [newId(), companyId, "raiz", null, at, at])).rejects.toThrow(/UNIQUE/);
    await insert("crm_columns", "id, company_id, name, color, position, created_at, updated_at", [newId(), companyId, "A", "#000000", 1, at, at]);
    await expect(insert("crm_columns", "id, company_id, name, color, position, created_at, updated_at", [newId(), companyId, "a", "#000000", 2, at, at])).rejects.toThrow(/UNIQUE/);
  });
});
