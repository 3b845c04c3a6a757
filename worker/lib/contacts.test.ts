import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ContactPage } from "../../schema/api-types";
import type { CustomFieldType } from "../../schema/custom-fields";
import { activeCompanyId, call, countRows, expectStatus, register } from "../test/helpers";
import { createContact, createField, createTag, DOCS, phoneAt } from "../test/contact-helpers";
import { normalizeFieldValue, upsertContactsByPhone, type ContactImportRow } from "./contacts";
import { getDb } from "./db";

async function counterOf(companyId: string): Promise<number | null> {
  const row = await env.DB.prepare("SELECT value FROM counters WHERE company_id = ? AND name = 'contacts'").bind(companyId).first<{ value: number }>();
  return row?.value ?? null;
}

async function total(token: string): Promise<number> {
  return (await expectStatus<ContactPage>(await call("GET", "/api/contacts?limit=1", { token }), 200)).total;
}

describe("upsertContactsByPhone", () => {
  it("takes 1,000 rows: inserts the valid ones, refuses invalid and duplicate phones with reasons, keeps the count", async () => {
    const owner = await register();
    const companyId = await activeCompanyId(owner.token);
    const age = await createField(owner.token, { name: "Idade", key: "age", type: "number", kind: "user" });
    const since = await createField(owner.token, { name: "Cliente desde", key: "since", type: "date", kind: "user" });
    await createTag(owner.token, "vip");
    // Make the counter exist first, so the batch has to move it (not just a later recount).
    expect(await total(owner.token)).toBe(0);

    const rows: ContactImportRow[] = [];
    const expected = new Map<number, string>();
    for (let i = 0; i < 1000; i++) {
      const row: ContactImportRow = {
        row: i + 2,
        name: `Pessoa ${i}`,
        phone: phoneAt(i),
        email: i % 10 === 0 ? `p${i}@example.com` : undefined,
        tags: i % 2 === 0 ? ["VIP", "Importado"] : ["Importado"],
        fields: { [age.id]: String(20 + (i % 50)), [since.id]: "01/02/2020" },
      };
      if (i % 97 === 5) {
        row.phone = "12";
        expected.set(row.row, "invalid_phone");
      } else if (i % 101 === 7) {
        row.phone = phoneAt(i - 1);
        expected.set(row.row, "duplicate_in_file");
      } else if (i === 300) {
        row.email = "nope";
        expected.set(row.row, "invalid_email");
      } else if (i === 301) {
        row.document = "111.111.111-11";
        expected.set(row.row, "invalid_document");
      } else if (i === 302) {
        row.fields = { [age.id]: "abc" };
        expected.set(row.row, "invalid_number:age");
      } else if (i === 303) {
        row.phone = "";
        expected.set(row.row, "missing_phone");
      } else if (i === 304) {
        row.document = DOCS.cnpj;
      }
      rows.push(row);
    }

    const started = Date.now();
    const result = await upsertContactsByPhone(env, getDb(env.DB), companyId, rows);
    const elapsed = Date.now() - started;
    expect(new Map(result.refused.map((r) => [r.row, r.reason]))).toEqual(expected);
    expect(result.inserted).toBe(1000 - expected.size);
    expect(result.updated).toBe(0);
    expect(await countRows("contacts", "company_id = ?", companyId)).toBe(result.inserted);
    expect(await counterOf(companyId)).toBe(result.inserted);
    expect(await total(owner.token)).toBe(result.inserted);
    // Tags: the existing "vip" matched case-insensitively, "Importado" created once.
    expect(await countRows("tags", "company_id = ?", companyId)).toBe(2);
    expect(await countRows("contact_tags", "company_id = ?", companyId)).toBe(result.inserted + rows.filter((r, i) => i % 2 === 0 && !expected.has(r.row)).length);
    expect(await countRows("contact_field_values", "company_id = ? AND field_id = ? AND value = '2020-02-01'", companyId, since.id)).toBe(result.inserted);
    const cnpj = await env.DB.prepare("SELECT document FROM contacts WHERE company_id = ? AND phone = ?").bind(companyId, phoneAt(304)).first<{ document: string }>();
    expect(cnpj?.document).toBe("11222333000181");
    console.log(`[bench] upsertContactsByPhone: 1,000 rows in ${elapsed} ms`);
  });

  it("a second pass updates by phone: names and given values change, empty cells keep old values, tags are added", async () => {
    const owner = await register();
    const companyId = await activeCompanyId(owner.token);
    const city = await createField(owner.token, { name: "Cidade", key: "city", type: "text", kind: "user" });
    const existing = await createContact(owner.token, { name: "Antigo", phone: phoneAt(1), email: "old@example.com", fields: { [city.id]: "Recife" } });
    const result = await upsertContactsByPhone(env, getDb(env.DB), companyId, [
      { row: 2, phone: "+55 11 97000-0001", name: "Novo Nome", tags: ["Lead"] },
      { row: 3, phone: phoneAt(2) },
      { row: 4, phone: phoneAt(3), fields: { [city.id]: "Olinda" } },
    ]);
    expect(result).toEqual({ inserted: 2, updated: 1, refused: [] });
    const row = await env.DB.prepare("SELECT id, name, email FROM contacts WHERE company_id = ? AND phone = ?").bind(companyId, phoneAt(1)).first<{ id: string; name: string; email: string }>();
    expect(row).toEqual({ id: existing.id, name: "Novo Nome", email: "old@example.com" });
    const value = await env.DB.prepare("SELECT value FROM contact_field_values WHERE contact_id = ? AND field_id = ?").bind(existing.id, city.id).first<{ value: string }>();
    expect(value?.value).toBe("Recife");
    const noName = await env.DB.prepare("SELECT name FROM contacts WHERE company_id = ? AND phone = ?").bind(companyId, phoneAt(2)).first<{ name: string }>();
    expect(noName?.name).toBe(phoneAt(2));
    expect(await total(owner.token)).toBe(3);
    expect(await counterOf(companyId)).toBe(3);
  });

  it("awaits options.pause before each write round trip: the missing tags' insert, then the write batch (issue 16)", async () => {
    const owner = await register();
    const companyId = await activeCompanyId(owner.token);
    await createTag(owner.token, "Lead");
    const seen: { tags: number; contacts: number }[] = [];
    const pause = async () => {
      seen.push({ tags: await countRows("tags", "company_id = ?", companyId), contacts: await countRows("contacts", "company_id = ?", companyId) });
    };
    const db = getDb(env.DB);
    // A tag to create: one pause before its insert, one before the batch.
    const first = await upsertContactsByPhone(env, db, companyId, [{ row: 1, phone: phoneAt(20), tags: ["Lead", "VIP"] }], { pause });
    expect(first).toEqual({ inserted: 1, updated: 0, refused: [] });
    expect(seen).toEqual([
      { tags: 1, contacts: 0 },
      { tags: 2, contacts: 0 },
    ]);
    // Every tag held already: only the pause before the batch.
    seen.length = 0;
    expect(await upsertContactsByPhone(env, db, companyId, [{ row: 1, phone: phoneAt(21), tags: ["vip"] }], { pause })).toEqual({ inserted: 1, updated: 0, refused: [] });
    expect(seen).toEqual([{ tags: 2, contacts: 1 }]);
    // Nothing to write: no pause.
    seen.length = 0;
    expect(await upsertContactsByPhone(env, db, companyId, [{ row: 1, phone: "" }], { pause })).toEqual({ inserted: 0, updated: 0, refused: [{ row: 1, reason: "missing_phone" }] });
    expect(seen).toEqual([]);
    expect(await countRows("contacts", "company_id = ?", companyId)).toBe(2);
  });

  it("refuses fields that are not the company's user fields, and computed ones", async () => {
    const owner = await register();
    const other = await register();
    const companyId = await activeCompanyId(owner.token);
    const theirs = await createField(other.token, { name: "Deles", type: "text", kind: "user" });
    const bot = await createField(owner.token, { name: "Bot", type: "text", kind: "bot" });
    const result = await upsertContactsByPhone(env, getDb(env.DB), companyId, [
      { row: 1, phone: phoneAt(10), fields: { [theirs.id]: "x" } },
      { row: 2, phone: phoneAt(11), fields: { [bot.id]: "x" } },
      { row: 3, phone: phoneAt(12), tags: ["x".repeat(41)] },
      { row: 4, phone: phoneAt(13), name: "!!!" },
    ]);
    expect(result.refused).toEqual([
      { row: 1, reason: `unknown_field:${theirs.id}` },
      { row: 2, reason: `unknown_field:${bot.id}` },
      { row: 3, reason: "invalid_tag" },
      { row: 4, reason: "invalid_name" },
    ]);
    expect(await countRows("contacts", "company_id = ?", companyId)).toBe(0);
  });
});

