/**
 * Contact search through the full-text index (issue 16): `contact_search` is an FTS5 table with the
 * trigram tokenizer (`remove_diacritics 1`, case-insensitive) over the contacts' name, e-mail and
 * phone, kept in step with `contacts` by triggers (migrations/0009_contact_search.sql), so every
 * writer (the app, imports, the inbound path, data cleanup) is covered without code of its own.
 *
 * A trigram index answers any substring of 3 or more characters: the same rows as the `LIKE
 * '%text%'` scan it replaces, but accent-insensitive (`jose` finds "José") and without reading the
 * whole company. Shorter text (1–2 characters, or a phone search of fewer than 3 digits) has no
 * trigram and keeps the scan (worker/lib/contacts.ts `filterWhere`).
 */
import { sql, type SQL } from "drizzle-orm";
import { contacts } from "../../schema";
import type { Db } from "./db";

/** Fewest characters (and, for the phone part, digits) the index can answer. */
export const FTS_MIN_CHARS = 3;

/** Whether `search` looks like a phone number (digits, spaces, `+()-.`): the phone is then searched by its digits. */
export function isPhoneLike(search: string): boolean {
  return /^[\d\s()+.-]+$/.test(search);
}

/** An FTS5 phrase (a literal string: `"` doubled, nothing else special inside quotes). */
function phrase(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/**
 * The FTS5 MATCH expression for a contact search, or null when the index cannot answer it (fewer
 * than FTS_MIN_CHARS characters, or a phone-like search with fewer than FTS_MIN_CHARS digits):
 * name or e-mail contain the text; when phone-like, OR the phone contains its digits.
 */
export function searchMatch(search: string): string | null {
  if ([...search].length < FTS_MIN_CHARS) return null;
  const text = `{name email} : ${phrase(search)}`;
  if (!isPhoneLike(search)) return text;
  const digits = search.replace(/\D/g, "");
  if (digits.length < FTS_MIN_CHARS) return null;
  return `${text} OR phone : ${phrase(digits)}`;
}

/** Matches at or below which the index drives the query (read them, then sort); above, the list's own order does. */
export const FEW_MATCHES = 2000;

/**
 * How a search of 3+ characters is best answered: `few` when the index holds at most FEW_MATCHES
 * rows for it (all companies), else `many`. One cheap D1 read (it stops at FEW_MATCHES + 1). Null
 * when the index cannot answer the text (see `searchMatch`).
 */
export async function searchPlan(db: Db, search: string): Promise<"few" | "many" | null> {
  const match = searchMatch(search);
  if (match === null) return null;
  const [row] = await matchCountQuery(db, match);
  return (row?.n ?? 0) > FEW_MATCHES ? "many" : "few";
}

/**
 * The index's matches of a MATCH expression (all companies), counted up to FEW_MATCHES + 1, as a
 * statement that can go in a D1 batch (worker/lib/contacts.ts `contactListPage`): `{n}`.
 */
export function matchCountQuery(db: Db, match: string) {
  return db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(sql`(SELECT 1 FROM contact_search WHERE contact_search MATCH ${match} LIMIT ${FEW_MATCHES + 1})`);
}

/**
 * The WHERE clause of an indexed search of `companyId`'s contacts (see `searchMatch`), or null when
 * the index cannot answer it and the caller keeps the LIKE scan. SQLite keeps no statistics here,
 * so the plan is chosen for it: with `few` matches the index's rows are read and the company term is
 * kept off the company index (the unary `+`); with `many`, the company's list is walked in its own
 * order and each contact checked against the index by rowid, stopping once the page is full.
 */
export function searchCondition(companyId: string, search: string, plan: "few" | "many"): SQL | null {
  const match = searchMatch(search);
  if (match === null) return null;
  if (plan === "few") return sql`+${contacts.companyId} = ${companyId} AND ${contacts}.rowid IN (SELECT rowid FROM contact_search WHERE contact_search MATCH ${match})`;
  return sql`${contacts.companyId} = ${companyId} AND EXISTS (SELECT 1 FROM contact_search WHERE contact_search MATCH ${match} AND contact_search.rowid = ${contacts}.rowid)`;
}

/**
 * The chat list's search (GET /api/tickets?search=): the contact's name or phone contains the
 * text, through the same index (3+ characters; null below, and the route keeps its LIKE scan).
 * `few` drives the query from the index (the caller keeps the company term off the tickets' index);
 * `many` checks each ticket's contact against the index in the list's order. The caller joins
 * `contacts` on the ticket's contact.
 */
export async function ticketSearch(db: Db, search: string): Promise<{ plan: "few" | "many"; where: SQL } | null> {
  if ([...search].length < FTS_MIN_CHARS) return null;
  const match = `{name phone} : ${phrase(search)}`;
  const [row] = await db.all<{ n: number }>(sql`SELECT count(*) AS n FROM (SELECT 1 FROM contact_search WHERE contact_search MATCH ${match} LIMIT ${FEW_MATCHES + 1})`);
  if ((row?.n ?? 0) <= FEW_MATCHES) {
    return { plan: "few", where: sql`${contacts}.rowid IN (SELECT rowid FROM contact_search WHERE contact_search MATCH ${match})` };
  }
  return { plan: "many", where: sql`EXISTS (SELECT 1 FROM contact_search WHERE contact_search MATCH ${match} AND contact_search.rowid = ${contacts}.rowid)` };
}
