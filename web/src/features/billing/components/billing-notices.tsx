/**
 * The payment notice above every page of the app shell (spec §4, §8; issue 13), with its way out:
 * "Pay now" to the open invoice's checkout or the plan choice, or, for franchise companies, the
 * advice to contact their administrator. /failed-subscription says the same in full, so the
 * notice stays off that page.
 */
import { Link, useLocation } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { CalendarClock, CreditCard, ShieldAlert } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { formatDate } from "@/lib/dates";
import { usePermissions } from "@/features/session/hooks/use-session";
import type { CompanyAnswer } from "../../../../../schema/api-types";
import { subscriptionQuery } from "../api/billing-api";
import { billingNotice, type BillingNotice } from "../lib/notices";

/** The notice's sentence in the user's language. */
export function useNoticeText() {
  const { t, i18n } = useLingui();
  return (notice: BillingNotice): string => {
    const date = formatDate(notice.dueDate, { locale: i18n.locale });
    switch (notice.kind) {
      case "suspended":
        return t`Payment not made. Access temporarily suspended.`;
      case "pending":
        return t`Pending payment. Please verify your payment method.`;
      case "expiring":
        return notice.trial ? t`Your trial ends on ${date}.` : t`Your subscription expires on ${date}.`;
      case "contact_administrator":
        return t`Contact your administrator to regularize the payment.`;
    }
  };
}

/** The notice of the active company, if any. */
export function BillingNotices({ company }: { company: CompanyAnswer }) {
  const { t } = useLingui();
  const location = useLocation();
  // The subscription's details need settings_company; without it the company's own fields decide.
  const canManage = usePermissions().data?.has("settings_company") === true;
  const subscription = useQuery({ ...subscriptionQuery(), retry: false, enabled: canManage });
  const text = useNoticeText();
  const notice = billingNotice(company, subscription.data);
  if (!notice || location.pathname === "/failed-subscription") return null;
  const Icon = notice.kind === "expiring" ? CalendarClock : notice.kind === "suspended" ? ShieldAlert : CreditCard;
  return (
    <Alert variant={notice.kind === "suspended" ? "destructive" : "warning"} className="items-center" data-testid="billing-notice">
      <Icon />
      <p className="flex-1">
        {/* A franchise's own payment text (its notPaid setting) replaces the generic advice. */}
        {notice.kind === "contact_administrator" && subscription.data?.franchiseNotPaid ? subscription.data.franchiseNotPaid : text(notice)}
        {notice.franchise && notice.kind !== "contact_administrator" ? ` ${subscription.data?.franchiseNotPaid ?? t`Contact your administrator to regularize the payment.`}` : null}
      </p>
      {notice.payHref && canManage && location.pathname !== notice.payHref ? (
        <Button asChild size="sm" variant="outline">
          <Link to={notice.payHref}>{notice.payHref.startsWith("/checkout/") ? t`Pay now` : t`Choose a plan`}</Link>
        </Button>
      ) : null}
    </Alert>
  );
}
