/**
 * "Comment automations" of an Instagram connection (issue 15; GET/POST/PUT/DELETE
 * /api/connections/{id}/comment-rules): a comment whose text matches a rule (starts with, contains
 * or is one of its words, like keyword triggers) on all posts or the chosen ones gets a private
 * reply by DM, an optional public reply, and the chosen flow starts when the person answers the DM.
 * The list, and a form to create or edit one.
 */
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { MessageSquareText, Pencil, Plus, Trash2 } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import { isApiError } from "@/lib/api";
import { api } from "@/lib/session";
import { flowSummaryList } from "@/lib/answers";
import { errorMessage } from "@/lib/error-messages";
import { notifyError, notifySuccess } from "@/lib/notify";
import type { CommentRuleAnswer } from "../../../../../schema/validation/instagram";
import { commentRulesQuery, deleteCommentRule, instagramKeys, saveCommentRule } from "@/features/instagram/api/instagram-api";
import type { Connection } from "../api/connections-api";

type MatchType = "start_with" | "contains" | "is";

type Draft = {
  name: string;
  active: boolean;
  type: MatchType;
  words: string;
  posts: "all" | "chosen";
  mediaIds: string;
  privateReply: string;
  publicReply: string;
  flowId: string;
};

const splitList = (text: string) =>
  text
    .split(/[,\n]/)
    .map((w) => w.trim())
    .filter(Boolean);

function draftOf(rule: CommentRuleAnswer | null): Draft {
  return {
    name: rule?.name ?? "",
    active: rule?.active ?? true,
    type: rule?.rules[0]?.type ?? "contains",
    words: rule?.rules.flatMap((r) => r.words).join(", ") ?? "",
    posts: rule?.mediaIds?.length ? "chosen" : "all",
    mediaIds: rule?.mediaIds?.join(", ") ?? "",
    privateReply: rule?.privateReply ?? "",
    publicReply: rule?.publicReply ?? "",
    flowId: rule?.flowId ?? "",
  };
}

