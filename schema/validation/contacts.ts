/**
 * Inputs of contacts, custom fields, tags, the CRM board and quick messages (spec §3 Contact, Custom
 * field, Tag, CRM column, Quick message; §5 validation rules). Pure zod and pure functions, shared by
 * the worker (request parsing, the .xlsx import) and the web (forms).
 *
 * Reason codes (the values of `error.fields` in a 400): `required`, `too_long`, `invalid_name`,
 * `invalid_phone`, `invalid_email`, `invalid_document`, `invalid_number`, `invalid_date`,
 * `invalid_datetime`, `invalid_color`, `invalid_key`, `reserved_key`, `invalid_id`, `too_many`,
 * `invalid_limit`, `invalid_cursor`, `duplicate_id`.
 */
import { z } from "zod";
import isTaxID from "validator/es/lib/isTaxID";
import { CUSTOM_FIELD_TYPES, type CustomFieldType } from "../enums";
import { MAX_FORMULA_LENGTH } from "../formula";
import { emailSchema, idSchema } from "./common";
import { phoneSchema } from "./phone";

/** A contact's name: 1 to 120 characters after trimming, with at least one letter or digit. */
export const contactNameSchema = z
  .string({ error: "required" })
  .trim()
  .min(1, { error: "required" })
  .max(120, { error: "too_long" })
  .regex(/[\p{L}\p{N}]/u, { error: "invalid_name" });

// ---------------------------------------------------------------------------------------------
// Documents (spec §5 "Document valid (CPF/CNPJ in Brazil, DNI/CUIT in Spanish)")
// ---------------------------------------------------------------------------------------------

/** The kinds of identity document accepted. */
export type DocumentKind = "cpf" | "cnpj" | "dni" | "nie" | "cuit";

/** Strips the usual punctuation (`.`, `-`, `/`, spaces) and upper-cases. */
export function compactDocument(raw: string): string {
  return raw.replace(/[\s.\-/]/g, "").toUpperCase();
}

/**
 * Which document `raw` is, with its check digits verified (validator.js `isTaxID`: pt-BR for CPF
 * and CNPJ, including the alphanumeric CNPJ; es-ES for DNI and NIE; es-AR for CUIT/CUIL), or null
 * when it is none of them. The strict shapes are checked here first because the library's own
 * patterns are looser (its es-AR pattern is unanchored; its es-ES pattern takes a lone letter).
 * An 11-digit number is tried as a CPF first, then as a CUIT.
 */
export function documentKind(raw: string): DocumentKind | null {
  const doc = compactDocument(raw);
  if (/^\d{11}$/.test(doc)) {
    if (isTaxID(doc, "pt-BR")) return "cpf";
    if (/^(20|23|24|27|30|33|34)\d{9}$/.test(doc) && isTaxID(doc, "es-AR")) return "cuit";
    return null;
  }
  if (/^[A-Z0-9]{12}\d{2}$/.test(doc)) return isTaxID(doc, "pt-BR") ? "cnpj" : null;
  if (/^\d{8}[A-Z]$/.test(doc)) return isTaxID(doc, "es-ES") ? "dni" : null;
  if (/^[XYZ]\d{7}[A-Z]$/.test(doc)) return isTaxID(doc, "es-ES") ? "nie" : null;
  return null;
}

/** A CPF, CNPJ, DNI, NIE or CUIT with valid check digits, stored compact (no punctuation). */
export const documentSchema = z
  .string({ error: "required" })
  .trim()
  .max(32, { error: "too_long" })
  .transform((value, ctx) => {
    if (!documentKind(value)) {
      ctx.addIssue({ code: "custom", message: "invalid_document" });
      return z.NEVER;
    }
    return compactDocument(value);
  });

// ---------------------------------------------------------------------------------------------
// Custom field values (issue 4 "Values are typed")
// ---------------------------------------------------------------------------------------------

