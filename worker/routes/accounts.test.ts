import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  call,
  countRows,
  expectError,
  expectInvalid,
  expectStatus,
  lastMailTo,
  mailTo,
  me,
  register,
  uniqueEmail,
  uniqueIp,
  verificationCode,
} from "../test/helpers";
import { FORGOT_LIMITS, LOGIN_THROTTLE, RESET_TTL_MS, loginKey, loginKeyPrefix } from "./accounts";

const validRegistration = () => ({
  name: "Carla Dias",
  email: uniqueEmail("reg"),
  phone: "+55 21 99876-5432",
  password: "long enough password",
  companyName: "Floricultura Dias",
});

/** Sends a reset mail to `email` and answers the token from its link. */
async function resetTokenFor(email: string): Promise<string> {
  const before = await countRows("mail_outbox", "to_address = ?", email);
  await expectStatus(await call("POST", "/api/forgot-password", { body: { email } }), 200);
  for (let i = 0; i < 50; i++) {
    if ((await countRows("mail_outbox", "to_address = ?", email)) > before) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const mail = await env.DB.prepare("SELECT body_text FROM mail_outbox WHERE to_address = ? ORDER BY created_at DESC, rowid DESC LIMIT 1")
    .bind(email)
    .first<{ body_text: string }>();
  const token = /reset-password\?token=(\S+)/.exec(mail?.body_text ?? "")?.[1];
  if (!token) throw new Error(`no reset link mailed to ${email}`);
  return decodeURIComponent(token);
}

/** Asserts the 400 `invalid_token` answer of a bad reset token, naming the field `token`. */
async function expectBadToken(response: Response) {
  const body = await expectError(response, 400, "invalid_token");
  expect(body.error.fields?.token, JSON.stringify(body)).toBe("invalid_token");
}

async function login(email: string, password: string, ip = uniqueIp()) {
  return call("POST", "/api/login", { body: { email, password }, headers: { "CF-Connecting-IP": ip } });
}

describe("POST /api/register", () => {
  it("one client address may register 20 companies an hour (REGISTER_RATE_LIMIT unset), then 429", { timeout: 60_000 }, async () => {
    const headers = { "CF-Connecting-IP": uniqueIp() };
    for (let i = 0; i < 20; i++) await expectStatus(await call("POST", "/api/register", { body: validRegistration(), headers }), 201);
    const blocked = await call("POST", "/api/register", { body: validRegistration(), headers });
    await expectError(blocked, 429, "rate_limited");
    // Another address is not held back.
    await expectStatus(await call("POST", "/api/register", { body: validRegistration(), headers: { "CF-Connecting-IP": uniqueIp() } }), 201);
  });

  it("creates the user, an owned company with an Owner role, and answers a working token", async () => {
    const input = validRegistration();
    const { token } = await expectStatus<{ token: string }>(await call("POST", "/api/register", { body: input }), 201);
    const user = await me(token);
    expect(user).toMatchObject({ name: "Carla Dias", email: input.email, phone: "+5521998765432", status: "online" });
    expect(user.activeCompany).toEqual(expect.any(String));
    const company = await expectStatus<{ id: string; owner: string; name: string; activated: boolean }>(
      await call("GET", "/api/companies/active", { token }),
      200,
    );
    expect(company).toMatchObject({ id: user.activeCompany, owner: user.id, name: "Floricultura Dias", activated: false });
    expect(await countRows("roles", "company_id = ? AND is_owner = 1", company.id)).toBe(1);
    expect(await countRows("members", "company_id = ? AND user_id = ?", company.id, user.id)).toBe(1);
  });

  it("stores the password hashed, never in clear", async () => {
    const input = validRegistration();
    await expectStatus(await call("POST", "/api/register", { body: input }), 201);
    const row = await env.DB.prepare("SELECT password_hash, password_salt FROM users WHERE email = ?").bind(input.email).first<{
      password_hash: string;
      password_salt: string;
    }>();
    expect(row?.password_hash).toBeTruthy();
    expect(row?.password_hash).not.toContain(input.password);
    expect(row?.password_salt).toBeTruthy();
  });

  it("mails the 6-digit code that verifies the e-mail and activates the company", async () => {
    const input = validRegistration();
    await expectStatus(await call("POST", "/api/register", { body: input }), 201);
    expect(await verificationCode(input.email)).toMatch(/^\d{6}$/);
  });

  it("lower-cases and trims the e-mail", async () => {
    const input = { ...validRegistration(), email: `  ${uniqueEmail("Mixed").toUpperCase()} ` };
    const { token } = await expectStatus<{ token: string }>(await call("POST", "/api/register", { body: input }), 201);
    expect((await me(token)).email).toBe(input.email.trim().toLowerCase());
  });

  it("picks the company language from Accept-Language", async () => {
    const res = await call("POST", "/api/register", { body: validRegistration(), headers: { "Accept-Language": "es-AR,es;q=0.9" } });
    const { token } = await expectStatus<{ token: string }>(res, 201);
    const company = await expectStatus<{ language: string }>(await call("GET", "/api/companies/active", { token }), 200);
    expect(company.language).toBe("es-ES");
  });

  it.each([
    ["name", { name: undefined }, "required"],
    ["name", { name: "A" }, "name_too_short"],
    ["name", { name: "--" }, "invalid_name"],
    ["email", { email: "not-an-email" }, "invalid_email"],
    ["email", { email: undefined }, "required"],
    ["phone", { phone: "123" }, "invalid_phone"],
    ["phone", { phone: undefined }, "required"],
    ["password", { password: "1234567" }, "password_too_short"],
    ["password", { password: "x".repeat(257) }, "too_long"],
    ["companyName", { companyName: "" }, "name_too_short"],
    ["companyName", { companyName: undefined }, "required"],
  ])("an invalid %s answers 400 naming the field and writes nothing (%j)", async (field, override, reason) => {
    const body = { ...validRegistration(), ...override };
    const users = await countRows("users");
    const companies = await countRows("companies");
    await expectInvalid(await call("POST", "/api/register", { body }), field, reason);
    expect(await countRows("users")).toBe(users);
    expect(await countRows("companies")).toBe(companies);
  });

  it("a taken e-mail answers 409 email_in_use and creates nothing", async () => {
    const first = await register();
    const users = await countRows("users");
    const companies = await countRows("companies");
    const body = await expectError(
      await call("POST", "/api/register", { body: { ...validRegistration(), email: first.email } }),
      409,
      "email_in_use",
    );
    expect(body.error.fields?.email).toBe("email_in_use");
    expect(await countRows("users")).toBe(users);
    expect(await countRows("companies")).toBe(companies);
  });

  it("the e-mail check ignores case", async () => {
    const first = await register();
    await expectError(
      await call("POST", "/api/register", { body: { ...validRegistration(), email: first.email.toUpperCase() } }),
      409,
      "email_in_use",
    );
  });

  it("a malformed JSON body answers 400, not 500", async () => {
    await expectError(await call("POST", "/api/register", { body: '{"name": "Ana",' }), 400, "validation_failed");
  });
});

describe("POST /api/login", () => {
  it("right credentials answer a token for the user", async () => {
    const account = await register();
    const { token } = await expectStatus<{ token: string }>(await login(account.email, account.password), 200);
    expect((await me(token)).email).toBe(account.email);
  });

  it("the e-mail is matched case-insensitively", async () => {
    const account = await register();
    await expectStatus(await login(account.email.toUpperCase(), account.password), 200);
  });

  it("a wrong password answers 401 invalid_credentials", async () => {
    const account = await register();
    await expectError(await login(account.email, "wrong password!"), 401, "invalid_credentials");
  });

  it("an unknown e-mail answers the same 401 as a wrong password", async () => {
    const account = await register();
    const wrong = await expectError(await login(account.email, "wrong password!"), 401, "invalid_credentials");
    const unknown = await expectError(await login(uniqueEmail("ghost"), "wrong password!"), 401, "invalid_credentials");
    expect(unknown).toEqual(wrong);
  });

  it.each([
    ["email", { email: "nope" }, "invalid_email"],
    ["email", { email: undefined }, "required"],
    ["password", { password: "" }, "required"],
    ["password", { password: undefined }, "required"],
  ])("an invalid %s answers 400 naming the field and counts no attempt (%j)", async (field, override, reason) => {
    const email = uniqueEmail("login");
    await expectInvalid(await call("POST", "/api/login", { body: { email, password: "whatever1", ...override } }), field, reason);
    const prefix = loginKeyPrefix(email);
    expect(await countRows("rate_limits", "substr(key, 1, ?) = ?", prefix.length, prefix)).toBe(0);
  });

  it("a malformed JSON body answers 400, not 500", async () => {
    await expectError(await call("POST", "/api/login", { body: "{bad json" }), 400, "validation_failed");
  });

  it("20 bad attempts from one client never block the right password from another client", async () => {
    const account = await register();
    const attacker = uniqueIp();
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await login(account.email, "wrong password!", attacker)).status);
    expect(statuses.slice(0, LOGIN_THROTTLE.freeFailures)).toEqual(Array(LOGIN_THROTTLE.freeFailures).fill(401));
    expect(statuses).toContain(429);
    expect(statuses.every((s) => s === 401 || s === 429), statuses.join()).toBe(true);
    await expectStatus(await login(account.email, account.password, uniqueIp()), 200);
  });

  it("a throttled client gets 429 with a growing Retry-After, the right password included; after the delay it signs in and starts over", async () => {
    const account = await register();
    const ip = uniqueIp();
    const key = loginKey(account.email, ip);
    for (let i = 0; i < LOGIN_THROTTLE.freeFailures; i++) {
      await expectError(await login(account.email, "wrong password!", ip), 401, "invalid_credentials");
    }
    const waits: number[] = [];
    const blocks: number[] = [];
    for (let round = 0; round < 3; round++) {
      const row = await throttleRow(key);
      blocks.push((row?.blocked_until ?? 0) - (row?.window_start ?? 0));
      const blocked = await login(account.email, account.password, ip);
      waits.push(Number(blocked.headers.get("Retry-After")));
      await expectError(blocked, 429, "rate_limited");
      await endBlock(key);
      await expectError(await login(account.email, "wrong password!", ip), 401, "invalid_credentials");
    }
    // 1 s, 2 s, 4 s: each failure after the free ones doubles the block.
    expect(blocks).toEqual([1000, 2000, 4000]);
    expect(waits[0]).toBeGreaterThanOrEqual(1);
    expect(waits[1]).toBeGreaterThan(waits[0] ?? 0);
    expect(waits[2]).toBeGreaterThan(waits[1] ?? 0);
    // After the delay the right password from the same client works and clears the pair.
    await endBlock(key);
    await expectStatus(await login(account.email, account.password, ip), 200);
    expect(await throttleRow(key)).toBeNull();
    await expectError(await login(account.email, "wrong password!", ip), 401, "invalid_credentials");
    expect((await throttleRow(key))?.count).toBe(1);
  });

  it("parallel attempts cannot slip past a block: only the free ones are checked", async () => {
    const account = await register();
    const ip = uniqueIp();
    const statuses = (await Promise.all(Array.from({ length: 12 }, () => login(account.email, "wrong password!", ip)))).map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(LOGIN_THROTTLE.freeFailures);
    expect(statuses.filter((s) => s === 429)).toHaveLength(12 - LOGIN_THROTTLE.freeFailures);
  });

  it("a password reset lifts the throttle of every client of the address", async () => {
    const account = await register();
    const ip = uniqueIp();
    for (let i = 0; i <= LOGIN_THROTTLE.freeFailures; i++) await login(account.email, "wrong password!", ip);
    await expectError(await login(account.email, account.password, ip), 429, "rate_limited");
    const reset = await resetTokenFor(account.email);
    await expectStatus(await call("POST", "/api/reset-password", { body: { token: reset, password: "a brand new password" } }), 200);
    await expectStatus(await login(account.email, "a brand new password", ip), 200);
  });
});