const GOOD_VALUES: [CustomFieldType, string, string][] = [
    ["number", "12", "12"],
    ["number", "-3,5", "-3.5"],
    ["number", " 1.50 ", "1.5"],
    ["date", "2024-02-29", "2024-02-29"],
    ["date", "1/2/2020", "2020-02-01"],
    ["datetime", "1700000000000", "1700000000000"],
    ["datetime", "2024-05-01T10:00:00Z", String(Date.UTC(2024, 4, 1, 10))],
    ["datetime", "2024-05-01T10:00:00-03:00", String(Date.UTC(2024, 4, 1, 13))],
    ["datetime", "2024-05-01 10:00", String(Date.UTC(2024, 4, 1, 10))],
    ["email", "A@B.CO", "a@b.co"],
    ["document", "20-12345678-6", "20123456786"],
];

const BAD_VALUES: [CustomFieldType, string, string][] = [
    ["number", "abc", "invalid_number"],
    ["number", "1e5", "invalid_number"],
    ["number", "1,000.5,2", "invalid_number"],
    ["date", "2023-02-29", "invalid_date"],
    ["date", "31/02/2020", "invalid_date"],
    ["datetime", "ontem", "invalid_datetime"],
    ["datetime", "2024-13-01 10:00", "invalid_datetime"],
    ["email", "x@", "invalid_email"],
    ["document", "123", "invalid_document"],
    ["text", "   ", "required"],
];

