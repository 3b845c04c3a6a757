import { Outlet } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { MessageSquareText } from "lucide-react";
import { runtimeSettingsQuery } from "@/lib/branding";
import { ThemeToggle } from "@/features/preferences/components/theme-toggle";
import { LanguageSwitch } from "@/features/preferences/components/language-switch";

/** The "auth" layout of spec §2: a centred card with the product's name, language and theme. */
export function AuthLayout() {
  const settings = useQuery(runtimeSettingsQuery());
  return (
    <div className="flex min-h-dvh flex-col bg-muted/40">
      <header className="flex items-center justify-end gap-1 p-3">
        <LanguageSwitch showName />
        <ThemeToggle />
      </header>
      <main className="flex flex-1 items-start justify-center px-4 pb-12 sm:items-center">
        <div className="grid w-full max-w-md gap-6">
          <div className="flex items-center justify-center gap-2 text-xl font-semibold">
            <span className="flex size-9 items-center justify-center rounded-lg bg-primary text-primary-foreground" aria-hidden>
              <MessageSquareText className="size-5" />
            </span>
            <span>{settings.data?.appName ?? "\u00a0"}</span>
          </div>
          <Outlet />
        </div>
      </main>
    </div>
  );
}
