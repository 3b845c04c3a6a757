/**
 * The left pane of the internal chat: a search by conversation or member name, the member's
 * conversations (avatar, name, last message or who is typing, relative time, unread badge) loaded
 * page by page as the list scrolls, and the button that starts a new conversation. Live changes
 * arrive through the hub (hooks/use-live-internal-chats.ts).
 */
import { memo, useEffect, useMemo, useRef } from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { MessageSquarePlus, MessagesSquare, Search, Users } from "lucide-react";
import { Avatar } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { countText } from "@/lib/counts";
import { formatShortDate, formatTime, formatWeekday } from "@/lib/dates";
import { cn } from "@/lib/utils";
import { relativeDay } from "@/features/chats/lib/messages";
import type { InternalChatAnswer } from "../../../../../schema/validation/internal-chats";
import { internalChatListQuery } from "../api/internal-chats-api";
import { useTypingNames } from "../hooks/use-live-internal-chats";
import { chatTitle, flattenChats, othersOf } from "../lib/internal-chats";

/** The list time: clock time today, "Yesterday", weekday this week, else a short date. */
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

/** The shown name of a conversation ("Former member" for a direct one whose other member left). */
export function useChatTitle(): (chat: InternalChatAnswer, memberId: string | null) => string {
  const { t } = useLingui();
  return (chat, memberId) => chatTitle(chat, memberId) ?? t`Former member`;
}

const ChatItem = memo(function ChatItem({ chat, title, image, selected, time, onSelect }: { chat: InternalChatAnswer; title: string; image: string | null; selected: boolean; time: string; onSelect: (id: string) => void }) {
  const { t, i18n } = useLingui();
  const typing = useTypingNames(chat.id);
  const unread = chat.unreadCount;
  const typingLine = typing.length === 1 ? t`${typing[0]} is typing…` : typing.length > 1 ? t`Several people are typing…` : null;
  return (
    <li>
      <button
        type="button"
        onClick={() => onSelect(chat.id)}
        aria-current={selected ? "true" : undefined}
        data-testid="internal-chat-item"
        data-chat-id={chat.id}
        className={cn(
          "flex w-full items-center gap-3 border-l-2 border-transparent px-3 py-2.5 text-left outline-none transition-colors hover:bg-accent/60 focus-visible:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset",
          selected && "border-primary bg-accent",
        )}
      >
        {unread > 0 ? <span className="sr-only">{countText(i18n, "conversationUnread", unread, { name: title })}</span> : null}
        <span className="relative">
          <Avatar name={title} src={image} className="size-10" />
          {chat.kind === "group" ? (
            <span className="absolute -right-1 -bottom-1 rounded-full bg-background p-0.5" aria-hidden>
              <Users className="size-3 text-muted-foreground" />
            </span>
          ) : null}
        </span>
        <span className="min-w-0 flex-1">
          <span className="flex items-baseline gap-2">
            <span className={cn("min-w-0 flex-1 truncate text-sm", unread > 0 ? "font-semibold" : "font-medium")}>{title}</span>
            <span className={cn("shrink-0 text-[11px]", unread > 0 ? "font-medium text-primary" : "text-muted-foreground")}>{time}</span>
          </span>
          <span className="mt-0.5 flex items-center gap-2">
            <span className={cn("min-w-0 flex-1 truncate text-xs", typingLine ? "text-primary italic" : unread > 0 ? "text-foreground" : "text-muted-foreground")}>
              {typingLine ?? (chat.lastMessage?.preview || "\u00a0")}
            </span>
            {unread > 0 ? (
              <span className="flex h-5 min-w-5 shrink-0 items-center justify-center rounded-full bg-primary px-1.5 text-[11px] font-semibold text-primary-foreground" aria-hidden data-testid="internal-chat-unread">
                {unread > 99 ? "99+" : unread}
              </span>
            ) : null}
          </span>
        </span>
      </button>
    </li>
  );
});

/** Props of {@link ChatList}. */
export type ChatListProps = {
  search: string;
  searchText: string;
  onSearchText: (text: string) => void;
  memberId: string | null;
  selectedId: string | null;
  onSelect: (id: string) => void;
  onNew: () => void;
};

/** The conversations pane. */
export function ChatList({ search, searchText, onSearchText, memberId, selectedId, onSelect, onNew }: ChatListProps) {
  const { t } = useLingui();
  const query = useInfiniteQuery(internalChatListQuery(search));
  const chats = useMemo(() => flattenChats(query.data), [query.data]);
  const listTime = useListTime();
  const titleOf = useChatTitle();
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
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, chats.length]);

  return (
    <section className="flex h-full min-h-0 flex-col" aria-label={t`Internal conversations`}>
      <div className="grid gap-2 border-b p-3">
        <div className="flex items-center gap-2">
          <h1 className="flex-1 text-base font-semibold">{t`Internal chat`}</h1>
          <Button size="sm" onClick={onNew} data-testid="internal-chat-new">
            <MessageSquarePlus />
            {t`New`}
          </Button>
        </div>
        <div className="relative">
          <Search className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-muted-foreground" aria-hidden />
          <Input
            type="search"
            value={searchText}
            onChange={(event) => onSearchText(event.target.value)}
            placeholder={t`Search by name or group`}
            aria-label={t`Search by name or group`}
            maxLength={40}
            className="pl-8"
          />
        </div>
      </div>
      <div ref={scrollRef} className="min-h-0 flex-1 overflow-y-auto">
        {query.isPending ? (
          <div className="grid gap-1 p-3" aria-busy aria-label={t`Loading conversations`}>
            {Array.from({ length: 6 }, (_, index) => (
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
        ) : chats.length === 0 ? (
          <EmptyState
            icon={<MessagesSquare />}
            title={search ? t`No conversations match this search` : t`No internal conversations yet`}
            description={search ? t`Try another name.` : t`Start a conversation with a teammate or create a group.`}
            action={
              search ? null : (
                <Button variant="outline" size="sm" onClick={onNew}>
                  <MessageSquarePlus />
                  {t`New conversation`}
                </Button>
              )
            }
          />
        ) : (
          <>
            <ul aria-label={t`Internal conversations`}>
              {chats.map((chat) => (
                <ChatItem
                  key={chat.id}
                  chat={chat}
                  title={titleOf(chat, memberId)}
                  image={chat.kind === "direct" ? (othersOf(chat, memberId)[0]?.image ?? null) : null}
                  selected={chat.id === selectedId}
                  time={listTime(chat.lastMessage?.at ?? chat.activityAt)}
                  onSelect={onSelect}
                />
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
