/**
 * Keeps every loaded chat list, ticket and conversation of the chat centre live from the company
 * hub (lib/realtime.ts): `ticket.updated` moves the ticket in or out of each list according to that
 * list's filters, `message.created` bumps it and joins the open conversation, `message.updated`
 * replaces the message (statuses). A hub `reset` (the tab was too far behind) refetches everything.
 */
import { useCallback } from "react";
import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useHubEvents } from "@/lib/realtime";
import { messageAnswer, ticketAnswer } from "@/lib/answers";
import type { HubEvent, MessageAnswer, TicketAnswer } from "../../../../../schema/realtime";
import { chatKeys } from "../api/chats-api";
import { bumpTicket, upsertTicket, type TicketFilters, type TicketPages, type TicketViewer } from "../lib/ticket-list";
import { previewOf, upsertMessage, type MessagePages } from "../lib/messages";

const TYPES: readonly string[] = ["all", "chats", "unread", "groups", "mine"];
const STATUSES: readonly string[] = ["all", "open", "pending"];

/** Narrows the filters part of a list query key. */
function isTicketFilters(value: unknown): value is TicketFilters {
  return (
    typeof value === "object" &&
    value !== null &&
    "type" in value &&
    "status" in value &&
    "search" in value &&
    typeof value.type === "string" &&
    TYPES.includes(value.type) &&
    typeof value.status === "string" &&
    STATUSES.includes(value.status) &&
    typeof value.search === "string"
  );
}

/** The highest version of each ticket `applyTicket` applied, per query client (issue 16). */
const appliedVersions = new WeakMap<QueryClient, Map<string, number>>();

/**
 * Applies a changed ticket (a hub `ticket.updated` or an action's answer) to every cached list and
 * to its detail. An entry older (a lower `version`) than one applied before, or than the one a list
 * or the detail holds, is dropped: two writers publish the same ticket's entry to the hub
 * concurrently, so the older can arrive last (issue 16), and a list the ticket left must not take
 * it back on its older entry.
 */
export function applyTicket(queryClient: QueryClient, ticket: TicketAnswer, viewer: TicketViewer): void {
  let versions = appliedVersions.get(queryClient);
  if (!versions) appliedVersions.set(queryClient, (versions = new Map()));
  if ((versions.get(ticket.id) ?? -1) > ticket.version) return;
  versions.set(ticket.id, ticket.version);
  queryClient.setQueryData<TicketAnswer>(chatKeys.detail(ticket.id), (current) => {
    if (current && current.version > ticket.version) return current;
    return current && current.lastMessageAt > ticket.lastMessageAt ? { ...ticket, lastMessageAt: current.lastMessageAt } : ticket;
  });
  for (const [key, data] of queryClient.getQueriesData<TicketPages>({ queryKey: chatKeys.lists() })) {
    const filters = key[2];
    if (!data || !isTicketFilters(filters)) continue;
    const outcome = upsertTicket(data, ticket, filters, viewer);
    if (outcome.unknown) void queryClient.invalidateQueries({ queryKey: key, exact: true });
    else if (outcome.changed) queryClient.setQueryData(key, outcome.data);
  }
}

/** Applies a created or updated message to the ticket's loaded conversation (and bumps the lists). */
export function applyMessage(queryClient: QueryClient, message: MessageAnswer, created: boolean): void {
  queryClient.setQueryData<MessagePages>(chatKeys.messages(message.ticketId), (data) => (data ? upsertMessage(data, message) : data));
  if (!created) return;
  for (const [key, data] of queryClient.getQueriesData<TicketPages>({ queryKey: chatKeys.lists() })) {
    if (data) queryClient.setQueryData(key, bumpTicket(data, message, previewOf(message)));
  }
}

/** Subscribes the chat centre to the hub while mounted. */
export function useLiveTickets(viewer: TicketViewer): void {
  const queryClient = useQueryClient();
  const onEvent = useCallback(
    (event: HubEvent) => {
      if (event.type === "ticket.updated") {
        const ticket = ticketAnswer.safeParse(event.ticket);
        if (ticket.success) applyTicket(queryClient, ticket.data, viewer);
      } else if (event.type === "message.created" || event.type === "message.updated") {
        const message = messageAnswer.safeParse(event.message);
        if (message.success) applyMessage(queryClient, message.data, event.type === "message.created");
      }
    },
    [queryClient, viewer],
  );
  const onReset = useCallback(() => void queryClient.invalidateQueries({ queryKey: chatKeys.all }), [queryClient]);
  useHubEvents(onEvent, onReset);
}
