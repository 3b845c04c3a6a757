/**
 * The route matrix (issue 8 §8): generated from the Hono router itself (`app.routes`), every route
 * × (no session → 401 unless public; another company's session with company A's ids → 404 and no
 * row of company A changed; a member holding every permission except the route's → 403; a company
 * API key → 403 `api_key_not_allowed` outside the public API). Also: another company's session
 * naming company A's ids in a body or query is refused (400/404) with nothing changed, and a public
 * route guarded by its own credential (signature, device token, code) refuses without it. The
 * classification lives in worker/test/route-matrix.ts; a route missing from it fails with its name,
 * a table entry for a route that no longer exists fails too. Prints the counts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { app } from "../app";
import { PUBLIC_API_ROUTES } from "../../schema/validation/api-keys";
import type { CompanyPermission } from "../../schema/permissions";
import { API_KEY_SCOPES } from "../../schema/api-keys";
import { type Account, type Member, call, expectStatus, member, register } from "./helpers";
import { type Company, ROUTES, allBut, buildCompany, callRoute, envelopeProblem, franchiseAdminAccount, registeredRoutes, snapshot } from "./route-matrix";

/**
 * Cases the matrix shows failing today, keyed `<check label>: METHOD path` (labels: "no session",
 * "another company", "another company, ids in the body", "lacking permission", "API key"), each
 * with the reason and who fixes it. TODO whenever non-empty: a listed case that passes fails the
 * test, so the list cannot go stale. Empty: every check passes on every route.
 */
const KNOWN_FAILURES: Record<string, string> = {};

let A: Company;
let B: Account;
/** An API key of company B with every scope: the public API's routes (kind `apiKey`) take no session. */
let keyOfB: string;
/** The administrator of another franchise (issue 14): franchise A's ids answer 404 to them. */
let franchiseAdminB: Account;
/** Members of company A lacking exactly one route's permission set, by the set's key. */
const lacking = new Map<string, Member>();

const setKey = (anyOf: readonly CompanyPermission[]) => [...anyOf].sort().join("+");

const routes = registeredRoutes(app.routes);
const classified = routes.filter((r) => ROUTES[r] !== undefined);

beforeAll(async () => {
  A = await buildCompany();
  B = await register({ companyName: "Empresa B" });
  franchiseAdminB = (await franchiseAdminAccount("Franquia B")).account;
  keyOfB = (await expectStatus<{ key: string }>(await call("POST", "/api/companies/active/api-keys", { token: B.token, body: { name: "Chave B", scopes: [...API_KEY_SCOPES] } }), 201)).key;
  for (const route of classified) {
    const access = ROUTES[route]!.access;
    if (access.kind !== "company" || access.anyOf.length === 0) continue;
    const key = setKey(access.anyOf);
    if (!lacking.has(key)) lacking.set(key, await member(A.owner, allBut(access.anyOf)));
  }
}, 180_000);

/** What a check answers for a route it does not apply to. */
const SKIP = Symbol("not applicable");

/**
 * Runs `check` on every route (its problem, null when it holds, SKIP when it does not apply),
 * collecting failures; asserts none beyond the known ones and prints how many routes it checked.
 */
async function eachRoute(label: string, check: (route: string) => Promise<string | null | typeof SKIP>): Promise<void> {
  const failures: string[] = [];
  const knownPassing: string[] = [];
  let checked = 0;
  for (const route of classified) {
    const problem = await check(route);
    if (problem === SKIP) continue;
    checked += 1;
    const known = KNOWN_FAILURES[`${label}: ${route}`];
    if (problem && !known) failures.push(`${route}: ${problem}`);
    if (!problem && known) knownPassing.push(`${route} (listed as a known failure: ${known})`);
  }
  console.log(`route matrix, ${label}: ${checked} routes checked`);
  expect(checked, label).toBeGreaterThan(0);
  expect(failures, `${label}:\n${failures.join("\n")}`).toEqual([]);
  expect(knownPassing, `${label} passes now; remove from KNOWN_FAILURES:\n${knownPassing.join("\n")}`).toEqual([]);
}

/** The answer's problem when it is not `status` with the envelope (and `code` when given). */
async function expectAnswer(res: Response, status: number, code?: string): Promise<string | null> {
  const text = await res.text();
  if (res.status !== status) return `expected ${status}, got ${res.status} ${text.slice(0, 300)}`;
  const problem = envelopeProblem(text);
  if (problem) return `${status} without the error envelope (${problem}): ${text.slice(0, 200)}`;
  if (code && JSON.parse(text).error.code !== code) return `expected code ${code}: ${text.slice(0, 200)}`;
  return null;
}

/** A 404 of the route's own lookup (not the router's "No route for …"), with the envelope. */
async function expectLookup404(res: Response): Promise<string | null> {
  const text = await res.clone().text();
  if (res.status === 404 && text.includes("No route for")) return `the router found no such route (wrong path?): ${text}`;
  return expectAnswer(res, 404);
}

