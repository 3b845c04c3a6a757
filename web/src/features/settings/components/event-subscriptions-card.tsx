/**
 * Settings → Integration, "Event webhooks" (issue 11 "Outbound event webhooks"): the company's
 * subscriptions (receiver URL, events, masked secret, the latest delivery's state), adding one (the
 * signing secret shown once, with copy), removing one after a confirmation, and each subscription's
 * recent deliveries with every attempt. Calls GET/POST /api/event-subscriptions, DELETE
 * /api/event-subscriptions/{id} and GET /api/event-subscriptions/{id}/deliveries (permission
 * settings_company, like the page).
 */
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { z } from "zod";
import { History, Plus, Trash2, Webhook } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { formatDateTime } from "@/lib/dates";
import { fieldErrorMessage } from "@/lib/error-messages";
import { applyServerErrors } from "@/lib/form-errors";
import { notifyError, notifySuccess } from "@/lib/notify";
import { SecretShownOnce } from "./secret-shown-once";
import { api } from "@/lib/session";
import {
  EVENT_TYPES,
  eventSubscriptionInput,
  type EventDeliveryAnswer,
  type EventDeliveryStatus,
  type EventSubscriptionAnswer,
  type EventSubscriptionCreatedAnswer,
  type EventSubscriptionInput,
  type EventType,
} from "../../../../../schema/validation/event-subscriptions";

// --- API ------------------------------------------------------------------------------------------

const deliveryStatus = z.enum(["pending", "delivered", "failed"]);

const subscriptionAnswer: z.ZodType<EventSubscriptionAnswer> = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(EVENT_TYPES)),
  secretHint: z.string(),
  createdAt: z.number(),
  lastDelivery: z.object({ status: deliveryStatus, at: z.number() }).nullable(),
});

const createdAnswer: z.ZodType<EventSubscriptionCreatedAnswer> = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(EVENT_TYPES)),
  secretHint: z.string(),
  createdAt: z.number(),
  lastDelivery: z.object({ status: deliveryStatus, at: z.number() }).nullable(),
  secret: z.string(),
});

const deliveryAnswer: z.ZodType<EventDeliveryAnswer> = z.object({
  id: z.string(),
  eventId: z.string(),
  eventType: z.enum(EVENT_TYPES),
  status: deliveryStatus,
  attempts: z.array(z.object({ attempt: z.number(), statusCode: z.number().nullable(), error: z.string().nullable(), durationMs: z.number(), at: z.number() })),
  lastError: z.string().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
});

const subscriptionKeys = {
  all: ["event-subscriptions"] as const,
  list: () => [...subscriptionKeys.all, "list"] as const,
  deliveries: (id: string) => [...subscriptionKeys.all, "deliveries", id] as const,
};

const subscriptionsQuery = () =>
  queryOptions({
    queryKey: subscriptionKeys.list(),
    queryFn: ({ signal }) => api.call("GET", "/event-subscriptions", z.array(subscriptionAnswer), { signal }),
  });

const deliveriesQuery = (id: string) =>
  queryOptions({
    queryKey: subscriptionKeys.deliveries(id),
    queryFn: ({ signal }) => api.call("GET", `/event-subscriptions/${id}/deliveries`, z.array(deliveryAnswer), { signal }),
    refetchInterval: 10_000,
  });

// --- labels ---------------------------------------------------------------------------------------

/** What each event means (the form's checkboxes and the list's badges). */
const EVENT_LABELS: Record<EventType, MessageDescriptor> = {
  "message.received": msg`A customer's message arrives`,
  "message.sent": msg`A message to a customer is sent`,
  "ticket.created": msg`A ticket is opened`,
  "ticket.closed": msg`A ticket is closed`,
  "contact.created": msg`A contact is created`,
  "broadcast.finished": msg`A broadcast finishes`,
};

const STATUS_LABELS: Record<EventDeliveryStatus, MessageDescriptor> = {
  pending: msg`Retrying`,
  delivered: msg`Delivered`,
  failed: msg`Failed`,
};

const statusVariant = (status: EventDeliveryStatus) => (status === "delivered" ? "secondary" : status === "failed" ? "destructive" : "outline");

// --- components -----------------------------------------------------------------------------------

