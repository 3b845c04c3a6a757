/**
 * Issue 8 point 4, an invite goes only to the owner of the address: the code mailed at
 * registration verifies the e-mail (and activates the user's company); until then the user's
 * invites are not shown (GET /api/me/invites answers []) and cannot be accepted or rejected (403
 * email_not_verified).
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { CompanyAnswer, InviteAnswer, MeAnswer } from "../../schema/api-types";
import {
  call,
  countRows,
  createRole,
  expectError,
  expectInvalid,
  expectStatus,
  invite,
  me,
  register,
  uniqueEmail,
  verificationCode,
} from "../test/helpers";

/** Another 6-digit code than `code`. */
const otherThan = (code: string) => (code === "000000" ? "111111" : "000000");

async function userRow(email: string) {
  return env.DB.prepare("SELECT id, email_verified_at, email_code_hash, email_code_expires_at FROM users WHERE email = ?")
    .bind(email)
    .first<{ id: string; email_verified_at: number | null; email_code_hash: string | null; email_code_expires_at: number | null }>();
}

async function companyActivatedAt(token: string): Promise<number | null> {
  const company = await expectStatus<CompanyAnswer>(await call("GET", "/api/companies/active", { token }), 200);
  const row = await env.DB.prepare("SELECT activated_at FROM companies WHERE id = ?").bind(company.id).first<{ activated_at: number | null }>();
  return row?.activated_at ?? null;
}

describe("registration mails a code that verifies the e-mail", () => {
  it("a new account is unverified; the mailed code verifies it, sets activatedAt and forgets the code", async () => {
    const account = await register({}, { verified: false });
    expect((await me(account.token)).emailVerified).toBe(false);
    const stored = await userRow(account.email);
    expect(stored?.email_code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored?.email_code_expires_at).toBeGreaterThan(Date.now());
    expect(await companyActivatedAt(account.token)).toBeNull();
    const code = await verificationCode(account.email);
    expect(stored?.email_code_hash).not.toContain(code);
    const verified = await expectStatus<MeAnswer>(await call("POST", "/api/me/verify-email", { token: account.token, body: { code } }), 200);
    expect(verified.emailVerified).toBe(true);
    expect((await me(account.token)).emailVerified).toBe(true);
    expect(await companyActivatedAt(account.token)).toEqual(expect.any(Number));
    const after = await userRow(account.email);
    expect(after?.email_verified_at).toEqual(expect.any(Number));
    expect(after?.email_code_hash).toBeNull();
    // Verifying again is harmless.
    await expectStatus(await call("POST", "/api/me/verify-email", { token: account.token, body: { code } }), 200);
  });

  it("a wrong code answers 400 naming code and verifies nothing", async () => {
    const account = await register({}, { verified: false });
    const code = await verificationCode(account.email);
    await expectInvalid(await call("POST", "/api/me/verify-email", { token: account.token, body: { code: otherThan(code) } }), "code", "invalid_code");
    expect((await me(account.token)).emailVerified).toBe(false);
    expect(await companyActivatedAt(account.token)).toBeNull();
  });

  it.each([[{ code: "12ab56" }, "invalid_code"], [{ code: "12345" }, "invalid_code"], [{}, "required"]])(
    "a malformed code answers 400 naming code (%j)",
    async (body, reason) => {
      const account = await register({}, { verified: false });
      await expectInvalid(await call("POST", "/api/me/verify-email", { token: account.token, body }), "code", reason);
    },
  );

  it("an expired code answers 400 expired_code; a resent code works and the old one stops working", async () => {
    const account = await register({}, { verified: false });
    const old = await verificationCode(account.email);
    await env.DB.prepare("UPDATE users SET email_code_expires_at = ? WHERE email = ?").bind(Date.now() - 1, account.email).run();
    await expectInvalid(await call("POST", "/api/me/verify-email", { token: account.token, body: { code: old } }), "code", "expired_code");
    const before = await countRows("mail_outbox", "to_address = ?", account.email);
    const res = await call("POST", "/api/me/verify-email/resend", { token: account.token });
    expect(res.status, await res.clone().text()).toBe(204);
    expect(await countRows("mail_outbox", "to_address = ?", account.email)).toBe(before + 1);
    const fresh = await verificationCode(account.email);
    if (fresh !== old) {
      await expectInvalid(await call("POST", "/api/me/verify-email", { token: account.token, body: { code: old } }), "code", "invalid_code");
    }
    await expectStatus(await call("POST", "/api/me/verify-email", { token: account.token, body: { code: fresh } }), 200);
    expect(await companyActivatedAt(account.token)).toEqual(expect.any(Number));
  });

  it("resending is rate limited (429 with Retry-After) and refused once verified (409)", async () => {
    const account = await register({}, { verified: false });
    expect((await call("POST", "/api/me/verify-email/resend", { token: account.token })).status).toBe(204);
    const again = await call("POST", "/api/me/verify-email/resend", { token: account.token });
    expect(Number(again.headers.get("Retry-After"))).toBeGreaterThan(0);
    await expectError(again, 429, "rate_limited");
    const verified = await register();
    await expectError(await call("POST", "/api/me/verify-email/resend", { token: verified.token }), 409, "conflict");
  });

  it("too many wrong codes answer 429, even for the right code", async () => {
    const account = await register({}, { verified: false });
    const code = await verificationCode(account.email);
    let blocked: Response | null = null;
    for (let i = 0; i < 20 && !blocked; i++) {
      const res = await call("POST", "/api/me/verify-email", { token: account.token, body: { code: otherThan(code) } });
      if (res.status === 429) blocked = res;
      else await expectInvalid(res, "code", "invalid_code");
    }
    expect(blocked, "never rate limited").not.toBeNull();
    await expectError(await call("POST", "/api/me/verify-email", { token: account.token, body: { code } }), 429, "rate_limited");
    expect((await me(account.token)).emailVerified).toBe(false);
  });

  it("the owner entering the code as the company's activation code verifies the e-mail too", async () => {
    const account = await register({}, { verified: false });
    const code = await verificationCode(account.email);
    const company = await expectStatus<CompanyAnswer>(await call("POST", "/api/companies/active-code", { token: account.token, body: { code } }), 200);
    expect(company.activated).toBe(true);
    expect((await me(account.token)).emailVerified).toBe(true);
  });

  it("without a token the verification calls answer 401", async () => {
    await expectError(await call("POST", "/api/me/verify-email", { body: { code: "123456" } }), 401, "unauthorized");
    await expectError(await call("POST", "/api/me/verify-email/resend"), 401, "unauthorized");
  });
});

