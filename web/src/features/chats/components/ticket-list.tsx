/**
 * The left pane: the chat list with the type filter (all, chats, unread, groups, assigned to me),
 * the status filter (all, open, pending), a debounced search by name or phone, and the tickets —
 * avatar, name, last message preview, relative time, unread badge — loaded page by page as the
 * list scrolls. Live changes arrive through the hub (hooks/use-live-tickets.ts).
 */
import { memo, useEffect, useMemo, useRef } from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { countText } from "@/lib/counts";
import { ListFilter, MessagesSquare, MoonStar, Search, Users } from "lucide-react";
import { Avatar } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuLabel, DropdownMenuRadioGroup, DropdownMenuRadioItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/lib/utils";
import type { TicketAnswer } from "../../../../../schema/realtime";
import { ticketListQuery } from "../api/chats-api";
import { relativeDay } from "../lib/messages";
import { flattenTickets, type TicketFilters, type TicketStatusFilter, type TicketTypeFilter } from "../lib/ticket-list";
import { StatusBadge } from "./status-badge";
import { formatShortDate, formatTime, formatWeekday } from "@/lib/dates";

/** The list time of a ticket: clock time today, "Yesterday", weekday this week, else a short date. */
function useListTime(): (at: number) => string {
  const { t, i18n } = useLingui();
  return useMemo(() => {
    const locale = i18n.locale;
    return (at: number) => {
      const kind = relativeDay(at, Date.now());
      if (kind === "today") return formatTime(at, { locale });
      if (kind === "yesterday") return t`Yesterday`;
      if (kind === "week") return formatWeekday(at, { locale, width: "short" });
      return formatShortDate(at, { locale });
    };
  }, [i18n.locale, t]);
}

const TicketItem = memo(function TicketItem({ ticket, selected, time, onSelect }: { ticket: TicketAnswer; selected: boolean; time: string; onSelect: (id: string) => void }) {
  const { t, i18n } = useLingui();
  const unread = ticket.unreadCount;
  return (
    <li>
      <button
        type="button"
        onClick={() => onSelect(ticket.id)}
        aria-current={selected ? "true" : undefined}
        data-testid="ticket-item"
        data-ticket-id={ticket.id}
        className={cn(
          "flex w-full items-center gap-3 border-l-2 border-transparent px-3 py-2.5 text-left outline-none transition-colors hover:bg-accent/60 focus-visible:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset",
          selected && "border-primary bg-accent",
        )}
      >
        {/* The name is the visible text (axe: label-content-name-mismatch); the unread count is read first. */}
        {unread > 0 ? <span className="sr-only">{countText(i18n, "conversationUnread", unread, { name: ticket.contact.name })}</span> : null}
        <span className="relative">
          <Avatar name={ticket.contact.name} src={ticket.contact.image} className="size-10" />
          {ticket.isGroup ? (
            <span className="absolute -right-1 -bottom-1 rounded-full bg-background p-0.5" aria-hidden>
              <Users className="size-3 text-muted-foreground" />
            </span>
          ) : null}
        </span>
        <span className="min-w-0 flex-1">
          <span className="flex items-baseline gap-2">
            <span className={cn("min-w-0 flex-1 truncate text-sm", unread > 0 ? "font-semibold" : "font-medium")}>{ticket.contact.name}</span>
            <span className={cn("shrink-0 text-[11px]", unread > 0 ? "font-medium text-primary" : "text-muted-foreground")}>{time}</span>
          </span>
          <span className="mt-0.5 flex items-center gap-2">
            <span className={cn("min-w-0 flex-1 truncate text-xs", unread > 0 ? "text-foreground" : "text-muted-foreground")}>{ticket.lastMessagePreview || "\u00a0"}</span>
            {ticket.status !== "open" ? <StatusBadge status={ticket.status} /> : null}
            {ticket.outsideHoursAt !== null ? (
              // Arrived outside operating hours (issue 12).
              <span data-testid="outside-hours-badge" title={t`Arrived outside operating hours`} className="flex shrink-0 items-center gap-0.5 rounded-full border px-1.5 py-px text-[10px] text-muted-foreground">
                <MoonStar className="size-3" aria-hidden />
                {t`Outside hours`}
              </span>
            ) : null}
            {unread > 0 ? (
              <span className="flex h-5 min-w-5 shrink-0 items-center justify-center rounded-full bg-primary px-1.5 text-[11px] font-semibold text-primary-foreground" aria-hidden>
                {unread > 99 ? "99+" : unread}
              </span>
            ) : null}
          </span>
          {ticket.assignedMemberName ? <span className="mt-0.5 block truncate text-[11px] text-muted-foreground">{ticket.assignedMemberName}</span> : null}
        </span>
      </button>
    </li>
  );
});

/** Props of {@link TicketList}. */
export type TicketListProps = {
  filters: TicketFilters;
  searchText: string;
  onSearchText: (text: string) => void;
  onType: (type: TicketTypeFilter) => void;
  onStatus: (status: TicketStatusFilter) => void;
  canSeeGroups: boolean;
  selectedId: string | null;
  onSelect: (id: string) => void;
};

