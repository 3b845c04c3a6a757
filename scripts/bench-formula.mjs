// `npm run bench:formula`: how long the custom-field formula parser takes on its worst inputs, as
// figures (never a timed test; issue 17 "No wall-clock speed assertion in tests"). Pure code, run in
// Node on schema/formula.ts, the same module the worker and the web app use.
//
// 1. Refusal: 10 kB of parentheses ("(" × 5,000 then ")" × 5,000, and "(" × 10,000) must fail with
//    too_long before any parsing.
// 2. Longest accepted input: one chain "1+1+…+1" of MAX_FORMULA_LENGTH characters, parsed and
//    evaluated.
// 3. Deepest accepted nesting: MAX_FORMULA_DEPTH - 1 parentheses around "1".
// Each case runs BENCH_FORMULA_RUNS times (default 2,000) after a warm-up; p50 / p95 / p99 / max in µs.
import { evaluateFormula, FormulaError, MAX_FORMULA_DEPTH, MAX_FORMULA_LENGTH, parseFormula } from "../schema/formula.ts";
import { percentile } from "./lib.mjs";

const RUNS = Number(process.env.BENCH_FORMULA_RUNS ?? 2000);

function refusedTooLong(source) {
  try {
    parseFormula(source);
  } catch (error) {
    if (error instanceof FormulaError && error.code === "too_long") return;
    throw error;
  }
  throw new Error("a 10 kB formula was accepted");
}

const terms = Math.floor((MAX_FORMULA_LENGTH + 1) / 2);
const chain = Array.from({ length: terms }, () => "1").join("+");
const nested = "(".repeat(MAX_FORMULA_DEPTH - 1) + "1" + ")".repeat(MAX_FORMULA_DEPTH - 1);
const balanced = "(".repeat(5000) + ")".repeat(5000);
const open = "(".repeat(10_000);

const cases = [
  ["10 kB of parentheses → too_long", () => {
    refusedTooLong(balanced);
    refusedTooLong(open);
  }],
  [`longest chain (${chain.length} chars) parse + evaluate`, () => {
    const result = evaluateFormula(parseFormula(chain), new Map());
    if (!result.ok || result.value !== terms) throw new Error(`the chain evaluated to ${JSON.stringify(result)}`);
  }],
  [`deepest nesting (${MAX_FORMULA_DEPTH - 1} levels) parse + evaluate`, () => {
    const result = evaluateFormula(parseFormula(nested), new Map());
    if (!result.ok || result.value !== 1) throw new Error(`the nesting evaluated to ${JSON.stringify(result)}`);
  }],
];

const lines = [];
for (const [name, fn] of cases) {
  for (let i = 0; i < 200; i += 1) fn(); // warm-up
  const times = [];
  for (let i = 0; i < RUNS; i += 1) {
    const started = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - started) / 1000);
  }
  times.sort((a, b) => a - b);
  const us = (v) => `${v.toFixed(1)} µs`;
  lines.push(`  ${name.padEnd(52)} p50 ${us(percentile(times, 50))}, p95 ${us(percentile(times, 95))}, p99 ${us(percentile(times, 99))}, max ${us(times[times.length - 1])}`);
}
console.log(`formula benchmark (Node ${process.version}, ${RUNS} runs each)\n${lines.join("\n")}`);
