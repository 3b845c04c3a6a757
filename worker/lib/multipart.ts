/**
 * The one way a route reads a multipart (or url-encoded form) body. A body that cannot be parsed
 * (no boundary, a boundary the body does not use, a truncated or empty body) answers 400
 * `validation_failed` naming the route's file field with `malformed_multipart`, never a 500 (issue 8
 * point 6). A route that only takes multipart answers a body of another type with
 * `multipart_required` on that field.
 *
 * The parsed form is kept in Hono's body cache, so `zv("form", schema)` after `multipartBody(field)`
 * validates the same parse instead of parsing (and failing) again.
 */
import type { Context, MiddlewareHandler } from "hono";
import { AppError } from "./errors";

/** The value of each form field as Hono's `parseBody` gives it (the last value of a repeated name). */
export type FormFields = Record<string, string | File>;

/** Whether the request declares a form body (multipart/form-data or url-encoded). */
export function isFormRequest(c: Context): boolean {
  const type = (c.req.header("Content-Type") ?? "").split(";")[0]?.trim().toLowerCase();
  return type === "multipart/form-data" || type === "application/x-www-form-urlencoded";
}

const malformed = (field: string) =>
  new AppError("validation_failed", "The multipart body could not be read (no boundary, a wrong boundary, or a truncated or empty body).", {
    [field]: "malformed_multipart",
  });

/**
 * Parses the request's form body; `field` is the field the 400 names (the route's file field).
 * Throws 400 `validation_failed` with `multipart_required` when the body is not a form, and
 * `malformed_multipart` when it cannot be parsed.
 */
export async function readForm(c: Context, field: string): Promise<FormFields> {
  if (!isFormRequest(c)) throw new AppError("validation_failed", "The body must be multipart/form-data.", { [field]: "multipart_required" });
  try {
    return await c.req.parseBody();
  } catch {
    throw malformed(field);
  }
}

/**
 * Middleware for `zv("form", schema)` routes: when the body is a form, parses it once through
 * `readForm` (400 naming `field` on a malformed body) and leaves the parse in the body cache for the
 * validator. A body of another type is left to the validator's schema, as before.
 */
export function multipartBody(field: string): MiddlewareHandler {
  return async (c, next) => {
    if (isFormRequest(c)) await readForm(c, field);
    await next();
  };
}