describe("route matrix", () => {
  it("classifies every route the router registers", () => {
    const unclassified = routes.filter((r) => ROUTES[r] === undefined).map((r) => `unclassified route: ${r}`);
    console.log(`route matrix: ${routes.length} routes, ${classified.length} classified`);
    expect(unclassified, unclassified.join("\n")).toEqual([]);
    expect(classified.length).toBe(routes.length);
  });

  it("lists no route that the router no longer registers", () => {
    const registered = new Set(routes);
    const stale = Object.keys(ROUTES).filter((r) => !registered.has(r)).map((r) => `stale table entry (no such route): ${r}`);
    expect(stale, stale.join("\n")).toEqual([]);
  });

  it("answers 401 without a session on every route that is not public, and public routes refuse without their own credential", async () => {
    await eachRoute("no session", async (route) => {
      const entry = ROUTES[route]!;
      const res = await callRoute(route, entry, A.ids);
      if (entry.access.kind === "public") {
        // A public route guarded by its own credential (signature, device token, code) refuses without it.
        if (entry.access.refuses) return expectAnswer(res, entry.access.refuses);
        await res.arrayBuffer();
        return res.status >= 500 ? `public route answered ${res.status}` : null;
      }
      if (entry.access.kind === "dev") return expectAnswer(res, 404, "not_found");
      return expectAnswer(res, 401, "unauthorized");
    });
  }, 60_000);

  it("answers 404 to another company's session for company A's ids, and changes nothing", async () => {
    await eachRoute("another company", async (route) => {
      const entry = ROUTES[route]!;
      if (!entry.params || entry.access.kind === "public" || entry.access.kind === "dev" || entry.access.kind === "platformAdmin") return SKIP;
      const before = await snapshot(A.ids.companyId);
      // Franchise routes: another franchise's administrator, franchise A's ids (issue 14).
      const token = entry.access.kind === "apiKey" ? keyOfB : entry.access.kind === "franchiseAdmin" ? franchiseAdminB.token : B.token;
      const problem = await expectLookup404(await callRoute(route, entry, A.ids, { token }));
      const after = await snapshot(A.ids.companyId);
      if (after !== before) return `${problem ?? "404"}, but company A's rows changed`;
      return problem;
    });
  }, 120_000);

  it("refuses another company's session naming company A's ids in the body or query, and changes nothing", async () => {
    const aIds = Object.entries(A.ids).filter(([key]) => key !== "provider").map(([, value]) => value);
    await eachRoute("another company, ids in the body", async (route) => {
      const entry = ROUTES[route]!;
      if (entry.params || (entry.access.kind !== "company" && entry.access.kind !== "user" && entry.access.kind !== "apiKey")) return SKIP;
      const shown = `${JSON.stringify(entry.body?.(A.ids) ?? null)} ${entry.query?.(A.ids) ?? ""}`;
      if (!aIds.some((value) => shown.includes(value))) return SKIP;
      const before = await snapshot(A.ids.companyId);
      const res = await callRoute(route, entry, A.ids, { token: entry.access.kind === "apiKey" ? keyOfB : B.token });
      const text = await res.text();
      const after = await snapshot(A.ids.companyId);
      if (res.status !== 400 && res.status !== 404) return `expected 400 or 404, got ${res.status} ${text.slice(0, 300)}`;
      const problem = envelopeProblem(text);
      if (problem) return `${res.status} without the error envelope (${problem})`;
      if (after !== before) return `${res.status}, but company A's rows changed`;
      return null;
    });
  }, 60_000);

  it("answers 403 to a member who lacks the route's permission", async () => {
    await eachRoute("lacking permission", async (route) => {
      const access = ROUTES[route]!.access;
      if (access.kind !== "company" || access.anyOf.length === 0) return SKIP;
      const who = lacking.get(setKey(access.anyOf))!;
      return expectAnswer(await callRoute(route, ROUTES[route]!, A.ids, { token: who.token }), 403, "forbidden");
    });
  }, 60_000);

  it("answers 403 to a company owner who is not a platform administrator on every platform-admin route", async () => {
    await eachRoute("not a platform administrator", async (route) => {
      const entry = ROUTES[route]!;
      if (entry.access.kind !== "platformAdmin") return SKIP;
      return expectAnswer(await callRoute(route, entry, A.ids, { token: A.owner.token }), 403, "forbidden");
    });
  }, 60_000);

  it("answers 403 to a company owner who administers no franchise on every franchise-admin route", async () => {
    await eachRoute("not a franchise administrator", async (route) => {
      const entry = ROUTES[route]!;
      if (entry.access.kind !== "franchiseAdmin") return SKIP;
      return expectAnswer(await callRoute(route, entry, A.ids, { token: A.owner.token }), 403, "forbidden");
    });
  }, 60_000);

  it("refuses a company API key on every route outside the public API", async () => {
    const publicApi = new Set(PUBLIC_API_ROUTES.map((r) => `${r.method} ${r.path}`));
    await eachRoute("API key", async (route) => {
      const entry = ROUTES[route]!;
      if (entry.access.kind === "public" || entry.access.kind === "dev" || publicApi.has(route)) return SKIP;
      return expectAnswer(await callRoute(route, entry, A.ids, { headers: { "X-Api-Key": A.apiKey } }), 403, "api_key_not_allowed");
    });
  }, 60_000);
});
