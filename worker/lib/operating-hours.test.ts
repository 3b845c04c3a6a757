/**
 * Operating hours, evaluated (issue 12 "Tests": at the open/close minute, across DST, with
 * exceptions). `isOpen` reads the wall clock through Intl's time zone database, so the DST cases
 * fail for any fixed-offset arithmetic.
 */
import { describe, expect, it } from "vitest";
import { operatingHoursInput, type Schedule, type WeeklySchedule } from "../../schema/validation/operating-hours";
import { isOpen, localTimeOf } from "./operating-hours";

const closed: WeeklySchedule = { sun: [], mon: [], tue: [], wed: [], thu: [], fri: [], sat: [] };
const at = (iso: string) => Date.parse(iso);

describe("isOpen at the open and close minute", () => {
  // 2026-11-23 is a Monday; São Paulo has had no DST since 2019 (UTC-3).
  const schedule: Schedule = { weekly: { ...closed, mon: [{ open: "09:00", close: "18:00" }] }, exceptions: [] };
  const tz = "America/Sao_Paulo";

  it("opens at 09:00:00 local and not a second before", () => {
    expect(isOpen(schedule, tz, at("2026-11-23T11:59:59Z"))).toBe(false); // 08:59:59
    expect(isOpen(schedule, tz, at("2026-11-23T12:00:00Z"))).toBe(true); // 09:00:00
  });

  it("is open until 17:59:59 local and closed from 18:00:00", () => {
    expect(isOpen(schedule, tz, at("2026-11-23T20:59:59Z"))).toBe(true); // 17:59:59
    expect(isOpen(schedule, tz, at("2026-11-23T21:00:00Z"))).toBe(false); // 18:00:00
  });

  it("reads the weekday in the company's zone, not UTC's", () => {
    // Monday 23:30 local is Tuesday 02:30 UTC: with a range until 24:00 on Monday it is open.
    const late: Schedule = { weekly: { ...closed, mon: [{ open: "20:00", close: "24:00" }] }, exceptions: [] };
    expect(isOpen(late, tz, at("2026-11-24T02:30:00Z"))).toBe(true);
    expect(isOpen(late, tz, at("2026-11-24T02:59:59Z"))).toBe(true); // 23:59:59
    expect(isOpen(late, tz, at("2026-11-24T03:00:00Z"))).toBe(false); // Tuesday 00:00
  });

  it("treats ranges split by a lunch break as two ranges", () => {
    const split: Schedule = { weekly: { ...closed, mon: [{ open: "08:00", close: "12:00" }, { open: "13:00", close: "17:00" }] }, exceptions: [] };
    expect(isOpen(split, tz, at("2026-11-23T14:59:00Z"))).toBe(true); // 11:59
    expect(isOpen(split, tz, at("2026-11-23T15:30:00Z"))).toBe(false); // 12:30
    expect(isOpen(split, tz, at("2026-11-23T16:00:00Z"))).toBe(true); // 13:00
  });
});

describe("isOpen across daylight-saving changes", () => {
  const tz = "Europe/Lisbon";

  it("spring forward (last Sunday of March 2026): 01:30 UTC is 02:30 local summer time", () => {
    const sunday: Schedule = { weekly: { ...closed, sun: [{ open: "02:00", close: "03:00" }] }, exceptions: [] };
    expect(localTimeOf(tz, at("2026-03-29T01:30:00Z"))).toEqual({ date: "2026-03-29", weekday: "sun", minute: 150 });
    expect(isOpen(sunday, tz, at("2026-03-29T00:30:00Z"))).toBe(false); // 00:30 WET
    expect(isOpen(sunday, tz, at("2026-03-29T01:30:00Z"))).toBe(true); // 02:30 WEST
    expect(isOpen(sunday, tz, at("2026-03-29T02:00:00Z"))).toBe(false); // 03:00 WEST
  });

  it("09:00 opens at 09:00 UTC the week before and at 08:00 UTC the day after", () => {
    const weekdays: Schedule = { weekly: { ...closed, mon: [{ open: "09:00", close: "18:00" }] }, exceptions: [] };
    expect(isOpen(weekdays, tz, at("2026-03-23T08:30:00Z"))).toBe(false);
    expect(isOpen(weekdays, tz, at("2026-03-23T09:00:00Z"))).toBe(true);
    expect(isOpen(weekdays, tz, at("2026-03-30T07:59:00Z"))).toBe(false);
    expect(isOpen(weekdays, tz, at("2026-03-30T08:00:00Z"))).toBe(true);
    expect(isOpen(weekdays, tz, at("2026-03-30T16:59:00Z"))).toBe(true); // 17:59 WEST
    expect(isOpen(weekdays, tz, at("2026-03-30T17:00:00Z"))).toBe(false); // 18:00 WEST
  });

  it("fall back (last Sunday of October 2026): the repeated 01:00 hour is open both times", () => {
    const sunday: Schedule = { weekly: { ...closed, sun: [{ open: "01:00", close: "02:00" }] }, exceptions: [] };
    expect(isOpen(sunday, tz, at("2026-10-24T23:30:00Z"))).toBe(false); // 00:30 WEST
    expect(isOpen(sunday, tz, at("2026-10-25T00:30:00Z"))).toBe(true); // 01:30 WEST
    expect(isOpen(sunday, tz, at("2026-10-25T01:30:00Z"))).toBe(true); // 01:30 WET, again
    expect(isOpen(sunday, tz, at("2026-10-25T02:00:00Z"))).toBe(false); // 02:00 WET
  });

  it("São Paulo's historical summer time (from 2018-11-04) moved opening to 11:00 UTC", () => {
    const weekdays: Schedule = { weekly: { ...closed, mon: [{ open: "09:00", close: "18:00" }] }, exceptions: [] };
    const tzSp = "America/Sao_Paulo";
    expect(isOpen(weekdays, tzSp, at("2018-10-29T11:30:00Z"))).toBe(false); // 08:30 (UTC-3)
    expect(isOpen(weekdays, tzSp, at("2018-11-05T11:30:00Z"))).toBe(true); // 09:30 (UTC-2)
  });
});

