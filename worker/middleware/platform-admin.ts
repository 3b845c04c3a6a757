/**
 * Platform administrators (DESIGN.md "Platform administration"; issue 12): the users whose e-mail
 * is listed in the `PLATFORM_ADMINS` setting (comma-separated, compared without case; empty in
 * wrangler.toml, the demo owner under `npm start`). They manage what sits above companies
 * (announcements now; plans, coupons and franchises in later issues) in the web app's Admin area.
 * One notion, reused by every area that needs it.
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { forbidden, unauthorized } from "../lib/errors";
import type { HonoEnv } from "./context";

/** The lower-cased e-mails of PLATFORM_ADMINS (blank entries dropped). */
export function platformAdminEmails(env: Pick<AppEnv, "PLATFORM_ADMINS">): Set<string> {
  return new Set(
    (env.PLATFORM_ADMINS ?? "")
      .split(",")
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
  );
}

/** Whether the user with `email` is a platform administrator. */
export function isPlatformAdmin(env: Pick<AppEnv, "PLATFORM_ADMINS">, email: string): boolean {
  return platformAdminEmails(env).has(email.trim().toLowerCase());
}

/**
 * After requireUser: 403 `forbidden` unless the signed-in user is a platform administrator (a
 * company API key never is: 401 when no user is set).
 */
export const requirePlatformAdmin = createMiddleware<HonoEnv>(async (c, next) => {
  const user = c.var.user;
  if (!user) throw unauthorized();
  if (!isPlatformAdmin(c.env, user.email)) throw forbidden();
  await next();
});
