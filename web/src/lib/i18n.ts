/**
 * Locale handling (spec §1 languages, §9 "language preference cookie kept 365 days"; default pt-BR).
 * Catalogs are the .po files under locales/{locale}/ (lingui.config.ts), compiled on import by
 * @lingui/vite-plugin and loaded on demand, one chunk per locale and area: `core` (the app's frame
 * and shared code) always, a feature's catalog (`chats`, `flows`, …) when a route that uses the
 * feature loads (web/src/app/router.tsx), so /login downloads the auth pages' translations, not the
 * whole app's (issue 9 "Load only what a screen needs"). Switching language loads, for the new
 * locale, every catalog loaded so far.
 */
import { i18n, type Messages } from "@lingui/core";
import type { Locale } from "../../../schema/validation/common";

export type { Locale };

/**
 * The product's locales (spec §1), as in schema/validation/common.ts; repeated here because that
 * module builds zod schemas, which /login must not download (issue 9). i18n-catalogs.test.ts
 * checks that both lists and lingui.config.ts agree.
 */
export const LOCALES = ["pt-BR", "pt-PT", "en-US", "es-ES"] as const satisfies readonly Locale[];
/** The default locale (spec §1). */
export const DEFAULT_LOCALE: Locale = "pt-BR";

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

/** A catalog's name: `core` or a folder of web/src/features (lingui.config.ts). */
export type CatalogName = string;

/** The catalog every page needs (the app's frame, shared components and messages). */
export const CORE_CATALOG: CatalogName = "core";

/**
 * Catalogs loaded before the first screen: core, and the language and theme controls every layout
 * shows (web/src/app/router-catalogs.test.ts checks that the entry's code needs no other).
 */
export const ENTRY_CATALOGS: readonly CatalogName[] = [CORE_CATALOG, "preferences"];

type CatalogLoader = () => Promise<{ messages: Messages }>;

/**
 * The catalogs a visitor's first page needs (the entry's and the auth pages'), imported directly so
 * /login does not first fetch the map of every catalog of its language.
 */
const FIRST_CATALOGS: Record<Locale, Record<CatalogName, CatalogLoader>> = {
  "pt-BR": {
    core: () => import("../../../locales/pt-BR/core.po"),
    preferences: () => import("../../../locales/pt-BR/preferences.po"),
    auth: () => import("../../../locales/pt-BR/auth.po"),
  },
  "pt-PT": {
    core: () => import("../../../locales/pt-PT/core.po"),
    preferences: () => import("../../../locales/pt-PT/preferences.po"),
    auth: () => import("../../../locales/pt-PT/auth.po"),
  },
  "en-US": {
    core: () => import("../../../locales/en-US/core.po"),
    preferences: () => import("../../../locales/en-US/preferences.po"),
    auth: () => import("../../../locales/en-US/auth.po"),
  },
  "es-ES": {
    core: () => import("../../../locales/es-ES/core.po"),
    preferences: () => import("../../../locales/es-ES/preferences.po"),
    auth: () => import("../../../locales/es-ES/auth.po"),
  },
};

/** Per locale, the map of its compiled catalogs (path `../../../../locales/{locale}/{name}.po` → loader). */
const CATALOG_MAPS: Record<Locale, () => Promise<{ CATALOGS: Record<string, CatalogLoader> }>> = {
  "pt-BR": () => import("./catalogs/pt-BR"),
  "pt-PT": () => import("./catalogs/pt-PT"),
  "en-US": () => import("./catalogs/en-US"),
  "es-ES": () => import("./catalogs/es-ES"),
};

/** Catalogs asked for so far (the entry's always); a language switch loads them all for the new locale. */
const wanted = new Set<CatalogName>(ENTRY_CATALOGS);
/** Catalogs already in `i18n`, per locale. */
const loaded = new Map<Locale, Set<CatalogName>>();

/**
 * Loads `names` for `locale` into `i18n` (merged with what is there); unknown names (a feature
 * without messages has no catalog) are skipped. Resolves when all are in.
 */
async function loadInto(locale: Locale, names: Iterable<CatalogName>): Promise<void> {
  const done = loaded.get(locale) ?? new Set<CatalogName>();
  loaded.set(locale, done);
  const missing = [...names].filter((name) => !done.has(name));
  if (missing.length === 0) return;
  const first = FIRST_CATALOGS[locale];
  const others = missing.some((name) => !first[name]) ? (await CATALOG_MAPS[locale]()).CATALOGS : {};
  const catalogs = await Promise.all(
    missing.map(async (name) => {
      const file = first[name] ?? others[`../../../../locales/${locale}/${name}.po`];
      return { name, messages: file ? (await file()).messages : {} };
    }),
  );
  for (const { name, messages } of catalogs) {
    if (done.has(name)) continue;
    done.add(name);
    i18n.load(locale, messages);
  }
}

/**
 * Makes the catalogs `names` available in the active language (and in any language switched to
 * later). Routes call it with the features their screen uses before the screen renders.
 */
export async function loadCatalogs(names: readonly CatalogName[]): Promise<void> {
  for (const name of names) wanted.add(name);
  const locale = isLocale(i18n.locale) ? i18n.locale : initialLocale();
  await loadInto(locale, names);
}

/**
 * Loads `locale`'s core catalog and every catalog asked for so far, makes `locale` the active one
 * and updates `<html lang>`.
 */
export async function activateLocale(locale: Locale): Promise<void> {
  // A route may ask for a catalog while this one loads: load until none is missing.
  while ([...wanted].some((name) => !loaded.get(locale)?.has(name))) await loadInto(locale, wanted);
  i18n.activate(locale);
  if (typeof document !== "undefined") document.documentElement.lang = locale;
}

/** Switches the interface language and remembers it in the cookie (spec §9). */
export async function changeLocale(locale: Locale): Promise<void> {
  document.cookie = localeCookie(locale);
  await activateLocale(locale);
}
