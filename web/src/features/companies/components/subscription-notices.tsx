import { useLingui } from "@lingui/react/macro";
import { CalendarClock, CreditCard } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import type { CompanyAnswer } from "../../../../../schema/api-types";
import { formatDate } from "@/lib/dates";

/** Days before the due date when the expiry warning appears. */
export const EXPIRY_WARNING_DAYS = 7;

/** Whether the subscription ends within the warning window (and has not ended). */
export function expiresSoon(company: Pick<CompanyAnswer, "dueDate" | "plan">, now = Date.now()): boolean {
  if (company.plan === "lifetime") return false;
  const left = company.dueDate - now;
  return left > 0 && left <= EXPIRY_WARNING_DAYS * 24 * 60 * 60 * 1000;
}

/**
 * Subscription notices of the active company (spec §4 "Payment status", §8): pending payment asks
 * to verify the payment method; an upcoming due date shows the expiry warning with the date.
 */
export function SubscriptionNotices({ company }: { company: CompanyAnswer }) {
  const { t, i18n } = useLingui();
  const date = formatDate(company.dueDate, { locale: i18n.locale });
  return (
    <>
      {company.paymentStatus === "pending" ? (
        <Alert variant="warning">
          <CreditCard />
          <p>{t`Pending payment. Please verify your payment method.`}</p>
        </Alert>
      ) : null}
      {company.subscriptionValid && expiresSoon(company) ? (
        <Alert variant="warning">
          <CalendarClock />
          <p>{company.paymentStatus === "trial" ? t`Your trial ends on ${date}.` : t`Your subscription expires on ${date}.`}</p>
        </Alert>
      ) : null}
    </>
  );
}
