/**
 * What a message shows inside its bubble, by type (spec §2 Chats "several message types"; §8
 * 'Waiting for this message.' and 'Message deleted.'): text with line breaks and links, media with
 * preview, lightbox, players and download, stickers, contact cards, locations, the company's buttons
 * and lists, the customer's button and list replies, reactions, orders (product items), WhatsApp
 * Flows answers (their fields) and system events (a customer's number change).
 */
import { useState, type ReactNode } from "react";
import { useLingui } from "@lingui/react/macro";
import { Ban, ClipboardList, Clock3, Contact, Download, FileText, Info, List, MapPin, MousePointerClick, Reply, ShoppingCart } from "lucide-react";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "@/components/ui/dialog";
import { cn } from "@/lib/utils";
import type { MessageAnswer } from "../../../../../schema/realtime";
import { formatBytes, splitLinks } from "../lib/messages";
import { buttonsOf, contactCardsOf, flowFieldsOf, listOf, locationOf, orderOf, reactionOf, replyOf } from "../lib/payloads";
import { StoryMention, storyMentionOf } from "@/features/instagram/components/story-mention";

/** Text with its line breaks kept and http(s) links clickable (opened in a new tab). */
export function RichText({ text, className }: { text: string; className?: string }) {
  if (!text) return null;
  return (
    <p className={cn("break-words whitespace-pre-wrap", className)}>
      {splitLinks(text).map((part, index) =>
        part.kind === "link" ? (
          <a key={index} href={part.href} target="_blank" rel="noopener noreferrer nofollow" className="underline underline-offset-2 hover:opacity-80">
            {part.text}
          </a>
        ) : (
          <span key={index}>{part.text}</span>
        ),
      )}
    </p>
  );
}

function ImageWithLightbox({ url, alt, caption }: { url: string; alt: string; caption: string }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="block overflow-hidden rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring" onClick={() => setOpen(true)} aria-label={t`Open image`}>
        <img src={url} alt={alt} loading="lazy" className="max-h-72 w-full max-w-xs object-cover" />
      </button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="max-w-4xl bg-black/90 p-2 sm:p-4">
          <DialogTitle className="sr-only">{t`Image`}</DialogTitle>
          <DialogDescription className="sr-only">{caption || t`Image`}</DialogDescription>
          <img src={url} alt={alt} className="mx-auto max-h-[80dvh] w-auto object-contain" />
          <div className="flex items-center justify-between gap-2 text-sm text-white">
            <span className="truncate">{caption}</span>
            <a href={url} download className="inline-flex items-center gap-1 rounded-md px-2 py-1 hover:bg-white/10">
              <Download className="size-4" aria-hidden />
              {t`Download`}
            </a>
          </div>
        </DialogContent>
      </Dialog>
    </>
  );
}

function DocumentCard({ media, outbound }: { media: NonNullable<MessageAnswer["media"]>; outbound: boolean }) {
  const { t } = useLingui();
  const name = media.name || t`Document`;
  return (
    <a
      href={media.url}
      download={media.name ?? true}
      target="_blank"
      rel="noopener noreferrer"
      className={cn(
        "flex min-w-0 max-w-xs items-center gap-3 rounded-md p-2 outline-none focus-visible:ring-2 focus-visible:ring-ring",
        outbound ? "bg-primary-foreground/15 hover:bg-primary-foreground/25" : "bg-background/70 hover:bg-background",
      )}
      aria-label={t`Download ${name}`}
    >
      <FileText className="size-8 shrink-0 opacity-80" aria-hidden />
      <span className="min-w-0 flex-1">
        <span className="block truncate text-sm font-medium">{name}</span>
        <span className="block text-xs opacity-75">
          {[media.size !== null ? formatBytes(media.size) : null, media.mime.split("/")[1]?.toUpperCase()].filter(Boolean).join(" · ")}
        </span>
      </span>
      <Download className="size-4 shrink-0 opacity-80" aria-hidden />
    </a>
  );
}

/** A muted line with an icon (placeholders and small notes). */
function Note({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <p className="flex items-center gap-1.5 italic opacity-80 [&_svg]:size-4 [&_svg]:shrink-0">
      {icon}
      {children}
    </p>
  );
}

