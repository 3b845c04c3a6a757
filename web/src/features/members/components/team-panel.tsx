import { useState } from "react";
import { useLingui } from "@lingui/react/macro";
import { Crown, MailPlus, Pencil, Send, Trash2, UserMinus, Users, X } from "lucide-react";
import { Avatar } from "@/components/ui/avatar";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Skeleton } from "@/components/ui/skeleton";
import { notifyError } from "@/lib/notify";
import { cn } from "@/lib/utils";
import { useMe, usePermissions } from "@/features/session/hooks/use-session";
import { useRoles } from "@/features/roles/hooks/use-roles";
import type { InviteAnswer, MemberAnswer } from "../../../../../schema/api-types";
import { useCancelInvite, useCompanyInvites, useMembers, useRemoveMember } from "../hooks/use-team";
import { EditMemberDialog } from "./edit-member-dialog";
import { InviteDialog } from "./invite-dialog";
import { formatDate } from "@/lib/dates";

function ListSkeleton({ rows = 3 }: { rows?: number }) {
  return (
    <div className="grid gap-3 p-4" aria-busy>
      {Array.from({ length: rows }, (_, index) => (
        <div key={index} className="flex items-center gap-3">
          <Skeleton className="size-10 rounded-full" />
          <div className="grid flex-1 gap-2">
            <Skeleton className="h-4 w-40" />
            <Skeleton className="h-3 w-56" />
          </div>
          <Skeleton className="h-8 w-24" />
        </div>
      ))}
    </div>
  );
}

function OnlineStatus({ status }: { status: MemberAnswer["status"] }) {
  const { t } = useLingui();
  return (
    <span className="inline-flex items-center gap-1.5 text-xs text-muted-foreground">
      <span className={cn("size-2 rounded-full", status === "online" ? "bg-emerald-500" : "bg-muted-foreground/40")} aria-hidden />
      {status === "online" ? t`Online` : t`Offline`}
    </span>
  );
}

function MemberRow({
  member,
  isMe,
  ownerRoleId,
  onEdit,
  onRemove,
}: {
  member: MemberAnswer;
  isMe: boolean;
  /** The Owner role, shown as the owner badge rather than as one more role. */
  ownerRoleId: string | undefined;
  onEdit: () => void;
  onRemove: () => void;
}) {
  const { t } = useLingui();
  const name = member.name;
  const ownerNoteId = `owner-note-${member.id}`;
  const selfNoteId = `self-note-${member.id}`;
  return (
    <li className="flex flex-col gap-3 p-4 md:flex-row md:items-center">
      <div className="flex min-w-0 flex-1 items-center gap-3">
        <div className="relative shrink-0">
          <Avatar name={member.name} src={member.image} className="size-10" />
          <span
            className={cn(
              "absolute right-0 bottom-0 size-3 rounded-full border-2 border-card",
              member.status === "online" ? "bg-emerald-500" : "bg-muted-foreground/40",
            )}
            aria-hidden
          />
        </div>
        <div className="grid min-w-0 gap-0.5">
          <p className="flex min-w-0 items-center gap-2 text-sm font-medium">
            <span className="truncate">{member.name}</span>
            {isMe ? <span className="shrink-0 text-xs font-normal text-muted-foreground">{t`(you)`}</span> : null}
          </p>
          <p className="truncate text-xs text-muted-foreground">{member.email}</p>
          <OnlineStatus status={member.status} />
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-1 md:max-w-xs md:justify-end">
        {member.isOwner ? (
          <Badge>
            <Crown className="size-3" aria-hidden />
            {t`Owner`}
          </Badge>
        ) : null}
        {member.roles
          .filter((role) => !(member.isOwner && role.id === ownerRoleId))
          .map((role) => (
            <Badge key={role.id} variant="secondary">
              {role.name}
            </Badge>
          ))}
        {!member.isOwner && member.roles.length === 0 ? <span className="text-xs text-muted-foreground">{t`No roles`}</span> : null}
      </div>
      <div className="flex shrink-0 flex-col gap-1 md:items-end">
        <div className="flex gap-2">
          <Button
            variant="outline"
            size="sm"
            onClick={onEdit}
            disabled={member.isOwner || isMe}
            aria-label={t`Edit roles of ${name}`}
            aria-describedby={member.isOwner ? ownerNoteId : isMe ? selfNoteId : undefined}
          >
            <Pencil />
            <span className="hidden sm:inline">{t`Edit roles`}</span>
          </Button>
          <Button
            variant="outline"
            size="sm"
            className="text-destructive hover:text-destructive"
            onClick={onRemove}
            disabled={member.isOwner}
            aria-label={t`Remove ${name}`}
            aria-describedby={member.isOwner ? ownerNoteId : undefined}
          >
            <UserMinus />
            <span className="hidden sm:inline">{t`Remove`}</span>
          </Button>
        </div>
        {member.isOwner ? (
          <p id={ownerNoteId} className="text-xs text-muted-foreground md:text-right">
            {t`The company owner cannot be edited or removed.`}
          </p>
        ) : isMe ? (
          <p id={selfNoteId} className="text-xs text-muted-foreground md:text-right">
            {t`You cannot change your own roles.`}
          </p>
        ) : null}
      </div>
    </li>
  );
}

