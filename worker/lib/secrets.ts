/**
 * Encryption at rest for provider secrets (e.g. a Cloud API access token): AES-GCM with a 256-bit
 * key derived from `SECRETS_KEY` (environment). Stored as base64(iv ‖ ciphertext).
 */
import { fromBase64, toBase64 } from "./crypto";

async function keyFrom(secret: string): Promise<CryptoKey> {
  const material = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(secret));
  return crypto.subtle.importKey("raw", material, "AES-GCM", false, ["encrypt", "decrypt"]);
}

/** Encrypts UTF-8 text; a fresh 12-byte IV each call. */
export async function encryptSecret(secret: string, plaintext: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await keyFrom(secret), new TextEncoder().encode(plaintext));
  const out = new Uint8Array(iv.length + data.byteLength);
  out.set(iv, 0);
  out.set(new Uint8Array(data), iv.length);
  return toBase64(out);
}

/** Decrypts what encryptSecret produced; throws on a wrong key or tampered data. */
export async function decryptSecret(secret: string, stored: string): Promise<string> {
  const bytes = fromBase64(stored);
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes.slice(0, 12) }, await keyFrom(secret), bytes.slice(12));
  return new TextDecoder().decode(plain);
}