/** The throttle row of a login key, straight from D1. */
async function throttleRow(key: string) {
  return env.DB.prepare("SELECT count, window_start, blocked_until FROM rate_limits WHERE key = ?")
    .bind(key)
    .first<{ count: number; window_start: number; blocked_until: number | null }>();
}

/** Lets the block of `key` run out (the time passing), without waiting for it. */
async function endBlock(key: string): Promise<void> {
  await env.DB.prepare("UPDATE rate_limits SET blocked_until = ? WHERE key = ?").bind(Date.now() - 1, key).run();
}

describe("POST /api/logout", () => {
  it("answers 204 and ends every session of the user", async () => {
    const account = await register();
    const { token: second } = await expectStatus<{ token: string }>(await login(account.email, account.password), 200);
    const res = await call("POST", "/api/logout", { token: account.token });
    expect(res.status, await res.clone().text()).toBe(204);
    await expectError(await call("GET", "/api/me", { token: account.token }), 401, "unauthorized");
    await expectError(await call("GET", "/api/me", { token: second }), 401, "unauthorized");
    // Signing in again works.
    const { token } = await expectStatus<{ token: string }>(await login(account.email, account.password), 200);
    await me(token);
  });

  it("sets the user offline", async () => {
    const account = await register();
    expect((await me(account.token)).status).toBe("online");
    await call("POST", "/api/logout", { token: account.token });
    expect(await countRows("users", "email = ? AND status = 'offline'", account.email)).toBe(1);
  });

  it("without a token answers 401", async () => {
    await expectError(await call("POST", "/api/logout"), 401, "unauthorized");
  });

  it("with a forged token answers 401", async () => {
    await expectError(await call("POST", "/api/logout", { token: "eyJhbGciOiJIUzI1NiJ9.e30.forged" }), 401, "unauthorized");
  });
});

