/**
 * Custom fields (spec §2 Registers, §3 Custom field, §5 "Custom formula allows numbers, numeric
 * fields and the operators + - * /"; issue 4). Permission `custom_fields` to manage; reading the list
 * also with `contacts`, `contacts_custom_fields` or `flow` (the contact screens and the flow editor
 * show the fields). Names and keys are unique in the company (409 `name_in_use` 'This name is
 * already in use.', naming `name` or `key`).
 *
 * - GET /api/custom-fields → `{results: CustomFieldAnswer[], cursor: null, total}`: the read-only
 *   built-ins first (kind `default`, id `default:<key>`), then the company's fields by name.
 * - POST /api/custom-fields CustomFieldInput → 201 CustomFieldAnswer.
 * - GET /api/custom-fields/{id} → CustomFieldAnswer.
 * - PUT /api/custom-fields/{id} CustomFieldUpdate → CustomFieldAnswer (a bot field's `value` is set
 *   here).
 * - DELETE /api/custom-fields/{id} → 204 with every contact's value of it; 409 `conflict` while a
 *   formula refers to it.
 *
 * Formulas (schema/formula.ts, `{{key}}` for fields) are checked at save: 400 `formula: <code>` for
 * `syntax`, `unknown_field`, `not_numeric`, `division_by_zero`, `too_deep`, `too_long`, `empty`,
 * `invalid_number`; a formula needs `type: number` (400 `formula: needs_number_type`). A formula
 * field's value is computed per contact (read-only).
 */
import { Hono } from "hono";
import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { contactFieldValues, customFields, type CustomFieldRow } from "../../schema";
import type { CustomFieldAnswer } from "../../schema/api-types";
import type { CustomFieldKind, CustomFieldType } from "../../schema/custom-fields";
import { checkFormula, formulaKeys, FormulaError, parseFormula, type FormulaFieldInfo } from "../../schema/formula";
import { idSchema } from "../../schema/validation/common";
import { BUILT_IN_FIELDS, customFieldInput, customFieldUpdate, keyFromName, MAX_CUSTOM_FIELDS, normalizeFieldValue } from "../../schema/validation/contacts";
import type { HonoEnv } from "../middleware/context";
import { requireCompany, requirePermission, requireSubscription, requireUser } from "../middleware/auth";
import { companyTimeZone } from "../lib/contacts";
import type { Db } from "../lib/db";
import { isUniqueViolation, now } from "../lib/db";
import { AppError, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { zv } from "../lib/validate";

const idParam = z.object({ id: idSchema });

const invalid = (field: string, reason: string, message = `Invalid input: ${field}.`) => new AppError("validation_failed", message, { [field]: reason });

function present(row: CustomFieldRow): CustomFieldAnswer {
  return { id: row.id, name: row.name, key: row.key, type: row.type, kind: row.kind, formula: row.formula, value: row.value, readOnly: false, createdAt: row.createdAt };
}

const BUILT_IN_ANSWERS: CustomFieldAnswer[] = BUILT_IN_FIELDS.map((f) => ({
  id: `default:${f.key}`,
  name: f.name,
  key: f.key,
  type: f.type,
  kind: "default",
  formula: null,
  value: null,
  readOnly: true,
  createdAt: null,
}));

async function findField(db: Db, companyId: string, id: string): Promise<CustomFieldRow> {
  const row = await db.query.customFields.findFirst({ where: and(eq(customFields.id, id), eq(customFields.companyId, companyId)) });
  if (!row) throw notFound("Custom field");
  return row;
}

/** Keys of the fields whose formula refers to `key`. */
function formulasUsing(all: CustomFieldRow[], key: string): CustomFieldRow[] {
  return all.filter((f) => {
    if (!f.formula) return false;
    try {
      return formulaKeys(parseFormula(f.formula)).includes(key);
    } catch {
      return false;
    }
  });
}

/** The checked, normalised parts of a create or update. */
function checkDefinition(
  all: CustomFieldRow[],
  self: { id?: string; name: string; key: string; type: CustomFieldType; kind: Exclude<CustomFieldKind, "default">; formula: string | null },
): void {
  const others = all.filter((f) => f.id !== self.id);
  if (others.some((f) => f.name.toLocaleLowerCase() === self.name.toLocaleLowerCase())) {
    throw new AppError("name_in_use", "This name is already in use.", { name: "name_in_use" });
  }
  if (others.some((f) => f.key === self.key)) throw new AppError("name_in_use", "This name is already in use.", { key: "name_in_use" });
  if (self.formula) {
    if (self.type !== "number") throw invalid("formula", "needs_number_type", "A formula field must be of type number.");
    const infos = new Map<string, FormulaFieldInfo>(others.map((f) => [f.key, { type: f.type, computed: f.formula !== null }]));
    try {
      checkFormula(self.formula, infos);
    } catch (error) {
      if (error instanceof FormulaError) throw invalid("formula", error.code, `Invalid formula: ${error.message}`);
      throw error;
    }
    if (self.id && formulasUsing(others, self.key).length) throw invalid("formula", "referenced_by_formula", "Another formula uses this field, so it cannot be computed itself.");
  }
}

/** A unique key made from the name (`name`, `name_2`, …). */
function freeKey(all: CustomFieldRow[], name: string): string {
  const base = keyFromName(name);
  const taken = new Set(all.map((f) => f.key));
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) {
    const key = `${base.slice(0, 36)}_${i}`;
    if (!taken.has(key)) return key;
  }
}

