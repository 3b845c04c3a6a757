import { describe, expect, it } from "vitest";
import { checkFormula, evaluateFormula, FormulaError, MAX_FORMULA_DEPTH, MAX_FORMULA_LENGTH, parseFormula, type FormulaFieldInfo } from "../../schema/formula";
import { renderTemplate, templateKeys } from "../../schema/template";

const FIELDS = new Map<string, FormulaFieldInfo>([
  ["price", { type: "number", computed: false }],
  ["discount", { type: "number", computed: false }],
  ["city", { type: "text", computed: false }],
  ["total", { type: "number", computed: true }],
]);

/** Evaluates `source` with `values`; throws FormulaError on a parse failure. */
function run(source: string, values: Record<string, number> = {}) {
  return evaluateFormula(parseFormula(source), new Map(Object.entries(values)));
}

/** The FormulaError code `fn` throws (fails the test on any other outcome). */
function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(FormulaError);
    if (error instanceof FormulaError) return error.code;
  }
  throw new Error("expected a FormulaError");
}

describe("formula parser on good input", () => {
  it.each([
    ["1 + 2 * 3", 7],
    ["(1 + 2) * 3", 9],
    ["10 / 4", 2.5],
    ["10 - 2 - 3", 5],
    ["2 * -3", -6],
    ["-(2 + 3)", -5],
    ["+4", 4],
    [".5 + 0.25", 0.75],
    ["((((1))))", 1],
  ])("%s = %d", (source, expected) => {
    expect(run(source)).toEqual({ ok: true, value: expected });
  });

  it("reads numeric fields by {{key}}", () => {
    expect(run("({{price}} - {{ discount }}) * 2", { price: 10, discount: 3 })).toEqual({ ok: true, value: 14 });
  });

  it("a field without a value gives missing_value, not a number", () => {
    expect(run("{{price}} + 1")).toEqual({ ok: false, code: "missing_value", key: "price" });
  });

  it("division by zero at run time is a clear result, not Infinity", () => {
    expect(run("{{price}} / {{discount}}", { price: 1, discount: 0 })).toEqual({ ok: false, code: "division_by_zero" });
  });

  it("checkFormula answers the keys it uses", () => {
    expect(checkFormula("{{price}} * 2 + {{discount}} - {{price}}", FIELDS).keys).toEqual(["price", "discount"]);
  });
});

describe("formula checks at save time", () => {
  it.each([
    ["1/0", "division_by_zero"],
    ["{{price}} / (2 - 2)", "division_by_zero"],
    ["{{unknown}} + 1", "unknown_field"],
    ["{{city}} * 2", "not_numeric"],
    ["{{total}} + 1", "not_numeric"],
    ["1 +", "syntax"],
    ["(1 + 2", "syntax"],
    ["1 + 2)", "syntax"],
    ["1 2", "syntax"],
    ["* 3", "syntax"],
    ["1..2", "invalid_number"],
    ["", "empty"],
    ["   ", "empty"],
    ["{{price", "syntax"],
    ["{{Price}}", "syntax"],
    ["price + 1", "syntax"],
  ])("%j → %s", (source, code) => {
    expect(codeOf(() => checkFormula(source, FIELDS))).toBe(code);
  });
});

describe("formula parser on hostile input", () => {
  it.each([
    ["constructor", "syntax"],
    ["__proto__", "syntax"],
    ["{{constructor}}", "unknown_field"],
    ["{{__proto__}}", "syntax"],
    ["{{toString}}", "syntax"],
    ["alert(1)", "syntax"],
    ["process.exit()", "syntax"],
    ["1; 2", "syntax"],
    ["`1`", "syntax"],
    ["1e5", "syntax"],
  ])("%j fails with the parser's own error (%s)", (source, code) => {
    expect(codeOf(() => checkFormula(source, FIELDS))).toBe(code);
  });

  it("{{constructor}} evaluates as a missing value, never a prototype member", () => {
    expect(evaluateFormula({ type: "field", key: "constructor" }, new Map())).toEqual({ ok: false, code: "missing_value", key: "constructor" });
  });

  it("nesting deeper than the bound is refused", () => {
    const deep = "(".repeat(MAX_FORMULA_DEPTH + 2) + "1" + ")".repeat(MAX_FORMULA_DEPTH + 2);
    expect(codeOf(() => parseFormula(deep))).toBe("too_deep");
    expect(codeOf(() => parseFormula("-".repeat(100) + "1"))).toBe("too_deep");
    const ok = "(".repeat(MAX_FORMULA_DEPTH - 1) + "1" + ")".repeat(MAX_FORMULA_DEPTH - 1);
    expect(run(ok)).toEqual({ ok: true, value: 1 });
  });

  // How fast these are is a figure of `npm run bench:formula` (README "Benchmarks"), not a timed test.
  it("10 kB of parentheses fails with too_long", () => {
    expect(codeOf(() => parseFormula("(".repeat(5000) + ")".repeat(5000)))).toBe("too_long");
    expect(codeOf(() => parseFormula("(".repeat(10_000)))).toBe("too_long");
  });

  it("the longest accepted input parses, even as one long chain", () => {
    const terms = Math.floor((MAX_FORMULA_LENGTH + 1) / 2);
    const chain = Array.from({ length: terms }, () => "1").join("+");
    expect(chain.length).toBeLessThanOrEqual(MAX_FORMULA_LENGTH);
    expect(run(chain)).toEqual({ ok: true, value: terms });
  });

  it("a number too large to represent is refused", () => {
    expect(codeOf(() => parseFormula("9".repeat(400)))).toBe("invalid_number");
  });

  it("an overflow at run time is not_finite", () => {
    expect(run("{{price}} * {{price}}", { price: 1e200 })).toEqual({ ok: false, code: "not_finite" });
  });
});

describe("renderTemplate", () => {
  it("fills variables and leaves unknown ones empty", () => {
    const vars = new Map<string, string | null>([
      ["first_name", "Maria"],
      ["city", "Recife"],
      ["empty", null],
    ]);
    expect(renderTemplate("Olá {{first_name}}, de {{ city }}!{{empty}}{{nope}}", vars)).toBe("Olá Maria, de Recife!");
  });

  it("never reads the prototype ({{constructor}}, {{__proto__}})", () => {
    expect(renderTemplate("a{{constructor}}b{{__proto__}}c", new Map())).toBe("ab{{__proto__}}c");
  });

  it("templateKeys lists each variable once", () => {
    expect(templateKeys("{{a}} {{b}} {{a}} {{B}}")).toEqual(["a", "b"]);
  });
});
