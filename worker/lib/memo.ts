/**
 * Per-isolate memories of pure answers on the inbound path (issue 16: work every message redid,
 * such as parsing the same wa_id or folding the same stop words).
 */

/**
 * The answer `compute()` gives for `key`, kept in `memory` so the next call with `key` does not
 * compute it again. `compute` must be a pure function of `key` (the caller's promise). The memory
 * holds at most `max` entries and is emptied when full: a bound on the isolate's memory, not an
 * eviction order (a new entry after a clear is computed once more).
 */
export function remembered<K, V>(memory: Map<K, V>, max: number, key: K, compute: () => V): V {
  if (memory.has(key)) return memory.get(key) as V;
  const value = compute();
  if (memory.size >= max) memory.clear();
  memory.set(key, value);
  return value;
}
