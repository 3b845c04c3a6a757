/**
 * The CRM board (spec §2 CRM "manage columns", §3 CRM column; issue 4). Permission `crm` to view,
 * `crm_manager` to manage (which includes viewing). Every change is published on the CompanyHub to
 * members with `crm`: `crm.columns` (all columns, in order; also the signal to reload cards) and
 * `crm.card` (one contact's card, or null when it left the board). Another company's ids → 404.
 *
 * - GET /api/crm/columns → `{results: CrmColumnAnswer[], cursor: null, total}` in board order.
 * - POST /api/crm/columns {name, color?} → 201 CrmColumnAnswer (at the end; at most 50: 409).
 * - PUT /api/crm/columns/order {ids: every column id, in the new order} → `{results, …}`; 400
 *   `ids: every_column` unless the ids are exactly the company's columns.
 * - PUT /api/crm/columns/{id} {name, color?} → CrmColumnAnswer.
 * Column names are unique on the board, ignoring case (409 `name_in_use` naming `name`).
 * - DELETE /api/crm/columns/{id} → 204; its contacts leave the board.
 * - GET /api/crm/board?limit= → `{columns: CrmBoardColumn[]}`: each column with its first `limit`
 *   cards (by position), their `cursor` and `total`.
 * - GET /api/crm/columns/{id}/contacts?cursor=&limit= → `{results: CrmCardAnswer[], cursor, total}`.
 * - PUT /api/crm/contacts/{contactId} {columnId | null, beforeId? | afterId?} → `{contactId, card}`:
 *   puts the contact on a column before or after a card of it (or at its end), or off the board.
 *   Positions are fractional (one row written per move); a column is renumbered when two neighbours
 *   get too close. 400 `beforeId`/`afterId: invalid_id` when that card is not on the column.
 */
