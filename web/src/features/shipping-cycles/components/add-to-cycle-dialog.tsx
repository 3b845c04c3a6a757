/**
 * "Add to shipping cycle" of the contacts list's bulk actions (issue 10 "Enrolment … from the
 * contacts screen (bulk action)"; permission `contacts_shipping_cycles`): pick a cycle, then the
 * selected contacts are enrolled (POST /api/shipping-cycles/{id}/contacts, at most 500 per call;
 * the caller gives the ids page by page, so "every contact matching the filter" works too). The
 * outcome says how many were enrolled and why others were skipped (already in it, opted out).
 */
import { useState } from "react";
import { Plural, useLingui } from "@lingui/react/macro";
import { plural } from "@lingui/core/macro";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { NativeSelect } from "@/components/ui/native-select";
import { Spinner } from "@/components/ui/spinner";
import { notifyError, TOAST_DURATION_MS } from "@/lib/notify";
import { useCycles, useEnrolContacts } from "../hooks/use-shipping-cycles";

/** The enrolment dialog. `pages` yields the chosen contacts' ids, one page at a time. */
export function AddToCycleDialog({
  open,
  onOpenChange,
  count,
  pages,
  onDone,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** How many contacts are chosen. */
  count: number;
  pages: () => AsyncIterable<string[]> | Iterable<string[]>;
  onDone: () => void;
}) {
  const { t } = useLingui();
  const cycles = useCycles(open);
  const enrol = useEnrolContacts();
  const [cycleId, setCycleId] = useState("");
  const [error, setError] = useState<string | undefined>(undefined);
  const list = cycles.data ?? [];

  const submit = () => {
    if (!cycleId) {
      setError("required");
      return;
    }
    enrol.mutate(
      { cycleId, pages: pages() },
      {
        onSuccess: (outcome) => {
          const enrolled = outcome.enrolled.length;
          const already = outcome.skipped.filter((skip) => skip.reason === "already_enrolled").length;
          const optedOut = outcome.skipped.filter((skip) => skip.reason === "opted_out").length;
          const parts = [t`${plural(enrolled, { one: "# contact added to the cycle.", other: "# contacts added to the cycle." })}`];
          if (already) parts.push(t`${plural(already, { one: "# was already in it.", other: "# were already in it." })}`);
          if (optedOut) parts.push(t`${plural(optedOut, { one: "# opted out and was left out.", other: "# opted out and were left out." })}`);
          toast.success(parts.join(" "), { duration: TOAST_DURATION_MS });
          setCycleId("");
          onOpenChange(false);
          onDone();
        },
        onError: (failure) => notifyError(failure),
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={(next) => (enrol.isPending ? undefined : onOpenChange(next))}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>
            <Plural value={count} one="Add # contact to a shipping cycle" other="Add # contacts to a shipping cycle" />
          </DialogTitle>
          <DialogDescription>{t`They receive the cycle's steps from the first one on. Contacts who opted out are left out.`}</DialogDescription>
        </DialogHeader>
        <FormField label={t`Shipping cycle`} error={error} hint={cycles.isError ? t`Could not load the shipping cycles.` : !cycles.isPending && !list.length ? t`No shipping cycles yet` : undefined}>
          <NativeSelect
            value={cycleId}
            disabled={cycles.isPending}
            onChange={(event) => {
              setCycleId(event.target.value);
              setError(undefined);
            }}
          >
            <option value="">{t`Choose a cycle`}</option>
            {list.map((cycle) => (
              <option key={cycle.id} value={cycle.id}>
                {cycle.active ? cycle.name : t`${cycle.name} (turned off)`}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={enrol.isPending}>
            {t`Cancel`}
          </Button>
          <Button onClick={submit} disabled={enrol.isPending || !list.length}>
            {enrol.isPending ? <Spinner /> : null}
            {t`Add to cycle`}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
