/**
 * The contact side panel: name, phone, email, the connection and the ticket's people, and the ad the
 * ticket began with (WhatsApp referral). Tags come with a later issue and are not shown until the
 * contact has any.
 */
import { useLingui } from "@lingui/react/macro";
import { Mail, Phone, Plug, UserRound, X } from "lucide-react";
import type { ReactNode } from "react";
import { Avatar } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";
import type { TicketAnswer } from "../../../../../schema/realtime";
import { StatusBadge } from "./status-badge";
import { formatPhone } from "@/lib/phone";
import { ReferralCard } from "@/components/referral-card";

function Row({ icon, label, children }: { icon: ReactNode; label: string; children: ReactNode }) {
  return (
    <div className="relative min-w-0 pl-7 text-sm">
      <dt className="text-xs text-muted-foreground">
        <span className="absolute top-0.5 left-0 [&_svg]:size-4" aria-hidden>
          {icon}
        </span>
        {label}
      </dt>
      <dd className="break-words">{children}</dd>
    </div>
  );
}

/** The panel for the open ticket's contact; `onClose` hides it. */
export function ContactPanel({ ticket, onClose }: { ticket: TicketAnswer; onClose: () => void }) {
  const { t } = useLingui();
  const { contact } = ticket;
  return (
    <aside className="flex h-full w-full flex-col overflow-y-auto" aria-label={t`Contact details`}>
      <div className="flex items-center justify-between border-b px-4 py-3">
        <h2 className="text-sm font-semibold">{t`Contact`}</h2>
        <Button variant="ghost" size="icon" className="size-8" onClick={onClose} aria-label={t`Close contact details`}>
          <X />
        </Button>
      </div>
      <div className="flex flex-col items-center gap-2 px-4 py-6 text-center">
        <Avatar name={contact.name} src={contact.image} className="size-16 text-lg" />
        <p className="font-semibold">{contact.name}</p>
        <StatusBadge status={ticket.status} />
      </div>
      <dl className="grid gap-4 px-4 pb-6">
        <Row icon={<Phone />} label={t`Phone`}>
          {contact.phone ? <a href={`tel:${contact.phone}`} className="hover:underline">{formatPhone(contact.phone)}</a> : <span className="text-muted-foreground">{t`Not informed`}</span>}
        </Row>
        <Row icon={<Mail />} label={t`Email`}>
          {contact.email ? <a href={`mailto:${contact.email}`} className="hover:underline">{contact.email}</a> : <span className="text-muted-foreground">{t`Not informed`}</span>}
        </Row>
        <Row icon={<Plug />} label={t`Connection`}>
          {ticket.connection.name}
        </Row>
        <Row icon={<UserRound />} label={t`Assigned member`}>
          {ticket.assignedMemberName ?? <span className="text-muted-foreground">{t`Nobody yet`}</span>}
        </Row>
      </dl>
      {ticket.referral ? (
        <div className="px-4 pb-6">
          <ReferralCard referral={ticket.referral} />
        </div>
      ) : null}
    </aside>
  );
}
