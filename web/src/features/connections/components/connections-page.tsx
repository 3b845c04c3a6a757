/**
 * /connections (spec §2 Connections; permission `connections`): the company's connections with
 * their status (connected only when CONNECTED, spec §3), channel and phone; create and edit in a
 * slide-over form, delete after confirmation, pair a sandbox connection by QR code or phone code,
 * disconnect. The list follows the company hub's `connection.updated` events live.
 */
import { useState } from "react";
import { useLingui } from "@lingui/react/macro";
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Cable, Inbox, MessageSquareText, Pencil, Plus, QrCode, RefreshCw, Trash2, Unplug, Workflow } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { useQuery } from "@tanstack/react-query";
import { activeCompanyQuery } from "@/features/companies/api/companies-api";
import { errorMessage } from "@/lib/error-messages";
import { cn } from "@/lib/utils";
import type { Connection } from "../api/connections-api";
import { useConnections, useConnectionsLiveSync, useDeleteConnection, useDisconnectConnection, useRefreshConnection } from "../hooks/use-connections";
import { QualityBadge } from "./cloud-number-details";
import { ConnectionFormSheet } from "./connection-form-sheet";
import { PairingDialog } from "./pairing-dialog";
import { DefaultFlowsDialog } from "./default-flows-dialog";
import { RejectedEventsSheet } from "./rejected-events-sheet";
import { InstagramCommentRulesDialog } from "./instagram-comment-rules-dialog";
import { InstagramConnectButton } from "./instagram-connect-button";
import { formatPhone } from "@/lib/phone";

/** The channel names shown on the screen. */
export const CHANNEL_LABELS: Record<Connection["channel"], MessageDescriptor> = {
  sandbox: msg`Sandbox phone`,
  "whatsapp-cloud": msg`WhatsApp Cloud API`,
  instagram: msg`Instagram`,
  "whatsapp-qr": msg`WhatsApp (QR code)`,
};

function StatusBadge({ connected, id }: { connected: boolean; id: string }) {
  const { t } = useLingui();
  // The active company's disconnected list tells a connection never paired from a lost one.
  const company = useQuery(activeCompanyQuery());
  const neverPaired = !connected && (company.data?.disconnected.some((entry) => entry.id === id && entry.neverPaired) ?? false);
  return (
    <Badge
      variant="outline"
      data-testid="connection-status"
      data-status={connected ? "connected" : neverPaired ? "unpaired" : "disconnected"}
      className={cn(
        connected
          ? "border-green-600/30 bg-green-600/10 text-green-800 dark:text-green-400"
          : "border-destructive/30 bg-destructive/10 text-destructive",
      )}
    >
      <span className={cn("size-1.5 rounded-full", connected ? "bg-green-600 dark:bg-green-400" : "bg-destructive")} aria-hidden />
      {connected ? t`Connected` : neverPaired ? t`Not paired yet` : t`Disconnected`}
    </Badge>
  );
}

