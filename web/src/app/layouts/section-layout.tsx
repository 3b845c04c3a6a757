/**
 * Layouts of spec §2 that add tabs to the shell: broadcasts (current, history), registers (custom
 * fields, tags), settings (my account, company, subscription, integration, operating hours, roles,
 * members, data cleanup) and franchises (settings, companies, email, integrations, payment, roles).
 * Settings tabs the user may not open (ROUTE_PERMISSIONS) are hidden, and so is Integration when the
 * company's franchise role lacks the `integration` feature (issue 14).
 */
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { NavLink, Outlet } from "react-router";
import { cn } from "@/lib/utils";
import { usePermissions } from "@/features/session/hooks/use-session";
import { useFeatures } from "@/features/session/hooks/use-features";
import { permissionFor } from "../route-permissions";
import { AppShell } from "./app-shell";

/** A tab; `feature`: hidden when the company's features (GET /api/me/features; issue 14) lack it. */
type Tab = { to: string; label: MessageDescriptor; end?: boolean; feature?: string };

function TabNav({ tabs, label }: { tabs: Tab[]; label: string }) {
  const { i18n } = useLingui();
  const permissions = usePermissions();
  const features = useFeatures();
  const visible = tabs.filter((tab) => {
    const needed = permissionFor(tab.to);
    if (tab.feature && features.data && !features.data.has(tab.feature)) return false;
    return !needed || permissions.data?.has(needed) === true;
  });
  return (
    <nav aria-label={label} className="overflow-x-auto border-b">
      <ul className="flex min-w-max gap-1">
        {visible.map((tab) => (
          <li key={tab.to}>
            <NavLink
              to={tab.to}
              end={tab.end ?? true}
              className={({ isActive }) =>
                cn(
                  "-mb-px inline-flex h-10 items-center border-b-2 px-3 text-sm font-medium outline-none transition-colors focus-visible:ring-2 focus-visible:ring-ring",
                  isActive ? "border-primary text-foreground" : "border-transparent text-muted-foreground hover:text-foreground",
                )
              }
            >
              {i18n._(tab.label)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function SectionLayout({ title, tabs, tabsLabel }: { title: string; tabs: Tab[]; tabsLabel: string }) {
  return (
    <AppShell>
      <div className="grid gap-4">
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        <TabNav tabs={tabs} label={tabsLabel} />
        <Outlet />
      </div>
    </AppShell>
  );
}

const BROADCAST_TABS: Tab[] = [
  { to: "/broadcasts", label: msg`Current` },
  { to: "/broadcasts/history", label: msg`History` },
];

const REGISTER_TABS: Tab[] = [
  { to: "/registers", label: msg`Custom fields` },
  { to: "/registers/tags", label: msg`Tags` },
];

const SETTINGS_TABS: Tab[] = [
  { to: "/settings", label: msg`My account` },
  { to: "/settings/company", label: msg`Company` },
  { to: "/settings/subscription", label: msg`Subscription` },
  { to: "/settings/integration", label: msg`Integration`, feature: "integration" },
  { to: "/settings/operating-hours", label: msg`Operating hours` },
  { to: "/settings/roles", label: msg`Roles` },
  { to: "/settings/members", label: msg`Members` },
  { to: "/settings/data-cleanup", label: msg`Data cleanup` },
];

const FRANCHISE_TABS: Tab[] = [
  { to: "/franchise", label: msg`Settings` },
  { to: "/franchise/companies", label: msg`Companies` },
  { to: "/franchise/email", label: msg`Email` },
  { to: "/franchise/integration", label: msg`Integrations` },
  { to: "/franchise/payment", label: msg`Payment` },
  { to: "/franchise/roles", label: msg`Roles` },
];

/** The "broadcasts" layout: tabs current and history. */
export function BroadcastsLayout() {
  const { t } = useLingui();
  return <SectionLayout title={t`Broadcasts`} tabs={BROADCAST_TABS} tabsLabel={t`Broadcast sections`} />;
}

/** The "registers" layout: tabs custom fields and tags. */
export function RegistersLayout() {
  const { t } = useLingui();
  return <SectionLayout title={t`Registers`} tabs={REGISTER_TABS} tabsLabel={t`Register sections`} />;
}

/** The "settings" layout with its tabs. */
export function SettingsLayout() {
  const { t } = useLingui();
  return <SectionLayout title={t`Settings`} tabs={SETTINGS_TABS} tabsLabel={t`Settings sections`} />;
}

/** The "franchises" layout (white-label administration) with its tabs. */
export function FranchisesLayout() {
  const { t } = useLingui();
  return <SectionLayout title={t`Franchise`} tabs={FRANCHISE_TABS} tabsLabel={t`Franchise sections`} />;
}
