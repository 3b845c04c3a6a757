/**
 * Contacts' data layer, shared by the routes (/api/contacts, /api/crm, /api/quick-messages), the
 * inbound pipeline (ContactSession) and the .xlsx import job: the maintained contact counter, the
 * list filter as SQL, answers with tags and field values, computed field values (built-ins and
 * formulas), deletes, and `upsertContactsByPhone`.
 *
 * Every function takes the company id and filters on it (STYLE habit 2). Statements bind at most
 * 100 parameters (D1, platform-limits A1): id lists are chunked.
 */
import { and, count, desc, eq, inArray, is, isNotNull, isNull, SQL, sql, type SQLWrapper } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import {
  companies,
  connections,
  contactFieldValues,
  contactIdentities,
  contacts,
  contactTags,
  counters,
  customFields,
  instagramCommentActions,
  instagramProfiles,
  messages,
  tags,
  tickets,
  type ContactRow,
  type CustomFieldRow,
} from "../../schema";
import type { ContactAnswer, ContactFieldValueAnswer, ContactTicketAnswer } from "../../schema/api-types";
import { evaluateFormula, parseFormula, type FormulaNode } from "../../schema/formula";
import { emailSchema } from "../../schema/validation/common";
import { phoneSchema } from "../../schema/validation/phone";
import {
  BUILT_IN_FIELDS,
  contactNameSchema,
  documentSchema,
  MAX_CONTACT_TAGS,
  normalizeFieldValue,
  type ContactFilter,
  type ContactInput,
  type ContactUpdate,
  type NormalizedValue,
} from "../../schema/validation/contacts";
import type { AppEnv } from "../env";
import { span } from "./bench-trace";
import { chunk } from "./cursor";
import { contactsAddedStatement, dayCountsStatement, localDay } from "./dashboard";
import type { Db } from "./db";
import { isUniqueViolation } from "./db";
import { AppError, forbidden } from "./errors";
import { publishCard } from "./crm";
import { emitEvent } from "./event-subscriptions";
import { newId } from "./ids";
import { signedMediaUrl } from "./media";
import { fileUrl } from "./present";
import { lastCampaignOf } from "./broadcasts";
import { FEW_MATCHES, isPhoneLike, matchCountQuery, searchCondition, searchMatch, searchPlan } from "./contact-search";

export { normalizeFieldValue, type NormalizedValue } from "../../schema/validation/contacts";

/** Name of the contact counter in `counters`. */
export const CONTACTS_COUNTER = "contacts";

/** Cap of a filtered count: beyond it `total` is this number and `totalCapped` is true. */
export const FILTERED_COUNT_CAP = 10_000;

/** A statement for `runBatch`: a drizzle query builder or raw SQL. */
export type Statement = { toSQL(): { sql: string; params: unknown[] } } | SQL;

const dialect = new SQLiteAsyncDialect();

/**
 * Runs statements as one D1 batch (one transaction); nothing when the list is empty. Statements
 * are rendered by drizzle and sent through the D1 binding, because drizzle's own `batch` cannot
 * take raw `db.run(sql)` statements (they have no prepared D1 statement).
 */
export async function runBatch(db: Db, statements: Statement[]): Promise<void> {
  const prepared = d1Statements(db, statements);
  if (prepared.length) await db.$client.batch(prepared);
}

/**
 * `statements` as bound D1 statements, as `runBatch` runs them, for a caller's own batch (issue 16:
 * a new contact's writes and the reads of its first flow context in one round trip).
 */
export function d1Statements(db: Db, statements: Statement[]): D1PreparedStatement[] {
  return statements.map((s) => {
    const query = is(s, SQL) ? dialect.sqlToQuery(s) : s.toSQL();
    return db.$client.prepare(query.sql).bind(...query.params);
  });
}

// ---------------------------------------------------------------------------------------------
// The maintained contact counter (issue 4: "a maintained count, not COUNT(*) per request")
// ---------------------------------------------------------------------------------------------

/**
 * A statement adding `delta` (SQL, evaluated inside the same batch) to the company's contact count.
 * An UPDATE only: before the counter row exists it does nothing, and `contactCount` then creates the
 * row from a real count, so contacts created before the counter existed are counted exactly once.
 */
export function adjustContactCount(db: Db, companyId: string, delta: SQL | number) {
  return db
    .update(counters)
    .set({ value: sql`${counters.value} + (${delta})` })
    .where(and(eq(counters.companyId, companyId), eq(counters.name, CONTACTS_COUNTER)));
}

/** SQL counting which of `ids` are contacts of the company (for counter deltas inside a batch). */
/**
 * `company_id = ?` written so SQLite does not use the company index for it: D1 keeps no table
 * statistics, so for `company_id = ? AND key IN (…)` the planner picks the company index and walks
 * every row of the company instead of looking the keys up by primary key (EXPLAIN QUERY PLAN; at
 * 1,000,000 contacts a list page took 2 s). The unary `+` keeps the filter and drops the index.
 */
function sameCompany(column: SQLWrapper, companyId: string): SQL {
  return sql`+${column} = ${companyId}`;
}

function existingAmong(companyId: string, ids: string[]): SQL {
  return sql`(SELECT count(*) FROM ${contacts} WHERE ${sameCompany(contacts.companyId, companyId)} AND ${inArray(contacts.id, ids)})`;
}

/** The company's contact count, from the counter (created from one real count the first time). */
export async function contactCount(db: Db, companyId: string): Promise<number> {
  const row = await db.query.counters.findFirst({ where: and(eq(counters.companyId, companyId), eq(counters.name, CONTACTS_COUNTER)) });
  if (row) return row.value;
  // One statement: the count and the insert see the same snapshot, so no concurrent change is lost.
  await db.run(
    sql`INSERT INTO ${counters} (company_id, name, value) SELECT ${companyId}, ${CONTACTS_COUNTER}, count(*) FROM ${contacts} WHERE ${contacts.companyId} = ${companyId} ON CONFLICT DO NOTHING`,
  );
  const created = await db.query.counters.findFirst({ where: and(eq(counters.companyId, companyId), eq(counters.name, CONTACTS_COUNTER)) });
  return created?.value ?? 0;
}

// ---------------------------------------------------------------------------------------------
// Custom fields of a company
// ---------------------------------------------------------------------------------------------

/** The company's custom fields, by id. */
export async function loadFields(db: Db, companyId: string): Promise<Map<string, CustomFieldRow>> {
  return fieldsById(await db.select().from(customFields).where(eq(customFields.companyId, companyId)));
}

