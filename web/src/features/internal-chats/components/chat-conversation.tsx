/**
 * The right pane of the internal chat: the conversation's header (name, members or who is typing,
 * the group's settings), its messages oldest → newest with day separators, older pages loaded when
 * scrolled to the top (the scroller is anchored at the bottom), messages being sent (retry or
 * discard when a send fails), and the composer. Opening it marks the conversation read; messages
 * that arrive while it is open are marked read as they come (hooks/use-live-internal-chats.ts).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { ArrowDown, ArrowLeft, Clock3, RotateCw, Settings2, X } from "lucide-react";
import { Avatar } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";
import { ErrorState } from "@/components/ui/error-state";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { formatDate, formatTime, formatWeekday } from "@/lib/dates";
import { cn } from "@/lib/utils";
import { MessageContent } from "@/features/chats/components/message-content";
import { groupByDay, relativeDay } from "@/features/chats/lib/messages";
import type { MessageAnswer } from "../../../../../schema/realtime";
import type { InternalChatAnswer, InternalChatPage, InternalMessageAnswer, InternalMessagePage } from "../../../../../schema/validation/internal-chats";
import { internalChatKeys, internalMessagesQuery, markInternalChatRead, sendInternalMessage, sendInternalTyping, type InternalDraft } from "../api/internal-chats-api";
import { useTypingNames } from "../hooks/use-live-internal-chats";
import { chatRead, chatWithMessage, flattenMessages, mapChatPages, mediaKind, othersOf, withMessage, type Pages } from "../lib/internal-chats";
import { useChatTitle } from "./chat-list";
import { InternalComposer } from "./internal-composer";

/** A message on its way: shown faded until the worker's answer replaces it. */
type Pending = { key: string; draft: InternalDraft; at: number; failed: boolean };

/** An internal message in the shape the chat centre's MessageContent shows (text, image, audio, video, document). */
function asMessage(message: InternalMessageAnswer, own: boolean): MessageAnswer {
  return {
    id: message.id,
    ticketId: message.chatId,
    contactId: "",
    direction: own ? "out" : "in",
    type: message.media ? mediaKind(message.media.mime) : "text",
    body: message.body,
    payload: null,
    media: message.media,
    quoted: null,
    status: "sent",
    error: null,
    sentAt: message.createdAt,
    seq: message.seq,
    sender: { memberId: message.sender.memberId, name: message.sender.name },
    deleted: false,
    editedAt: null,
    forwarded: false,
    reactions: [],
    createdAt: message.createdAt,
  };
}

function DaySeparator({ at }: { at: number }) {
  const { t, i18n } = useLingui();
  const kind = relativeDay(at, Date.now());
  const label =
    kind === "today" ? t`Today` : kind === "yesterday" ? t`Yesterday` : kind === "week" ? formatWeekday(at, { locale: i18n.locale }) : formatDate(at, { locale: i18n.locale });
  return (
    <div className="sticky top-1 z-10 my-3 flex justify-center" role="separator" aria-label={label}>
      <span className="rounded-full border bg-background/90 px-3 py-0.5 text-xs font-medium text-muted-foreground shadow-xs backdrop-blur">{label}</span>
    </div>
  );
}

function Bubble({ message, own, showSender, time }: { message: InternalMessageAnswer; own: boolean; showSender: boolean; time: string }) {
  return (
    <div className={cn("flex", own ? "justify-end" : "justify-start")} data-message-id={message.id} data-testid="internal-message">
      <div className={cn("max-w-[85%] min-w-0 rounded-2xl px-3 py-2 text-sm shadow-xs sm:max-w-[70%]", own ? "rounded-br-sm bg-primary text-primary-foreground" : "rounded-bl-sm bg-muted text-foreground")}>
        {showSender ? <p className="mb-0.5 text-xs font-semibold text-primary">{message.sender.name}</p> : null}
        <MessageContent message={asMessage(message, own)} />
        <div className={cn("mt-1 flex justify-end text-[11px] leading-none", own ? "text-primary-foreground/80" : "text-muted-foreground")}>
          <time dateTime={new Date(message.createdAt).toISOString()}>{time}</time>
        </div>
      </div>
    </div>
  );
}

