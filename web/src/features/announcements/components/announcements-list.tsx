import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ExternalLink, Megaphone, X } from "lucide-react";
import { useLingui } from "@lingui/react/macro";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { notifyError } from "@/lib/notify";
import { announcementKeys, announcementsQuery, markAnnouncementSeen } from "../api/announcements-api";
import { AnnouncementBody } from "./announcement-body";

/**
 * Unseen announcements for a screen `code` (GET /api/me/announcements?code=...), each marked seen
 * with its button (POST /api/me/announcements/seen); links in the body are links, never HTML. A failed read shows nothing (spec §8 "list reads mostly
 * swallow errors").
 */
export function AnnouncementsList({ code }: { code: string }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const announcements = useQuery(announcementsQuery(code));
  const dismiss = useMutation({
    mutationFn: markAnnouncementSeen,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: announcementKeys.all }),
    onError: (error) => notifyError(error),
  });
  if (!announcements.data?.length) return null;
  return (
    <section aria-label={t`Announcements`} className="grid gap-2">
      {announcements.data.map((item) => (
        <Alert key={item.id} data-testid="dashboard-announcement">
          <Megaphone className="text-primary" />
          <div className="min-w-0 flex-1">
            <p className="font-medium">{item.title}</p>
            <AnnouncementBody text={item.body} className="text-muted-foreground" />
            {item.url ? (
              <a href={item.url} target="_blank" rel="noreferrer noopener" className="mt-1 inline-flex items-center gap-1 text-primary underline-offset-4 hover:underline">
                {t`Learn more`}
                <ExternalLink className="size-3" />
              </a>
            ) : null}
          </div>
          <Button
            variant="ghost"
            size="icon"
            className="-my-1 size-7"
            onClick={() => dismiss.mutate(item.id)}
            disabled={dismiss.isPending}
            aria-label={t`Mark as seen`}
            title={t`Mark as seen`}
            data-testid="announcement-seen"
          >
            <X />
          </Button>
        </Alert>
      ))}
    </section>
  );
}
