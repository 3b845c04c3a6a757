import { describe, expect, it } from "vitest";
import { call, expectStatus, register } from "../test/helpers";

describe("company API key authentication", () => {
  it("a key authenticates by X-Api-Key and by Bearer on a public API route, as its company only", async () => {
    const owner = await register();
    const other = await register();
    const { key } = await expectStatus<{ key: string }>(
      await call("POST", "/api/companies/active/api-keys", { token: owner.token, body: { name: "ERP", scopes: ["contacts:read"] } }),
      201,
    );
    expect(key.startsWith("cv_")).toBe(true);
    await expectStatus(await call("POST", "/api/contacts", { token: other.token, body: { name: "Cliente de outra", phone: "+55 11 91111-2222" } }), 201);
    const viaHeader = await expectStatus<{ total: number }>(await call("GET", "/api/contacts", { headers: { "X-Api-Key": key } }), 200);
    const viaBearer = await expectStatus<{ total: number }>(await call("GET", "/api/contacts", { token: key }), 200);
    expect([viaHeader.total, viaBearer.total]).toEqual([0, 0]);
  });

  it("an unknown key answers 401, on public routes and others alike", async () => {
    for (const path of ["/api/contacts", "/api/me"]) {
      const body = await expectStatus<{ error: { code: string } }>(await call("GET", path, { headers: { "X-Api-Key": "cv_nope" } }), 401);
      expect(body.error.code).toBe("unauthorized");
    }
  });
});