describe("normalizeFieldValue", () => {
  it.each(GOOD_VALUES)("%s %j → %j", (type, raw, value) => {
    expect(normalizeFieldValue(type, raw)).toMatchObject({ ok: true, value });
  });

  it.each(BAD_VALUES)("%s %j → %s", (type, raw, reason) => {
    expect(normalizeFieldValue(type, raw)).toEqual({ ok: false, reason });
  });
});

describe("deleteContacts", () => {
  it("removes an Instagram contact's profile and comment actions with it, and nobody else's", async () => {
    const owner = await register();
    const companyId = await activeCompanyId(owner.token);
    const gone = await createContact(owner.token, { name: "Insta Gone" });
    const kept = await createContact(owner.token, { name: "Insta Kept" });
    const at = Date.now();
    for (const [contactId, igsid] of [
      [gone.id, `ig-gone-${at}`],
      [kept.id, `ig-kept-${at}`],
    ] as const) {
      await env.DB.batch([
        env.DB.prepare("INSERT INTO contact_identities (id, company_id, contact_id, channel, external_id, created_at) VALUES (?, ?, ?, 'instagram', ?, ?)").bind(`ci-${igsid}`, companyId, contactId, igsid, at),
        env.DB.prepare("INSERT INTO instagram_profiles (id, company_id, igsid, name, username, fetched_at) VALUES (?, ?, ?, 'Insta', 'insta', ?)").bind(`ip-${igsid}`, companyId, igsid, at),
        env.DB.prepare(
          "INSERT INTO instagram_comment_actions (id, company_id, connection_id, comment_id, rule_id, from_igsid, text, created_at) VALUES (?, ?, 'conn-x', ?, 'rule-x', ?, 'quero', ?)",
        ).bind(`ica-${igsid}`, companyId, `c-${igsid}`, igsid, at),
      ]);
    }
    await expectStatus(await call("DELETE", `/api/contacts/${gone.id}`, { token: owner.token }), 204);
    expect(await countRows("instagram_profiles", "company_id = ? AND igsid = ?", companyId, `ig-gone-${at}`)).toBe(0);
    expect(await countRows("instagram_comment_actions", "company_id = ? AND from_igsid = ?", companyId, `ig-gone-${at}`)).toBe(0);
    expect(await countRows("contact_identities", "contact_id = ?", gone.id)).toBe(0);
    expect(await countRows("instagram_profiles", "company_id = ? AND igsid = ?", companyId, `ig-kept-${at}`)).toBe(1);
    expect(await countRows("instagram_comment_actions", "company_id = ? AND from_igsid = ?", companyId, `ig-kept-${at}`)).toBe(1);
  });
});
