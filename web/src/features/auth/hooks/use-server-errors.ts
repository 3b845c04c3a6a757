/**
 * Puts a failed call's errors on a react-hook-form form (spec §8): each server `fields` entry goes
 * under its field (known fields only), and the screen's message goes to the form's root error.
 */
import type { FieldValues, Path, UseFormReturn } from "react-hook-form";
import { useLingui } from "@lingui/react/macro";
import { isApiError } from "@/lib/api";
import { errorMessage, type ErrorContext } from "@/lib/error-messages";

/** Returns `apply(error)` for `form`; `fields` lists the form's field names. */
export function useServerErrors<T extends FieldValues>(form: UseFormReturn<T>, fields: readonly Path<T>[], context: ErrorContext) {
  const { i18n } = useLingui();
  return (error: unknown) => {
    if (isApiError(error)) {
      for (const field of fields) {
        const code = error.fields[field];
        if (code) form.setError(field, { type: "server", message: code });
      }
    }
    form.setError("root.server", { type: "server", message: i18n._(errorMessage(error, context)) });
  };
}
