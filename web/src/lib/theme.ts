/**
 * Light/dark theme (spec §2 "theme toggle light/dark"): remembered in localStorage `theme`, applied
 * as the `dark` class on <html> (index.html applies it before first paint).
 */
import { useSyncExternalStore } from "react";

/** The two themes. */
export type Theme = "light" | "dark";
/** localStorage key of the theme. */
export const THEME_KEY = "theme";

const listeners = new Set<() => void>();

function systemTheme(): Theme {
  return typeof window !== "undefined" && window.matchMedia?.("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

/** The theme in force: the remembered one, else the system's. */
export function currentTheme(): Theme {
  try {
    const stored = localStorage.getItem(THEME_KEY);
    if (stored === "light" || stored === "dark") return stored;
  } catch {
    // storage unavailable: follow the system
  }
  return systemTheme();
}

/** Applies and remembers `theme`. */
export function setTheme(theme: Theme): void {
  document.documentElement.classList.toggle("dark", theme === "dark");
  try {
    localStorage.setItem(THEME_KEY, theme);
  } catch {
    // not remembered; still applied
  }
  for (const listener of listeners) listener();
}

/** `[theme, toggle]` for React components. */
export function useTheme(): [Theme, () => void] {
  const theme = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    currentTheme,
    (): Theme => "light",
  );
  return [theme, () => setTheme(theme === "dark" ? "light" : "dark")];
}