describe("an invite goes only to the owner of the address", () => {
  it("whoever registers the invited address first cannot see nor accept the invite without the code; with it, accepts", async () => {
    const owner = await register({ companyName: "Padaria do Convite" });
    const role = await createRole(owner, ["tickets"]);
    const email = uniqueEmail("invited");
    const sent = await invite(owner, email, [role.id]);
    const squatter = await register({ email }, { verified: false });
    expect(await expectStatus<InviteAnswer[]>(await call("GET", "/api/me/invites", { token: squatter.token }), 200)).toEqual([]);
    await expectError(await call("POST", `/api/companies/invite/${sent.id}/accept`, { token: squatter.token }), 403, "email_not_verified");
    await expectError(await call("POST", `/api/companies/invite/${sent.id}/reject`, { token: squatter.token }), 403, "email_not_verified");
    const row = await env.DB.prepare("SELECT status FROM invites WHERE id = ?").bind(sent.id).first<{ status: string }>();
    expect(row?.status).toBe("pending");
    const userId = (await me(squatter.token)).id;
    expect(await countRows("members", "user_id = ? AND company_id = ?", userId, sent.company.id)).toBe(0);

    // The owner of the address has the code: verified, the invite shows and can be accepted.
    const code = await verificationCode(email);
    await expectStatus(await call("POST", "/api/me/verify-email", { token: squatter.token, body: { code } }), 200);
    const visible = await expectStatus<InviteAnswer[]>(await call("GET", "/api/me/invites", { token: squatter.token }), 200);
    expect(visible.map((i) => i.id)).toEqual([sent.id]);
    const accepted = await expectStatus<{ companyId: string }>(await call("POST", `/api/companies/invite/${sent.id}/accept`, { token: squatter.token }), 200);
    expect(accepted.companyId).toBe(sent.company.id);
    expect(await countRows("members", "user_id = ? AND company_id = ?", userId, sent.company.id)).toBe(1);
  });

  it("a verified user may reject an invite", async () => {
    const owner = await register();
    const role = await createRole(owner, ["tickets"]);
    const invited = await register();
    const sent = await invite(owner, invited.email, [role.id]);
    const res = await call("POST", `/api/companies/invite/${sent.id}/reject`, { token: invited.token });
    expect(res.status, await res.clone().text()).toBe(204);
  });
});
