/**
 * One line of the phone's conversation, WhatsApp-like: the company's messages on the left (text,
 * media, buttons, lists, link buttons, contact cards), the customer's on the right with ticks
 * (clock while sending, ✓ sent, ✓✓ delivered, blue ✓✓ read, ! failed with a retry).
 */
import { useState } from "react";
import { useLingui } from "@lingui/react/macro";
import { AlertCircle, Check, CheckCheck, Clock, ExternalLink, FileText, List, Reply, UserRound } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "@/components/ui/dialog";
import { cn } from "@/lib/utils";
import { formatSegments, type MessageView } from "../lib/transcript";
import type { EntryStatus } from "../lib/protocol";
import { formatTime } from "@/lib/dates";

/** What a tap on a button or list row answers. */
export type ReplyChoice = { type: "button_reply" | "list_reply"; id: string; title: string };

function RichText({ text }: { text: string }) {
  return (
    <p className="text-sm break-words whitespace-pre-wrap">
      {formatSegments(text).map((segment, index) => (segment.bold ? <strong key={index}>{segment.text}</strong> : <span key={index}>{segment.text}</span>))}
    </p>
  );
}

/** The ticks of the customer's own message. */
export function Ticks({ status, onRetry }: { status: EntryStatus; onRetry?: () => void }) {
  const { t } = useLingui();
  switch (status) {
    case "pending":
      return <Clock className="size-3.5" role="img" aria-label={t`Sending`} data-status="pending" />;
    case "failed":
      return (
        <button type="button" onClick={onRetry} className="inline-flex items-center gap-1 text-destructive" data-status="failed">
          <AlertCircle className="size-3.5" aria-hidden />
          <span className="text-[11px] font-medium">{t`Not sent. Tap to retry.`}</span>
        </button>
      );
    case "sent":
      return <Check className="size-3.5" role="img" aria-label={t`Sent`} data-status="sent" />;
    case "delivered":
      return <CheckCheck className="size-3.5" role="img" aria-label={t`Delivered`} data-status="delivered" />;
    case "read":
      return <CheckCheck className="size-3.5 text-sky-500 dark:text-sky-400" role="img" aria-label={t`Read`} data-status="read" />;
  }
}

function ListPicker({ view, onReply, disabled }: { view: Extract<MessageView, { kind: "list" }>; onReply: (choice: ReplyChoice) => void; disabled: boolean }) {
  const [open, setOpen] = useState(false);
  const title = view.buttonText;
  return (
    <>
      <Button variant="ghost" className="w-full text-[#128c7e] dark:text-[#25d366]" onClick={() => setOpen(true)} disabled={disabled}>
        <List />
        {title}
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="top-auto bottom-0 max-w-sm translate-y-0 rounded-b-none sm:bottom-4 sm:rounded-b-xl">
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription className="sr-only">{view.body}</DialogDescription>
          <div className="grid gap-4">
            {view.sections.map((section, sectionIndex) => (
              <section key={sectionIndex} className="grid gap-1">
                {section.title ? <h3 className="text-xs font-semibold text-[#128c7e] uppercase dark:text-[#25d366]">{section.title}</h3> : null}
                <ul className="grid">
                  {section.rows.map((row) => (
                    <li key={row.id}>
                      <button
                        type="button"
                        className="grid w-full rounded-md px-2 py-2 text-left outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring"
                        onClick={() => {
                          setOpen(false);
                          onReply({ type: "list_reply", id: row.id, title: row.title });
                        }}
                      >
                        <span className="text-sm font-medium">{row.title}</span>
                        {row.description ? <span className="text-xs text-muted-foreground">{row.description}</span> : null}
                      </button>
                    </li>
                  ))}
                </ul>
              </section>
            ))}
          </div>
        </DialogContent>
      </Dialog>
    </>
  );
}

function MediaContent({ view }: { view: Extract<MessageView, { kind: "image" | "video" | "audio" | "ptv" | "sticker" | "document" }> }) {
  const { t } = useLingui();
  const fileName = view.fileName ?? t`File`;
  if (!view.url) {
    return (
      <span className="flex items-center gap-2 rounded-md bg-black/5 px-2 py-2 text-sm dark:bg-white/10">
        <FileText className="size-5 shrink-0" aria-hidden />
        <span className="truncate">{view.fileName ?? view.mime}</span>
      </span>
    );
  }
  switch (view.kind) {
    case "image":
      return <img src={view.url} alt={view.caption || fileName} className="max-h-72 w-full rounded-md object-cover" loading="lazy" />;
    case "sticker":
      return <img src={view.url} alt={t`Sticker`} className="size-32 object-contain" loading="lazy" />;
    case "video":
      return <video src={view.url} controls preload="metadata" className="max-h-72 w-full rounded-md" aria-label={fileName} />;
    case "ptv":
      return <video src={view.url} controls preload="metadata" className="size-48 rounded-full object-cover" aria-label={t`Video message`} />;
    case "audio":
      return <audio src={view.url} controls preload="metadata" className="w-60 max-w-full" aria-label={t`Voice message`} />;
    case "document":
      return (
        <a
          href={view.url}
          download={view.fileName ?? true}
          target="_blank"
          rel="noreferrer"
          className="flex items-center gap-2 rounded-md bg-black/5 px-2 py-2 text-sm underline-offset-4 hover:underline dark:bg-white/10"
        >
          <FileText className="size-5 shrink-0" aria-hidden />
          <span className="truncate">{fileName}</span>
        </a>
      );
  }
}

