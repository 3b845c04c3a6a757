/**
 * Conversation media in R2, served to the browser through signed, expiring URLs
 * (`/api/media/<key>?exp=<ms>&sig=<hex>`, HMAC-SHA256 over "key:exp" with the media-URL key, derived
 * from MEDIA_URL_KEY or, if unset, JWT_SECRET: worker/lib/keys.ts).
 */
import type { AppEnv } from "../env";
import { newId } from "./ids";
import { contentDisposition, isInlineType, safeFileName, sniffType } from "./sniff";
import { mediaUrlKey } from "./keys";

/** How long a signed media URL stays valid (ms). */
export const MEDIA_URL_TTL_MS = 6 * 60 * 60 * 1000;

/** Largest media the pipeline stores (bytes): Meta's largest, documents at 100 MB. */
export const MAX_MEDIA_BYTES = 100 * 1024 * 1024;

async function mac(secret: Uint8Array, text: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const sig = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(text)));
  return [...sig].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** HKDF(MEDIA_URL_KEY, else JWT_SECRET, "conversa/media-url"): never the session key (keys.ts). */
function secretOf(env: AppEnv): Promise<Uint8Array> {
  return mediaUrlKey(env);
}

/**
 * The separate origin user content is served from (`MEDIA_ORIGIN`, e.g. https://media.example.com),
 * without a trailing slash; null when unset or not an http(s) URL (then media is on the app's origin,
 * still sandboxed by its headers).
 */
export function mediaOrigin(env: Pick<AppEnv, "MEDIA_ORIGIN">): string | null {
  if (!env.MEDIA_ORIGIN) return null;
  try {
    const url = new URL(env.MEDIA_ORIGIN);
    return url.protocol === "https:" || url.protocol === "http:" ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * A signed URL for `key`, valid MEDIA_URL_TTL_MS from `at`: `/api/media/…` on the app's origin, or
 * absolute on MEDIA_ORIGIN when that is set.
 */
export async function signedMediaUrl(env: AppEnv, key: string, at = Date.now()): Promise<string> {
  const exp = at + MEDIA_URL_TTL_MS;
  const path = `/api/media/${key}?exp=${exp}&sig=${await mac(await secretOf(env), `${key}:${exp}`)}`;
  return mediaOrigin(env) ? `${mediaOrigin(env)}${path}` : path;
}

/** Whether `sig` signs `key` until `exp`, and `exp` has not passed. Constant-time compare. */
export async function verifyMediaSignature(env: AppEnv, key: string, exp: number, sig: string, at = Date.now()): Promise<boolean> {
  if (!Number.isFinite(exp) || exp < at) return false;
  const expected = await mac(await secretOf(env), `${key}:${exp}`);
  if (expected.length !== sig.length) return false;
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ sig.charCodeAt(i);
  return diff === 0;
}

/**
 * Stores media bytes under `media/<companyId>/<uuid>.<ext>`; answers the key, size and the stored
 * type. The type comes from the bytes (worker/lib/sniff.ts), never from `declaredMime` (the
 * client's or provider's word, used only to tell an audio container from a video one): HTML, SVG
 * and unknown bytes are stored as application/octet-stream and always served as a download.
 */
export async function storeMedia(
  bucket: R2Bucket,
  companyId: string,
  bytes: ArrayBuffer | Uint8Array,
  declaredMime: string,
  fileName?: string | null,
): Promise<{ key: string; size: number; mime: string }> {
  const sniffed = await sniffType(bytes, declaredMime);
  const key = `media/${companyId}/${newId()}.${sniffed.ext}`;
  await bucket.put(key, bytes, {
    httpMetadata: {
      contentType: sniffed.mime,
      ...(fileName ? { contentDisposition: contentDisposition(isInlineType(sniffed.mime) ? "inline" : "attachment", safeFileName(fileName, "file")) } : {}),
    },
  });
  return { key, size: bytes.byteLength, mime: sniffed.mime };
}
