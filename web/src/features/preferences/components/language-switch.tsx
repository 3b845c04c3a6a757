import { Languages } from "lucide-react";
import { useLingui } from "@lingui/react/macro";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { changeLocale, isLocale, LOCALE_NAMES, LOCALES } from "@/lib/i18n";

/** Language menu (spec §1 languages); the choice is kept in a cookie for 365 days (spec §9). */
export function LanguageSwitch({ showName = false }: { showName?: boolean }) {
  const { t, i18n } = useLingui();
  const current = isLocale(i18n.locale) ? i18n.locale : "pt-BR";
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size={showName ? "sm" : "icon"} aria-label={t`Language`} title={t`Language`}>
          <Languages />
          {showName ? <span>{LOCALE_NAMES[current]}</span> : null}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuLabel>{t`Language`}</DropdownMenuLabel>
        <DropdownMenuRadioGroup
          value={current}
          onValueChange={(value) => {
            if (isLocale(value)) void changeLocale(value);
          }}
        >
          {LOCALES.map((locale) => (
            <DropdownMenuRadioItem key={locale} value={locale} lang={locale}>
              {LOCALE_NAMES[locale]}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
