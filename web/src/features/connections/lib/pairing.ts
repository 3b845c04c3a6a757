/**
 * Pure helpers of the Connections screen: the phone code's display, the pairing countdown and when
 * to ask for a fresh code, and applying a hub `connection.updated` event to the cached list.
 */
import type { Connection } from "../api/connections-api";

/** Ask for a new code this long before the current one expires (ms). */
export const REFRESH_MARGIN_MS = 5_000;
/** Never ask again sooner than this (ms), even if the clock is off. */
export const MIN_REFRESH_DELAY_MS = 1_000;

/** `ABCD2345` → `ABCD-2345` (the worker's 8-character code, shown in two groups of four). */
export function formatPairingCode(code: string): string {
  const clean = code.replace(/[^A-Za-z0-9]/g, "").toUpperCase();
  if (clean.length <= 4) return clean;
  return `${clean.slice(0, 4)}-${clean.slice(4)}`;
}

/** Whole seconds left before `expiresAt` (never negative). */
export function secondsLeft(expiresAt: number, now: number): number {
  return Math.max(0, Math.ceil((expiresAt - now) / 1000));
}

/** How long to wait before asking for a fresh code, so the shown code never expires on screen. */
export function refreshDelay(expiresAt: number, now: number): number {
  return Math.max(MIN_REFRESH_DELAY_MS, expiresAt - now - REFRESH_MARGIN_MS);
}

/** Whether a connection counts as connected (spec §3: only `CONNECTED`). */
export function isConnected(status: string): boolean {
  return status === "CONNECTED";
}

/**
 * The list after a hub `connection.updated` event: the matching row takes the new name and status;
 * an unknown id answers `null` (the list must be refetched to learn the new row).
 */
export function applyConnectionUpdate(
  list: readonly Connection[],
  update: { id: string; name: string; status: Connection["status"] },
): Connection[] | null {
  if (!list.some((c) => c.id === update.id)) return null;
  return list.map((c) => (c.id === update.id ? { ...c, name: update.name, status: update.status, connected: isConnected(update.status) } : c));
}
