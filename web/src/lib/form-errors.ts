/**
 * Puts a failed call's errors on a react-hook-form form (spec §8): each server `fields` entry of a
 * known field goes under that field (FormField translates the code); everything else becomes the
 * form's root message in the user's language. Answers whether any field got an error.
 */
import { i18n } from "@lingui/core";
import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { isApiError } from "./api";
import { errorMessage } from "./error-messages";

/**
 * Applies `error` to a form through its `setError`. `fields` maps the server's field names to the
 * form's (usually the same names). The root message (`errors.root.server`) is set only when no
 * field took the error, so a form never shows the same problem twice.
 */
export function applyServerErrors<T extends FieldValues>(
  setError: UseFormSetError<T>,
  error: unknown,
  fields: readonly Path<T>[],
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
  if (!placed) setError("root.server", { type: "server", message: i18n._(errorMessage(error)) });
  return placed;
}
