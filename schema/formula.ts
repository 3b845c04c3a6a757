/**
 * Custom-field formulas (spec §3 Custom field "a custom formula is allowed", §5 "Custom formula
 * allows numbers, numeric fields and the operators + - * /"). Pure: the worker checks formulas at
 * save time and evaluates them per contact; the web and the flow engine reuse the same code.
 *
 * Syntax:
 *   - numbers: `12`, `3.5`, `.5` (a dot as the decimal separator; no exponent);
 *   - numeric fields by their variable key in double braces, as in message templates: `{{price}}`
 *     (key: a lower-case letter, then lower-case letters, digits or `_`, at most 40 characters);
 *   - `+ - * /`, unary `-` and `+`, parentheses; spaces are ignored.
 *   Example: `({{price}} - {{discount}}) * 1.1`.
 *
 * A real parser (a tokenizer and a recursive-descent parser building a tree); no `eval`, no
 * `Function`. Inputs are bounded (MAX_FORMULA_LENGTH characters, MAX_FORMULA_DEPTH nesting), so
 * hostile input (10 kB of parentheses, `constructor`, `__proto__`) fails fast with a FormulaError,
 * never with a stack overflow. Field values are looked up in a Map, never on an object's prototype.
 */

/** Longest formula source accepted (characters). */
export const MAX_FORMULA_LENGTH = 500;
/** Deepest nesting of parentheses and unary signs accepted. */
export const MAX_FORMULA_DEPTH = 32;

export type FormulaNode =
  | { type: "number"; value: number }
  | { type: "field"; key: string }
  | { type: "negate"; operand: FormulaNode }
  | { type: "binary"; op: "+" | "-" | "*" | "/"; left: FormulaNode; right: FormulaNode };

/**
 * Why a formula was refused at save time:
 * `empty`, `too_long`, `too_deep`, `syntax` (unexpected or missing token), `invalid_number`,
 * `unknown_field`, `not_numeric` (a field that is not of type number, or is itself computed),
 * `division_by_zero` (dividing by a constant that is zero).
 */
export type FormulaErrorCode = "empty" | "too_long" | "too_deep" | "syntax" | "invalid_number" | "unknown_field" | "not_numeric" | "division_by_zero";

/** The only error the parser and checker throw. `position` is a 0-based character offset. */
export class FormulaError extends Error {
  constructor(
    readonly code: FormulaErrorCode,
    message: string,
    readonly position: number,
  ) {
    super(message);
    this.name = "FormulaError";
  }
}

type Token =
  | { kind: "number"; value: number; at: number }
  | { kind: "field"; key: string; at: number }
  | { kind: "op"; op: "+" | "-" | "*" | "/"; at: number }
  | { kind: "open" | "close" | "end"; at: number };

const KEY = /^[a-z][a-z0-9_]{0,39}$/;

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    if (ch === " " || ch === "\t" || ch === "\n" || ch === "\r") {
      i += 1;
    } else if ((ch >= "0" && ch <= "9") || ch === ".") {
      const start = i;
      while (i < source.length && ((source[i]! >= "0" && source[i]! <= "9") || source[i] === ".")) i += 1;
      const text = source.slice(start, i);
      if (!/^(\d+(\.\d+)?|\.\d+)$/.test(text)) throw new FormulaError("invalid_number", `Invalid number "${text}" at ${start}.`, start);
      const value = Number(text);
      if (!Number.isFinite(value)) throw new FormulaError("invalid_number", `Number too large at ${start}.`, start);
      tokens.push({ kind: "number", value, at: start });
    } else if (ch === "{" && source[i + 1] === "{") {
      const start = i;
      const close = source.indexOf("}}", i + 2);
      if (close < 0) throw new FormulaError("syntax", `Unclosed "{{" at ${start}.`, start);
      const key = source.slice(i + 2, close).trim();
      if (!KEY.test(key)) throw new FormulaError("syntax", `Invalid field reference at ${start}.`, start);
      tokens.push({ kind: "field", key, at: start });
      i = close + 2;
    } else if (ch === "+" || ch === "-" || ch === "*" || ch === "/") {
      tokens.push({ kind: "op", op: ch, at: i });
      i += 1;
    } else if (ch === "(") {
      tokens.push({ kind: "open", at: i });
      i += 1;
    } else if (ch === ")") {
      tokens.push({ kind: "close", at: i });
      i += 1;
    } else {
      throw new FormulaError("syntax", `Unexpected character "${ch}" at ${i}.`, i);
    }
  }
  tokens.push({ kind: "end", at: source.length });
  return tokens;
}

/**
 * Parses `source` into a tree. Throws FormulaError (`empty`, `too_long`, `too_deep`, `syntax`,
 * `invalid_number`); never anything else.
 */
