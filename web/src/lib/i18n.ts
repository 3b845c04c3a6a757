/**
 * Locale handling (spec §1 languages, §9 "language preference cookie kept 365 days"; default pt-BR).
 * Catalogs are the .po files under locales/, compiled on import by @lingui/vite-plugin and loaded
 * on demand, one chunk per locale.
 */
import { i18n, type Messages } from "@lingui/core";
import { DEFAULT_LOCALE, LOCALES, type Locale } from "../../../schema/validation/common";

export { LOCALES, DEFAULT_LOCALE, type Locale };

/** Name of the cookie holding the chosen locale. */
export const LOCALE_COOKIE = "locale";
/** Cookie lifetime: 365 days, in seconds (spec §9). */
export const LOCALE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

/**
 * Each language's own name (an endonym): shown as-is in every interface language so a reader can
 * find their language, hence not translated.
 */
export const LOCALE_NAMES: Record<Locale, string> = {
  "pt-BR": "Português (Brasil)",
  "pt-PT": "Português (Portugal)",
  "en-US": "English (US)",
  "es-ES": "Español (España)",
};

/** Narrowing check for untrusted strings. */
export function isLocale(value: string | null | undefined): value is Locale {
  return LOCALES.some((locale) => locale === value);
}

/** The locale stored in a `document.cookie` string, or null. */
export function readLocaleCookie(cookie: string): Locale | null {
  for (const part of cookie.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === LOCALE_COOKIE) {
      const value = decodeURIComponent(rest.join("="));
      return isLocale(value) ? value : null;
    }
  }
  return null;
}

/** The cookie string that remembers `locale` for 365 days. */
export function localeCookie(locale: Locale): string {
  return `${LOCALE_COOKIE}=${encodeURIComponent(locale)}; Max-Age=${LOCALE_COOKIE_MAX_AGE}; Path=/; SameSite=Lax`;
}

/** The locale to start with: the cookie's, else pt-BR. */
export function initialLocale(): Locale {
  if (typeof document === "undefined") return DEFAULT_LOCALE;
  return readLocaleCookie(document.cookie) ?? DEFAULT_LOCALE;
}

const catalogs: Record<Locale, () => Promise<{ messages: Messages }>> = {
  "pt-BR": () => import("../../../locales/pt-BR/messages.po"),
  "pt-PT": () => import("../../../locales/pt-PT/messages.po"),
  "en-US": () => import("../../../locales/en-US/messages.po"),
  "es-ES": () => import("../../../locales/es-ES/messages.po"),
};

/** Loads `locale`'s catalog and makes it the active one; updates `<html lang>`. */
export async function activateLocale(locale: Locale): Promise<void> {
  const { messages } = await catalogs[locale]();
  i18n.loadAndActivate({ locale, messages });
  if (typeof document !== "undefined") document.documentElement.lang = locale;
}

/** Switches the interface language and remembers it in the cookie (spec §9). */
export async function changeLocale(locale: Locale): Promise<void> {
  document.cookie = localeCookie(locale);
  await activateLocale(locale);
}
