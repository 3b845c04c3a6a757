/**
 * A broadcast's optional schedule (spec §3 `scheduledDate`, §5 "scheduledDate must be valid and not
 * earlier than now"): the form asks for a date and a time on the company's wall clock (the company's
 * time zone, named on the form when it is not the viewer's, web/src/lib/dates.ts), and the API takes
 * an ISO 8601 instant with a zone. A time that does not exist in the zone (a daylight-saving gap) is
 * read as the instant the wall clock jumps to, the way the worker reads wall-clock values
 * (schema/validation/contacts.ts normalizeFieldValue).
 */
import { normalizeFieldValue } from "../../../../../schema/validation/contacts";
import { toDatetimeLocal } from "@/lib/field-values";

/** A schedule as the form keeps it: `YYYY-MM-DD` and `HH:MM`, both "" when not scheduled. */
export type ScheduleDraft = { date: string; time: string };

/** Why a schedule cannot be sent: a missing part, an impossible date, or a moment already past. */
export type ScheduleProblem = "required" | "invalid_scheduled_date";

/**
 * The instant (ms UTC) of `date` at `time` on the wall clock of `timeZone`, or null when either part
 * is missing or invalid.
 */
export function scheduleInstant(draft: ScheduleDraft, timeZone: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(draft.date) || !/^\d{2}:\d{2}$/.test(draft.time)) return null;
  const result = normalizeFieldValue("datetime", `${draft.date}T${draft.time}`, timeZone);
  return result.ok && result.valueNumber !== null ? result.valueNumber : null;
}

/**
 * The `scheduledDate` the API takes (ISO 8601 in UTC, e.g. `2026-12-01T12:00:00.000Z`), or a problem:
 * `required` when only one part is filled in, `invalid_scheduled_date` when the date is impossible or
 * earlier than `now`. An empty schedule answers `{ value: null }` (start by hand).
 */
export function toScheduledDate(draft: ScheduleDraft, timeZone: string, now: number): { value: string | null } | { problem: ScheduleProblem } {
  if (!draft.date && !draft.time) return { value: null };
  if (!draft.date || !draft.time) return { problem: "required" };
  const at = scheduleInstant(draft, timeZone);
  if (at === null || at < now) return { problem: "invalid_scheduled_date" };
  return { value: new Date(at).toISOString() };
}

/** A saved `scheduledDate` (ms UTC) as the form's date and time on the company's wall clock. */
export function fromScheduledDate(ms: number | null, timeZone: string): ScheduleDraft {
  if (ms === null) return { date: "", time: "" };
  const local = toDatetimeLocal(ms, timeZone);
  return { date: local.slice(0, 10), time: local.slice(11, 16) };
}
