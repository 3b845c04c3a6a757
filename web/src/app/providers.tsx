/**
 * App-wide providers: lingui, runtime branding (title, favicon, primary colour; spec §1), the toast
 * outlet and the hourly new-build check (spec §7, §9). react-query's provider is not here: the app's
 * pages get it from the root frame (root-frame.tsx), the auth pages do without it, and the toast
 * outlet (sonner) mounts once a page needs it, so /login loads neither (issue 9).
 */
import { lazy, Suspense, useEffect, useSyncExternalStore, type ReactNode } from "react";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { msg } from "@lingui/core/macro";
import { applyBranding, BOOT_BRANDING } from "@/lib/branding";
import { useBrandingState } from "@/lib/branding-store";
import { startBuildCheck } from "@/lib/build-check";
import { subscribeToaster, toasterWanted, wantToaster } from "@/lib/toaster-state";

/**
 * Applies the runtime settings (and franchise info only in franchise mode); until the franchise
 * info answers, the branding the worker wrote into the document is kept (no flash).
 */
function Branding() {
  const { settings, franchise, franchiseMode } = useBrandingState(BOOT_BRANDING !== null);
  useEffect(() => {
    if (settings) applyBranding(settings, franchiseMode ? (franchise ?? BOOT_BRANDING) : null);
  }, [settings, franchise, franchiseMode]);
  return null;
}

const NEW_BUILD = msg`A new version of the app is available.`;
const RELOAD = msg`Reload`;

/** Offers a reload when a newer build is deployed (checked hourly). */
function BuildChecker() {
  useEffect(() => {
    if (import.meta.env.DEV) return;
    return startBuildCheck(() => {
      wantToaster();
      void import("sonner").then(({ toast }) =>
        toast.info(i18n._(NEW_BUILD), {
          duration: Infinity,
          action: { label: i18n._(RELOAD), onClick: () => window.location.reload() },
        }),
      );
    });
  }, []);
  return null;
}

const LazyToaster = lazy(() => import("@/components/ui/toaster").then((module) => ({ default: module.Toaster })));

/** The toast outlet, loaded once asked for (toaster-state.ts). */
function ToastOutlet() {
  const wanted = useSyncExternalStore(subscribeToaster, toasterWanted, toasterWanted);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <LazyToaster />
    </Suspense>
  );
}

/** Wraps the router with every provider. */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <I18nProvider i18n={i18n}>
      <Branding />
      <BuildChecker />
      {children}
      <ToastOutlet />
    </I18nProvider>
  );
}
