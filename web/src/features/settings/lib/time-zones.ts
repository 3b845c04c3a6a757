/** The time zone choices of the company form (spec §3 Company "timezone"). */
import type { ComboboxOption } from "@/components/ui/combobox";

/** Every IANA zone the browser knows, plus UTC, sorted; `current` is kept even if unknown here. */
export function timeZoneNames(current?: string): string[] {
  const names = new Set(typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : []);
  names.add("UTC");
  if (current) names.add(current);
  return [...names].sort((a, b) => a.localeCompare(b));
}

/** The zone's UTC offset at `at` as the browser writes it, e.g. "GMT-3"; "" when unknown. */
export function timeZoneOffset(timeZone: string, at: Date, locale = "en-US"): string {
  try {
    const parts = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: "shortOffset" }).formatToParts(at);
    return parts.find((part) => part.type === "timeZoneName")?.value ?? "";
  } catch {
    return "";
  }
}

/** Combobox options: "America/Sao Paulo" with its offset as hint, valued by the IANA name. */
export function timeZoneOptions(current: string | undefined, at: Date = new Date()): ComboboxOption[] {
  return timeZoneNames(current).map((name) => ({ value: name, label: name.replace(/_/g, " "), hint: timeZoneOffset(name, at) }));
}
