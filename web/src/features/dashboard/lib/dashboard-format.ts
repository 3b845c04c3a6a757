/**
 * Pure helpers of the dashboard screen: date ranges as YYYY-MM-DD strings (the API's local days of
 * the company) and durations as short human text, in the app's language (Intl).
 */

/** YYYY-MM-DD of a local calendar date (the picker's Date at local midnight). */
export function isoDate(date: Date): string {
  const y = date.getFullYear();
  const m = String(date.getMonth() + 1).padStart(2, "0");
  const d = String(date.getDate()).padStart(2, "0");
  return `${y}-${m}-${d}`;
}

/** The local-midnight Date of a YYYY-MM-DD string. */
export function fromIsoDate(value: string): Date {
  const [y, m, d] = value.split("-").map(Number);
  return new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1);
}

/** The range of the last `days` days up to `today` (both included). */
export function lastDays(today: Date, days: number): { from: string; to: string } {
  const start = new Date(today.getFullYear(), today.getMonth(), today.getDate() - (days - 1));
  return { from: isoDate(start), to: isoDate(today) };
}

/** A date of the range as the picker's button and the charts show it (e.g. "5 Mar"), in `locale`. */
export function shortDate(value: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { day: "numeric", month: "short" }).format(fromIsoDate(value));
}

/**
 * A duration in ms as the cards show it, in `locale`: "45 s", "4 min", "1 h 30 min", "2 d 3 h";
 * null (no sample) as "—".
 */
export function formatDuration(ms: number | null, locale: string): string {
  if (ms === null) return "—";
  const unit = (value: number, u: "second" | "minute" | "hour" | "day") =>
    new Intl.NumberFormat(locale, { style: "unit", unit: u, unitDisplay: "narrow", maximumFractionDigits: 0 }).format(value);
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return unit(seconds, "second");
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return unit(minutes, "minute");
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${unit(hours, "hour")} ${unit(minutes % 60, "minute")}` : unit(hours, "hour");
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${unit(days, "day")} ${unit(hours % 24, "hour")}` : unit(days, "day");
}

/** Minutes (one decimal) of a duration in ms, for the response-time chart's axis; null stays null. */
export function toMinutes(ms: number | null): number | null {
  return ms === null ? null : Math.round(ms / 6_000) / 10;
}
