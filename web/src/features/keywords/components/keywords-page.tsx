/**
 * /keywords (spec §2, §3 Keyword trigger; permission `keywords`): the company's keyword triggers
 * with their rules, flow, on/off switch and created-messages count; create and edit in a
 * slide-over, delete after confirmation.
 */
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { countText } from "@/lib/counts";
import { Hash, Pencil, Plus, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Skeleton } from "@/components/ui/skeleton";
import { Switch } from "@/components/ui/switch";
import { notifyError, notifySuccess } from "@/lib/notify";
import type { KeywordAnswer } from "../../../../../schema/flow-api";
import { deleteKeyword, keywordFlowsQuery, keywordKeys, keywordsQuery, updateKeyword } from "../api/keywords-api";
import { KeywordSheet, RULE_TYPE_LABELS, type KeywordSheetTarget } from "./keyword-sheet";

function KeywordRow({ keyword, flowName, onEdit, onDelete }: { keyword: KeywordAnswer; flowName: string | null; onEdit: () => void; onDelete: () => void }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: (turnOn: boolean) => updateKeyword(keyword.id, { name: keyword.name, turnOn, rules: keyword.rules, flowId: keyword.flowId }),
    onSuccess: async () => {
      notifySuccess("edited");
      await queryClient.invalidateQueries({ queryKey: keywordKeys.all });
    },
    onError: (error) => notifyError(error),
  });
  const name = keyword.name;
  const count = keyword.createdMessages;
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center" data-testid="keyword-row" aria-label={name}>
      <div className="grid min-w-0 flex-1 gap-1">
        <p className="truncate font-medium">{name}</p>
        <ul className="flex flex-wrap gap-1 text-xs text-muted-foreground">
          {keyword.rules.map((rule, index) => (
            <li key={index} className="rounded bg-muted px-1.5 py-0.5">
              {i18n._(RULE_TYPE_LABELS[rule.type])}: {rule.words.join(", ")}
            </li>
          ))}
        </ul>
        <p className="text-xs text-muted-foreground">
          {flowName ? t`Starts ${flowName}` : t`Starts a flow`} · {countText(i18n, "messagesCreated", count)}
        </p>
      </div>
      <div className="flex items-center gap-2">
        <Switch checked={toggle.isPending ? (toggle.variables ?? keyword.turnOn) : keyword.turnOn} onCheckedChange={(checked) => toggle.mutate(checked)} aria-label={t`Turn ${name} on or off`} disabled={toggle.isPending} />
        <Button variant="outline" size="sm" onClick={onEdit} aria-label={t`Edit ${name}`}>
          <Pencil />
          {t`Edit`}
        </Button>
        <Button variant="ghost" size="sm" className="text-destructive hover:text-destructive" onClick={onDelete} aria-label={t`Delete ${name}`}>
          <Trash2 />
          <span className="sm:sr-only">{t`Delete`}</span>
        </Button>
      </div>
    </li>
  );
}

/** The Keywords screen. */
export function KeywordsPage() {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const keywords = useQuery(keywordsQuery());
  const flows = useQuery(keywordFlowsQuery());
  const [target, setTarget] = useState<KeywordSheetTarget | null>(null);
  const [deleting, setDeleting] = useState<KeywordAnswer | null>(null);
  const remove = useMutation({
    mutationFn: (id: string) => deleteKeyword(id),
    onSuccess: async () => {
      notifySuccess("deleted");
      await queryClient.invalidateQueries({ queryKey: keywordKeys.all });
    },
    onError: (error) => notifyError(error),
  });
  const flowNames = new Map((flows.data ?? []).map((flow) => [flow.id, flow.name]));
  const list = keywords.data ?? [];
  const create = () => setTarget({ kind: "new" });
  const deletingName = deleting?.name ?? "";

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight">{t`Keywords`}</h1>
          <p className="text-sm text-muted-foreground">{t`Start a flow when a contact's message matches your words.`}</p>
        </div>
        <Button onClick={create}>
          <Plus />
          {t`New keyword`}
        </Button>
      </div>
      {keywords.isPending ? (
        <Card aria-busy>
          <ul className="divide-y">
            {Array.from({ length: 3 }, (_, index) => (
              <li key={index} className="grid gap-2 p-4">
                <Skeleton className="h-4 w-40" />
                <Skeleton className="h-3 w-64" />
              </li>
            ))}
          </ul>
          <span className="sr-only">{t`Loading keywords…`}</span>
        </Card>
      ) : keywords.isError ? (
        <Card>
          <ErrorState title={t`Could not load the keywords.`} onRetry={() => void keywords.refetch()} />
        </Card>
      ) : list.length === 0 ? (
        <Card>
          <EmptyState
            icon={<Hash />}
            title={t`No keywords yet`}
            description={t`For example, start your sales flow when someone writes "price" or "buy".`}
            action={
              <Button onClick={create}>
                <Plus />
                {t`New keyword`}
              </Button>
            }
          />
        </Card>
      ) : (
        <Card>
          <ul className="divide-y" aria-label={t`Keywords`}>
            {list.map((keyword) => (
              <KeywordRow key={keyword.id} keyword={keyword} flowName={flowNames.get(keyword.flowId) ?? null} onEdit={() => setTarget({ kind: "edit", keyword })} onDelete={() => setDeleting(keyword)} />
            ))}
          </ul>
        </Card>
      )}
      <KeywordSheet target={target} onClose={() => setTarget(null)} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title={t`Delete the keyword ${deletingName}?`}
        description={t`Messages will no longer start its flow. This cannot be undone.`}
        confirmLabel={t`Delete`}
        pending={remove.isPending}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting.id, { onSettled: () => setDeleting(null) });
        }}
      />
    </div>
  );
}
