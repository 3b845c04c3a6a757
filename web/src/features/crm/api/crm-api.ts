/**
 * The CRM board's calls (worker/routes/crm.ts; permission `crm` to read, `crm_manager` to change)
 * and the contact search of its "add a contact" picker (worker/routes/contacts.ts, permission
 * `contacts`).
 */
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/session";
import { contactOptionPage, crmBoardAnswer, crmCardPage, crmColumnAnswer, crmColumnPage, crmMoveAnswer, type ContactOption } from "@/lib/answers";
import type { CrmCardAnswer, CrmColumnAnswer, Page } from "../../../../../schema/api-types";
import type { Placement } from "../lib/board";

/** Cards asked for per column and page. */
export const CARDS_PER_PAGE = 20;

/** Query keys of the CRM feature. */
export const crmKeys = {
  all: ["crm"] as const,
  board: () => [...crmKeys.all, "board"] as const,
  contactSearch: (search: string) => [...crmKeys.all, "contact-search", search] as const,
};

/** GET /api/crm/board?limit= → every column with its first page of cards. */
export const boardQuery = () =>
  queryOptions({
    queryKey: crmKeys.board(),
    queryFn: ({ signal }) => api.call("GET", "/crm/board", crmBoardAnswer, { query: { limit: CARDS_PER_PAGE }, signal }),
  });

/** GET /api/crm/columns/{id}/contacts?cursor= → the next page of a column's cards. */
export function fetchColumnCards(columnId: string, cursor: string): Promise<Page<CrmCardAnswer>> {
  return api.call("GET", `/crm/columns/${encodeURIComponent(columnId)}/contacts`, crmCardPage, { query: { cursor, limit: CARDS_PER_PAGE } });
}

/** A column's editable fields. */
export type ColumnInput = { name: string; color: string };

/** POST /api/crm/columns {name, color} → 201 the column (at the board's end; 409 beyond 50). */
export function createColumn(input: ColumnInput): Promise<CrmColumnAnswer> {
  return api.call("POST", "/crm/columns", crmColumnAnswer, { body: input });
}

/** PUT /api/crm/columns/{id} {name, color} → the column. */
export function updateColumn(id: string, input: ColumnInput): Promise<CrmColumnAnswer> {
  return api.call("PUT", `/crm/columns/${encodeURIComponent(id)}`, crmColumnAnswer, { body: input });
}

/** DELETE /api/crm/columns/{id} → 204; its contacts leave the board. */
export function deleteColumn(id: string): Promise<void> {
  return api.send("DELETE", `/crm/columns/${encodeURIComponent(id)}`);
}

/** PUT /api/crm/columns/order {ids: every column id in the new order} → the columns. */
export async function reorderColumns(ids: string[]): Promise<CrmColumnAnswer[]> {
  const page = await api.call("PUT", "/crm/columns/order", crmColumnPage, { body: { ids } });
  return page.results;
}

/**
 * PUT /api/crm/contacts/{contactId} {columnId, beforeId? | afterId?} → the card where it is now;
 * `null` as placement takes the contact off the board.
 */
export function moveContact(contactId: string, placement: Placement | null): Promise<{ contactId: string; card: CrmCardAnswer | null }> {
  return api.call("PUT", `/crm/contacts/${encodeURIComponent(contactId)}`, crmMoveAnswer, { body: placement ?? { columnId: null } });
}

/** GET /api/contacts?search=&limit= → contacts matching name, phone or e-mail (first 20). */
export const contactSearchQuery = (search: string) =>
  queryOptions({
    queryKey: crmKeys.contactSearch(search),
    queryFn: ({ signal }): Promise<{ results: ContactOption[]; total: number }> =>
      api.call("GET", "/contacts", contactOptionPage, { query: { search: search || undefined, limit: 20 }, signal }),
    staleTime: 15_000,
  });
