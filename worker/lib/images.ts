/**
 * Image uploads (avatars, company logos) into R2. Accepted: PNG, JPEG, WebP, GIF up to 2 MiB,
 * checked by the file's magic bytes, not only its declared type.
 */
import { AppError } from "./errors";
import { newId } from "./ids";

export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

const SIGNATURES: { type: string; ext: string; test: (b: Uint8Array) => boolean }[] = [
  { type: "image/png", ext: "png", test: (b) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 },
  { type: "image/jpeg", ext: "jpg", test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: "image/gif", ext: "gif", test: (b) => b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 },
  {
    type: "image/webp",
    ext: "webp",
    test: (b) => b[0] === 0x52 && b[1] === 0x49 && b[8] === 0x57 && b[9] === 0x45 && b[10] === 0x42 && b[11] === 0x50,
  },
];

/**
 * Stores `file` under `images/<prefix>/<uuid>.<ext>` and answers the key.
 * Throws 400 `validation_failed` on `field` with `invalid_image` or `image_too_large`.
 */
export async function storeImage(bucket: R2Bucket, prefix: string, file: File, field: string): Promise<string> {
  if (file.size > MAX_IMAGE_BYTES) {
    throw new AppError("validation_failed", "The image is larger than 2 MB.", { [field]: "image_too_large" });
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  const kind = SIGNATURES.find((s) => s.test(bytes));
  if (!kind) throw new AppError("validation_failed", "The file is not a PNG, JPEG, WebP or GIF image.", { [field]: "invalid_image" });
  const key = `images/${prefix}/${newId()}.${kind.ext}`;
  await bucket.put(key, bytes, { httpMetadata: { contentType: kind.type, cacheControl: "public, max-age=31536000, immutable" } });
  return key;
}
