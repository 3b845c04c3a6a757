/**
 * Pure logic of the chat list (spec §4 "Chat list filters"): which tickets a filter shows, and how a
 * live hub event changes a loaded, paged list without a reload. Mirrors the worker's GET
 * /api/tickets filters (worker/routes/tickets.ts) and its visibility rule (spec §6 tickets_groups,
 * see_all_tickets), so a live update puts a ticket exactly where a refetch would.
 */
import type { MessageAnswer, TicketAnswer } from "../../../../../schema/realtime";
import type { TicketPage } from "@/lib/answers";

/** The list's type filter (spec: all, chats, unread, groups, assigned to me). */
export type TicketTypeFilter = "all" | "chats" | "unread" | "groups" | "mine";
/** The list's status filter (spec: all, open, pending). */
export type TicketStatusFilter = "all" | "open" | "pending";

/** The filters of one list query; part of its query key. */
export type TicketFilters = { type: TicketTypeFilter; status: TicketStatusFilter; search: string };

/** Who looks at the list: their member id (null while unknown) and what they may see. */
export type TicketViewer = { memberId: string | null; seeAll: boolean; groups: boolean };

/** Paged list data as react-query's infinite query keeps it. */
export type TicketPages = { pages: TicketPage[]; pageParams: unknown[] };

/**
 * Whether the viewer may see the ticket at all (the worker's `visibility`): groups need
 * tickets_groups; without see_all_tickets only pending tickets and the viewer's own. `null` when it
 * depends on the viewer's member id and that is not known yet.
 */
export function canView(ticket: TicketAnswer, viewer: TicketViewer): boolean | null {
  if (ticket.isGroup && !viewer.groups) return false;
  if (viewer.seeAll || ticket.status === "pending") return true;
  if (viewer.memberId === null) return null;
  return ticket.assignedMemberId === viewer.memberId;
}

/** Whether the ticket's contact matches a search by name or phone (case-insensitive, like the worker's LIKE). */
export function matchesSearch(ticket: TicketAnswer, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return ticket.contact.name.toLowerCase().includes(needle) || (ticket.contact.phone ?? "").toLowerCase().includes(needle);
}

/**
 * Whether a list with `filters` shows the ticket: true, false, or null when it cannot be told here
 * (the viewer's member id is unknown and the answer depends on it; the caller refetches).
 */
export function matchesFilters(ticket: TicketAnswer, filters: TicketFilters, viewer: TicketViewer): boolean | null {
  const visible = canView(ticket, viewer);
  if (visible === false) return false;
  if (filters.status !== "all" && ticket.status !== filters.status) return false;
  if (!matchesSearch(ticket, filters.search)) return false;
  switch (filters.type) {
    case "chats":
      if (ticket.isGroup) return false;
      break;
    case "groups":
      if (!ticket.isGroup) return false;
      break;
    case "unread":
      if (ticket.unreadCount <= 0) return false;
      break;
    case "mine":
      if (viewer.memberId === null) return null;
      if (ticket.assignedMemberId !== viewer.memberId) return false;
      break;
    case "all":
      break;
  }
  return visible;
}

/** The list order: newest activity first, then id descending (the worker's keyset order). */
export function compareTickets(a: TicketAnswer, b: TicketAnswer): number {
  if (a.lastMessageAt !== b.lastMessageAt) return b.lastMessageAt - a.lastMessageAt;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** What {@link upsertTicket} did; `unknown` asks the caller to refetch. */
export type UpsertOutcome = { data: TicketPages; changed: boolean; unknown: boolean };

/**
 * Applies a changed ticket to a loaded list: removes it from wherever it was and, when the list's
 * filters show it, inserts it at its place in the order. A ticket that sorts after everything loaded
 * while more pages exist is left for paging to bring. `total` follows what is known. An entry older
 * than the one the list holds (a lower `version`, tickets.version) changes nothing (issue 16).
 */
export function upsertTicket(data: TicketPages, ticket: TicketAnswer, filters: TicketFilters, viewer: TicketViewer): UpsertOutcome {
  let held: TicketAnswer | undefined;
  for (const page of data.pages) held ??= page.results.find((t) => t.id === ticket.id);
  if (held && held.version > ticket.version) return { data, changed: false, unknown: false };
  const match = matchesFilters(ticket, filters, viewer);
  if (match === null) return { data, changed: false, unknown: true };
  const wasPresent = held !== undefined;
  if (!wasPresent && !match) return { data, changed: false, unknown: false };
  let pages = data.pages.map((page) => (page.results.some((t) => t.id === ticket.id) ? { ...page, results: page.results.filter((t) => t.id !== ticket.id) } : page));
  let inserted = false;
  if (match) {
    pages = pages.map((page, index) => {
      if (inserted) return page;
      const at = page.results.findIndex((t) => compareTickets(ticket, t) < 0);
      const isLast = index === pages.length - 1;
      if (at >= 0) {
        inserted = true;
        return { ...page, results: [...page.results.slice(0, at), ticket, ...page.results.slice(at)] };
      }
      if (isLast && page.cursor === null) {
        inserted = true;
        return { ...page, results: [...page.results, ticket] };
      }
      return page;
    });
  }
  const delta = (match ? 1 : 0) - (wasPresent ? 1 : 0);
  const first = pages[0];
  if (first && delta !== 0) pages = [{ ...first, total: Math.max(0, first.total + delta) }, ...pages.slice(1)];
  return { data: { ...data, pages }, changed: true, unknown: false };
}

/**
 * A new message of a ticket the list holds: its preview and time move forward and the ticket goes
 * to the top (reactions change neither, as on the worker). Unread counts come with the
 * `ticket.updated` that follows every message. Tickets not loaded are left alone.
 */
export function bumpTicket(data: TicketPages, message: MessageAnswer, preview: string): TicketPages {
  let found: TicketAnswer | undefined;
  for (const page of data.pages) found ??= page.results.find((t) => t.id === message.ticketId);
  if (!found || message.type === "reaction" || message.sentAt < found.lastMessageAt) return data;
  const bumped: TicketAnswer = { ...found, lastMessageAt: message.sentAt, lastMessagePreview: preview };
  const pages = data.pages.map((page) => ({ ...page, results: page.results.filter((t) => t.id !== bumped.id) }));
  const target = pages.findIndex((page) => page.results.some((t) => compareTickets(bumped, t) < 0) || page.cursor === null);
  const index = target < 0 ? 0 : target;
  const page = pages[index];
  if (page) {
    const at = page.results.findIndex((t) => compareTickets(bumped, t) < 0);
    const results = at < 0 ? [...page.results, bumped] : [...page.results.slice(0, at), bumped, ...page.results.slice(at)];
    pages[index] = { ...page, results };
  }
  return { ...data, pages };
}

/** Every ticket of a paged list, in order, without duplicates (a page boundary may shift while paging). */
export function flattenTickets(data: TicketPages | undefined): TicketAnswer[] {
  if (!data) return [];
  const seen = new Set<string>();
  const out: TicketAnswer[] = [];
  for (const page of data.pages) {
    for (const ticket of page.results) {
      if (seen.has(ticket.id)) continue;
      seen.add(ticket.id);
      out.push(ticket);
    }
  }
  return out;
}
