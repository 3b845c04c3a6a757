import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { loginInput } from "../../../../../schema/validation/auth";
import { checkLogin, EMAIL_PATTERN } from "./login-form";

/** `loginInput`'s verdict in checkLogin's shape: the first issue's code per field, or the output. */
function zodVerdict(values: { email: string; password: string }) {
  const parsed = loginInput.safeParse(values);
  if (parsed.success) return { ok: true, data: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0]);
    errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}

/**
 * The login form checks its fields without zod (issue 9: /login must not load zod); the worker's
 * rules are `loginInput`. These fail when the two disagree on any input.
 */
describe("login form check", () => {
  it("uses zod's e-mail pattern", () => {
    expect(EMAIL_PATTERN.source).toBe(z.regexes.email.source);
  });

  it("agrees with loginInput on typical and edge inputs", () => {
    const cases = [
      { email: "", password: "" },
      { email: "  Ana@Example.COM ", password: "x" },
      { email: "ana@example", password: "secret" },
      { email: `${"a".repeat(250)}@b.co`, password: "secret" },
      { email: "ana@example.com", password: "p".repeat(257) },
      { email: "ana..b@example.com", password: "p".repeat(256) },
      { email: ".ana@example.com", password: "secret" },
    ];
    for (const values of cases) expect(checkLogin(values), JSON.stringify(values)).toEqual(zodVerdict(values));
  });

  it("agrees with loginInput on generated inputs", () => {
    const local = fc.stringMatching(/^[A-Za-z0-9_'+.\- ]{0,12}$/);
    const domain = fc.stringMatching(/^[A-Za-z0-9.\-]{0,12}$/);
    const email = fc.oneof(fc.string({ maxLength: 30 }), fc.tuple(local, domain).map(([a, b]) => `${a}@${b}`), fc.emailAddress());
    const password = fc.oneof(fc.string({ maxLength: 10 }), fc.string({ minLength: 250, maxLength: 260 }));
    fc.assert(
      fc.property(email, password, (e, p) => {
        expect(checkLogin({ email: e, password: p })).toEqual(zodVerdict({ email: e, password: p }));
      }),
      { numRuns: 2000 },
    );
  });
});
