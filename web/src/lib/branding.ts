/**
 * Runtime branding (spec §1): the page title is the product name from GET /api/runtime-settings,
 * or the franchise name from GET /api/infos when franchise mode is on (no franchise call when it is
 * off); the favicon follows the franchise; the primary colour (the franchise's, else the runtime
 * settings') becomes the `--primary` CSS variable, and its readable text colour on each theme's
 * surfaces the `--primary-on-light` / `--primary-on-dark` ones ({@link primaryTextVariables}).
 *
 * On a franchise hostname the worker has already written the franchise's title, favicon, theme
 * colour and `og:site_name` into the HTML (issue 14 "Branding at the first byte"). The app reads
 * those values from the document once, before any call ({@link BOOT_BRANDING}), and uses them until
 * /api/infos answers, so the page never flashes back to the product's brand while it boots.
 */
import { queryOptions } from "@tanstack/react-query";
import type { FranchiseInfo } from "./answers-boot";
import type { RuntimeSettings } from "../../../schema/api-types";
import { franchiseInfoSource, runtimeSettingsSource } from "./branding-store";
import { luminance, primaryTextVariables } from "../../../schema/brand-colors";

export { contrastOf, luminance, primaryTextVariables, readableOn, TEXT_SURFACES } from "../../../schema/brand-colors";

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
    // Shares the boot request of branding-store.ts (one call per visit).
    queryFn: ({ signal }) => runtimeSettingsSource.query(signal),
    staleTime: Infinity,
  });

/** GET /api/infos; only enabled by callers when franchise mode is on. */
export const franchiseInfoQuery = () =>
  queryOptions({
    queryKey: brandingKeys.franchise(),
    // Shares the boot request of branding-store.ts; a refetch updates the brand hooks too.
    queryFn: ({ signal }) => franchiseInfoSource.query(signal),
    staleTime: Infinity,
  });

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

/**
 * The CSS variables of a primary colour: `--primary` (the colour, lower-case `#rrggbb`) and
 * `--primary-foreground` (white or dark text, whichever contrasts more; {@link foregroundFor}).
 * Null when `hex` is not a `#rgb` / `#rrggbb` colour. The live preview of the franchise settings
 * and the document's branding use the same rule.
 */
export function primaryColorVariables(hex: string | null | undefined): { "--primary": string; "--primary-foreground": string } | null {
  if (!hex) return null;
  const lum = luminance(hex);
  if (lum === null) return null;
  const digits = hex.trim().replace(/^#/, "").toLowerCase();
  const full = digits.length === 3 ? [...digits].map((d) => d + d).join("") : digits;
  return { "--primary": `#${full}`, "--primary-foreground": foregroundFor(lum) };
}

/** What {@link readDocumentBranding} needs of a document (a test passes a stand-in). */
export type BrandingDocument = { querySelector(selector: string): { getAttribute(name: string): string | null } | null };

/**
 * The franchise branding the worker wrote into the HTML of a franchise hostname, or null on the
 * product's own HTML (which carries neither `og:site_name` nor `theme-color`): name from
 * `meta[property="og:site_name"]`, primary colour from `meta[name="theme-color"]`, favicon from
 * `link#app-favicon` (unless it is the product's `/favicon.svg`), logo from `meta[property="og:image"]`.
 */
export function readDocumentBranding(doc: BrandingDocument): FranchiseInfo | null {
  const attr = (selector: string, name: string) => doc.querySelector(selector)?.getAttribute(name)?.trim() || null;
  const name = attr('meta[property="og:site_name"]', "content");
  const color = attr('meta[name="theme-color"]', "content");
  const primaryColor = color && luminance(color) !== null ? color : null;
  if (!name && !primaryColor) return null;
  const icon = attr("link#app-favicon", "href");
  return { name, primaryColor, favicon: icon && icon !== "/favicon.svg" ? icon : null, logo: attr('meta[property="og:image"]', "content") };
}

/** The branding present in the document when the app started (read once, before React touches it). */
export const BOOT_BRANDING: FranchiseInfo | null = typeof document === "undefined" ? null : readDocumentBranding(document);

/** What the shell and the auth pages show: the brand's name (null while unknown) and logo. */
export type Brand = { name: string | null; logo: string | null };

/**
 * The brand shown for `settings` (undefined while loading) and the franchise info (undefined while
 * loading, or franchise mode off): the franchise's name and logo in franchise mode, the document's
 * boot values until they arrive, else the product's name. Never the product's name on a franchise
 * host whose document already carries the franchise's brand.
 */
export function brandFor(settings: RuntimeSettings | undefined, franchise: FranchiseInfo | undefined, boot: FranchiseInfo | null = BOOT_BRANDING): Brand {
  const franchiseMode = settings ? settings.franchiseMode : boot !== null;
  if (franchiseMode) {
    const info = franchise ?? boot;
    if (info?.name) return { name: info.name, logo: info.logo };
    if (!franchise && boot) return { name: null, logo: null };
  }
  return { name: settings?.appName ?? null, logo: null };
}

/** Applies title, favicon and primary colour (the franchise's, else the runtime settings'; with its text colours) to the document. */
export function applyBranding(settings: RuntimeSettings, franchise: FranchiseInfo | null): void {
  document.title = franchise?.name || settings.appName;
  const color = [franchise?.primaryColor, settings.primaryColor].find((value) => primaryColorVariables(value) !== null);
  const variables = color ? { ...primaryColorVariables(color), ...primaryTextVariables(color) } : null;
  if (variables) {
    const root = document.documentElement.style;
    for (const [name, value] of Object.entries(variables)) root.setProperty(name, value);
  }
  if (franchise?.favicon) {
    const link = document.querySelector<HTMLLinkElement>("link#app-favicon");
    if (link) {
      link.href = franchise.favicon;
      link.removeAttribute("type");
    }
  }
}
