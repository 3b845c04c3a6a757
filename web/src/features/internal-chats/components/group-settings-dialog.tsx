/**
 * A group's settings (PUT /api/internal-chats/{id}): rename it, add members, remove members (only
 * the group's creator, unless the creator has left: the worker answers 403 otherwise, so the remove
 * buttons are shown only to who may use them), and leave it.
 */
import { useEffect, useMemo, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { LogOut, X } from "lucide-react";
import { Avatar } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { MultiSelect } from "@/components/ui/multi-select";
import { Spinner } from "@/components/ui/spinner";
import { notifyError } from "@/lib/notify";
import { MAX_GROUP_NAME_LENGTH, type InternalChatAnswer } from "../../../../../schema/validation/internal-chats";
import { internalChatKeys, internalChatMembersQuery, updateInternalChat } from "../api/internal-chats-api";

/** Props of {@link GroupSettingsDialog}. */
export type GroupSettingsDialogProps = {
  chat: InternalChatAnswer;
  memberId: string | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The member left the group. */
  onLeft: () => void;
};

/** The settings of one group. */
export function GroupSettingsDialog({ chat, memberId, open, onOpenChange, onLeft }: GroupSettingsDialogProps) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const [name, setName] = useState(chat.name ?? "");
  const [adding, setAdding] = useState<string[]>([]);
  const [confirmLeave, setConfirmLeave] = useState(false);
  const members = useQuery({ ...internalChatMembersQuery(), enabled: open });
  const current = chat.members.map((m) => m.memberId);
  const addable = useMemo(() => (members.data ?? []).filter((m) => !current.includes(m.memberId)), [members.data, current]);
  const creatorPresent = current.includes(chat.createdByMemberId);
  const mayRemove = chat.createdByMemberId === memberId || !creatorPresent;

  useEffect(() => {
    if (open) {
      setName(chat.name ?? "");
      setAdding([]);
    }
  }, [open, chat.name]);

  const update = useMutation({
    mutationFn: (input: { name?: string; memberIds?: string[] }) => updateInternalChat(chat.id, input),
    onSuccess: (answer) => {
      void queryClient.invalidateQueries({ queryKey: internalChatKeys.lists() });
      if (answer) queryClient.setQueryData(internalChatKeys.detail(chat.id), answer);
      else {
        queryClient.removeQueries({ queryKey: internalChatKeys.detail(chat.id) });
        onOpenChange(false);
        onLeft();
      }
    },
    onError: (error) => notifyError(error),
  });

  const save = () => {
    const trimmed = name.trim();
    update.mutate(
      { ...(trimmed && trimmed !== chat.name ? { name: trimmed } : {}), ...(adding.length ? { memberIds: [...current, ...adding] } : {}) },
      { onSuccess: () => onOpenChange(false) },
    );
  };

  const remove = (id: string) => update.mutate({ memberIds: current.filter((m) => m !== id) });
  const leave = () => update.mutate({ memberIds: current.filter((m) => m !== memberId) }, { onSettled: () => setConfirmLeave(false) });
  const changed = (name.trim() !== "" && name.trim() !== chat.name) || adding.length > 0;

  return (
    <>
      <Dialog open={open} onOpenChange={(next) => !update.isPending && onOpenChange(next)}>
        <DialogContent data-testid="internal-group-settings-dialog">
          <DialogHeader>
            <DialogTitle>{t`Group settings`}</DialogTitle>
            <DialogDescription>{t`Any member renames the group and adds members; only its creator removes members.`}</DialogDescription>
          </DialogHeader>
          <div className="grid gap-3">
            <FormField label={t`Group name`}>
              <Input value={name} onChange={(event) => setName(event.target.value)} maxLength={MAX_GROUP_NAME_LENGTH} />
            </FormField>
            <FormField label={t`Add members`}>
              <MultiSelect
                options={addable.map((m) => ({ value: m.memberId, label: m.name }))}
                value={adding}
                onValueChange={setAdding}
                placeholder={t`Choose members`}
                searchLabel={t`Search members`}
                emptyText={t`Everybody is already in this group.`}
              />
            </FormField>
            <div className="grid gap-1">
              <p className="text-sm font-medium">{t`Members`}</p>
              <ul className="grid max-h-60 gap-1 overflow-y-auto" aria-label={t`Members`}>
                {chat.members.map((member) => (
                  <li key={member.memberId} className="flex items-center gap-2 rounded-md px-1 py-1 text-sm">
                    <Avatar name={member.name} src={member.image} className="size-7" />
                    <span className="min-w-0 flex-1 truncate">
                      {member.name}
                      {member.memberId === memberId ? <span className="text-muted-foreground"> {t`(you)`}</span> : null}
                    </span>
                    {member.memberId === chat.createdByMemberId ? <span className="text-xs text-muted-foreground">{t`Creator`}</span> : null}
                    {mayRemove && member.memberId !== memberId ? (
                      <Button variant="ghost" size="icon" className="size-7" disabled={update.isPending} onClick={() => remove(member.memberId)} aria-label={t`Remove ${member.name}`}>
                        <X />
                      </Button>
                    ) : null}
                  </li>
                ))}
              </ul>
            </div>
          </div>
          <DialogFooter className="sm:justify-between">
            <Button variant="ghost" className="text-destructive hover:text-destructive" onClick={() => setConfirmLeave(true)} disabled={update.isPending}>
              <LogOut />
              {t`Leave group`}
            </Button>
            <div className="flex gap-2">
              <Button variant="outline" onClick={() => onOpenChange(false)} disabled={update.isPending}>
                {t`Cancel`}
              </Button>
              <Button onClick={save} disabled={!changed || update.isPending}>
                {update.isPending ? <Spinner /> : null}
                {t`Save`}
              </Button>
            </div>
          </DialogFooter>
        </DialogContent>
      </Dialog>
      <ConfirmDialog
        open={confirmLeave}
        onOpenChange={setConfirmLeave}
        title={t`Leave this group?`}
        description={t`You stop receiving its messages. A member can add you again.`}
        confirmLabel={t`Leave group`}
        onConfirm={leave}
        pending={update.isPending}
      />
    </>
  );
}
