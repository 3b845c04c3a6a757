/**
 * The contact's page, as a slide-over over the list (/contacts?contact=<id>, so it can be linked):
 * details, tags, every field's value (built-ins and formulas computed by the worker), the contact's
 * tickets (each opening the chat centre at /chats?ticket=<id>), its flow runs (stoppable), its
 * shipping cycles (issue 10: current step, next run, remove) and the conversation history of the
 * chosen ticket. Edit and delete from here.
 */
import { useState, type ReactNode } from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { useLingui } from "@lingui/react/macro";
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { ExternalLink, Pencil, Trash2, X } from "lucide-react";
import { Avatar } from "@/components/ui/avatar";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Sheet, SheetClose, SheetContent, SheetDescription, SheetTitle } from "@/components/ui/sheet";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { isApiError } from "@/lib/api";
import { formatDocument, formatFieldValue, formatMoment, type ValueFormat } from "@/lib/field-values";
import { notifyError } from "@/lib/notify";
import { cn } from "@/lib/utils";
import { usePermissions } from "@/features/session/hooks/use-session";
import { fieldDisplayName } from "@/features/registers/lib/labels";
import { TagPill } from "@/features/registers/components/tags-page";
import type { ContactAnswer, ContactDetailAnswer, ContactFieldValueAnswer, ContactTicketAnswer } from "../../../../../schema/api-types";
import type { MessageAnswer } from "../../../../../schema/realtime";
import { ticketMessagesQuery } from "../api/contacts-api";
import { useContact, useDeleteContact } from "../hooks/use-contacts";
import { ContactRuns } from "./contact-runs";
import { ContactEnrolments } from "@/features/shipping-cycles/components/contact-enrolments";
import { formatPhone } from "@/lib/phone";
import { ReferralCard } from "@/components/referral-card";

const STATUS_LABELS: Record<ContactTicketAnswer["status"], MessageDescriptor> = {
  pending: msg`Pending`,
  open: msg({ message: "Open", context: "ticket status" }),
  closed: msg`Closed`,
};

const VALUE_ERRORS: Record<string, MessageDescriptor> = {
  missing_value: msg`Missing a value the formula needs`,
  division_by_zero: msg`Division by zero`,
  not_finite: msg`Too large to compute`,
};

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid min-w-0 gap-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-sm break-words">{children}</dd>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="grid gap-3 border-t px-5 py-4" aria-label={title}>
      <h3 className="text-sm font-semibold">{title}</h3>
      {children}
    </section>
  );
}

function FieldValue({ value, format }: { value: ContactFieldValueAnswer; format: ValueFormat }) {
  const { t, i18n } = useLingui();
  if (value.error) return <span className="text-muted-foreground italic">{i18n._(VALUE_ERRORS[value.error] ?? msg`Not available`)}</span>;
  const text = formatFieldValue(value.type, value.value, format);
  return text ? <>{text}</> : <span className="text-muted-foreground">{t`Not informed`}</span>;
}

function MessageLine({ message, format }: { message: MessageAnswer; format: ValueFormat }) {
  const { t } = useLingui();
  const out = message.direction === "out";
  const text = message.deleted ? t`Message deleted.` : message.body || message.media?.name || `[${message.type}]`;
  return (
    <li className={cn("flex", out ? "justify-end" : "justify-start")}>
      <div className={cn("max-w-[85%] rounded-lg px-3 py-2 text-sm", out ? "bg-primary/10" : "bg-muted")}>
        {out && message.sender?.name ? <p className="text-xs font-medium text-muted-foreground">{message.sender.name}</p> : null}
        <p className={cn("break-words whitespace-pre-wrap", message.deleted && "text-muted-foreground italic")}>{text}</p>
        <p className="mt-1 text-right text-[11px] text-muted-foreground">{formatMoment(message.sentAt || message.createdAt, format)}</p>
      </div>
    </li>
  );
}

