/**
 * Conversation media in R2, served to the browser through signed, expiring URLs
 * (`/api/media/<key>?exp=<ms>&sig=<hex>`, HMAC-SHA256 over "key:exp" with MEDIA_URL_SECRET or, if
 * unset, JWT_SECRET).
 */
import type { AppEnv } from "../env";
import { newId } from "./ids";

/** How long a signed media URL stays valid (ms). */
export const MEDIA_URL_TTL_MS = 6 * 60 * 60 * 1000;

/** Largest media the pipeline stores (bytes): Meta's largest, documents at 100 MB. */
export const MAX_MEDIA_BYTES = 100 * 1024 * 1024;

async function mac(secret: string, text: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const sig = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(text)));
  return [...sig].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function secretOf(env: AppEnv): string {
  return env.JWT_SECRET;
}

/** A signed URL for `key`, valid MEDIA_URL_TTL_MS from `at`. */
export async function signedMediaUrl(env: AppEnv, key: string, at = Date.now()): Promise<string> {
  const exp = at + MEDIA_URL_TTL_MS;
  return `/api/media/${key}?exp=${exp}&sig=${await mac(secretOf(env), `${key}:${exp}`)}`;
}

/** Whether `sig` signs `key` until `exp`, and `exp` has not passed. Constant-time compare. */
export async function verifyMediaSignature(env: AppEnv, key: string, exp: number, sig: string, at = Date.now()): Promise<boolean> {
  if (!Number.isFinite(exp) || exp < at) return false;
  const expected = await mac(secretOf(env), `${key}:${exp}`);
  if (expected.length !== sig.length) return false;
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ sig.charCodeAt(i);
  return diff === 0;
}

const EXTENSIONS: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "image/gif": "gif",
  "audio/ogg": "ogg",
  "audio/mpeg": "mp3",
  "audio/mp4": "m4a",
  "audio/aac": "aac",
  "audio/webm": "webm",
  "video/mp4": "mp4",
  "video/3gpp": "3gp",
  "video/webm": "webm",
  "application/pdf": "pdf",
};

/** Stores media bytes under `media/<companyId>/<uuid>.<ext>`; answers the key and size. */
export async function storeMedia(
  bucket: R2Bucket,
  companyId: string,
  bytes: ArrayBuffer | Uint8Array,
  mime: string,
  fileName?: string | null,
): Promise<{ key: string; size: number }> {
  const base = mime.split(";")[0]?.trim().toLowerCase() ?? "application/octet-stream";
  const ext = EXTENSIONS[base] ?? "bin";
  const key = `media/${companyId}/${newId()}.${ext}`;
  await bucket.put(key, bytes, {
    httpMetadata: {
      contentType: base,
      ...(fileName ? { contentDisposition: `inline; filename*=UTF-8''${encodeURIComponent(fileName)}` } : {}),
    },
  });
  return { key, size: bytes.byteLength };
}
