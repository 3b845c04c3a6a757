/**
 * Live progress of the broadcast lists (issue 10: "sent and rejected counts update live on the list
 * through the company hub"): the share of recipients reached, and how a hub `broadcast.updated`
 * event (schema/realtime.ts) changes a loaded list — the row's status and counts are replaced in
 * place; a broadcast that reaches done or cancelled leaves the current tab; an event about a
 * broadcast the list has not loaded asks for a refetch (`unknown`).
 */
import type { InfiniteData } from "@tanstack/react-query";
import type { Page } from "../../../../../schema/api-types";
import { CURRENT_BROADCAST_STATUSES, type BroadcastCounts, type BroadcastListItem, type BroadcastProgress, type BroadcastStatus } from "../../../../../schema/validation/broadcasts";

/** The loaded pages of a list. */
export type BroadcastPages = InfiniteData<Page<BroadcastListItem>, string | null>;

/** Whether a status belongs to the current tab (waiting, started, paused) rather than history. */
export function isCurrent(status: BroadcastStatus): boolean {
  return CURRENT_BROADCAST_STATUSES.includes(status);
}

/** Percent (0..100) of the recipients sent or rejected; null while the recipients are not listed yet. */
export function progressPercent(counts: BroadcastCounts): number | null {
  if (counts.total === null) return null;
  if (counts.total === 0) return 100;
  return Math.min(100, Math.round(((counts.sent + counts.rejected) / counts.total) * 100));
}

/**
 * `pages` of the `tab` list after `progress`: `changed` when a row was replaced or removed,
 * `unknown` when the list should be refetched (a broadcast it has not loaded belongs to it).
 */
export function applyProgress(pages: BroadcastPages, progress: BroadcastProgress, tab: "current" | "history"): { data: BroadcastPages; changed: boolean; unknown: boolean } {
  const belongs = (tab === "current") === isCurrent(progress.status);
  const found = pages.pages.some((page) => page.results.some((row) => row.id === progress.id));
  if (!found) return { data: pages, changed: false, unknown: belongs };
  const next = pages.pages.map((page) => {
    // Every page carries the list's total: a row leaving the tab lowers it on each.
    if (!belongs) return { ...page, results: page.results.filter((row) => row.id !== progress.id), total: Math.max(0, page.total - 1) };
    return { ...page, results: page.results.map((row) => (row.id === progress.id ? { ...row, status: progress.status, counts: progress.counts } : row)) };
  });
  return { data: { ...pages, pages: next }, changed: true, unknown: false };
}