function InviteRow({ invite, onCancel, busy }: { invite: InviteAnswer; onCancel: () => void; busy: boolean }) {
  const { t, i18n } = useLingui();
  const email = invite.email;
  const date = formatDate(invite.createdAt, { locale: i18n.locale, style: "medium" });
  return (
    <li className="flex flex-col gap-2 p-4 sm:flex-row sm:items-center">
      <div className="grid min-w-0 flex-1 gap-1">
        <p className="truncate text-sm font-medium">{invite.email}</p>
        <p className="text-xs text-muted-foreground">{t`Invited on ${date}`}</p>
      </div>
      <div className="flex flex-wrap gap-1">
        {invite.roles.map((role) => (
          <Badge key={role.id} variant="secondary">
            {role.name}
          </Badge>
        ))}
      </div>
      <Button variant="ghost" size="sm" onClick={onCancel} disabled={busy} aria-label={t`Cancel invitation to ${email}`}>
        <X />
        {t`Cancel invitation`}
      </Button>
    </li>
  );
}

function PendingInvites() {
  const { t } = useLingui();
  const invites = useCompanyInvites();
  const cancel = useCancelInvite();
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">{t`Pending invitations`}</CardTitle>
        <CardDescription>{t`Invitations not accepted or rejected yet.`}</CardDescription>
      </CardHeader>
      <CardContent className="p-0 pt-2">
        {invites.isPending ? (
          <ListSkeleton rows={2} />
        ) : invites.isError ? (
          <ErrorState title={t`Could not load the invitations.`} onRetry={() => void invites.refetch()} />
        ) : invites.data.length === 0 ? (
          <EmptyState className="py-8" icon={<Send />} title={t`No pending invitations`} description={t`People you invite appear here until they answer.`} />
        ) : (
          <ul className="divide-y border-t">
            {invites.data.map((invite) => (
              <InviteRow
                key={invite.id}
                invite={invite}
                busy={cancel.isPending && cancel.variables === invite.id}
                onCancel={() => cancel.mutate(invite.id, { onError: (error) => notifyError(error) })}
              />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * The team of the active company (spec §2 settings tab "members/team", §6 settings_members):
 * members with picture, name, e-mail, online status and roles, the owner marked and protected;
 * invite by e-mail with roles; pending invitations with cancel; edit a member's roles; remove a
 * member after confirmation.
 */
export function TeamPanel() {
  const { t } = useLingui();
  const members = useMembers();
  const roles = useRoles();
  const me = useMe();
  const permissions = usePermissions();
  const remove = useRemoveMember();
  const [inviting, setInviting] = useState(false);
  const [editing, setEditing] = useState<MemberAnswer | null>(null);
  const [removing, setRemoving] = useState<MemberAnswer | null>(null);
  const removingName = removing?.name ?? "";
  const ownerRoleId = roles.data?.find((role) => role.isOwner)?.id;

  return (
    <div className="grid gap-4">
      <Card>
        <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
          <div className="grid gap-1.5">
            <CardTitle as="h2">{t`Team`}</CardTitle>
            <CardDescription>{t`Members of the company and their roles.`}</CardDescription>
          </div>
          <Button onClick={() => setInviting(true)} disabled={roles.isPending || roles.isError}>
            <MailPlus />
            {t`Invite member`}
          </Button>
        </CardHeader>
        <CardContent className="p-0 pt-4">
          {members.isPending ? (
            <ListSkeleton />
          ) : members.isError ? (
            <ErrorState title={t`Could not load the team.`} onRetry={() => void members.refetch()} />
          ) : members.data.length === 0 ? (
            <EmptyState className="py-8" icon={<Users />} title={t`No members yet`} description={t`Invite people to work with you.`} />
          ) : (
            <ul className="divide-y border-t">
              {members.data.map((member) => (
                <MemberRow
                  key={member.id}
                  member={member}
                  isMe={member.userId === me.data?.id}
                  ownerRoleId={ownerRoleId}
                  onEdit={() => setEditing(member)}
                  onRemove={() => setRemoving(member)}
                />
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      <PendingInvites />
      <InviteDialog
        open={inviting}
        onOpenChange={setInviting}
        roles={roles.data ?? []}
        canManageRoles={permissions.data?.has("settings_company") === true}
      />
      <EditMemberDialog member={editing} roles={roles.data ?? []} onClose={() => setEditing(null)} />
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => (open ? undefined : setRemoving(null))}
        title={t`Remove ${removingName}?`}
        description={t`They lose access to this company right away. You can invite them again later.`}
        confirmLabel={
          <>
            <Trash2 />
            {t`Remove member`}
          </>
        }
        pending={remove.isPending}
        onConfirm={() => {
          if (!removing) return;
          remove.mutate(removing.id, {
            onSuccess: () => setRemoving(null),
            onError: (error) => notifyError(error),
          });
        }}
      />
    </div>
  );
}