/** A stored field value: text as the API shows it, plus the number filters compare. */
export type NormalizedValue = { value: string; valueNumber: number | null };

/** The result of normalising one raw value for a field type. */
export type NormalizeResult = ({ ok: true } & NormalizedValue) | { ok: false; reason: string };

/** Longest text value (characters). */
export const MAX_FIELD_TEXT = 1000;

const DAY_MS = 86_400_000;

function validDate(y: number, m: number, d: number): boolean {
  if (y < 1 || y > 9999 || m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** Offset of `timeZone` from UTC at instant `ms`, in ms (UTC+3 → +10_800_000). */
function zoneOffset(ms: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  }).formatToParts(new Date(ms));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? "0");
  const asUtc = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** The UTC instant of a wall-clock time in `timeZone`. */
function zonedToUtc(y: number, mo: number, d: number, h: number, mi: number, s: number, timeZone: string): number {
  const guess = Date.UTC(y, mo - 1, d, h, mi, s);
  const first = guess - zoneOffset(guess, timeZone);
  return guess - zoneOffset(first, timeZone);
}

/**
 * Normalises one raw value for a field of `type` (issue 4: a number field refuses 'abc'; dates are
 * stored as ISO dates, datetimes as ms UTC):
 * - text: trimmed, at most MAX_FIELD_TEXT characters;
 * - name: a contact name (contactNameSchema); email: a valid address, lower-cased; document: a
 *   valid CPF/CNPJ/DNI/NIE/CUIT, compact;
 * - number: `12`, `-3.5`, `3,5` (a comma as the decimal separator when there is no dot) →
 *   decimal text, `valueNumber` the number;
 * - date: `YYYY-MM-DD` or `DD/MM/YYYY` → `YYYY-MM-DD`, `valueNumber` days since 1970-01-01;
 * - datetime: ms since the epoch (number or digits), ISO 8601 with `Z` or an offset, or a wall-clock
 *   `YYYY-MM-DD[ T]HH:MM[:SS]` / `DD/MM/YYYY HH:MM[:SS]` read in `timeZone` (the company's) → ms UTC
 *   as decimal text, `valueNumber` the ms.
 * Failure reasons: `invalid_number`, `invalid_date`, `invalid_datetime`, `invalid_email`,
 * `invalid_document`, `invalid_name`, `too_long`, `required` (empty after trimming).
 */