function ConversationHistory({ ticketId, format }: { ticketId: string; format: ValueFormat }) {
  const { t } = useLingui();
  const messages = useInfiniteQuery(ticketMessagesQuery(ticketId));
  if (messages.isPending) {
    return (
      <div className="grid gap-2" aria-busy>
        <Skeleton className="h-10 w-2/3" />
        <Skeleton className="ml-auto h-10 w-1/2" />
      </div>
    );
  }
  if (messages.isError) return <ErrorState title={t`Could not load the conversation.`} onRetry={() => void messages.refetch()} />;
  // Pages come newest first; each page is oldest first.
  const all = [...messages.data.pages].reverse().flatMap((page) => page.results);
  if (!all.length) return <p className="text-sm text-muted-foreground">{t`No messages in this conversation.`}</p>;
  return (
    <div className="grid gap-2">
      {messages.hasNextPage ? (
        <Button variant="outline" size="sm" className="justify-self-center" onClick={() => void messages.fetchNextPage()} disabled={messages.isFetchingNextPage}>
          {messages.isFetchingNextPage ? <Spinner /> : null}
          {t`Load older messages`}
        </Button>
      ) : null}
      <ul className="grid max-h-96 gap-2 overflow-y-auto rounded-md border p-3" aria-label={t`Messages`}>
        {all.map((message) => (
          <MessageLine key={message.id} message={message} format={format} />
        ))}
      </ul>
    </div>
  );
}

