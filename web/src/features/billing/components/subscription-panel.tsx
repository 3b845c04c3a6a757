/**
 * /settings/subscription (spec §2 "subscription (transaction history)", §3 Company plan, payment
 * status and due date, §4; issue 13): the current plan, its status and payment status, the due
 * date, the next invoice (with a Pay link to its checkout), the card on file (brand and last 4
 * digits), the plans to change to (coupon, card or PIX in a sheet), updating the card, cancelling
 * (after a confirmation) and the transaction history.
 */
import { useState } from "react";
import { Link } from "react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { CreditCard, Package } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Skeleton } from "@/components/ui/skeleton";
import { formatDate } from "@/lib/dates";
import { notifyError, notifySuccess } from "@/lib/notify";
import { companyKeys } from "@/features/companies/api/companies-api";
import { useMe } from "@/features/session/hooks/use-session";
import type { PlanAnswer, SubscriptionAnswer } from "../../../../../schema/validation/billing";
import { billingKeys, cancelSubscription, plansQuery, subscriptionQuery } from "../api/billing-api";
import { CYCLE_SUFFIXES, PAYMENT_STATUS_LABELS, SUBSCRIPTION_STATUS_LABELS, statusTone } from "../lib/labels";
import { formatMoney } from "../lib/money";
import type { HolderValues } from "../lib/payment-form";
import { InvoiceHistory, payable } from "./invoice-history";
import { brandName } from "./payment-fields";
import { PlanCards } from "./plan-cards";
import { SubscribeSheet } from "./subscribe-sheet";
import { UpdateCardSheet } from "./update-card-sheet";

function Term({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1">
      <dt className="text-xs text-muted-foreground">{term}</dt>
      <dd className="text-sm font-medium">{children}</dd>
    </div>
  );
}

