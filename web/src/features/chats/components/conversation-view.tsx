/**
 * The centre pane: the open ticket's header (contact, status, assignee, actions), its messages
 * oldest → newest with day separators and older pages loaded when scrolled to the top (the position
 * is kept: the scroller is anchored at the bottom), the contact's typing indicator, and the composer.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useLingui } from "@lingui/react/macro";
import { ArrowDown, ArrowLeft, Megaphone, PanelRightOpen } from "lucide-react";
import { Avatar } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";
import { ErrorState } from "@/components/ui/error-state";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/lib/utils";
import type { MessageAnswer, TicketAnswer } from "../../../../../schema/realtime";
import { useConversation } from "../hooks/use-conversation";
import { groupByDay, relativeDay, type ChatMessage } from "../lib/messages";
import type { TicketViewer } from "../lib/ticket-list";
import { Composer } from "./composer";
import { MessageBubble } from "./message-bubble";
import { StatusBadge } from "./status-badge";
import { TicketActions } from "./ticket-actions";
import { formatPhone } from "@/lib/phone";
import { formatDate, formatTime, formatWeekday } from "@/lib/dates";

/** Props of {@link ConversationView}. */
export type ConversationViewProps = {
  ticket: TicketAnswer;
  viewer: TicketViewer & { userId: string | null; canManageMembers: boolean };
  senderName: string | null;
  onBack: () => void;
  onGone: () => void;
  onToggleContact: () => void;
};

function DaySeparator({ at }: { at: number }) {
  const { t, i18n } = useLingui();
  const kind = relativeDay(at, Date.now());
  const label =
    kind === "today"
      ? t`Today`
      : kind === "yesterday"
        ? t`Yesterday`
        : kind === "week"
          ? formatWeekday(at, { locale: i18n.locale })
          : formatDate(at, { locale: i18n.locale });
  return (
    <div className="sticky top-1 z-10 my-3 flex justify-center" role="separator" aria-label={label}>
      <span className="rounded-full border bg-background/90 px-3 py-0.5 text-xs font-medium text-muted-foreground shadow-xs backdrop-blur">{label}</span>
    </div>
  );
}

function MessagesSkeleton() {
  return (
    <div className="grid gap-3 p-4" aria-hidden>
      {[60, 40, 70, 30, 55].map((width, index) => (
        <div key={index} className={cn("flex", index % 2 ? "justify-end" : "justify-start")}>
          <Skeleton className="h-12 rounded-2xl" style={{ width: `${width}%` }} />
        </div>
      ))}
    </div>
  );
}

