import { useLingui } from "@lingui/react/macro";
import { CreditCard } from "lucide-react";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";

/**
 * /failed-subscription (spec §2, §4 "Unpaid: access is suspended"): shown to users whose company
 * has no valid subscription. A pending payment's notice comes from the shell above it.
 */
export function FailedSubscriptionPage() {
  const { t } = useLingui();
  return (
    <Card>
      <EmptyState
        icon={<CreditCard />}
        title={t`Payment not made. Access temporarily suspended.`}
        description={t`Renew the subscription to use the app again, or switch to another company.`}
      />
    </Card>
  );
}
