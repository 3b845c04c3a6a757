/**
 * The chat centre's calls (worker/routes/tickets.ts, worker/routes/members.ts): the ticket list,
 * one ticket, its messages, sending (JSON text or multipart file, with an idempotency key), the
 * ticket actions (open, transfer, close, read) and the members a ticket can be transferred to.
 */
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/session";
import { isApiError } from "@/lib/api";
import { memberList, messageAnswer, messagePage, ticketAnswer, ticketPage } from "@/lib/answers";
import type { MessageAnswer, TicketAnswer } from "../../../../../schema/realtime";
import type { MemberAnswer } from "../../../../../schema/api-types";
import type { Draft } from "../lib/messages";
import type { TicketFilters } from "../lib/ticket-list";

/** Query keys of the chat centre. Lists carry their filters, so live updates can match them. */
export const chatKeys = {
  all: ["tickets"] as const,
  lists: () => [...chatKeys.all, "list"] as const,
  list: (filters: TicketFilters) => [...chatKeys.lists(), filters] as const,
  detail: (id: string) => [...chatKeys.all, "detail", id] as const,
  messages: (id: string) => [...chatKeys.all, "messages", id] as const,
  members: () => ["members", "transfer"] as const,
};

/** Tickets per page of the list. */
export const TICKET_PAGE_SIZE = 30;

/** GET /api/tickets with the list's filters, paged by cursor (newest activity first). */
export const ticketListQuery = (filters: TicketFilters) =>
  infiniteQueryOptions({
    queryKey: chatKeys.list(filters),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      api.call("GET", "/tickets", ticketPage, {
        query: { status: filters.status, type: filters.type, search: filters.search || undefined, cursor: pageParam ?? undefined, limit: TICKET_PAGE_SIZE },
        signal,
      }),
    getNextPageParam: (last) => last.cursor,
  });

/** GET /api/tickets/{id}. */
export const ticketQuery = (id: string) =>
  queryOptions({
    queryKey: chatKeys.detail(id),
    queryFn: ({ signal }) => api.call("GET", `/tickets/${encodeURIComponent(id)}`, ticketAnswer, { signal }),
    retry: (count, error) => !(isApiError(error) && error.status === 404) && count < 2,
  });

/** GET /api/tickets/{id}/messages, newest page first; each next page is older. */
export const messagesQuery = (id: string) =>
  infiniteQueryOptions({
    queryKey: chatKeys.messages(id),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      api.call("GET", `/tickets/${encodeURIComponent(id)}/messages`, messagePage, { query: { cursor: pageParam ?? undefined }, signal }),
    getNextPageParam: (last) => last.cursor,
  });

/**
 * POST /api/tickets/{id}/messages: text as JSON, a file as multipart; both with the idempotency
 * key, so a retried request answers the first message instead of sending twice.
 */
export function sendMessage(ticketId: string, draft: Draft, idempotencyKey: string): Promise<MessageAnswer> {
  const path = `/tickets/${encodeURIComponent(ticketId)}/messages`;
  if (draft.kind === "text") {
    return api.call("POST", path, messageAnswer, { body: { type: "text", body: draft.body, quotedId: draft.quotedId, idempotencyKey } });
  }
  const form = new FormData();
  form.set("file", draft.file, draft.file.name);
  if (draft.body) form.set("body", draft.body);
  if (draft.type) form.set("type", draft.type);
  if (draft.quotedId) form.set("quotedId", draft.quotedId);
  form.set("idempotencyKey", idempotencyKey);
  return api.call("POST", path, messageAnswer, { form });
}

/** The ticket actions of spec §4: open (accept), close, mark read. */
export function ticketAction(ticketId: string, action: "open" | "close" | "read"): Promise<TicketAnswer> {
  return api.call("POST", `/tickets/${encodeURIComponent(ticketId)}/${action}`, ticketAnswer);
}

/** POST /api/tickets/{id}/transfer {memberId}. */
export function transferTicket(ticketId: string, memberId: string): Promise<TicketAnswer> {
  return api.call("POST", `/tickets/${encodeURIComponent(ticketId)}/transfer`, ticketAnswer, { body: { memberId } });
}

/**
 * Members a ticket can go to: the online ones (GET /api/companies/members/active, open to every
 * member); `all` (GET /api/companies/members, needs settings_members) when asked and allowed.
 */
export const transferMembersQuery = (all: boolean) =>
  queryOptions({
    queryKey: [...chatKeys.members(), all ? "all" : "online"] as const,
    queryFn: ({ signal }): Promise<MemberAnswer[]> =>
      api.call("GET", all ? "/companies/members" : "/companies/members/active", memberList, { signal }),
    staleTime: 30_000,
  });
