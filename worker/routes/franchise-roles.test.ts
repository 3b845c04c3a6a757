/**
 * Franchise roles (issue 14, worker/routes/franchise-roles.ts) and the cursor paging of company
 * roles: the catalogue, paging by cursor with search, a franchise administrator never reaching
 * another franchise's roles (404), delete refused while a company holds the role (409 with the
 * count), and GET /api/companies/roles's spec §3 page next to its plain list.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Page, RoleAnswer } from "../../schema/api-types";
import { FRANCHISE_PERMISSIONS } from "../../schema/permissions";
import type { FranchiseCompanyAnswer, FranchisePage, FranchiseRoleAnswer, FranchiseRoleShortAnswer } from "../../schema/validation/franchise";
import { type Account, call, createRole, expectError, expectInvalid, expectStatus, register, uniqueEmail } from "../test/helpers";
import { franchiseAdminAccount } from "../test/route-matrix";

let adminA: Account;
let adminB: Account;
const tag = crypto.randomUUID().slice(0, 6);

async function createFranchiseRole(token: string, name: string, permissions: string[]): Promise<FranchiseRoleAnswer> {
  return expectStatus<FranchiseRoleAnswer>(await call("POST", "/api/franchise/roles", { token, body: { name, permissions } }), 201);
}

beforeAll(async () => {
  [adminA, adminB] = await Promise.all([franchiseAdminAccount("Franquia A").then((f) => f.account), franchiseAdminAccount("Franquia B").then((f) => f.account)]);
});

describe("GET /api/franchise/permissions", () => {
  it("answers the franchise-grantable catalogue of spec §6", async () => {
    expect(await expectStatus(await call("GET", "/api/franchise/permissions", { token: adminA.token }), 200)).toEqual([...FRANCHISE_PERMISSIONS]);
  });
});

describe("franchise roles", () => {
  it("pages by cursor with search, by name, with the total", async () => {
    for (const name of [`Básico ${tag}`, `Completo ${tag}`, `Campanhas ${tag}`, `Outro`]) {
      await createFranchiseRole(adminA.token, name, ["broadcasts"]);
    }
    const first = await expectStatus<FranchisePage<FranchiseRoleAnswer>>(
      await call("GET", `/api/franchise/roles?search=${encodeURIComponent(tag)}&limit=2`, { token: adminA.token }),
      200,
    );
    expect(first.total).toBe(3);
    expect(first.results.map((r) => r.name)).toEqual([`Básico ${tag}`, `Campanhas ${tag}`]);
    expect(first.cursor).toEqual(expect.any(String));
    const second = await expectStatus<FranchisePage<FranchiseRoleAnswer>>(
      await call("GET", `/api/franchise/roles?search=${encodeURIComponent(tag)}&limit=2&cursor=${first.cursor}`, { token: adminA.token }),
      200,
    );
    expect(second).toMatchObject({ total: 3, cursor: null });
    expect(second.results.map((r) => r.name)).toEqual([`Completo ${tag}`]);
    await expectInvalid(await call("GET", "/api/franchise/roles?cursor=bad!", { token: adminA.token }), "cursor", "invalid_cursor");
    await expectInvalid(await call("GET", `/api/franchise/roles?search=${"a".repeat(60)}`, { token: adminA.token }), "search", "too_long");
    // Another franchise sees none of them.
    const other = await expectStatus<FranchisePage<FranchiseRoleAnswer>>(await call("GET", `/api/franchise/roles?search=${encodeURIComponent(tag)}`, { token: adminB.token }), 200);
    expect(other.total).toBe(0);
    const short = await expectStatus<FranchiseRoleShortAnswer>(await call("GET", "/api/franchise/roles/short", { token: adminA.token }), 200);
    expect(short.map((r) => r.name)).toEqual(expect.arrayContaining([`Básico ${tag}`, "Outro"]));
    expect(Object.keys(short[0] ?? {}).sort()).toEqual(["id", "name"]);
  });

  it("creates, reads, edits and deletes; names are unique in the franchise only; permissions are checked", async () => {
    const role = await createFranchiseRole(adminA.token, `Vendas ${tag}`, ["crm", "broadcasts", "crm"]);
    expect(role).toMatchObject({ name: `Vendas ${tag}`, permissions: ["broadcasts", "crm"], companies: 0 });
    await expectError(await call("POST", "/api/franchise/roles", { token: adminA.token, body: { name: `vendas ${tag}`, permissions: [] } }), 409, "name_in_use");
    await createFranchiseRole(adminB.token, `Vendas ${tag}`, []);
    await expectInvalid(await call("POST", "/api/franchise/roles", { token: adminA.token, body: { name: "X1", permissions: ["settings_company"] } }), "permissions.0", "invalid_permission");
    const edited = await expectStatus<FranchiseRoleAnswer>(
      await call("PUT", `/api/franchise/roles/${role.id}`, { token: adminA.token, body: { name: `Vendas+ ${tag}`, permissions: ["integration"] } }),
      200,
    );
    expect(edited).toMatchObject({ name: `Vendas+ ${tag}`, permissions: ["integration"] });
    expect(await expectStatus(await call("GET", `/api/franchise/roles/${role.id}`, { token: adminA.token }), 200)).toEqual(edited);
    await expectStatus(await call("DELETE", `/api/franchise/roles/${role.id}`, { token: adminA.token }), 204);
    await expectError(await call("GET", `/api/franchise/roles/${role.id}`, { token: adminA.token }), 404, "not_found");
  });

  it("never lets another franchise's administrator read, edit or delete a role (404)", async () => {
    const role = await createFranchiseRole(adminA.token, `Privado ${tag}`, ["flow"]);
    await expectError(await call("GET", `/api/franchise/roles/${role.id}`, { token: adminB.token }), 404, "not_found");
    await expectError(await call("PUT", `/api/franchise/roles/${role.id}`, { token: adminB.token, body: { name: "Tomado", permissions: [] } }), 404, "not_found");
    await expectError(await call("DELETE", `/api/franchise/roles/${role.id}`, { token: adminB.token }), 404, "not_found");
    // Nor give it to one of their companies.
    await expectError(
      await call("POST", "/api/franchise/companies", { token: adminB.token, body: { name: "Loja B", ownerEmail: uniqueEmail("owner-b"), franchiseRoleId: role.id } }),
      404,
      "not_found",
    );
    expect(await expectStatus<FranchiseRoleAnswer>(await call("GET", `/api/franchise/roles/${role.id}`, { token: adminA.token }), 200)).toMatchObject({ name: `Privado ${tag}` });
  });

  it("refuses to delete a role while companies hold it (409 with the count)", async () => {
    const role = await createFranchiseRole(adminA.token, `Em uso ${tag}`, ["keywords"]);
    const company = await expectStatus<FranchiseCompanyAnswer>(
      await call("POST", "/api/franchise/companies", { token: adminA.token, body: { name: "Cliente Um", ownerEmail: uniqueEmail("owner"), franchiseRoleId: role.id } }),
      201,
    );
    expect(company).toMatchObject({ franchiseRoleId: role.id, franchiseRoleName: `Em uso ${tag}` });
    expect(await expectStatus<FranchiseRoleAnswer>(await call("GET", `/api/franchise/roles/${role.id}`, { token: adminA.token }), 200)).toMatchObject({ companies: 1 });
    const refused = await expectError(await call("DELETE", `/api/franchise/roles/${role.id}`, { token: adminA.token }), 409, "conflict");
    expect(refused.error.fields).toEqual({ companies: "1" });
    await expectStatus(await call("PUT", `/api/franchise/companies/${company.id}`, { token: adminA.token, body: { franchiseRoleId: null } }), 200);
    await expectStatus(await call("DELETE", `/api/franchise/roles/${role.id}`, { token: adminA.token }), 204);
  });
});

describe("GET /api/companies/roles paging", () => {
  it("answers the spec §3 page with cursor, search and total, and the plain list without them", async () => {
    const owner = await register();
    for (const name of ["Suporte 1", "Suporte 2", "Suporte 3"]) await createRole(owner, ["tickets"], name);
    const plain = await expectStatus<RoleAnswer[]>(await call("GET", "/api/companies/roles", { token: owner.token }), 200);
    expect(Array.isArray(plain)).toBe(true);
    expect(plain[0]?.isOwner).toBe(true);
    const first = await expectStatus<Page<RoleAnswer>>(await call("GET", "/api/companies/roles?search=suporte&limit=2", { token: owner.token }), 200);
    expect(first.total).toBe(3);
    expect(first.results.map((r) => r.name)).toEqual(["Suporte 1", "Suporte 2"]);
    const second = await expectStatus<Page<RoleAnswer>>(await call("GET", `/api/companies/roles?search=suporte&limit=2&cursor=${first.cursor}`, { token: owner.token }), 200);
    expect(second).toMatchObject({ cursor: null, total: 3 });
    expect(second.results.map((r) => r.name)).toEqual(["Suporte 3"]);
    // Without search: the Owner first, as in the plain list.
    const all = await expectStatus<Page<RoleAnswer>>(await call("GET", "/api/companies/roles?limit=200", { token: owner.token }), 200);
    expect(all.results.map((r) => r.id)).toEqual(plain.map((r) => r.id));
  });
});