export function normalizeFieldValue(type: CustomFieldType, raw: string | number, timeZone = "UTC"): NormalizeResult {
  if (typeof raw === "number") {
    if (!Number.isFinite(raw)) return { ok: false, reason: type === "datetime" ? "invalid_datetime" : "invalid_number" };
    if (type === "number") return { ok: true, value: String(raw), valueNumber: raw };
    if (type === "datetime") {
      if (!Number.isInteger(raw) || Math.abs(raw) > 8.64e15) return { ok: false, reason: "invalid_datetime" };
      return { ok: true, value: String(raw), valueNumber: raw };
    }
    raw = String(raw);
  }
  const text = raw.trim();
  if (!text) return { ok: false, reason: "required" };
  switch (type) {
    case "text":
      return text.length > MAX_FIELD_TEXT ? { ok: false, reason: "too_long" } : { ok: true, value: text, valueNumber: null };
    case "name": {
      const parsed = contactNameSchema.safeParse(text);
      return parsed.success ? { ok: true, value: parsed.data, valueNumber: null } : { ok: false, reason: parsed.error.issues[0]?.message ?? "invalid_name" };
    }
    case "email": {
      const parsed = emailSchema.safeParse(text);
      return parsed.success ? { ok: true, value: parsed.data, valueNumber: null } : { ok: false, reason: "invalid_email" };
    }
    case "document": {
      const parsed = documentSchema.safeParse(text);
      return parsed.success ? { ok: true, value: parsed.data, valueNumber: null } : { ok: false, reason: "invalid_document" };
    }
    case "number": {
      if (text.length > 40) return { ok: false, reason: "invalid_number" };
      const decimal = text.includes(".") ? text : text.replace(",", ".");
      if (!/^[+-]?(\d+(\.\d+)?|\.\d+)$/.test(decimal)) return { ok: false, reason: "invalid_number" };
      const n = Number(decimal);
      if (!Number.isFinite(n)) return { ok: false, reason: "invalid_number" };
      return { ok: true, value: String(n), valueNumber: n };
    }
    case "date": {
      const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
      const br = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
      const [y, m, d] = iso ? [Number(iso[1]), Number(iso[2]), Number(iso[3])] : br ? [Number(br[3]), Number(br[2]), Number(br[1])] : [0, 0, 0];
      if (!validDate(y, m, d)) return { ok: false, reason: "invalid_date" };
      return { ok: true, value: `${pad(y, 4)}-${pad(m)}-${pad(d)}`, valueNumber: Math.floor(Date.UTC(y, m - 1, d) / DAY_MS) };
    }
    case "datetime": {
      if (/^-?\d{1,16}$/.test(text)) return normalizeFieldValue("datetime", Number(text), timeZone);
      const wall =
        /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(text) ??
        /^(\d{1,2})\/(\d{1,2})\/(\d{4}) (\d{1,2}):(\d{2})(?::(\d{2}))?()$/.exec(text);
      if (!wall) return { ok: false, reason: "invalid_datetime" };
      const isIso = text[4] === "-";
      const y = Number(isIso ? wall[1] : wall[3]);
      const mo = Number(wall[2]);
      const d = Number(isIso ? wall[3] : wall[1]);
      const h = Number(wall[4]);
      const mi = Number(wall[5]);
      const s = Number(wall[6] ?? "0");
      if (!validDate(y, mo, d) || h > 23 || mi > 59 || s > 59) return { ok: false, reason: "invalid_datetime" };
      const zone = wall[7];
      let ms: number;
      if (zone) {
        ms = Date.parse(text.replace(" ", "T"));
      } else {
        try {
          ms = zonedToUtc(y, mo, d, h, mi, s, timeZone);
        } catch {
          return { ok: false, reason: "invalid_datetime" };
        }
      }
      if (!Number.isFinite(ms)) return { ok: false, reason: "invalid_datetime" };
      return { ok: true, value: String(ms), valueNumber: ms };
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Custom fields (spec §3 Custom field)
// ---------------------------------------------------------------------------------------------

/** A built-in field (kind `default`): read-only, computed from the contact and its conversation. */
export type BuiltInField = { key: string; name: string; type: CustomFieldType };

/** The built-ins every company has (spec §3), in display order; their id is `default:<key>`. */
export const BUILT_IN_FIELDS: readonly BuiltInField[] = [
  { key: "full_name", name: "Full name", type: "name" },
  { key: "first_name", name: "First name", type: "name" },
  { key: "last_name", name: "Last name", type: "name" },
  { key: "document", name: "Document", type: "document" },
  { key: "email", name: "Email", type: "email" },
  { key: "phone", name: "Phone", type: "text" },
  { key: "last_message", name: "Last message", type: "text" },
  { key: "last_media", name: "Last media", type: "text" },
  { key: "last_campaign", name: "Last campaign", type: "text" },
];

/** Keys no custom field may take (the built-ins'). */
export const RESERVED_FIELD_KEYS: ReadonlySet<string> = new Set(BUILT_IN_FIELDS.map((f) => f.key));

/** Most custom fields a company may have. */
export const MAX_CUSTOM_FIELDS = 200;

/** A variable key: a lower-case letter, then lower-case letters, digits or `_`; at most 40. */
export const fieldKeySchema = z
  .string({ error: "required" })
  .trim()
  .regex(/^[a-z][a-z0-9_]{0,39}$/, { error: "invalid_key" })
  .refine((key) => !RESERVED_FIELD_KEYS.has(key), { error: "reserved_key" });

/** A key made from a field's name: accents dropped, lower case, `_` between words ("Data de nascimento" → `data_de_nascimento`). */
export function keyFromName(name: string): string {
  const base = name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  const key = (/^[a-z]/.test(base) ? base : `f_${base}`).slice(0, 40).replace(/_+$/, "");
  return RESERVED_FIELD_KEYS.has(key) ? `${key}_2` : key || "field";
}

const fieldNameSchema = z.string({ error: "required" }).trim().min(1, { error: "required" }).max(60, { error: "too_long" });
const formulaSchema = z.string().trim().max(MAX_FORMULA_LENGTH, { error: "too_long" });
/** A bot field's value as sent; normalised by the field's type in the handler. */
const rawValueSchema = z.union([z.string().max(MAX_FIELD_TEXT, { error: "too_long" }), z.number()], { error: "invalid_value" });

/**
 * POST /api/custom-fields: `{name, key?, type, kind: user|bot, formula?, value?}`. `key` defaults to
 * one made from the name. A formula needs `type: number`; `value` is for bot fields only.
 */
export const customFieldInput = z.object({
  name: fieldNameSchema,
  key: fieldKeySchema.optional(),
  type: z.enum(CUSTOM_FIELD_TYPES, { error: "invalid_type" }),
  kind: z.enum(["user", "bot"], { error: "invalid_kind" }),
  formula: formulaSchema.nullable().optional(),
  value: rawValueSchema.nullable().optional(),
});
export type CustomFieldInput = z.infer<typeof customFieldInput>;

/**
 * PUT /api/custom-fields/{id}: `{name, key?, formula?, value?}`; `type` and `kind`, when sent, must
 * equal the field's (they cannot change once values exist: 400 `immutable`). `value: null` clears a
 * bot field's value; an absent key leaves it as it is.
 */
export const customFieldUpdate = customFieldInput.partial({ type: true, kind: true });
export type CustomFieldUpdate = z.infer<typeof customFieldUpdate>;

// ---------------------------------------------------------------------------------------------
// Tags, CRM columns, quick messages
// ---------------------------------------------------------------------------------------------

/** `#rrggbb`, stored lower-case. */
export const colorSchema = z
  .string({ error: "required" })
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, { error: "invalid_color" })
  .transform((v) => v.toLowerCase());

/** POST/PUT /api/tags: `{name, color}`. */
export const tagInput = z.object({
  name: z.string({ error: "required" }).trim().min(1, { error: "required" }).max(40, { error: "too_long" }),
  color: colorSchema,
});

/** POST/PUT /api/crm/columns: `{name, color?}`. */
export const crmColumnInput = z.object({
  name: z.string({ error: "required" }).trim().min(1, { error: "required" }).max(60, { error: "too_long" }),
  color: colorSchema.optional(),
});

/** Most CRM columns a company may have. */
export const MAX_CRM_COLUMNS = 50;

/** PUT /api/crm/columns/order: every column id of the company, in the new order. */
export const crmOrderInput = z.object({
  ids: z
    .array(idSchema, { error: "required" })
    .min(1, { error: "required" })
    .max(MAX_CRM_COLUMNS, { error: "too_many" })
    .refine((ids) => new Set(ids).size === ids.length, { error: "duplicate_id" }),
});

/**
 * PUT /api/crm/contacts/{contactId}: `{columnId: id | null, beforeId?, afterId?}`: the column to put
 * the contact on (null takes it off the board) and, optionally, the card it goes before or after
 * (at most one of them; neither: the end of the column).
 */
export const crmMoveInput = z
  .object({
    columnId: idSchema.nullable(),
    beforeId: idSchema.optional(),
    afterId: idSchema.optional(),
  })
  .refine((v) => !(v.beforeId && v.afterId), { error: "before_or_after", path: ["afterId"] })
  .refine((v) => v.columnId !== null || (!v.beforeId && !v.afterId), { error: "no_column", path: ["columnId"] });

/** Quick message fields (JSON, or the text fields of the multipart form). */
export const quickMessageInput = z.object({
  name: z.string({ error: "required" }).trim().min(1, { error: "required" }).max(60, { error: "too_long" }),
  text: z.string({ error: "required" }).trim().max(4096, { error: "too_long" }).default(""),
});

/** POST /api/quick-messages/{id}/render: the contact whose values fill the variables. */
export const renderInput = z.object({ contactId: idSchema });

// ---------------------------------------------------------------------------------------------
// Contacts (spec §3 Contact)
// ---------------------------------------------------------------------------------------------

/** Most tags and field values one contact write may carry. */
export const MAX_CONTACT_TAGS = 50;
export const MAX_CONTACT_FIELDS = 100;

const nullableText = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? null : v), schema.nullable());

