/**
 * Operating hours, evaluated (issue 12 "Operating hours"): whether a company is open at an instant,
 * by its weekly ranges and dated exceptions read in its IANA time zone. Pure: the time zone
 * database is the runtime's (`Intl.DateTimeFormat`), so daylight-saving changes need no code here
 * (a local 02:30 that a spring-forward skips simply never occurs; an autumn hour that repeats is
 * judged by its wall-clock time both times). The shapes are schema/validation/operating-hours.ts.
 */
import { minutesOf, WEEKDAYS, type Schedule, type TimeRange, type Weekday } from "../../schema/validation/operating-hours";

/** The wall clock of an instant in a time zone: local date "YYYY-MM-DD", weekday, minutes since midnight. */
export type LocalTime = { date: string; weekday: Weekday; minute: number };

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timezone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timezone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone: timezone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      weekday: "short",
    });
    formatters.set(timezone, formatter);
  }
  return formatter;
}

/**
 * The wall clock at `instantMs` (ms UTC) in `timezone` (IANA). Throws RangeError for a time zone
 * Intl does not know (companies.timezone is validated on write, so only a corrupt row does).
 */
export function localTimeOf(timezone: string, instantMs: number): LocalTime {
  const parts: Record<string, string> = {};
  for (const part of formatterOf(timezone).formatToParts(new Date(instantMs))) parts[part.type] = part.value;
  const weekday = (parts.weekday ?? "").toLowerCase().slice(0, 3);
  const day = WEEKDAYS.find((w) => w === weekday);
  if (!day) throw new RangeError(`no weekday for ${instantMs} in ${timezone}`);
  // Some engines write midnight as 24 even with h23.
  const hour = Number(parts.hour) % 24;
  return { date: `${parts.year}-${parts.month}-${parts.day}`, weekday: day, minute: hour * 60 + Number(parts.minute) };
}

/** The ranges that apply on a local day: its dated exception's, else its weekday's. */
export function rangesOn(schedule: Schedule, local: Pick<LocalTime, "date" | "weekday">): TimeRange[] {
  const exception = schedule.exceptions.find((e) => e.date === local.date);
  return exception ? exception.ranges : schedule.weekly[local.weekday];
}

/**
 * Whether the company is open at `instantMs` (ms UTC) by `schedule` read in `timezone`: some range
 * of that local day (its exception's, else its weekday's) has open ≤ local time < close, to the
 * minute (09:00 opens at 09:00:00; a close of 18:00 is closed from 18:00:00; "24:00" runs to
 * midnight). A day with no ranges is closed all day.
 */
export function isOpen(schedule: Schedule, timezone: string, instantMs: number): boolean {
  const local = localTimeOf(timezone, instantMs);
  return rangesOn(schedule, local).some((range) => minutesOf(range.open) <= local.minute && local.minute < minutesOf(range.close));
}