function CurrentPlan({ subscription, onUpdateCard, onCancel }: { subscription: SubscriptionAnswer; onUpdateCard: () => void; onCancel: () => void }) {
  const { t, i18n } = useLingui();
  const date = (ms: number) => formatDate(ms, { locale: i18n.locale });
  const plan = subscription.plan;
  const next = subscription.nextInvoice;
  const price = subscription.priceCents ?? plan?.priceCents ?? null;
  const lifetime = plan?.cycle === "lifetime" && subscription.status === "active";
  return (
    <Card data-testid="current-subscription">
      <CardHeader>
        <CardTitle as="h2">{t`Current plan`}</CardTitle>
        <CardDescription>{subscription.franchise ? t`Your company's plan is managed by your administrator. Contact them to change it.` : t`What the company pays and when.`}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className="grid gap-4 sm:grid-cols-3">
          <Term term={t`Plan`}>{plan ? plan.name : t`Free trial`}</Term>
          <Term term={t`Status`}>
            <Badge variant={statusTone(subscription.status)} data-testid="subscription-status">
              {i18n._(SUBSCRIPTION_STATUS_LABELS[subscription.status])}
            </Badge>
          </Term>
          <Term term={t`Payment status`}>{i18n._(PAYMENT_STATUS_LABELS[subscription.paymentStatus])}</Term>
          <Term term={subscription.status === "trial" ? t`Trial ends on` : t`Due date`}>{lifetime ? t`No due date` : date(subscription.dueDate)}</Term>
          {price !== null && plan ? (
            <Term term={t`Price`}>
              {formatMoney(price, i18n.locale)} {i18n._(CYCLE_SUFFIXES[plan.cycle])}
            </Term>
          ) : null}
          <Term term={t`Card on file`}>{subscription.card ? `${brandName(subscription.card.brand)} •••• ${subscription.card.last4}` : t`None`}</Term>
        </dl>
        {next ? (
          <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg border bg-muted/40 p-3" data-testid="next-invoice">
            <p className="text-sm">
              {t`Next invoice: ${formatMoney(next.valueCents, i18n.locale)}, due ${date(next.dueDate)}`}
            </p>
            <div className="flex gap-2">
              {payable(next) ? (
                <Button asChild size="sm">
                  <Link to={`/checkout/${next.publicId}`}>{t`Pay now`}</Link>
                </Button>
              ) : null}
              <Button asChild size="sm" variant="outline">
                <Link to={`/invoice/${next.publicId}`}>{t`View invoice`}</Link>
              </Button>
            </div>
          </div>
        ) : null}
        {!subscription.franchise && plan && subscription.status !== "cancelled" ? (
          <div className="flex flex-wrap gap-2">
            {subscription.billingType === "CREDIT_CARD" ? (
              <Button variant="outline" onClick={onUpdateCard}>
                <CreditCard />
                {t`Update card`}
              </Button>
            ) : null}
            <Button variant="ghost" className="text-destructive hover:text-destructive" onClick={onCancel}>
              {t`Cancel subscription`}
            </Button>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** The subscription screen. */
export function SubscriptionPanel() {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const me = useMe();
  const subscription = useQuery(subscriptionQuery());
  const plans = useQuery(plansQuery());
  const [choosing, setChoosing] = useState<PlanAnswer | null>(null);
  const [updatingCard, setUpdatingCard] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const cancel = useMutation({
    mutationFn: cancelSubscription,
    onSuccess: async () => {
      notifySuccess("edited");
      setCancelling(false);
      await queryClient.invalidateQueries({ queryKey: billingKeys.all });
      await queryClient.invalidateQueries({ queryKey: companyKeys.all });
    },
    onError: (error) => notifyError(error),
  });
  const prefill: Partial<HolderValues> = { name: me.data?.name ?? "", email: me.data?.email ?? "", phone: me.data?.phone ?? "" };

  if (subscription.isPending) {
    return (
      <div className="grid gap-4">
        <Skeleton className="h-48" />
        <Skeleton className="h-64" />
      </div>
    );
  }
  if (subscription.isError) return <ErrorState onRetry={() => void subscription.refetch()} />;
  const current = subscription.data;
  const dueDate = formatDate(current.dueDate, { locale: i18n.locale });
  return (
    <div className="grid gap-4">
      <CurrentPlan subscription={current} onUpdateCard={() => setUpdatingCard(true)} onCancel={() => setCancelling(true)} />
      {current.franchise ? null : (
        <Card>
          <CardHeader>
            <CardTitle as="h2">{current.plan ? t`Change plan` : t`Choose a plan`}</CardTitle>
            <CardDescription>{t`Pay by credit card or PIX. A coupon, if you have one, is applied at payment.`}</CardDescription>
          </CardHeader>
          <CardContent>
            {plans.isPending ? (
              <Skeleton className="h-40" />
            ) : plans.isError ? (
              <ErrorState onRetry={() => void plans.refetch()} />
            ) : plans.data.length === 0 ? (
              <EmptyState icon={<Package />} title={t`No plans on sale`} description={t`Plans appear here once the platform offers them.`} />
            ) : (
              <PlanCards plans={plans.data} currentPlanId={current.plan?.id ?? null} onChoose={setChoosing} />
            )}
          </CardContent>
        </Card>
      )}
      <Card>
        <CardHeader>
          <CardTitle as="h2">{t`Transaction history`}</CardTitle>
          <CardDescription>{t`Every invoice of the company, newest first.`}</CardDescription>
        </CardHeader>
        <CardContent>
          <InvoiceHistory />
        </CardContent>
      </Card>
      <SubscribeSheet plan={choosing} prefill={prefill} onClose={() => setChoosing(null)} />
      <UpdateCardSheet open={updatingCard} prefill={prefill} onClose={() => setUpdatingCard(false)} />
      <ConfirmDialog
        open={cancelling}
        onOpenChange={setCancelling}
        title={t`Cancel the subscription?`}
        description={t`No further charges are made. The company keeps access until ${dueDate}.`}
        confirmLabel={t`Cancel subscription`}
        onConfirm={() => cancel.mutate()}
        pending={cancel.isPending}
      />
    </div>
  );
}
