/**
 * Route-level code splitting (issue 9 "Load only what a screen needs"): every screen and layout of
 * the router is declared with react-router `lazy`, so no page's code (the flow editor and
 * @xyflow/react, the CRM board, the chats centre, the contact import dialog) is part of the entry
 * chunk that /login downloads; the guards stay eager loaders. `npm run bench:web` and
 * e2e/load.e2e.ts measure the same thing on a real build.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { RouteObject } from "react-router";
import { buildRoutes, LAYOUTS, SCREENS } from "./router";
import { ROUTES } from "./route-table";

/** Every route object below the root, depth first. */
function flatten(routes: RouteObject[]): RouteObject[] {
  return routes.flatMap((route) => [route, ...flatten(route.children ?? [])]);
}

describe("the router loads screens on demand", () => {
  const [root] = buildRoutes();
  const routes = flatten(root?.children ?? []);

  it("declares every table route, the sandbox phone and each layout with `lazy`, none with an eager element", () => {
    const lazyOnly = routes.filter((route) => route.path !== "*");
    // Outside the table: the sandbox phone, /docs/api, and the Admin area (its layout route, /admin/announcements, /admin/plans, /admin/coupons, /admin/franchises).
    expect(lazyOnly.length).toBe(ROUTES.length + 1 + 1 + 5 + Object.keys(LAYOUTS).length);
    for (const route of lazyOnly) {
      expect(route.lazy, `route ${route.path ?? "(layout)"}`).toBeTypeOf("function");
      expect(route.element, `route ${route.path ?? "(layout)"}`).toBeUndefined();
      expect(route.Component, `route ${route.path ?? "(layout)"}`).toBeUndefined();
    }
  });

  it("keeps the heavy screens (flow editor, CRM, chats, contacts, folders) behind `lazy`", () => {
    const byPath = new Map(routes.map((route) => [route.path, route]));
    for (const path of ["/flows/:id", "/crm", "/chats", "/contacts", "/folders", "/login"]) {
      expect(byPath.get(path)?.lazy, path).toBe(SCREENS[ROUTES.find((route) => route.path === path)!.screen]);
    }
  });

  it("keeps every table route's guards as its loader", () => {
    for (const spec of ROUTES) {
      const route = routes.find((candidate) => candidate.path === spec.path);
      expect(route?.loader, spec.path).toBeTypeOf("function");
    }
  });

  it("imports no feature module statically (only through `import()`)", () => {
    const source = readFileSync(new URL("./router.tsx", import.meta.url), "utf8");
    const staticImports = [...source.matchAll(/^import\s[^;]*?from\s+"([^"]+)"/gms)].map((match) => match[1]);
    expect(staticImports.filter((path) => path?.startsWith("@/features/") || path?.includes("/layouts/"))).toEqual([]);
    expect(source).toContain('import("@/features/flows/components/editor/flow-editor-page")');
  });

  it("resolves a lazy screen to its component", async () => {
    const login = await SCREENS.login();
    expect(login.Component).toBeTypeOf("function");
    // Issue 14: the franchise screens are real screens, no longer "being built" placeholders.
    const franchise = await SCREENS.franchiseSettings();
    expect(franchise.Component).toBeTypeOf("function");
    expect(franchise.element).toBeUndefined();
  });
});
