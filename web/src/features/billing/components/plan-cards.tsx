/**
 * The plans on sale (issue 13 `GET /api/plans`) as cards: name, price and cycle, member and
 * connection limits and the features included; the company's current plan is marked.
 */
import { useLingui } from "@lingui/react/macro";
import { Check } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";
import type { PlanAnswer } from "../../../../../schema/validation/billing";
import { CYCLE_LABELS, CYCLE_SUFFIXES, FEATURE_LABELS } from "../lib/labels";
import { formatMoney } from "../lib/money";

function PlanCard({ plan, current, onChoose }: { plan: PlanAnswer; current: boolean; onChoose: () => void }) {
  const { t, i18n } = useLingui();
  const members = plan.maxMembers;
  const connections = plan.maxConnections;
  return (
    <li className={cn("flex flex-col gap-3 rounded-xl border bg-card p-4", current && "border-primary ring-1 ring-primary")} data-testid="plan-card" aria-label={plan.name}>
      <div className="flex items-start justify-between gap-2">
        <div>
          <p className="font-semibold">{plan.name}</p>
          <p className="text-xs text-muted-foreground">{i18n._(CYCLE_LABELS[plan.cycle])}</p>
        </div>
        {current ? <Badge>{t`Current plan`}</Badge> : null}
      </div>
      <p>
        <span className="text-2xl font-semibold tabular-nums">{formatMoney(plan.priceCents, i18n.locale)}</span>{" "}
        <span className="text-sm text-muted-foreground">{i18n._(CYCLE_SUFFIXES[plan.cycle])}</span>
      </p>
      <ul className="grid gap-1 text-sm">
        <li>{members === null ? t`Unlimited members` : t`Up to ${members} members`}</li>
        <li>{connections === null ? t`Unlimited connections` : t`Up to ${connections} connections`}</li>
        {plan.features.map((feature) => (
          <li key={feature} className="flex items-center gap-1.5 text-muted-foreground">
            <Check className="size-3.5 text-primary" aria-hidden />
            {i18n._(FEATURE_LABELS[feature])}
          </li>
        ))}
      </ul>
      <Button className="mt-auto" variant={current ? "outline" : "default"} onClick={onChoose} data-testid="choose-plan">
        {current ? t`Renew or pay` : t`Choose this plan`}
      </Button>
    </li>
  );
}

/** The grid of plans. */
export function PlanCards({ plans, currentPlanId, onChoose }: { plans: PlanAnswer[]; currentPlanId: string | null; onChoose: (plan: PlanAnswer) => void }) {
  const { t } = useLingui();
  return (
    <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3" aria-label={t`Plans`}>
      {plans.map((plan) => (
        <PlanCard key={plan.id} plan={plan} current={plan.id === currentPlanId} onChoose={() => onChoose(plan)} />
      ))}
    </ul>
  );
}
