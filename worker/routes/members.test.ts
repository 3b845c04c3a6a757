import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { MemberAnswer } from "../../schema/api-types";
import { newId } from "../lib/ids";
import { OWNER_ROLE_TEXT } from "../lib/accounts";
import {
  type Account,
  call,
  countRows,
  createRole,
  expectError,
  expectInvalid,
  expectStatus,
  me,
  member,
  ownerRole,
  register,
} from "../test/helpers";

/** Tests register without Accept-Language, so the company speaks pt-BR. */
const OWNER = OWNER_ROLE_TEXT["pt-BR"]!.name;

/** The owner's own member id in their active company. */
async function ownerMemberId(owner: Account): Promise<string> {
  const list = await expectStatus<MemberAnswer[]>(await call("GET", "/api/companies/members", { token: owner.token }), 200);
  const found = list.find((m) => m.isOwner);
  if (!found) throw new Error(`no owner in ${JSON.stringify(list)}`);
  return found.id;
}

/** Role ids held by a member, straight from D1. */
async function heldRoles(memberId: string): Promise<string[]> {
  const { results } = await env.DB.prepare("SELECT role_id FROM member_roles WHERE member_id = ? ORDER BY role_id").bind(memberId).all<{ role_id: string }>();
  return results.map((r) => r.role_id);
}

const SIGNED_IN_CALLS: [string, string][] = [
  ["GET", "/api/companies/members"],
  ["GET", "/api/companies/members/active"],
  ["GET", `/api/companies/members/${newId()}`],
  ["PUT", `/api/companies/members/${newId()}`],
  ["DELETE", `/api/companies/members/${newId()}`],
];

describe("signed-in calls of /api/companies/members", () => {
  it.each(SIGNED_IN_CALLS)("%s %s without a token answers 401", async (method, path) => {
    await expectError(await call(method, path), 401, "unauthorized");
  });
});

describe("GET /api/companies/members", () => {
  it("lists the company's members by name with their roles and the owner marked", async () => {
    const owner = await register({ name: "Zuleica Dona" });
    const staff = await member(owner, ["tickets"]);
    const list = await expectStatus<MemberAnswer[]>(await call("GET", "/api/companies/members", { token: owner.token }), 200);
    const ownerUser = await me(owner.token);
    const ownerRoleAnswer = await ownerRole(owner);
    expect(list).toEqual([
      {
        id: staff.memberId,
        userId: staff.userId,
        name: "Bruno Lima",
        email: staff.email,
        image: null,
        status: "online",
        isOwner: false,
        roles: [{ id: staff.roleId, name: expect.any(String) }],
      },
      {
        id: expect.any(String),
        userId: ownerUser.id,
        name: "Zuleica Dona",
        email: owner.email,
        image: null,
        status: "online",
        isOwner: true,
        roles: [{ id: ownerRoleAnswer.id, name: OWNER }],
      },
    ]);
  });

  it("does not list members of another company", async () => {
    const owner = await register();
    const other = await register();
    const stranger = await member(other, []);
    const list = await expectStatus<MemberAnswer[]>(await call("GET", "/api/companies/members", { token: owner.token }), 200);
    expect(list.map((m) => m.email)).toEqual([owner.email]);
    expect(list.map((m) => m.id)).not.toContain(stranger.memberId);
  });

  it("a member without settings_members gets 403", async () => {
    const owner = await register();
    const staff = await member(owner, ["settings_company", "tickets"]);
    await expectError(await call("GET", "/api/companies/members", { token: staff.token }), 403, "forbidden");
  });

  it("a member with settings_members may list", async () => {
    const owner = await register();
    const staff = await member(owner, ["settings_members"]);
    const list = await expectStatus<MemberAnswer[]>(await call("GET", "/api/companies/members", { token: staff.token }), 200);
    expect(list).toHaveLength(2);
  });
});

describe("GET /api/companies/members/active", () => {
  it("lists only the members who are online, for any member", async () => {
    const owner = await register();
    const staff = await member(owner, []);
    await expectStatus(await call("PUT", "/api/user/change-status", { token: owner.token, body: { status: "offline" } }), 200);
    const list = await expectStatus<MemberAnswer[]>(await call("GET", "/api/companies/members/active", { token: staff.token }), 200);
    expect(list.map((m) => m.id)).toEqual([staff.memberId]);
  });

  it("does not list online members of another company", async () => {
    const owner = await register();
    const other = await register();
    await member(other, []);
    const list = await expectStatus<MemberAnswer[]>(await call("GET", "/api/companies/members/active", { token: owner.token }), 200);
    expect(list.map((m) => m.email)).toEqual([owner.email]);
  });
});