/** Custom field rows by id, as `loadFields` answers them. */
function fieldsById(rows: CustomFieldRow[]): Map<string, CustomFieldRow> {
  return new Map(rows.map((f) => [f.id, f]));
}

/** The read of the company's time zone, not yet run (`companyTimeZone`, or a caller's D1 batch). */
function timeZoneQuery(db: Db, companyId: string) {
  return db.select({ timezone: companies.timezone }).from(companies).where(eq(companies.id, companyId)).limit(1);
}

/** The company's time zone (for wall-clock datetimes), UTC when unknown. */
export async function companyTimeZone(db: Db, companyId: string): Promise<string> {
  return (await timeZoneQuery(db, companyId))[0]?.timezone ?? "UTC";
}

/**
 * Normalises `{fieldId: value}` of a contact write against the company's fields. Answers the values
 * to set and the field ids to clear, or the reasons by `fields.<id>` (unknown_field, read_only for
 * bot and formula fields, or the type's reason such as invalid_number).
 */
export function normalizeContactFields(
  fields: Map<string, CustomFieldRow>,
  input: Record<string, string | number | null>,
  timeZone: string,
): { set: { fieldId: string; value: NormalizedValue }[]; clear: string[]; errors: Record<string, string> } {
  const set: { fieldId: string; value: NormalizedValue }[] = [];
  const clear: string[] = [];
  const errors: Record<string, string> = {};
  for (const [fieldId, raw] of Object.entries(input)) {
    const field = fields.get(fieldId);
    if (!field) {
      errors[`fields.${fieldId}`] = "unknown_field";
      continue;
    }
    if (field.kind !== "user" || field.formula) {
      errors[`fields.${fieldId}`] = "read_only";
      continue;
    }
    if (raw === null || (typeof raw === "string" && raw.trim() === "")) {
      clear.push(fieldId);
      continue;
    }
    const result = normalizeFieldValue(field.type, raw, timeZone);
    if (result.ok) set.push({ fieldId, value: { value: result.value, valueNumber: result.valueNumber } });
    else errors[`fields.${fieldId}`] = result.reason;
  }
  return { set, clear, errors };
}

/** Statements writing a contact's field values (upsert) and clearing others. */
export function fieldValueStatements(db: Db, companyId: string, contactId: string, set: { fieldId: string; value: NormalizedValue }[], clear: string[], at: number) {
  const statements: Statement[] = [];
  for (const part of chunk(set, 15)) {
    statements.push(
      db
        .insert(contactFieldValues)
        .values(part.map((v) => ({ companyId, contactId, fieldId: v.fieldId, value: v.value.value, valueNumber: v.value.valueNumber, updatedAt: at })))
        .onConflictDoUpdate({
          target: [contactFieldValues.contactId, contactFieldValues.fieldId],
          set: { value: sql`excluded.value`, valueNumber: sql`excluded.value_number`, updatedAt: sql`excluded.updated_at` },
        }),
    );
  }
  for (const part of chunk(clear, 90)) {
    statements.push(
      db
        .delete(contactFieldValues)
        .where(and(eq(contactFieldValues.companyId, companyId), eq(contactFieldValues.contactId, contactId), inArray(contactFieldValues.fieldId, part))),
    );
  }
  return statements;
}

// ---------------------------------------------------------------------------------------------
// The list filter
// ---------------------------------------------------------------------------------------------

/** A filter checked against the company: its field values normalised. */
export type ResolvedFilter = {
  search?: string;
  /** How the search index answers `search` (worker/lib/contact-search.ts `searchPlan`); absent: the LIKE scan. */
  searchPlan?: "few" | "many";
  tags: string[];
  fields: { fieldId: string; value: string }[];
};

/**
 * Checks a filter's tags and fields belong to the company and normalises each field value by its
 * field's type (a number filter `1,50` matches the stored `1.5`). 400 naming `tags` or
 * `field.<id>` otherwise.
 */
export async function resolveFilter(
  db: Db,
  companyId: string,
  filter: ContactFilter,
  fieldKey = (id: string) => `field.${id}`,
  /** false: the caller picks the search plan itself (`contactListPage`, in its own batch). */
  planSearch = true,
): Promise<ResolvedFilter> {
  const errors: Record<string, string> = {};
  const tagIds = filter.tags ?? [];
  if (tagIds.length) {
    const found = await db.select({ id: tags.id }).from(tags).where(and(eq(tags.companyId, companyId), inArray(tags.id, tagIds)));
    if (found.length !== tagIds.length) errors.tags = "invalid_id";
  }
  const fields: { fieldId: string; value: string }[] = [];
  if (filter.fields?.length) {
    const defs = await loadFields(db, companyId);
    const timeZone = await companyTimeZone(db, companyId);
    for (const f of filter.fields) {
      const def = defs.get(f.fieldId);
      if (!def || def.kind !== "user" || def.formula) {
        errors[fieldKey(f.fieldId)] = "unknown_field";
        continue;
      }
      const normal = normalizeFieldValue(def.type, f.value, timeZone);
      if (!normal.ok) errors[fieldKey(f.fieldId)] = normal.reason;
      else fields.push({ fieldId: f.fieldId, value: normal.value });
    }
  }
  if (Object.keys(errors).length) throw new AppError("validation_failed", `Invalid input: ${Object.keys(errors).join(", ")}.`, errors);
  const plan = filter.search && planSearch ? await searchPlan(db, filter.search) : null;
  return { search: filter.search, ...(plan ? { searchPlan: plan } : {}), tags: tagIds, fields };
}

/** `%text%` with LIKE's wildcards and the escape character escaped (used with ESCAPE '\'). */
export function likePattern(text: string): string {
  return `%${text.replace(/[%_\\]/g, (m) => `\\${m}`)}%`;
}

/**
 * The WHERE clause of a filter on `contacts`: the company; search in name, e-mail and (when the
 * search looks like a phone number: digits, spaces, `+()-.`) the phone's digits; ANY of the tags;
 * every field equal. A search of 3+ characters goes through the trigram index (accent-insensitive,
 * worker/lib/contact-search.ts); shorter ones keep the LIKE scan.
 */
