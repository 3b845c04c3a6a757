/**
 * /webhook (spec §2 Webhooks, §3 Webhook; permission `webhooks`): the company's webhooks with their
 * mode, secret URL (copy) and last request; "New webhook" asks for a name and opens the new
 * webhook's screen in test mode, ready to capture a first request; delete after confirmation.
 */
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { Plus, Trash2, Webhook } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { isApiError } from "@/lib/api";
import { notifyError, notifySuccess } from "@/lib/notify";
import { formatRelative } from "@/lib/relative-time";
import type { WebhookAnswer } from "../../../../../schema/validation/webhooks";
import { createWebhook, deleteWebhook, webhookKeys, webhooksQuery } from "../api/webhooks-api";
import { ModeBadge, UrlCopy } from "./labels";

function WebhookRow({ webhook, onDelete }: { webhook: WebhookAnswer; onDelete: () => void }) {
  const { t, i18n } = useLingui();
  const name = webhook.name;
  const href = `/webhook/${encodeURIComponent(webhook.id)}`;
  const last = webhook.lastRequestAt;
  const when = last ? formatRelative(last, Date.now(), i18n.locale) : "";
  return (
    <li className="grid gap-2 p-4" data-testid="webhook-row" aria-label={name}>
      <div className="flex flex-wrap items-center gap-2">
        <Link to={href} className="min-w-0 truncate font-medium underline-offset-4 outline-none hover:underline focus-visible:underline">
          {name}
        </Link>
        <ModeBadge mode={webhook.mode} />
        <span className="text-xs text-muted-foreground">
          {last ? t`Last request ${when}` : t`No requests yet`}
        </span>
        <Button variant="ghost" size="sm" className="ml-auto text-destructive hover:text-destructive" onClick={onDelete} aria-label={t`Delete ${name}`}>
          <Trash2 />
          <span className="sm:sr-only">{t`Delete`}</span>
        </Button>
      </div>
      <UrlCopy url={webhook.url} />
    </li>
  );
}

/** "New webhook": a name, then the webhook's own screen. */
function CreateDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const create = useMutation({
    mutationFn: () => createWebhook({ name: name.trim(), mode: "test" }),
    onSuccess: async (created) => {
      notifySuccess("created");
      await queryClient.invalidateQueries({ queryKey: webhookKeys.all });
      onOpenChange(false);
      setName("");
      void navigate(`/webhook/${encodeURIComponent(created.id)}`);
    },
    onError: (error) => {
      if (!(isApiError(error) && error.fields.name)) notifyError(error);
    },
  });
  const nameError = create.error && isApiError(create.error) ? create.error.fields.name : undefined;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <form
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            create.mutate();
          }}
        >
          <DialogHeader>
            <DialogTitle>{t`New webhook`}</DialogTitle>
            <DialogDescription>{t`It starts in test mode: send a request to its URL, then pick the phone, name and e-mail from it.`}</DialogDescription>
          </DialogHeader>
          <FormField label={t`Name`} error={nameError}>
            <Input value={name} onChange={(event) => setName(event.target.value)} maxLength={100} required autoFocus data-testid="webhook-name" />
          </FormField>
          <DialogFooter>
            <Button type="submit" disabled={create.isPending || !name.trim()}>
              {t`Create`}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** The Webhooks screen. */
export function WebhooksPage() {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const webhooks = useQuery(webhooksQuery());
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<WebhookAnswer | null>(null);
  const remove = useMutation({
    mutationFn: (id: string) => deleteWebhook(id),
    onSuccess: async () => {
      notifySuccess("deleted");
      await queryClient.invalidateQueries({ queryKey: webhookKeys.all });
    },
    onError: (error) => notifyError(error),
  });
  const list = webhooks.data ?? [];
  const deletingName = deleting?.name ?? "";
  const newButton = (
    <Button onClick={() => setCreating(true)} data-testid="new-webhook">
      <Plus />
      {t`New webhook`}
    </Button>
  );

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight">{t`Webhooks`}</h1>
          <p className="text-sm text-muted-foreground">{t`Receive sales, forms and carts from other platforms and act on them: create the contact, tag it, start a flow.`}</p>
        </div>
        {newButton}
      </div>
      {webhooks.isPending ? (
        <Card aria-busy>
          <ul className="divide-y">
            {Array.from({ length: 3 }, (_, index) => (
              <li key={index} className="grid gap-2 p-4">
                <Skeleton className="h-4 w-40" />
                <Skeleton className="h-8 w-full" />
              </li>
            ))}
          </ul>
          <span className="sr-only">{t`Loading webhooks…`}</span>
        </Card>
      ) : webhooks.isError ? (
        <Card>
          <ErrorState title={t`Could not load the webhooks.`} onRetry={() => void webhooks.refetch()} />
        </Card>
      ) : list.length === 0 ? (
        <Card>
          <EmptyState icon={<Webhook />} title={t`No webhooks yet`} description={t`For example, have Hotmart, Shopify or your site's form tell Conversa about each sale.`} action={newButton} />
        </Card>
      ) : (
        <Card>
          <ul className="divide-y" aria-label={t`Webhooks`}>
            {list.map((webhook) => (
              <WebhookRow key={webhook.id} webhook={webhook} onDelete={() => setDeleting(webhook)} />
            ))}
          </ul>
        </Card>
      )}
      <CreateDialog open={creating} onOpenChange={setCreating} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title={t`Delete the webhook ${deletingName}?`}
        description={t`Its URL stops answering and its requests are deleted. This cannot be undone.`}
        confirmLabel={t`Delete`}
        pending={remove.isPending}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting.id, { onSettled: () => setDeleting(null) });
        }}
      />
    </div>
  );
}
