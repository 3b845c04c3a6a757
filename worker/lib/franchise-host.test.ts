/**
 * Host → franchise resolution (issue 14 "Resolving the franchise"): known, unknown, upper case,
 * with port; cached so a repeated lookup touches no D1 row; invalidated on change; nothing at all
 * while FRANCHISE_MODE is off.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { invalidateFranchiseHosts, normalizeHostname, resolveFranchise } from "./franchise-host";

/** Inserts a franchise with one hostname straight into D1; answers its id. */
async function franchiseWithHost(hostname: string, name = "Acme Franquias"): Promise<string> {
  const id = crypto.randomUUID();
  const at = Date.now();
  await env.DB.batch([
    env.DB.prepare("INSERT INTO franchises (id, name, primary_color, created_at, updated_at) VALUES (?, ?, ?, ?, ?)").bind(id, name, "#aa3300", at, at),
    env.DB.prepare("INSERT INTO franchise_hostnames (id, franchise_id, hostname, status, verification_records, created_at, updated_at) VALUES (?, ?, ?, 'local', '[]', ?, ?)").bind(
      crypto.randomUUID(),
      id,
      hostname,
      at,
      at,
    ),
  ]);
  await invalidateFranchiseHosts([hostname]);
  return id;
}

const on = { ...env, FRANCHISE_MODE: "on" };

describe("franchise host resolution", () => {
  it("normalizes a host: lower case, no port, no trailing dot", () => {
    expect(normalizeHostname("Acme.Example.COM:8443")).toBe("acme.example.com");
    expect(normalizeHostname("acme.localhost.")).toBe("acme.localhost");
    expect(normalizeHostname("[::1]:8787")).toBe("[::1]");
  });

  it("resolves a known hostname, in any case and with a port, and not an unknown one", async () => {
    const host = `known-${crypto.randomUUID().slice(0, 8)}.localhost`;
    const id = await franchiseWithHost(host);
    expect((await resolveFranchise(on, host))?.id).toBe(id);
    expect((await resolveFranchise(on, host.toUpperCase()))?.id).toBe(id);
    expect((await resolveFranchise(on, `${host}:8787`))?.id).toBe(id);
    const brand = await resolveFranchise(on, `${host.toUpperCase()}:443`);
    expect(brand).toMatchObject({ id, name: "Acme Franquias", primaryColor: "#aa3300" });
    expect(await resolveFranchise(on, `unknown-${crypto.randomUUID().slice(0, 8)}.localhost:8787`)).toBeNull();
  });

  it("answers a repeated lookup from the cache (the D1 row gone unnoticed) until invalidated", async () => {
    const host = `cached-${crypto.randomUUID().slice(0, 8)}.localhost`;
    const id = await franchiseWithHost(host);
    expect((await resolveFranchise(on, host))?.id).toBe(id);
    // Removed behind the cache's back: the hot path does not read D1, so it still answers.
    await env.DB.prepare("DELETE FROM franchise_hostnames WHERE hostname = ?").bind(host).run();
    expect((await resolveFranchise(on, `${host}:8787`))?.id).toBe(id);
    await invalidateFranchiseHosts([host]);
    expect(await resolveFranchise(on, host)).toBeNull();
  });

  it("caches unknown hosts too, and a hostname added through invalidation is seen at once", async () => {
    const host = `later-${crypto.randomUUID().slice(0, 8)}.localhost`;
    expect(await resolveFranchise(on, host)).toBeNull();
    const id = await franchiseWithHost(host);
    expect((await resolveFranchise(on, host))?.id).toBe(id);
  });

  it("looks nothing up while FRANCHISE_MODE is off", async () => {
    const host = `off-${crypto.randomUUID().slice(0, 8)}.localhost`;
    await franchiseWithHost(host);
    for (const FRANCHISE_MODE of ["off", "", "yes"]) {
      // A DB that throws on any use proves no query is made.
      const noDb = new Proxy({}, { get: () => () => { throw new Error("D1 touched"); } }) as unknown as D1Database;
      expect(await resolveFranchise({ ...env, FRANCHISE_MODE, DB: noDb }, host)).toBeNull();
    }
  });
});