function ContactDetails({ contact, format, onEdit, onDeleted }: { contact: ContactDetailAnswer; format: ValueFormat; onEdit: () => void; onDeleted: () => void }) {
  const { t, i18n } = useLingui();
  const permissions = usePermissions();
  const canSeeChats = permissions.data?.has("tickets") === true;
  const canOpenCycles = permissions.data?.has("shipping_cycles") === true;
  const canSeeCycles = canOpenCycles || permissions.data?.has("contacts_shipping_cycles") === true;
  const remove = useDeleteContact();
  const [confirming, setConfirming] = useState(false);
  const [ticketId, setTicketId] = useState<string | null>(contact.tickets[0]?.id ?? null);
  const builtIns = contact.values.filter((value) => value.kind === "default");
  const own = contact.values.filter((value) => value.kind !== "default");
  const name = contact.name;

  return (
    <div className="min-h-0 flex-1 overflow-y-auto">
      <div className="flex flex-wrap items-center gap-4 px-5 py-5">
        <Avatar name={contact.name} src={contact.image} className="size-14 text-lg" />
        <div className="grid min-w-0 flex-1 gap-0.5">
          <p className="truncate text-lg font-semibold">{contact.name}</p>
          <p className="text-sm text-muted-foreground">{contact.phone ? formatPhone(contact.phone) : t`No phone`}</p>
        </div>
        <div className="flex gap-2">
          <Button variant="outline" size="sm" onClick={onEdit}>
            <Pencil />
            {t`Edit`}
          </Button>
          <Button variant="outline" size="sm" className="text-destructive hover:text-destructive" onClick={() => setConfirming(true)} aria-label={t`Delete ${name}`}>
            <Trash2 />
            {t`Delete`}
          </Button>
        </div>
      </div>
      <Section title={t`Details`}>
        <dl className="grid gap-3 sm:grid-cols-2">
          <Detail label={t`Phone`}>{contact.phone ? formatPhone(contact.phone) : <span className="text-muted-foreground">{t`Not informed`}</span>}</Detail>
          <Detail label={t`Email`}>{contact.email ?? <span className="text-muted-foreground">{t`Not informed`}</span>}</Detail>
          <Detail label={t`Document`}>{contact.document ? formatDocument(contact.document) : <span className="text-muted-foreground">{t`Not informed`}</span>}</Detail>
          <Detail label={t`Created`}>{formatMoment(contact.createdAt, format)}</Detail>
          <Detail label={t`Last message`}>{contact.lastMessageAt ? formatMoment(contact.lastMessageAt, format) : <span className="text-muted-foreground">{t`Never`}</span>}</Detail>
        </dl>
        {contact.referral ? (
          <div className="mt-3">
            <ReferralCard referral={contact.referral} />
          </div>
        ) : null}
      </Section>
      <Section title={t`Tags`}>
        {contact.tags.length ? (
          <ul className="flex flex-wrap gap-1.5" aria-label={t`Tags`}>
            {contact.tags.map((tag) => (
              <li key={tag.id}>
                <TagPill tag={tag} />
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">{t`No tags.`}</p>
        )}
      </Section>
      <Section title={t`Custom fields`}>
        {own.length ? (
          <dl className="grid gap-3 sm:grid-cols-2">
            {own.map((value) => (
              <Detail key={value.id} label={fieldDisplayName(value, i18n)}>
                <FieldValue value={value} format={format} />
              </Detail>
            ))}
          </dl>
        ) : (
          <p className="text-sm text-muted-foreground">{t`No custom fields yet.`}</p>
        )}
        {builtIns.length ? (
          <details className="group">
            <summary className="cursor-pointer text-xs font-medium text-muted-foreground outline-none focus-visible:underline">{t`Built-in fields`}</summary>
            <dl className="mt-3 grid gap-3 sm:grid-cols-2">
              {builtIns.map((value) => (
                <Detail key={value.id} label={fieldDisplayName(value, i18n)}>
                  <FieldValue value={value} format={format} />
                </Detail>
              ))}
            </dl>
          </details>
        ) : null}
      </Section>
      <Section title={t`Tickets`}>
        {contact.tickets.length ? (
          <ul className="grid gap-2" aria-label={t`Tickets`}>
            {contact.tickets.map((ticket) => (
              <li key={ticket.id} className={cn("grid gap-1 rounded-md border p-3", ticket.id === ticketId && "border-primary")}>
                <div className="flex flex-wrap items-center gap-2">
                  <Badge variant={ticket.status === "closed" ? "outline" : "secondary"}>{i18n._(STATUS_LABELS[ticket.status])}</Badge>
                  <span className="text-xs text-muted-foreground">{ticket.connection?.name ?? t`Deleted connection`}</span>
                  <span className="ml-auto text-xs text-muted-foreground">{formatMoment(ticket.lastMessageAt, format)}</span>
                </div>
                <p className="truncate text-sm">{ticket.lastMessagePreview || t`No messages yet.`}</p>
                <div className="flex flex-wrap gap-2">
                  {canSeeChats ? (
                    <>
                      <Button variant="ghost" size="sm" onClick={() => setTicketId(ticket.id)} aria-pressed={ticket.id === ticketId}>
                        {t`Show conversation`}
                      </Button>
                      <Button asChild variant="ghost" size="sm">
                        <Link to={`/chats?ticket=${encodeURIComponent(ticket.id)}`}>
                          <ExternalLink />
                          {t`Open in chats`}
                        </Link>
                      </Button>
                    </>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">{t`No tickets yet.`}</p>
        )}
      </Section>
      <Section title={t`Flows`}>
        <ContactRuns contactId={contact.id} format={format} />
      </Section>
      {canSeeCycles ? (
        <Section title={t`Shipping cycles`}>
          <ContactEnrolments contactId={contact.id} canOpenCycles={canOpenCycles} />
        </Section>
      ) : null}
      {canSeeChats && ticketId ? (
        <Section title={t`Conversation history`}>
          <ConversationHistory ticketId={ticketId} format={format} />
        </Section>
      ) : null}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t`Delete the contact ${name}?`}
        description={t`Its tickets and messages are deleted too. This cannot be undone.`}
        confirmLabel={t`Delete contact`}
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(contact.id, {
            onSuccess: () => {
              setConfirming(false);
              onDeleted();
            },
            onError: (error) => notifyError(error),
          })
        }
      />
    </div>
  );
}

/** The contact's page as a slide-over; `contactId` null keeps it closed. */
export function ContactDrawer({
  contactId,
  format,
  onClose,
  onEdit,
}: {
  contactId: string | null;
  format: ValueFormat;
  onClose: () => void;
  onEdit: (contact: ContactAnswer) => void;
}) {
  const { t } = useLingui();
  const contact = useContact(contactId);
  const notFound = contact.isError && isApiError(contact.error) && contact.error.status === 404;
  return (
    <Sheet open={contactId !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <SheetContent side="right" className="w-full max-w-2xl">
        <div className="flex items-center justify-between gap-3 border-b px-5 py-3">
          <SheetTitle className="text-base font-semibold">{t`Contact`}</SheetTitle>
          <SheetDescription className="sr-only">{t`The contact's details, tags, fields, tickets, flows and conversation history.`}</SheetDescription>
          <SheetClose asChild>
            <Button variant="ghost" size="icon" aria-label={t`Close`}>
              <X />
            </Button>
          </SheetClose>
        </div>
        {contact.isPending && contactId ? (
          <div className="grid gap-4 p-5" aria-busy>
            <div className="flex items-center gap-4">
              <Skeleton className="size-14 rounded-full" />
              <div className="grid flex-1 gap-2">
                <Skeleton className="h-5 w-48" />
                <Skeleton className="h-4 w-32" />
              </div>
            </div>
            <Skeleton className="h-24 w-full" />
            <Skeleton className="h-24 w-full" />
          </div>
        ) : notFound ? (
          <EmptyState icon={<X />} title={t`This contact does not exist any more.`} />
        ) : contact.isError ? (
          <ErrorState title={t`Could not load the contact.`} onRetry={() => void contact.refetch()} />
        ) : contact.data ? (
          <ContactDetails key={contact.data.id} contact={contact.data} format={format} onEdit={() => contact.data && onEdit(contact.data)} onDeleted={onClose} />
        ) : null}
      </SheetContent>
    </Sheet>
  );
}
