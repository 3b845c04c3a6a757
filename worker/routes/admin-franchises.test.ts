/**
 * Franchises in the Admin area (issue 14): platform administrators create franchises, attach
 * hostnames (registered at Cloudflare through the adapter, against standins/cloudflare.ts; local
 * `*.localhost` ones are not), see the DNS records, poll the status to active, add franchise
 * administrators; branding changes reach the host cache at once; nobody else gets in.
 */
import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { MeAnswer } from "../../schema/api-types";
import type { AdminFranchiseAnswer, FranchiseHostnameAnswer, InfosAnswer } from "../../schema/validation/franchise";
import { call, expectStatus, register, uniqueIp, type Account } from "../test/helpers";

let admin: Account;
let owner: Account;

beforeAll(async () => {
  admin = await register({ email: "platform-admin@conversa.test", companyName: "Plataforma" });
  owner = await register({ companyName: "Padaria" });
});

const infosAt = async (host: string) =>
  expectStatus<InfosAnswer>(await exports.default.fetch(new Request(`http://${host}/api/infos`, { headers: { "CF-Connecting-IP": uniqueIp() } })), 200);

async function createFranchise(name: string, primaryColor?: string): Promise<AdminFranchiseAnswer> {
  return expectStatus<AdminFranchiseAnswer>(await call("POST", "/api/admin/franchises", { token: admin.token, body: { name, primaryColor } }), 201);
}

