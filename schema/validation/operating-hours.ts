/**
 * Operating hours (spec /settings/operating-hours; issue 12 "Operating hours"): the request of PUT
 * /api/companies/operating-hours and the answer of GET, pure zod shared by the worker and the app.
 *
 * - `weekly`: per weekday (`sun` … `sat`) zero or more `{open, close}` ranges, "HH:MM" in the
 *   company's time zone; a range holds from `open` (inclusive) to `close` (exclusive); `close` may be
 *   "24:00" (until midnight). A range that crosses midnight is written as two ranges on two days.
 * - `exceptions`: dated days (`YYYY-MM-DD`, the company's calendar) that replace the weekday's
 *   ranges: no ranges = closed all day (a holiday), or special ranges.
 * - `outside`: what a customer who writes outside hours gets, once per conversation: for all
 *   connections (`all`) and, overriding it, per connection (`connections[connectionId]`): nothing,
 *   a text message, or a flow.
 * 400 names the field: `weekly.mon.1.close` `inverted_range` (close not after open),
 * `weekly.mon.1` `overlapping_range`, `exceptions.2.date` `duplicate_date`, …
 */
import { z } from "zod";

/** Weekday keys, Sunday first (the order of `Date#getUTCDay`). */
export const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Most ranges per day, exceptions kept, and characters of the outside-hours message. */
export const MAX_RANGES_PER_DAY = 6;
export const MAX_EXCEPTIONS = 366;
export const MAX_OUTSIDE_MESSAGE = 4096;

/** "HH:MM" of a 24-hour clock, 00:00 to 23:59, or 24:00 (the end of the day; only as a close). */
const timeOfDay = z.string({ error: "required" }).regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, { error: "invalid_time" });

/** Minutes since local midnight of an "HH:MM" that passed `timeOfDay`. */
export function minutesOf(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

/** One range of a day: open (inclusive) to close (exclusive), local "HH:MM". */
export const timeRangeSchema = z
  .object({ open: timeOfDay, close: timeOfDay })
  .superRefine((range, ctx) => {
    if (range.open === "24:00") ctx.addIssue({ code: "custom", path: ["open"], message: "invalid_time" });
    else if (minutesOf(range.close) <= minutesOf(range.open)) ctx.addIssue({ code: "custom", path: ["close"], message: "inverted_range" });
  });
export type TimeRange = z.infer<typeof timeRangeSchema>;

/** A day's ranges: at most MAX_RANGES_PER_DAY, none overlapping another (touching is fine). */
const dayRanges = z
  .array(timeRangeSchema, { error: "invalid_ranges" })
  .max(MAX_RANGES_PER_DAY, { error: "too_many_ranges" })
  .superRefine((ranges, ctx) => {
    const sorted = ranges.map((r, index) => ({ index, open: minutesOf(r.open), close: minutesOf(r.close) })).sort((a, b) => a.open - b.open);
    for (let i = 1; i < sorted.length; i++) {
      const before = sorted[i - 1]!;
      const current = sorted[i]!;
      if (current.open < before.close) ctx.addIssue({ code: "custom", path: [Math.max(current.index, before.index)], message: "overlapping_range" });
    }
  });

/** The weekly schedule: every weekday present, each with its ranges (empty: closed that day). */
export const weeklyScheduleSchema = z.object(
  {
    sun: dayRanges,
    mon: dayRanges,
    tue: dayRanges,
    wed: dayRanges,
    thu: dayRanges,
    fri: dayRanges,
    sat: dayRanges,
  },
  { error: "invalid_schedule" },
);
export type WeeklySchedule = z.infer<typeof weeklyScheduleSchema>;

/** A calendar date "YYYY-MM-DD" that exists (2027-02-30 does not). */
export const calendarDateSchema = z
  .string({ error: "required" })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "invalid_date" })
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
  }, { error: "invalid_date" });

/** A dated exception: `ranges` empty = closed all day; `name` an optional label ("Christmas"). */
export const scheduleExceptionSchema = z.object({
  date: calendarDateSchema,
  name: z.string().trim().max(80, { error: "too_long" }).default(""),
  ranges: dayRanges,
});
export type ScheduleException = z.infer<typeof scheduleExceptionSchema>;

/** What a customer writing outside hours gets: nothing, a text message, or a flow. */
export const outsideHoursActionSchema = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("none") }),
    z.object({ type: z.literal("message"), message: z.string({ error: "required" }).trim().min(1, { error: "required" }).max(MAX_OUTSIDE_MESSAGE, { error: "too_long" }) }),
    z.object({ type: z.literal("flow"), flowId: z.string({ error: "required" }).uuid({ error: "invalid_id" }) }),
  ],
  { error: "invalid_action" },
);
export type OutsideHoursAction = z.infer<typeof outsideHoursActionSchema>;

/** The outside-hours behaviour: one for every connection, and per-connection overrides. */
export const outsideHoursSchema = z.object({
  all: outsideHoursActionSchema,
  connections: z
    .record(z.string().uuid({ error: "invalid_id" }), outsideHoursActionSchema, { error: "invalid_connections" })
    .refine((value) => Object.keys(value).length <= 200, { error: "too_many" })
    .default({}),
});
export type OutsideHours = z.infer<typeof outsideHoursSchema>;

/** What `isOpen` evaluates: the weekly ranges and the dated exceptions. */
export type Schedule = { weekly: WeeklySchedule; exceptions: ScheduleException[] };

/** Body of PUT /api/companies/operating-hours. */
export const operatingHoursInput = z.object({
  /** Off: the company is always open (nothing is checked, no ticket is marked). */
  enabled: z.boolean({ error: "required" }),
  weekly: weeklyScheduleSchema,
  exceptions: z
    .array(scheduleExceptionSchema, { error: "invalid_exceptions" })
    .max(MAX_EXCEPTIONS, { error: "too_many" })
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      list.forEach((exception, index) => {
        if (seen.has(exception.date)) ctx.addIssue({ code: "custom", path: [index, "date"], message: "duplicate_date" });
        seen.add(exception.date);
      });
    }),
  outside: outsideHoursSchema,
});
export type OperatingHoursInput = z.infer<typeof operatingHoursInput>;

/** GET/PUT answer: the settings plus the company's time zone (edited in Settings → Company). */
export const operatingHoursAnswer = z.object({
  enabled: z.boolean(),
  weekly: weeklyScheduleSchema,
  exceptions: z.array(scheduleExceptionSchema),
  outside: outsideHoursSchema,
  /** IANA time zone the schedule is read in (companies.timezone). */
  timezone: z.string(),
  /** Whether the company is open now by this schedule (always true while disabled). */
  openNow: z.boolean(),
});
export type OperatingHoursAnswer = z.infer<typeof operatingHoursAnswer>;

/** The settings of a company that never saved any: disabled, Monday to Friday 09:00–18:00. */
export function defaultOperatingHours(): OperatingHoursInput {
  const workday = [{ open: "09:00", close: "18:00" }];
  return {
    enabled: false,
    weekly: { sun: [], mon: workday, tue: workday, wed: workday, thu: workday, fri: workday, sat: [] },
    exceptions: [],
    outside: { all: { type: "none" }, connections: {} },
  };
}
