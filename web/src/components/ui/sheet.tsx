import type { ComponentProps } from "react";
import { Dialog } from "radix-ui";
import { cn } from "@/lib/utils";

/** A slide-over panel (Radix Dialog): focus trapped, Escape closes. */
export const Sheet = Dialog.Root;
/** The element that opens the sheet. */
export const SheetTrigger = Dialog.Trigger;
/** Closes the sheet. */
export const SheetClose = Dialog.Close;
/** Accessible title of the sheet (may be visually hidden with `sr-only`). */
export const SheetTitle = Dialog.Title;
/** Accessible description of the sheet. */
export const SheetDescription = Dialog.Description;

/**
 * The panel, sliding from the left or the right. `container` portals it into an element of the page
 * instead of the body (a non-modal panel placed inside a region, positioned `absolute` by the caller).
 */
export function SheetContent({
  className,
  side = "left",
  container,
  ...props
}: ComponentProps<typeof Dialog.Content> & { side?: "left" | "right"; container?: HTMLElement | null }) {
  return (
    <Dialog.Portal container={container}>
      <Dialog.Overlay className="fixed inset-0 z-40 bg-black/50" />
      <Dialog.Content
        className={cn(
          "fixed inset-y-0 z-50 flex w-72 max-w-[85vw] flex-col bg-background shadow-lg outline-none",
          side === "left" ? "left-0 border-r" : "right-0 border-l",
          className,
        )}
        {...props}
      />
    </Dialog.Portal>
  );
}
