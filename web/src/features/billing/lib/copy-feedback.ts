/**
 * The "copy" button's state (the PIX copy-and-paste payload, spec §8 "copied" success): copying
 * writes the text to the clipboard and shows "copied" for a moment; a refused clipboard shows
 * "failed" so the person can select the text by hand. Pure over its clipboard and timer, so it is
 * tested without a browser.
 */

/** What the button shows. */
export type CopyStatus = "idle" | "copied" | "failed";

/** How long the "copied" feedback stays, in ms. */
export const COPIED_FEEDBACK_MS = 2000;

/** The clipboard it writes to (navigator.clipboard in the app). */
export type ClipboardLike = { writeText(text: string): Promise<void> };

/** A timer it uses to reset the feedback (window.setTimeout in the app). */
export type TimerLike = { set(callback: () => void, ms: number): unknown; clear(handle: unknown): void };

/**
 * A copy controller: `copy(text)` writes `text` and reports the status through `onStatus`
 * ("copied", then "idle" after COPIED_FEEDBACK_MS; "failed" when the clipboard refuses or is
 * missing). A second copy restarts the feedback; `dispose()` cancels the pending reset.
 */
export function createCopyFeedback(clipboard: ClipboardLike | undefined, timer: TimerLike, onStatus: (status: CopyStatus) => void) {
  let pending: unknown = null;
  const reset = () => {
    if (pending !== null) timer.clear(pending);
    pending = null;
  };
  return {
    async copy(text: string): Promise<CopyStatus> {
      reset();
      let status: CopyStatus;
      try {
        if (!clipboard) throw new Error("no clipboard");
        await clipboard.writeText(text);
        status = "copied";
      } catch {
        status = "failed";
      }
      onStatus(status);
      pending = timer.set(() => {
        pending = null;
        onStatus("idle");
      }, COPIED_FEEDBACK_MS);
      return status;
    },
    dispose: reset,
  };
}
