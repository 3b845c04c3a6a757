/**
 * Issue 8 point 2, roles cannot be escalated: a member never changes their own roles, never
 * touches the Owner, and never grants (by role assignment, invite, or creating/editing a role) a
 * permission they do not hold. The Owner holds every permission.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { InviteAnswer, MemberAnswer, RoleAnswer } from "../../schema/api-types";
import { COMPANY_PERMISSIONS } from "../../schema/permissions";
import {
  type Account,
  call,
  countRows,
  createRole,
  expectError,
  expectStatus,
  member,
  ownerRole,
  register,
  uniqueEmail,
} from "../test/helpers";

/** Role ids held by a member, straight from D1. */
async function heldRoles(memberId: string): Promise<string[]> {
  const { results } = await env.DB.prepare("SELECT role_id FROM member_roles WHERE member_id = ? ORDER BY role_id").bind(memberId).all<{ role_id: string }>();
  return results.map((r) => r.role_id);
}

/** The permission names of `token`'s active company, sorted. */
async function permissionsOf(account: Account): Promise<string[]> {
  return (await expectStatus<string[]>(await call("GET", "/api/me/permissions", { token: account.token }), 200)).sort();
}

/** The owner's own member id in their active company. */
async function ownerMemberId(owner: Account): Promise<string> {
  const list = await expectStatus<MemberAnswer[]>(await call("GET", "/api/companies/members", { token: owner.token }), 200);
  const found = list.find((m) => m.isOwner);
  if (!found) throw new Error(`no owner in ${JSON.stringify(list)}`);
  return found.id;
}

describe("a member holding only settings_members", () => {
  it("cannot give themself the Admin role (403) and keeps their permissions", async () => {
    const owner = await register();
    const admin = await createRole(owner, [...COMPANY_PERMISSIONS], "Admin");
    const manager = await member(owner, ["settings_members"]);
    const body = await expectError(
      await call("PUT", `/api/companies/members/${manager.memberId}`, { token: manager.token, body: { roles: [admin.id] } }),
      403,
      "forbidden",
    );
    expect(body.error.message).toBe("You cannot change your own roles.");
    expect(body.error.fields?.roles).toBe("own_roles");
    expect(await heldRoles(manager.memberId)).toEqual([manager.roleId]);
    expect(await permissionsOf(manager)).toEqual(["settings_members"]);
  });

  it("cannot give another member a role with permissions they lack, but may give one within theirs", async () => {
    const owner = await register();
    const admin = await createRole(owner, [...COMPANY_PERMISSIONS], "Admin");
    const attendant = await createRole(owner, ["tickets", "settings_members"], "Recepção");
    const peer = await createRole(owner, ["settings_members"], "Gestor");
    const manager = await member(owner, ["settings_members"]);
    const staff = await member(owner, []);
    for (const role of [admin, attendant]) {
      const body = await expectError(
        await call("PUT", `/api/companies/members/${staff.memberId}`, { token: manager.token, body: { roles: [role.id] } }),
        403,
        "forbidden",
      );
      expect(body.error.message, JSON.stringify(body)).toContain("You cannot grant permissions you do not hold");
      expect(body.error.fields?.roles).toBe("permissions_not_held");
    }
    expect(await heldRoles(staff.memberId)).toEqual([staff.roleId]);
    expect(await permissionsOf(staff)).toEqual([]);
    const updated = await expectStatus<MemberAnswer>(
      await call("PUT", `/api/companies/members/${staff.memberId}`, { token: manager.token, body: { roles: [peer.id] } }),
      200,
    );
    expect(updated.roles.map((r) => r.id)).toEqual([peer.id]);
  });

  it("may keep a role the member already holds while changing others (keeping grants nothing)", async () => {
    const owner = await register();
    const manager = await member(owner, ["settings_members"]);
    const staff = await member(owner, ["tickets"]);
    const peer = await createRole(owner, ["settings_members"]);
    const updated = await expectStatus<MemberAnswer>(
      await call("PUT", `/api/companies/members/${staff.memberId}`, { token: manager.token, body: { roles: [staff.roleId, peer.id] } }),
      200,
    );
    expect(updated.roles.map((r) => r.id).sort()).toEqual([staff.roleId, peer.id].sort());
  });

  it("cannot invite with a role carrying permissions they lack; no invite is stored", async () => {
    const owner = await register();
    const admin = await createRole(owner, [...COMPANY_PERMISSIONS], "Admin");
    const peer = await createRole(owner, ["settings_members"]);
    const manager = await member(owner, ["settings_members"]);
    const email = uniqueEmail("escalate");
    const body = await expectError(
      await call("POST", "/api/companies/invite", { token: manager.token, body: { email, roles: [peer.id, admin.id] } }),
      403,
      "forbidden",
    );
    expect(body.error.fields?.roles).toBe("permissions_not_held");
    expect(await countRows("invites", "email = ?", email)).toBe(0);
    await expectStatus<InviteAnswer>(await call("POST", "/api/companies/invite", { token: manager.token, body: { email, roles: [peer.id] } }), 201);
  });

  it("cannot touch the Owner: neither the owner's membership nor the Owner role", async () => {
    const owner = await register();
    const manager = await member(owner, ["settings_members"]);
    const ownerId = await ownerMemberId(owner);
    const ownerRoleId = (await ownerRole(owner)).id;
    const before = await heldRoles(ownerId);
    await expectError(await call("PUT", `/api/companies/members/${ownerId}`, { token: manager.token, body: { roles: [manager.roleId] } }), 409, "conflict");
    await expectError(await call("DELETE", `/api/companies/members/${ownerId}`, { token: manager.token }), 409, "conflict");
    await expectError(
      await call("PUT", `/api/companies/members/${manager.memberId}`, { token: manager.token, body: { roles: [ownerRoleId] } }),
      403,
      "forbidden",
    );
    const staff = await member(owner, []);
    await expectError(await call("PUT", `/api/companies/members/${staff.memberId}`, { token: manager.token, body: { roles: [ownerRoleId] } }), 409, "conflict");
    await expectError(await call("POST", "/api/companies/invite", { token: manager.token, body: { email: uniqueEmail("o"), roles: [ownerRoleId] } }), 409, "conflict");
    expect(await heldRoles(ownerId)).toEqual(before);
    expect(await heldRoles(staff.memberId)).toEqual([staff.roleId]);
    expect(await countRows("members", "id = ?", ownerId)).toBe(1);
  });
});

