/**
 * The slide-over form of an entity (spec §2 "each entity is edited in a slide-over form"): a right
 * sheet with a title, a description and a close button (`FormSheet`), holding a form with a
 * scrolling body led by the form's root server error and a footer with Cancel and the submit
 * button, which shows a spinner while saving (`FormSheetForm`).
 */
import type { FormEventHandler, ReactNode } from "react";
import { useLingui } from "@lingui/react/macro";
import { X } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Sheet, SheetClose, SheetContent, SheetDescription, SheetTitle } from "@/components/ui/sheet";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/lib/utils";

/** The sheet and its header; `onClose` runs when the user closes it (Escape, overlay, close button). */
export function FormSheet({
  open,
  onClose,
  title,
  description,
  className,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description: ReactNode;
  /** Extra classes of the panel (its width: `max-w-xl` unless overridden). */
  className?: string;
  children?: ReactNode;
}) {
  const { t } = useLingui();
  return (
    <Sheet open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <SheetContent side="right" className={cn("w-full max-w-xl", className)}>
        <div className="flex items-start justify-between gap-3 border-b p-5">
          <div className="grid gap-1">
            <SheetTitle className="text-lg leading-tight font-semibold">{title}</SheetTitle>
            <SheetDescription className="text-sm text-muted-foreground">{description}</SheetDescription>
          </div>
          <SheetClose asChild>
            <Button variant="ghost" size="icon" aria-label={t`Close`}>
              <X />
            </Button>
          </SheetClose>
        </div>
        {children}
      </SheetContent>
    </Sheet>
  );
}

/**
 * The form inside a `FormSheet`: the scrolling body (the root server error first, then `children`)
 * and the footer. Cancel closes the sheet; both buttons are disabled while `pending`. A null
 * `submitLabel` leaves the submit button out (a read-only sheet), `cancelLabel` renames Cancel.
 */
export function FormSheetForm({
  onSubmit,
  serverError,
  pending,
  submitLabel,
  cancelLabel,
  children,
}: {
  onSubmit: FormEventHandler<HTMLFormElement>;
  serverError?: string;
  pending: boolean;
  submitLabel: ReactNode | null;
  cancelLabel?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useLingui();
  return (
    <form onSubmit={onSubmit} className="flex min-h-0 flex-1 flex-col" noValidate>
      <div className="grid flex-1 content-start gap-4 overflow-y-auto p-5">
        {serverError ? <Alert variant="destructive">{serverError}</Alert> : null}
        {children}
      </div>
      <div className="flex flex-col-reverse gap-2 border-t p-4 sm:flex-row sm:justify-end">
        <SheetClose asChild>
          <Button variant="outline" disabled={pending}>
            {cancelLabel ?? t`Cancel`}
          </Button>
        </SheetClose>
        {submitLabel === null ? null : (
          <Button type="submit" disabled={pending}>
            {pending ? <Spinner /> : null}
            {submitLabel}
          </Button>
        )}
      </div>
    </form>
  );
}
