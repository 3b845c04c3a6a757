/**
 * Live checking of a custom field's formula in the editor (spec §5 "Custom formula allows numbers,
 * numeric fields and the operators + - * /"), with the same parser and rules the worker applies at
 * save time (schema/formula.ts `checkFormula`): only the company's own fields of type number that
 * are not computed themselves may be referred to, as `{{key}}`.
 */
import { checkFormula, FormulaError, type FormulaErrorCode, type FormulaFieldInfo } from "../../../../../schema/formula";
import type { CustomFieldAnswer } from "../../../../../schema/api-types";

/** The outcome of checking a formula: fine (with the keys it uses), or the parser's error and where. */
export type FormulaCheck = { ok: true; keys: string[] } | { ok: false; code: FormulaErrorCode; position: number };

/**
 * The fields a formula of the field `selfId` (null for a new field) may refer to: the company's own
 * fields (never the built-ins), without the field itself, each with its type and whether it is
 * computed.
 */
export function formulaFields(fields: readonly CustomFieldAnswer[], selfId: string | null): Map<string, FormulaFieldInfo> {
  const map = new Map<string, FormulaFieldInfo>();
  for (const field of fields) {
    if (field.kind === "default" || field.id === selfId) continue;
    map.set(field.key, { type: field.type, computed: field.formula !== null });
  }
  return map;
}

/** Checks `source` against `fields`; never throws. */
export function checkFormulaSource(source: string, fields: ReadonlyMap<string, FormulaFieldInfo>): FormulaCheck {
  try {
    return { ok: true, keys: checkFormula(source, fields).keys };
  } catch (error) {
    if (error instanceof FormulaError) return { ok: false, code: error.code, position: error.position };
    return { ok: false, code: "syntax", position: 0 };
  }
}

/** The keys a formula can use, for the editor's list of insertable variables. */
export function numericKeys(fields: ReadonlyMap<string, FormulaFieldInfo>): string[] {
  return [...fields].filter(([, info]) => info.type === "number" && !info.computed).map(([key]) => key);
}
