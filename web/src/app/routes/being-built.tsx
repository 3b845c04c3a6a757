/**
 * The honest placeholder of areas whose features come in later issues: the real layout and guards
 * around an empty state ("This area is being built"), never fake data.
 */
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { Construction } from "lucide-react";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";

/** Names of the areas, as shown in the placeholder's heading. */
export const AREAS = {
  chats: msg`Chats`,
  contacts: msg`Contacts`,
  crm: msg`CRM`,
  internalChats: msg`Internal chat`,
  keywords: msg`Keywords`,
  quickMessages: msg`Quick messages`,
  connections: msg`Connections`,
  flowBuilder: msg`Flow builder`,
  folders: msg`Flows`,
  shareFlow: msg`Shared flow`,
  shippingCycles: msg`Shipping cycles`,
  shippingCycle: msg`Shipping cycle`,
  webhooks: msg`Webhooks`,
  webhook: msg`Webhook`,
  broadcasts: msg`Current broadcasts`,
  broadcastHistory: msg`Broadcast history`,
  customFields: msg`Custom fields`,
  tags: msg`Tags`,
  franchiseSettings: msg`Franchise settings`,
  franchiseCompanies: msg`Franchise companies`,
  franchiseEmail: msg`Franchise email`,
  franchiseIntegration: msg`Franchise integrations`,
  franchisePayment: msg`Franchise payment`,
  franchiseRoles: msg`Franchise roles`,
  checkout: msg`Checkout`,
  invoice: msg`Invoice`,
  instagramCallback: msg`Instagram connection`,
} satisfies Record<string, MessageDescriptor>;

/** Key of an area not built yet. */
export type Area = keyof typeof AREAS;

/** The placeholder content for `area`: icon, title, one line. */
export function BeingBuilt({ area, heading = true }: { area: Area; heading?: boolean }) {
  const { t, i18n } = useLingui();
  return (
    <div className="grid gap-4">
      {heading ? <h1 className="text-2xl font-semibold tracking-tight">{i18n._(AREAS[area])}</h1> : null}
      <Card>
        <EmptyState
          icon={<Construction />}
          title={t`This area is being built`}
          description={t`It will be available in an upcoming version of the app.`}
        />
      </Card>
    </div>
  );
}

/** A route element factory: `beingBuilt("chats")`. */
export function beingBuilt(area: Area, heading = true) {
  return <BeingBuilt area={area} heading={heading} />;
}
