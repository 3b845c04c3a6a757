import { lazy, Suspense, useState } from "react";
import { Languages } from "lucide-react";
import { useLingui } from "@lingui/react/macro";
import { Button } from "@/components/ui/button";
import { isLocale, LOCALE_NAMES } from "@/lib/i18n";
import { loadClassMerge } from "@/lib/utils";

/**
 * Starts loading the menu (pointing at or focusing the button): it is usually there by the click.
 * tailwind-merge comes with it (the menu's classes need it; the auth pages load it only then).
 */
const loadMenu = () => Promise.all([import("./language-menu"), loadClassMerge()]).then(([menu]) => menu);
const LanguageMenu = lazy(() => loadMenu().then((m) => ({ default: m.LanguageMenu })));

/**
 * What the language button shows, shared by the placeholder below and the loaded menu's trigger:
 * the icon and, with `showName`, the current language's name, read out as "Language: <name>" so the
 * visible text is part of the button's name (WCAG 2.5.3). Without `showName` the button carries
 * aria-label "Language".
 */
export function LanguageButtonFace({ showName }: { showName: boolean }) {
  const { t, i18n } = useLingui();
  const current = isLocale(i18n.locale) ? i18n.locale : "pt-BR";
  return (
    <>
      <Languages />
      {showName ? (
        <>
          <span className="sr-only">{t`Language`}:</span> <span>{LOCALE_NAMES[current]}</span>
        </>
      ) : null}
    </>
  );
}

/**
 * Language menu (spec §1 languages); the choice is kept in a cookie for 365 days (spec §9). Until
 * the user presses it, this is a plain button: the dropdown and its library (./language-menu.tsx,
 * Radix menu with floating-ui, ~20 KiB gzip) start loading when the button is pointed at or focused
 * and replace it on the press, opened, so the login page does not download them up front (issue 9
 * "Load only what a screen needs").
 */
export function LanguageSwitch({ showName = false }: { showName?: boolean }) {
  const { t } = useLingui();
  const [wanted, setWanted] = useState<{ open: boolean; focus: boolean } | null>(null);
  const placeholder = (
    <Button
      variant="ghost"
      size={showName ? "sm" : "icon"}
      aria-label={showName ? undefined : t`Language`}
      title={t`Language`}
      aria-haspopup="menu"
      onPointerEnter={() => void loadMenu()}
      onFocus={() => void loadMenu()}
      onPointerDown={() => setWanted({ open: true, focus: false })}
      onClick={() => setWanted((w) => w ?? { open: true, focus: true })}
    >
      <LanguageButtonFace showName={showName} />
    </Button>
  );
  if (!wanted) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <LanguageMenu showName={showName} open={wanted.open} focus={wanted.focus} />
    </Suspense>
  );
}
