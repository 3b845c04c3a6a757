/**
 * One key per job (issue 8 §6 "one secret does three jobs"). A secret that signs sessions must not
 * also encrypt provider tokens or sign media URLs: a weakness or a leak in one use would reach the
 * others, and a value made for one job could be presented to another.
 *
 * Each key is derived with HKDF-SHA256 (RFC 5869, WebCrypto) from its root secret with its own
 * `info` label, so the three keys differ even when one secret is set:
 *
 * | job | root secret | info label | used by |
 * |---|---|---|---|
 * | session tokens (HS256) | `JWT_SECRET` | `conversa/session` | worker/lib/jwt.ts |
 * | encryption at rest (AES-GCM) | `SECRETS_KEY`, else `JWT_SECRET` | `conversa/encryption` | worker/lib/secrets.ts |
 * | media-URL signatures (HMAC-SHA256) | `MEDIA_URL_KEY`, else `JWT_SECRET` | `conversa/media-url` | worker/lib/media.ts |
 *
 * Derived keys are cached per isolate (derivation costs two WebCrypto calls).
 */
import type { AppEnv } from "../env";

/** The jobs a key may do; each has its own HKDF `info` label. */
export const KEY_LABELS = {
  session: "conversa/session",
  encryption: "conversa/encryption",
  mediaUrl: "conversa/media-url",
} as const;

export type KeyJob = keyof typeof KEY_LABELS;

/** Length of every derived key, in bytes (256 bits: HS256, AES-256-GCM, HMAC-SHA256). */
export const DERIVED_KEY_BYTES = 32;

/** A fixed, public salt (RFC 5869 §3.1: a salt need not be secret; it separates this product's keys). */
const SALT = new TextEncoder().encode("conversa/hkdf-salt/v1");

const cache = new Map<string, Promise<Uint8Array>>();

/**
 * The 32-byte key for `job` derived from `secret` (HKDF-SHA256, salt "conversa/hkdf-salt/v1",
 * info = KEY_LABELS[job]). Throws when `secret` is empty: a deployment without its secret must fail
 * loudly, never sign or encrypt with an empty key.
 */
export function deriveKey(secret: string, job: KeyJob): Promise<Uint8Array> {
  if (!secret) throw new Error(`No secret configured for the ${job} key (set JWT_SECRET).`);
  const cacheKey = `${job}\u0000${secret}`;
  let found = cache.get(cacheKey);
  if (!found) {
    found = derive(secret, KEY_LABELS[job]);
    found.catch(() => cache.delete(cacheKey));
    cache.set(cacheKey, found);
  }
  return found;
}

async function derive(secret: string, info: string): Promise<Uint8Array> {
  const material = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), "HKDF", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    { name: "HKDF", hash: "SHA-256", salt: SALT, info: new TextEncoder().encode(info) },
    material,
    DERIVED_KEY_BYTES * 8,
  );
  return new Uint8Array(bits);
}

/** The HS256 key of session tokens: HKDF(JWT_SECRET, "conversa/session"). */
export function sessionKey(env: Pick<AppEnv, "JWT_SECRET">): Promise<Uint8Array> {
  return deriveKey(env.JWT_SECRET, "session");
}

/** The root secret of encryption at rest: `SECRETS_KEY` when set, else `JWT_SECRET`. */
export function encryptionSecret(env: Pick<AppEnv, "JWT_SECRET" | "SECRETS_KEY">): string {
  return env.SECRETS_KEY || env.JWT_SECRET;
}

/** The HMAC key of media-URL signatures: HKDF(MEDIA_URL_KEY, else JWT_SECRET, "conversa/media-url"). */
export function mediaUrlKey(env: Pick<AppEnv, "JWT_SECRET" | "MEDIA_URL_KEY">): Promise<Uint8Array> {
  return deriveKey(env.MEDIA_URL_KEY || env.JWT_SECRET, "mediaUrl");
}
