/**
 * Announcements in the notifications bell (issue 12): the unseen ones meant for everywhere (no
 * `code`: GET /api/me/announcements), each marked seen with its button. `useBellAnnouncements`
 * gives the bell their count for its badge.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { Megaphone, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { notifyError } from "@/lib/notify";
import { announcementKeys, announcementsQuery, markAnnouncementSeen } from "../api/announcements-api";
import { AnnouncementBody } from "./announcement-body";

/** The bell's code: announcements without one. */
const BELL = "";

/** The unseen announcements for everywhere (refreshed every 5 minutes). */
export function useBellAnnouncements() {
  return useQuery({ ...announcementsQuery(BELL), refetchInterval: 5 * 60_000 });
}

/** The announcements part of the bell's menu; nothing when there is none. */
export function AnnouncementsBellSection() {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const list = useBellAnnouncements();
  const seen = useMutation({
    mutationFn: markAnnouncementSeen,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: announcementKeys.all }),
    onError: (error) => notifyError(error),
  });
  if (!list.data?.length) return null;
  return (
    <section aria-label={t`Announcements`} className="mb-3 grid gap-2">
      {list.data.map((item) => (
        <div key={item.id} className="flex items-start gap-2 rounded-md border border-primary/40 bg-primary/5 p-2.5" data-testid="bell-announcement">
          <Megaphone className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
          <div className="min-w-0 flex-1 text-sm">
            <p className="font-medium">{item.title}</p>
            <AnnouncementBody text={item.body} className="text-muted-foreground" />
          </div>
          <Button variant="ghost" size="icon" className="-my-1 size-7" onClick={() => seen.mutate(item.id)} disabled={seen.isPending} aria-label={t`Mark as seen`} title={t`Mark as seen`}>
            <X />
          </Button>
        </div>
      ))}
    </section>
  );
}
