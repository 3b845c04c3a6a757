/**
 * Whether the toast outlet (sonner's Toaster, web/src/components/ui/toaster.tsx) is needed yet. The
 * app's pages need it from the start; the auth pages only once one shows a toast, so /login does
 * not download sonner (issue 9). sonner shows toasts raised before its outlet mounted.
 */
/** Toast lifetime in ms (spec §8, §9). */
export const TOAST_DURATION_MS = 5000;

let wanted = false;
const listeners = new Set<() => void>();

/** Asks for the toast outlet (idempotent). */
export function wantToaster(): void {
  if (wanted) return;
  wanted = true;
  for (const listener of listeners) listener();
}

/** Subscribes to the request (for useSyncExternalStore). */
export function subscribeToaster(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether the outlet was asked for. */
export function toasterWanted(): boolean {
  return wanted;
}
