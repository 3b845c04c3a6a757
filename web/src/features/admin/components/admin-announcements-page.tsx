/**
 * /admin/announcements (issue 12; DESIGN.md "Platform administration"): the Admin area's
 * announcements, for platform administrators only (`platformAdmin` of GET /api/me; the API answers
 * 403 to anyone else). Newest first, with where each shows, its dates and whether it is showing now;
 * create and edit in a slide-over, delete after confirmation. Later issues add plans and franchises
 * to the Admin area.
 */
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { Megaphone, Plus } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { RowActions } from "@/components/row-actions";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { notifyError, notifySuccess } from "@/lib/notify";
import { AnnouncementBody } from "@/features/announcements/components/announcement-body";
import type { AdminAnnouncementAnswer } from "../../../../../schema/validation/announcements";
import { adminAnnouncementKeys, adminAnnouncementsQuery, deleteAnnouncement } from "../api/admin-announcements-api";
import { AnnouncementSheet, type AnnouncementSheetTarget } from "./announcement-sheet";
import { AdminListCard, useAdminAccess } from "./admin-page";
import { AdminTabs } from "./admin-tabs";

function AnnouncementRow({ item, onEdit, onDelete }: { item: AdminAnnouncementAnswer; onEdit: () => void; onDelete: () => void }) {
  const { t, i18n } = useLingui();
  const at = Date.now();
  const when = (ms: number) => new Intl.DateTimeFormat(i18n.locale, { dateStyle: "medium", timeStyle: "short" }).format(ms);
  const state = item.startsAt !== null && item.startsAt > at ? "scheduled" : item.endsAt !== null && item.endsAt <= at ? "ended" : "showing";
  const title = item.title;
  const code = item.code;
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-start" data-testid="admin-announcement-row" aria-label={title}>
      <div className="grid min-w-0 flex-1 gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <p className="font-medium">{title}</p>
          {state === "showing" ? <Badge>{t`Showing`}</Badge> : state === "scheduled" ? <Badge variant="secondary">{t`Scheduled`}</Badge> : <Badge variant="outline">{t`Ended`}</Badge>}
          <Badge variant="outline">{code ? t`Only: ${code}` : t`Everywhere`}</Badge>
        </div>
        <AnnouncementBody text={item.body} className="line-clamp-3 text-sm text-muted-foreground" />
        <p className="text-xs text-muted-foreground">
          {item.startsAt !== null ? t`From ${when(item.startsAt)}` : t`From its creation`}
          {" · "}
          {item.endsAt !== null ? t`until ${when(item.endsAt)}` : t`until deleted`}
        </p>
      </div>
      <RowActions name={title} onEdit={onEdit} onDelete={onDelete} />
    </li>
  );
}

/** The Admin area's announcements screen. */
export function AdminAnnouncementsPage() {
  const { t } = useLingui();
  const { allowed, gate } = useAdminAccess();
  const queryClient = useQueryClient();
  const list = useQuery({ ...adminAnnouncementsQuery(), enabled: allowed });
  const [target, setTarget] = useState<AnnouncementSheetTarget | null>(null);
  const [deleting, setDeleting] = useState<AdminAnnouncementAnswer | null>(null);
  const remove = useMutation({
    mutationFn: (id: string) => deleteAnnouncement(id),
    onSuccess: async () => {
      notifySuccess("deleted");
      setDeleting(null);
      await queryClient.invalidateQueries({ queryKey: adminAnnouncementKeys.all });
    },
    onError: (error) => notifyError(error),
  });

  if (gate) return gate;
  const deletingTitle = deleting?.title ?? "";
  return (
    <div className="grid gap-4">
      <AdminTabs />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="grid gap-1">
          <p className="text-sm font-medium text-muted-foreground">{t`Admin`}</p>
          <h1 className="text-2xl font-semibold tracking-tight">{t`Announcements`}</h1>
          <p className="text-sm text-muted-foreground">{t`Messages to the members of every company, on the dashboard and in the notifications bell.`}</p>
        </div>
        <Button onClick={() => setTarget({ kind: "new" })} data-testid="new-announcement">
          <Plus />
          {t`New announcement`}
        </Button>
      </div>
      <AdminListCard
        list={list}
        label={t`Announcements`}
        icon={<Megaphone />}
        emptyTitle={t`No announcements yet`}
        emptyDescription={t`Publish one to tell every company about news, maintenance or changes.`}
        newLabel={t`New announcement`}
        onNew={() => setTarget({ kind: "new" })}
        renderItem={(item) => <AnnouncementRow key={item.id} item={item} onEdit={() => setTarget({ kind: "edit", announcement: item })} onDelete={() => setDeleting(item)} />}
      />
      <AnnouncementSheet target={target} onClose={() => setTarget(null)} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title={t`Delete announcement?`}
        description={t`"${deletingTitle}" stops showing to every member.`}
        confirmLabel={t`Delete`}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        pending={remove.isPending}
        destructive
      />
    </div>
  );
}
