/**
 * One message of the conversation: aligned by direction, the sender's name on outbound messages,
 * the quoted message above its content, time and delivery ticks (pending clock, sent ✓, delivered
 * ✓✓, read ✓✓ blue, failed ⚠ with the provider's reason and detail), a "Forwarded" label, an
 * "edited" mark, the reactions on it (one per side), and a reply action that quotes it. A system
 * event (a customer's number change) is a centred note, not a bubble.
 */
import { memo } from "react";
import { useLingui } from "@lingui/react/macro";
import { AlertTriangle, Check, CheckCheck, Clock3, Forward, Reply, RotateCw, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";
import { tickOf, type ChatMessage } from "../lib/messages";
import { MessageContent, useMessageSummary } from "./message-content";

/** The delivery tick of an outbound message, with an accessible name (and the failure's reason). */
export function StatusTick({ message }: { message: ChatMessage }) {
  const { t } = useLingui();
  const tick = message.local?.failed ? "failed" : tickOf(message);
  switch (tick) {
    case null:
      return null;
    case "clock":
      return <Clock3 className="size-3.5" role="img" aria-label={t`Sending`} />;
    case "sent":
      return <Check className="size-3.5" role="img" aria-label={t`Sent`} />;
    case "delivered":
      return <CheckCheck className="size-3.5" role="img" aria-label={t`Delivered`} />;
    case "read":
      return <CheckCheck className="size-3.5 text-sky-500 dark:text-sky-400" role="img" aria-label={t`Read`} />;
    case "failed": {
      const base = message.error?.message || message.error?.code || (message.local ? t`Could not reach the server.` : "");
      const details = message.error?.details && message.error.details !== base ? message.error.details : "";
      const reason = [base, details].filter(Boolean).join(" — ");
      const label = reason ? t`Not sent: ${reason}` : t`Not sent`;
      return (
        <span className="inline-flex" title={label}>
          <AlertTriangle className="size-3.5 text-amber-500" role="img" aria-label={label} />
        </span>
      );
    }
  }
}

/** Props of {@link MessageBubble}. */
export type MessageBubbleProps = {
  message: ChatMessage;
  /** Formats the time under the bubble. */
  time: string;
  onReply: (message: ChatMessage) => void;
  onRetry: (key: string) => void;
  onDiscard: (key: string) => void;
};

/** A message bubble. */
export const MessageBubble = memo(function MessageBubble({ message, time, onReply, onRetry, onDiscard }: MessageBubbleProps) {
  const { t } = useLingui();
  const summary = useMessageSummary();
  const outbound = message.direction === "out";
  const bare = message.type === "sticker" && !message.deleted;
  const senderName = outbound ? message.sender?.name : null;
  const canReply = !message.local && !message.deleted && message.type !== "reaction" && message.type !== "system";
  if (message.type === "system") {
    return (
      <div className="flex justify-center" data-message-id={message.id}>
        <div className="max-w-[85%] rounded-md bg-muted/70 px-3 py-1.5 text-center text-xs text-muted-foreground">
          <MessageContent message={message} />
          <time className="mt-0.5 block text-[11px]" dateTime={new Date(message.sentAt).toISOString()}>
            {time}
          </time>
        </div>
      </div>
    );
  }
  const reactions = message.deleted ? [] : (message.reactions ?? []);
  const failureDetail = outbound && message.status === "failed" && message.error?.details ? message.error.details : null;
  return (
    <div className={cn("group flex items-end gap-1", outbound ? "justify-end" : "justify-start")} data-message-id={message.id}>
      {outbound && canReply ? (
        <Button variant="ghost" size="icon" className="size-7 opacity-0 group-focus-within:opacity-100 group-hover:opacity-100 focus-visible:opacity-100" onClick={() => onReply(message)} aria-label={t`Reply to this message`}>
          <Reply />
        </Button>
      ) : null}
      <div
        className={cn(
          "relative max-w-[85%] min-w-0 text-sm sm:max-w-[70%]",
          bare ? "" : "rounded-2xl px-3 py-2 shadow-xs",
          !bare && (outbound ? "rounded-br-sm bg-primary text-primary-foreground" : "rounded-bl-sm bg-muted text-foreground"),
          message.local?.failed && "ring-2 ring-amber-500/60",
          !message.deleted && (message.reactions ?? []).length > 0 && "mb-3",
        )}
      >
        {senderName ? <p className={cn("mb-0.5 text-xs font-semibold", outbound ? "text-primary-foreground/85" : "text-muted-foreground")}>{senderName}</p> : null}
        {message.forwarded && !message.deleted ? (
          <p className={cn("mb-0.5 flex items-center gap-1 text-xs italic", outbound ? "text-primary-foreground/80" : "text-muted-foreground")}>
            <Forward className="size-3.5" aria-hidden />
            {t`Forwarded`}
          </p>
        ) : null}
        {message.quoted ? (
          <div className={cn("mb-1.5 rounded-md border-l-4 px-2 py-1 text-xs", outbound ? "border-primary-foreground/60 bg-primary-foreground/15" : "border-primary bg-background/60")}>
            <p className="font-semibold opacity-90">{message.quoted.direction === "out" ? t`You` : t`Contact`}</p>
            <p className="line-clamp-2 opacity-90">{summary(message.quoted)}</p>
          </div>
        ) : null}
        <MessageContent message={message} />
        <div className={cn("mt-1 flex items-center justify-end gap-1 text-[11px] leading-none", bare ? "text-muted-foreground" : outbound ? "text-primary-foreground/80" : "text-muted-foreground")}>
          {message.editedAt !== null && message.editedAt !== undefined && !message.deleted ? <span className="italic">{t`edited`}</span> : null}
          <time dateTime={new Date(message.sentAt).toISOString()}>{time}</time>
          {outbound ? <StatusTick message={message} /> : null}
        </div>
        {failureDetail ? <p className="mt-1 text-xs text-primary-foreground/85">{failureDetail}</p> : null}
        {reactions.length ? (
          <ul
            className={cn("absolute -bottom-3 flex gap-0.5 rounded-full border bg-background px-1.5 py-0.5 text-sm leading-none text-foreground shadow-xs", outbound ? "right-2" : "left-2")}
            aria-label={t`Reactions`}
          >
            {reactions.map((reaction) => (
              <li key={reaction.from} title={reaction.from === "contact" ? t`Contact` : t`You`}>
                {reaction.emoji}
              </li>
            ))}
          </ul>
        ) : null}
        {message.local?.failed ? (
          <div className="mt-1.5 flex justify-end gap-1">
            <Button size="sm" variant="secondary" className="h-7" onClick={() => message.local && onRetry(message.local.key)}>
              <RotateCw />
              {t`Retry`}
            </Button>
            <Button size="sm" variant="ghost" className="h-7 text-primary-foreground hover:text-foreground" onClick={() => message.local && onDiscard(message.local.key)} aria-label={t`Discard message`}>
              <X />
            </Button>
          </div>
        ) : null}
      </div>
      {!outbound && canReply ? (
        <Button variant="ghost" size="icon" className="size-7 opacity-0 group-focus-within:opacity-100 group-hover:opacity-100 focus-visible:opacity-100" onClick={() => onReply(message)} aria-label={t`Reply to this message`}>
          <Reply />
        </Button>
      ) : null}
    </div>
  );
});
