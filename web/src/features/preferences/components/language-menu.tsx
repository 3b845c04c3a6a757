/** The language dropdown, loaded on demand by ./language-switch.tsx (issue 9 "Load only what a screen needs"). */
import { useEffect, useRef, useState } from "react";
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
import { LanguageButtonFace } from "./language-switch";

/**
 * The language menu itself (spec §1 languages; the choice is kept in a cookie for 365 days, spec §9),
 * loaded by LanguageSwitch on first use so pages do not load the menu library up front. `open`
 * turning true opens it (the user clicked the placeholder, possibly while this loaded); `focus`
 * moves focus to its trigger (the user was on the placeholder button).
 */
export function LanguageMenu({ showName = false, open = false, focus = false }: { showName?: boolean; open?: boolean; focus?: boolean }) {
  const { t, i18n } = useLingui();
  const current = isLocale(i18n.locale) ? i18n.locale : "pt-BR";
  const trigger = useRef<HTMLButtonElement>(null);
  const [isOpen, setOpen] = useState(open);
  useEffect(() => {
    if (open) setOpen(true);
  }, [open]);
  useEffect(() => {
    if (focus) trigger.current?.focus();
  }, [focus]);
  return (
    <DropdownMenu open={isOpen} onOpenChange={setOpen}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size={showName ? "sm" : "icon"} aria-label={showName ? undefined : t`Language`} title={t`Language`}>
          <LanguageButtonFace showName={showName} />
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
