/**
 * The header's bell (issue 5: the flow's notification block "alerts chosen members in the app"):
 * each notification the hub sends this member pops up as a toast (5000 ms) with its text and a link
 * to the conversation or the contact, and the last 20 of this session stay in the bell's menu with
 * an unread count; opening the menu marks them read.
 */
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { useLingui } from "@lingui/react/macro";
import { countText } from "@/lib/counts";
import { toast } from "sonner";
import { Bell, BellOff } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { formatRelative } from "@/lib/relative-time";
import { TOAST_DURATION_MS } from "@/lib/notify";
import { cn } from "@/lib/utils";
import { usePermissions } from "@/features/session/hooks/use-session";
import { useFlowNotifications } from "../hooks/use-notifications";
import { useWaitingTicketAlerts } from "../hooks/use-waiting-tickets";
import { AnnouncementsBellSection, useBellAnnouncements } from "@/features/announcements/components/announcements-bell-section";
import { badgeText, notificationTarget, unreadCount, type FlowNotification, type FlowNotificationBody } from "../lib/notification-list";

/** The text of a notification: a flow's own message, or a webhook's burst in the member's language. */
function useNotificationText(): (notification: FlowNotificationBody) => string {
  const { t } = useLingui();
  const webhookSpamText = (webhookName: string, limit: number) => t`The webhook ${webhookName} received more than ${limit} requests in a minute and was switched to test mode.`;
  return (notification) =>
    "kind" in notification && notification.kind === "internal_mention"
      ? t`${notification.from} mentioned you: ${notification.text}`
      : "kind" in notification
      ? webhookSpamText(notification.webhookName, notification.limit)
      : notification.text;
}

function NotificationItem({ notification, fresh, permissions, onOpen }: { notification: FlowNotification; fresh: boolean; permissions: ReadonlySet<string>; onOpen: () => void }) {
  const { t, i18n } = useLingui();
  const target = notificationTarget(notification, permissions);
  const textOf = useNotificationText();
  return (
    <li className={cn("grid gap-1 rounded-md border p-2.5", fresh && "border-primary/50 bg-primary/5")} data-testid="notification-item">
      <div className="flex items-start gap-2">
        {fresh ? <span className="mt-1.5 size-2 shrink-0 rounded-full bg-primary" aria-hidden /> : null}
        <p className="min-w-0 flex-1 text-sm break-words whitespace-pre-wrap">{textOf(notification)}</p>
      </div>
      <div className="flex items-center gap-2 text-xs text-muted-foreground">
        <time dateTime={new Date(notification.at).toISOString()}>{formatRelative(notification.at, Date.now(), i18n.locale)}</time>
        {fresh ? <span className="sr-only">{t`New`}</span> : null}
        {target ? (
          <Link to={target.to} onClick={onOpen} className="ml-auto font-medium text-foreground underline-offset-4 outline-none hover:underline focus-visible:underline">
            {target.kind === "ticket" ? t`Open conversation` : target.kind === "webhook" ? t`Open webhook` : target.kind === "internal_chat" ? t`Open chat` : t`Open contact`}
          </Link>
        ) : null}
      </div>
    </li>
  );
}

/** The bell with the unread count, opening the recent notifications; shows each new one as a toast. */
export function NotificationsMenu() {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const permissions = usePermissions();
  const granted = permissions.data ?? new Set<string>();
  const [open, setOpen] = useState(false);
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  const textOf = useNotificationText();
  const { list, markRead, clear } = useFlowNotifications((notification) => {
    const target = notificationTarget(notification, permissions.data ?? new Set());
    toast.info(textOf(notification), {
      id: `notification-${notification.id}`,
      duration: TOAST_DURATION_MS,
      action: target ? { label: target.kind === "ticket" ? t`Open conversation` : target.kind === "webhook" ? t`Open webhook` : target.kind === "internal_chat" ? t`Open chat` : t`Open contact`, onClick: () => void navigate(target.to) } : undefined,
    });
  });
  // Conversations waiting (online members only) and unseen announcements (issue 12).
  useWaitingTicketAlerts();
  const announcements = useBellAnnouncements();
  const count = unreadCount(list) + (announcements.data?.length ?? 0);
  const label = count > 0 ? countText(i18n, "notificationsUnread", count) : t`Notifications`;

  const onOpenChange = (next: boolean) => {
    if (next) {
      setFresh(new Set(list.items.filter((item) => !item.read).map((item) => item.id)));
      markRead();
    }
    setOpen(next);
  };

  return (
    <Popover open={open} onOpenChange={onOpenChange}>
      <PopoverTrigger asChild>
        <Button variant="ghost" size="icon" className="relative" aria-label={label} title={label} data-testid="notifications-bell">
          <Bell />
          {count > 0 ? (
            <span aria-hidden className="absolute -top-0.5 -right-0.5 flex size-4 items-center justify-center rounded-full bg-primary text-[10px] font-semibold text-primary-foreground">
              {badgeText(count)}
            </span>
          ) : null}
        </Button>
      </PopoverTrigger>
      <PopoverContent className="w-96 max-w-[calc(100vw-1rem)]">
        <div className="mb-3 flex items-center justify-between gap-2">
          <h2 className="text-sm font-semibold">{t`Notifications`}</h2>
          {list.items.length ? (
            <Button variant="ghost" size="sm" onClick={clear}>
              {t`Clear`}
            </Button>
          ) : null}
        </div>
        <AnnouncementsBellSection />
        {list.items.length ? (
          <ul className="grid max-h-[60vh] gap-2 overflow-y-auto" aria-label={t`Recent notifications`}>
            {list.items.map((notification) => (
              <NotificationItem key={notification.id} notification={notification} fresh={fresh.has(notification.id)} permissions={granted} onOpen={() => setOpen(false)} />
            ))}
          </ul>
        ) : (
          <div className="flex flex-col items-center gap-2 px-4 py-6 text-center">
            <span className="flex size-10 items-center justify-center rounded-full bg-muted text-muted-foreground" aria-hidden>
              <BellOff className="size-5" />
            </span>
            <p className="text-sm font-medium">{t`No notifications yet.`}</p>
            <p className="text-xs text-muted-foreground">{t`Alerts from your flows appear here while the app is open.`}</p>
          </div>
        )}
      </PopoverContent>
    </Popover>
  );
}
