/**
 * Account calls (spec §7, §4 Session): register, login, logout, forgot and reset password.
 */
import { Hono } from "hono";
import { and, eq, gt, isNull } from "drizzle-orm";
import { franchises, passwordResets, users } from "../../schema";
import { forgotPasswordInput, loginInput, resetPasswordInput } from "../../schema/validation/auth";
import { registerInput } from "../../schema/validation/register";
import type { HonoEnv } from "../middleware/context";
import { requireUser } from "../middleware/auth";
import { createAccount, issueToken, userMailLocale } from "../lib/accounts";
import { franchiseOfRequest, franchiseOrigin } from "../lib/franchise-host";
import { randomToken, sha256Hex } from "../lib/crypto";
import { now } from "../lib/db";
import { AppError } from "../lib/errors";
import { mailSenderOfFranchise } from "../lib/branding";
import { sendMail } from "../lib/mail";
import { localeFromHeader, mailTexts } from "../lib/mail-texts";
import { burnPasswordCheck, hashPassword, verifyPassword } from "../lib/password";
import { claimAttempt, clear, clearPrefix, hit, type Throttle } from "../lib/rate-limit";
import { endSessions } from "../lib/realtime";
import { zv } from "../lib/validate";
import { DEFAULT_LOCALE } from "../../schema/validation/common";

/**
 * Login throttle (issue 8 point 6), per (e-mail, client IP) pair: 4 failures are free, the 5th
 * blocks that pair 1 s, each further failure doubles the block (2 s, 4 s, …) up to 15 minutes; a
 * pair idle for an hour starts over; a success clears it. Another client of the same address is
 * never blocked by these failures, so an attacker cannot lock the real user out. There is no
 * per-IP ceiling on login: behind one shared address (an office, a carrier's NAT) it would lock out
 * every user of that address, which is the lockout this rule removes; spraying one password over
 * many addresses is left to the edge (Cloudflare rate-limiting rules, see the README).
 */
export const LOGIN_THROTTLE: Throttle = { freeFailures: 5, baseDelayMs: 1000, maxDelayMs: 15 * 60 * 1000, forgetAfterMs: 60 * 60 * 1000 };

/** The throttle key of one (address, client) pair; `loginKeyPrefix(email)` starts every pair of the address. */
export function loginKey(email: string, ip: string): string {
  return `${loginKeyPrefix(email)}${JSON.stringify(ip)}]`;
}

/** The common start of the login throttle keys of `email` (JSON, so no address is a prefix of another's). */
export function loginKeyPrefix(email: string): string {
  return `login:pair:[${JSON.stringify(email)},`;
}
/** Reset-mail limits: per e-mail and per IP, one-hour windows. */
export const FORGOT_LIMITS = { perEmail: 5, perIp: 20, windowMs: 60 * 60 * 1000 };
/** A reset link is valid one hour (ms). */
export const RESET_TTL_MS = 60 * 60 * 1000;

/** Registrations allowed per hour from one client address: REGISTER_RATE_LIMIT, else 20. */
function registerLimit(env: { REGISTER_RATE_LIMIT?: string | undefined }): number {
  const n = Number(env.REGISTER_RATE_LIMIT);
  return Number.isInteger(n) && n > 0 ? n : 20;
}

function clientIp(req: Request): string {
  return req.headers.get("CF-Connecting-IP") ?? req.headers.get("X-Forwarded-For")?.split(",")[0]?.trim() ?? "local";
}

