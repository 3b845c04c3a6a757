/**
 * A connection's rejected events (issue 8 §7; GET /api/connections/{id}/rejected-events): what the
 * provider delivered, signed and valid, that could not be placed (no sender identity, an unknown
 * message type, a reaction to a message not stored...). Newest first, with the reason, the time
 * and the size; each raw payload downloads as a JSON file (never rendered in the page).
 */
import { useState } from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { countText } from "@/lib/counts";
import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";
import { Download, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { ErrorState } from "@/components/ui/error-state";
import { Sheet, SheetClose, SheetContent, SheetDescription, SheetTitle } from "@/components/ui/sheet";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { rejectedEventPage } from "@/lib/answers";
import { notifyError } from "@/lib/notify";
import { api } from "@/lib/session";
import type { RejectedEventAnswer } from "../../../../../schema/api-types";
import type { Connection } from "../api/connections-api";
import { formatPreciseDateTime } from "@/lib/dates";

/** Labels of the reason codes the worker records (worker/channels/types.ts RejectReason). */
const REASON_LABELS: Record<string, MessageDescriptor> = {
  no_sender_identity: msg`Message without a sender identity`,
  malformed_message: msg`Malformed message`,
  unknown_message_type: msg`Message type not supported yet`,
  malformed_change: msg`Event without a phone number id`,
  provider_error: msg`Error reported by Meta`,
  unknown_phone_number_id: msg`Unknown phone number`,
  reaction_target_unknown: msg`Reaction to an unknown message`,
  revoke_target_unknown: msg`Deletion of an unknown message`,
};

/** GET /api/connections/{id}/rejected-events, page after page (newest first). */
export const rejectedEventsQuery = (connectionId: string) => ({
  queryKey: ["connections", "rejected-events", connectionId] as const,
  queryFn: ({ pageParam, signal }: { pageParam: string | null; signal: AbortSignal }) =>
    api.call("GET", `/connections/${encodeURIComponent(connectionId)}/rejected-events`, rejectedEventPage, { query: { cursor: pageParam }, signal }),
  initialPageParam: null as string | null,
  getNextPageParam: (last: { cursor: string | null }) => last.cursor,
});

/** Downloads one event's raw payload (GET …/payload, an attachment) as a file. */
async function downloadPayload(connectionId: string, event: RejectedEventAnswer): Promise<void> {
  const token = api.tokens.get();
  const response = await fetch(`/api/connections/${encodeURIComponent(connectionId)}/rejected-events/${encodeURIComponent(event.id)}/payload`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const url = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement("a");
    link.href = url;
    link.download = `rejected-event-${event.id}.json`;
    link.click();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
}

function EventRow({ connectionId, event }: { connectionId: string; event: RejectedEventAnswer }) {
  const { t, i18n } = useLingui();
  const [pending, setPending] = useState(false);
  const label = REASON_LABELS[event.reason];
  const when = formatPreciseDateTime(event.receivedAt, { locale: i18n.locale });
  return (
    <li className="grid gap-1 border-b px-4 py-3 last:border-b-0">
      <div className="flex items-start justify-between gap-2">
        <div className="grid min-w-0 gap-0.5">
          <p className="text-sm font-medium">{label ? i18n._(label) : event.reason}</p>
          <p className="text-xs break-words text-muted-foreground">{event.detail}</p>
          <p className="text-xs text-muted-foreground">
            <time dateTime={new Date(event.receivedAt).toISOString()}>{when}</time> · {countText(i18n, "bytes", event.size)}
          </p>
        </div>
        <Button
          size="icon"
          variant="ghost"
          className="size-8 shrink-0"
          disabled={pending}
          aria-label={t`Download the payload`}
          onClick={() => {
            setPending(true);
            downloadPayload(connectionId, event)
              .catch((error: unknown) => notifyError(error))
              .finally(() => setPending(false));
          }}
        >
          {pending ? <Spinner /> : <Download />}
        </Button>
      </div>
    </li>
  );
}

function EventList({ connectionId }: { connectionId: string }) {
  const { t } = useLingui();
  const events = useInfiniteQuery(rejectedEventsQuery(connectionId));
  if (events.isPending) {
    return (
      <div className="grid gap-2 p-4" aria-busy>
        <Skeleton className="h-12" />
        <Skeleton className="h-12" />
      </div>
    );
  }
  if (events.isError) return <ErrorState title={t`Could not load the rejected events.`} onRetry={() => void events.refetch()} />;
  const all = events.data.pages.flatMap((page) => page.results);
  const total = events.data.pages[0]?.total ?? 0;
  return (
    <div className="grid gap-2">
      <p className="px-4 text-sm text-muted-foreground">{total === 0 ? t`Nothing was rejected: every event was placed.` : t`Events kept: ${total}`}</p>
      {all.length ? (
        <ul aria-label={t`Rejected events`}>
          {all.map((event) => (
            <EventRow key={event.id} connectionId={connectionId} event={event} />
          ))}
        </ul>
      ) : null}
      {events.hasNextPage ? (
        <Button variant="outline" size="sm" className="justify-self-center" onClick={() => void events.fetchNextPage()} disabled={events.isFetchingNextPage}>
          {events.isFetchingNextPage ? <Spinner /> : null}
          {t`Load older events`}
        </Button>
      ) : null}
    </div>
  );
}

/** The sheet of `connection`'s rejected events; closed when `connection` is null. */
export function RejectedEventsSheet({ connection, onClose }: { connection: Connection | null; onClose: () => void }) {
  const { t } = useLingui();
  const name = connection?.name ?? "";
  return (
    <Sheet open={connection !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <SheetContent side="right" className="w-[28rem]">
        <div className="flex items-start justify-between gap-2 border-b px-4 py-3">
          <div className="grid gap-0.5">
            <SheetTitle className="text-base font-semibold">{t`Rejected events`}</SheetTitle>
            <SheetDescription className="text-xs text-muted-foreground">
              {t`What ${name} received but could not place. Nothing is dropped: each event's raw payload is kept.`}
            </SheetDescription>
          </div>
          <SheetClose asChild>
            <Button variant="ghost" size="icon" className="size-8" aria-label={t`Close`}>
              <X />
            </Button>
          </SheetClose>
        </div>
        <div className="min-h-0 flex-1 overflow-y-auto py-3">{connection ? <EventList connectionId={connection.id} /> : null}</div>
      </SheetContent>
    </Sheet>
  );
}