/** A message bubble. */
export function MessageBubble({
  view,
  fromCustomer,
  at,
  status,
  onReply,
  onRetry,
  repliesDisabled,
}: {
  view: MessageView;
  fromCustomer: boolean;
  at: number;
  status: EntryStatus;
  onReply: (choice: ReplyChoice) => void;
  onRetry: () => void;
  repliesDisabled: boolean;
}) {
  const { t, i18n } = useLingui();
  const time = formatTime(at, { locale: i18n.locale });
  let content;
  switch (view.kind) {
    case "text":
      content = <RichText text={view.body} />;
      break;
    case "reply":
      content = (
        <p className="flex items-start gap-1.5 text-sm">
          <Reply className="mt-0.5 size-3.5 shrink-0 opacity-60" aria-hidden />
          <span className="break-words whitespace-pre-wrap">{view.body}</span>
        </p>
      );
      break;
    case "buttons":
    case "list":
      content = (
        <div className="grid gap-1">
          <RichText text={view.body} />
          {view.kind === "buttons" && view.footer ? <p className="text-xs text-muted-foreground">{view.footer}</p> : null}
        </div>
      );
      break;
    case "link":
      content = <RichText text={view.body} />;
      break;
    case "contact":
      content = (
        <div className="flex items-center gap-3 py-1">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-muted" aria-hidden>
            <UserRound className="size-5" />
          </span>
          <div className="grid min-w-0 text-sm">
            <span className="truncate font-medium">{view.name}</span>
            <a href={`tel:${view.phone}`} className="truncate text-[#128c7e] underline-offset-4 hover:underline dark:text-[#25d366]">
              {view.phone}
            </a>
            {view.organization ? <span className="truncate text-xs text-muted-foreground">{view.organization}</span> : null}
          </div>
        </div>
      );
      break;
    case "unsupported":
      content = <p className="text-sm text-muted-foreground italic">{t`This message type cannot be shown on the sandbox phone.`}</p>;
      break;
    default:
      content = (
        <div className="grid gap-1">
          <MediaContent view={view} />
          {view.caption ? <RichText text={view.caption} /> : null}
        </div>
      );
  }
  return (
    <div className={cn("flex", fromCustomer ? "justify-end" : "justify-start")} data-testid="phone-message" data-direction={fromCustomer ? "from_customer" : "to_customer"}>
      <div className="grid max-w-[85%] gap-1">
        <div
          className={cn(
            "grid gap-1 rounded-lg px-2.5 py-1.5 shadow-sm",
            fromCustomer ? "rounded-tr-none bg-[#d9fdd3] text-[#111b21] dark:bg-[#005c4b] dark:text-[#e9edef]" : "rounded-tl-none bg-white text-[#111b21] dark:bg-[#202c33] dark:text-[#e9edef]",
          )}
        >
          {content}
          <span className="flex items-center justify-end gap-1 text-[11px] opacity-60">
            <time dateTime={new Date(at).toISOString()}>{time}</time>
            {fromCustomer ? <Ticks status={status} onRetry={onRetry} /> : null}
          </span>
        </div>
        {view.kind === "buttons" ? (
          <div className="grid gap-1">
            {view.buttons.map((button) => (
              <Button
                key={button.id}
                variant="ghost"
                disabled={repliesDisabled}
                className="w-full bg-white text-[#128c7e] shadow-sm hover:bg-white/80 dark:bg-[#202c33] dark:text-[#25d366] dark:hover:bg-[#202c33]/80"
                onClick={() => onReply({ type: "button_reply", id: button.id, title: button.title })}
              >
                {button.title}
              </Button>
            ))}
          </div>
        ) : null}
        {view.kind === "list" ? (
          <div className="rounded-lg bg-white shadow-sm dark:bg-[#202c33]">
            <ListPicker view={view} onReply={onReply} disabled={repliesDisabled} />
          </div>
        ) : null}
        {view.kind === "link" && view.url ? (
          <Button asChild variant="ghost" className="w-full bg-white text-[#128c7e] shadow-sm dark:bg-[#202c33] dark:text-[#25d366]">
            <a href={view.url} target="_blank" rel="noreferrer">
              <ExternalLink />
              {view.buttonText}
            </a>
          </Button>
        ) : null}
      </div>
    </div>
  );
}