describe("POST /api/forgot-password", () => {
  it("mails a reset link for a known e-mail and stores only its hash", async () => {
    const account = await register();
    const token = await resetTokenFor(account.email);
    expect(token.length).toBeGreaterThanOrEqual(16);
    expect(await countRows("password_resets", "token_hash = ?", token)).toBe(0);
    const userId = (await me(account.token)).id;
    expect(await countRows("password_resets", "user_id = ? AND used_at IS NULL", userId)).toBe(1);
  });

  it("answers the same 200 for an unknown e-mail and mails nothing", async () => {
    const email = uniqueEmail("nobody");
    const resets = await countRows("password_resets");
    expect(await expectStatus(await call("POST", "/api/forgot-password", { body: { email } }), 200)).toEqual({ ok: true });
    expect(await lastMailTo(email)).toBeNull();
    expect(await countRows("password_resets")).toBe(resets);
  });

  it.each([
    ["email", { email: "nope" }, "invalid_email"],
    ["email", {}, "required"],
  ])("an invalid %s answers 400 and writes nothing (%j)", async (field, body, reason) => {
    const resets = await countRows("password_resets");
    await expectInvalid(await call("POST", "/api/forgot-password", { body }), field, reason);
    expect(await countRows("password_resets")).toBe(resets);
  });

  it("too many requests for one e-mail answer 429 with Retry-After", async () => {
    const account = await register();
    for (let i = 0; i < FORGOT_LIMITS.perEmail; i++) {
      await expectStatus(await call("POST", "/api/forgot-password", { body: { email: account.email } }), 200);
    }
    const blocked = await call("POST", "/api/forgot-password", { body: { email: account.email } });
    expect(Number(blocked.headers.get("Retry-After"))).toBeGreaterThan(0);
    await expectError(blocked, 429, "rate_limited");
  });

  it("too many requests from one IP answer 429 with Retry-After", async () => {
    const ip = uniqueIp();
    const headers = { "CF-Connecting-IP": ip };
    for (let i = 0; i < FORGOT_LIMITS.perIp; i++) {
      await expectStatus(await call("POST", "/api/forgot-password", { body: { email: uniqueEmail("f") }, headers }), 200);
    }
    const blocked = await call("POST", "/api/forgot-password", { body: { email: uniqueEmail("f") }, headers });
    expect(Number(blocked.headers.get("Retry-After"))).toBeGreaterThan(0);
    await expectError(blocked, 429, "rate_limited");
  });
});

