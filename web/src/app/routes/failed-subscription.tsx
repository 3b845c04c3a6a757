import { useEffect, useState } from "react";
import { Link, useNavigate } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { CreditCard, Package } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Skeleton } from "@/components/ui/skeleton";
import { useMe, usePermissions } from "@/features/session/hooks/use-session";
import { useActiveCompany } from "@/features/companies/hooks/use-companies";
import { plansQuery, subscriptionQuery } from "@/features/billing/api/billing-api";
import { useNoticeText } from "@/features/billing/components/billing-notices";
import { PlanCards } from "@/features/billing/components/plan-cards";
import { SubscribeSheet } from "@/features/billing/components/subscribe-sheet";
import { billingNotice } from "@/features/billing/lib/notices";
import type { PlanAnswer } from "../../../../schema/validation/billing";

/**
 * /failed-subscription (spec §2 "login plus is-invalid-subscription", §4 "Unpaid: access is
 * suspended", §8; issue 13): the payment message and the way out. A franchise company is told to
 * contact its administrator; any other pays the open invoice on its checkout page ("Pay now") or
 * chooses a plan here (card or PIX), then is back in the app once the payment is confirmed.
 */
export function FailedSubscriptionPage() {
  const { t } = useLingui();
  const me = useMe();
  const company = useActiveCompany();
  // Paying needs settings_company (the company's owner and managers); other members are told to ask them.
  const canManage = usePermissions().data?.has("settings_company") === true;
  const subscription = useQuery({ ...subscriptionQuery(), retry: false, enabled: canManage });
  const plans = useQuery({ ...plansQuery(), enabled: canManage });
  const [choosing, setChoosing] = useState<PlanAnswer | null>(null);
  const text = useNoticeText();
  const navigate = useNavigate();
  const valid = company.data?.subscriptionValid === true;
  useEffect(() => {
    // Paid from here (a card is confirmed at once): back into the app.
    if (valid) void navigate("/", { replace: true });
  }, [valid, navigate]);
  const notice = company.data ? billingNotice(company.data, subscription.data) : null;
  const franchise = subscription.data?.franchise === true;
  const title = notice && notice.kind !== "expiring" ? text(notice) : t`Payment not made. Access temporarily suspended.`;
  const checkout = notice?.payHref?.startsWith("/checkout/") ? notice.payHref : null;
  return (
    <div className="grid gap-4" data-testid="failed-subscription">
      <Card>
        <EmptyState
          icon={<CreditCard />}
          title={title}
          description={
            franchise
              ? (subscription.data?.franchiseNotPaid ??
                t`Your company's plan is managed by your administrator. Contact them to regularize the payment, or switch to another company.`)
              : canManage
                ? t`Pay the open invoice or choose a plan to use the app again, or switch to another company.`
                : t`Ask the company's owner to renew the subscription, or switch to another company.`
          }
          action={
            checkout ? (
              <Button asChild data-testid="pay-open-invoice">
                <Link to={checkout}>{t`Pay now`}</Link>
              </Button>
            ) : undefined
          }
        />
      </Card>
      {franchise || !canManage ? null : (
        <Card>
          <CardHeader>
            <CardTitle as="h2">{t`Choose a plan`}</CardTitle>
            <CardDescription>{t`Pay by credit card or PIX. Access returns as soon as the payment is confirmed.`}</CardDescription>
          </CardHeader>
          <CardContent>
            {plans.isPending ? (
              <Skeleton className="h-40" />
            ) : plans.isError ? (
              <ErrorState onRetry={() => void plans.refetch()} />
            ) : plans.data.length === 0 ? (
              <EmptyState icon={<Package />} title={t`No plans on sale`} description={t`Plans appear here once the platform offers them.`} />
            ) : (
              <PlanCards plans={plans.data} currentPlanId={subscription.data?.plan?.id ?? null} onChoose={setChoosing} />
            )}
          </CardContent>
        </Card>
      )}
      <SubscribeSheet
        plan={choosing}
        prefill={{ name: me.data?.name ?? "", email: me.data?.email ?? "", phone: me.data?.phone ?? "" }}
        onClose={() => setChoosing(null)}
      />
    </div>
  );
}
