/**
 * The ticket actions of spec §4: accept a pending ticket (open, assigned to the viewer), reopen a
 * closed one, transfer to another member (a picker of the online members, all members for those who
 * may list them), and close after a confirmation (the connection's farewell message goes out).
 */
import { useMemo, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { ArrowRightLeft, CheckCircle2, Inbox, MoreHorizontal, RotateCcw, Search, Workflow } from "lucide-react";
import { Avatar } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { notifyError } from "@/lib/notify";
import { cn } from "@/lib/utils";
import type { TicketAnswer } from "../../../../../schema/realtime";
import { chatKeys, ticketAction, transferMembersQuery, transferTicket } from "../api/chats-api";
import { useHubEvents } from "@/lib/realtime";
import { applyTicket } from "../hooks/use-live-tickets";
import { learnMemberId } from "../hooks/use-viewer";
import type { TicketViewer } from "../lib/ticket-list";
import { StartFlowDialog } from "./start-flow-dialog";

/** Props of the actions: the ticket, the viewer, and what to do when the viewer loses sight of it. */
type ActionsProps = { ticket: TicketAnswer; viewer: TicketViewer & { userId: string | null; canManageMembers: boolean }; onGone: () => void };

function MemberPicker({ ticket, viewer, open, onOpenChange, onGone }: ActionsProps & { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const [showAll, setShowAll] = useState(false);
  const [search, setSearch] = useState("");
  const [chosen, setChosen] = useState<string | null>(null);
  const members = useQuery({ ...transferMembersQuery(showAll && viewer.canManageMembers), enabled: open });
  // Online dots follow the team live: a member's toggle (hub `presence`) refetches the picker (issue 12).
  useHubEvents((event) => {
    if (event.type === "presence") void queryClient.invalidateQueries({ queryKey: chatKeys.members() });
  });
  const list = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return (members.data ?? []).filter((m) => m.id !== ticket.assignedMemberId && (!needle || m.name.toLowerCase().includes(needle) || m.email.toLowerCase().includes(needle)));
  }, [members.data, search, ticket.assignedMemberId]);
  const transfer = useMutation({
    mutationFn: (memberId: string) => transferTicket(ticket.id, memberId),
    onSuccess: (answer) => {
      applyTicket(queryClient, answer, viewer);
      onOpenChange(false);
      if (!viewer.seeAll && answer.assignedMemberId !== viewer.memberId) onGone();
    },
    onError: (error) => notifyError(error),
  });
  return (
    <Dialog open={open} onOpenChange={(next) => !transfer.isPending && onOpenChange(next)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t`Transfer ticket`}</DialogTitle>
          <DialogDescription>{t`Choose the member who will serve this conversation.`}</DialogDescription>
        </DialogHeader>
        <div className="relative">
          <Search className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-muted-foreground" aria-hidden />
          <Input value={search} onChange={(e) => setSearch(e.target.value)} placeholder={t`Search members`} aria-label={t`Search members`} className="pl-8" />
        </div>
        <div role="listbox" aria-label={t`Members`} className="grid max-h-72 gap-1 overflow-y-auto">
          {members.isPending ? (
            Array.from({ length: 3 }, (_, i) => <Skeleton key={i} className="h-12" />)
          ) : members.isError ? (
            <p className="py-4 text-center text-sm text-muted-foreground">{t`Could not load the members.`}</p>
          ) : list.length === 0 ? (
            <p className="py-4 text-center text-sm text-muted-foreground">{showAll ? t`No other members.` : t`No other member is online.`}</p>
          ) : (
            list.map((member) => (
              <button
                key={member.id}
                type="button"
                role="option"
                aria-selected={chosen === member.id}
                onClick={() => setChosen(member.id)}
                onDoubleClick={() => transfer.mutate(member.id)}
                className={cn(
                  "flex items-center gap-3 rounded-md px-2 py-2 text-left text-sm outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring",
                  chosen === member.id && "bg-accent",
                )}
              >
                <Avatar name={member.name} src={member.image} />
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-medium">{member.name}</span>
                  <span className="block truncate text-xs text-muted-foreground">{member.email}</span>
                </span>
                <span className={cn("size-2 rounded-full", member.status === "online" ? "bg-emerald-500" : "bg-muted-foreground/40")} aria-label={member.status === "online" ? t`Online` : t`Offline`} role="img" />
              </button>
            ))
          )}
        </div>
        {viewer.canManageMembers ? (
          <Button variant="link" size="sm" className="justify-self-start px-0" onClick={() => setShowAll((v) => !v)}>
            {showAll ? t`Show online members only` : t`Show all members`}
          </Button>
        ) : null}
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={transfer.isPending}>
            {t`Cancel`}
          </Button>
          <Button onClick={() => chosen && transfer.mutate(chosen)} disabled={!chosen || transfer.isPending} data-testid="ticket-transfer-confirm">
            {transfer.isPending ? <Spinner /> : null}
            {t`Transfer`}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/**
 * The header's action buttons for a ticket. Sized by the header's width (a CSS container, see
 * ConversationView), not the window's: Accept/Reopen always stay inline (labelled from 28rem);
 * Start a flow, Transfer and Close are inline from 36rem and otherwise sit in a "More actions" menu.
 */
export function TicketActions({ ticket, viewer, onGone }: ActionsProps) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const [transferOpen, setTransferOpen] = useState(false);
  const [closeOpen, setCloseOpen] = useState(false);
  const [flowOpen, setFlowOpen] = useState(false);
  const act = useMutation({
    mutationFn: (action: "open" | "close") => ticketAction(ticket.id, action),
    onSuccess: (answer, action) => {
      if (action === "open" && viewer.userId && answer.assignedMemberId) learnMemberId(viewer.userId, answer.assignedMemberId);
      applyTicket(queryClient, answer, viewer);
      setCloseOpen(false);
    },
    onError: (error) => notifyError(error),
  });
  const opening = act.isPending && act.variables === "open";
  return (
    <div className="flex shrink-0 items-center gap-1">
      {ticket.status === "pending" ? (
        <Button size="sm" onClick={() => act.mutate("open")} disabled={act.isPending} aria-label={t`Accept ticket`} data-testid="ticket-accept">
          {opening ? <Spinner /> : <Inbox />}
          <span className="hidden @md:inline">{t`Accept`}</span>
        </Button>
      ) : null}
      {ticket.status === "closed" ? (
        <Button size="sm" variant="outline" onClick={() => act.mutate("open")} disabled={act.isPending} aria-label={t`Reopen ticket`} data-testid="ticket-reopen">
          {opening ? <Spinner /> : <RotateCcw />}
          <span className="hidden @md:inline">{t`Reopen`}</span>
        </Button>
      ) : (
        <>
          {/* Wide header: the secondary actions inline (labelled when there is room). */}
          <div className="hidden items-center gap-1 @xl:flex">
            <Button size="sm" variant="outline" onClick={() => setFlowOpen(true)} disabled={act.isPending} aria-label={t`Start a flow`} data-testid="ticket-start-flow">
              <Workflow />
              <span className="hidden @4xl:inline">{t`Start a flow`}</span>
            </Button>
            <Button size="sm" variant="outline" onClick={() => setTransferOpen(true)} disabled={act.isPending} aria-label={t`Transfer ticket`} data-testid="ticket-transfer">
              <ArrowRightLeft />
              <span className="hidden @3xl:inline">{t`Transfer`}</span>
            </Button>
            <Button size="sm" variant="outline" onClick={() => setCloseOpen(true)} disabled={act.isPending} aria-label={t`Close ticket`} data-testid="ticket-close">
              <CheckCircle2 />
              <span className="hidden @3xl:inline">{t`Close`}</span>
            </Button>
          </div>
          {/* Narrow header: the same actions in a menu, so the contact's name keeps its room. */}
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button size="icon" variant="ghost" className="@xl:hidden" disabled={act.isPending} aria-label={t`More actions`} data-testid="ticket-more">
                <MoreHorizontal />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent>
              <DropdownMenuItem onSelect={() => setFlowOpen(true)} data-testid="ticket-menu-start-flow">
                <Workflow aria-hidden />
                {t`Start a flow`}
              </DropdownMenuItem>
              <DropdownMenuItem onSelect={() => setTransferOpen(true)} data-testid="ticket-menu-transfer">
                <ArrowRightLeft aria-hidden />
                {t`Transfer ticket`}
              </DropdownMenuItem>
              <DropdownMenuItem onSelect={() => setCloseOpen(true)} data-testid="ticket-menu-close">
                <CheckCircle2 aria-hidden />
                {t`Close ticket`}
              </DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>
        </>
      )}
      {flowOpen ? <StartFlowDialog ticketId={ticket.id} open={flowOpen} onOpenChange={setFlowOpen} /> : null}
      {transferOpen ? <MemberPicker ticket={ticket} viewer={viewer} onGone={onGone} open={transferOpen} onOpenChange={setTransferOpen} /> : null}
      <ConfirmDialog
        open={closeOpen}
        onOpenChange={setCloseOpen}
        title={t`Close this ticket?`}
        description={t`The conversation ends and the connection's farewell message is sent to the contact. A new message from the contact opens a new ticket.`}
        confirmLabel={t`Close ticket`}
        onConfirm={() => act.mutate("close")}
        pending={act.isPending && act.variables === "close"}
        destructive={false}
      />
    </div>
  );
}