export function filterWhere(companyId: string, filter: ResolvedFilter): SQL {
  const indexed = filter.search && filter.searchPlan ? searchCondition(companyId, filter.search, filter.searchPlan) : null;
  // The indexed search carries the company term itself (written for the plan it wants).
  const parts: (SQL | undefined)[] = [indexed ?? eq(contacts.companyId, companyId)];
  if (!indexed && filter.search) {
    const pattern = likePattern(filter.search);
    const alternatives: SQL[] = [sql`${contacts.name} LIKE ${pattern} ESCAPE '\\'`, sql`${contacts.email} LIKE ${pattern} ESCAPE '\\'`];
    const digits = filter.search.replace(/\D/g, "");
    if (digits && isPhoneLike(filter.search)) alternatives.push(sql`${contacts.phone} LIKE ${`%${digits}%`}`);
    parts.push(sql`(${sql.join(alternatives, sql` OR `)})`);
  }
  if (filter.tags.length) {
    parts.push(
      sql`${contacts.id} IN (SELECT ${contactTags.contactId} FROM ${contactTags} WHERE ${contactTags.companyId} = ${companyId} AND ${inArray(contactTags.tagId, filter.tags)})`,
    );
  }
  for (const f of filter.fields) {
    parts.push(
      sql`EXISTS (SELECT 1 FROM ${contactFieldValues} WHERE ${contactFieldValues.companyId} = ${companyId} AND ${contactFieldValues.fieldId} = ${f.fieldId} AND ${contactFieldValues.value} = ${f.value} AND ${contactFieldValues.contactId} = ${contacts.id})`,
    );
  }
  return and(...parts) ?? eq(contacts.companyId, companyId);
}

/** Whether a filter narrows anything (an unfiltered list reads its total from the counter). */
export function isFiltered(filter: ResolvedFilter): boolean {
  return Boolean(filter.search) || filter.tags.length > 0 || filter.fields.length > 0;
}

/** Cap of a search's count (its index plan reads at most FEW_MATCHES matches): past it `totalCapped`. */
export const SEARCH_COUNT_CAP = FEW_MATCHES;

/** The capped count of a filter as a statement (for a batch): at most `cap` + 1 rows are read. */
function cappedCountQuery(db: Db, where: SQL, cap: number) {
  return db.select({ n: count() }).from(db.select({ one: sql`1` }).from(contacts).where(where).limit(cap + 1).as("matching"));
}

/** A keyset page of contacts matching `where`, newest first (created_at, id), as a statement. */
function pageQuery(db: Db, where: SQL, after: [number, string] | null, limit: number) {
  return db
    .select()
    .from(contacts)
    .where(after ? and(where, sql`(${contacts.createdAt}, ${contacts.id}) < (${after[0]}, ${after[1]})`) : where)
    .orderBy(desc(contacts.createdAt), desc(contacts.id))
    .limit(limit);
}

/**
 * One page of GET /api/contacts (newest first, keyset after `after`, at most `limit` rows) and its
 * total, in as few D1 round trips as the filter allows (issue 16):
 * - unfiltered: the page and the maintained counter in one batch (`contactCount` only when the
 *   counter row does not exist yet);
 * - a search the trigram index answers: one batch holding the index's match count (stopped at
 *   FEW_MATCHES + 1), the page and the count read from the index's rows (`few`; the same snapshot,
 *   so when the count says few the page is exact); only when the index holds more matches a second
 *   batch walks the list in its order (`many`). A search's total is capped at SEARCH_COUNT_CAP;
 * - any other filter: the page and the count (capped at FILTERED_COUNT_CAP) in one batch.
 * `filter` comes from `resolveFilter(…, planSearch = false)`; a plan it already holds is used as is.
 */
export async function contactListPage(
  db: Db,
  companyId: string,
  filter: ResolvedFilter,
  after: [number, string] | null,
  limit: number,
): Promise<{ rows: ContactRow[]; total: number; capped: boolean }> {
  const capped = (n: number, cap: number) => (n > cap ? { total: cap, capped: true } : { total: n, capped: false });
  if (!isFiltered(filter)) {
    const where = filterWhere(companyId, filter);
    const [rows, counter] = await db.batch([
      pageQuery(db, where, after, limit),
      db.select({ value: counters.value }).from(counters).where(and(eq(counters.companyId, companyId), eq(counters.name, CONTACTS_COUNTER))),
    ]);
    return { rows, total: counter[0]?.value ?? (await contactCount(db, companyId)), capped: false };
  }
  const match = filter.search && !filter.searchPlan ? searchMatch(filter.search) : null;
  if (match !== null) {
    const few = filterWhere(companyId, { ...filter, searchPlan: "few" });
    const [planned, rows, counted] = await db.batch([matchCountQuery(db, match), pageQuery(db, few, after, limit), cappedCountQuery(db, few, SEARCH_COUNT_CAP)]);
    if ((planned[0]?.n ?? 0) <= FEW_MATCHES) return { rows, ...capped(counted[0]?.n ?? 0, SEARCH_COUNT_CAP) };
    const many = filterWhere(companyId, { ...filter, searchPlan: "many" });
    const [manyRows, manyCounted] = await db.batch([pageQuery(db, many, after, limit), cappedCountQuery(db, many, SEARCH_COUNT_CAP)]);
    return { rows: manyRows, ...capped(manyCounted[0]?.n ?? 0, SEARCH_COUNT_CAP) };
  }
  const where = filterWhere(companyId, filter);
  const cap = filter.search && filter.searchPlan ? SEARCH_COUNT_CAP : FILTERED_COUNT_CAP;
  const [rows, counted] = await db.batch([pageQuery(db, where, after, limit), cappedCountQuery(db, where, cap)]);
  return { rows, ...capped(counted[0]?.n ?? 0, cap) };
}

// ---------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------

/** The tags of each contact (ids of one company), by contact id. */
export async function tagsOf(db: Db, companyId: string, contactIds: string[]): Promise<Map<string, { id: string; name: string; color: string }[]>> {
  const byContact = new Map<string, { id: string; name: string; color: string }[]>();
  for (const part of chunk(contactIds, 90)) addTags(byContact, await tagsQuery(db, companyId, part));
  return byContact;
}

/** The tag rows of up to 90 contacts of the company (one statement, for `tagsOf` or a batch). */
function tagsQuery(db: Db, companyId: string, contactIds: string[]) {
  return db
    .select({ contactId: contactTags.contactId, id: tags.id, name: tags.name, color: tags.color })
    .from(contactTags)
    .innerJoin(tags, and(eq(tags.id, contactTags.tagId), eq(tags.companyId, contactTags.companyId)))
    .where(and(sameCompany(contactTags.companyId, companyId), inArray(contactTags.contactId, contactIds)))
    .orderBy(tags.name);
}

function addTags(byContact: Map<string, { id: string; name: string; color: string }[]>, rows: { contactId: string; id: string; name: string; color: string }[]): void {
  for (const r of rows) {
    const list = byContact.get(r.contactId) ?? [];
    list.push({ id: r.id, name: r.name, color: r.color });
    byContact.set(r.contactId, list);
  }
}

