/**
 * Account calls (spec §7, §4 Session): register, login, logout, forgot and reset password.
 */
import { Hono } from "hono";
import { and, eq, gt, isNull } from "drizzle-orm";
import { passwordResets, users } from "../../schema";
import { forgotPasswordInput, loginInput, registerInput, resetPasswordInput } from "../../schema/validation/auth";
import type { HonoEnv } from "../middleware/context";
import { requireUser } from "../middleware/auth";
import { createAccount, issueToken } from "../lib/accounts";
import { randomToken, sha256Hex } from "../lib/crypto";
import { now } from "../lib/db";
import { AppError } from "../lib/errors";
import { sendMail } from "../lib/mail";
import { burnPasswordCheck, hashPassword, verifyPassword } from "../lib/password";
import { clear, hit } from "../lib/rate-limit";
import { zv } from "../lib/validate";

/** Brute-force limits (issue "Foundation"): per e-mail and per client IP, 15-minute windows. */
export const LOGIN_LIMITS = { perEmail: 10, perIp: 50, windowMs: 15 * 60 * 1000 };
/** Reset-mail limits: per e-mail and per IP, one-hour windows. */
export const FORGOT_LIMITS = { perEmail: 5, perIp: 20, windowMs: 60 * 60 * 1000 };
/** A reset link is valid one hour (ms). */
export const RESET_TTL_MS = 60 * 60 * 1000;

function clientIp(req: Request): string {
  return req.headers.get("CF-Connecting-IP") ?? req.headers.get("X-Forwarded-For")?.split(",")[0]?.trim() ?? "local";
}

export const accounts = new Hono<HonoEnv>()
  /**
   * POST /api/register {name, email, phone, password, companyName} → 201 {token}.
   * 400 validation_failed (field named); 409 email_in_use; 429 rate_limited (per IP).
   */
  .post("/register", zv("json", registerInput), async (c) => {
    const input = c.req.valid("json");
    const db = c.var.db;
    await hit(db, [{ key: `register:ip:${clientIp(c.req.raw)}`, max: 20, windowMs: 60 * 60 * 1000 }]);
    const taken = await db.query.users.findFirst({ where: eq(users.email, input.email), columns: { id: true } });
    if (taken) throw new AppError("email_in_use", "The email is already in use.", { email: "email_in_use" });
    const language = pickLanguage(c.req.header("Accept-Language"));
    const user = await createAccount(c.env, db, { ...input, password: await hashPassword(input.password), language });
    return c.json({ token: await issueToken(c.env, user) }, 201);
  })
  /**
   * POST /api/login {email, password} → {token}. 401 invalid_credentials, the same answer whether
   * or not the e-mail exists; 429 rate_limited with Retry-After after too many attempts.
   */
  .post("/login", zv("json", loginInput), async (c) => {
    const { email, password } = c.req.valid("json");
    const db = c.var.db;
    const { perEmail, perIp, windowMs } = LOGIN_LIMITS;
    await hit(db, [
      { key: `login:email:${email}`, max: perEmail, windowMs },
      { key: `login:ip:${clientIp(c.req.raw)}`, max: perIp, windowMs },
    ]);
    const user = await db.query.users.findFirst({ where: eq(users.email, email) });
    const ok = user
      ? await verifyPassword(password, { hash: user.passwordHash, salt: user.passwordSalt, iterations: user.passwordIterations })
      : (await burnPasswordCheck(password), false);
    if (!user || !ok) {
      throw new AppError("invalid_credentials", "Unable to log in. Check your credentials and try again.");
    }
    await clear(db, `login:email:${email}`);
    return c.json({ token: await issueToken(c.env, user) });
  })
  /** POST /api/logout → 204. Bumps the token version: every session of the user ends. */
  .post("/logout", requireUser, async (c) => {
    const user = c.var.user;
    await c.var.db
      .update(users)
      .set({ tokenVersion: user.tokenVersion + 1, status: "offline", updatedAt: now() })
      .where(eq(users.id, user.id));
    return c.body(null, 204);
  })
  /**
   * POST /api/forgot-password {email} → 200 {ok: true} always (no account enumeration). When the
   * account exists, mails a single-use link valid one hour. 429 when over the limits.
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
      const link = `${c.env.PUBLIC_URL}/reset-password?token=${encodeURIComponent(token)}`;
      c.executionCtx.waitUntil(
        sendMail(c.env, {
          to: user.email,
          subject: `${c.env.APP_NAME}: reset your password`,
          text: `Hello ${user.name},\n\nTo choose a new password open this link within one hour:\n${link}\n\nIf you did not ask for it, ignore this message.\n`,
        }),
      );
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
    await clear(db, `login:email:${user.email}`);
    return c.json({ token: await issueToken(c.env, { id: user.id, tokenVersion }) });
  });

/** The first of the product's four locales named in an Accept-Language header, else pt-BR. */
function pickLanguage(header: string | undefined): string {
  const wanted = (header ?? "").split(",").map((part) => part.split(";")[0]?.trim().toLowerCase() ?? "");
  for (const tag of wanted) {
    if (tag === "pt-pt") return "pt-PT";
    if (tag.startsWith("pt")) return "pt-BR";
    if (tag.startsWith("es")) return "es-ES";
    if (tag.startsWith("en")) return "en-US";
  }
  return "pt-BR";
}