export const customFieldsRoutes = new Hono<HonoEnv>()
  .use(requireUser, requireCompany, requireSubscription)
  /** GET /api/custom-fields → {results, cursor: null, total}. */
  .get("/", requirePermission("custom_fields", "contacts", "contacts_custom_fields", "flow"), async (c) => {
    const rows = await c.var.db.select().from(customFields).where(eq(customFields.companyId, c.var.company.id)).orderBy(asc(customFields.name));
    const results = [...BUILT_IN_ANSWERS, ...rows.map(present)];
    return c.json({ results, cursor: null, total: results.length });
  })
  /** GET /api/custom-fields/{id} → CustomFieldAnswer. */
  .get("/:id", requirePermission("custom_fields", "contacts", "contacts_custom_fields", "flow"), zv("param", idParam), async (c) =>
    c.json(present(await findField(c.var.db, c.var.company.id, c.req.valid("param").id))),
  )
  .use(requirePermission("custom_fields"))
  /** POST /api/custom-fields → 201 CustomFieldAnswer; 409 `conflict` beyond 200 fields. */
  .post("/", zv("json", customFieldInput), async (c) => {
    const input = c.req.valid("json");
    const db = c.var.db;
    const companyId = c.var.company.id;
    const all = await db.select().from(customFields).where(eq(customFields.companyId, companyId));
    if (all.length >= MAX_CUSTOM_FIELDS) throw new AppError("conflict", `A company has at most ${MAX_CUSTOM_FIELDS} custom fields.`);
    const formula = input.formula?.trim() || null;
    const key = input.key ?? freeKey(all, input.name);
    checkDefinition(all, { name: input.name, key, type: input.type, kind: input.kind, formula });
    const value = await botValue(db, companyId, input.kind, input.type, formula, input.value);
    const at = now();
    const row: CustomFieldRow = { id: newId(), companyId, name: input.name, key, type: input.type, kind: input.kind, formula, value: value ?? null, createdAt: at, updatedAt: at };
    try {
      await db.insert(customFields).values(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError("name_in_use", "This name is already in use.", { name: "name_in_use" });
      throw error;
    }
    return c.json(present(row), 201);
  })
  /** PUT /api/custom-fields/{id} → CustomFieldAnswer. */
  .put("/:id", zv("param", idParam), zv("json", customFieldUpdate), async (c) => {
    const input = c.req.valid("json");
    const db = c.var.db;
    const companyId = c.var.company.id;
    const field = await findField(db, companyId, c.req.valid("param").id);
    if (input.type !== undefined && input.type !== field.type) throw invalid("type", "immutable", "A field's type cannot change.");
    if (input.kind !== undefined && input.kind !== field.kind) throw invalid("kind", "immutable", "A field's kind cannot change.");
    const all = await db.select().from(customFields).where(eq(customFields.companyId, companyId));
    const formula = input.formula === undefined ? field.formula : input.formula?.trim() || null;
    const key = input.key ?? field.key;
    if (key !== field.key && formulasUsing(all, field.key).length) {
      throw new AppError("conflict", "A formula uses this field's key; change that formula first.", { key: "in_use_by_formula" });
    }
    checkDefinition(all, { id: field.id, name: input.name, key, type: field.type, kind: field.kind, formula });
    const value = input.value === undefined ? (formula ? null : field.value) : await botValue(db, companyId, field.kind, field.type, formula, input.value);
    try {
      const [updated] = await db
        .update(customFields)
        .set({ name: input.name, key, formula, value: value ?? null, updatedAt: now() })
        .where(and(eq(customFields.id, field.id), eq(customFields.companyId, companyId)))
        .returning();
      return c.json(present(updated ?? field));
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError("name_in_use", "This name is already in use.", { name: "name_in_use" });
      throw error;
    }
  })
  /** DELETE /api/custom-fields/{id} → 204; 409 while a formula uses it. */
  .delete("/:id", zv("param", idParam), async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const field = await findField(db, companyId, c.req.valid("param").id);
    const all = await db.select().from(customFields).where(eq(customFields.companyId, companyId));
    const users = formulasUsing(all, field.key).filter((f) => f.id !== field.id);
    if (users.length) throw new AppError("conflict", `The formula of "${users[0]?.name}" uses this field.`, { id: "in_use_by_formula" });
    await db.batch([
      db.delete(contactFieldValues).where(and(eq(contactFieldValues.companyId, companyId), eq(contactFieldValues.fieldId, field.id))),
      db.delete(customFields).where(and(eq(customFields.id, field.id), eq(customFields.companyId, companyId))),
    ]);
    return c.body(null, 204);
  });

/**
 * A bot field's normalised value (null clears; undefined: none given). 400 `value: not_bot_field`
 * for a user field, `value: read_only` for a formula field, or the type's reason.
 */
async function botValue(
  db: Db,
  companyId: string,
  kind: Exclude<CustomFieldKind, "default">,
  type: CustomFieldType,
  formula: string | null,
  raw: string | number | null | undefined,
): Promise<string | null | undefined> {
  if (raw === undefined || raw === null || (typeof raw === "string" && !raw.trim())) return raw === undefined ? undefined : null;
  if (kind !== "bot") throw invalid("value", "not_bot_field", "Only a bot field has a company-wide value.");
  if (formula) throw invalid("value", "read_only", "A formula field's value is computed.");
  const normal = normalizeFieldValue(type, raw, await companyTimeZone(db, companyId));
  if (!normal.ok) throw invalid("value", normal.reason);
  return normal.value;
}

