/**
 * CRM board helpers (spec §2 CRM, §3 CRM column): columns and cards as the API shows them, and the
 * live updates every member with `crm` watching the board receives through the CompanyHub
 * (`crm.columns`: the columns in order, after any change to them, also a signal to reload the
 * cards; `crm.card`: one contact moved, changed or left the board).
 */
import { and, asc, eq } from "drizzle-orm";
import { contacts, crmColumns, type ContactRow, type CrmColumnRow } from "../../schema";
import type { CrmCardAnswer, CrmColumnAnswer } from "../../schema/api-types";
import type { AppEnv } from "../env";
import { tagsOf } from "./contacts";
import type { Db } from "./db";
import { fileUrl } from "./present";
import { hubOf } from "./realtime";

export function presentColumn(row: CrmColumnRow): CrmColumnAnswer {
  return { id: row.id, name: row.name, color: row.color, position: row.position };
}

/** The company's columns in board order. */
export async function listColumns(db: Db, companyId: string): Promise<CrmColumnAnswer[]> {
  const rows = await db.select().from(crmColumns).where(eq(crmColumns.companyId, companyId)).orderBy(asc(crmColumns.position), asc(crmColumns.id));
  return rows.map(presentColumn);
}

/** Cards of contacts that are on a column (others are skipped). */
export async function presentCards(db: Db, companyId: string, rows: ContactRow[]): Promise<CrmCardAnswer[]> {
  const placed = rows.filter((r) => r.crmColumnId !== null && r.crmPosition !== null);
  const tagMap = await tagsOf(db, companyId, placed.map((r) => r.id));
  return placed.map((r) => ({
    id: r.id,
    name: r.name,
    phone: r.phone,
    email: r.email,
    image: fileUrl(r.imageKey),
    tags: tagMap.get(r.id) ?? [],
    columnId: r.crmColumnId ?? "",
    position: r.crmPosition ?? 0,
  }));
}

/** Publishes the columns (after a create, rename, reorder or delete) to members with `crm`. */
export async function publishColumns(env: AppEnv, db: Db, companyId: string): Promise<void> {
  await hubOf(env, companyId).publish({ type: "crm.columns", columns: await listColumns(db, companyId) }, { crm: true });
}

/**
 * Publishes a contact's card as it is now (null when it is off the board or deleted), with the
 * column it was on before, to members with `crm`.
 */
export async function publishCard(env: AppEnv, db: Db, companyId: string, contactId: string, fromColumnId: string | null): Promise<void> {
  const row = await db.query.contacts.findFirst({ where: and(eq(contacts.id, contactId), eq(contacts.companyId, companyId)) });
  const [card] = row ? await presentCards(db, companyId, [row]) : [];
  await hubOf(env, companyId).publish({ type: "crm.card", contactId, fromColumnId, card: card ?? null }, { crm: true });
}