describe("isOpen with dated exceptions", () => {
  const tz = "America/Sao_Paulo";
  const weekly: WeeklySchedule = { ...closed, fri: [{ open: "09:00", close: "18:00" }], sun: [] };

  it("a holiday with no ranges is closed all day; the weekday rule applies to other dates", () => {
    // 2026-12-25 is a Friday.
    const schedule: Schedule = { weekly, exceptions: [{ date: "2026-12-25", name: "Natal", ranges: [] }] };
    expect(isOpen(schedule, tz, at("2026-12-25T15:00:00Z"))).toBe(false);
    expect(isOpen(schedule, tz, at("2026-12-18T15:00:00Z"))).toBe(true);
  });

  it("special ranges replace the weekday's, on the local date", () => {
    // Sunday 2026-12-20 normally closed: open 10:00–14:00 that day only.
    const schedule: Schedule = { weekly, exceptions: [{ date: "2026-12-20", name: "", ranges: [{ open: "10:00", close: "14:00" }] }] };
    expect(isOpen(schedule, tz, at("2026-12-20T13:00:00Z"))).toBe(true); // 10:00
    expect(isOpen(schedule, tz, at("2026-12-20T17:00:00Z"))).toBe(false); // 14:00
    expect(isOpen(schedule, tz, at("2026-12-27T13:00:00Z"))).toBe(false); // next Sunday
  });

  it("an exception is matched by the local date: 02:00 UTC on the 25th is still the 24th locally", () => {
    const schedule: Schedule = { weekly: { ...closed, thu: [{ open: "00:00", close: "24:00" }] }, exceptions: [{ date: "2026-12-25", name: "", ranges: [] }] };
    expect(isOpen(schedule, tz, at("2026-12-25T02:00:00Z"))).toBe(true); // Thursday 24th, 23:00
    expect(isOpen(schedule, tz, at("2026-12-25T03:00:00Z"))).toBe(false); // Friday 25th, 00:00
  });
});

describe("operatingHoursInput", () => {
  const base = { enabled: true, weekly: closed, exceptions: [], outside: { all: { type: "none" } } };
  const fields = (input: unknown) => {
    const parsed = operatingHoursInput.safeParse(input);
    return parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((i) => [i.path.join("."), i.message]));
  };

  it("refuses inverted, empty and overlapping ranges and bad times, naming the field", () => {
    expect(fields({ ...base, weekly: { ...closed, mon: [{ open: "18:00", close: "09:00" }] } })).toEqual({ "weekly.mon.0.close": "inverted_range" });
    expect(fields({ ...base, weekly: { ...closed, mon: [{ open: "09:00", close: "09:00" }] } })).toEqual({ "weekly.mon.0.close": "inverted_range" });
    expect(fields({ ...base, weekly: { ...closed, tue: [{ open: "09:00", close: "12:00" }, { open: "11:00", close: "13:00" }] } })).toEqual({ "weekly.tue.1": "overlapping_range" });
    expect(fields({ ...base, weekly: { ...closed, wed: [{ open: "9:00", close: "25:00" }] } })).toMatchObject({ "weekly.wed.0.open": "invalid_time", "weekly.wed.0.close": "invalid_time" });
  });

  it("accepts touching ranges and a close of 24:00", () => {
    expect(fields({ ...base, weekly: { ...closed, mon: [{ open: "12:00", close: "24:00" }, { open: "08:00", close: "12:00" }] } })).toEqual({});
  });

  it("refuses a date that does not exist and a date given twice", () => {
    expect(fields({ ...base, exceptions: [{ date: "2027-02-30", ranges: [] }] })).toEqual({ "exceptions.0.date": "invalid_date" });
    expect(fields({ ...base, exceptions: [{ date: "2027-01-01", ranges: [] }, { date: "2027-01-01", ranges: [] }] })).toEqual({ "exceptions.1.date": "duplicate_date" });
  });
});
