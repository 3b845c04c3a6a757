/**
 * Encryption at rest for provider secrets (e.g. a Cloud API access token): AES-256-GCM, a fresh
 * 12-byte IV per value.
 *
 * `secret` below is the root secret of encryption at rest (`SECRETS_KEY`, else `JWT_SECRET`:
 * worker/lib/keys.ts `encryptionSecret`). Two stored formats:
 * - `v2:` + base64(iv ‖ ciphertext): key = HKDF(secret, "conversa/encryption") (keys.ts). Written
 *   by every encryption since issue 8.
 * - base64(iv ‖ ciphertext) without prefix (legacy): key = SHA-256(secret). Still read, so tokens
 *   stored before the key separation keep working; `upgradeSecret` rewrites one in the new format.
 */
import { fromBase64, toBase64 } from "./crypto";
import { deriveKey } from "./keys";

/** Prefix of values encrypted under the HKDF-derived key. */
const V2 = "v2:";

async function aesKey(raw: Uint8Array | ArrayBuffer): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
}

async function currentKey(secret: string): Promise<CryptoKey> {
  return aesKey(await deriveKey(secret, "encryption"));
}

/** The key of values stored before issue 8: SHA-256 of the root secret. */
async function legacyKey(secret: string): Promise<CryptoKey> {
  return aesKey(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(secret)));
}

/** Encrypts UTF-8 text under the current key; answers `v2:` + base64(iv ‖ ciphertext). */
export async function encryptSecret(secret: string, plaintext: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await currentKey(secret), new TextEncoder().encode(plaintext));
  const out = new Uint8Array(iv.length + data.byteLength);
  out.set(iv, 0);
  out.set(new Uint8Array(data), iv.length);
  return V2 + toBase64(out);
}

/**
 * Decrypts what encryptSecret produced, in either format (current, or legacy without prefix).
 * Throws on a wrong key or tampered data (AES-GCM authenticates).
 */
export async function decryptSecret(secret: string, stored: string): Promise<string> {
  const current = stored.startsWith(V2);
  const bytes = fromBase64(current ? stored.slice(V2.length) : stored);
  const key = current ? await currentKey(secret) : await legacyKey(secret);
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes.slice(0, 12) }, key, bytes.slice(12));
  return new TextDecoder().decode(plain);
}

/** Whether `stored` is in the legacy format (encrypted under SHA-256 of the root secret). */
export function isLegacySecret(stored: string): boolean {
  return !stored.startsWith(V2);
}

/**
 * Re-encrypts a legacy value under the current key (for lazy migration when the row is written
 * anyway); answers null when `stored` is already current. Throws like decryptSecret.
 */
export async function upgradeSecret(secret: string, stored: string): Promise<string | null> {
  if (!isLegacySecret(stored)) return null;
  return encryptSecret(secret, await decryptSecret(secret, stored));
}
