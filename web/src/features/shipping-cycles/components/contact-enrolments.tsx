/**
 * A contact's shipping cycles on its page (issue 10 "GET /api/contacts/{id}/shipping-cycles
 * (current step, next run)"): each enrolment with its cycle (a link to the editor for members with
 * `shipping_cycles`), the step it is on, when the next step runs (in the viewer's time zone, as
 * every moment), held while the cycle is off, finished after its last step; "Remove" (confirmed)
 * takes the contact out of a cycle still running.
 */
import { useState } from "react";
import { Link } from "react-router";
import { useLingui } from "@lingui/react/macro";
import { plural } from "@lingui/core/macro";
import { Repeat, UserMinus } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ErrorState } from "@/components/ui/error-state";
import { Skeleton } from "@/components/ui/skeleton";
import { formatDateTime } from "@/lib/dates";
import { formatRelative } from "@/lib/relative-time";
import { notifyError } from "@/lib/notify";
import type { ContactCycleAnswer } from "../../../../../schema/validation/shipping-cycles";
import { useContactCycles, useRemoveEnrolment } from "../hooks/use-shipping-cycles";
import { ENROLMENT_STATUS_LABELS } from "../lib/labels";

function EnrolmentItem({ enrolment, canOpen, onRemove }: { enrolment: ContactCycleAnswer; canOpen: boolean; onRemove: () => void }) {
  const { t, i18n } = useLingui();
  const name = enrolment.cycleName;
  const step = Math.min(enrolment.stepIndex + 1, enrolment.stepCount);
  const steps = enrolment.stepCount;
  const next = enrolment.nextRunAt;
  const nextText = next !== null ? formatDateTime(next) : "";
  const nextRelative = next !== null ? formatRelative(next, Date.now(), i18n.locale) : "";
  return (
    <li className="grid gap-1.5 rounded-md border p-3" data-testid="contact-cycle" data-status={enrolment.status}>
      <div className="flex flex-wrap items-center gap-2">
        <Badge variant={enrolment.status === "waiting" ? "secondary" : "outline"}>{i18n._(ENROLMENT_STATUS_LABELS[enrolment.status])}</Badge>
        {canOpen ? (
          <Link to={`/shipping-cycle/${encodeURIComponent(enrolment.cycleId)}`} className="min-w-0 truncate text-sm font-medium underline-offset-4 outline-none hover:underline focus-visible:underline">
            {name}
          </Link>
        ) : (
          <span className="min-w-0 truncate text-sm font-medium">{name}</span>
        )}
      </div>
      <p className="text-sm text-muted-foreground">
        {enrolment.status === "done" ? t`${plural(steps, { one: "Its step ran.", other: "All # steps ran." })}` : t`Next: step ${step} of ${steps}`}
        {next !== null ? (
          <>
            {" · "}
            <time dateTime={new Date(next).toISOString()} title={nextText}>
              {nextText} ({nextRelative})
            </time>
          </>
        ) : null}
      </p>
      {enrolment.status !== "done" ? (
        <div>
          <Button variant="outline" size="sm" className="text-destructive hover:text-destructive" onClick={onRemove} aria-label={t`Remove from ${name}`}>
            <UserMinus />
            {t`Remove`}
          </Button>
        </div>
      ) : null}
    </li>
  );
}

/** The "Shipping cycles" section's content: the contact's enrolments with loading, empty and error states. */
export function ContactEnrolments({ contactId, canOpenCycles }: { contactId: string; canOpenCycles: boolean }) {
  const { t } = useLingui();
  const enrolments = useContactCycles(contactId);
  const remove = useRemoveEnrolment(contactId);
  const [removing, setRemoving] = useState<ContactCycleAnswer | null>(null);
  if (enrolments.isPending) {
    return (
      <div className="grid gap-2" aria-busy>
        <Skeleton className="h-16 w-full" />
      </div>
    );
  }
  if (enrolments.isError) return <ErrorState title={t`Could not load the shipping cycles of this contact.`} onRetry={() => void enrolments.refetch()} />;
  if (!enrolments.data.length) {
    return (
      <p className="flex items-center gap-2 text-sm text-muted-foreground">
        <Repeat className="size-4" aria-hidden />
        {t`This contact is in no shipping cycle.`}
      </p>
    );
  }
  const removingName = removing?.cycleName ?? "";
  return (
    <>
      <ul className="grid gap-2" aria-label={t`Shipping cycles`}>
        {enrolments.data.map((enrolment) => (
          <EnrolmentItem key={`${enrolment.cycleId}-${enrolment.enrolledAt}`} enrolment={enrolment} canOpen={canOpenCycles} onRemove={() => setRemoving(enrolment)} />
        ))}
      </ul>
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => (open ? undefined : setRemoving(null))}
        title={t`Remove this contact from ${removingName}?`}
        description={t`The contact receives no further steps of this cycle.`}
        confirmLabel={t`Remove`}
        pending={remove.isPending}
        onConfirm={() => {
          if (!removing) return;
          remove.mutate(removing.cycleId, {
            onSettled: () => setRemoving(null),
            onError: (error) => notifyError(error),
          });
        }}
      />
    </>
  );
}
