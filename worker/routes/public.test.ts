import { describe, expect, it } from "vitest";
import { call, expectStatus } from "../test/helpers";

describe("public calls", () => {
  it("GET /api/health answers ok without touching storage", async () => {
    expect(await expectStatus(await call("GET", "/api/health"), 200)).toEqual({ ok: true });
  });

  it("GET /api/runtime-settings answers the app name, franchise mode and primary colour", async () => {
    const body = await expectStatus<Record<string, unknown>>(await call("GET", "/api/runtime-settings"), 200);
    // The worker tests run with FRANCHISE_MODE "on" (vitest.config.mts; off in wrangler.toml).
    expect(body).toEqual({ appName: "Conversa", franchiseMode: true, primaryColor: "#15803d" });
  });

  it("an unknown API route answers 404 in the error envelope", async () => {
    const body = await expectStatus<{ error: { code: string } }>(await call("GET", "/api/nope"), 404);
    expect(body.error.code).toBe("not_found");
  });

  it("GET /api/me without a token answers 401 in the error envelope", async () => {
    const body = await expectStatus<{ error: { code: string; message: string } }>(await call("GET", "/api/me"), 401);
    expect(body.error.code).toBe("unauthorized");
    expect(typeof body.error.message).toBe("string");
  });
});