/** Stored field values of each contact, by contact id then field id. */
export async function valuesOf(db: Db, companyId: string, contactIds: string[]): Promise<Map<string, Record<string, string>>> {
  const byContact = new Map<string, Record<string, string>>();
  for (const part of chunk(contactIds, 90)) addValues(byContact, await valuesQuery(db, companyId, part));
  return byContact;
}

/** The stored field values of up to 90 contacts of the company (one statement, for `valuesOf` or a batch). */
function valuesQuery(db: Db, companyId: string, contactIds: string[]) {
  return db
    .select({ contactId: contactFieldValues.contactId, fieldId: contactFieldValues.fieldId, value: contactFieldValues.value })
    .from(contactFieldValues)
    .where(and(sameCompany(contactFieldValues.companyId, companyId), inArray(contactFieldValues.contactId, contactIds)));
}

function addValues(byContact: Map<string, Record<string, string>>, rows: { contactId: string; fieldId: string; value: string }[]): void {
  for (const r of rows) {
    const values = byContact.get(r.contactId) ?? {};
    values[r.fieldId] = r.value;
    byContact.set(r.contactId, values);
  }
}

/**
 * Contacts (rows of one company) as the API shows them, in the given order. Up to 90 contacts (a
 * list page) read their tags and field values in one D1 batch (issue 16: one round trip).
 */
export async function presentContacts(db: Db, companyId: string, rows: ContactRow[]): Promise<ContactAnswer[]> {
  const ids = rows.map((r) => r.id);
  let tagMap = new Map<string, { id: string; name: string; color: string }[]>();
  let valueMap = new Map<string, Record<string, string>>();
  if (ids.length > 90) [tagMap, valueMap] = await Promise.all([tagsOf(db, companyId, ids), valuesOf(db, companyId, ids)]);
  else if (ids.length) {
    const [tagRows, valueRows] = await db.batch([tagsQuery(db, companyId, ids), valuesQuery(db, companyId, ids)]);
    addTags(tagMap, tagRows);
    addValues(valueMap, valueRows);
  }
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    phone: r.phone,
    email: r.email,
    document: r.document,
    image: fileUrl(r.imageKey),
    tags: tagMap.get(r.id) ?? [],
    fields: valueMap.get(r.id) ?? {},
    crmColumnId: r.crmColumnId,
    lastMessageAt: r.lastMessageAt,
    optedOutAt: r.optedOutAt,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  }));
}

/** The contact of the company, or a 404. */
export async function findContact(db: Db, companyId: string, id: string): Promise<ContactRow> {
  const row = await db.query.contacts.findFirst({ where: and(eq(contacts.id, id), eq(contacts.companyId, companyId)) });
  if (!row) throw new AppError("not_found", "Contact not found.");
  return row;
}

/** First word of a name, and the rest. */
export function splitName(name: string): { first: string; last: string } {
  const words = name.trim().split(/\s+/).filter(Boolean);
  return { first: words[0] ?? "", last: words.slice(1).join(" ") };
}

/** A formula field's tree, or null when its source no longer parses (it was checked at save). */
function treeOf(field: CustomFieldRow): FormulaNode | null {
  if (!field.formula) return null;
  try {
    return parseFormula(field.formula);
  } catch {
    return null;
  }
}

/**
 * The company's custom fields (every column), by name: the first query of `contactValueQueries`,
 * also prepared on its own for a new contact's first flow context (issue 16,
 * worker/pipeline/flow-effects.ts `createdContextReads`).
 */
export function customFieldsQuery(db: Db, companyId: string) {
  return db.select().from(customFields).where(eq(customFields.companyId, companyId)).orderBy(customFields.name);
}

/**
 * The reads of `computeContactValues` as queries not yet run (the company's fields, the contact's
 * stored values, its newest inbound message with text and with media), so a caller can put them in
 * one D1 batch with its own (issue 16: the flow context of a bot reply).
 */
export function contactValueQueries(db: Db, companyId: string, contactId: string) {
  const newestIn = and(eq(messages.companyId, companyId), eq(messages.contactId, contactId), eq(messages.direction, "in"), isNull(messages.deletedAt));
  return [
    customFieldsQuery(db, companyId),
    db
      .select({ fieldId: contactFieldValues.fieldId, value: contactFieldValues.value, valueNumber: contactFieldValues.valueNumber })
      .from(contactFieldValues)
      .where(and(eq(contactFieldValues.companyId, companyId), eq(contactFieldValues.contactId, contactId))),
    db.select({ body: messages.body }).from(messages).where(and(newestIn, sql`${messages.body} <> ''`)).orderBy(desc(messages.sentAt)).limit(1),
    db.select({ mediaKey: messages.mediaKey }).from(messages).where(and(newestIn, isNotNull(messages.mediaKey))).orderBy(desc(messages.sentAt)).limit(1),
  ] as const;
}

/** What `contactValueQueries` answers, and the contact's last campaign's name (null: none). */
export type ContactValueRows = [
  Awaited<ReturnType<typeof contactValueQueries>[0]>,
  Awaited<ReturnType<typeof contactValueQueries>[1]>,
  Awaited<ReturnType<typeof contactValueQueries>[2]>,
  Awaited<ReturnType<typeof contactValueQueries>[3]>,
  string | null,
];

/**
 * Every field's value for one contact (spec §3 Custom field): the built-ins computed from the
 * contact and its conversation (last message and last media: the newest inbound message with text,
 * with media; last campaign: none until broadcasts exist), `user` fields' stored values, `bot`
 * fields' company-wide values, and formulas evaluated with the numbers of both.
 */