describe("franchises in the Admin area", () => {
  it("creates, lists, renames and deletes a franchise", async () => {
    const created = await createFranchise("Rede Sul", "#0A0");
    expect(created).toMatchObject({ name: "Rede Sul", primaryColor: "#00aa00", hostnames: [], admins: [], companies: 0 });
    const list = await expectStatus<{ results: AdminFranchiseAnswer[]; total: number }>(await call("GET", "/api/admin/franchises", { token: admin.token }), 200);
    expect(list.results.map((f) => f.id)).toContain(created.id);
    const renamed = await expectStatus<AdminFranchiseAnswer>(await call("PUT", `/api/admin/franchises/${created.id}`, { token: admin.token, body: { name: "Rede Sul 2" } }), 200);
    expect(renamed.name).toBe("Rede Sul 2");
    await expectStatus(await call("DELETE", `/api/admin/franchises/${created.id}`, { token: admin.token }), 204);
    await expectStatus(await call("GET", `/api/admin/franchises/${created.id}`, { token: admin.token }), 404);
  });

  it("a local *.localhost hostname is attached without Cloudflare and resolves at once; renaming reaches /api/infos", async () => {
    const f = await createFranchise("Rede Local", "#123456");
    const host = `local-${crypto.randomUUID().slice(0, 8)}.localhost`;
    // Seen as the product's own first (and that answer cached), then attached.
    expect((await infosAt(`${host}:8787`)).franchise).toBe(false);
    const h = await expectStatus<FranchiseHostnameAnswer>(await call("POST", `/api/admin/franchises/${f.id}/hostnames`, { token: admin.token, body: { hostname: `${host.toUpperCase()}:8787` } }), 201);
    expect(h).toMatchObject({ hostname: host, status: "local", records: [] });
    expect(await infosAt(`${host}:8787`)).toMatchObject({ name: "Rede Local", primaryColor: "#123456", franchise: true });
    await expectStatus(await call("PUT", `/api/admin/franchises/${f.id}`, { token: admin.token, body: { name: "Rede Local Nova" } }), 200);
    expect((await infosAt(host)).name).toBe("Rede Local Nova");
    const taken = await call("POST", `/api/admin/franchises/${(await createFranchise("Outra")).id}/hostnames`, { token: admin.token, body: { hostname: host } });
    expect((await expectStatus<{ error: { code: string; fields: Record<string, string> } }>(taken, 409)).error.fields.hostname).toBe("hostname_in_use");
    await expectStatus(await call("DELETE", `/api/admin/franchises/${f.id}/hostnames/${h.id}`, { token: admin.token }), 204);
    expect((await infosAt(host)).franchise).toBe(false);
  });

  it("registers a custom hostname at Cloudflare, answers its DNS records, polls it to active and removes it there", async () => {
    const f = await createFranchise("Rede Nuvem");
    const hostname = `chat-${crypto.randomUUID().slice(0, 8)}.rede.example`;
    const h = await expectStatus<FranchiseHostnameAnswer>(await call("POST", `/api/admin/franchises/${f.id}/hostnames`, { token: admin.token, body: { hostname, sslMethod: "txt" } }), 201);
    expect(h.status).toBe("pending");
    expect(h.sslStatus).toBe("pending_validation");
    expect(h.records).toEqual([
      { type: "TXT", name: `_cf-custom-hostname.${hostname}`, value: expect.any(String), purpose: "ownership" },
      { type: "TXT", name: `_acme-challenge.${hostname}`, value: expect.any(String), purpose: "ssl" },
    ]);
    const atCf = (await (await fetch(`${env.CF_STANDIN_ORIGIN}/__hostnames`)).json()) as { id: string; hostname: string }[];
    const registered = atCf.find((x) => x.hostname === hostname);
    expect(registered).toBeTruthy();
    const pending = await expectStatus<FranchiseHostnameAnswer>(await call("GET", `/api/admin/franchises/${f.id}/hostnames/${h.id}`, { token: admin.token }), 200);
    expect(pending.status).toBe("pending");
    await fetch(`${env.CF_STANDIN_ORIGIN}/__activate/${registered!.id}`, { method: "POST" });
    const active = await expectStatus<FranchiseHostnameAnswer>(await call("GET", `/api/admin/franchises/${f.id}/hostnames/${h.id}`, { token: admin.token }), 200);
    expect(active).toMatchObject({ status: "active", sslStatus: "active" });
    await expectStatus(await call("DELETE", `/api/admin/franchises/${f.id}/hostnames/${h.id}`, { token: admin.token }), 204);
    const after = (await (await fetch(`${env.CF_STANDIN_ORIGIN}/__hostnames`)).json()) as { hostname: string }[];
    expect(after.some((x) => x.hostname === hostname)).toBe(false);
  });

  it("adds an existing user as franchise administrator (400 for an unknown e-mail); /api/me then says franchiseAdmin", async () => {
    const f = await createFranchise("Rede Admins");
    const person = await register({ companyName: "Loja do Admin" });
    expect((await expectStatus<MeAnswer>(await call("GET", "/api/me", { token: person.token }), 200)).franchiseAdmin).toBe(false);
    const added = await call("POST", `/api/admin/franchises/${f.id}/admins`, { token: admin.token, body: { email: person.email.toUpperCase() } });
    expect(await expectStatus(added, 201)).toMatchObject({ email: person.email });
    expect((await expectStatus<MeAnswer>(await call("GET", "/api/me", { token: person.token }), 200)).franchiseAdmin).toBe(true);
    expect((await expectStatus<{ id: string }>(await call("GET", "/api/franchise", { token: person.token }), 200)).id).toBe(f.id);
    const unknown = await call("POST", `/api/admin/franchises/${f.id}/admins`, { token: admin.token, body: { email: "nobody.here@example.com" } });
    expect((await expectStatus<{ error: { fields: Record<string, string> } }>(unknown, 400)).error.fields.email).toBe("user_not_found");
    const userId = (await expectStatus<MeAnswer>(await call("GET", "/api/me", { token: person.token }), 200)).id;
    await expectStatus(await call("DELETE", `/api/admin/franchises/${f.id}/admins/${userId}`, { token: admin.token }), 204);
    await expectStatus(await call("GET", "/api/franchise", { token: person.token }), 403);
  });

  it("answers 403 to a company owner who is not a platform administrator", async () => {
    await expectStatus(await call("GET", "/api/admin/franchises", { token: owner.token }), 403);
    await expectStatus(await call("POST", "/api/admin/franchises", { token: owner.token, body: { name: "Minha rede" } }), 403);
  });
});