const tagIdsSchema = z
  .array(idSchema, { error: "invalid_tags" })
  .max(MAX_CONTACT_TAGS, { error: "too_many" })
  .transform((ids) => [...new Set(ids)]);

/** Field values by field id; `null` (or "") clears a value. Normalised per type in the handler. */
const fieldValuesSchema = z
  .record(idSchema, z.union([z.string().max(MAX_FIELD_TEXT, { error: "too_long" }), z.number(), z.null()], { error: "invalid_value" }), { error: "invalid_fields" })
  .refine((r) => Object.keys(r).length <= MAX_CONTACT_FIELDS, { error: "too_many" });

/**
 * POST /api/contacts: `{name, phone, email?, document?, tags?: tagId[], fields?: {fieldId: value}}`.
 * The phone is normalised to E.164 (Brazil when no `+`); email and document may be null or "".
 */
export const contactInput = z.object({
  name: contactNameSchema,
  phone: phoneSchema,
  email: nullableText(emailSchema).optional(),
  document: nullableText(documentSchema).optional(),
  tags: tagIdsSchema.optional(),
  fields: fieldValuesSchema.optional(),
});
export type ContactInput = z.infer<typeof contactInput>;

/**
 * PUT /api/contacts/{id}: the same fields, each optional: an absent key leaves the value as it is;
 * `email: null` / `document: null` clear; `tags` replaces the contact's tags; `fields` sets the named
 * fields only (null clears one).
 */
