import { describe, expect, it } from "vitest";
import { timeZoneNames, timeZoneOffset, timeZoneOptions } from "./time-zones";

describe("time zone choices", () => {
  it("lists the runtime's zones sorted, with UTC and the current value kept", () => {
    const names = timeZoneNames("Custom/Zone");
    expect(names).toContain("America/Sao_Paulo");
    expect(names).toContain("UTC");
    expect(names).toContain("Custom/Zone");
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect(new Set(names).size).toBe(names.length);
  });

  it("shows a zone by its name and offset in the user's language, never by its id (issue 9)", () => {
    const at = new Date(Date.UTC(2026, 0, 15));
    expect(timeZoneOffset("America/Sao_Paulo", at)).toBe("GMT-03:00");
    expect(timeZoneOffset("Nowhere/Zone", at)).toBe("");
    const portuguese = timeZoneOptions(undefined, at, "pt-BR").find((entry) => entry.value === "America/Sao_Paulo");
    // The zone's wording comes from the runtime's CLDR data ("Horário [Padrão] de Brasília").
    expect(portuguese).toMatchObject({ value: "America/Sao_Paulo", hint: "Sao Paulo" });
    expect(portuguese?.label).toMatch(/^Horário .*Brasília \(GMT-03:00\)$/);
    const english = timeZoneOptions(undefined, at, "en-US").find((entry) => entry.value === "America/Sao_Paulo");
    expect(english?.label).toMatch(/^Brasilia .*Time \(GMT-03:00\)$/);
    for (const option of timeZoneOptions(undefined, at, "es-ES")) expect(option.label).not.toContain("/");
  });

  it("orders the choices by offset, west to east", () => {
    const at = new Date(Date.UTC(2026, 0, 15));
    const values = timeZoneOptions(undefined, at, "en-US").map((o) => o.value);
    expect(values.indexOf("America/Sao_Paulo")).toBeLessThan(values.indexOf("Europe/Lisbon"));
    expect(values.indexOf("Europe/Lisbon")).toBeLessThan(values.indexOf("Asia/Tokyo"));
  });
});
