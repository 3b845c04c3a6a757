/**
 * What the shell's connection warning says for the company's disconnected list (spec §8 Connection,
 * issue 9: a connection never paired is not a lost one).
 */
import type { DisconnectedEntry } from "../../../../../schema/companies";

/**
 * "lost" when a connection that was connected lost it, "unpaired" when every entry is a connection
 * not paired since it was created (`neverPaired`), null when the list is empty.
 */
export function disconnectedState(entries: readonly Pick<DisconnectedEntry, "neverPaired">[]): "lost" | "unpaired" | null {
  if (entries.length === 0) return null;
  return entries.some((entry) => !entry.neverPaired) ? "lost" : "unpaired";
}
