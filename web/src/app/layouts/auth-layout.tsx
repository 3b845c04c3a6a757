import { Outlet } from "react-router";
import { BrandMark } from "./brand-mark";
import { ThemeToggle } from "@/features/preferences/components/theme-toggle";
import { LanguageSwitch } from "@/features/preferences/components/language-switch";

/** The "auth" layout of spec §2: a centred card with the product's name, language and theme. */
export function AuthLayout() {
  return (
    <div className="flex min-h-dvh flex-col bg-muted/40">
      <header className="flex items-center justify-end gap-1 p-3">
        <LanguageSwitch showName />
        <ThemeToggle />
      </header>
      <main className="flex flex-1 items-start justify-center px-4 pb-12 sm:items-center">
        <div className="grid w-full max-w-md gap-6">
          <BrandMark size="lg" className="justify-center text-xl" />
          <Outlet />
        </div>
      </main>
    </div>
  );
}
