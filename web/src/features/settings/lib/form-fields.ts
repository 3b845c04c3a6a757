/**
 * Pieces shared by the settings forms: optional fields validated by the shared schemas
 * (schema/validation/common.ts) and the image rules of the worker (worker/lib/images.ts).
 */
import { z } from "zod";

/**
 * A text field that may be left blank; when filled it must pass `schema`, and the issue carries
 * that schema's field code (e.g. `invalid_phone`) so FormField shows the right message. The value
 * stays as typed: the server normalises it.
 */
export function optionalField(schema: z.ZodType<unknown, string>) {
  return z.string().superRefine((value, ctx) => {
    if (value.trim() === "") return;
    const parsed = schema.safeParse(value);
    if (!parsed.success) ctx.addIssue({ code: "custom", message: parsed.error.issues[0]?.message ?? "invalid_value" });
  });
}

/** Largest image the worker stores: 2 MiB (worker/lib/images.ts MAX_IMAGE_BYTES). */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

/** MIME types the worker accepts for avatars and logos. */
export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;

/**
 * The field code for a chosen image file, or null when it may be sent: `invalid_image` for
 * another type, `image_too_large` above 2 MiB (the worker checks again by magic bytes).
 */
export function imageFileProblem(file: Pick<File, "type" | "size">): "invalid_image" | "image_too_large" | null {
  if (!IMAGE_TYPES.some((type) => type === file.type)) return "invalid_image";
  if (file.size > MAX_IMAGE_BYTES) return "image_too_large";
  return null;
}

/** What to do with an image on save: keep it, replace it with `file`, or remove it. */
export type ImageChange = { kind: "keep" } | { kind: "set"; file: File } | { kind: "remove" };