export async function computeContactValues(env: AppEnv, db: Db, contact: ContactRow, preloaded?: ContactValueRows): Promise<ContactFieldValueAnswer[]> {
  const companyId = contact.companyId;
  const [fields, stored, lastTexts, lastMedias] = preloaded ?? (await Promise.all(contactValueQueries(db, companyId, contact.id)));
  const lastText = lastTexts[0];
  const lastMedia = lastMedias[0];
  const { first, last } = splitName(contact.name);
  const builtIn: Record<string, string | null> = {
    full_name: contact.name,
    first_name: first,
    last_name: last || null,
    document: contact.document,
    email: contact.email,
    phone: contact.phone,
    last_message: lastText?.body ?? null,
    last_media: lastMedia?.mediaKey ? await signedMediaUrl(env, lastMedia.mediaKey) : null,
    last_campaign: preloaded ? preloaded[4] : await lastCampaignOf(db, companyId, contact.id),
  };
  const answers: ContactFieldValueAnswer[] = BUILT_IN_FIELDS.map((f) => ({
    id: `default:${f.key}`,
    key: f.key,
    name: f.name,
    type: f.type,
    kind: "default",
    value: builtIn[f.key] ?? null,
    readOnly: true,
  }));
  const storedById = new Map(stored.map((s) => [s.fieldId, s]));
  const numbers = new Map<string, number>();
  for (const f of fields) {
    if (f.type !== "number" || f.formula) continue;
    const n = f.kind === "bot" ? (f.value === null ? null : Number(f.value)) : (storedById.get(f.id)?.valueNumber ?? null);
    if (n !== null && Number.isFinite(n)) numbers.set(f.key, n);
  }
  for (const f of fields) {
    const base = { id: f.id, key: f.key, name: f.name, type: f.type, kind: f.kind };
    if (f.formula) {
      const tree = treeOf(f);
      const result = tree ? evaluateFormula(tree, numbers) : null;
      if (result?.ok) answers.push({ ...base, value: String(result.value), readOnly: true });
      else answers.push({ ...base, value: null, readOnly: true, error: result ? result.code : "invalid_formula" });
    } else if (f.kind === "bot") {
      answers.push({ ...base, value: f.value, readOnly: false });
    } else {
      answers.push({ ...base, value: storedById.get(f.id)?.value ?? null, readOnly: false });
    }
  }
  return answers;
}

/** The variables of templates for one contact: every field's key → its value (spec §3 Quick message). */
export async function templateVariables(env: AppEnv, db: Db, contact: ContactRow): Promise<Map<string, string | null>> {
  const values = await computeContactValues(env, db, contact);
  return new Map(values.map((v) => [v.key, v.value]));
}

/** The contact's latest tickets (newest first, at most 50) for its page. */
export async function ticketsOfContact(db: Db, companyId: string, contactId: string): Promise<ContactTicketAnswer[]> {
  const rows = await db
    .select({ ticket: tickets, connection: { id: connections.id, name: connections.name, channel: connections.channel } })
    .from(tickets)
    .leftJoin(connections, eq(connections.id, tickets.connectionId))
    .where(and(eq(tickets.companyId, companyId), eq(tickets.contactId, contactId)))
    .orderBy(desc(tickets.createdAt))
    .limit(50);
  return rows.map(({ ticket, connection }) => ({
    id: ticket.id,
    status: ticket.status,
    connection,
    lastMessageAt: ticket.lastMessageAt,
    lastMessagePreview: ticket.lastMessagePreview,
    createdAt: ticket.createdAt,
    closedAt: ticket.closedAt,
  }));
}

// ---------------------------------------------------------------------------------------------
// Deleting
// ---------------------------------------------------------------------------------------------

/** The Instagram-scoped ids (IGSIDs) of the company's contacts `ids`, as a subquery. */
function instagramIdsOf(db: Db, companyId: string, ids: string[]) {
  return db
    .select({ igsid: contactIdentities.externalId })
    .from(contactIdentities)
    .where(and(eq(contactIdentities.companyId, companyId), eq(contactIdentities.channel, "instagram"), inArray(contactIdentities.contactId, ids)));
}

/**
 * Deletes contacts of the company with everything that hangs on them (tags, field values, channel
 * identities, tickets and their messages; on Instagram the profile read from Meta and the comment
 * actions of their Instagram-scoped ids), 90 ids per atomic batch, keeping the counter right.
 * Ids of other companies are ignored. Answers how many were deleted. Conversation media stay in R2
 * for the data-cleanup job.
 */
export async function deleteContacts(db: Db, companyId: string, ids: string[]): Promise<number> {
  let deleted = 0;
  for (const part of chunk([...new Set(ids)], 90)) {
    const found = await db.select({ id: contacts.id }).from(contacts).where(and(eq(contacts.companyId, companyId), inArray(contacts.id, part)));
    const existing = found.map((r) => r.id);
    if (!existing.length) continue;
    await runBatch(db, [
      adjustContactCount(db, companyId, sql`-${existingAmong(companyId, existing)}`),
      db.delete(contactTags).where(and(eq(contactTags.companyId, companyId), inArray(contactTags.contactId, existing))),
      db.delete(contactFieldValues).where(and(eq(contactFieldValues.companyId, companyId), inArray(contactFieldValues.contactId, existing))),
      // What Instagram told us about them and their comments, found by their Instagram-scoped ids
      // (before the identities that name those ids go).
      db.delete(instagramProfiles).where(and(eq(instagramProfiles.companyId, companyId), inArray(instagramProfiles.igsid, instagramIdsOf(db, companyId, existing)))),
      db.delete(instagramCommentActions).where(and(eq(instagramCommentActions.companyId, companyId), inArray(instagramCommentActions.fromIgsid, instagramIdsOf(db, companyId, existing)))),
      db.delete(contactIdentities).where(and(eq(contactIdentities.companyId, companyId), inArray(contactIdentities.contactId, existing))),
      db.delete(messages).where(and(eq(messages.companyId, companyId), inArray(messages.contactId, existing))),
      db.delete(tickets).where(and(eq(tickets.companyId, companyId), inArray(tickets.contactId, existing))),
      db.delete(contacts).where(and(eq(contacts.companyId, companyId), inArray(contacts.id, existing))),
    ]);
    deleted += existing.length;
  }
  return deleted;
}

// ---------------------------------------------------------------------------------------------
// Upsert by phone (the .xlsx import and any bulk source)
// ---------------------------------------------------------------------------------------------

/**
 * One row to upsert. `row`: the caller's row number, echoed in `refused`. `tags`: tag names,
 * created when missing (matched case-insensitively). `fields`: values by custom field id (`user`
 * fields without a formula), normalised by the field's type; "" leaves a value as it is.
 */
export type ContactImportRow = {
  row: number;
  name?: string;
  phone: string;
  email?: string;
  document?: string;
  tags?: string[] /* names; created when missing */;
  fields?: Record<string /* field id */, string>;
};

/** Colours given to tags an import creates. */
const TAG_PALETTE = ["#0ea5e9", "#22c55e", "#f59e0b", "#ef4444", "#8b5cf6", "#ec4899", "#14b8a6", "#64748b"];

type ValidRow = {
  row: number;
  phone: string;
  name: string | null;
  email: string | null;
  document: string | null;
  tagNames: string[];
  values: { fieldId: string; value: NormalizedValue }[];
};