export function parseFormula(source: string): FormulaNode {
  if (source.length > MAX_FORMULA_LENGTH) throw new FormulaError("too_long", `A formula has at most ${MAX_FORMULA_LENGTH} characters.`, MAX_FORMULA_LENGTH);
  if (!source.trim()) throw new FormulaError("empty", "The formula is empty.", 0);
  const tokens = tokenize(source);
  let pos = 0;
  const peek = (): Token => tokens[pos] ?? { kind: "end", at: source.length };
  const next = (): Token => {
    const token = peek();
    pos += 1;
    return token;
  };

  function expression(depth: number): FormulaNode {
    let left = term(depth);
    for (let token = peek(); token.kind === "op" && (token.op === "+" || token.op === "-"); token = peek()) {
      next();
      left = { type: "binary", op: token.op, left, right: term(depth) };
    }
    return left;
  }

  function term(depth: number): FormulaNode {
    let left = factor(depth);
    for (let token = peek(); token.kind === "op" && (token.op === "*" || token.op === "/"); token = peek()) {
      next();
      left = { type: "binary", op: token.op, left, right: factor(depth) };
    }
    return left;
  }

  function factor(depth: number): FormulaNode {
    const token = next();
    if (depth > MAX_FORMULA_DEPTH) throw new FormulaError("too_deep", `A formula nests at most ${MAX_FORMULA_DEPTH} levels.`, token.at);
    switch (token.kind) {
      case "number":
        return { type: "number", value: token.value };
      case "field":
        return { type: "field", key: token.key };
      case "op":
        if (token.op === "-") return { type: "negate", operand: factor(depth + 1) };
        if (token.op === "+") return factor(depth + 1);
        throw new FormulaError("syntax", `Unexpected "${token.op}" at ${token.at}.`, token.at);
      case "open": {
        const inner = expression(depth + 1);
        const close = next();
        if (close.kind !== "close") throw new FormulaError("syntax", `Expected ")" at ${close.at}.`, close.at);
        return inner;
      }
      case "close":
        throw new FormulaError("syntax", `Unexpected ")" at ${token.at}.`, token.at);
      case "end":
        throw new FormulaError("syntax", "The formula ends too early.", token.at);
    }
  }

  const tree = expression(0);
  const rest = peek();
  if (rest.kind !== "end") throw new FormulaError("syntax", `Unexpected token at ${rest.at}.`, rest.at);
  return tree;
}

/** The field keys a formula refers to, each once, in order of appearance. */
export function formulaKeys(node: FormulaNode): string[] {
  const keys: string[] = [];
  const walk = (n: FormulaNode) => {
    if (n.type === "field") {
      if (!keys.includes(n.key)) keys.push(n.key);
    } else if (n.type === "negate") walk(n.operand);
    else if (n.type === "binary") {
      walk(n.left);
      walk(n.right);
    }
  };
  walk(node);
  return keys;
}

/** What the checker needs to know of a field a formula may refer to. */
export type FormulaFieldInfo = { type: string; computed: boolean };

/**
 * Parses and checks a formula for saving: every `{{key}}` must be a field of `fields` of type
 * `number` that is not itself computed by a formula (so formulas never form cycles), and no
 * division may be by a constant sub-expression equal to zero (`1/0`, `{{a}}/(2-2)`). Throws
 * FormulaError; answers the tree and the keys it refers to.
 */
export function checkFormula(source: string, fields: ReadonlyMap<string, FormulaFieldInfo>): { tree: FormulaNode; keys: string[] } {
  const tree = parseFormula(source);
  const keys = formulaKeys(tree);
  for (const key of keys) {
    const field = fields.get(key);
    const at = Math.max(0, source.indexOf(key));
    if (!field) throw new FormulaError("unknown_field", `Unknown field {{${key}}}.`, at);
    if (field.type !== "number" || field.computed) throw new FormulaError("not_numeric", `The field {{${key}}} is not a numeric field.`, at);
  }
  const walk = (n: FormulaNode) => {
    if (n.type === "negate") walk(n.operand);
    else if (n.type === "binary") {
      walk(n.left);
      walk(n.right);
      if (n.op === "/" && formulaKeys(n.right).length === 0) {
        const divisor = evaluateFormula(n.right, new Map());
        if (divisor.ok && divisor.value === 0) throw new FormulaError("division_by_zero", "The formula divides by zero.", 0);
      }
    }
  };
  walk(tree);
  return { tree, keys };
}

/** The result of evaluating a formula for one contact. */
export type FormulaResult = { ok: true; value: number } | { ok: false; code: "missing_value" | "division_by_zero" | "not_finite"; key?: string };

/**
 * Evaluates a parsed formula with `values` (field key → number). A field without a value gives
 * `missing_value`; a division by zero at run time `division_by_zero`; an overflow `not_finite`.
 * Never throws.
 */
export function evaluateFormula(node: FormulaNode, values: ReadonlyMap<string, number>): FormulaResult {
  switch (node.type) {
    case "number":
      return { ok: true, value: node.value };
    case "field": {
      const value = values.get(node.key);
      return value === undefined || !Number.isFinite(value) ? { ok: false, code: "missing_value", key: node.key } : { ok: true, value };
    }
    case "negate": {
      const inner = evaluateFormula(node.operand, values);
      return inner.ok ? { ok: true, value: -inner.value } : inner;
    }
    case "binary": {
      const left = evaluateFormula(node.left, values);
      if (!left.ok) return left;
      const right = evaluateFormula(node.right, values);
      if (!right.ok) return right;
      let value: number;
      if (node.op === "+") value = left.value + right.value;
      else if (node.op === "-") value = left.value - right.value;
      else if (node.op === "*") value = left.value * right.value;
      else {
        if (right.value === 0) return { ok: false, code: "division_by_zero" };
        value = left.value / right.value;
      }
      return Number.isFinite(value) ? { ok: true, value } : { ok: false, code: "not_finite" };
    }
  }
}
