/**
 * One rule for every time the app shows (issue 9 "The same rule everywhere"):
 * - moments (a message, a ticket, a contact's creation, a run, a key's last use) are shown in the
 *   viewer's time zone: the browser's, since users keep no time-zone preference;
 * - reports, operating hours and values typed as a company's wall-clock time (a custom field's
 *   datetime) are shown in the company's time zone (companies.timezone), and say so by naming the
 *   zone whenever it is not the viewer's;
 * - a time zone is shown by its name and offset in the user's language ("Horário de Brasília
 *   (GMT-03:00)"), never as its IANA id.
 * Every screen formats through these functions (Intl.DateTimeFormat in the active lingui locale);
 * none builds a date string by hand.
 */
import { i18n } from "@lingui/core";

/** Where a formatter reads the locale and the zone: the active lingui locale and the viewer's zone by default. */
export type DateOptions = { locale?: string; timeZone?: string };

/** The viewer's IANA time zone (the browser's); "UTC" when the browser does not say. */
export function viewerTimeZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** `timeZone` when Intl knows it, else undefined (the viewer's zone), so a bad id never throws. */
export function knownZone(timeZone: string | undefined): string | undefined {
  if (!timeZone) return undefined;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return timeZone;
  } catch {
    return undefined;
  }
}

const cache = new Map<string, Intl.DateTimeFormat>();

/** A cached Intl.DateTimeFormat for the locale (default: lingui's active one), zone and options. */
function formatter(options: DateOptions, shape: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const locale = options.locale || i18n.locale || "pt-BR";
  const timeZone = knownZone(options.timeZone);
  const key = JSON.stringify([locale, timeZone ?? "", shape]);
  let found = cache.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(locale, { ...shape, ...(timeZone ? { timeZone } : {}) });
    cache.set(key, found);
  }
  return found;
}

/** Hours and minutes of `ms` (ms UTC), e.g. "19:35" / "7:35 PM". */
export function formatTime(ms: number, options: DateOptions = {}): string {
  return formatter(options, { hour: "2-digit", minute: "2-digit" }).format(ms);
}

/** Date and time, medium date and short time, e.g. "23 de nov. de 2026, 19:35". */
export function formatDateTime(ms: number, options: DateOptions = {}): string {
  return formatter(options, { dateStyle: "medium", timeStyle: "short" }).format(ms);
}

/** Short date and time with seconds, e.g. "23/11/2026, 19:35:07" (event logs, where seconds matter). */
export function formatPreciseDateTime(ms: number, options: DateOptions = {}): string {
  return formatter(options, { dateStyle: "short", timeStyle: "medium" }).format(ms);
}

/** A date in `style` (default "long"), e.g. "23 de novembro de 2026". */
export function formatDate(ms: number, options: DateOptions & { style?: "short" | "medium" | "long" | "full" } = {}): string {
  return formatter(options, { dateStyle: options.style ?? "long" }).format(ms);
}

/** A compact numeric date, e.g. "23/11/26" (lists with little room). */
export function formatShortDate(ms: number, options: DateOptions = {}): string {
  return formatter(options, { day: "2-digit", month: "2-digit", year: "2-digit" }).format(ms);
}

/** The weekday, "long" ("segunda-feira") or "short" ("seg."). */
export function formatWeekday(ms: number, options: DateOptions & { width?: "long" | "short" } = {}): string {
  return formatter(options, { weekday: options.width ?? "long" }).format(ms);
}

/** The calendar day of `ms` in the zone as `YYYY-MM-DD` (for grouping by day). */
export function dayKey(ms: number, timeZone?: string): string {
  return formatter({ locale: "en-CA", timeZone }, { year: "numeric", month: "2-digit", day: "2-digit" }).format(ms);
}

/** The zone's offset at `at`, e.g. "GMT-03:00" ("GMT" for UTC); "" when Intl cannot say. */
export function timeZoneOffset(timeZone: string, at: number | Date = Date.now(), locale?: string): string {
  if (!knownZone(timeZone)) return "";
  const parts = formatter({ locale, timeZone }, { timeZoneName: "longOffset" }).formatToParts(at);
  return parts.find((part) => part.type === "timeZoneName")?.value ?? "";
}

/** The zone's generic name in the locale, e.g. "Horário de Brasília", "Central European Time"; "" when unknown. */
export function timeZoneName(timeZone: string, at: number | Date = Date.now(), locale?: string): string {
  if (!knownZone(timeZone)) return "";
  const parts = formatter({ locale, timeZone }, { timeZoneName: "longGeneric" }).formatToParts(at);
  return parts.find((part) => part.type === "timeZoneName")?.value ?? "";
}

/**
 * A time zone as people read it: its name and offset in the user's language, e.g. "Horário de
 * Brasília (GMT-03:00)". When the locale has no name for the zone (Intl then answers the offset
 * itself) only the offset is shown. Never the IANA id, except for an id Intl does not know.
 */
export function formatTimeZone(timeZone: string, options: { locale?: string; at?: number | Date } = {}): string {
  const at = options.at ?? Date.now();
  const offset = timeZoneOffset(timeZone, at, options.locale);
  if (!offset) return timeZone;
  const name = timeZoneName(timeZone, at, options.locale);
  return !name || name === offset || /^GMT[+-−]?\d*/.test(name) ? offset : `${name} (${offset})`;
}

/**
 * A moment in the company's time zone (reports, operating hours, typed wall-clock values): date and
 * time, followed by the zone's offset when the zone is not the viewer's, so it is never mistaken
 * for a time in the viewer's zone, e.g. "23 de nov. de 2026, 16:35 (GMT-03:00)".
 */
export function formatCompanyDateTime(ms: number, companyZone: string, options: { locale?: string } = {}): string {
  const text = formatDateTime(ms, { locale: options.locale, timeZone: companyZone });
  const zone = knownZone(companyZone);
  if (!zone || sameOffset(zone, viewerTimeZone(), ms)) return text;
  return `${text} (${timeZoneOffset(zone, ms, options.locale)})`;
}

/** Whether two zones have the same offset at `ms` (then naming the company's adds nothing). */
function sameOffset(a: string, b: string, ms: number): boolean {
  return a === b || timeZoneOffset(a, ms, "en-US") === timeZoneOffset(b, ms, "en-US");
}
