import { Moon, Sun } from "lucide-react";
import { useLingui } from "@lingui/react/macro";
import { Button } from "@/components/ui/button";
import { useTheme } from "@/lib/theme";

/** Light/dark toggle button (spec §2 "theme toggle light/dark"); the choice is remembered. */
export function ThemeToggle() {
  const { t } = useLingui();
  const [theme, toggle] = useTheme();
  const label = theme === "dark" ? t`Switch to light theme` : t`Switch to dark theme`;
  return (
    <Button variant="ghost" size="icon" onClick={toggle} aria-label={label} title={label}>
      {theme === "dark" ? <Sun /> : <Moon />}
    </Button>
  );
}