/** The conversation of one ticket. */
export function ConversationView({ ticket, viewer, senderName, onBack, onGone, onToggleContact }: ConversationViewProps) {
  const { t, i18n } = useLingui();
  const conversation = useConversation(ticket, viewer, senderName);
  const [quoted, setQuoted] = useState<MessageAnswer | null>(null);
  const scrollerRef = useRef<HTMLDivElement>(null);
  const topRef = useRef<HTMLDivElement>(null);
  const [awayFromBottom, setAwayFromBottom] = useState(false);
  const timeFormat = useMemo(() => ({ format: (at: number) => formatTime(at, { locale: i18n.locale }) }), [i18n.locale]);
  const groups = useMemo(() => groupByDay(conversation.messages), [conversation.messages]);

  useEffect(() => setQuoted(null), [ticket.id]);

  // Older pages: when the top of the list comes into view.
  const { hasOlder, loadOlder } = conversation;
  useEffect(() => {
    const el = topRef.current;
    const root = scrollerRef.current;
    if (!el || !root || !hasOlder) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && loadOlder(), { root, rootMargin: "200px 0px 0px 0px" });
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasOlder, loadOlder, conversation.messages.length]);

  const scrollToBottom = useCallback(() => {
    const el = scrollerRef.current;
    if (el) el.scrollTo({ top: 0, behavior: "smooth" });
  }, []);

  const onReply = useCallback((message: ChatMessage) => setQuoted(message), []);
  const send = conversation.send;
  const onSend = useCallback(
    (draft: Parameters<typeof send>[0]) => {
      send(draft);
      requestAnimationFrame(() => scrollerRef.current?.scrollTo({ top: 0 }));
    },
    [send],
  );

  const presence = conversation.contactPresence;
  const notice =
    ticket.status === "closed"
      ? t`This ticket is closed. Sending a message reopens it.`
      : ticket.status === "pending"
        ? t`Sending a message accepts this ticket.`
        : null;

  return (
    <section className="flex h-full min-w-0 flex-1 flex-col" aria-label={t`Conversation with ${ticket.contact.name}`}>
      <header className="@container flex shrink-0 items-center gap-2 border-b px-2 py-2 sm:px-3" data-testid="ticket-header">
        <Button variant="ghost" size="icon" className="md:hidden" onClick={onBack} aria-label={t`Back to conversations`}>
          <ArrowLeft />
        </Button>
        <button type="button" onClick={onToggleContact} className="flex min-w-0 flex-1 items-center gap-3 rounded-md text-left outline-none focus-visible:ring-2 focus-visible:ring-ring" title={t`Contact details`}>
          <Avatar name={ticket.contact.name} src={ticket.contact.image} className="size-9 shrink-0" />
          <span className="min-w-0 flex-1">
            <span className="flex min-w-0 items-center gap-2">
              <span className="min-w-0 truncate font-semibold" data-testid="ticket-header-name">{ticket.contact.name}</span>
              <StatusBadge status={ticket.status} className="hidden @md:inline-flex" />
              {ticket.referral ? (
                <span className="hidden shrink-0 items-center gap-1 rounded-full bg-muted px-2 py-0.5 text-[11px] text-muted-foreground sm:inline-flex" title={ticket.referral.headline ?? undefined}>
                  <Megaphone className="size-3" aria-hidden />
                  {t`From an ad`}
                </span>
              ) : null}
            </span>
            <span className="block truncate text-xs text-muted-foreground">
              {presence === "typing"
                ? t`typing…`
                : presence === "recording"
                  ? t`recording audio…`
                  : ticket.assignedMemberName
                    ? t`Assigned to ${ticket.assignedMemberName}`
                    : ticket.contact.phone ? formatPhone(ticket.contact.phone) : ticket.connection.name}
            </span>
          </span>
        </button>
        <TicketActions ticket={ticket} viewer={viewer} onGone={onGone} />
        <Button variant="ghost" size="icon" className="hidden shrink-0 xl:inline-flex" onClick={onToggleContact} aria-label={t`Toggle contact details`} data-testid="ticket-contact-toggle">
          <PanelRightOpen />
        </Button>
      </header>

      <div className="relative min-h-0 flex-1">
        <div
          ref={scrollerRef}
          className="flex h-full flex-col-reverse overflow-y-auto overscroll-contain bg-muted/30"
          onScroll={(event) => setAwayFromBottom(Math.abs(event.currentTarget.scrollTop) > 240)}
        >
          {conversation.isPending ? (
            <MessagesSkeleton />
          ) : conversation.isError ? (
            <ErrorState title={t`Could not load the messages.`} onRetry={conversation.refetch} />
          ) : (
            <div className="px-3 py-2 sm:px-4" role="log" aria-label={t`Messages`} aria-live="polite" aria-relevant="additions">
              <div ref={topRef} className="flex min-h-8 items-center justify-center py-2">
                {conversation.loadingOlder ? <Spinner label={t`Loading older messages`} /> : !hasOlder && conversation.messages.length > 0 ? <p className="text-xs text-muted-foreground">{t`Start of the conversation`}</p> : null}
              </div>
              {conversation.messages.length === 0 ? <p className="py-10 text-center text-sm text-muted-foreground">{t`No messages in this ticket yet.`}</p> : null}
              {groups.map((group) => (
                <div key={group.day} className="grid gap-1.5">
                  <DaySeparator at={group.at} />
                  {group.messages.map((message) => (
                    <MessageBubble
                      key={message.local ? message.local.key : message.id}
                      message={message}
                      time={timeFormat.format(message.sentAt)}
                      onReply={onReply}
                      onRetry={conversation.retry}
                      onDiscard={conversation.discard}
                    />
                  ))}
                </div>
              ))}
              {presence ? (
                <div className="mt-2 flex" aria-live="polite">
                  <span className="flex items-center gap-1.5 rounded-2xl rounded-bl-sm bg-muted px-3 py-2 text-xs text-muted-foreground">
                    <span className="flex gap-0.5" aria-hidden>
                      <span className="size-1.5 animate-bounce rounded-full bg-current [animation-delay:-0.3s]" />
                      <span className="size-1.5 animate-bounce rounded-full bg-current [animation-delay:-0.15s]" />
                      <span className="size-1.5 animate-bounce rounded-full bg-current" />
                    </span>
                    {presence === "typing" ? t`${ticket.contact.name} is typing…` : t`${ticket.contact.name} is recording audio…`}
                  </span>
                </div>
              ) : null}
            </div>
          )}
        </div>
        {awayFromBottom ? (
          <Button size="icon" variant="secondary" className="absolute right-4 bottom-4 rounded-full shadow-md" onClick={scrollToBottom} aria-label={t`Go to the latest messages`}>
            <ArrowDown />
          </Button>
        ) : null}
      </div>

      <Composer
        key={ticket.id}
        ticketId={ticket.id}
        contactId={ticket.contact.id}
        quoted={quoted}
        onClearQuote={() => setQuoted(null)}
        onSend={onSend}
        sendTyping={conversation.sendTyping}
        notice={notice}
      />
    </section>
  );
}
