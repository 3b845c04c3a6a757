/**
 * The default layout shell (spec §2 "default" layout): sidebar navigation filtered by permission,
 * company switcher, online toggle, flow notifications, invites, language, theme, user menu with logout, and the
 * company's notices (activation, pending payment, subscription expiry, connection lost). Used by every layout that
 * lives inside the app (default, broadcasts, registers, settings, franchises).
 */
import { useState, type ReactNode } from "react";
import { NavLink, useRevalidator } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { Menu } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "@/components/ui/sheet";
import { Skeleton } from "@/components/ui/skeleton";
import { cn } from "@/lib/utils";
import { runtimeSettingsQuery } from "@/lib/branding";
import { useMe, usePermissions } from "@/features/session/hooks/use-session";
import { VerifyEmailNotice } from "@/features/session/components/verify-email-notice";
import { StatusToggle } from "@/features/session/components/status-toggle";
import { UserMenu } from "@/features/session/components/user-menu";
import { CompanySwitcher } from "@/features/companies/components/company-switcher";
import { ActivationNotice } from "@/features/companies/components/activation-form";
import { BillingNotices } from "@/features/billing/components/billing-notices";
import { ConnectionLostNotice } from "@/features/connections/components/connection-lost-notice";
import { useActiveCompany } from "@/features/companies/hooks/use-companies";
import { InvitesMenu } from "@/features/invites/components/invites-menu";
import { NotificationsMenu } from "@/features/notifications/components/notifications-menu";
import { ThemeToggle } from "@/features/preferences/components/theme-toggle";
import { LanguageSwitch } from "@/features/preferences/components/language-switch";
import { ADMIN_NAV_ITEM, FRANCHISE_NAV_ITEM, NAV_ITEMS, visibleNavItems } from "../navigation";
import { BrandMark } from "./brand-mark";

function Brand() {
  return <BrandMark className="px-2" />;
}

function SidebarNav({ onNavigate }: { onNavigate?: () => void }) {
  const { t, i18n } = useLingui();
  const permissions = usePermissions();
  const settings = useQuery(runtimeSettingsQuery());
  const me = useMe();
  if (permissions.isPending) {
    return (
      <div className="grid gap-2 px-2" aria-busy>
        {Array.from({ length: 8 }, (_, index) => (
          <Skeleton key={index} className="h-8" />
        ))}
      </div>
    );
  }
  const items = visibleNavItems(NAV_ITEMS, permissions.data ?? new Set());
  if (settings.data?.franchiseMode && me.data?.franchiseAdmin) items.push(FRANCHISE_NAV_ITEM);
  if (me.data?.platformAdmin) items.push(ADMIN_NAV_ITEM);
  return (
    <nav aria-label={t`Main navigation`} className="grid gap-0.5">
      {items.map((entry) => (
        <NavLink
          key={entry.to}
          to={entry.to}
          end={entry.end}
          onClick={onNavigate}
          className={({ isActive }) =>
            cn(
              "flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium text-muted-foreground outline-none transition-colors hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring",
              isActive && "bg-accent text-foreground",
            )
          }
        >
          <entry.icon className="size-4 shrink-0" aria-hidden />
          {i18n._(entry.label)}
        </NavLink>
      ))}
    </nav>
  );
}

function Sidebar({ onSwitched, onNavigate }: { onSwitched: () => void; onNavigate?: () => void }) {
  return (
    <div className="flex h-full flex-col gap-4 p-3">
      <Brand />
      <CompanySwitcher onSwitched={onSwitched} />
      <div className="min-h-0 flex-1 overflow-y-auto">
        <SidebarNav onNavigate={onNavigate} />
      </div>
    </div>
  );
}

/**
 * Notices shown above every page of the shell: "verify your e-mail" while the user's address is
 * unverified (its code also activates the companies they own, so the activation notice is left out
 * for the owner then), then the company's notices.
 */
function CompanyNotices() {
  const company = useActiveCompany();
  const permissions = usePermissions();
  const me = useMe();
  const verify = me.data && !me.data.emailVerified ? <VerifyEmailNotice email={me.data.email} /> : null;
  if (!company.data) return verify;
  const ownerVerifying = verify !== null && company.data.owner === me.data?.id;
  return (
    <div className="grid gap-2 empty:hidden">
      {verify}
      {!company.data.activated && !ownerVerifying ? <ActivationNotice canActivate={permissions.data?.has("settings_company") === true} /> : null}
      <BillingNotices company={company.data} />
      <ConnectionLostNotice company={company.data} canOpenConnections={permissions.data?.has("connections") === true} />
    </div>
  );
}

/** The shell around a page: sidebar (a slide-over on small screens), header, notices, content. */
export function AppShell({ children }: { children: ReactNode }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const revalidator = useRevalidator();
  const rerunGuards = () => void revalidator.revalidate();
  return (
    <div className="flex min-h-dvh bg-background">
      <a href="#main" className="sr-only z-50 rounded-md bg-background px-3 py-2 focus:not-sr-only focus:fixed focus:top-2 focus:left-2">
        {t`Skip to content`}
      </a>
      <aside className="sticky top-0 hidden h-dvh w-64 shrink-0 border-r bg-card lg:block">
        <Sidebar onSwitched={rerunGuards} />
      </aside>
      <Sheet open={open} onOpenChange={setOpen}>
        <SheetContent side="left">
          <SheetTitle className="sr-only">{t`Navigation`}</SheetTitle>
          <SheetDescription className="sr-only">{t`Main navigation and company switcher`}</SheetDescription>
          <Sidebar onSwitched={rerunGuards} onNavigate={() => setOpen(false)} />
        </SheetContent>
      </Sheet>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b bg-background/95 px-3 backdrop-blur sm:px-4">
          <Button variant="ghost" size="icon" className="lg:hidden" onClick={() => setOpen(true)} aria-label={t`Open navigation`}>
            <Menu />
          </Button>
          <div className="flex-1" />
          <StatusToggle />
          <NotificationsMenu />
          <InvitesMenu onResponded={rerunGuards} />
          <LanguageSwitch />
          <ThemeToggle />
          <UserMenu />
        </header>
        <main id="main" className="mx-auto flex w-full max-w-7xl flex-1 flex-col gap-4 p-4 sm:p-6">
          <CompanyNotices />
          {children}
        </main>
      </div>
    </div>
  );
}
