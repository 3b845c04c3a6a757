/**
 * App-wide providers: lingui, react-query, the toast outlet, runtime branding (title, favicon,
 * primary colour; spec §1) and the hourly new-build check (spec §7, §9).
 */
import { useEffect, type ReactNode } from "react";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { msg } from "@lingui/core/macro";
import { QueryClientProvider, useQuery } from "@tanstack/react-query";
import { toast } from "sonner";
import { Toaster } from "@/components/ui/toaster";
import { queryClient } from "@/lib/query-client";
import { applyBranding, BOOT_BRANDING, franchiseInfoQuery, runtimeSettingsQuery } from "@/lib/branding";
import { useFranchiseMode } from "@/lib/use-brand";
import { startBuildCheck } from "@/lib/build-check";

/**
 * Reads runtime settings (and franchise info only in franchise mode) and applies them; until the
 * franchise info answers, the branding the worker wrote into the document is kept (no flash).
 */
function Branding() {
  const settings = useQuery(runtimeSettingsQuery());
  const franchiseMode = useFranchiseMode();
  const franchise = useQuery({ ...franchiseInfoQuery(), enabled: franchiseMode });
  useEffect(() => {
    if (settings.data) applyBranding(settings.data, franchiseMode ? (franchise.data ?? BOOT_BRANDING) : null);
  }, [settings.data, franchise.data, franchiseMode]);
  return null;
}

const NEW_BUILD = msg`A new version of the app is available.`;
const RELOAD = msg`Reload`;

/** Offers a reload when a newer build is deployed (checked hourly). */
function BuildChecker() {
  useEffect(() => {
    if (import.meta.env.DEV) return;
    return startBuildCheck(() => {
      toast.info(i18n._(NEW_BUILD), {
        duration: Infinity,
        action: { label: i18n._(RELOAD), onClick: () => window.location.reload() },
      });
    });
  }, []);
  return null;
}

/** Wraps the router with every provider. */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <Branding />
        <BuildChecker />
        {children}
        <Toaster />
      </QueryClientProvider>
    </I18nProvider>
  );
}