describe("GET /api/companies/members/{id}", () => {
  it("answers the member", async () => {
    const owner = await register();
    const staff = await member(owner, ["tickets"]);
    const found = await expectStatus<MemberAnswer>(await call("GET", `/api/companies/members/${staff.memberId}`, { token: owner.token }), 200);
    expect(found).toMatchObject({ id: staff.memberId, email: staff.email, isOwner: false, roles: [{ id: staff.roleId }] });
  });

  it("another company's member answers 404", async () => {
    const owner = await register();
    const other = await register();
    const stranger = await member(other, []);
    await expectError(await call("GET", `/api/companies/members/${stranger.memberId}`, { token: owner.token }), 404, "not_found");
  });

  it("a malformed id answers 400 naming id", async () => {
    const owner = await register();
    await expectInvalid(await call("GET", "/api/companies/members/42", { token: owner.token }), "id", "invalid_id");
  });

  it("a member without settings_members gets 403", async () => {
    const owner = await register();
    const staff = await member(owner, ["settings_company"]);
    await expectError(await call("GET", `/api/companies/members/${staff.memberId}`, { token: staff.token }), 403, "forbidden");
  });
});

describe("PUT /api/companies/members/{id}", () => {
  it("replaces the member's roles, and their permissions follow", async () => {
    const owner = await register();
    const staff = await member(owner, ["tickets"]);
    const a = await createRole(owner, ["contacts"], "Contatos");
    const b = await createRole(owner, ["crm"], "Comercial");
    const updated = await expectStatus<MemberAnswer>(
      await call("PUT", `/api/companies/members/${staff.memberId}`, { token: owner.token, body: { roles: [a.id, b.id, a.id] } }),
      200,
    );
    expect(updated.roles.map((r) => r.name).sort()).toEqual(["Comercial", "Contatos"]);
    expect(await heldRoles(staff.memberId)).toEqual([a.id, b.id].sort());
    const permissions = await expectStatus<string[]>(await call("GET", "/api/me/permissions", { token: staff.token }), 200);
    expect([...permissions].sort()).toEqual(["contacts", "crm"]);
  });

  it("the owner cannot be demoted (409) and keeps the Owner role", async () => {
    const owner = await register();
    const role = await createRole(owner, ["tickets"]);
    const id = await ownerMemberId(owner);
    const before = await heldRoles(id);
    await expectError(await call("PUT", `/api/companies/members/${id}`, { token: owner.token, body: { roles: [role.id] } }), 409, "conflict");
    expect(await heldRoles(id)).toEqual(before);
  });

  it("a manager cannot demote the owner either (409)", async () => {
    const owner = await register();
    const manager = await member(owner, ["settings_members"]);
    const id = await ownerMemberId(owner);
    const before = await heldRoles(id);
    await expectError(
      await call("PUT", `/api/companies/members/${id}`, { token: manager.token, body: { roles: [manager.roleId] } }),
      409,
      "conflict",
    );
    expect(await heldRoles(id)).toEqual(before);
  });

  it("the Owner role cannot be given to a member (409) and nothing changes", async () => {
    const owner = await register();
    const staff = await member(owner, ["tickets"]);
    const ownerRoleId = (await ownerRole(owner)).id;
    const body = await expectError(
      await call("PUT", `/api/companies/members/${staff.memberId}`, { token: owner.token, body: { roles: [ownerRoleId] } }),
      409,
      "conflict",
    );
    expect(body.error.fields?.roles).toBe("owner_role");
    expect(await heldRoles(staff.memberId)).toEqual([staff.roleId]);
  });

  it.each([
    ["roles", { roles: [] }, "roles_required"],
    ["roles", {}, "required"],
    ["roles.0", { roles: ["nope"] }, "invalid_id"],
  ])("an invalid %s answers 400 naming the field and changes nothing (%j)", async (field, body, reason) => {
    const owner = await register();
    const staff = await member(owner, ["tickets"]);
    await expectInvalid(await call("PUT", `/api/companies/members/${staff.memberId}`, { token: owner.token, body }), field, reason);
    expect(await heldRoles(staff.memberId)).toEqual([staff.roleId]);
  });

  it("a role of another company answers 400 naming roles and changes nothing", async () => {
    const owner = await register();
    const staff = await member(owner, ["tickets"]);
    const other = await register();
    const foreign = await createRole(other, ["tickets"]);
    await expectInvalid(
      await call("PUT", `/api/companies/members/${staff.memberId}`, { token: owner.token, body: { roles: [foreign.id] } }),
      "roles",
      "invalid_id",
    );
    expect(await heldRoles(staff.memberId)).toEqual([staff.roleId]);
  });

  it("another company's member answers 404 and keeps their roles", async () => {
    const owner = await register();
    const role = await createRole(owner, ["tickets"]);
    const other = await register();
    const stranger = await member(other, ["contacts"]);
    await expectError(
      await call("PUT", `/api/companies/members/${stranger.memberId}`, { token: owner.token, body: { roles: [role.id] } }),
      404,
      "not_found",
    );
    expect(await heldRoles(stranger.memberId)).toEqual([stranger.roleId]);
  });

  it("a member without settings_members gets 403 and nothing changes", async () => {
    const owner = await register();
    const staff = await member(owner, ["settings_company"]);
    const target = await member(owner, ["tickets"]);
    await expectError(
      await call("PUT", `/api/companies/members/${target.memberId}`, { token: staff.token, body: { roles: [staff.roleId] } }),
      403,
      "forbidden",
    );
    expect(await heldRoles(target.memberId)).toEqual([target.roleId]);
  });

  it("a malformed JSON body answers 400, not 500", async () => {
    const owner = await register();
    const staff = await member(owner, []);
    await expectError(
      await call("PUT", `/api/companies/members/${staff.memberId}`, { token: owner.token, body: "{roles:[" }),
      400,
      "validation_failed",
    );
  });
});

