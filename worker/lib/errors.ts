/**
 * One error taxonomy with one envelope (DESIGN.md "API conventions"): every failure answers
 * `{ error: { code, message, fields? } }` with a stable `code`. No stack trace leaves the worker.
 */
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ZodError } from "zod";

export type ErrorCode =
  | "validation_failed"
  | "unauthorized"
  | "invalid_credentials"
  | "forbidden"
  | "api_key_not_allowed"
  | "insufficient_scope"
  | "not_found"
  | "conflict"
  | "email_in_use"
  | "name_in_use"
  | "phone_in_use"
  | "payment_required"
  | "no_company"
  | "email_not_verified"
  | "rate_limited"
  | "invalid_token"
  | "payload_too_large"
  | "phone_number_unavailable"
  | "provider_unavailable"
  | "internal";

/** Default HTTP status of each code. */
const STATUS: Record<ErrorCode, ContentfulStatusCode> = {
  validation_failed: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  forbidden: 403,
  api_key_not_allowed: 403,
  insufficient_scope: 403,
  not_found: 404,
  conflict: 409,
  email_in_use: 409,
  name_in_use: 409,
  phone_in_use: 409,
  payment_required: 402,
  no_company: 403,
  email_not_verified: 403,
  rate_limited: 429,
  invalid_token: 400,
  payload_too_large: 413,
  phone_number_unavailable: 409,
  provider_unavailable: 502,
  internal: 500,
};

/** A failure a handler raises on purpose; `app.onError` renders it. */
export class AppError extends Error {
  readonly status: ContentfulStatusCode;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.status = STATUS[code];
  }
}

/** Shorthands for the common failures. */
export const notFound = (what = "Resource") => new AppError("not_found", `${what} not found.`);
export const forbidden = (message = "You do not have permission to access this resource.") =>
  new AppError("forbidden", message);
export const unauthorized = (message = "Authentication required.") => new AppError("unauthorized", message);

/**
 * Turns a ZodError into the 400 answer, naming each failing field by its dotted path; the field's
 * value is the issue message (a stable code such as `invalid_email` or `password_too_short`).
 */
export function validationError(error: ZodError): AppError {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "_";
    if (!(key in fields)) fields[key] = issueMessage(issue);
  }
  const names = Object.keys(fields).join(", ");
  return new AppError("validation_failed", `Invalid input: ${names}.`, fields);
}

function issueMessage(issue: ZodError["issues"][number]): string {
  if (issue.code === "invalid_type" && issue.input === undefined) return "required";
  // Custom messages in the schemas are short codes; zod's own defaults are sentences.
  return /^[a-z_]+$/.test(issue.message) ? issue.message : issue.code;
}
