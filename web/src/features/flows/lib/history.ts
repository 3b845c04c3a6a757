/**
 * Undo/redo over immutable snapshots (the editor's document). Pure: every function answers a new
 * history. Commits with the same `key` within `COALESCE_MS` replace the latest snapshot instead of
 * adding one, so typing in a block's form is one step to undo, not one per keystroke.
 */

/** Most snapshots kept behind the present one. */
export const HISTORY_LIMIT = 100;
/** Commits of the same key closer than this (ms) merge into one step. */
export const COALESCE_MS = 1000;

/** The history: snapshots behind (`past`, oldest first), the present one, and redoable ones (`future`, next first). */
export type History<T> = {
  past: readonly T[];
  present: T;
  future: readonly T[];
  /** Key and time (ms) of the last commit, for coalescing. */
  lastKey: string | null;
  lastAt: number;
};

/** A history with `present` and nothing to undo or redo. */
export function createHistory<T>(present: T): History<T> {
  return { past: [], present, future: [], lastKey: null, lastAt: 0 };
}

/**
 * Records `next` as the present. With a `key` equal to the previous commit's, within COALESCE_MS of
 * it, the present is replaced (one undo step). Redo is cleared; the past is capped at HISTORY_LIMIT.
 */
export function commit<T>(history: History<T>, next: T, options: { key?: string; now?: number } = {}): History<T> {
  const now = options.now ?? Date.now();
  const key = options.key ?? null;
  if (key !== null && key === history.lastKey && now - history.lastAt < COALESCE_MS) {
    return { ...history, present: next, future: [], lastAt: now };
  }
  const past = [...history.past, history.present];
  return { past: past.length > HISTORY_LIMIT ? past.slice(past.length - HISTORY_LIMIT) : past, present: next, future: [], lastKey: key, lastAt: now };
}

/** Steps back once (unchanged when there is nothing to undo). */
export function undo<T>(history: History<T>): History<T> {
  const previous = history.past[history.past.length - 1];
  if (previous === undefined) return history;
  return { past: history.past.slice(0, -1), present: previous, future: [history.present, ...history.future], lastKey: null, lastAt: 0 };
}

/** Steps forward once (unchanged when there is nothing to redo). */
export function redo<T>(history: History<T>): History<T> {
  const [next, ...rest] = history.future;
  if (next === undefined) return history;
  return { past: [...history.past, history.present], present: next, future: rest, lastKey: null, lastAt: 0 };
}

/** Whether undo would change anything. */
export function canUndo(history: History<unknown>): boolean {
  return history.past.length > 0;
}

/** Whether redo would change anything. */
export function canRedo(history: History<unknown>): boolean {
  return history.future.length > 0;
}