import { Hono } from "hono";
import { and, asc, count, desc, eq, gt, isNotNull, lt, ne, sql } from "drizzle-orm";
import { z } from "zod";
import { contacts, crmColumns, type CrmColumnRow } from "../../schema";
import type { CrmBoardColumn, CrmCardAnswer, CrmColumnAnswer, Page } from "../../schema/api-types";
import { idSchema } from "../../schema/validation/common";
import { crmColumnInput, crmMoveInput, crmOrderInput, crmPageQuery, MAX_CRM_COLUMNS } from "../../schema/validation/contacts";
import type { HonoEnv } from "../middleware/context";
import { requireCompany, requirePermission, requireSubscription, requireUser } from "../middleware/auth";
import { findContact } from "../lib/contacts";
import { listColumns, presentCards, presentColumn, publishCard, publishColumns } from "../lib/crm";
import { decodeNumberCursor, encodeCursor } from "../lib/cursor";
import type { Db } from "../lib/db";
import { now } from "../lib/db";
import { AppError, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { assertNameFree, withNameIndex } from "../lib/unique-name";
import { zv } from "../lib/validate";

const idParam = z.object({ id: idSchema });
const contactParam = z.object({ contactId: idSchema });

/** Closest two positions may get before the column is renumbered 1, 2, 3, … */
const MIN_GAP = 1e-6;

async function findColumn(db: Db, companyId: string, id: string): Promise<CrmColumnRow> {
  const row = await db.query.crmColumns.findFirst({ where: and(eq(crmColumns.id, id), eq(crmColumns.companyId, companyId)) });
  if (!row) throw notFound("CRM column");
  return row;
}

/** One page of a column's cards by (position, id). */
async function columnPage(db: Db, companyId: string, columnId: string, limit: number, cursor?: string) {
  const after = decodeNumberCursor(cursor);
  const where = and(eq(contacts.companyId, companyId), eq(contacts.crmColumnId, columnId), isNotNull(contacts.crmPosition));
  const rows = await db
    .select()
    .from(contacts)
    .where(after ? and(where, sql`(${contacts.crmPosition}, ${contacts.id}) > (${after[0]}, ${after[1]})`) : where)
    .orderBy(asc(contacts.crmPosition), asc(contacts.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    cards: await presentCards(db, companyId, page),
    cursor: rows.length > limit && last ? encodeCursor([last.crmPosition ?? 0, last.id]) : null,
  };
}

/** Renumbers a column's cards 1, 2, 3, … in their order (one statement). */
async function renumber(db: Db, companyId: string, columnId: string): Promise<void> {
  await db.run(sql`UPDATE ${contacts} SET crm_position = (
      SELECT r.n FROM (SELECT id, row_number() OVER (ORDER BY crm_position, id) AS n FROM ${contacts} WHERE company_id = ${companyId} AND crm_column_id = ${columnId}) AS r
      WHERE r.id = ${contacts}.id)
    WHERE company_id = ${companyId} AND crm_column_id = ${columnId}`);
}

/** The position a card gets on `columnId` before or after a neighbour (or at the end). */
async function positionFor(db: Db, companyId: string, columnId: string, contactId: string, beforeId?: string, afterId?: string): Promise<number | null> {
  const onColumn = and(eq(contacts.companyId, companyId), eq(contacts.crmColumnId, columnId), isNotNull(contacts.crmPosition), ne(contacts.id, contactId));
  const neighbourId = beforeId ?? afterId;
  if (!neighbourId) {
    const [last] = await db.select({ p: contacts.crmPosition }).from(contacts).where(onColumn).orderBy(desc(contacts.crmPosition)).limit(1);
    return (last?.p ?? 0) + 1;
  }
  const neighbour = await db.query.contacts.findFirst({ where: and(onColumn, eq(contacts.id, neighbourId)), columns: { crmPosition: true } });
  if (neighbour?.crmPosition == null) {
    throw new AppError("validation_failed", "That card is not on this column.", { [beforeId ? "beforeId" : "afterId"]: "invalid_id" });
  }
  const at = neighbour.crmPosition;
  const [other] = await db
    .select({ p: contacts.crmPosition })
    .from(contacts)
    .where(and(onColumn, beforeId ? lt(contacts.crmPosition, at) : gt(contacts.crmPosition, at)))
    .orderBy(beforeId ? desc(contacts.crmPosition) : asc(contacts.crmPosition))
    .limit(1);
  if (other?.p == null) return beforeId ? at - 1 : at + 1;
  if (Math.abs(other.p - at) < MIN_GAP) return null;
  return (other.p + at) / 2;
}

export const crmRoutes = new Hono<HonoEnv>()
  .use(requireUser, requireCompany, requireSubscription, requirePermission("crm", "crm_manager"))
  /** GET /api/crm/columns → {results, cursor: null, total}. */
  .get("/columns", async (c) => {
    const results = await listColumns(c.var.db, c.var.company.id);
    const answer: Page<CrmColumnAnswer> = { results, cursor: null, total: results.length };
    return c.json(answer);
  })
  /** GET /api/crm/board?limit= → {columns: CrmBoardColumn[]}. */
  .get("/board", zv("query", crmPageQuery.pick({ limit: true })), async (c) => {
    const { limit } = c.req.valid("query");
    const db = c.var.db;
    const companyId = c.var.company.id;
    const columns = await listColumns(db, companyId);
    const totals = await db
      .select({ columnId: contacts.crmColumnId, n: count() })
      .from(contacts)
      .where(and(eq(contacts.companyId, companyId), isNotNull(contacts.crmColumnId)))
      .groupBy(contacts.crmColumnId);
    const totalOf = new Map(totals.map((t) => [t.columnId, t.n]));
    const board: CrmBoardColumn[] = [];
    for (const column of columns) {
      const page = await columnPage(db, companyId, column.id, limit);
      board.push({ ...column, contacts: page.cards, cursor: page.cursor, total: totalOf.get(column.id) ?? 0 });
    }
    return c.json({ columns: board });
  })
  /** GET /api/crm/columns/{id}/contacts?cursor=&limit= → {results: CrmCardAnswer[], cursor, total}. */
  .get("/columns/:id/contacts", zv("param", idParam), zv("query", crmPageQuery), async (c) => {
    const q = c.req.valid("query");
    const db = c.var.db;
    const companyId = c.var.company.id;
    const column = await findColumn(db, companyId, c.req.valid("param").id);
    const page = await columnPage(db, companyId, column.id, q.limit, q.cursor);
    const [{ total } = { total: 0 }] = await db
      .select({ total: count() })
      .from(contacts)
      .where(and(eq(contacts.companyId, companyId), eq(contacts.crmColumnId, column.id)));
    const answer: Page<CrmCardAnswer> = { results: page.cards, cursor: page.cursor, total };
    return c.json(answer);
  })
  .use(requirePermission("crm_manager"))
  /** POST /api/crm/columns {name, color?} → 201 CrmColumnAnswer. */
  .post("/columns", zv("json", crmColumnInput), async (c) => {
    const input = c.req.valid("json");
    const db = c.var.db;
    const companyId = c.var.company.id;
    const existing = await listColumns(db, companyId);
    if (existing.length >= MAX_CRM_COLUMNS) throw new AppError("conflict", `A board has at most ${MAX_CRM_COLUMNS} columns.`);
    await assertNameFree(db, crmColumns, companyId, input.name);
    const at = now();
    const row: CrmColumnRow = {
      id: newId(),
      companyId,
      name: input.name,
      color: input.color ?? "#64748b",
      position: (existing[existing.length - 1]?.position ?? 0) + 1,
      createdAt: at,
      updatedAt: at,
    };
    await withNameIndex(() => db.insert(crmColumns).values(row));
    await publishColumns(c.env, db, companyId);
    return c.json(presentColumn(row), 201);
  })
  /** PUT /api/crm/columns/order {ids} → {results, cursor: null, total}. */
  .put("/columns/order", zv("json", crmOrderInput), async (c) => {
    const { ids } = c.req.valid("json");
    const db = c.var.db;
    const companyId = c.var.company.id;
    const existing = await listColumns(db, companyId);
    const known = new Set(existing.map((col) => col.id));
    if (ids.length !== existing.length || ids.some((id) => !known.has(id))) {
      throw new AppError("validation_failed", "List every column of the board exactly once.", { ids: "every_column" });
    }
    const at = now();
    const [first, ...rest] = ids.map((id, i) =>
      db.update(crmColumns).set({ position: i + 1, updatedAt: at }).where(and(eq(crmColumns.id, id), eq(crmColumns.companyId, companyId))),
    );
    if (first) await db.batch([first, ...rest]);
    await publishColumns(c.env, db, companyId);
    const results = await listColumns(db, companyId);
    const answer: Page<CrmColumnAnswer> = { results, cursor: null, total: results.length };
    return c.json(answer);
  })
  /** PUT /api/crm/columns/{id} {name, color?} → CrmColumnAnswer. */
  .put("/columns/:id", zv("param", idParam), zv("json", crmColumnInput), async (c) => {
    const input = c.req.valid("json");
    const db = c.var.db;
    const companyId = c.var.company.id;
    const column = await findColumn(db, companyId, c.req.valid("param").id);
    await assertNameFree(db, crmColumns, companyId, input.name, { exceptId: column.id });
    const [updated] = await withNameIndex(() =>
      db
        .update(crmColumns)
        .set({ name: input.name, color: input.color ?? column.color, updatedAt: now() })
        .where(and(eq(crmColumns.id, column.id), eq(crmColumns.companyId, companyId)))
        .returning(),
    );
    await publishColumns(c.env, db, companyId);
    return c.json(presentColumn(updated ?? column));
  })
  /** DELETE /api/crm/columns/{id} → 204; its contacts leave the board. */
  .delete("/columns/:id", zv("param", idParam), async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const column = await findColumn(db, companyId, c.req.valid("param").id);
    await db.batch([
      db
        .update(contacts)
        .set({ crmColumnId: null, crmPosition: null })
        .where(and(eq(contacts.companyId, companyId), eq(contacts.crmColumnId, column.id))),
      db.delete(crmColumns).where(and(eq(crmColumns.id, column.id), eq(crmColumns.companyId, companyId))),
    ]);
    await publishColumns(c.env, db, companyId);
    return c.body(null, 204);
  })
  /** PUT /api/crm/contacts/{contactId} {columnId, beforeId?, afterId?} → {contactId, card}. */
  .put("/contacts/:contactId", zv("param", contactParam), zv("json", crmMoveInput), async (c) => {
    const input = c.req.valid("json");
    const db = c.var.db;
    const companyId = c.var.company.id;
    const contact = await findContact(db, companyId, c.req.valid("param").contactId);
    if (input.columnId === null) {
      await db.update(contacts).set({ crmColumnId: null, crmPosition: null }).where(and(eq(contacts.id, contact.id), eq(contacts.companyId, companyId)));
    } else {
      const column = await db.query.crmColumns.findFirst({ where: and(eq(crmColumns.id, input.columnId), eq(crmColumns.companyId, companyId)) });
      if (!column) throw new AppError("validation_failed", "That column is not on this board.", { columnId: "invalid_id" });
      let position = await positionFor(db, companyId, column.id, contact.id, input.beforeId, input.afterId);
      if (position === null) {
        await renumber(db, companyId, column.id);
        position = (await positionFor(db, companyId, column.id, contact.id, input.beforeId, input.afterId)) ?? 0;
      }
      await db.update(contacts).set({ crmColumnId: column.id, crmPosition: position }).where(and(eq(contacts.id, contact.id), eq(contacts.companyId, companyId)));
    }
    await publishCard(c.env, db, companyId, contact.id, contact.crmColumnId);
    const row = await findContact(db, companyId, contact.id);
    const [card] = await presentCards(db, companyId, [row]);
    return c.json({ contactId: contact.id, card: card ?? null });
  });

