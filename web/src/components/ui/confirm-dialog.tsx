import type { ReactNode } from "react";
import { AlertDialog } from "radix-ui";
import { useLingui } from "@lingui/react/macro";
import { buttonVariants } from "./button";
import { Spinner } from "./spinner";
import { cn } from "@/lib/utils";

/**
 * A confirmation before a destructive or irreversible action (Radix AlertDialog: focus starts on
 * Cancel, Escape cancels). The dialog stays open while `pending`; the caller closes it through
 * `onOpenChange` once the action is done.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  onConfirm,
  pending = false,
  destructive = true,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  confirmLabel: ReactNode;
  onConfirm: () => void;
  pending?: boolean;
  destructive?: boolean;
}) {
  const { t } = useLingui();
  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => (pending ? undefined : onOpenChange(next))}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-40 bg-black/50" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 grid w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 gap-4 rounded-xl border bg-background p-5 text-foreground shadow-lg outline-none">
          <div className="grid gap-1.5">
            <AlertDialog.Title className="text-lg leading-tight font-semibold">{title}</AlertDialog.Title>
            <AlertDialog.Description className="text-sm text-muted-foreground">{description}</AlertDialog.Description>
          </div>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel className={buttonVariants({ variant: "outline" })} disabled={pending}>
              {t`Cancel`}
            </AlertDialog.Cancel>
            <AlertDialog.Action
              className={cn(buttonVariants({ variant: destructive ? "destructive" : "default" }))}
              disabled={pending}
              onClick={(event) => {
                // Keep the dialog open until the caller's action settles.
                event.preventDefault();
                onConfirm();
              }}
            >
              {pending ? <Spinner /> : null}
              {confirmLabel}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
