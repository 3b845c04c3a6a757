import { describe, expect, it } from "vitest";
import { PBKDF2_ITERATIONS, burnPasswordCheck, hashPassword, verifyPassword } from "./password";

describe("password hashing", () => {
  it("PBKDF2 iterations stay at or below 100,000, the most production Workers accept", () => {
    expect(PBKDF2_ITERATIONS).toBeLessThanOrEqual(100_000);
  });

  it("PBKDF2 iterations are not lowered below that cap (OWASP asks for more, not less)", () => {
    expect(PBKDF2_ITERATIONS).toBeGreaterThanOrEqual(100_000);
  });

  it("a hash verifies with the same password and records its iteration count", async () => {
    const stored = await hashPassword("correct horse battery");
    expect(stored.iterations).toBe(PBKDF2_ITERATIONS);
    expect(await verifyPassword("correct horse battery", stored)).toBe(true);
  });

  it("a different password does not verify", async () => {
    const stored = await hashPassword("correct horse battery");
    expect(await verifyPassword("correct horse batterY", stored)).toBe(false);
    expect(await verifyPassword("", stored)).toBe(false);
  });

  it("each hash has its own salt, so equal passwords hash differently", async () => {
    const a = await hashPassword("same password");
    const b = await hashPassword("same password");
    expect(a.salt).not.toBe(b.salt);
    expect(a.hash).not.toBe(b.hash);
    expect(atob(a.salt)).toHaveLength(16);
    expect(atob(a.hash)).toHaveLength(32);
  });

  it("verification uses the stored iteration count, not the current constant", async () => {
    const stored = await hashPassword("old hash");
    expect(await verifyPassword("old hash", { ...stored, iterations: stored.iterations - 1 })).toBe(false);
  });

  it("non-ASCII passwords round-trip", async () => {
    const stored = await hashPassword("sénha çom acentos ✓");
    expect(await verifyPassword("sénha çom acentos ✓", stored)).toBe(true);
    expect(await verifyPassword("senha com acentos ✓", stored)).toBe(false);
  });

  it("the burn check for unknown e-mails completes without throwing", async () => {
    await expect(burnPasswordCheck("anything")).resolves.toBeUndefined();
  });
});
