/**
 * Alerts about conversations waiting in the queue (issue 12 "Online status"): the hub sends
 * `ticket.waiting` only to members who are online (worker/lib/online-members.ts); each shows a
 * toast (5000 ms) with a link to the conversation. A member who switched offline gets none.
 */
import { useNavigate } from "react-router";
import { useLingui } from "@lingui/react/macro";
import { toast } from "sonner";
import { TOAST_DURATION_MS } from "@/lib/notify";
import { useHubEvents } from "@/lib/realtime";

/** Shows a toast for each new waiting conversation the hub announces to this member. */
export function useWaitingTicketAlerts(): void {
  const { t } = useLingui();
  const navigate = useNavigate();
  useHubEvents((event) => {
    if (event.type !== "ticket.waiting") return;
    const name = event.contactName;
    toast.info(t`${name} is waiting for an answer.`, {
      id: `waiting-${event.ticketId}`,
      duration: TOAST_DURATION_MS,
      action: { label: t`Open conversation`, onClick: () => void navigate(`/chats?ticket=${encodeURIComponent(event.ticketId)}`) },
    });
  });
}
