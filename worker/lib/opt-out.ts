/**
 * Opt-out (issue 10 "Opt-out"): a customer message equal to one of the company's stop words
 * (`companies.opt_out_words`; null = DEFAULT_OPT_OUT_WORDS: SAIR, PARAR, STOP), ignoring case,
 * accents and surrounding spaces, marks the contact opted out (`contacts.opted_out_at`) and takes
 * it out of every shipping cycle; every later broadcast rejects it (`opted_out`). A later message
 * that is not a stop word changes nothing: only a member clears it (POST /api/contacts/{id}/opt-in).
 * Called from the inbound path (ContactSession.handle) for each customer text message.
 */
import { and, eq, isNull } from "drizzle-orm";
import { companies, contacts } from "../../schema";
import { DEFAULT_OPT_OUT_WORDS } from "../../schema/validation/company";
import type { AppEnv } from "../env";
import type { Db } from "./db";
import { remembered } from "./memo";
import { leaveAllCycles } from "./shipping-cycles";

/** `text` folded for comparison: accents removed, lower case, surrounding spaces trimmed. */
export function foldStopWord(text: string): string {
  return text.normalize("NFD").replace(/\p{M}+/gu, "").trim().toLowerCase();
}

/** How many word lists `foldedWords` remembers per isolate before it starts over. */
const WORD_LISTS_REMEMBERED = 1_000;

/** A company's stop words (as JSON) → the words folded (`foldedWords`). */
const foldedLists = new Map<string, Set<string>>();

/**
 * `words` folded (`foldStopWord`), remembered per list: every customer message is checked against
 * its company's list, which rarely changes (issue 16: the list was folded again for each message).
 */
function foldedWords(words: readonly string[]): Set<string> {
  return remembered(foldedLists, WORD_LISTS_REMEMBERED, JSON.stringify(words), () => new Set(words.map(foldStopWord)));
}

/** Whether `text` is one of `words` (null = the defaults), ignoring case, accents and surrounding spaces. */
export function isStopWord(text: string, words: readonly string[] | null): boolean {
  const folded = foldStopWord(text);
  if (!folded) return false;
  return foldedWords(words ?? DEFAULT_OPT_OUT_WORDS).has(folded);
}

/**
 * Applies a customer's message to the opt-out state of `contactId`: when `body` is a stop word of
 * the company, sets `opted_out_at` (kept as the first time when already set) and ends the
 * contact's enrolments in every cycle. Answers true when `body` was a stop word.
 */
export async function applyOptOut(
  env: AppEnv,
  db: Db,
  companyId: string,
  contactId: string,
  body: string,
  /** The company's words when the caller read them already (the inbound path's one batch, issue 16). */
  preloaded?: { optOutWords: string[] | null },
): Promise<boolean> {
  // A stop word is short; a long text is never one (and is not worth a query).
  if (body.length > 100) return false;
  const company = preloaded ?? (await db.query.companies.findFirst({ where: eq(companies.id, companyId), columns: { optOutWords: true } }));
  if (!company || !isStopWord(body, company.optOutWords)) return false;
  const at = Date.now();
  await db
    .update(contacts)
    .set({ optedOutAt: at, updatedAt: at })
    .where(and(eq(contacts.id, contactId), eq(contacts.companyId, companyId), isNull(contacts.optedOutAt)));
  await leaveAllCycles(env, companyId, contactId);
  return true;
}

/** A member clears the opt-out of a contact of the company (it may be enrolled and receive broadcasts again). */
export async function optIn(db: Db, companyId: string, contactId: string): Promise<void> {
  await db.update(contacts).set({ optedOutAt: null, updatedAt: Date.now() }).where(and(eq(contacts.id, contactId), eq(contacts.companyId, companyId)));
}
