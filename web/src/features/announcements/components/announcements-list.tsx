import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ExternalLink, Megaphone, X } from "lucide-react";
import { useLingui } from "@lingui/react/macro";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { notifyError } from "@/lib/notify";
import { announcementKeys, announcementsQuery, markAnnouncementSeen } from "../api/announcements-api";

/**
 * Unseen announcements for a screen `code` (GET /api/me/announcements?code=...), each dismissible
 * (POST /api/me/announcements/seen). A failed read shows nothing (spec §8 "list reads mostly
 * swallow errors").
 */
export function AnnouncementsList({ code }: { code: string }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const announcements = useQuery(announcementsQuery(code));
  const dismiss = useMutation({
    mutationFn: markAnnouncementSeen,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: announcementKeys.byCode(code) }),
    onError: (error) => notifyError(error),
  });
  if (!announcements.data?.length) return null;
  return (
    <section aria-label={t`Announcements`} className="grid gap-2">
      {announcements.data.map((item) => (
        <Alert key={item.id}>
          <Megaphone className="text-primary" />
          <div className="min-w-0 flex-1">
            <p className="font-medium">{item.title}</p>
            <p className="text-muted-foreground">{item.body}</p>
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
            aria-label={t`Dismiss announcement`}
          >
            <X />
          </Button>
        </Alert>
      ))}
    </section>
  );
}