describe("DELETE /api/companies/members/{id}", () => {
  it("removes the member, who falls back to their own company", async () => {
    const owner = await register();
    const staff = await member(owner, ["tickets"]);
    const res = await call("DELETE", `/api/companies/members/${staff.memberId}`, { token: owner.token });
    expect(res.status, await res.clone().text()).toBe(204);
    expect(await countRows("members", "id = ?", staff.memberId)).toBe(0);
    expect(await countRows("member_roles", "member_id = ?", staff.memberId)).toBe(0);
    const after = await me(staff.token);
    expect(after.activeCompany).not.toBe(staff.companyId);
    expect(after.activeCompany).toEqual(expect.any(String));
    const companies = await expectStatus<{ id: string }[]>(await call("GET", "/api/companies", { token: staff.token }), 200);
    expect(companies.map((c) => c.id)).not.toContain(staff.companyId);
    await expectError(
      await call("PUT", "/api/me/change-active", { token: staff.token, body: { companyId: staff.companyId } }),
      404,
      "not_found",
    );
  });

  it("the owner cannot be removed (409)", async () => {
    const owner = await register();
    const manager = await member(owner, ["settings_members"]);
    const id = await ownerMemberId(owner);
    await expectError(await call("DELETE", `/api/companies/members/${id}`, { token: owner.token }), 409, "conflict");
    await expectError(await call("DELETE", `/api/companies/members/${id}`, { token: manager.token }), 409, "conflict");
    expect(await countRows("members", "id = ?", id)).toBe(1);
  });

  it("another company's member answers 404 and stays", async () => {
    const owner = await register();
    const other = await register();
    const stranger = await member(other, []);
    await expectError(await call("DELETE", `/api/companies/members/${stranger.memberId}`, { token: owner.token }), 404, "not_found");
    expect(await countRows("members", "id = ?", stranger.memberId)).toBe(1);
    expect((await me(stranger.token)).activeCompany).toBe(stranger.companyId);
  });

  it("a malformed id answers 400 naming id", async () => {
    const owner = await register();
    await expectInvalid(await call("DELETE", "/api/companies/members/abc", { token: owner.token }), "id", "invalid_id");
  });

  it("a member without settings_members gets 403 and the target stays", async () => {
    const owner = await register();
    const staff = await member(owner, ["settings_company"]);
    const target = await member(owner, []);
    await expectError(await call("DELETE", `/api/companies/members/${target.memberId}`, { token: staff.token }), 403, "forbidden");
    expect(await countRows("members", "id = ?", target.memberId)).toBe(1);
  });
});
