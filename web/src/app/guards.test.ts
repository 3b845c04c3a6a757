import { describe, expect, it, vi } from "vitest";
import { ApiError } from "@/lib/api";
import type { CompanyAnswer, MeAnswer } from "../../../schema/api-types";
import { GUARD_ORDER, orderGuards, runGuard, runGuards, type GuardSources } from "./guards";
import { guardCheck } from "./guard-loader";
import { ALL_THREE, ROUTES } from "./route-table";
import { ROUTE_PERMISSIONS } from "./route-permissions";
import { COMPANY_PERMISSIONS } from "../../../schema/permissions";

const me: MeAnswer = { id: "u1", name: "Ana", email: "ana@example.com", phone: null, image: null, status: "online", activeCompany: "c1", emailVerified: true, platformAdmin: false };

function company(overrides: Partial<CompanyAnswer> = {}): CompanyAnswer {
  return {
    id: "c1", name: "Acme", image: null, timezone: "America/Sao_Paulo", language: "pt-BR", showAttendantName: false,
    apiKeyHint: null, whatsappNumber: null, owner: "u1", plan: "monthly", paymentStatus: "paid", dueDate: Date.now() + 30 * 864e5,
    disconnected: [], activated: true, subscriptionValid: true, ...overrides,
  };
}

/** Sources with everything allowed; each test breaks one thing. */
function sources(overrides: Partial<GuardSources> = {}): GuardSources {
  return {
    hasToken: () => true,
    me: async () => me,
    company: async () => company(),
    permissions: async () => [...COMPANY_PERMISSIONS],
    ...overrides,
  };
}

describe("guard order and names", () => {
  it("runs guards in the spec's order whatever order the route lists them", () => {
    expect(orderGuards(["is-invalid-subscription", "has-permission", "is-auth"])).toEqual(["is-auth", "has-permission", "is-invalid-subscription"]);
    expect(GUARD_ORDER).toEqual(["is-auth", "is-valid-subscription", "has-permission", "is-logout", "is-invalid-subscription"]);
  });

  it("throws on an unknown guard name", () => {
    expect(() => orderGuards(["is-auth", "is-admin"])).toThrow("Unknown route guard: is-admin");
    expect(() => guardCheck("/", ["is-sorcerer"])).toThrow(/Unknown route guard/);
  });

  it("stops at the first guard that does not pass (is-auth before the others)", async () => {
    const company = vi.fn(async () => null);
    const permissions = vi.fn(async () => []);
    const outcome = await runGuards(["has-permission", "is-valid-subscription", "is-auth"], { permission: "tickets" }, sources({ hasToken: () => false, company, permissions }));
    expect(outcome).toEqual({ kind: "redirect", to: "/login" });
    expect(company).not.toHaveBeenCalled();
    expect(permissions).not.toHaveBeenCalled();
  });

  it("checks the subscription before the permission", async () => {
    const outcome = await runGuards(ALL_THREE, { permission: "tickets" }, sources({
      company: async () => company({ subscriptionValid: false }),
      permissions: async () => [],
    }));
    expect(outcome).toEqual({ kind: "redirect", to: "/failed-subscription" });
  });
});

describe("each guard's decision", () => {
  it("is-auth: no token → /login", async () => {
    expect(await runGuards(["is-auth"], {}, sources({ hasToken: () => false }))).toEqual({ kind: "redirect", to: "/login" });
  });

  it("is-auth: a rejected session (401) or no reply → /login", async () => {
    const rejected = sources({ me: async () => Promise.reject(new ApiError(401, "unauthorized", "no")) });
    expect(await runGuards(["is-auth"], {}, rejected)).toEqual({ kind: "redirect", to: "/login" });
    const offline = sources({ me: async () => Promise.reject(new ApiError(0, "network_error", "down")) });
    expect(await runGuards(["is-auth"], {}, offline)).toEqual({ kind: "redirect", to: "/login" });
  });

  it("is-auth: other failures are not hidden as a logout", async () => {
    const broken = sources({ me: async () => Promise.reject(new ApiError(500, "internal", "boom")) });
    await expect(runGuards(["is-auth"], {}, broken)).rejects.toMatchObject({ status: 500 });
  });

  it("is-auth: a token and a user → pass", async () => {
    expect(await runGuards(["is-auth"], {}, sources())).toEqual({ kind: "pass" });
  });

  it("is-valid-subscription: invalid subscription → /failed-subscription", async () => {
    const outcome = await runGuards(["is-auth", "is-valid-subscription"], {}, sources({ company: async () => company({ subscriptionValid: false, paymentStatus: "unpaid" }) }));
    expect(outcome).toEqual({ kind: "redirect", to: "/failed-subscription" });
  });

  it("is-valid-subscription: no active company → not-in-company", async () => {
    const company = vi.fn(async () => null);
    const noActive = await runGuards(["is-auth", "is-valid-subscription"], {}, sources({ me: async () => ({ ...me, activeCompany: null }), company }));
    expect(noActive).toEqual({ kind: "no-company" });
    expect(company).not.toHaveBeenCalled();
    const answeredNoCompany = await runGuards(["is-auth", "is-valid-subscription"], {}, sources({ company: async () => null }));
    expect(answeredNoCompany).toEqual({ kind: "no-company" });
  });

  it("has-permission: missing permission → /access-denied; present → pass; none required → pass", async () => {
    const perms = sources({ permissions: async () => ["dashboard"] });
    expect(await runGuards(["has-permission"], { permission: "tickets" }, perms)).toEqual({ kind: "redirect", to: "/access-denied" });
    expect(await runGuards(["has-permission"], { permission: "dashboard" }, perms)).toEqual({ kind: "pass" });
    expect(await runGuards(["has-permission"], {}, perms)).toEqual({ kind: "pass" });
  });

  it("is-logout: a signed-in user is sent to /; a visitor passes", async () => {
    expect(await runGuards(["is-logout"], {}, sources())).toEqual({ kind: "redirect", to: "/" });
    expect(await runGuards(["is-logout"], {}, sources({ hasToken: () => false }))).toEqual({ kind: "pass" });
  });

  it("is-invalid-subscription: a valid subscription is sent to /; an invalid one passes; no company → not-in-company", async () => {
    const guards = ["is-auth", "is-invalid-subscription"];
    expect(await runGuards(guards, {}, sources())).toEqual({ kind: "redirect", to: "/" });
    expect(await runGuards(guards, {}, sources({ company: async () => company({ subscriptionValid: false }) }))).toEqual({ kind: "pass" });
    expect(await runGuards(guards, {}, sources({ company: async () => null }))).toEqual({ kind: "no-company" });
  });
});