describe("POST /api/reset-password", () => {
  it("sets the new password, answers a working token and ends earlier sessions", async () => {
    const account = await register();
    const reset = await resetTokenFor(account.email);
    const { token } = await expectStatus<{ token: string }>(
      await call("POST", "/api/reset-password", { body: { token: reset, password: "brand new password" } }),
      200,
    );
    expect((await me(token)).email).toBe(account.email);
    await expectError(await call("GET", "/api/me", { token: account.token }), 401, "unauthorized");
    await expectError(await login(account.email, account.password), 401, "invalid_credentials");
    await expectStatus(await login(account.email, "brand new password"), 200);
  });

  it("a reset token works only once", async () => {
    const account = await register();
    const reset = await resetTokenFor(account.email);
    await expectStatus(await call("POST", "/api/reset-password", { body: { token: reset, password: "first new password" } }), 200);
    await expectBadToken(
      await call("POST", "/api/reset-password", { body: { token: reset, password: "second new password" } }),
    );
    await expectStatus(await login(account.email, "first new password"), 200);
  });

  it("a reset token older than one hour is refused", async () => {
    const account = await register();
    const reset = await resetTokenFor(account.email);
    const userId = (await me(account.token)).id;
    await env.DB.prepare("UPDATE password_resets SET expires_at = ?, created_at = ? WHERE user_id = ?")
      .bind(Date.now() - 1, Date.now() - RESET_TTL_MS - 1, userId)
      .run();
    await expectBadToken(
      await call("POST", "/api/reset-password", { body: { token: reset, password: "too late password" } }),
    );
    await expectStatus(await login(account.email, account.password), 200);
    await me(account.token);
  });

  it("a reset link is valid for one hour from the request", async () => {
    const account = await register();
    const before = Date.now();
    await resetTokenFor(account.email);
    const userId = (await me(account.token)).id;
    const row = await env.DB.prepare("SELECT expires_at FROM password_resets WHERE user_id = ?").bind(userId).first<{ expires_at: number }>();
    expect(row?.expires_at).toBeGreaterThanOrEqual(before + RESET_TTL_MS);
    expect(row?.expires_at).toBeLessThanOrEqual(Date.now() + RESET_TTL_MS);
  });

  it("using one link kills the user's other outstanding links", async () => {
    const account = await register();
    const first = await resetTokenFor(account.email);
    const second = await resetTokenFor(account.email);
    expect(second).not.toBe(first);
    await expectStatus(await call("POST", "/api/reset-password", { body: { token: second, password: "chosen new password" } }), 200);
    await expectBadToken(
      await call("POST", "/api/reset-password", { body: { token: first, password: "another new password" } }),
    );
  });

  it("an unknown token answers 400 invalid_token", async () => {
    await expectBadToken(
      await call("POST", "/api/reset-password", { body: { token: "x".repeat(43), password: "whatever password" } }),
    );
  });

  it.each([
    ["token", { token: "short" }, "invalid_token"],
    ["token", { token: undefined }, "required"],
    ["password", { password: "1234567" }, "password_too_short"],
    ["password", { password: undefined }, "required"],
  ])("an invalid %s answers 400 and neither uses the token nor changes the password (%j)", async (field, override, reason) => {
    const account = await register();
    const reset = await resetTokenFor(account.email);
    await expectInvalid(
      await call("POST", "/api/reset-password", { body: { token: reset, password: "valid new password", ...override } }),
      field,
      reason,
    );
    const userId = (await me(account.token)).id;
    expect(await countRows("password_resets", "user_id = ? AND used_at IS NULL", userId)).toBe(1);
    await expectStatus(await login(account.email, account.password), 200);
  });

  it("a malformed JSON body answers 400, not 500", async () => {
    await expectError(await call("POST", "/api/reset-password", { body: "[" }), 400, "validation_failed");
  });
});

describe("malformed bodies", () => {
  it.each(["null", '"text"', "[]", "42"])("a JSON body of %s answers 400, never 500", async (raw) => {
    const res = await call("POST", "/api/login", { body: raw });
    await expectError(res, 400, "validation_failed");
  });

  it("a body sent as text/plain answers 400 naming the missing fields", async () => {
    const res = await call("POST", "/api/login", {
      body: undefined,
      headers: { "Content-Type": "text/plain" },
    });
    await expectInvalid(res, "email", "required");
  });
});
