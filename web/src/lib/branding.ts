/**
 * Runtime branding (spec §1): the page title is the product name from GET /api/runtime-settings,
 * or the franchise name from GET /api/infos when franchise mode is on (no franchise call when it is
 * off); the favicon follows the franchise; the primary colour becomes the `--primary` CSS variable.
 */
import { queryOptions } from "@tanstack/react-query";
import { franchiseInfo, runtimeSettings, type FranchiseInfo } from "./answers-core";
import type { RuntimeSettings } from "../../../schema/api-types";
import { api } from "./session";

/** Query keys of runtime branding. */
export const brandingKeys = {
  all: ["branding"] as const,
  runtime: () => [...brandingKeys.all, "runtime-settings"] as const,
  franchise: () => [...brandingKeys.all, "franchise-info"] as const,
};

/** GET /api/runtime-settings, kept for the whole visit. */
export const runtimeSettingsQuery = () =>
  queryOptions({
    queryKey: brandingKeys.runtime(),
    queryFn: ({ signal }) => api.call("GET", "/runtime-settings", runtimeSettings, { signal }),
    staleTime: Infinity,
  });

/** GET /api/infos; only enabled by callers when franchise mode is on. */
export const franchiseInfoQuery = () =>
  queryOptions({
    queryKey: brandingKeys.franchise(),
    queryFn: ({ signal }) => api.call("GET", "/infos", franchiseInfo, { signal }),
    staleTime: Infinity,
  });

/** Relative luminance of a #rgb / #rrggbb colour, or null when it is not one. */
export function luminance(hex: string): number | null {
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!match?.[1]) return null;
  const digits = match[1].length === 3 ? [...match[1]].map((d) => d + d).join("") : match[1];
  const channel = (offset: number) => {
    const value = parseInt(digits.slice(offset, offset + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
}

/** Dark text used on light brand colours (the foreground token of the light theme). */
const DARK_TEXT = "#111827";

/** WCAG 2 contrast ratio of two relative luminances (1 to 21). */
function contrastRatio(a: number, b: number): number {
  const [light, dark] = a > b ? [a, b] : [b, a];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * The text colour for a background of luminance `lum`: white or dark, whichever contrasts more
 * (WCAG 2.1 §1.4.3 asks 4.5:1 for text), so a franchise's brand colour never yields unreadable
 * buttons.
 */
export function foregroundFor(lum: number): string {
  const dark = luminance(DARK_TEXT) ?? 0;
  return contrastRatio(lum, 1) >= contrastRatio(lum, dark) ? "#ffffff" : DARK_TEXT;
}

/** Applies title, favicon and primary colour to the document. */
export function applyBranding(settings: RuntimeSettings, franchise: FranchiseInfo | null): void {
  document.title = franchise?.name || settings.appName;
  const lum = luminance(settings.primaryColor);
  if (lum !== null) {
    const root = document.documentElement.style;
    root.setProperty("--primary", settings.primaryColor);
    root.setProperty("--primary-foreground", foregroundFor(lum));
  }
  if (franchise?.favicon) {
    const link = document.querySelector<HTMLLinkElement>("link#app-favicon");
    if (link) {
      link.href = franchise.favicon;
      link.removeAttribute("type");
    }
  }
}