function RuleForm({ connection, rule, onDone }: { connection: Connection; rule: CommentRuleAnswer | null; onDone: () => void }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => draftOf(rule));
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((previous) => ({ ...previous, [key]: value }));
  const flows = useQuery({ queryKey: ["connections", "flows"] as const, queryFn: ({ signal }) => api.call("GET", "/flows", flowSummaryList, { signal }), staleTime: 30_000 });
  const save = useMutation({
    mutationFn: () =>
      saveCommentRule(
        connection.id,
        {
          name: draft.name,
          active: draft.active,
          rules: [{ type: draft.type, words: splitList(draft.words) }],
          mediaIds: draft.posts === "chosen" ? splitList(draft.mediaIds) : null,
          privateReply: draft.privateReply,
          publicReply: draft.publicReply.trim() ? draft.publicReply : null,
          flowId: draft.flowId || null,
        },
        rule?.id,
      ),
    onSuccess: async () => {
      notifySuccess(rule ? "edited" : "created");
      await queryClient.invalidateQueries({ queryKey: instagramKeys.commentRules(connection.id) });
      onDone();
    },
  });
  const fields = save.isError && isApiError(save.error) ? save.error.fields : {};
  const wordsError = Object.entries(fields).find(([key]) => key.startsWith("rules"))?.[1];
  const mediaError = Object.entries(fields).find(([key]) => key.startsWith("mediaIds"))?.[1];
  return (
    <form
      className="grid gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      {save.isError ? <Alert variant="destructive">{i18n._(errorMessage(save.error))}</Alert> : null}
      <FormField label={t`Name`} error={fields.name}>
        <Input value={draft.name} onChange={(event) => set("name", event.target.value)} required />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-[12rem_1fr]">
        <FormField label={t`The comment`}>
          <NativeSelect value={draft.type} onChange={(event) => set("type", event.target.value === "start_with" || event.target.value === "is" ? event.target.value : "contains")}>
            <option value="contains">{t`contains`}</option>
            <option value="start_with">{t`starts with`}</option>
            <option value="is">{t`is exactly`}</option>
          </NativeSelect>
        </FormField>
        <FormField label={t`Keywords`} hint={t`Separate them with commas. Case and accents are ignored.`} error={wordsError}>
          <Input value={draft.words} onChange={(event) => set("words", event.target.value)} required />
        </FormField>
      </div>
      <FormField label={t`Posts`}>
        <NativeSelect value={draft.posts} onChange={(event) => set("posts", event.target.value === "chosen" ? "chosen" : "all")}>
          <option value="all">{t`All posts and reels`}</option>
          <option value="chosen">{t`Only the posts I choose`}</option>
        </NativeSelect>
      </FormField>
      {draft.posts === "chosen" ? (
        <FormField label={t`Post IDs`} hint={t`The media IDs of the posts or reels, separated by commas.`} error={mediaError}>
          <Input value={draft.mediaIds} onChange={(event) => set("mediaIds", event.target.value)} inputMode="numeric" required />
        </FormField>
      ) : null}
      <FormField label={t`Private reply`} hint={t`Sent by direct message, once per comment, within 7 days of it.`} error={fields.privateReply}>
        <Textarea value={draft.privateReply} onChange={(event) => set("privateReply", event.target.value)} rows={3} maxLength={1000} required />
      </FormField>
      <FormField label={t`Public reply (optional)`} hint={t`Posted under the comment.`} error={fields.publicReply}>
        <Textarea value={draft.publicReply} onChange={(event) => set("publicReply", event.target.value)} rows={2} maxLength={2200} />
      </FormField>
      <FormField label={t`Flow when the person answers`} error={fields.flowId}>
        <NativeSelect value={draft.flowId} onChange={(event) => set("flowId", event.target.value)} disabled={flows.isPending}>
          <option value="">{t`None`}</option>
          {(flows.data ?? []).map((flow) => (
            <option key={flow.id} value={flow.id}>
              {flow.name}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      <label className="flex items-center gap-2 text-sm">
        <Switch checked={draft.active} onCheckedChange={(checked) => set("active", checked)} />
        {t({ message: "Active", context: "comment rule switch" })}
      </label>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          {t`Cancel`}
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? <Spinner /> : null}
          {t`Save changes`}
        </Button>
      </DialogFooter>
    </form>
  );
}

function RuleList({ connection, onEdit }: { connection: Connection; onEdit: (rule: CommentRuleAnswer | null) => void }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const rules = useQuery(commentRulesQuery(connection.id));
  const remove = useMutation({
    mutationFn: (ruleId: string) => deleteCommentRule(connection.id, ruleId),
    onSuccess: async () => {
      notifySuccess("deleted");
      await queryClient.invalidateQueries({ queryKey: instagramKeys.commentRules(connection.id) });
    },
    onError: (error) => notifyError(error),
  });
  if (rules.isPending) {
    return (
      <div className="grid gap-2" aria-busy>
        <Skeleton className="h-14" />
        <Skeleton className="h-14" />
      </div>
    );
  }
  if (rules.isError) return <Alert variant="destructive">{i18n._(errorMessage(rules.error))}</Alert>;
  const add = (
    <Button onClick={() => onEdit(null)}>
      <Plus />
      {t`New automation`}
    </Button>
  );
  if (rules.data.length === 0) {
    return <EmptyState icon={<MessageSquareText />} title={t`No comment automations yet`} description={t`Answer comments with a keyword by direct message, automatically.`} action={add} />;
  }
  return (
    <div className="grid gap-3">
      <ul className="divide-y rounded-md border" aria-label={t`Comment automations`}>
        {rules.data.map((rule) => {
          const name = rule.name;
          const words = rule.rules.flatMap((r) => r.words).join(", ");
          return (
            <li key={rule.id} className="flex items-start gap-3 p-3">
              <div className="grid min-w-0 flex-1 gap-1">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-medium">{name}</span>
                  {rule.active ? null : <Badge variant="secondary">{t`Off`}</Badge>}
                </div>
                <span className="truncate text-sm text-muted-foreground">{words}</span>
                <span className="truncate text-sm">{rule.privateReply}</span>
              </div>
              <Button size="sm" variant="ghost" onClick={() => onEdit(rule)} aria-label={t`Edit ${name}`}>
                <Pencil />
              </Button>
              <Button size="sm" variant="ghost" className="text-destructive hover:text-destructive" onClick={() => remove.mutate(rule.id)} disabled={remove.isPending} aria-label={t`Delete ${name}`}>
                <Trash2 />
              </Button>
            </li>
          );
        })}
      </ul>
      <div>{add}</div>
    </div>
  );
}

/** The "Comment automations" dialog of an Instagram connection. */
export function InstagramCommentRulesDialog({ connection, onClose }: { connection: Connection | null; onClose: () => void }) {
  const { t } = useLingui();
  const [editing, setEditing] = useState<{ rule: CommentRuleAnswer | null } | null>(null);
  const name = connection?.name ?? "";
  return (
    <Dialog
      open={connection !== null}
      onOpenChange={(open) => {
        if (open) return;
        setEditing(null);
        onClose();
      }}
    >
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{t`Comment automations of ${name}`}</DialogTitle>
          <DialogDescription>{t`A comment with a keyword gets a private reply by direct message; when the person answers, the chosen flow starts.`}</DialogDescription>
        </DialogHeader>
        {connection ? (
          editing ? (
            <RuleForm key={editing.rule?.id ?? "new"} connection={connection} rule={editing.rule} onDone={() => setEditing(null)} />
          ) : (
            <RuleList connection={connection} onEdit={(rule) => setEditing({ rule })} />
          )
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