/** The add form: the receiver's URL and its events; the created subscription goes to `onCreated`. */
function AddSubscriptionForm({ onCreated }: { onCreated: (created: EventSubscriptionCreatedAnswer) => void }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: (input: EventSubscriptionInput) => api.call("POST", "/event-subscriptions", createdAnswer, { body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: subscriptionKeys.list() }),
  });
  const form = useForm<EventSubscriptionInput>({ resolver: zodResolver(eventSubscriptionInput), defaultValues: { url: "", events: [] } });
  const { errors } = form.formState;
  const urlError = errors.url?.message;
  const eventsError = errors.events?.message ?? errors.events?.root?.message;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      onCreated(await create.mutateAsync(values));
    } catch (error) {
      applyServerErrors(form.setError, error, ["url", "events"]);
    }
  });

  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      {errors.root?.server?.message ? <Alert variant="destructive">{errors.root.server.message}</Alert> : null}
      <FormField
        label={t`Receiver URL`}
        error={urlError}
        hint={t`A public https:// address of your system. Each event is POSTed to it as JSON.`}
      >
        <Input autoFocus type="url" inputMode="url" placeholder="https://" maxLength={2048} {...form.register("url")} />
      </FormField>
      <Controller
        control={form.control}
        name="events"
        render={({ field }) => (
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium">{t`Events`}</legend>
            {EVENT_TYPES.map((type) => {
              const id = `event-${type}`;
              const checked = field.value.includes(type);
              return (
                <div key={type} className="flex items-center gap-3">
                  <Checkbox
                    id={id}
                    checked={checked}
                    disabled={create.isPending}
                    onCheckedChange={() => field.onChange(checked ? field.value.filter((e) => e !== type) : EVENT_TYPES.filter((e) => e === type || field.value.includes(e)))}
                  />
                  <label htmlFor={id} className="text-sm">
                    {i18n._(EVENT_LABELS[type])} <code className="font-mono text-xs text-muted-foreground">{type}</code>
                  </label>
                </div>
              );
            })}
            {eventsError ? <p className="text-xs font-medium text-destructive">{i18n._(fieldErrorMessage(eventsError))}</p> : null}
          </fieldset>
        )}
      />
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline" disabled={create.isPending}>
            {t`Cancel`}
          </Button>
        </DialogClose>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? <Spinner /> : <Plus />}
          {t`Add subscription`}
        </Button>
      </DialogFooter>
    </form>
  );
}

/** A subscription's latest deliveries, each with its attempts (status code or error, time). */
function Deliveries({ subscription }: { subscription: EventSubscriptionAnswer }) {
  const { t, i18n } = useLingui();
  const deliveries = useQuery(deliveriesQuery(subscription.id));
  const date = (ms: number) => formatDateTime(ms, { locale: i18n.locale });
  if (deliveries.isPending) return <Skeleton className="h-16 w-full" />;
  if (deliveries.isError) return <ErrorState title={t`Could not load the deliveries.`} onRetry={() => void deliveries.refetch()} />;
  if (deliveries.data.length === 0) return <p className="text-xs text-muted-foreground">{t`No event has been sent yet.`}</p>;
  return (
    <ul className="grid gap-1.5" aria-label={t`Recent deliveries`}>
      {deliveries.data.map((delivery) => (
        <li key={delivery.id} className="grid gap-1 rounded-md border p-2 text-xs">
          <div className="flex flex-wrap items-center gap-2">
            <code className="font-mono">{delivery.eventType}</code>
            <Badge variant={statusVariant(delivery.status)}>{i18n._(STATUS_LABELS[delivery.status])}</Badge>
            <span className="text-muted-foreground">{date(delivery.createdAt)}</span>
          </div>
          <ol className="grid gap-0.5 text-muted-foreground">
            {delivery.attempts.map((a) => (
              <li key={a.attempt} className="font-mono">
                #{a.attempt} · {date(a.at)} · {a.statusCode ?? "—"} {a.error ? `· ${a.error}` : ""} · {a.durationMs} ms
              </li>
            ))}
          </ol>
        </li>
      ))}
    </ul>
  );
}

