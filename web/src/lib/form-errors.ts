/**
 * Puts a failed call's errors on a react-hook-form form (spec §8): each server `fields` entry of a
 * known field goes under that field (FormField translates the code); everything else becomes the
 * form's root message in the user's language. Answers whether any field got an error.
 */
import { i18n } from "@lingui/core";
import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { isApiError } from "./api";
import { errorMessage, type ErrorContext } from "./error-messages";

/** How the root message is chosen: the screen's context (spec §8 login/register/reset wording), and
 * whether it shows even when a field took the error (the auth screens name the failure both ways). */
export type ServerErrorOptions = { context?: ErrorContext; alwaysRoot?: boolean };

/**
 * Applies `error` to a form through its `setError`. `fields` lists the form's fields named like the
 * server's. By default the root message (`errors.root.server`) is set only when no field took the
 * error, so a form never shows the same problem twice.
 */
export function applyServerErrors<T extends FieldValues>(
  setError: UseFormSetError<T>,
  error: unknown,
  fields: readonly Path<T>[],
  options: ServerErrorOptions = {},
): boolean {
  let placed = false;
  if (isApiError(error)) {
    for (const field of fields) {
      const code = error.fields[field];
      if (code) {
        setError(field, { type: "server", message: code });
        placed = true;
      }
    }
  }
  if (!placed || options.alwaysRoot) setError("root.server", { type: "server", message: i18n._(errorMessage(error, options.context)) });
  return placed;
}
