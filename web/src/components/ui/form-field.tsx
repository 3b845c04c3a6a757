import { useId, type ReactElement, type ReactNode } from "react";
import { Slot } from "radix-ui";
import { useLingui } from "@lingui/react";
import { fieldErrorMessage } from "@/lib/error-messages";
import { Label } from "./label";
import { cn } from "@/lib/utils";

/**
 * A labelled form control with its error under it. `error` is a field code (a zod issue message or
 * a server `fields` entry, e.g. `invalid_email`), translated here. The control (one element) gets
 * the id, `aria-invalid` and `aria-describedby`.
 */
export function FormField({
  label,
  error,
  hint,
  children,
  className,
}: {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  children: ReactElement;
  className?: string;
}) {
  const { i18n } = useLingui();
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cn("grid gap-1.5", className)}>
      <Label htmlFor={id}>{label}</Label>
      <Slot.Root id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy}>
        {children}
      </Slot.Root>
      {hint && !error ? (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-xs font-medium text-destructive">
          {i18n._(fieldErrorMessage(error))}
        </p>
      ) : null}
    </div>
  );
}
