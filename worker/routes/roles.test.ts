import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { RoleAnswer } from "../../schema/api-types";
import { COMPANY_PERMISSIONS } from "../../schema/permissions";
import { newId } from "../lib/ids";
import {
  activeCompanyId,
  call,
  countRows,
  createRole,
  expectError,
  expectInvalid,
  expectStatus,
  member,
  ownerRole,
  register,
} from "../test/helpers";
import { OWNER_ROLE_TEXT } from "../lib/accounts";

/** Tests register without Accept-Language, so the company speaks pt-BR. */
const OWNER = OWNER_ROLE_TEXT["pt-BR"]!.name;

/** The role's row as stored, for "nothing was written" checks. */
async function roleRow(id: string) {
  return env.DB.prepare("SELECT * FROM roles WHERE id = ?").bind(id).first<Record<string, unknown>>();
}

const SIGNED_IN_CALLS: [string, string][] = [
  ["GET", "/api/companies/roles"],
  ["POST", "/api/companies/roles"],
  ["GET", `/api/companies/roles/${newId()}`],
  ["PUT", `/api/companies/roles/${newId()}`],
  ["DELETE", `/api/companies/roles/${newId()}`],
];

describe("signed-in calls of /api/companies/roles", () => {
  it.each(SIGNED_IN_CALLS)("%s %s without a token answers 401", async (method, path) => {
    await expectError(await call(method, path), 401, "unauthorized");
  });
});

describe("GET /api/companies/roles", () => {
  it("lists the company's roles, Owner first then by name", async () => {
    const owner = await register();
    await createRole(owner, ["tickets"], "Zelador");
    await createRole(owner, ["contacts"], "Caixa");
    const list = await expectStatus<RoleAnswer[]>(await call("GET", "/api/companies/roles", { token: owner.token }), 200);
    // Administrador and Atendente are the starter roles of every new company (issue 9).
    expect(list.map((r) => r.name)).toEqual([OWNER, "Administrador", "Atendente", "Caixa", "Zelador"]);
    expect(list[0]).toMatchObject({ isOwner: true });
    expect([...(list[0]?.permissions ?? [])].sort()).toEqual([...COMPANY_PERMISSIONS].sort());
  });

  it("does not list another company's roles", async () => {
    const owner = await register();
    const other = await register();
    await createRole(other, ["tickets"], "Só Deles");
    const list = await expectStatus<RoleAnswer[]>(await call("GET", "/api/companies/roles", { token: owner.token }), 200);
    expect(list.map((r) => r.name)).toEqual([OWNER, "Administrador", "Atendente"]);
  });

  it("a member with settings_members (to invite) may list", async () => {
    const owner = await register();
    const staff = await member(owner, ["settings_members"]);
    const list = await expectStatus<RoleAnswer[]>(await call("GET", "/api/companies/roles", { token: staff.token }), 200);
    expect(list.map((r) => r.id)).toContain(staff.roleId);
  });

  it("a member with neither settings_company nor settings_members gets 403", async () => {
    const owner = await register();
    const staff = await member(owner, ["tickets", "contacts"]);
    await expectError(await call("GET", "/api/companies/roles", { token: staff.token }), 403, "forbidden");
  });
});

describe("GET /api/companies/roles/{id}", () => {
  it("answers the role", async () => {
    const owner = await register();
    const role = await createRole(owner, ["tickets", "crm"], "Vendas");
    expect(await expectStatus(await call("GET", `/api/companies/roles/${role.id}`, { token: owner.token }), 200)).toEqual({
      id: role.id,
      name: "Vendas",
      description: "",
      permissions: ["tickets", "crm"],
      isOwner: false,
    });
  });

  it("another company's role answers 404", async () => {
    const owner = await register();
    const other = await register();
    const foreign = await createRole(other, ["tickets"]);
    await expectError(await call("GET", `/api/companies/roles/${foreign.id}`, { token: owner.token }), 404, "not_found");
  });

  it("a malformed id answers 400 naming id", async () => {
    const owner = await register();
    await expectInvalid(await call("GET", "/api/companies/roles/not-an-id", { token: owner.token }), "id", "invalid_id");
  });

  it("a member with neither settings permission gets 403", async () => {
    const owner = await register();
    const staff = await member(owner, ["tickets"]);
    await expectError(await call("GET", `/api/companies/roles/${staff.roleId}`, { token: staff.token }), 403, "forbidden");
  });
});