function PendingBubble({ pending, onRetry, onDiscard }: { pending: Pending; onRetry: () => void; onDiscard: () => void }) {
  const { t } = useLingui();
  return (
    <div className="flex justify-end" data-testid="internal-message-pending">
      <div className={cn("max-w-[85%] min-w-0 rounded-2xl rounded-br-sm bg-primary/70 px-3 py-2 text-sm text-primary-foreground shadow-xs sm:max-w-[70%]", pending.failed && "ring-2 ring-amber-500/60")}>
        {pending.draft.file ? <p className="text-xs font-medium">📎 {pending.draft.file.name}</p> : null}
        {pending.draft.body ? <p className="break-words whitespace-pre-wrap">{pending.draft.body}</p> : null}
        <div className="mt-1 flex items-center justify-end gap-1 text-[11px] text-primary-foreground/80">
          {pending.failed ? t`Not sent` : <Clock3 className="size-3.5" role="img" aria-label={t`Sending`} />}
        </div>
        {pending.failed ? (
          <div className="mt-1.5 flex justify-end gap-1">
            <Button size="sm" variant="secondary" className="h-7" onClick={onRetry}>
              <RotateCw />
              {t`Retry`}
            </Button>
            <Button size="sm" variant="ghost" className="h-7 text-primary-foreground hover:text-foreground" onClick={onDiscard} aria-label={t`Discard message`}>
              <X />
            </Button>
          </div>
        ) : null}
      </div>
    </div>
  );
}

/** Props of {@link ChatConversation}. */
export type ChatConversationProps = {
  chat: InternalChatAnswer;
  memberId: string | null;
  onBack: () => void;
  onSettings: () => void;
};

