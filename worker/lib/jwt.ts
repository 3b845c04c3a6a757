/**
 * Session tokens: JWT (HS256, jose) carrying the user id (`sub`) and the user's token version
 * (`ver`). Logout and password reset bump the version, which invalidates every earlier token.
 */
import { SignJWT, jwtVerify, errors } from "jose";

/** Session lifetime: 30 days, in seconds. */
export const SESSION_TTL_SECONDS = 30 * 24 * 3600;

export type SessionClaims = { sub: string; ver: number };

function key(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

/** Signs a session token for the user. `secret` is JWT_SECRET (≥ 32 characters). */
export async function signSession(secret: string, claims: SessionClaims): Promise<string> {
  return new SignJWT({ ver: claims.ver })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(claims.sub)
    .setIssuedAt()
    .setExpirationTime(`${SESSION_TTL_SECONDS}s`)
    .sign(key(secret));
}

/** Verifies signature and expiry; answers null for any bad or expired token (never throws). */
export async function verifySession(secret: string, token: string): Promise<SessionClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key(secret), { algorithms: ["HS256"] });
    if (typeof payload.sub !== "string" || typeof payload.ver !== "number") return null;
    return { sub: payload.sub, ver: payload.ver };
  } catch (e) {
    if (e instanceof errors.JOSEError) return null;
    throw e;
  }
}