function SubscriptionRow({ subscription, onRemove }: { subscription: EventSubscriptionAnswer; onRemove: (s: EventSubscriptionAnswer) => void }) {
  const { t, i18n } = useLingui();
  const [open, setOpen] = useState(false);
  const last = subscription.lastDelivery;
  return (
    <li className="grid gap-2 rounded-md border p-3">
      <div className="grid gap-2 sm:grid-cols-[1fr_auto] sm:items-start">
        <div className="grid min-w-0 gap-1.5">
          <span className="font-mono text-sm break-all">{subscription.url}</span>
          <ul className="flex flex-wrap gap-1" aria-label={t`Events`}>
            {subscription.events.map((type) => (
              <li key={type}>
                <Badge variant="secondary" title={i18n._(EVENT_LABELS[type])}>
                  {type}
                </Badge>
              </li>
            ))}
          </ul>
          <p className="text-xs text-muted-foreground">
            {t`Secret`} <code className="font-mono">{subscription.secretHint}</code>
            {" · "}
            {last ? t`Last delivery: ${i18n._(STATUS_LABELS[last.status])}, ${formatDateTime(last.at, { locale: i18n.locale })}` : t`No event has been sent yet.`}
          </p>
        </div>
        <div className="flex gap-2 justify-self-start">
          <Button variant="outline" size="sm" aria-expanded={open} onClick={() => setOpen((v) => !v)}>
            <History />
            {open ? t`Hide deliveries` : t`Deliveries`}
          </Button>
          <Button variant="outline" size="sm" onClick={() => onRemove(subscription)}>
            <Trash2 />
            {t`Remove`}
          </Button>
        </div>
      </div>
      {open ? <Deliveries subscription={subscription} /> : null}
    </li>
  );
}

/** The card on Settings → Integration. */
export function EventSubscriptionsCard() {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const subscriptions = useQuery(subscriptionsQuery());
  const remove = useMutation({
    mutationFn: (id: string) => api.send("DELETE", `/event-subscriptions/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: subscriptionKeys.all }),
  });
  const [adding, setAdding] = useState(false);
  const [fresh, setFresh] = useState<EventSubscriptionCreatedAnswer | null>(null);
  const [removing, setRemoving] = useState<EventSubscriptionAnswer | null>(null);

  const confirmRemove = () => {
    if (!removing) return;
    remove.mutate(removing.id, {
      onSuccess: () => {
        setRemoving(null);
        notifySuccess("deleted");
      },
      onError: (error) => {
        setRemoving(null);
        notifyError(error);
      },
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">{t`Event webhooks`}</CardTitle>
        <CardDescription>
          {t`Your systems are told when something happens here: each event is POSTed as JSON to the address you give, signed in the X-Conversa-Signature header (sha256= followed by the HMAC-SHA256 of the body with the subscription's secret). A receiver that fails is retried for about two hours.`}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {fresh ? (
          <SecretShownOnce
            value={fresh.secret}
            notice={t`Copy the signing secret now. For your security it will not be shown again.`}
            label={t`Signing secret`}
            copyLabel={t`Copy secret`}
            onDone={() => setFresh(null)}
          />
        ) : null}
        {subscriptions.isPending ? (
          <Skeleton className="h-20 w-full" />
        ) : subscriptions.isError ? (
          <ErrorState title={t`Could not load the event webhooks.`} onRetry={() => void subscriptions.refetch()} />
        ) : subscriptions.data.length === 0 ? (
          <EmptyState icon={<Webhook />} title={t`No event webhook yet.`} />
        ) : (
          <ul className="grid gap-2" aria-label={t`Event webhooks`}>
            {subscriptions.data.map((subscription) => (
              <SubscriptionRow key={subscription.id} subscription={subscription} onRemove={setRemoving} />
            ))}
          </ul>
        )}
      </CardContent>
      <CardFooter>
        <Button onClick={() => setAdding(true)}>
          <Plus />
          {t`New event webhook`}
        </Button>
      </CardFooter>
      <Dialog open={adding} onOpenChange={setAdding}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{t`New event webhook`}</DialogTitle>
            <DialogDescription>{t`Choose where events go and which ones. The signing secret is shown once, right after it is created.`}</DialogDescription>
          </DialogHeader>
          {adding ? (
            <AddSubscriptionForm
              onCreated={(created) => {
                setFresh(created);
                setAdding(false);
              }}
            />
          ) : null}
        </DialogContent>
      </Dialog>
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => (open ? undefined : setRemoving(null))}
        title={t`Remove this event webhook?`}
        description={t`No more events are sent to this address, and its delivery log is deleted.`}
        confirmLabel={t`Remove`}
        destructive
        pending={remove.isPending}
        onConfirm={confirmRemove}
      />
    </Card>
  );
}
