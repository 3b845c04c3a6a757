/**
 * The login form's client-side check, without zod (issue 9: /login must not download zod, 25 KiB
 * gzip, nor react-hook-form). It applies the rules of `loginInput` (schema/validation/auth.ts, which
 * the worker still enforces) with the same field codes, and returns the same output: e-mail trimmed
 * and lower-cased. login-form.test.ts checks it against `loginInput` on generated inputs.
 */

/** The login form's fields. */
export type LoginValues = { email: string; password: string };
/** A field code per failing field (FormField translates it), e.g. `invalid_email`. */
export type LoginErrors = Partial<Record<keyof LoginValues, string>>;

/** Longest e-mail address accepted (emailSchema, schema/validation/common.ts). */
export const MAX_EMAIL_LENGTH = 254;
/** Longest password accepted at login (loginInput). */
export const MAX_LOGIN_PASSWORD_LENGTH = 256;
/** zod 4's e-mail pattern (`z.email()`), which emailSchema uses; the test compares them. */
export const EMAIL_PATTERN = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;

/**
 * Checks `values` like `loginInput.safeParse`: `{ok: true, data}` with the e-mail normalised, or
 * `{ok: false, errors}` with the code of each failing field (`too_long`, `invalid_email`, `required`).
 */
export function checkLogin(values: LoginValues): { ok: true; data: LoginValues } | { ok: false; errors: LoginErrors } {
  const errors: LoginErrors = {};
  const email = values.email.trim().toLowerCase();
  if (email.length > MAX_EMAIL_LENGTH) errors.email = "too_long";
  else if (!EMAIL_PATTERN.test(email)) errors.email = "invalid_email";
  if (values.password.length < 1) errors.password = "required";
  else if (values.password.length > MAX_LOGIN_PASSWORD_LENGTH) errors.password = "too_long";
  if (errors.email || errors.password) return { ok: false, errors };
  return { ok: true, data: { email, password: values.password } };
}
