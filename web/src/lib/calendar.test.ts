import { describe, expect, it } from "vitest";
import { calendarLocale, dateToDay, dayToDate, formatDay } from "./calendar";

describe("date pickers follow the app's language (issue 9)", () => {
  it("writes a day the language's way, whatever the system's language", () => {
    expect(formatDay("2026-03-05", "pt-BR")).toBe("5 de mar. de 2026");
    expect(formatDay("2026-03-05", "en-US")).toBe("Mar 5, 2026");
    expect(formatDay("2026-03-05", "es-ES")).toBe("5 mar 2026");
    expect(formatDay("", "pt-BR")).toBe("");
    expect(formatDay("not-a-day", "en-US")).toBe("");
  });

  it("opens the calendar with the language's month names and first weekday", () => {
    expect(calendarLocale("pt-BR").code).toBe("pt-BR");
    expect(calendarLocale("pt-PT").code).toBe("pt");
    expect(calendarLocale("es-ES").code).toBe("es");
    expect(calendarLocale("en-US").code).toBe("en-US");
  });

  it("keeps plain YYYY-MM-DD days, round trip, including month ends and leap days", () => {
    for (const day of ["2026-01-31", "2028-02-29", "2026-12-31"]) expect(dateToDay(dayToDate(day)!)).toBe(day);
    expect(dayToDate("2026-13-01")).toBeUndefined();
    expect(dayToDate("2026-02-30")).toBeUndefined();
  });
});
