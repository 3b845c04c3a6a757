import { describe, expect, it } from "vitest";
import { i18n } from "@lingui/core";
import { dayKey, formatCompanyDateTime, formatDate, formatDateTime, formatShortDate, formatTime, formatTimeZone, formatWeekday, timeZoneOffset, viewerTimeZone } from "./dates";

// 2026-01-15 22:35 UTC = 19:35 in São Paulo (GMT-3) = 07:35 on the 16th in Tokyo.
const AT = Date.UTC(2026, 0, 15, 22, 35);

describe("one rule for times (issue 9)", () => {
  it("a moment is shown in the viewer's zone unless a zone is given, the same on every screen", () => {
    const viewer = viewerTimeZone();
    expect(formatTime(AT, { locale: "en-GB" })).toBe(formatTime(AT, { locale: "en-GB", timeZone: viewer }));
    expect(formatTime(AT, { locale: "en-GB", timeZone: "America/Sao_Paulo" })).toBe("19:35");
    expect(formatTime(AT, { locale: "en-GB", timeZone: "Asia/Tokyo" })).toBe("07:35");
    expect(dayKey(AT, "America/Sao_Paulo")).toBe("2026-01-15");
    expect(dayKey(AT, "Asia/Tokyo")).toBe("2026-01-16");
  });

  it("formats in the active lingui locale by default, or the one given", () => {
    i18n.activate("es-ES");
    const spanish = formatDate(AT, { timeZone: "UTC" });
    i18n.activate("en-US");
    expect(spanish).toBe("15 de enero de 2026");
    expect(formatDate(AT, { timeZone: "UTC" })).toBe("January 15, 2026");
    expect(formatDate(AT, { locale: "pt-BR", timeZone: "UTC" })).toBe("15 de janeiro de 2026");
    expect(formatDateTime(AT, { locale: "en-US", timeZone: "UTC" })).toBe("Jan 15, 2026, 10:35 PM");
    expect(formatShortDate(AT, { locale: "pt-BR", timeZone: "UTC" })).toBe("15/01/26");
    expect(formatWeekday(AT, { locale: "pt-BR", timeZone: "UTC" })).toBe("quinta-feira");
  });

  it("an unknown zone never throws: it falls back to the viewer's", () => {
    expect(formatTime(AT, { locale: "en-GB", timeZone: "Not/AZone" })).toBe(formatTime(AT, { locale: "en-GB" }));
  });

  it("a zone is shown by name and offset in the user's language, never by its id", () => {
    expect(timeZoneOffset("America/Sao_Paulo", AT)).toBe("GMT-03:00");
    expect(timeZoneOffset("UTC", AT)).toMatch(/^GMT(\+00:00)?$/);
    expect(formatTimeZone("America/Sao_Paulo", { locale: "pt-BR", at: AT })).toMatch(/^Horário .*Brasília \(GMT-03:00\)$/);
    expect(formatTimeZone("America/Sao_Paulo", { locale: "es-ES", at: AT })).toMatch(/Brasilia \(GMT-03:00\)$/);
    expect(formatTimeZone("Europe/Lisbon", { locale: "pt-PT", at: AT })).toMatch(/\(GMT(\+00:00)?\)$/);
    expect(formatTimeZone("America/Sao_Paulo", { locale: "en-US", at: AT })).not.toContain("America/");
  });

  it("a company-zone time names the company's zone when the viewer is elsewhere", () => {
    const zone = viewerTimeZone() === "Asia/Tokyo" ? "America/Sao_Paulo" : "Asia/Tokyo";
    const offset = zone === "Asia/Tokyo" ? "GMT+09:00" : "GMT-03:00";
    expect(formatCompanyDateTime(AT, zone, { locale: "en-US" })).toBe(`${formatDateTime(AT, { locale: "en-US", timeZone: zone })} (${offset})`);
    expect(formatCompanyDateTime(AT, viewerTimeZone(), { locale: "en-US" })).toBe(formatDateTime(AT, { locale: "en-US" }));
  });
});
