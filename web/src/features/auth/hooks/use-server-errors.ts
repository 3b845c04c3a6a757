/**
 * The auth screens' way of showing a failed call (spec §8): each server `fields` entry under its
 * field, and the screen's own message (login, register, reset wording) always at the top.
 */
import type { FieldValues, Path, UseFormReturn } from "react-hook-form";
import type { ErrorContext } from "@/lib/error-messages";
import { applyServerErrors } from "@/lib/form-errors";

/** Returns `apply(error)` for `form`; `fields` lists the form's field names. */
export function useServerErrors<T extends FieldValues>(form: UseFormReturn<T>, fields: readonly Path<T>[], context: ErrorContext) {
  return (error: unknown) => {
    applyServerErrors(form.setError, error, fields, { context, alwaysRoot: true });
  };
}
