/**
 * The time arithmetic of a shipping-cycle step's wait (issue 10 "Timers"; spec §9 cycle units):
 * exact seconds, minutes and hours; calendar days and months in the company's time zone, "month"
 * landing on the last day when the same day does not exist, across DST changes.
 */
import { describe, expect, it } from "vitest";
import { addWait } from "./shipping-cycles";

/** ms UTC of an ISO 8601 text with its offset. */
const at = (iso: string) => new Date(iso).getTime();

describe("addWait", () => {
  it("adds seconds, minutes and hours as exact durations", () => {
    const from = at("2026-03-08T01:59:00-05:00");
    expect(addWait(from, { value: 3, unit: "second" }, "America/New_York")).toBe(from + 3_000);
    expect(addWait(from, { value: 2, unit: "minute" }, "America/New_York")).toBe(from + 120_000);
    // Across New York's spring-forward night an hour is still 3,600 s.
    expect(addWait(from, { value: 1, unit: "hour" }, "America/New_York")).toBe(at("2026-03-08T03:59:00-04:00"));
  });

  it('"month" from January 31 lands on February 28, or 29 in a leap year, at the same local time', () => {
    expect(addWait(at("2027-01-31T09:30:00-03:00"), { value: 1, unit: "month" }, "America/Sao_Paulo")).toBe(at("2027-02-28T09:30:00-03:00"));
    expect(addWait(at("2028-01-31T09:30:00-03:00"), { value: 1, unit: "month" }, "America/Sao_Paulo")).toBe(at("2028-02-29T09:30:00-03:00"));
    // The same day when it exists; March 31 + 1 month = April 30.
    expect(addWait(at("2027-01-15T09:30:00-03:00"), { value: 1, unit: "month" }, "America/Sao_Paulo")).toBe(at("2027-02-15T09:30:00-03:00"));
    expect(addWait(at("2027-03-31T09:30:00-03:00"), { value: 1, unit: "month" }, "America/Sao_Paulo")).toBe(at("2027-04-30T09:30:00-03:00"));
    expect(addWait(at("2027-01-31T09:30:00-03:00"), { value: 12, unit: "month" }, "America/Sao_Paulo")).toBe(at("2028-01-31T09:30:00-03:00"));
  });

  it("counts the calendar in the company's time zone, not in UTC", () => {
    // 22:00 on January 31 in São Paulo is already February 1 in UTC: the next month is still February.
    expect(addWait(at("2027-01-31T22:00:00-03:00"), { value: 1, unit: "month" }, "America/Sao_Paulo")).toBe(at("2027-02-28T22:00:00-03:00"));
    // In UTC the same instant is February 1 → March 1.
    expect(addWait(at("2027-01-31T22:00:00-03:00"), { value: 1, unit: "month" }, "UTC")).toBe(at("2027-03-01T01:00:00Z"));
  });

  it("keeps the wall-clock time across DST: a day over the spring-forward night lasts 23 hours, over the fall-back night 25", () => {
    const spring = at("2026-03-07T09:00:00-05:00");
    const nextDay = addWait(spring, { value: 1, unit: "day" }, "America/New_York");
    expect(nextDay).toBe(at("2026-03-08T09:00:00-04:00"));
    expect(nextDay - spring).toBe(23 * 3600_000);
    const fall = at("2026-10-31T09:00:00-04:00");
    expect(addWait(fall, { value: 1, unit: "day" }, "America/New_York") - fall).toBe(25 * 3600_000);
    // A month over Lisbon's March change: same local time, one hour less in between.
    expect(addWait(at("2026-03-15T10:00:00Z"), { value: 1, unit: "month" }, "Europe/Lisbon")).toBe(at("2026-04-15T10:00:00+01:00"));
  });

  it("counts in UTC when the time zone is unknown", () => {
    expect(addWait(at("2027-01-31T12:00:00Z"), { value: 1, unit: "month" }, "Mars/Olympus")).toBe(at("2027-02-28T12:00:00Z"));
  });
});