/** The chat list pane. */
export function TicketList({ filters, searchText, onSearchText, onType, onStatus, canSeeGroups, selectedId, onSelect }: TicketListProps) {
  const { t } = useLingui();
  const query = useInfiniteQuery(ticketListQuery(filters));
  const tickets = useMemo(() => flattenTickets(query.data), [query.data]);
  const listTime = useListTime();
  const endRef = useRef<HTMLDivElement>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;

  useEffect(() => {
    const el = endRef.current;
    if (!el || !hasNextPage) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { root: scrollRef.current, rootMargin: "0px 0px 300px 0px" },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, tickets.length]);

  const types: { value: TicketTypeFilter; label: string }[] = [
    { value: "all", label: t`All` },
    { value: "chats", label: t`Chats` },
    { value: "unread", label: t`Unread` },
    ...(canSeeGroups ? [{ value: "groups" as const, label: t`Groups` }] : []),
    { value: "mine", label: t`Assigned to me` },
  ];
  const statuses: { value: TicketStatusFilter; label: string }[] = [
    { value: "all", label: t`All` },
    { value: "open", label: t`Open` },
    { value: "pending", label: t`Pending` },
  ];
  const typeLabel = types.find((o) => o.value === filters.type)?.label ?? "";
  const filtered = filters.type !== "all" || filters.status !== "all" || filters.search !== "";

  return (
    <section className="flex h-full min-h-0 flex-col" aria-label={t`Conversations`}>
      <div className="grid gap-2 border-b p-3">
        <div className="flex items-center gap-2">
          <h1 className="flex-1 text-base font-semibold">{t`Chats`}</h1>
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button variant="outline" size="sm" aria-label={t`Type filter: ${typeLabel}`}>
                <ListFilter />
                {typeLabel}
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent>
              <DropdownMenuLabel>{t`Show`}</DropdownMenuLabel>
              <DropdownMenuRadioGroup value={filters.type} onValueChange={(value) => onType(types.find((o) => o.value === value)?.value ?? "all")}>
                {types.map((option) => (
                  <DropdownMenuRadioItem key={option.value} value={option.value}>
                    {option.label}
                  </DropdownMenuRadioItem>
                ))}
              </DropdownMenuRadioGroup>
            </DropdownMenuContent>
          </DropdownMenu>
        </div>
        <div className="relative">
          <Search className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-muted-foreground" aria-hidden />
          <Input
            type="search"
            value={searchText}
            onChange={(event) => onSearchText(event.target.value)}
            placeholder={t`Search by name or phone`}
            aria-label={t`Search by name or phone`}
            maxLength={40}
            className="pl-8"
          />
        </div>
        <div role="radiogroup" aria-label={t`Status`} className="grid grid-cols-3 gap-1 rounded-md bg-muted p-1">
          {statuses.map((option) => (
            <button
              key={option.value}
              type="button"
              role="radio"
              aria-checked={filters.status === option.value}
              onClick={() => onStatus(option.value)}
              className={cn(
                "rounded px-2 py-1 text-xs font-medium text-muted-foreground outline-none transition-colors focus-visible:ring-2 focus-visible:ring-ring",
                filters.status === option.value && "bg-background text-foreground shadow-xs",
              )}
            >
              {option.label}
            </button>
          ))}
        </div>
      </div>
      <div ref={scrollRef} className="min-h-0 flex-1 overflow-y-auto">
        {query.isPending ? (
          <div className="grid gap-1 p-3" aria-busy aria-label={t`Loading conversations`}>
            {Array.from({ length: 8 }, (_, index) => (
              <div key={index} className="flex items-center gap-3 py-1.5">
                <Skeleton className="size-10 rounded-full" />
                <div className="grid flex-1 gap-1.5">
                  <Skeleton className="h-3.5 w-2/3" />
                  <Skeleton className="h-3 w-full" />
                </div>
              </div>
            ))}
          </div>
        ) : query.isError ? (
          <ErrorState title={t`Could not load the conversations.`} onRetry={() => void query.refetch()} />
        ) : tickets.length === 0 ? (
          <EmptyState
            icon={<MessagesSquare />}
            title={filtered ? t`No conversations match these filters` : t`No conversations yet`}
            description={filtered ? t`Change the filters or the search to see more.` : t`When a customer writes to one of your connections, the conversation appears here.`}
          />
        ) : (
          <>
            <ul aria-label={t`Conversations`}>
              {tickets.map((ticket) => (
                <TicketItem key={ticket.id} ticket={ticket} selected={ticket.id === selectedId} time={listTime(ticket.lastMessageAt)} onSelect={onSelect} />
              ))}
            </ul>
            <div ref={endRef} className="flex justify-center py-3">
              {isFetchingNextPage ? <Spinner label={t`Loading more conversations`} /> : null}
            </div>
          </>
        )}
      </div>
    </section>
  );
}