export const contactUpdate = contactInput.partial();
export type ContactUpdate = z.infer<typeof contactUpdate>;

/** Longest search input (characters); the UTF-8 byte bound below is what D1 enforces. */
export const MAX_SEARCH_CHARS = 40;

/**
 * Search text: at most 40 characters and, once `%`, `_` and `\` are escaped and wrapped in `%…%`,
 * within D1's 50-byte LIKE pattern limit (counted in UTF-8 bytes: 'ç' is 2, an emoji 4).
 */
export const searchSchema = z
  .string()
  .trim()
  .max(MAX_SEARCH_CHARS, { error: "too_long" })
  .refine((v) => new TextEncoder().encode(v.replace(/[%_\\]/g, "\\$&")).length <= 48, { error: "too_long" });

/** Most field filters and tags one list query may combine. */
export const MAX_FIELD_FILTERS = 5;
export const MAX_TAG_FILTERS = 20;

/** A contact filter: what the list, the bulk actions and the export share. */
export const contactFilterSchema = z.object({
  search: searchSchema.optional(),
  /** Contacts having ANY of these tags. */
  tags: z.array(idSchema).max(MAX_TAG_FILTERS, { error: "too_many" }).optional(),
  /** Contacts whose value of field `fieldId` equals `value` (normalised by the field's type). */
  fields: z
    .array(z.object({ fieldId: idSchema, value: z.string().trim().min(1, { error: "required" }).max(200, { error: "too_long" }) }))
    .max(MAX_FIELD_FILTERS, { error: "too_many" })
    .optional(),
});
export type ContactFilter = z.infer<typeof contactFilterSchema>;