function ConnectionRow({
  connection,
  onEdit,
  onDelete,
  onPair,
  onDefaultFlows,
  onRejected,
  onCommentRules,
}: {
  connection: Connection;
  onEdit: () => void;
  onDelete: () => void;
  onPair: () => void;
  onDefaultFlows: () => void;
  onRejected: () => void;
  /** Instagram connections: opens their comment automations (issue 15). */
  onCommentRules?: () => void;
}) {
  const { t, i18n } = useLingui();
  const disconnect = useDisconnectConnection();
  const refresh = useRefreshConnection();
  const name = connection.name;
  const phoneNumberId = connection.phoneNumberId;
  const connected = connection.status === "CONNECTED";
  const cloud = connection.channel === "whatsapp-cloud";
  const verifiedName = connection.verifiedName;
  return (
    <li aria-label={name} className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center" data-testid="connection-row">
      <div className="flex min-w-0 flex-1 items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-muted text-muted-foreground" aria-hidden>
          <Cable className="size-5" />
        </span>
        <div className="grid min-w-0 gap-1">
          <div className="flex flex-wrap items-center gap-2">
            <span className="truncate font-medium">{name}</span>
            <StatusBadge connected={connected} id={connection.id} />
            {cloud && connection.displayPhoneNumber ? <QualityBadge rating={connection.qualityRating} /> : null}
          </div>
          <div className="flex flex-wrap gap-x-3 text-sm text-muted-foreground">
            <span>{i18n._(CHANNEL_LABELS[connection.channel])}</span>
            {cloud && connection.displayPhoneNumber ? (
              <span data-testid="display-phone-number">{connection.displayPhoneNumber}</span>
            ) : connection.phone ? (
              <span>{formatPhone(connection.phone)}</span>
            ) : null}
            {cloud && verifiedName ? <span>{t`Verified name: ${verifiedName}`}</span> : null}
            {phoneNumberId ? <span>{t`Phone number ID: ${phoneNumberId}`}</span> : null}
          </div>
        </div>
      </div>
      <div className="flex flex-wrap gap-2 sm:justify-end">
        {(connection.channel === "sandbox" || connection.channel === "whatsapp-qr") && !connected ? (
          <Button size="sm" onClick={onPair} aria-label={t`Pair ${name}`}>
            <QrCode />
            {t`Pair`}
          </Button>
        ) : null}
        {cloud && phoneNumberId ? (
          <Button
            size="sm"
            variant="outline"
            onClick={() => refresh.mutate(connection.id)}
            disabled={refresh.isPending}
            aria-label={t`Refresh the details of ${name} from Meta`}
          >
            {refresh.isPending ? <Spinner /> : <RefreshCw />}
            {t`Refresh`}
          </Button>
        ) : null}
        {connected ? (
          <Button size="sm" variant="outline" onClick={() => disconnect.mutate(connection.id)} disabled={disconnect.isPending} aria-label={t`Disconnect ${name}`}>
            {disconnect.isPending ? <Spinner /> : <Unplug />}
            {t`Disconnect`}
          </Button>
        ) : null}
        {connection.channel === "instagram" && onCommentRules ? (
          <Button size="sm" variant="outline" onClick={onCommentRules} aria-label={t`Comment automations of ${name}`}>
            <MessageSquareText />
            {t`Comment automations`}
          </Button>
        ) : null}
        <Button size="sm" variant="outline" onClick={onRejected} aria-label={t`Rejected events of ${name}`} data-testid="rejected-events">
          <Inbox />
          {t`Rejected events`}
          {connection.rejectedCount > 0 ? <Badge variant="secondary">{connection.rejectedCount}</Badge> : null}
        </Button>
        <Button size="sm" variant="outline" onClick={onDefaultFlows} aria-label={t`Default flows of ${name}`}>
          <Workflow />
          {t`Default flows`}
        </Button>
        <Button size="sm" variant="outline" onClick={onEdit} aria-label={t`Edit ${name}`}>
          <Pencil />
          {t`Edit`}
        </Button>
        <Button size="sm" variant="ghost" className="text-destructive hover:text-destructive" onClick={onDelete} aria-label={t`Delete ${name}`}>
          <Trash2 />
          <span className="sm:sr-only">{t`Delete`}</span>
        </Button>
      </div>
    </li>
  );
}

function DeleteDialog({ connection, onOpenChange }: { connection: Connection | null; onOpenChange: (open: boolean) => void }) {
  const { t } = useLingui();
  const remove = useDeleteConnection();
  const name = connection?.name ?? "";
  return (
    <ConfirmDialog
      open={connection !== null}
      onOpenChange={onOpenChange}
      title={t`Delete connection?`}
      description={t`"${name}" will be removed and its phone will stop receiving messages. This cannot be undone.`}
      confirmLabel={t`Delete`}
      pending={remove.isPending}
      onConfirm={() => {
        if (connection) remove.mutate(connection.id, { onSettled: () => onOpenChange(false) });
      }}
    />
  );
}

