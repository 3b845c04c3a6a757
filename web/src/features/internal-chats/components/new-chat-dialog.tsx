/**
 * "New conversation": a direct conversation with one member (picking them opens it; the pair's
 * existing conversation when there is one) or a group with a name and members (the creator is
 * added by the worker). POST /api/internal-chats.
 */
import { useMemo, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { Search, User, Users } from "lucide-react";
import { Avatar } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { MultiSelect } from "@/components/ui/multi-select";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { notifyError } from "@/lib/notify";
import { cn } from "@/lib/utils";
import { MAX_GROUP_NAME_LENGTH, type InternalChatAnswer, type InternalChatCreateInput } from "../../../../../schema/validation/internal-chats";
import { createInternalChat, internalChatKeys, internalChatMembersQuery } from "../api/internal-chats-api";

/** Props of {@link NewChatDialog}. */
export type NewChatDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  memberId: string | null;
  onCreated: (chat: InternalChatAnswer) => void;
};

/** The dialog that starts a direct conversation or creates a group. */
export function NewChatDialog({ open, onOpenChange, memberId, onCreated }: NewChatDialogProps) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<"direct" | "group">("direct");
  const [search, setSearch] = useState("");
  const [name, setName] = useState("");
  const [chosen, setChosen] = useState<string[]>([]);
  const [nameError, setNameError] = useState<string | undefined>(undefined);
  const members = useQuery({ ...internalChatMembersQuery(), enabled: open });
  const others = useMemo(() => (members.data ?? []).filter((m) => m.memberId !== memberId), [members.data, memberId]);
  const shown = useMemo(() => {
    const needle = search.trim().toLocaleLowerCase();
    return others.filter((m) => !needle || m.name.toLocaleLowerCase().includes(needle));
  }, [others, search]);

  const create = useMutation({
    mutationFn: (input: InternalChatCreateInput) => createInternalChat(input),
    onSuccess: (chat) => {
      void queryClient.invalidateQueries({ queryKey: internalChatKeys.lists() });
      queryClient.setQueryData(internalChatKeys.detail(chat.id), chat);
      onOpenChange(false);
      setName("");
      setChosen([]);
      setSearch("");
      onCreated(chat);
    },
    onError: (error) => notifyError(error),
  });

  const createGroup = () => {
    if (!name.trim()) {
      setNameError("required");
      return;
    }
    setNameError(undefined);
    create.mutate({ kind: "group", name: name.trim(), memberIds: chosen });
  };

  const kinds = [
    { value: "direct" as const, label: t`Direct`, icon: <User aria-hidden /> },
    { value: "group" as const, label: t`Group`, icon: <Users aria-hidden /> },
  ];

  return (
    <Dialog open={open} onOpenChange={(next) => !create.isPending && onOpenChange(next)}>
      <DialogContent data-testid="internal-new-chat-dialog">
        <DialogHeader>
          <DialogTitle>{t`New conversation`}</DialogTitle>
          <DialogDescription>{t`Talk to one teammate, or create a group with a name.`}</DialogDescription>
        </DialogHeader>
        <div role="radiogroup" aria-label={t`Conversation type`} className="grid grid-cols-2 gap-1 rounded-md bg-muted p-1">
          {kinds.map((option) => (
            <button
              key={option.value}
              type="button"
              role="radio"
              aria-checked={kind === option.value}
              onClick={() => setKind(option.value)}
              className={cn(
                "flex items-center justify-center gap-1.5 rounded px-2 py-1.5 text-sm font-medium text-muted-foreground outline-none transition-colors focus-visible:ring-2 focus-visible:ring-ring [&_svg]:size-4",
                kind === option.value && "bg-background text-foreground shadow-xs",
              )}
            >
              {option.icon}
              {option.label}
            </button>
          ))}
        </div>
        {kind === "direct" ? (
          <>
            <div className="relative">
              <Search className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-muted-foreground" aria-hidden />
              <Input value={search} onChange={(event) => setSearch(event.target.value)} placeholder={t`Search members`} aria-label={t`Search members`} className="pl-8" />
            </div>
            <ul aria-label={t`Members`} className="grid max-h-72 gap-1 overflow-y-auto">
              {members.isPending ? (
                Array.from({ length: 3 }, (_, index) => <Skeleton key={index} className="h-10" />)
              ) : members.isError ? (
                <li className="py-4 text-center text-sm text-muted-foreground">{t`Could not load the members.`}</li>
              ) : shown.length === 0 ? (
                <li className="py-4 text-center text-sm text-muted-foreground">{others.length ? t`No member matches this search.` : t`You are the only member of this company.`}</li>
              ) : (
                shown.map((member) => (
                  <li key={member.memberId}>
                    <button
                      type="button"
                      disabled={create.isPending}
                      onClick={() => create.mutate({ kind: "direct", memberId: member.memberId })}
                      data-testid="internal-new-chat-member"
                      className="flex w-full items-center gap-2 rounded-md px-2 py-2 text-left text-sm outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-60"
                    >
                      <Avatar name={member.name} src={member.image} className="size-8" />
                      <span className="min-w-0 flex-1 truncate">{member.name}</span>
                      {create.isPending && create.variables?.kind === "direct" && create.variables.memberId === member.memberId ? <Spinner /> : null}
                    </button>
                  </li>
                ))
              )}
            </ul>
          </>
        ) : (
          <div className="grid gap-3">
            <FormField label={t`Group name`} error={nameError}>
              <Input value={name} onChange={(event) => setName(event.target.value)} maxLength={MAX_GROUP_NAME_LENGTH} data-testid="internal-group-name" />
            </FormField>
            <FormField label={t`Members`}>
              <MultiSelect
                options={others.map((m) => ({ value: m.memberId, label: m.name }))}
                value={chosen}
                onValueChange={setChosen}
                placeholder={t`Choose members`}
                searchLabel={t`Search members`}
                emptyText={t`No member matches this search.`}
              />
            </FormField>
          </div>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={create.isPending}>
            {t`Cancel`}
          </Button>
          {kind === "group" ? (
            <Button onClick={createGroup} disabled={create.isPending || chosen.length === 0} data-testid="internal-group-create">
              {create.isPending ? <Spinner /> : null}
              {t`Create group`}
            </Button>
          ) : null}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
