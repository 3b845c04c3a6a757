/**
 * Autosave of the editor's draft: after each change, once the member pauses (SAVE_DELAY_MS), the
 * draft goes to PUT /api/flows/{id}; one save at a time, and a change made during a save is saved
 * next. 'Builder saved.' on success, 'Error saving. Try again.' on failure (spec §8); the next
 * change, or `flush`, tries again. Leaving the page with unsaved changes asks first.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { useLingui } from "@lingui/react/macro";
import type { StoreApi } from "zustand";
import { toast } from "sonner";
import { SUCCESS_MESSAGES, TOAST_DURATION_MS } from "@/lib/notify";
import { updateFlow } from "../api/flows-api";
import { SAVE_ERROR } from "../lib/labels";
import { currentDocument, type EditorState } from "../store/editor-store";

/** Pause after the last change before saving (ms). */
export const SAVE_DELAY_MS = 1200;

/** Where the draft stands against the server. */
export type SaveStatus = "saved" | "pending" | "saving" | "error";

/** Saves the store's draft as it changes; answers the status and `flush` (save now, resolves when saved). */
export function useAutosave(flowId: string, store: StoreApi<EditorState>): { status: SaveStatus; flush: () => Promise<boolean> } {
  const { i18n } = useLingui();
  const [status, setStatus] = useState<SaveStatus>("saved");
  const saved = useRef(store.getState().revision);
  const running = useRef<Promise<boolean> | null>(null);
  const timer = useRef<number | null>(null);

  const saveNow = useCallback(async (): Promise<boolean> => {
    if (running.current) await running.current;
    const state = store.getState();
    if (state.revision === saved.current) return true;
    const revision = state.revision;
    setStatus("saving");
    const attempt = updateFlow(flowId, { draft: currentDocument(state) })
      .then(() => {
        saved.current = revision;
        const current = store.getState().revision;
        setStatus(current === revision ? "saved" : "pending");
        toast.success(i18n._(SUCCESS_MESSAGES.builderSaved), { id: "builder-saved", duration: TOAST_DURATION_MS });
        return true;
      })
      .catch(() => {
        setStatus("error");
        toast.error(i18n._(SAVE_ERROR), { id: "builder-save-error", duration: TOAST_DURATION_MS });
        return false;
      });
    running.current = attempt;
    const ok = await attempt;
    running.current = null;
    if (ok && store.getState().revision !== saved.current) return saveNow();
    return ok;
  }, [flowId, store, i18n]);

  useEffect(
    () =>
      store.subscribe((state, previous) => {
        if (state.revision === previous.revision) return;
        setStatus("pending");
        if (timer.current !== null) window.clearTimeout(timer.current);
        timer.current = window.setTimeout(() => {
          timer.current = null;
          void saveNow();
        }, SAVE_DELAY_MS);
      }),
    [store, saveNow],
  );

  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (store.getState().revision !== saved.current) event.preventDefault();
    };
    window.addEventListener("beforeunload", warn);
    return () => {
      window.removeEventListener("beforeunload", warn);
      if (timer.current !== null) window.clearTimeout(timer.current);
      // Leaving the editor inside the app: save what is left.
      if (store.getState().revision !== saved.current) void saveNow();
    };
  }, [store, saveNow]);

  const flush = useCallback(() => {
    if (timer.current !== null) {
      window.clearTimeout(timer.current);
      timer.current = null;
    }
    return saveNow();
  }, [saveNow]);

  return { status, flush };
}
