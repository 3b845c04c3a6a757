import { SubscriptionPanel } from "@/features/billing/components/subscription-panel";

/**
 * /settings/subscription (spec §2; permission settings_company): the company's plan, payment and
 * transaction history (issue 13). The screen lives with billing (features/billing).
 */
export function SubscriptionSettingsPage() {
  return <SubscriptionPanel />;
}
