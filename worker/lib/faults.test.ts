/**
 * The fault switch's armed counters (worker/lib/faults.ts) with the "nothing armed" mark that
 * spares the hot paths a storage write per alarm and send (issue 10): a take that found nothing
 * never hides a failure armed afterwards through the same object, and armed failures are consumed
 * one by one, per operation.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { armFault, maybeFailHere, takeArmedFault, FaultInjected } from "./faults";
import { contactSessionOf } from "./realtime";

const testEnv = { ENVIRONMENT: "test" };

describe("armed faults", () => {
  it("a failure armed after a take that found nothing is still taken, once, and only for its operation", async () => {
    const session = contactSessionOf(env, "faults-test-company", "sandbox", `faults-${crypto.randomUUID()}`);
    await runInDurableObject(session, (_instance, ctx) => {
      const sql = ctx.storage.sql;
      expect(takeArmedFault(testEnv, sql, "alarm")).toBe(false);
      expect(takeArmedFault(testEnv, sql, "alarm")).toBe(false);
      expect(armFault(testEnv, sql, "alarm", 2)).toBe(true);
      expect(takeArmedFault(testEnv, sql, "send")).toBe(false);
      expect(() => maybeFailHere(testEnv, sql, "alarm")).toThrow(FaultInjected);
      expect(takeArmedFault(testEnv, sql, "alarm")).toBe(true);
      expect(takeArmedFault(testEnv, sql, "alarm")).toBe(false);
      expect(() => maybeFailHere(testEnv, sql, "alarm")).not.toThrow();
      expect(armFault(testEnv, ctx.storage.sql, "send", 1)).toBe(true);
      expect(takeArmedFault(testEnv, ctx.storage.sql, "send")).toBe(true);
      expect(takeArmedFault(testEnv, ctx.storage.sql, "send")).toBe(false);
    });
  });

  it("outside local and test nothing is armed or taken", async () => {
    const session = contactSessionOf(env, "faults-test-company", "sandbox", `faults-${crypto.randomUUID()}`);
    await runInDurableObject(session, (_instance, ctx) => {
      expect(armFault({ ENVIRONMENT: "production" }, ctx.storage.sql, "alarm", 1)).toBe(false);
      expect(takeArmedFault(testEnv, ctx.storage.sql, "alarm")).toBe(false);
    });
  });
});
