/**
 * Relative moments ("5 minutes ago", "há 2 horas") with Intl.RelativeTimeFormat. Apart from
 * field-values.ts (which re-exports it) because that module imports the contact validation and its
 * libraries, and the app shell's notifications menu only needs this (issue 9 "Load only what a
 * screen needs").
 */

const RELATIVE_UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600_000],
  ["month", 30 * 24 * 3600_000],
  ["week", 7 * 24 * 3600_000],
  ["day", 24 * 3600_000],
  ["hour", 3600_000],
  ["minute", 60_000],
];

/**
 * A moment (ms UTC) relative to `now` in the locale's words ("5 minutes ago", "há 2 horas"): the
 * largest unit that fits, seconds under a minute shown as "now".
 */
export function formatRelative(ms: number, now: number, locale: string): string {
  const format = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
  const diff = ms - now;
  for (const [unit, size] of RELATIVE_UNITS) {
    if (Math.abs(diff) >= size) return format.format(Math.trunc(diff / size), unit);
  }
  return format.format(0, "second");
}