/** The E.164 form of a phone as the API stores it, or null when invalid (for callers de-duplicating across calls). */
export function normalizeContactPhone(raw: string): string | null {
  const parsed = phoneSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/**
 * Validates and upserts contacts by phone, for the .xlsx import job (issue 4) and any other bulk
 * source. Keep this signature: the import job calls it with each batch of rows it reads.
 *
 * Validation is the API's (same zod schemas and value normalisation as POST /api/contacts); each
 * refused row is answered in `refused` with a reason code:
 * `missing_phone`, `invalid_phone`, `duplicate_in_file` (the phone appeared on an earlier row of
 * this call; the first one wins), `invalid_name`, `invalid_email`, `invalid_document`,
 * `invalid_tag` (empty after trimming or over 40 characters), `too_many_tags`,
 * `unknown_field:<fieldId>` (not a `user` field of the company, or a computed one), and
 * `<reason>:<field key>` for a value its field's type refuses (`invalid_number:age`,
 * `invalid_date:birthday`, `invalid_datetime:…`, `invalid_email:…`, `too_long:…`).
 * Duplicates are detected within one call only: a caller feeding one file in several calls keeps a
 * Set of `normalizeContactPhone(phone)` to refuse later duplicates itself.
 *
 * Writing: an existing contact (same company and E.164 phone) is updated: the name when one is
 * given, email and document when given (an empty cell keeps the old value), tags added (never
 * removed), field values set. A new contact takes the phone as its name when none is given. Every
 * row of one call is written in ONE D1 batch (a transaction: all of the call's valid rows or none;
 * on a D1 error this throws and nothing of the call is written), each statement binding at most 100
 * parameters; the company's contact counter moves in the same transaction. Calls of up to ~1,000
 * rows keep a batch well inside D1's 30 s. Tags an import creates are written before the batch.
 *
 * `inserted` counts contacts created, `updated` contacts that existed; a contact created by someone
 * else between this call's read and its write is neither overwritten nor double-counted.
 *
 * Round trips: one D1 batch of reads (the company's custom fields, time zone and contact tags, and
 * which of the rows' phones exist), the tags' inserts when some are missing, and the write batch.
 * `options.pause`, when given, is awaited between them (the import's turn-taking, issue 16:
 * worker/jobs/import.ts `pauseForOthers`).
 */
export async function upsertContactsByPhone(
  env: AppEnv,
  db: Db,
  companyId: string,
  rows: ContactImportRow[],
  options: { pause?: () => Promise<void> } = {},
): Promise<{ inserted: number; updated: number; refused: { row: number; reason: string }[] }> {
  const refused: { row: number; reason: string }[] = [];
  // Each row's phone in E.164 (null: missing or invalid, refused below), parsed once: the reads
  // need the phones before validation, which needs the custom fields.
  const phones = rows.map((input) => (typeof input.phone === "string" && input.phone.trim() ? normalizeContactPhone(input.phone.trim()) : null));
  // The reads go in ONE D1 batch (issue 16: each round trip of an import chunk is a turn of the
  // thread the rest of the API waits behind locally): the fields, the time zone, the company's
  // tags, and which phones exist already (with their names, kept when a row brings none).
  const phoneReads = chunk([...new Set(phones.filter((p): p is string => p !== null))], 95).map((part) =>
    db
      .select({ id: contacts.id, phone: contacts.phone, name: contacts.name })
      .from(contacts)
      .where(and(eq(contacts.companyId, companyId), inArray(contacts.phone, part))),
  );
  const [fieldRows, zoneRows, tagRows, ...phoneRows] = await db.batch([
    db.select().from(customFields).where(eq(customFields.companyId, companyId)),
    timeZoneQuery(db, companyId),
    contactTagsQuery(db, companyId),
    ...phoneReads,
  ]);
  const fields = fieldsById(fieldRows);
  const timeZone = zoneRows[0]?.timezone ?? "UTC";
  const valid: ValidRow[] = [];
  const seen = new Set<string>();

  const validated = span(env, "upsert.validate");
  rows.forEach((input, i) => {
    const reason = validateRow(input, phones[i] ?? null, fields, timeZone, seen);
    if (typeof reason === "string") refused.push({ row: input.row, reason });
    else valid.push(reason);
  });
  validated();
  if (!valid.length) return { inserted: 0, updated: 0, refused };

  const tagIds = await ensureTags(db, companyId, valid.flatMap((v) => v.tagNames), tagRows, options.pause);
  const existing = new Map<string, { id: string; name: string }>();
  for (const found of phoneRows) for (const f of found) if (f.phone) existing.set(f.phone, { id: f.id, name: f.name });

  const at = Date.now();
  const fresh = valid.filter((v) => !existing.has(v.phone));
  const known = valid.filter((v) => existing.has(v.phone));
  // The write batch is SQL text and bound values, not drizzle's builder (issue 16): building
  // ~100-parameter statements through it (its `is` checks on every value) was a fifth of an
  // import's CPU in the worker, all of it time the isolate serves nothing else. Same statements.
  const statements: D1PreparedStatement[] = [];
  const write = (text: string, params: unknown[]) => statements.push(db.$client.prepare(text).bind(...params));
  const contactColumns = "INSERT INTO contacts (id, company_id, name, phone, email, document, created_at, updated_at) VALUES ";
  const contactValues = (rows: ValidRow[], name: (v: ValidRow) => string, ids: string[]) =>
    rows.flatMap((v) => {
      const id = newId();
      ids.push(id);
      return [id, companyId, name(v), v.phone, v.email, v.document, at, at];
    });
  const placeholders = (rows: number, columns: number) => Array.from({ length: rows }, () => `(${Array.from({ length: columns }, () => "?").join(", ")})`).join(", ");

  const freshIds: string[] = [];
  for (const part of chunk(fresh, 11)) {
    write(`${contactColumns}${placeholders(part.length, 8)} ON CONFLICT (company_id, phone) DO NOTHING`, contactValues(part, (v) => v.name ?? v.phone, freshIds));
  }
  // The counter and the dashboard count the rows really inserted (issue 12), after every insert of
  // the batch: 90 ids a statement (the 100-parameter limit).
  const counts: Statement[] = [];
  for (const ids of chunk(freshIds, 90)) {
    counts.push(adjustContactCount(db, companyId, existingAmong(companyId, ids)));
    counts.push(dayCountsStatement(companyId, localDay(at, timeZone), { newContacts: existingAmong(companyId, ids) }));
  }
  statements.push(...d1Statements(db, counts));
  for (const part of chunk(known, 11)) {
    write(
      `${contactColumns}${placeholders(part.length, 8)} ON CONFLICT (company_id, phone) DO UPDATE SET name = excluded.name, email = coalesce(excluded.email, contacts.email), document = coalesce(excluded.document, contacts.document), updated_at = excluded.updated_at`,
      contactValues(part, (v) => v.name ?? existing.get(v.phone)?.name ?? v.phone, []),
    );
  }

  // Tags and values join on (company, phone) inside the same transaction, so they land on the
  // contact whoever created it.
  const links = valid.flatMap((v) => v.tagNames.map((name) => ({ phone: v.phone, tagId: tagIds.get(name.toLocaleLowerCase()) ?? "" })).filter((l) => l.tagId));
  for (const part of chunk(links, 48)) {
    write(
      `INSERT OR IGNORE INTO contact_tags (company_id, contact_id, tag_id) SELECT c.company_id, c.id, v.column2 FROM (VALUES ${placeholders(part.length, 2)}) AS v JOIN contacts AS c ON c.company_id = ? AND c.phone = v.column1`,
      [...part.flatMap((l) => [l.phone, l.tagId]), companyId],
    );
  }
  const values = valid.flatMap((v) => v.values.map((x) => ({ phone: v.phone, fieldId: x.fieldId, value: x.value })));
  for (const part of chunk(values, 24)) {
    write(
      `INSERT INTO contact_field_values (company_id, contact_id, field_id, value, value_number, updated_at) SELECT c.company_id, c.id, v.column2, v.column3, v.column4, ? FROM (VALUES ${placeholders(part.length, 4)}) AS v JOIN contacts AS c ON c.company_id = ? AND c.phone = v.column1 WHERE true ON CONFLICT (contact_id, field_id) DO UPDATE SET value = excluded.value, value_number = excluded.value_number, updated_at = excluded.updated_at`,
      [at, ...part.flatMap((x) => [x.phone, x.fieldId, x.value.value, x.value.valueNumber]), companyId],
    );
  }
  await options.pause?.();
  const batched = span(env, "upsert.batch");
  await db.$client.batch(statements);
  batched();
  return { inserted: fresh.length, updated: known.length, refused };
}

/** A row's validation (upsertContactsByPhone): the row ready to write, or its refusal code. `phone`: the row's phone in E.164, null when missing or invalid. */
function validateRow(input: ContactImportRow, phone: string | null, fields: Map<string, CustomFieldRow>, timeZone: string, seen: Set<string>): ValidRow | string {
  if (phone === null) return typeof input.phone === "string" && input.phone.trim() ? "invalid_phone" : "missing_phone";
  if (seen.has(phone)) return "duplicate_in_file";

  let name: string | null = null;
  if (input.name?.trim()) {
    const parsed = contactNameSchema.safeParse(input.name);
    if (!parsed.success) return "invalid_name";
    name = parsed.data;
  }
  let email: string | null = null;
  if (input.email?.trim()) {
    const parsed = emailSchema.safeParse(input.email);
    if (!parsed.success) return "invalid_email";
    email = parsed.data;
  }
  let document: string | null = null;
  if (input.document?.trim()) {
    const parsed = documentSchema.safeParse(input.document);
    if (!parsed.success) return "invalid_document";
    document = parsed.data;
  }
  const tagNames: string[] = [];
  for (const raw of input.tags ?? []) {
    const tag = raw.trim();
    if (!tag) continue;
    if (tag.length > 40) return "invalid_tag";
    if (!tagNames.some((t) => t.toLocaleLowerCase() === tag.toLocaleLowerCase())) tagNames.push(tag);
  }
  if (tagNames.length > MAX_CONTACT_TAGS) return "too_many_tags";
  const values: { fieldId: string; value: NormalizedValue }[] = [];
  for (const [fieldId, raw] of Object.entries(input.fields ?? {})) {
    if (typeof raw !== "string" || !raw.trim()) continue;
    const field = fields.get(fieldId);
    if (!field || field.kind !== "user" || field.formula) return `unknown_field:${fieldId}`;
    const normal = normalizeFieldValue(field.type, raw, timeZone);
    if (!normal.ok) return `${normal.reason}:${field.key}`;
    values.push({ fieldId, value: { value: normal.value, valueNumber: normal.valueNumber } });
  }
  seen.add(phone);
  return { row: input.row, phone, name, email, document, tagNames, values };
}

/** The company's contact tags (id, name), a read not yet run (`ensureTags`, or a caller's D1 batch). */
function contactTagsQuery(db: Db, companyId: string) {
  return db.select({ id: tags.id, name: tags.name }).from(tags).where(and(eq(tags.companyId, companyId), eq(tags.kind, "contact")));
}

/**
 * Ids of contact tags of `companyId` by lower-cased name, creating the missing ones (a concurrent
 * creator wins). `loaded`: the company's contact tags as `contactTagsQuery` answers them, when the
 * caller read them already (issue 16: the import reads them in one batch with its other reads).
 * `pause`: awaited before the missing ones' insert, only when some are missing (the import's
 * turn-taking, upsertContactsByPhone's `options.pause`).
 */
export async function ensureTags(
  db: Db,
  companyId: string,
  names: string[],
  loaded?: { id: string; name: string }[],
  pause?: () => Promise<void>,
): Promise<Map<string, string>> {
  const wanted = new Map<string, string>();
  for (const n of names) if (!wanted.has(n.toLocaleLowerCase())) wanted.set(n.toLocaleLowerCase(), n);
  const ids = new Map<string, string>();
  if (!wanted.size) return ids;
  const keep = (rows: { id: string; name: string }[]) => {
    for (const r of rows) if (!ids.has(r.name.toLocaleLowerCase())) ids.set(r.name.toLocaleLowerCase(), r.id);
  };
  const load = async () => keep(await contactTagsQuery(db, companyId));
  if (loaded) keep(loaded);
  else await load();
  const missing = [...wanted.entries()].filter(([lower]) => !ids.has(lower)).map(([, name]) => name);
  if (!missing.length) return ids;
  await pause?.();
  const at = Date.now();
  const statements: Statement[] = chunk(missing, 14).map((part) =>
    db
      .insert(tags)
      .values(part.map((name, i) => ({ id: newId(), companyId, name, color: TAG_PALETTE[(ids.size + i) % TAG_PALETTE.length] ?? "#64748b", createdAt: at, updatedAt: at })))
      .onConflictDoNothing(),
  );
  await runBatch(db, statements);
  await load();
  return ids;
}

// ---------------------------------------------------------------------------------------------
// One contact's writes (POST/PUT /api/contacts and the public API /api/v1)
// ---------------------------------------------------------------------------------------------

const phoneInUse = () => new AppError("phone_in_use", "A contact with this number already exists.", { phone: "phone_in_use" });

/** 400 (`<field>: invalid_id`) unless every tag id is a contact tag of the company. */
export async function checkTags(db: Db, companyId: string, ids: string[], field = "tags"): Promise<void> {
  if (!ids.length) return;
  const found = await db.select({ id: tags.id }).from(tags).where(and(eq(tags.companyId, companyId), inArray(tags.id, ids)));
  if (found.length !== new Set(ids).size) throw new AppError("validation_failed", `Invalid input: ${field}.`, { [field]: "invalid_id" });
}

/** 403 unless the caller may write the optional parts of a contact write (tags: `contacts_tags`, fields: `contacts_custom_fields`). */
function checkWritePermissions(permissions: ReadonlySet<string>, input: { tags?: string[]; fields?: Record<string, unknown> }): void {
  if (input.tags !== undefined && !permissions.has("contacts_tags")) throw forbidden("Changing a contact's tags needs the contacts_tags permission.");
  if (input.fields !== undefined && Object.keys(input.fields).length && !permissions.has("contacts_custom_fields")) {
    throw forbidden("Changing a contact's custom fields needs the contacts_custom_fields permission.");
  }
}

/** Normalised field values of a write, or the 400 naming each failing `fields.<id>`. */
async function fieldsOfWrite(db: Db, companyId: string, input: Record<string, string | number | null> | undefined) {
  if (!input || !Object.keys(input).length) return { set: [], clear: [] };
  const result = normalizeContactFields(await loadFields(db, companyId), input, await companyTimeZone(db, companyId));
  if (Object.keys(result.errors).length) {
    throw new AppError("validation_failed", `Invalid input: ${Object.keys(result.errors).join(", ")}.`, result.errors);
  }
  return result;
}

/**
 * Creates one contact of `companyId` from a parsed ContactInput (POST /api/contacts, the public
 * API): tags and field values in the same D1 batch, the contact counter moved; emits
 * `contact.created`. 403 when `permissions` lack contacts_tags / contacts_custom_fields for the tags
 * or fields given; 400 naming `tags` or `fields.<id>`; 409 `phone_in_use`.
 */
export async function createContactRecord(env: AppEnv, db: Db, companyId: string, permissions: ReadonlySet<string>, input: ContactInput): Promise<ContactRow> {
  checkWritePermissions(permissions, input);
  await checkTags(db, companyId, input.tags ?? []);
  const values = await fieldsOfWrite(db, companyId, input.fields);
  const at = Date.now();
  const row: ContactRow = {
    id: newId(),
    companyId,
    name: input.name,
    phone: input.phone,
    email: input.email ?? null,
    document: input.document ?? null,
    imageKey: null,
    lastMessageAt: null,
    referral: null,
    crmColumnId: null,
    crmPosition: null,
    optedOutAt: null,
    createdAt: at,
    updatedAt: at,
  };
  // The dashboard's new-contacts counter moves in the same batch (issue 12).
  const statements: Statement[] = [db.insert(contacts).values(row), adjustContactCount(db, companyId, 1), await contactsAddedStatement(db, companyId, 1, at)];
  if (input.tags?.length) statements.push(db.insert(contactTags).values(input.tags.map((tagId) => ({ companyId, contactId: row.id, tagId }))));
  statements.push(...fieldValueStatements(db, companyId, row.id, values.set, [], at));
  try {
    await runBatch(db, statements);
  } catch (error) {
    if (isUniqueViolation(error)) throw phoneInUse();
    throw error;
  }
  await emitEvent(env, companyId, "contact.created", { contact: { id: row.id, name: row.name, phone: row.phone, email: row.email } });
  return row;
}

/**
 * Updates contact `id` of `companyId` from a parsed ContactUpdate (PUT /api/contacts/{id}, the
 * public API): an absent key keeps its value, `tags` replaces the contact's tags, `fields` sets the
 * named fields (null clears one); its CRM card is republished. 404 for another company's contact;
 * otherwise the errors of createContactRecord.
 */
export async function updateContactRecord(env: AppEnv, db: Db, companyId: string, permissions: ReadonlySet<string>, id: string, input: ContactUpdate): Promise<ContactRow> {
  const existing = await findContact(db, companyId, id);
  checkWritePermissions(permissions, input);
  await checkTags(db, companyId, input.tags ?? []);
  const values = await fieldsOfWrite(db, companyId, input.fields);
  const at = Date.now();
  const set: Partial<ContactRow> = { updatedAt: at };
  if (input.name !== undefined) set.name = input.name;
  if (input.phone !== undefined) set.phone = input.phone;
  if (input.email !== undefined) set.email = input.email;
  if (input.document !== undefined) set.document = input.document;
  const statements: Statement[] = [db.update(contacts).set(set).where(and(eq(contacts.id, existing.id), eq(contacts.companyId, companyId)))];
  if (input.tags !== undefined) {
    statements.push(db.delete(contactTags).where(and(eq(contactTags.companyId, companyId), eq(contactTags.contactId, existing.id))));
    if (input.tags.length) statements.push(db.insert(contactTags).values(input.tags.map((tagId) => ({ companyId, contactId: existing.id, tagId }))));
  }
  statements.push(...fieldValueStatements(db, companyId, existing.id, values.set, values.clear, at));
  try {
    await runBatch(db, statements);
  } catch (error) {
    if (isUniqueViolation(error)) throw phoneInUse();
    throw error;
  }
  const row = await findContact(db, companyId, existing.id);
  if (row.crmColumnId) await publishCard(env, db, companyId, row.id, row.crmColumnId);
  return row;
}

/**
 * Adds (`add`) or removes tags `tagIds` of contact `contactId` of `companyId` without touching its
 * other tags (the public API's tag routes). The caller has checked the contact and the tags.
 */
export async function changeContactTags(db: Db, companyId: string, contactId: string, tagIds: string[], add: boolean): Promise<void> {
  if (!tagIds.length) return;
  if (add) await db.insert(contactTags).values(tagIds.map((tagId) => ({ companyId, contactId, tagId }))).onConflictDoNothing();
  else await db.delete(contactTags).where(and(eq(contactTags.companyId, companyId), eq(contactTags.contactId, contactId), inArray(contactTags.tagId, tagIds)));
  await db.update(contacts).set({ updatedAt: Date.now() }).where(and(eq(contacts.id, contactId), eq(contacts.companyId, companyId)));
}