describe("guard loaders", () => {
  it("turn a redirect into a router redirect Response", async () => {
    const check = guardCheck("/chats", ALL_THREE, sources({ permissions: async () => ["dashboard"] }));
    const thrown = await check().then(() => null, (error: unknown) => error);
    expect(thrown).toBeInstanceOf(Response);
    if (!(thrown instanceof Response)) return;
    expect(thrown.status).toBe(302);
    expect(thrown.headers.get("Location")).toBe("/access-denied");
  });

  it("read the route's permission from ROUTE_PERMISSIONS", async () => {
    const granted = sources({ permissions: async () => ["connections"] });
    await expect(guardCheck("/connections", ALL_THREE, granted)()).resolves.toBeNull();
    await expect(guardCheck("/chats", ALL_THREE, granted)()).rejects.toBeInstanceOf(Response);
  });

  it("throw a 403 no_company answer for the not-in-company screen", async () => {
    const check = guardCheck("/", ALL_THREE, sources({ company: async () => null }));
    const thrown = await check().then(() => null, (error: unknown) => error);
    expect(thrown).toMatchObject({ type: "DataWithResponseInit", data: { code: "no_company" }, init: { status: 403 } });
  });
});

describe("route table (spec §2)", () => {
  it("registers every guard name validly", () => {
    for (const route of ROUTES) expect(() => orderGuards(route.guards)).not.toThrow();
  });

  it("guards every company-permission route with all three guards", () => {
    for (const path of Object.keys(ROUTE_PERMISSIONS)) {
      const route = ROUTES.find((entry) => entry.path === path);
      expect(route, path).toBeDefined();
      expect(route?.guards).toEqual(ALL_THREE);
    }
  });

  it("gives every route guarded by all three a permission", () => {
    for (const route of ROUTES.filter((entry) => entry.guards === ALL_THREE)) {
      expect(Object.keys(ROUTE_PERMISSIONS), route.path).toContain(route.path);
    }
  });

  it("has the spec's layouts and guards for the special routes", () => {
    const byPath = new Map(ROUTES.map((route) => [route.path, route]));
    expect(byPath.get("/settings")).toMatchObject({ layout: "settings", guards: ["is-auth"] });
    expect(byPath.get("/login")).toMatchObject({ layout: "auth", guards: ["is-logout"] });
    expect(byPath.get("/failed-subscription")).toMatchObject({ layout: "default", guards: ["is-auth", "is-invalid-subscription"] });
    expect(byPath.get("/checkout/:id")).toMatchObject({ layout: "checkout", guards: [] });
    expect(byPath.get("/callback/instagram")).toMatchObject({ layout: "callback", guards: ["is-auth"] });
    expect(byPath.get("/access-denied")).toMatchObject({ guards: [] });
    expect(byPath.get("/franchise/roles")).toMatchObject({ layout: "franchises", guards: ["is-auth"] });
    expect(byPath.get("/broadcasts/history")).toMatchObject({ layout: "broadcasts" });
    expect(byPath.get("/registers/tags")).toMatchObject({ layout: "registers" });
    expect(ROUTES).toHaveLength(43);
    expect(new Set(ROUTES.map((route) => route.path)).size).toBe(ROUTES.length);
  });

  it("maps routes to the issue's permissions", () => {
    expect(ROUTE_PERMISSIONS["/"]).toBe("dashboard");
    expect(ROUTE_PERMISSIONS["/connections"]).toBe("connections");
    expect(ROUTE_PERMISSIONS["/share-flow/:id"]).toBe("flow");
    expect(ROUTE_PERMISSIONS["/settings/members"]).toBe("settings_members");
    expect(ROUTE_PERMISSIONS["/registers/tags"]).toBe("tags");
  });
});

describe("landing page without the dashboard permission", () => {
  it("sends the user to the first screen their permissions open instead of access denied", async () => {
    const { firstPermittedPath } = await import("./navigation");
    const sources: GuardSources = {
      hasToken: () => true,
      me: async () => ({ id: "u", name: "U", email: "u@x", phone: null, image: null, status: "online", activeCompany: "c", emailVerified: true, platformAdmin: false }),
      company: async () => {
        throw new Error("not needed");
      },
      permissions: async () => ["tickets"],
    };
    const outcome = await runGuard("has-permission", { permission: "dashboard", landing: firstPermittedPath }, sources);
    expect(outcome).toEqual({ kind: "redirect", to: "/chats" });
    expect(firstPermittedPath([])).toBe("/settings");
    const denied = await runGuard("has-permission", { permission: "settings_members" }, sources);
    expect(denied).toEqual({ kind: "redirect", to: "/access-denied" });
  });
});
