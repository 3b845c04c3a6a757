/**
 * A company's features (issue 14, worker/lib/features.ts): the franchise role's permissions ∩ the
 * plan's features. A feature outside them answers 403 on its routes (including `integration`: API
 * keys, event subscriptions and the public API), is absent from the permissions the company's roles
 * may hold (catalogue and 400 on create/edit) and from the member's effective permissions (what the
 * web's navigation reads).
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { MeAnswer } from "../../schema/api-types";
import type { ApiKeyCreatedAnswer } from "../../schema/validation/api-keys";
import type { FranchiseCompanyAnswer, FranchiseRoleAnswer } from "../../schema/validation/franchise";
import { type Account, call, expectError, expectInvalid, expectStatus, register } from "../test/helpers";
import { franchiseAdminAccount } from "../test/route-matrix";
import { ALL_FEATURES, combineFeatures, grantablePermissions, restrictToFeatures } from "./features";

describe("combineFeatures", () => {
  it("is every feature without limits, the role's without a plan list, and the intersection with both", () => {
    expect(combineFeatures(null, null)).toBe(ALL_FEATURES);
    expect(combineFeatures(null, [])).toBe(ALL_FEATURES);
    expect([...combineFeatures(["flow", "crm"], null)]).toEqual(["crm", "flow"]);
    expect([...combineFeatures(["flow", "crm"], ["crm", "broadcasts"])]).toEqual(["crm"]);
    expect([...combineFeatures(null, ["integration"])]).toEqual(["integration"]);
    expect([...combineFeatures([], null)]).toEqual([]);
  });

  it("removes what a missing feature covers and nothing else", () => {
    const features = combineFeatures(["broadcasts"], null);
    expect([...restrictToFeatures(["tickets", "crm", "crm_manager", "broadcasts", "contacts_shipping_cycles"], features)]).toEqual(["tickets", "broadcasts"]);
    expect(grantablePermissions(features)).not.toContain("keywords");
    expect(grantablePermissions(features)).toContain("settings_company");
  });
});

describe("a company of a franchise holding a franchise role", () => {
  let admin: Account;
  let owner: Account;
  let role: FranchiseRoleAnswer;
  let company: FranchiseCompanyAnswer;
  let key: string;

  beforeAll(async () => {
    [admin, owner] = await Promise.all([franchiseAdminAccount("Franquia Recursos").then((f) => f.account), register({ companyName: "Própria" })]);
    role = await expectStatus<FranchiseRoleAnswer>(
      await call("POST", "/api/franchise/roles", { token: admin.token, body: { name: "Campanhas", permissions: ["broadcasts", "quick_messages", "integration"] } }),
      201,
    );
    company = await expectStatus<FranchiseCompanyAnswer>(
      await call("POST", "/api/franchise/companies", { token: admin.token, body: { name: "Cliente Recursos", ownerEmail: owner.email, franchiseRoleId: role.id } }),
      201,
    );
    await expectStatus<MeAnswer>(await call("PUT", "/api/me/change-active", { token: owner.token, body: { companyId: company.id } }), 200);
    key = (
      await expectStatus<ApiKeyCreatedAnswer>(
        await call("POST", "/api/companies/active/api-keys", { token: owner.token, body: { name: "Loja", scopes: ["contacts:read"] } }),
        201,
      )
    ).key;
    // From here on the role lacks the API.
    await expectStatus(await call("PUT", `/api/franchise/roles/${role.id}`, { token: admin.token, body: { name: "Campanhas", permissions: ["broadcasts", "quick_messages"] } }), 200);
  });

  it("answers 403 on the routes of features outside the role, and serves those inside", async () => {
    const refused = await expectError(await call("GET", "/api/keywords", { token: owner.token }), 403, "forbidden");
    expect(refused.error.fields).toEqual({ feature: "keywords" });
    await expectError(await call("GET", "/api/crm/columns", { token: owner.token }), 403, "forbidden");
    await expectError(await call("GET", "/api/flows", { token: owner.token }), 403, "forbidden");
    await expectError(await call("GET", "/api/shipping-cycles", { token: owner.token }), 403, "forbidden");
    await expectStatus(await call("GET", "/api/broadcasts?tab=current", { token: owner.token }), 200);
    await expectStatus(await call("GET", "/api/quick-messages", { token: owner.token }), 200);
    await expectStatus(await call("GET", "/api/contacts", { token: owner.token }), 200);
  });

  it("answers 403 on the integration routes and to the company's API keys without `integration`", async () => {
    expect((await expectError(await call("GET", "/api/companies/active/api-keys", { token: owner.token }), 403, "forbidden")).error.fields).toEqual({ feature: "integration" });
    await expectError(await call("GET", "/api/event-subscriptions", { token: owner.token }), 403, "forbidden");
    await expectError(await call("GET", "/api/contacts", { headers: { "X-Api-Key": key } }), 403, "forbidden");
  });

  it("leaves features outside the role out of the member's permissions and features", async () => {
    const permissions = await expectStatus<string[]>(await call("GET", "/api/me/permissions", { token: owner.token }), 200);
    expect(permissions).toEqual(expect.arrayContaining(["tickets", "broadcasts", "quick_messages", "settings_company", "contacts"]));
    for (const p of ["keywords", "crm", "crm_manager", "flow", "webhooks", "internal_chats", "shipping_cycles", "contacts_shipping_cycles"]) expect(permissions).not.toContain(p);
    expect(await expectStatus(await call("GET", "/api/me/features", { token: owner.token }), 200)).toEqual(["broadcasts", "quick_messages"]);
  });

  it("keeps features outside the role out of what the company's roles may hold", async () => {
    const catalogue = await expectStatus<string[]>(await call("GET", "/api/companies/roles/permissions", { token: owner.token }), 200);
    expect(catalogue).toContain("broadcasts");
    expect(catalogue).not.toContain("keywords");
    expect(catalogue).not.toContain("crm_manager");
    const refused = await expectInvalid(
      await call("POST", "/api/companies/roles", { token: owner.token, body: { name: "Com palavras", description: "", permissions: ["tickets", "keywords"] } }),
      "permissions",
      "feature_not_available",
    );
    expect(refused.error.message).toContain("keywords");
    const made = await expectStatus<{ id: string }>(
      await call("POST", "/api/companies/roles", { token: owner.token, body: { name: "Campanhas", description: "", permissions: ["tickets", "broadcasts"] } }),
      201,
    );
    await expectInvalid(
      await call("PUT", `/api/companies/roles/${made.id}`, { token: owner.token, body: { name: "Campanhas", description: "", permissions: ["tickets", "broadcasts", "flow"] } }),
      "permissions",
      "feature_not_available",
    );
  });

  it("follows the plan's features too (the intersection), and the role's change at once", async () => {
    await expectStatus(
      await call("PUT", `/api/franchise/roles/${role.id}`, { token: admin.token, body: { name: "Campanhas", permissions: ["broadcasts", "quick_messages", "keywords"] } }),
      200,
    );
    await expectStatus(await call("GET", "/api/keywords", { token: owner.token }), 200);
    const at = Date.now();
    const planId = crypto.randomUUID();
    await env.DB.batch([
      env.DB.prepare("INSERT INTO billing_plans (id, name, price_cents, cycle, features, active, created_at, updated_at) VALUES (?, 'Só palavras', 1000, 'monthly', '[\"keywords\",\"flow\"]', 1, ?, ?)").bind(planId, at, at),
      env.DB.prepare(
        "INSERT INTO billing_subscriptions (id, company_id, plan_id, price_cents, status, provider, billing_type, next_due_date, created_at, updated_at) VALUES (?, ?, ?, 1000, 'active', 'sandbox', 'PIX', ?, ?, ?)",
      ).bind(crypto.randomUUID(), company.id, planId, at, at, at),
    ]);
    expect(await expectStatus(await call("GET", "/api/me/features", { token: owner.token }), 200)).toEqual(["keywords"]);
    await expectStatus(await call("GET", "/api/keywords", { token: owner.token }), 200);
    await expectError(await call("GET", "/api/broadcasts?tab=current", { token: owner.token }), 403, "forbidden");
  });

  it("gives a company outside franchises every feature", async () => {
    const other = await register();
    expect(await expectStatus<string[]>(await call("GET", "/api/me/features", { token: other.token }), 200)).toEqual([...ALL_FEATURES]);
    await expectStatus(await call("GET", "/api/keywords", { token: other.token }), 200);
  });
});
