/**
 * Session tokens: JWT (HS256, jose) carrying the user id (`sub`), the user's token version (`ver`),
 * the issue time (`iat`) and the expiry (`exp`). Logout and password reset bump the version, which
 * invalidates every earlier token (checked against users.token_version on each request and socket,
 * worker/middleware/auth.ts).
 *
 * The HS256 key is not JWT_SECRET itself but HKDF(JWT_SECRET, "conversa/session")
 * (worker/lib/keys.ts), so no other signature made by the product (media URLs) verifies as a session.
 */
import { SignJWT, jwtVerify, errors } from "jose";
import { deriveKey } from "./keys";

/** Session lifetime: 30 days, in seconds. */
export const SESSION_TTL_SECONDS = 30 * 24 * 3600;

/** What a session token says. */
export type SessionClaims = { sub: string; ver: number };

/** A verified session: the claims plus `iat` and `exp` (seconds since the epoch). */
export type VerifiedSession = SessionClaims & { iat: number; exp: number };

/** Signs a session token for the user, valid SESSION_TTL_SECONDS. `secret` is JWT_SECRET (≥ 32 characters). */
export async function signSession(secret: string, claims: SessionClaims): Promise<string> {
  return new SignJWT({ ver: claims.ver })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(claims.sub)
    .setIssuedAt()
    .setExpirationTime(`${SESSION_TTL_SECONDS}s`)
    .sign(await deriveKey(secret, "session"));
}

/**
 * Verifies a session token; answers null (never throws) for a bad signature, another algorithm, an
 * expired token, and a token missing or mistyping a claim: `exp`, `iat` (numbers; `iat` not in the
 * future and at most SESSION_TTL_SECONDS old), `sub` (non-empty string), `ver` (integer ≥ 0). A token
 * without `exp` would never expire, so it is refused (issue 8 §3).
 */
export async function verifySession(secret: string, token: string): Promise<VerifiedSession | null> {
  try {
    const { payload } = await jwtVerify(token, await deriveKey(secret, "session"), {
      algorithms: ["HS256"],
      requiredClaims: ["exp", "iat", "sub", "ver"],
      maxTokenAge: SESSION_TTL_SECONDS,
    });
    const { sub, ver, iat, exp } = payload;
    if (typeof sub !== "string" || sub === "") return null;
    if (typeof ver !== "number" || !Number.isSafeInteger(ver) || ver < 0) return null;
    if (typeof iat !== "number" || typeof exp !== "number") return null;
    return { sub, ver, iat, exp };
  } catch (e) {
    if (e instanceof errors.JOSEError) return null;
    throw e;
  }
}
