/**
 * /chats: the chat centre (spec §2 Chats). The list on the left, the selected ticket's conversation
 * in the centre (the URL keeps the selection: /chats?ticket=<id>) and the contact panel on the
 * right. On narrow screens the list and the conversation are separate views, and the contact panel
 * slides over.
 */
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { MessageSquareDashed, SearchX } from "lucide-react";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "@/components/ui/sheet";
import { Skeleton } from "@/components/ui/skeleton";
import { isApiError } from "@/lib/api";
import { cn } from "@/lib/utils";
import { useDocumentTop } from "@/lib/use-document-top";
import { useMe } from "@/features/session/hooks/use-session";
import type { TicketAnswer } from "../../../../../schema/realtime";
import { chatKeys, ticketQuery } from "../api/chats-api";
import { useLiveTickets } from "../hooks/use-live-tickets";
import { useChatViewer } from "../hooks/use-viewer";
import { flattenTickets, type TicketFilters, type TicketPages, type TicketStatusFilter, type TicketTypeFilter } from "../lib/ticket-list";
import { TicketList } from "./ticket-list";

// The open conversation and the contact panel load with the first conversation opened, not with
// the list (the first screen; issue 9: /chats ≤ 250 KiB gzip JS): they bring the message views,
// the composer and the phone formatter (libphonenumber-js).
const ConversationView = lazy(() => import("./conversation-view").then((module) => ({ default: module.ConversationView })));
const ContactPanel = lazy(() => import("./contact-panel").then((module) => ({ default: module.ContactPanel })));

/** Windows at least this wide show the contact panel beside the conversation from the start. */
const WIDE_PANEL_QUERY = "(min-width: 96rem)";

/** Search waits this long after the last key (ms). */
const SEARCH_DEBOUNCE_MS = 300;

function useDebounced<T>(value: T, delay: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}

/** The ticket from any loaded list, to show at once while its own query loads. */
function useTicketFromLists(id: string | null): () => TicketAnswer | undefined {
  const queryClient = useQueryClient();
  return useCallback(() => {
    if (!id) return undefined;
    for (const [, data] of queryClient.getQueriesData<TicketPages>({ queryKey: chatKeys.lists() })) {
      const found = flattenTickets(data).find((t) => t.id === id);
      if (found) return found;
    }
    return undefined;
  }, [id, queryClient]);
}

function ConversationSkeleton() {
  return (
    <div className="flex h-full flex-1 flex-col" aria-hidden>
      <div className="flex items-center gap-3 border-b p-3">
        <Skeleton className="size-9 rounded-full" />
        <div className="grid flex-1 gap-1.5">
          <Skeleton className="h-4 w-40" />
          <Skeleton className="h-3 w-24" />
        </div>
      </div>
      <div className="flex-1" />
    </div>
  );
}

/** The chat centre screen. */
export function ChatsPage() {
  const { t } = useLingui();
  const me = useMe();
  const viewer = useChatViewer();
  useLiveTickets(viewer);
  const [params, setParams] = useSearchParams();
  const selectedId = params.get("ticket");
  const [type, setType] = useState<TicketTypeFilter>("all");
  const [status, setStatus] = useState<TicketStatusFilter>("all");
  const [searchText, setSearchText] = useState("");
  const search = useDebounced(searchText.trim(), SEARCH_DEBOUNCE_MS);
  const filters: TicketFilters = { type, status, search };
  // The side panel starts open only where the conversation keeps room for its header (≥ 96rem).
  const [contactOpen, setContactOpen] = useState(() => typeof window !== "undefined" && window.matchMedia(WIDE_PANEL_QUERY).matches);
  const [contactSheet, setContactSheet] = useState(false);

  const fromLists = useTicketFromLists(selectedId);
  const ticket = useQuery({ ...ticketQuery(selectedId ?? ""), enabled: selectedId !== null, initialData: fromLists, initialDataUpdatedAt: 0 });

  const select = useCallback(
    (id: string | null) => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (id) next.set("ticket", id);
          else next.delete("ticket");
          return next;
        },
        { replace: false },
      );
    },
    [setParams],
  );

  const toggleContact = () => {
    if (window.matchMedia("(min-width: 80rem)").matches) setContactOpen((v) => !v);
    else setContactSheet(true);
  };

  const rootRef = useRef<HTMLDivElement>(null);
  const top = useDocumentTop(rootRef);

  const notFound = ticket.isError && isApiError(ticket.error) && ticket.error.status === 404;

  return (
    <div
      ref={rootRef}
      style={top === null ? undefined : { height: `calc(100dvh - ${top}px - var(--chats-bottom))` }}
      className="-mx-4 -my-4 flex h-[calc(100dvh-3.5rem)] min-h-[24rem] overflow-hidden border-y bg-background [--chats-bottom:0px] sm:mx-0 sm:my-0 sm:h-[calc(100dvh-6.5rem)] sm:rounded-xl sm:border sm:[--chats-bottom:1.5rem]"
      data-testid="chats-screen"
    >
      <div className={cn("w-full min-w-0 shrink-0 border-r md:flex md:w-72 xl:w-80 2xl:w-96", selectedId ? "hidden" : "flex", "flex-col")}>
        <TicketList
          filters={filters}
          searchText={searchText}
          onSearchText={setSearchText}
          onType={setType}
          onStatus={setStatus}
          canSeeGroups={viewer.groups}
          selectedId={selectedId}
          onSelect={select}
        />
      </div>
      <div className={cn("min-w-0 flex-1", selectedId ? "flex" : "hidden md:flex")}>
        {!selectedId ? (
          <EmptyState
            className="flex-1"
            icon={<MessageSquareDashed />}
            title={t`No conversation selected`}
            description={t`Choose a conversation from the list to read and answer it.`}
          />
        ) : ticket.data ? (
          <Suspense fallback={<ConversationSkeleton />}>
            <ConversationView
              ticket={ticket.data}
              viewer={viewer}
              senderName={me.data?.name ?? null}
              onBack={() => select(null)}
              onGone={() => select(null)}
              onToggleContact={toggleContact}
            />
            {contactOpen ? (
              <div className="hidden w-72 shrink-0 border-l xl:flex" data-testid="contact-panel">
                <ContactPanel ticket={ticket.data} onClose={() => setContactOpen(false)} />
              </div>
            ) : null}
            <Sheet open={contactSheet} onOpenChange={setContactSheet}>
              <SheetContent side="right" className="w-80">
                <SheetTitle className="sr-only">{t`Contact details`}</SheetTitle>
                <SheetDescription className="sr-only">{ticket.data.contact.name}</SheetDescription>
                <ContactPanel ticket={ticket.data} onClose={() => setContactSheet(false)} />
              </SheetContent>
            </Sheet>
          </Suspense>
        ) : notFound ? (
          <EmptyState
            className="flex-1"
            icon={<SearchX />}
            title={t`This conversation is not available`}
            description={t`It may have been transferred to another member, or you may not have access to it.`}
            action={
              <Button variant="outline" size="sm" onClick={() => select(null)}>
                {t`Back to conversations`}
              </Button>
            }
          />
        ) : ticket.isError ? (
          <ErrorState className="flex-1 self-center" title={t`Could not load this conversation.`} onRetry={() => void ticket.refetch()} />
        ) : (
          <ConversationSkeleton />
        )}
      </div>
    </div>
  );
}
