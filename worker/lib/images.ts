/**
 * Image uploads (avatars, company logos) into R2. Accepted: PNG, JPEG, WebP, GIF up to 2 MiB,
 * checked by the file's magic bytes (worker/lib/sniff.ts), never by its declared type.
 */
import { AppError } from "./errors";
import { newId } from "./ids";
import { sniffType } from "./sniff";

export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

/** The raster types accepted for avatars and logos (never SVG: it can carry script). */
const IMAGE_TYPES: ReadonlySet<string> = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/**
 * Stores `file` under `images/<prefix>/<uuid>.<ext>` and answers the key.
 * Throws 400 `validation_failed` on `field` with `invalid_image` or `image_too_large`.
 */
export async function storeImage(bucket: R2Bucket, prefix: string, file: File, field: string): Promise<string> {
  if (file.size > MAX_IMAGE_BYTES) {
    throw new AppError("validation_failed", "The image is larger than 2 MB.", { [field]: "image_too_large" });
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  const kind = await sniffType(bytes);
  if (!IMAGE_TYPES.has(kind.mime)) throw new AppError("validation_failed", "The file is not a PNG, JPEG, WebP or GIF image.", { [field]: "invalid_image" });
  const key = `images/${prefix}/${newId()}.${kind.ext}`;
  await bucket.put(key, bytes, { httpMetadata: { contentType: kind.mime, cacheControl: "public, max-age=31536000, immutable" } });
  return key;
}
