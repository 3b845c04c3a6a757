import type { ReactNode } from "react";
import { Outlet } from "react-router";
import { useBrand } from "@/lib/use-brand";
import { ThemeToggle } from "@/features/preferences/components/theme-toggle";
import { LanguageSwitch } from "@/features/preferences/components/language-switch";

function PlainHeader() {
  // The franchise's name on a franchise host (issue 14), else the product's.
  const brand = useBrand();
  return (
    <header className="flex h-14 items-center gap-2 border-b px-4 print:hidden">
      <span className="flex-1 font-semibold">{brand.name ?? "\u00a0"}</span>
      <LanguageSwitch />
      <ThemeToggle />
    </header>
  );
}

/** The "checkout" layout of spec §2 (checkout and invoice pages, no guards). */
export function CheckoutLayout() {
  return (
    <div className="flex min-h-dvh flex-col bg-muted/40">
      <PlainHeader />
      <main className="mx-auto w-full max-w-3xl flex-1 p-4 sm:p-6">
        <Outlet />
      </main>
    </div>
  );
}

/** The "callback" layout of spec §2 (the Instagram OAuth callback). */
export function CallbackLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <PlainHeader />
      <main className="flex flex-1 items-center justify-center p-4">
        <Outlet />
      </main>
    </div>
  );
}

/** A bare centred page for screens without a layout (access denied, not found). */
export function BareLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col bg-muted/40">
      <PlainHeader />
      <main className="flex flex-1 items-center justify-center p-4">{children}</main>
    </div>
  );
}