export const accounts = new Hono<HonoEnv>()
  /**
   * POST /api/register {name, email, phone, password, companyName} → 201 {token}. On a franchise
   * hostname (FRANCHISE_MODE on) the company is created under that franchise.
   * 400 validation_failed (field named); 409 email_in_use; 429 rate_limited (per IP).
   */
  .post("/register", zv("json", registerInput), async (c) => {
    const input = c.req.valid("json");
    const db = c.var.db;
    await hit(db, [{ key: `register:ip:${clientIp(c.req.raw)}`, max: registerLimit(c.env), windowMs: 60 * 60 * 1000 }]);
    const taken = await db.query.users.findFirst({ where: eq(users.email, input.email), columns: { id: true } });
    if (taken) throw new AppError("email_in_use", "The email is already in use.", { email: "email_in_use" });
    const language = localeFromHeader(c.req.header("Accept-Language")) ?? DEFAULT_LOCALE;
    // Registering on a franchise's hostname creates the company under that franchise (issue 14).
    const franchise = await franchiseOfRequest(c.env, c.req.raw);
    const user = await createAccount(c.env, db, { ...input, password: await hashPassword(input.password), language, franchiseId: franchise?.id ?? null });
    return c.json({ token: await issueToken(c.env, user) }, 201);
  })
  /**
   * POST /api/login {email, password} → {token}. 401 invalid_credentials, the same answer whether
   * or not the e-mail exists; 429 rate_limited with Retry-After while this (e-mail, client IP) pair
   * is throttled after repeated failures (LOGIN_THROTTLE), the right password included.
   */
  .post("/login", zv("json", loginInput), async (c) => {
    const { email, password } = c.req.valid("json");
    const db = c.var.db;
    const key = loginKey(email, clientIp(c.req.raw));
    await claimAttempt(db, key, LOGIN_THROTTLE);
    const user = await db.query.users.findFirst({ where: eq(users.email, email) });
    const ok = user
      ? await verifyPassword(password, { hash: user.passwordHash, salt: user.passwordSalt, iterations: user.passwordIterations })
      : (await burnPasswordCheck(password), false);
    if (!user || !ok) {
      throw new AppError("invalid_credentials", "Unable to log in. Check your credentials and try again.");
    }
    await clear(db, key);
    return c.json({ token: await issueToken(c.env, user) });
  })
  /** POST /api/logout → 204. Bumps the token version: every session of the user ends. */
  .post("/logout", requireUser, async (c) => {
    const user = c.var.user;
    await c.var.db
      .update(users)
      .set({ tokenVersion: user.tokenVersion + 1, status: "offline", updatedAt: now() })
      .where(eq(users.id, user.id));
    await endSessions(c.env, c.var.db, user.id, user.tokenVersion + 1);
    return c.body(null, 204);
  })
  /**
   * POST /api/forgot-password {email} → 200 {ok: true} always (no account enumeration). When the
   * account exists, mails a single-use link valid one hour, in the `Accept-Language` the client sent
   * (else the user's active company's language; worker/lib/mail-texts.ts). 429 when over the limits.
   */
  .post("/forgot-password", zv("json", forgotPasswordInput), async (c) => {
    const { email } = c.req.valid("json");
    const db = c.var.db;
    const { perEmail, perIp, windowMs } = FORGOT_LIMITS;
    await hit(db, [
      { key: `forgot:email:${email}`, max: perEmail, windowMs },
      { key: `forgot:ip:${clientIp(c.req.raw)}`, max: perIp, windowMs },
    ]);
    const user = await db.query.users.findFirst({ where: eq(users.email, email) });
    if (user) {
      const token = randomToken(32);
      const at = now();
      await db.insert(passwordResets).values({
        tokenHash: await sha256Hex(token),
        userId: user.id,
        expiresAt: at + RESET_TTL_MS,
        usedAt: null,
        createdAt: at,
      });
      // Asked on a franchise's hostname: the link stays on that hostname (issue 14, white label).
      const franchise = await franchiseOfRequest(c.env, c.req.raw);
      const link = `${await franchiseOrigin(c.env, franchise?.id ?? null, c.req.url)}/reset-password?token=${encodeURIComponent(token)}`;
      const locale = localeFromHeader(c.req.header("Accept-Language")) ?? (await userMailLocale(db, user));
      // …and the mail carries the franchise's name, logo and SMTP.
      const franchiseRow = franchise ? await db.query.franchises.findFirst({ where: eq(franchises.id, franchise.id) }) : undefined;
      const sender = franchiseRow ? await mailSenderOfFranchise(c.env, franchiseRow) : undefined;
      c.executionCtx.waitUntil(sendMail(c.env, { to: user.email, ...mailTexts(locale).reset({ app: c.env.APP_NAME, name: user.name, link }) }, sender));
    }
    return c.json({ ok: true });
  })
  /**
   * POST /api/reset-password {token, password} → {token}. The reset token is single-use and valid
   * one hour; using it ends every earlier session. 400 invalid_token (field `token`).
   */
  .post("/reset-password", zv("json", resetPasswordInput), async (c) => {
    const { token, password } = c.req.valid("json");
    const db = c.var.db;
    const at = now();
    const tokenHash = await sha256Hex(token);
    // Claim the token in one statement so two concurrent uses cannot both succeed.
    const claimed = await db
      .update(passwordResets)
      .set({ usedAt: at })
      .where(and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, at)))
      .returning();
    const reset = claimed[0];
    if (!reset) throw new AppError("invalid_token", "Unable to recover password. Check and try again.", { token: "invalid_token" });
    const user = await db.query.users.findFirst({ where: eq(users.id, reset.userId) });
    if (!user) throw new AppError("invalid_token", "Unable to recover password. Check and try again.", { token: "invalid_token" });
    const hashed = await hashPassword(password);
    const tokenVersion = user.tokenVersion + 1;
    await db.batch([
      db
        .update(users)
        .set({ passwordHash: hashed.hash, passwordSalt: hashed.salt, passwordIterations: hashed.iterations, tokenVersion, updatedAt: at })
        .where(eq(users.id, user.id)),
      // Every other outstanding link of the user dies with this reset.
      db.update(passwordResets).set({ usedAt: at }).where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt))),
    ]);
    await endSessions(c.env, db, user.id, tokenVersion);
    // Proving the mailbox lifts every login throttle of the address.
    await clearPrefix(db, loginKeyPrefix(user.email));
    return c.json({ token: await issueToken(c.env, { id: user.id, tokenVersion }) });
  });
