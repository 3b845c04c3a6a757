import { describe, expect, it } from "vitest";
import { filterOptions } from "./combobox";

const options = [
  { value: "America/Sao_Paulo", label: "America/Sao Paulo", hint: "GMT-3" },
  { value: "Europe/Lisbon", label: "Europe/Lisbon", hint: "GMT" },
  { value: "America/Bogota", label: "America/Bogotá", hint: "GMT-5" },
];

describe("combobox search", () => {
  it("returns everything for a blank query", () => {
    expect(filterOptions(options, "  ")).toEqual(options);
  });

  it("ignores case, accents and separators, and needs every word", () => {
    expect(filterOptions(options, "sao paulo").map((o) => o.value)).toEqual(["America/Sao_Paulo"]);
    expect(filterOptions(options, "SAO_PAU").map((o) => o.value)).toEqual(["America/Sao_Paulo"]);
    expect(filterOptions(options, "bogota").map((o) => o.value)).toEqual(["America/Bogota"]);
    expect(filterOptions(options, "america gmt-5").map((o) => o.value)).toEqual(["America/Bogota"]);
    expect(filterOptions(options, "lisbon tokyo")).toEqual([]);
  });
});
