/**
 * /shipping-cycle (spec §2 Shipping cycles "manage cycles and their steps", §3 Shipping cycle;
 * permission `shipping_cycles`): the company's cycles with their on/off switch, number of steps
 * and of contacts enrolled; a new cycle opens the editor (/shipping-cycle/new), a row opens its
 * editor, delete after confirmation.
 */
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { Plural, useLingui } from "@lingui/react/macro";
import { Pencil, Plus, Repeat, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Skeleton } from "@/components/ui/skeleton";
import { Switch } from "@/components/ui/switch";
import { notifyError } from "@/lib/notify";
import type { ShippingCycleAnswer } from "../../../../../schema/validation/shipping-cycles";
import { useCycles, useDeleteCycle, useSaveCycle } from "../hooks/use-shipping-cycles";

function CycleRow({ cycle, onDelete }: { cycle: ShippingCycleAnswer; onDelete: () => void }) {
  const { t } = useLingui();
  const toggle = useSaveCycle();
  const name = cycle.name;
  const steps = cycle.steps.length;
  const enrolled = cycle.enrolledCount;
  const href = `/shipping-cycle/${encodeURIComponent(cycle.id)}`;
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center" data-testid="cycle-row" aria-label={name}>
      <div className="grid min-w-0 flex-1 gap-1">
        <Link to={href} className="truncate font-medium underline-offset-4 outline-none hover:underline focus-visible:underline">
          {name}
        </Link>
        <p className="text-xs text-muted-foreground">
          <Plural value={steps} one="# step" other="# steps" /> · <Plural value={enrolled} one="# contact enrolled" other="# contacts enrolled" />
        </p>
      </div>
      <div className="flex items-center gap-2">
        <Switch
          checked={toggle.isPending ? (toggle.variables.input.active ?? cycle.active) : cycle.active}
          onCheckedChange={(active) => toggle.mutate({ id: cycle.id, input: { active } }, { onError: (error) => notifyError(error) })}
          aria-label={t`Turn ${name} on or off`}
          disabled={toggle.isPending}
        />
        <Button asChild variant="outline" size="sm">
          <Link to={href} aria-label={t`Edit ${name}`}>
            <Pencil />
            {t`Edit`}
          </Link>
        </Button>
        <Button variant="ghost" size="sm" className="text-destructive hover:text-destructive" onClick={onDelete} aria-label={t`Delete ${name}`}>
          <Trash2 />
          <span className="sm:sr-only">{t`Delete`}</span>
        </Button>
      </div>
    </li>
  );
}

/** The Shipping cycles screen. */
export function ShippingCyclesPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const cycles = useCycles();
  const remove = useDeleteCycle();
  const [deleting, setDeleting] = useState<ShippingCycleAnswer | null>(null);
  const list = cycles.data ?? [];
  const create = () => void navigate("/shipping-cycle/new");
  const deletingName = deleting?.name ?? "";

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight">{t`Shipping cycles`}</h1>
          <p className="text-sm text-muted-foreground">{t`Send a sequence of flows to a contact, each step a set time after the previous one.`}</p>
        </div>
        <Button onClick={create}>
          <Plus />
          {t`New cycle`}
        </Button>
      </div>
      {cycles.isPending ? (
        <Card aria-busy>
          <ul className="divide-y">
            {Array.from({ length: 3 }, (_, index) => (
              <li key={index} className="grid gap-2 p-4">
                <Skeleton className="h-4 w-40" />
                <Skeleton className="h-3 w-56" />
              </li>
            ))}
          </ul>
          <span className="sr-only">{t`Loading shipping cycles…`}</span>
        </Card>
      ) : cycles.isError ? (
        <Card>
          <ErrorState title={t`Could not load the shipping cycles.`} onRetry={() => void cycles.refetch()} />
        </Card>
      ) : list.length === 0 ? (
        <Card>
          <EmptyState
            icon={<Repeat />}
            title={t`No shipping cycles yet`}
            description={t`For example: a welcome flow now, a tip after 2 days and an offer after a month.`}
            action={
              <Button onClick={create}>
                <Plus />
                {t`New cycle`}
              </Button>
            }
          />
        </Card>
      ) : (
        <Card>
          <ul className="divide-y" aria-label={t`Shipping cycles`}>
            {list.map((cycle) => (
              <CycleRow key={cycle.id} cycle={cycle} onDelete={() => setDeleting(cycle)} />
            ))}
          </ul>
        </Card>
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title={t`Delete the shipping cycle ${deletingName}?`}
        description={t`Contacts in it receive no further steps. This cannot be undone.`}
        confirmLabel={t`Delete`}
        pending={remove.isPending}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting.id, { onSettled: () => setDeleting(null), onError: (error) => notifyError(error) });
        }}
      />
    </div>
  );
}