describe("a member holding settings_company edits roles", () => {
  it("cannot create a role with a permission they lack (403), and nothing is stored", async () => {
    const owner = await register();
    const editor = await member(owner, ["settings_company"]);
    const name = `Escalada ${Math.random().toString(36).slice(2, 8)}`;
    const body = await expectError(
      await call("POST", "/api/companies/roles", { token: editor.token, body: { name, description: "", permissions: ["settings_company", "settings_members"] } }),
      403,
      "forbidden",
    );
    expect(body.error.fields?.permissions).toBe("permissions_not_held");
    expect(body.error.message).toContain("settings_members");
    expect(await countRows("roles", "name = ?", name)).toBe(0);
    await expectStatus<RoleAnswer>(
      await call("POST", "/api/companies/roles", { token: editor.token, body: { name, description: "", permissions: ["settings_company"] } }),
      201,
    );
  });

  it("cannot edit a role (their own included) to add a permission they lack; may rename one that keeps permissions beyond theirs", async () => {
    const owner = await register();
    const editor = await member(owner, ["settings_company"]);
    const sales = await createRole(owner, ["crm", "contacts"], "Vendas");
    const own = await expectStatus<RoleAnswer>(await call("GET", `/api/companies/roles/${editor.roleId}`, { token: editor.token }), 200);
    for (const [role, permissions] of [
      [own, ["settings_company", "connections"]],
      [sales, ["crm", "contacts", "tickets"]],
    ] as const) {
      const body = await expectError(
        await call("PUT", `/api/companies/roles/${role.id}`, { token: editor.token, body: { name: role.name, description: "", permissions } }),
        403,
        "forbidden",
      );
      expect(body.error.fields?.permissions).toBe("permissions_not_held");
    }
    expect(await permissionsOf(editor)).toEqual(["settings_company"]);
    const renamed = await expectStatus<RoleAnswer>(
      await call("PUT", `/api/companies/roles/${sales.id}`, { token: editor.token, body: { name: "Comercial", description: "", permissions: ["crm"] } }),
      200,
    );
    expect(renamed).toMatchObject({ name: "Comercial", permissions: ["crm"] });
  });
});

describe("a member holding every permission", () => {
  it("may grant all of them by assignment, invite and role edit, but still not change their own roles", async () => {
    const owner = await register();
    const admin = await createRole(owner, [...COMPANY_PERMISSIONS], "Admin");
    const boss = await member(owner, [...COMPANY_PERMISSIONS]);
    const staff = await member(owner, []);
    await expectStatus(await call("PUT", `/api/companies/members/${staff.memberId}`, { token: boss.token, body: { roles: [admin.id] } }), 200);
    expect((await permissionsOf(staff)).length).toBe(COMPANY_PERMISSIONS.length);
    await expectStatus(await call("POST", "/api/companies/invite", { token: boss.token, body: { email: uniqueEmail("all"), roles: [admin.id] } }), 201);
    const created = await expectStatus<RoleAnswer>(
      await call("POST", "/api/companies/roles", { token: boss.token, body: { name: "Tudo", description: "", permissions: [...COMPANY_PERMISSIONS] } }),
      201,
    );
    expect(created.permissions).toHaveLength(COMPANY_PERMISSIONS.length);
    await expectError(await call("PUT", `/api/companies/members/${boss.memberId}`, { token: boss.token, body: { roles: [admin.id] } }), 403, "forbidden");
  });

  it("the Owner may grant every permission", async () => {
    const owner = await register();
    const admin = await createRole(owner, [...COMPANY_PERMISSIONS], "Admin");
    const staff = await member(owner, []);
    await expectStatus(await call("PUT", `/api/companies/members/${staff.memberId}`, { token: owner.token, body: { roles: [admin.id] } }), 200);
    await expectStatus(await call("POST", "/api/companies/invite", { token: owner.token, body: { email: uniqueEmail("own"), roles: [admin.id] } }), 201);
  });
});