/** The Connections screen. */
export function ConnectionsPage() {
  const { t, i18n } = useLingui();
  const connections = useConnections();
  useConnectionsLiveSync();
  const [formOpen, setFormOpen] = useState(false);
  const [editing, setEditing] = useState<Connection | null>(null);
  const [deleting, setDeleting] = useState<Connection | null>(null);
  const [pairing, setPairing] = useState<Connection | null>(null);
  const [defaults, setDefaults] = useState<Connection | null>(null);
  const [rejected, setRejected] = useState<Connection | null>(null);
  const [commentRules, setCommentRules] = useState<Connection | null>(null);

  const openCreate = () => {
    setEditing(null);
    setFormOpen(true);
  };
  const list = connections.data ?? [];

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight">{t`Connections`}</h1>
          <p className="text-sm text-muted-foreground">{t`The numbers your customers write to. Pair a sandbox phone to try the product locally.`}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <InstagramConnectButton />
          <Button onClick={openCreate}>
            <Plus />
            {t`New connection`}
          </Button>
        </div>
      </div>

      {connections.isPending ? (
        <Card aria-busy>
          <ul className="divide-y">
            {Array.from({ length: 3 }, (_, index) => (
              <li key={index} className="flex items-center gap-3 p-4">
                <Skeleton className="size-10 rounded-full" />
                <div className="grid flex-1 gap-2">
                  <Skeleton className="h-4 w-40" />
                  <Skeleton className="h-3 w-24" />
                </div>
              </li>
            ))}
          </ul>
          <span className="sr-only">{t`Loading connections…`}</span>
        </Card>
      ) : connections.isError ? (
        <Alert variant="destructive">
          <div className="grid gap-2">
            <p>{i18n._(errorMessage(connections.error))}</p>
            <Button variant="outline" size="sm" className="justify-self-start" onClick={() => void connections.refetch()}>
              <RefreshCw />
              {t`Try again`}
            </Button>
          </div>
        </Alert>
      ) : list.length === 0 ? (
        <Card>
          <EmptyState
            icon={<Cable />}
            title={t`No connections yet`}
            description={t`Create a connection to start receiving your customers' messages.`}
            action={
              <Button onClick={openCreate}>
                <Plus />
                {t`New connection`}
              </Button>
            }
          />
        </Card>
      ) : (
        <Card>
          <ul className="divide-y" aria-label={t`Connections`}>
            {list.map((connection) => (
              <ConnectionRow
                key={connection.id}
                connection={connection}
                onEdit={() => {
                  setEditing(connection);
                  setFormOpen(true);
                }}
                onDelete={() => setDeleting(connection)}
                onPair={() => setPairing(connection)}
                onDefaultFlows={() => setDefaults(connection)}
                onRejected={() => setRejected(connection)}
                onCommentRules={() => setCommentRules(connection)}
              />
            ))}
          </ul>
        </Card>
      )}

      <ConnectionFormSheet
        open={formOpen}
        onOpenChange={setFormOpen}
        connection={editing}
        onCreated={(created) => {
          if (created.channel === "sandbox" || created.channel === "whatsapp-qr") setPairing(created);
        }}
      />
      <DeleteDialog connection={deleting} onOpenChange={(open) => (open ? undefined : setDeleting(null))} />
      <DefaultFlowsDialog connection={defaults} onClose={() => setDefaults(null)} />
      <RejectedEventsSheet connection={rejected} onClose={() => setRejected(null)} />
      <InstagramCommentRulesDialog connection={commentRules} onClose={() => setCommentRules(null)} />
      <PairingDialog connection={pairing} onOpenChange={(open) => (open ? undefined : setPairing(null))} />
    </div>
  );
}
