/**
 * Webhook signature check: `X-Hub-Signature-256: sha256=<hex>` where hex is HMAC-SHA256 of the raw
 * body bytes with the app secret (Meta, Graph API webhooks "getting started"). Verified over the
 * raw bytes, before any parsing, with WebCrypto's constant-time `verify`.
 */

/** The value of one hex digit's char code (0–15), or -1 when it is not one. */
function hexDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 48; // 0-9
  if (code >= 97 && code <= 102) return code - 87; // a-f
  if (code >= 65 && code <= 70) return code - 55; // A-F
  return -1;
}

/**
 * The bytes of a hex string (either case), or null when it is not one (a char that is not a hex
 * digit, or an odd length). Read char by char (issue 16: a regex and a `parseInt` per byte were
 * 0.3 % of a webhook's thread).
 */
function hexToBytes(hex: string): Uint8Array | null {
  if (hex.length % 2 !== 0) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) {
    const high = hexDigit(hex.charCodeAt(i * 2));
    const low = hexDigit(hex.charCodeAt(i * 2 + 1));
    if (high < 0 || low < 0) return null;
    out[i] = high * 16 + low;
  }
  return out;
}

/** Imported keys by usage and secret, kept by this isolate (issue 16: an import per webhook was 0.5 % of the inbound path's CPU). */
const keys = new Map<string, Promise<CryptoKey>>();
/** Most keys kept (a deployment has one app secret or a few; the oldest is dropped first). */
const KEYS_KEPT = 16;

async function hmacKey(secret: string, usage: "sign" | "verify"): Promise<CryptoKey> {
  const id = `${usage}:${secret}`;
  let key = keys.get(id);
  if (!key) {
    key = crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [usage]);
    // A failed import is not kept.
    key.catch(() => keys.delete(id));
    keys.set(id, key);
    if (keys.size > KEYS_KEPT) keys.delete(keys.keys().next().value!);
  }
  return key;
}

/** True when `header` is a valid `sha256=<hex>` signature of `body` under `secret`. */
export async function verifyHubSignature(secret: string, body: ArrayBuffer, header: string | null | undefined): Promise<boolean> {
  if (!secret || !header?.startsWith("sha256=")) return false;
  const signature = hexToBytes(header.slice("sha256=".length));
  if (!signature || signature.length !== 32) return false;
  return crypto.subtle.verify("HMAC", await hmacKey(secret, "verify"), signature, body);
}

/** `sha256=<hex>` of `body` (used by the Meta stand-in and tests). */
export async function signHub(secret: string, body: ArrayBuffer | string): Promise<string> {
  const data = typeof body === "string" ? new TextEncoder().encode(body) : body;
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(secret, "sign"), data));
  return `sha256=${[...mac].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}