describe("POST /api/companies/roles", () => {
  it("creates a role with its name, description and de-duplicated permissions", async () => {
    const owner = await register();
    const res = await call("POST", "/api/companies/roles", {
      token: owner.token,
      body: { name: "  Suporte  ", description: " Atende os clientes ", permissions: ["tickets", "contacts", "tickets"] },
    });
    const role = await expectStatus<RoleAnswer>(res, 201);
    expect(role).toEqual({ id: expect.any(String), name: "Suporte", description: "Atende os clientes", permissions: ["tickets", "contacts"], isOwner: false });
    expect(await roleRow(role.id)).toMatchObject({ company_id: await activeCompanyId(owner.token), name: "Suporte", is_owner: 0 });
  });

  it("a role may have no permissions and no description", async () => {
    const owner = await register();
    const role = await expectStatus<RoleAnswer>(
      await call("POST", "/api/companies/roles", { token: owner.token, body: { name: "Visitante", permissions: [] } }),
      201,
    );
    expect(role).toMatchObject({ description: "", permissions: [] });
  });

  it("a name already used in the company answers 409 name_in_use, ignoring case", async () => {
    const owner = await register();
    await createRole(owner, ["tickets"], "Atendimento");
    const companyId = await activeCompanyId(owner.token);
    const count = await countRows("roles", "company_id = ?", companyId);
    for (const name of ["Atendimento", "ATENDIMENTO", OWNER.toUpperCase()]) {
      const body = await expectError(
        await call("POST", "/api/companies/roles", { token: owner.token, body: { name, permissions: [] } }),
        409,
        "name_in_use",
      );
      expect(body.error.fields?.name).toBe("name_in_use");
    }
    expect(await countRows("roles", "company_id = ?", companyId)).toBe(count);
  });

  it("the same name in another company is fine", async () => {
    const owner = await register();
    const other = await register();
    await createRole(other, [], "Financeiro");
    await createRole(owner, [], "Financeiro");
  });

  it.each([
    ["name", { name: undefined }, "required"],
    ["name", { name: "a" }, "name_too_short"],
    ["name", { name: "x".repeat(121) }, "too_long"],
    ["description", { description: "x".repeat(501) }, "too_long"],
    ["permissions", { permissions: undefined }, "required"],
    ["permissions.0", { permissions: ["fly"] }, "invalid_permission"],
  ])("an invalid %s answers 400 naming the field and writes nothing (%j)", async (field, override, reason) => {
    const owner = await register();
    const companyId = await activeCompanyId(owner.token);
    const count = await countRows("roles", "company_id = ?", companyId);
    const body = { name: "Válido", description: "", permissions: ["tickets"], ...override };
    await expectInvalid(await call("POST", "/api/companies/roles", { token: owner.token, body }), field, reason);
    expect(await countRows("roles", "company_id = ?", companyId)).toBe(count);
  });

  it("a member without settings_company gets 403, even with settings_members, and nothing is written", async () => {
    const owner = await register();
    const staff = await member(owner, ["settings_members"]);
    const count = await countRows("roles", "company_id = ?", staff.companyId);
    await expectError(
      await call("POST", "/api/companies/roles", { token: staff.token, body: { name: "Nova", permissions: ["settings_company"] } }),
      403,
      "forbidden",
    );
    expect(await countRows("roles", "company_id = ?", staff.companyId)).toBe(count);
  });

  it("a malformed JSON body answers 400, not 500", async () => {
    const owner = await register();
    await expectError(await call("POST", "/api/companies/roles", { token: owner.token, body: '{"name":' }), 400, "validation_failed");
  });
});

