/**
 * Contact search through the trigram index (issue 16, worker/lib/contact-search.ts): on a generated
 * set with accents it answers exactly what a substring scan over accent-stripped, lower-cased text
 * answers, for every 3+ character query; the triggers keep it in step with edits and deletions;
 * the query plan reads the index, not the company's contacts.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ContactAnswer, ContactPage } from "../../schema/api-types";
import { activeCompanyId, call, expectStatus, register } from "../test/helpers";
import { contacts } from "../../schema";
import { filterWhere } from "./contacts";
import { searchCondition, searchMatch } from "./contact-search";
import { getDb } from "./db";

/** What the search must match: accents stripped, lower case. */
function fold(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

const FIRST = ["José", "Joséfa", "Ângela", "Conceição", "João", "Luís", "Mônica", "Inês", "Cauã", "Andréa", "Ana", "Otávio"];
const LAST = ["Araújo", "Guimarães", "Brandão", "Gonçalves", "Peçanha", "Simões", "Lúcio", "Falcão", "Souza", "Sá"];

type Seeded = { id: string; name: string; email: string | null; phone: string };

async function seed(companyId: string, n: number): Promise<Seeded[]> {
  const rows: Seeded[] = [];
  for (let i = 0; i < n; i++) {
    const name = `${FIRST[i % FIRST.length]} ${LAST[(i * 7) % LAST.length]}${i % 5 === 0 ? " Ferreira" : ""}`;
    const email = i % 3 === 0 ? `${fold(name).replace(/\s+/g, ".")}${i}@exemplo.com.br` : null;
    rows.push({ id: `cs-${companyId}-${i}`, name, email, phone: `+55219${String(80_000_000 + i * 7919).padStart(8, "0")}` });
  }
  const at = Date.now();
  await env.DB.batch(
    rows.map((r) => env.DB.prepare("INSERT INTO contacts (id, company_id, name, email, phone, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)").bind(r.id, companyId, r.name, r.email, r.phone, at, at)),
  );
  return rows;
}

/** Every id the list answers for `search` (all pages). */
async function searchIds(token: string, search: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page: ContactPage = await expectStatus<ContactPage>(
      await call("GET", `/api/contacts?limit=100&search=${encodeURIComponent(search)}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { token }),
      200,
    );
    ids.push(...page.results.map((c: ContactAnswer) => c.id));
    cursor = page.cursor;
  } while (cursor);
  return ids.sort();
}

/** The reference: name or e-mail contain the folded text; a phone-like search also the phone's digits. */
function expected(rows: Seeded[], search: string): string[] {
  const needle = fold(search);
  const phoneLike = /^[\d\s()+.-]+$/.test(search);
  const digits = search.replace(/\D/g, "");
  return rows
    .filter((r) => fold(r.name).includes(needle) || (r.email !== null && fold(r.email).includes(needle)) || (phoneLike && digits !== "" && r.phone.includes(digits)))
    .map((r) => r.id)
    .sort();
}

describe("contact search (trigram index)", () => {
  it("answers the same rows as a folded substring scan for every 3+ character query, accents or not", async () => {
    const owner = await register();
    const companyId = await activeCompanyId(owner.token);
    const rows = await seed(companyId, 240);
    // A contact of another company never leaks in.
    const other = await register();
    await seed(await activeCompanyId(other.token), 5);
    const queries = ["jos", "JOSÉ", "jose", "Ângel", "angela", "conceicao", "ção", "guimaraes", "ães", "gonç", "simoes", "ferreira", "a a", "sá", "exemplo.com", "@exemplo", "luis.", "21980", "(21) 980", "+55 21", "7919", "onc", "zzz"];
    for (const q of queries) {
      if ([...q].length < 3) continue;
      expect(searchMatch(q), q).not.toBeNull();
      expect(await searchIds(owner.token, q), `search ${q}`).toEqual(expected(rows, q));
      // Both plans (index first, or the list's order checked against the index) answer the same.
      for (const plan of ["few", "many"] as const) {
        const found = await getDb(env.DB).select({ id: contacts.id }).from(contacts).where(filterWhere(companyId, { search: q, searchPlan: plan, tags: [], fields: [] }));
        expect(found.map((r) => r.id).sort(), `search ${q} (${plan})`).toEqual(expected(rows, q));
      }
    }
    // Accent-insensitive both ways (the LIKE scan found neither).
    expect((await searchIds(owner.token, "jose")).length).toBeGreaterThan(0);
    expect(await searchIds(owner.token, "angela")).toEqual(await searchIds(owner.token, "ÂNGELA"));
    // Shorter text keeps the scan.
    expect(searchMatch("sá")).toBeNull();
    expect(await searchIds(owner.token, "Sá")).toEqual(rows.filter((r) => r.name.includes("Sá")).map((r) => r.id).sort());
  });

  it("follows edits and deletions (triggers), and the plan reads the index", async () => {
    const owner = await register();
    const companyId = await activeCompanyId(owner.token);
    const [row] = await seed(companyId, 1);
    expect(row!.name).toBe("José Araújo Ferreira");
    expect(await searchIds(owner.token, "araujo f")).toEqual([row!.id]);
    expect(await searchIds(owner.token, "Peçanha Xavier")).toEqual([]);
    await env.DB.prepare("UPDATE contacts SET name = ? WHERE id = ?").bind("Zuleica Peçanha Xavier", row!.id).run();
    expect(await searchIds(owner.token, "pecanha xav")).toEqual([row!.id]);
    // The old name ("José Araújo Ferreira") is gone from the index (its e-mail has no space).
    expect(await searchIds(owner.token, "araujo f")).toEqual([]);
    await env.DB.prepare("DELETE FROM contacts WHERE id = ?").bind(row!.id).run();
    expect(await searchIds(owner.token, "pecanha xav")).toEqual([]);
    const query = getDb(env.DB).select({ id: contacts.id }).from(contacts).where(searchCondition(companyId, "pecanha", "few")!).orderBy(contacts.createdAt).limit(30).toSQL();
    const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
      .bind(...query.params)
      .all<{ detail: string }>();
    const details = plan.results.map((r) => r.detail).join("\n");
    expect(details).toMatch(/VIRTUAL TABLE INDEX/);
    expect(details).not.toMatch(/SCAN contacts/);
  });

  it("the chat list's search goes through the index: accent-insensitive name, phone substring, short text by LIKE", async () => {
    const owner = await register();
    const companyId = await activeCompanyId(owner.token);
    const rows = await seed(companyId, 12);
    const at = Date.now();
    await env.DB.prepare("INSERT INTO connections (id, company_id, name, channel, status, created_at, updated_at) VALUES (?, ?, 'Loja', 'whatsapp-cloud', 'CONNECTED', ?, ?)")
      .bind(`cs-conn-${companyId}`, companyId, at, at)
      .run();
    await env.DB.batch(
      rows.map((r, i) =>
        env.DB.prepare("INSERT INTO tickets (id, company_id, contact_id, connection_id, status, last_message_at, created_at, updated_at) VALUES (?, ?, ?, ?, 'pending', ?, ?, ?)").bind(
          `cs-ticket-${companyId}-${i}`,
          companyId,
          r.id,
          `cs-conn-${companyId}`,
          at + i,
          at,
          at,
        ),
      ),
    );
    const ticketsOf = async (search: string) => {
      const page = await expectStatus<{ results: { contact: { id: string } }[]; total: number }>(await call("GET", `/api/tickets?limit=100&search=${encodeURIComponent(search)}`, { token: owner.token }), 200);
      expect(page.total).toBe(page.results.length);
      return page.results.map((t) => t.contact.id).sort();
    };
    const byName = (needle: string) => rows.filter((r) => fold(r.name).includes(fold(needle)) || r.phone.includes(needle)).map((r) => r.id).sort();
    for (const q of ["conceicao", "CONCEIÇÃO", "guimaraes", "joão", "+5521", "8000", "zzz"]) expect(await ticketsOf(q), q).toEqual(byName(q));
    expect(await ticketsOf("Sá")).toEqual(rows.filter((r) => r.name.includes("Sá")).map((r) => r.id).sort());
  });

  it("a search the index matches more than 2,000 times walks the list in its order: the same rows, the total capped at 2,000 (issue 16)", async () => {
    const owner = await register();
    const companyId = await activeCompanyId(owner.token);
    const other = await register();
    const otherId = await activeCompanyId(other.token);
    const at = Date.now();
    const insert = (company: string, from: number, to: number) =>
      env.DB.prepare(
        "WITH RECURSIVE n(i) AS (SELECT ?3 UNION ALL SELECT i + 1 FROM n WHERE i < ?4) INSERT INTO contacts (id, company_id, name, phone, created_at, updated_at) SELECT ?1 || '-zb-' || printf('%05d', i), ?1, 'Zebulão ' || i, '+5531977' || printf('%06d', i), ?2 + i, ?2 + i FROM n",
      ).bind(company, at, from, to);
    await env.DB.batch([insert(companyId, 0, 2002), insert(otherId, 5000, 5004)]);
    const ids: string[] = [];
    let cursor: string | null = null;
    let first: ContactPage | null = null;
    do {
      const page: ContactPage = await expectStatus<ContactPage>(
        await call("GET", `/api/contacts?limit=100&search=zebulao${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { token: owner.token }),
        200,
      );
      first ??= page;
      ids.push(...page.results.map((c: ContactAnswer) => c.id));
      cursor = page.cursor;
    } while (cursor);
    // Newest first, every one of the company's 2,003 and none of the other company's.
    expect(ids).toEqual(Array.from({ length: 2003 }, (_, i) => `${companyId}-zb-${String(2002 - i).padStart(5, "0")}`));
    expect([first?.total, first?.totalCapped]).toEqual([2000, true]);
    // Few matches: exact.
    const few = await expectStatus<ContactPage>(await call("GET", `/api/contacts?search=${encodeURIComponent("Zebulão 200")}`, { token: owner.token }), 200);
    expect([few.total, few.totalCapped]).toEqual([4, false]);
  }, 60_000);
});
