import { describe, expect, it } from "vitest";
import type { CustomFieldAnswer } from "../../../../../schema/api-types";
import { checkFormulaSource, formulaFields, numericKeys } from "./formula-check";
import { normalizeHexColor, readableTextColor } from "./tag-colors";

const field = (over: Partial<CustomFieldAnswer>): CustomFieldAnswer => ({
  id: "f",
  name: "F",
  key: "f",
  type: "number",
  kind: "user",
  formula: null,
  value: null,
  readOnly: false,
  createdAt: 1,
  ...over,
});

const fields = [
  field({ id: "default:email", key: "email", type: "email", kind: "default", readOnly: true, createdAt: null }),
  field({ id: "a", key: "price" }),
  field({ id: "b", key: "discount" }),
  field({ id: "c", key: "city", type: "text" }),
  field({ id: "d", key: "total", formula: "{{price}} - {{discount}}" }),
];

describe("formula check", () => {
  const infos = formulaFields(fields, "d");

  it("leaves out the built-ins and the field being edited", () => {
    expect([...infos.keys()].sort()).toEqual(["city", "discount", "price"]);
    expect(formulaFields(fields, null).has("total")).toBe(true);
  });

  it("accepts numbers, numeric fields and + - * / with parentheses", () => {
    expect(checkFormulaSource("({{price}} - {{discount}}) * 1.1", infos)).toEqual({ ok: true, keys: ["price", "discount"] });
  });

  it("names the parser's error and where it is", () => {
    expect(checkFormulaSource("1 +", infos)).toMatchObject({ ok: false, code: "syntax" });
    expect(checkFormulaSource("{{price}} $ 2", infos)).toEqual({ ok: false, code: "syntax", position: 10 });
    expect(checkFormulaSource("1/0", infos)).toMatchObject({ ok: false, code: "division_by_zero" });
    expect(checkFormulaSource("{{nope}} + 1", infos)).toMatchObject({ ok: false, code: "unknown_field" });
    expect(checkFormulaSource("{{city}} + 1", infos)).toMatchObject({ ok: false, code: "not_numeric" });
    expect(checkFormulaSource("", infos)).toMatchObject({ ok: false, code: "empty" });
    expect(checkFormulaSource("(".repeat(10_000), infos)).toMatchObject({ ok: false, code: "too_long" });
  });

  it("a computed field cannot feed another formula", () => {
    expect(checkFormulaSource("{{total}} * 2", formulaFields(fields, null))).toMatchObject({ ok: false, code: "not_numeric" });
    expect(numericKeys(formulaFields(fields, null))).toEqual(["price", "discount"]);
  });
});

describe("tag colours", () => {
  it("normalises hex input to #rrggbb", () => {
    expect(normalizeHexColor("#AABBCC")).toBe("#aabbcc");
    expect(normalizeHexColor("0af")).toBe("#00aaff");
    expect(normalizeHexColor(" 123456 ")).toBe("#123456");
    expect(normalizeHexColor("#12345")).toBeNull();
    expect(normalizeHexColor("red")).toBeNull();
  });

  it("picks a readable text colour", () => {
    expect(readableTextColor("#ffffff")).toBe("#000000");
    expect(readableTextColor("#1e3a8a")).toBe("#ffffff");
  });
});
