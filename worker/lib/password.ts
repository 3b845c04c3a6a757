/**
 * Password hashing: PBKDF2-HMAC-SHA256 through WebCrypto with a random 16-byte salt.
 *
 * Iterations: 100,000, the most production Workers accept (a higher count throws there, while local
 * workerd accepts it). OWASP recommends 600,000 for PBKDF2-SHA256; the README records the deviation.
 * Each row keeps its own iteration count so it can be raised when the platform allows.
 */
import { fromBase64, timingSafeEqual, toBase64 } from "./crypto";

/** The Workers cap; a unit test pins this at or below 100,000. */
export const PBKDF2_ITERATIONS = 100_000;
const KEY_BITS = 256;

export type PasswordHash = { hash: string; salt: string; iterations: number };

/** Derives a new hash with a fresh salt. */
export async function hashPassword(password: string): Promise<PasswordHash> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const bits = await derive(password, salt, PBKDF2_ITERATIONS);
  return { hash: toBase64(bits), salt: toBase64(salt), iterations: PBKDF2_ITERATIONS };
}

/** True when `password` matches the stored hash; compared in constant time. */
export async function verifyPassword(password: string, stored: PasswordHash): Promise<boolean> {
  const bits = await derive(password, fromBase64(stored.salt), stored.iterations);
  return timingSafeEqual(bits, fromBase64(stored.hash));
}

/**
 * A fixed hash used when the e-mail is unknown, so a failed login costs the same time whether or
 * not the account exists.
 */
export async function burnPasswordCheck(password: string): Promise<void> {
  await derive(password, new Uint8Array(16), PBKDF2_ITERATIONS);
}

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, [
    "deriveBits",
  ]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, KEY_BITS);
  return new Uint8Array(bits);
}
