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

  it("labels zones readably with their offset", () => {
    const at = new Date(Date.UTC(2026, 0, 15));
    expect(timeZoneOffset("America/Sao_Paulo", at)).toBe("GMT-3");
    expect(timeZoneOffset("Nowhere/Zone", at)).toBe("");
    const option = timeZoneOptions(undefined, at).find((entry) => entry.value === "America/Sao_Paulo");
    expect(option).toEqual({ value: "America/Sao_Paulo", label: "America/Sao Paulo", hint: "GMT-3" });
  });
});
