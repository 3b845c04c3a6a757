import { describe, expect, it } from "vitest";
import { call, expectStatus, register } from "../test/helpers";

describe("company API key", () => {
  it("a generated key authenticates as the company (X-Api-Key and Bearer), and only that company", async () => {
    const owner = await register();
    const company = await expectStatus<{ id: string }>(await call("GET", "/api/companies/active", { token: owner.token }), 200);
    const { apiKey } = await expectStatus<{ apiKey: string }>(await call("POST", "/api/companies/active/api-key", { token: owner.token }), 200);
    expect(apiKey.startsWith("cv_")).toBe(true);
    const viaHeader = await expectStatus<{ id: string }>(await call("GET", "/api/companies/active", { headers: { "X-Api-Key": apiKey } }), 200);
    expect(viaHeader.id).toBe(company.id);
    const viaBearer = await expectStatus<{ id: string }>(await call("GET", "/api/companies/active", { token: apiKey }), 200);
    expect(viaBearer.id).toBe(company.id);
  });

  it("an unknown or replaced key answers 401", async () => {
    const owner = await register();
    const first = await expectStatus<{ apiKey: string }>(await call("POST", "/api/companies/active/api-key", { token: owner.token }), 200);
    await expectStatus(await call("POST", "/api/companies/active/api-key", { token: owner.token }), 200);
    const body = await expectStatus<{ error: { code: string } }>(await call("GET", "/api/companies/active", { headers: { "X-Api-Key": first.apiKey } }), 401);
    expect(body.error.code).toBe("unauthorized");
    await expectStatus(await call("GET", "/api/companies/active", { headers: { "X-Api-Key": "cv_nope" } }), 401);
  });
});