/**
 * GET /api/contacts?search=&tags=<id,id>&field.<fieldId>=<value>&cursor=&limit= (limit 1..100,
 * default 30). Other query keys are ignored. Answers the filter plus cursor and limit.
 */
export const contactListQuery = z
  .object({
    search: searchSchema.optional(),
    tags: z.string().max(20 * 37).optional(),
    cursor: z.string().max(200).optional(),
    limit: z.coerce.number({ error: "invalid_limit" }).int({ error: "invalid_limit" }).min(1, { error: "invalid_limit" }).max(100, { error: "invalid_limit" }).default(30),
  })
  .catchall(z.string().max(200, { error: "too_long" }))
  .transform((q, ctx) => {
    const tags = q.tags ? [...new Set(q.tags.split(",").map((t) => t.trim()).filter(Boolean))] : undefined;
    for (const id of tags ?? []) {
      if (!idSchema.safeParse(id).success) ctx.addIssue({ code: "custom", message: "invalid_id", path: ["tags"] });
    }
    if (tags && tags.length > MAX_TAG_FILTERS) ctx.addIssue({ code: "custom", message: "too_many", path: ["tags"] });
    const fields: { fieldId: string; value: string }[] = [];
    for (const [name, value] of Object.entries(q)) {
      if (!name.startsWith("field.") || typeof value !== "string") continue;
      const fieldId = name.slice("field.".length);
      if (!idSchema.safeParse(fieldId).success) ctx.addIssue({ code: "custom", message: "invalid_id", path: [name] });
      else if (value.trim()) fields.push({ fieldId, value: value.trim() });
    }
    if (fields.length > MAX_FIELD_FILTERS) ctx.addIssue({ code: "custom", message: "too_many", path: ["field"] });
    const filter: ContactFilter = { search: q.search || undefined, tags, fields };
    return { filter, cursor: q.cursor, limit: q.limit };
  });

/** Most ids one bulk call may name. */
export const MAX_BULK_IDS = 1000;

/**
 * POST /api/contacts/bulk: `{ids | filter, action: tag|untag|delete, tagIds?}` (exactly one of
 * `ids` and `filter`; `tagIds` required for tag and untag).
 */
export const contactBulkInput = z
  .object({
    ids: z
      .array(idSchema)
      .min(1, { error: "required" })
      .max(MAX_BULK_IDS, { error: "too_many" })
      .transform((ids) => [...new Set(ids)])
      .optional(),
    filter: contactFilterSchema.optional(),
    action: z.enum(["tag", "untag", "delete"], { error: "invalid_action" }),
    tagIds: z
      .array(idSchema)
      .min(1, { error: "required" })
      .max(MAX_CONTACT_TAGS, { error: "too_many" })
      .transform((ids) => [...new Set(ids)])
      .optional(),
  })
  .refine((v) => (v.ids === undefined) !== (v.filter === undefined), { error: "ids_or_filter", path: ["ids"] })
  .refine((v) => v.action === "delete" || v.tagIds !== undefined, { error: "required", path: ["tagIds"] });
export type ContactBulkInput = z.infer<typeof contactBulkInput>;

/** GET /api/tags and GET /api/quick-messages: `?search=&cursor=&limit=` (limit 1..200, default 100). */
export const namedListQuery = z.object({
  search: searchSchema.optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number({ error: "invalid_limit" }).int({ error: "invalid_limit" }).min(1, { error: "invalid_limit" }).max(200, { error: "invalid_limit" }).default(100),
});

/** GET /api/crm/board?limit= and GET /api/crm/columns/{id}/contacts?cursor=&limit= (1..100, default 20). */
export const crmPageQuery = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number({ error: "invalid_limit" }).int({ error: "invalid_limit" }).min(1, { error: "invalid_limit" }).max(100, { error: "invalid_limit" }).default(20),
});
