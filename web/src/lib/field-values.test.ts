import { describe, expect, it } from "vitest";
import { fieldInputError, formatDocument, formatFieldValue, formatRelative, inputTypeOf, toDatetimeLocal, toInputValue } from "./field-values";
import { viewerTimeZone } from "./dates";

describe("field values", () => {
  const pt = { locale: "pt-BR", timeZone: "America/Sao_Paulo" };

  it("formats each type", () => {
    expect(formatFieldValue("number", "1234.5", pt)).toBe("1.234,5");
    expect(formatFieldValue("number", "1234.5", { ...pt, locale: "en-US" })).toBe("1,234.5");
    expect(formatFieldValue("date", "2024-03-09", { ...pt, locale: "en-US" })).toBe("Mar 9, 2024");
    // A datetime is the company's wall clock, naming the company's zone when the viewer is elsewhere.
    const named = (text: string, zone: string, offset: string) => (viewerTimeZone() === zone ? text : `${text} (${offset})`);
    expect(formatFieldValue("datetime", "1704067200000", { locale: "en-US", timeZone: "America/Sao_Paulo" })).toBe(named("Dec 31, 2023, 9:00 PM", "America/Sao_Paulo", "GMT-03:00"));
    expect(formatFieldValue("datetime", "1704067200000", { locale: "en-US", timeZone: "Not/AZone" })).toMatch(/^Jan 1, 2024, 12:00 AM( \(GMT\))?$/);
    expect(formatFieldValue("document", "52998224725", pt)).toBe("529.982.247-25");
    expect(formatFieldValue("text", null, pt)).toBe("");
    expect(formatFieldValue("number", "n/a", pt)).toBe("n/a");
  });

  it("says how long ago a moment was, in the largest unit that fits", () => {
    const now = 1_700_000_000_000;
    expect(formatRelative(now - 20_000, now, "en-US")).toBe("now");
    expect(formatRelative(now - 5 * 60_000, now, "en-US")).toBe("5 minutes ago");
    expect(formatRelative(now - 3 * 3600_000, now, "pt-BR")).toBe("há 3 horas");
    expect(formatRelative(now - 26 * 3600_000, now, "en-US")).toBe("yesterday");
    expect(formatRelative(now - 3 * 24 * 3600_000, now, "es-ES")).toBe("hace 3 días");
    expect(formatRelative(now + 2 * 60_000, now, "en-US")).toBe("in 2 minutes");
  });

  it("formats documents", () => {
    expect(formatDocument("11222333000181")).toBe("11.222.333/0001-81");
    expect(formatDocument("12345678Z")).toBe("12345678Z");
  });

  it("turns stored datetimes into the company's wall clock", () => {
    expect(toDatetimeLocal(1704067200000, "America/Sao_Paulo")).toBe("2023-12-31T21:00");
    expect(toDatetimeLocal(1704067200000, "Europe/Lisbon")).toBe("2024-01-01T00:00");
    expect(toInputValue("datetime", "1704067200000", "Asia/Tokyo")).toBe("2024-01-01T09:00");
    expect(toInputValue("number", "3.5", "UTC")).toBe("3.5");
    expect(toInputValue("text", null, "UTC")).toBe("");
  });

  it("checks inputs with the worker's own rules", () => {
    expect(inputTypeOf("datetime")).toBe("datetime-local");
    expect(inputTypeOf("document")).toBe("text");
    expect(fieldInputError("number", "abc", "UTC")).toBe("invalid_number");
    expect(fieldInputError("number", "", "UTC")).toBeNull();
    expect(fieldInputError("date", "2024-02-30", "UTC")).toBe("invalid_date");
    expect(fieldInputError("datetime", "2024-02-03T10:30", "UTC")).toBeNull();
    expect(fieldInputError("document", "123", "UTC")).toBe("invalid_document");
  });
});