/** One internal conversation. */
export function ChatConversation({ chat, memberId, onBack, onSettings }: ChatConversationProps) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const titleOf = useChatTitle();
  const title = titleOf(chat, memberId);
  const others = useMemo(() => othersOf(chat, memberId), [chat, memberId]);
  const typing = useTypingNames(chat.id);
  const query = useInfiniteQuery(internalMessagesQuery(chat.id));
  const messages = useMemo(() => flattenMessages(query.data), [query.data]);
  const groups = useMemo(() => groupByDay(messages.map((m) => ({ ...m, sentAt: m.createdAt }))), [messages]);
  const [pending, setPending] = useState<Pending[]>([]);
  const scrollerRef = useRef<HTMLDivElement>(null);
  const topRef = useRef<HTMLDivElement>(null);
  const [awayFromBottom, setAwayFromBottom] = useState(false);

  useEffect(() => setPending([]), [chat.id]);

  // Opening the conversation (and every new message seen here) reads it.
  const unread = chat.unreadCount;
  useEffect(() => {
    if (unread === 0) return;
    void markInternalChatRead(chat.id)
      .then((answer) => {
        for (const [key, data] of queryClient.getQueriesData<Pages<InternalChatPage>>({ queryKey: internalChatKeys.lists() })) {
          if (data) queryClient.setQueryData(key, mapChatPages(data, chat.id, (c) => chatRead(c, answer.lastReadSeq)));
        }
        queryClient.setQueryData<InternalChatAnswer>(internalChatKeys.detail(chat.id), (c) => (c ? chatRead(c, answer.lastReadSeq) : c));
      })
      .catch(() => undefined);
  }, [chat.id, unread, queryClient]);

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  useEffect(() => {
    const el = topRef.current;
    const root = scrollerRef.current;
    if (!el || !root || !hasNextPage) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && !isFetchingNextPage && void fetchNextPage(), { root, rootMargin: "200px 0px 0px 0px" });
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, messages.length]);

  const deliver = useCallback(
    (entry: Pending) => {
      sendInternalMessage(chat.id, entry.draft)
        .then((message) => {
          queryClient.setQueryData<Pages<InternalMessagePage>>(internalChatKeys.messages(chat.id), (data) => (data ? withMessage(data, message) : data));
          for (const [key, data] of queryClient.getQueriesData<Pages<InternalChatPage>>({ queryKey: internalChatKeys.lists() })) {
            if (data) queryClient.setQueryData(key, mapChatPages(data, chat.id, (c) => chatWithMessage(c, message, memberId, true)));
          }
          setPending((list) => list.filter((p) => p.key !== entry.key));
        })
        .catch(() => setPending((list) => list.map((p) => (p.key === entry.key ? { ...p, failed: true } : p))));
    },
    [chat.id, memberId, queryClient],
  );

  const onSend = useCallback(
    (draft: InternalDraft) => {
      const entry: Pending = { key: crypto.randomUUID(), draft, at: Date.now(), failed: false };
      setPending((list) => [...list, entry]);
      deliver(entry);
      requestAnimationFrame(() => scrollerRef.current?.scrollTo({ top: 0 }));
    },
    [deliver],
  );

  const retry = (entry: Pending) => {
    const again = { ...entry, failed: false };
    setPending((list) => list.map((p) => (p.key === entry.key ? again : p)));
    deliver(again);
  };

  const onTyping = useCallback((state: "typing" | "paused") => sendInternalTyping(chat.id, state), [chat.id]);

  const subtitle =
    typing.length === 1
      ? t`${typing[0]} is typing…`
      : typing.length > 1
        ? t`Several people are typing…`
        : chat.kind === "group"
          ? chat.members.map((m) => m.name).join(", ")
          : others.length === 0
            ? t`No longer in the company`
            : t`Direct conversation`;

  return (
    <section className="flex h-full min-w-0 flex-1 flex-col" aria-label={t`Conversation with ${title}`} data-testid="internal-conversation">
      <header className="flex shrink-0 items-center gap-2 border-b px-2 py-2 sm:px-3">
        <Button variant="ghost" size="icon" className="md:hidden" onClick={onBack} aria-label={t`Back to conversations`}>
          <ArrowLeft />
        </Button>
        <Avatar name={title} src={chat.kind === "direct" ? (others[0]?.image ?? null) : null} className="size-9 shrink-0" />
        <span className="min-w-0 flex-1">
          <span className="block truncate font-semibold" data-testid="internal-conversation-title">{title}</span>
          <span className={cn("block truncate text-xs", typing.length ? "text-primary" : "text-muted-foreground")} aria-live="polite">
            {subtitle}
          </span>
        </span>
        {chat.kind === "group" ? (
          <Button variant="ghost" size="icon" onClick={onSettings} aria-label={t`Group settings`} data-testid="internal-group-settings">
            <Settings2 />
          </Button>
        ) : null}
      </header>

      <div className="relative min-h-0 flex-1">
        <div
          ref={scrollerRef}
          className="flex h-full flex-col-reverse overflow-y-auto overscroll-contain bg-muted/30"
          onScroll={(event) => setAwayFromBottom(Math.abs(event.currentTarget.scrollTop) > 240)}
        >
          {query.isPending ? (
            <div className="grid gap-3 p-4" aria-hidden>
              {[60, 40, 70, 30].map((width, index) => (
                <div key={index} className={cn("flex", index % 2 ? "justify-end" : "justify-start")}>
                  <Skeleton className="h-12 rounded-2xl" style={{ width: `${width}%` }} />
                </div>
              ))}
            </div>
          ) : query.isError ? (
            <ErrorState title={t`Could not load the messages.`} onRetry={() => void query.refetch()} />
          ) : (
            <div className="px-3 py-2 sm:px-4" role="log" aria-label={t`Messages`} aria-live="polite" aria-relevant="additions">
              <div ref={topRef} className="flex min-h-8 items-center justify-center py-2">
                {isFetchingNextPage ? <Spinner label={t`Loading older messages`} /> : !hasNextPage && messages.length > 0 ? <p className="text-xs text-muted-foreground">{t`Start of the conversation`}</p> : null}
              </div>
              {messages.length === 0 && pending.length === 0 ? <p className="py-10 text-center text-sm text-muted-foreground">{t`No messages yet. Say hello!`}</p> : null}
              {groups.map((group) => (
                <div key={group.day} className="grid gap-1.5">
                  <DaySeparator at={group.at} />
                  {group.messages.map((message, index) => {
                    const own = message.sender.memberId === memberId;
                    const previous = group.messages[index - 1];
                    const showSender = !own && chat.kind === "group" && previous?.sender.memberId !== message.sender.memberId;
                    return <Bubble key={message.id} message={message} own={own} showSender={showSender} time={formatTime(message.createdAt, { locale: i18n.locale })} />;
                  })}
                </div>
              ))}
              {pending.length ? (
                <div className="mt-1.5 grid gap-1.5">
                  {pending.map((entry) => (
                    <PendingBubble key={entry.key} pending={entry} onRetry={() => retry(entry)} onDiscard={() => setPending((list) => list.filter((p) => p.key !== entry.key))} />
                  ))}
                </div>
              ) : null}
              {typing.length ? (
                <div className="mt-2 flex" aria-hidden data-testid="internal-typing">
                  <span className="flex items-center gap-1.5 rounded-2xl rounded-bl-sm bg-muted px-3 py-2 text-xs text-muted-foreground">
                    <span className="flex gap-0.5">
                      <span className="size-1.5 animate-bounce rounded-full bg-current [animation-delay:-0.3s]" />
                      <span className="size-1.5 animate-bounce rounded-full bg-current [animation-delay:-0.15s]" />
                      <span className="size-1.5 animate-bounce rounded-full bg-current" />
                    </span>
                  </span>
                </div>
              ) : null}
            </div>
          )}
        </div>
        {awayFromBottom ? (
          <Button size="icon" variant="secondary" className="absolute right-4 bottom-4 rounded-full shadow-md" onClick={() => scrollerRef.current?.scrollTo({ top: 0, behavior: "smooth" })} aria-label={t`Go to the latest messages`}>
            <ArrowDown />
          </Button>
        ) : null}
      </div>

      <InternalComposer key={chat.id} chatId={chat.id} members={others} onSend={onSend} onTyping={onTyping} />
    </section>
  );
}