/** The content of one message. */
export function MessageContent({ message }: { message: MessageAnswer }) {
  const { t } = useLingui();
  const outbound = message.direction === "out";
  if (message.deleted) return <Note icon={<Ban aria-hidden />}>{t`Message deleted.`}</Note>;
  const media = message.media;
  switch (message.type) {
    case "text": {
      // An Instagram story mention: its CDN link only, never a copy (issue 15).
      const story = storyMentionOf(message.payload);
      if (story) {
        return (
          <div className="grid gap-1.5">
            <StoryMention mention={story} />
            <RichText text={message.body} />
          </div>
        );
      }
      return <RichText text={message.body} />;
    }
    case "image":
      return (
        <div className="grid gap-1.5">
          {media?.url ? <ImageWithLightbox url={media.url} alt={message.body || t`Image`} caption={message.body} /> : <Note icon={<Clock3 aria-hidden />}>{t`Image`}</Note>}
          <RichText text={message.body} />
        </div>
      );
    case "sticker":
      return media?.url ? <img src={media.url} alt={t`Sticker`} loading="lazy" className="size-32 object-contain" /> : <Note icon={<Clock3 aria-hidden />}>{t`Sticker`}</Note>;
    case "audio":
      return media?.url ? <audio controls preload="metadata" src={media.url} className="h-10 w-64 max-w-full" aria-label={t`Audio message`} /> : <Note icon={<Clock3 aria-hidden />}>{t`Audio message`}</Note>;
    case "video":
    case "ptv":
      return (
        <div className="grid gap-1.5">
          {media?.url ? (
            <video
              controls
              preload="metadata"
              src={media.url}
              className={cn("max-h-72 max-w-xs bg-black", message.type === "ptv" ? "aspect-square size-56 rounded-full object-cover" : "w-full rounded-md")}
              aria-label={message.type === "ptv" ? t`Video note` : t`Video`}
            />
          ) : (
            <Note icon={<Clock3 aria-hidden />}>{t`Video`}</Note>
          )}
          <RichText text={message.body} />
        </div>
      );
    case "document":
      return (
        <div className="grid gap-1.5">
          {media?.url ? <DocumentCard media={media} outbound={outbound} /> : <Note icon={<FileText aria-hidden />}>{message.body || t`Document`}</Note>}
          {media?.url ? <RichText text={message.body} /> : null}
        </div>
      );
    case "contact": {
      const cards = contactCardsOf(message);
      return (
        <ul className="grid gap-2" aria-label={t`Contact card`}>
          {cards.map((card, index) => (
            <li key={index} className={cn("flex items-center gap-3 rounded-md p-2", outbound ? "bg-primary-foreground/15" : "bg-background/70")}>
              <Contact className="size-8 shrink-0 opacity-80" aria-hidden />
              <span className="min-w-0">
                <span className="block truncate font-medium">{card.name || t`Contact`}</span>
                {card.phone ? <span className="block text-xs opacity-80">{card.phone}</span> : null}
                {card.organization ? <span className="block text-xs opacity-80">{card.organization}</span> : null}
              </span>
            </li>
          ))}
        </ul>
      );
    }
    case "location": {
      const location = locationOf(message);
      if (!location) return <Note icon={<MapPin aria-hidden />}>{message.body || t`Location`}</Note>;
      const coordinates = `${location.latitude.toFixed(6)}, ${location.longitude.toFixed(6)}`;
      const href = `https://www.openstreetmap.org/?mlat=${location.latitude}&mlon=${location.longitude}#map=16/${location.latitude}/${location.longitude}`;
      return (
        <a href={href} target="_blank" rel="noopener noreferrer" className={cn("flex items-start gap-2 rounded-md p-2 hover:opacity-90", outbound ? "bg-primary-foreground/15" : "bg-background/70")}>
          <MapPin className="mt-0.5 size-5 shrink-0" aria-hidden />
          <span className="min-w-0">
            {location.name ? <span className="block font-medium">{location.name}</span> : null}
            {location.address ? <span className="block text-xs opacity-80">{location.address}</span> : null}
            <span className="block font-mono text-xs opacity-80">{coordinates}</span>
          </span>
        </a>
      );
    }
    case "buttons": {
      const buttons = buttonsOf(message);
      return (
        <div className="grid gap-2">
          <RichText text={message.body} />
          {buttons?.footer ? <p className="text-xs opacity-75">{buttons.footer}</p> : null}
          <ul className="grid gap-1" aria-label={t`Buttons`}>
            {(buttons?.buttons ?? []).map((button, index) => (
              <li key={button.id ?? index} className="flex items-center justify-center gap-1.5 rounded-md border border-current/20 px-3 py-1.5 text-sm font-medium">
                <MousePointerClick className="size-3.5" aria-hidden />
                {button.title}
              </li>
            ))}
            {buttons?.url && buttons.buttonText ? (
              <li>
                <a href={buttons.url} target="_blank" rel="noopener noreferrer" className="flex items-center justify-center rounded-md border border-current/20 px-3 py-1.5 text-sm font-medium underline-offset-2 hover:underline">
                  {buttons.buttonText}
                </a>
              </li>
            ) : null}
          </ul>
        </div>
      );
    }
    case "list": {
      const list = listOf(message);
      return (
        <div className="grid gap-2">
          <RichText text={message.body} />
          {list?.buttonText ? (
            <p className="flex items-center justify-center gap-1.5 rounded-md border border-current/20 px-3 py-1.5 text-sm font-medium">
              <List className="size-3.5" aria-hidden />
              {list.buttonText}
            </p>
          ) : null}
          {(list?.sections ?? []).map((section, index) => (
            <div key={index} className="grid gap-1">
              {section.title ? <p className="text-xs font-semibold uppercase opacity-75">{section.title}</p> : null}
              <ul className="grid gap-1">
                {section.rows.map((row, rowIndex) => (
                  <li key={row.id ?? rowIndex} className="rounded-md bg-current/5 px-2 py-1">
                    <span className="block text-sm">{row.title}</span>
                    {row.description ? <span className="block text-xs opacity-75">{row.description}</span> : null}
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      );
    }
    case "button_reply":
    case "list_reply": {
      const reply = replyOf(message);
      return (
        <div className="grid gap-0.5">
          <p className="flex items-center gap-1.5 text-xs opacity-75">
            <Reply className="size-3.5" aria-hidden />
            {message.type === "button_reply" ? t`Button reply` : t`List reply`}
          </p>
          <p className="font-medium">{reply.title}</p>
          {reply.description ? <p className="text-xs opacity-75">{reply.description}</p> : null}
        </div>
      );
    }
    case "reaction": {
      const emoji = reactionOf(message);
      return emoji ? (
        <p className="flex items-center gap-1.5">
          <span className="text-2xl leading-none" aria-hidden>
            {emoji}
          </span>
          <span className="text-xs opacity-75">{t`Reacted to a message`}</span>
        </p>
      ) : (
        <Note icon={<Ban aria-hidden />}>{t`Reaction removed`}</Note>
      );
    }
    case "order": {
      const order = orderOf(message);
      return (
        <div className="grid gap-1.5">
          <p className="flex items-center gap-1.5 text-xs font-semibold opacity-80">
            <ShoppingCart className="size-3.5" aria-hidden />
            {t`Order`}
          </p>
          <ul className="grid gap-1" aria-label={t`Order items`}>
            {(order?.items ?? []).map((item, index) => (
              <li key={`${item.productRetailerId}-${index}`} className={cn("flex items-baseline justify-between gap-3 rounded-md px-2 py-1", outbound ? "bg-primary-foreground/15" : "bg-background/70")}>
                <span className="min-w-0 truncate">
                  {item.quantity} × <span className="font-mono text-xs">{item.productRetailerId}</span>
                </span>
                {item.itemPrice !== null && item.itemPrice !== undefined ? <span className="shrink-0 text-xs">{formatMoney(item.itemPrice, item.currency)}</span> : null}
              </li>
            ))}
          </ul>
          {order?.totals.map((total) => (
            <OrderTotal key={total.currency} amount={total.amount} currency={total.currency} />
          ))}
          <RichText text={message.body} />
        </div>
      );
    }
    case "flow_reply": {
      const fields = flowFieldsOf(message);
      return (
        <div className="grid gap-1.5">
          <p className="flex items-center gap-1.5 text-xs font-semibold opacity-80">
            <ClipboardList className="size-3.5" aria-hidden />
            {t`Form answers`}
          </p>
          {fields.length ? (
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
              {fields.map((field) => (
                <div key={field.name} className="contents">
                  <dt className="opacity-75">{field.name}</dt>
                  <dd className="break-words">{typeof field.value === "boolean" ? (field.value ? t`Yes` : t`No`) : String(field.value ?? "")}</dd>
                </div>
              ))}
            </dl>
          ) : null}
          <RichText text={message.body} className="text-xs opacity-75" />
        </div>
      );
    }
    case "system":
      return <Note icon={<Info aria-hidden />}>{message.body || t`The contact's number changed.`}</Note>;
    case "unsupported":
      return <Note icon={<Clock3 aria-hidden />}>{t`Waiting for this message.`}</Note>;
  }
}

/** One currency's total of an order. */
function OrderTotal({ amount, currency }: { amount: number; currency: string }) {
  const { t } = useLingui();
  const total = formatMoney(amount, currency);
  return <p className="text-right text-xs font-semibold">{t`Total: ${total}`}</p>;
}

/** An amount with its ISO currency when known (the browser's locale formats it). */
function formatMoney(amount: number, currency: string | null | undefined): string {
  if (!currency) return String(amount);
  try {
    return new Intl.NumberFormat(undefined, { style: "currency", currency }).format(amount);
  } catch {
    return `${amount} ${currency}`;
  }
}

/** A one-line summary of a message (quoted replies): its text, else its kind. */
export function useMessageSummary(): (message: Pick<MessageAnswer, "type" | "body">) => string {
  const { t } = useLingui();
  return (message) => {
    const body = message.body.trim();
    if (body) return body;
    switch (message.type) {
      case "image":
        return t`Image`;
      case "audio":
        return t`Audio message`;
      case "video":
        return t`Video`;
      case "ptv":
        return t`Video note`;
      case "document":
        return t`Document`;
      case "sticker":
        return t`Sticker`;
      case "contact":
        return t`Contact card`;
      case "location":
        return t`Location`;
      case "order":
        return t`Order`;
      case "flow_reply":
        return t`Form answers`;
      case "unsupported":
        return t`Waiting for this message.`;
      default:
        return t`Message deleted.`;
    }
  };
}