describe("PUT /api/companies/roles/{id}", () => {
  it("updates the role, and its holders' permissions follow", async () => {
    const owner = await register();
    const staff = await member(owner, ["tickets"]);
    const updated = await expectStatus<RoleAnswer>(
      await call("PUT", `/api/companies/roles/${staff.roleId}`, {
        token: owner.token,
        body: { name: "Renomeado", description: "novo", permissions: ["crm", "crm_manager"] },
      }),
      200,
    );
    expect(updated).toEqual({ id: staff.roleId, name: "Renomeado", description: "novo", permissions: ["crm", "crm_manager"], isOwner: false });
    const permissions = await expectStatus<string[]>(await call("GET", "/api/me/permissions", { token: staff.token }), 200);
    expect([...permissions].sort()).toEqual(["crm", "crm_manager"]);
  });

  it("keeping the role's own name (or changing its case) is not a clash", async () => {
    const owner = await register();
    const role = await createRole(owner, ["tickets"], "Equipe");
    await expectStatus(await call("PUT", `/api/companies/roles/${role.id}`, { token: owner.token, body: { name: "Equipe", permissions: [] } }), 200);
    const renamed = await expectStatus<RoleAnswer>(
      await call("PUT", `/api/companies/roles/${role.id}`, { token: owner.token, body: { name: "EQUIPE", permissions: [] } }),
      200,
    );
    expect(renamed.name).toBe("EQUIPE");
  });

  it("another role's name answers 409 name_in_use and nothing changes", async () => {
    const owner = await register();
    await createRole(owner, ["tickets"], "Primeiro");
    const second = await createRole(owner, ["tickets"], "Segundo");
    const before = await roleRow(second.id);
    await expectError(
      await call("PUT", `/api/companies/roles/${second.id}`, { token: owner.token, body: { name: "primeiro", permissions: ["crm"] } }),
      409,
      "name_in_use",
    );
    expect(await roleRow(second.id)).toEqual(before);
  });

  it("the Owner role is read-only (409) and nothing changes", async () => {
    const owner = await register();
    const role = await ownerRole(owner);
    const before = await roleRow(role.id);
    await expectError(
      await call("PUT", `/api/companies/roles/${role.id}`, { token: owner.token, body: { name: "Dono", permissions: [] } }),
      409,
      "conflict",
    );
    expect(await roleRow(role.id)).toEqual(before);
  });

  it("another company's role answers 404 and nothing changes", async () => {
    const owner = await register();
    const other = await register();
    const foreign = await createRole(other, ["tickets"]);
    const before = await roleRow(foreign.id);
    await expectError(
      await call("PUT", `/api/companies/roles/${foreign.id}`, { token: owner.token, body: { name: "Tomado", permissions: [] } }),
      404,
      "not_found",
    );
    expect(await roleRow(foreign.id)).toEqual(before);
  });

  it.each([
    ["name", { name: "" }, "name_too_short"],
    ["permissions.0", { permissions: ["admin"] }, "invalid_permission"],
    ["description", { description: "x".repeat(501) }, "too_long"],
  ])("an invalid %s answers 400 naming the field and changes nothing (%j)", async (field, override, reason) => {
    const owner = await register();
    const role = await createRole(owner, ["tickets"]);
    const before = await roleRow(role.id);
    const body = { name: "Válido", permissions: ["crm"], ...override };
    await expectInvalid(await call("PUT", `/api/companies/roles/${role.id}`, { token: owner.token, body }), field, reason);
    expect(await roleRow(role.id)).toEqual(before);
  });

  it("a malformed id answers 400 naming id", async () => {
    const owner = await register();
    await expectInvalid(
      await call("PUT", "/api/companies/roles/1", { token: owner.token, body: { name: "Válido", permissions: [] } }),
      "id",
      "invalid_id",
    );
  });

  it("a member without settings_company gets 403 and nothing changes", async () => {
    const owner = await register();
    const staff = await member(owner, ["settings_members"]);
    const before = await roleRow(staff.roleId);
    await expectError(
      await call("PUT", `/api/companies/roles/${staff.roleId}`, { token: staff.token, body: { name: "Tudo", permissions: [...COMPANY_PERMISSIONS] } }),
      403,
      "forbidden",
    );
    expect(await roleRow(staff.roleId)).toEqual(before);
  });
});

describe("DELETE /api/companies/roles/{id}", () => {
  it("deletes the role and its holders lose it", async () => {
    const owner = await register();
    const staff = await member(owner, ["tickets"]);
    const res = await call("DELETE", `/api/companies/roles/${staff.roleId}`, { token: owner.token });
    expect(res.status, await res.clone().text()).toBe(204);
    expect(await roleRow(staff.roleId)).toBeNull();
    expect(await countRows("member_roles", "role_id = ?", staff.roleId)).toBe(0);
    expect(await expectStatus(await call("GET", "/api/me/permissions", { token: staff.token }), 200)).toEqual([]);
    await expectError(await call("GET", `/api/companies/roles/${staff.roleId}`, { token: owner.token }), 404, "not_found");
  });

  it("the Owner role cannot be deleted (409)", async () => {
    const owner = await register();
    const role = await ownerRole(owner);
    await expectError(await call("DELETE", `/api/companies/roles/${role.id}`, { token: owner.token }), 409, "conflict");
    expect(await roleRow(role.id)).not.toBeNull();
    expect(await countRows("member_roles", "role_id = ?", role.id)).toBe(1);
  });

  it("another company's role answers 404 and stays", async () => {
    const owner = await register();
    const other = await register();
    const stranger = await member(other, ["tickets"]);
    await expectError(await call("DELETE", `/api/companies/roles/${stranger.roleId}`, { token: owner.token }), 404, "not_found");
    expect(await roleRow(stranger.roleId)).not.toBeNull();
    expect(await countRows("member_roles", "role_id = ?", stranger.roleId)).toBe(1);
  });

  it("a malformed id answers 400 naming id", async () => {
    const owner = await register();
    await expectInvalid(await call("DELETE", "/api/companies/roles/x", { token: owner.token }), "id", "invalid_id");
  });

  it("a member without settings_company gets 403 and the role stays", async () => {
    const owner = await register();
    const staff = await member(owner, ["settings_members"]);
    await expectError(await call("DELETE", `/api/companies/roles/${staff.roleId}`, { token: staff.token }), 403, "forbidden");
    expect(await roleRow(staff.roleId)).not.toBeNull();
  });
});
