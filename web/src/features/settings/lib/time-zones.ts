/** The time zone choices of the company form (spec §3 Company "timezone"). */
import type { ComboboxOption } from "@/components/ui/combobox";
import { formatTimeZone, timeZoneOffset as zoneOffset } from "@/lib/dates";

/** Every IANA zone the browser knows, plus UTC, sorted; `current` is kept even if unknown here. */
export function timeZoneNames(current?: string): string[] {
  const names = new Set(typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : []);
  names.add("UTC");
  if (current) names.add(current);
  return [...names].sort((a, b) => a.localeCompare(b));
}

/** The zone's UTC offset at `at`, e.g. "GMT-03:00"; "" when unknown (web/src/lib/dates.ts). */
export function timeZoneOffset(timeZone: string, at: Date, locale = "en-US"): string {
  return zoneOffset(timeZone, at, locale);
}

/** Minutes east of UTC of an offset text "GMT-03:00" (0 for "GMT" or unknown), for ordering. */
function offsetMinutes(offset: string): number {
  const match = /([+-−])(\d{2}):(\d{2})/.exec(offset);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === "+" ? minutes : -minutes;
}

/**
 * Combobox options valued by the IANA id but shown as people read a zone (issue 9: never a raw id):
 * the label is its name and offset in the user's language ("Horário de Brasília (GMT-03:00)"), the
 * hint its city ("Sao Paulo"), which tells apart zones that share a name. Ordered by offset, then
 * label. The id stays searchable (the combobox matches values too).
 */
export function timeZoneOptions(current: string | undefined, at: Date = new Date(), locale?: string): ComboboxOption[] {
  return timeZoneNames(current)
    .map((name) => {
      const offset = zoneOffset(name, at, "en-US");
      const city = name.includes("/") ? (name.split("/").pop() ?? name).replace(/_/g, " ") : "";
      return { option: { value: name, label: formatTimeZone(name, { locale, at }), ...(city ? { hint: city } : {}) }, minutes: offsetMinutes(offset) };
    })
    .sort((a, b) => a.minutes - b.minutes || a.option.label.localeCompare(b.option.label) || (a.option.hint ?? "").localeCompare(b.option.hint ?? ""))
    .map((entry) => entry.option);
}
