/**
 * Tags (spec §2 Registers /registers/tags, §3 Tag; issue 4): a name and a `#rrggbb` colour. Names
 * are unique per company and kind, case-insensitively (409 `name_in_use` 'This name is already in
 * use.'). Permission `tags` to manage; reading also with `contacts` or `contacts_tags` (the contact
 * screens filter and tag by them).
 *
 * - GET /api/tags?search=&cursor=&limit= → `{results: TagAnswer[], cursor, total}` by name.
 * - POST /api/tags {name, color} → 201 TagAnswer.
 * - GET /api/tags/{id} → TagAnswer.
 * - PUT /api/tags/{id} {name, color} → TagAnswer.
 * - DELETE /api/tags/{id} → 204 (contacts lose the tag).
 */
import { Hono } from "hono";
import { and, asc, count, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { contactTags, tags, type TagRow } from "../../schema";
import type { Page, TagAnswer } from "../../schema/api-types";
import { idSchema } from "../../schema/validation/common";
import { namedListQuery, tagInput } from "../../schema/validation/contacts";
import type { HonoEnv } from "../middleware/context";
import { requireCompany, requirePermission, requireSubscription, requireUser } from "../middleware/auth";
import { likePattern } from "../lib/contacts";
import { decodeTextCursor, encodeCursor } from "../lib/cursor";
import type { Db } from "../lib/db";
import { isUniqueViolation, now } from "../lib/db";
import { AppError, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { zv } from "../lib/validate";

const idParam = z.object({ id: idSchema });

const nameInUse = () => new AppError("name_in_use", "This name is already in use.", { name: "name_in_use" });

function present(row: TagRow): TagAnswer {
  return { id: row.id, name: row.name, color: row.color, createdAt: row.createdAt };
}

async function findTag(db: Db, companyId: string, id: string): Promise<TagRow> {
  const row = await db.query.tags.findFirst({ where: and(eq(tags.id, id), eq(tags.companyId, companyId)) });
  if (!row) throw notFound("Tag");
  return row;
}

/** A case-insensitive clash with another contact tag of the company. */
async function nameTaken(db: Db, companyId: string, name: string, exceptId?: string): Promise<boolean> {
  const row = await db
    .select({ id: tags.id })
    .from(tags)
    .where(and(eq(tags.companyId, companyId), eq(tags.kind, "contact"), sql`lower(${tags.name}) = lower(${name})`, exceptId ? sql`${tags.id} <> ${exceptId}` : undefined))
    .limit(1);
  return row.length > 0;
}

export const tagsRoutes = new Hono<HonoEnv>()
  .use(requireUser, requireCompany, requireSubscription)
  /** GET /api/tags → Page<TagAnswer>, by name then id. */
  .get("/", requirePermission("tags", "contacts", "contacts_tags"), zv("query", namedListQuery), async (c) => {
    const q = c.req.valid("query");
    const db = c.var.db;
    const companyId = c.var.company.id;
    const where = and(eq(tags.companyId, companyId), q.search ? sql`${tags.name} LIKE ${likePattern(q.search)} ESCAPE '\\'` : undefined);
    const after = decodeTextCursor(q.cursor);
    const rows = await db
      .select()
      .from(tags)
      .where(after ? and(where, sql`(${tags.name}, ${tags.id}) > (${after[0]}, ${after[1]})`) : where)
      .orderBy(asc(tags.name), asc(tags.id))
      .limit(q.limit + 1);
    const page = rows.slice(0, q.limit);
    const last = page[page.length - 1];
    const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(tags).where(where);
    const answer: Page<TagAnswer> = { results: page.map(present), cursor: rows.length > q.limit && last ? encodeCursor([last.name, last.id]) : null, total };
    return c.json(answer);
  })
  /** GET /api/tags/{id} → TagAnswer. */
  .get("/:id", requirePermission("tags", "contacts", "contacts_tags"), zv("param", idParam), async (c) =>
    c.json(present(await findTag(c.var.db, c.var.company.id, c.req.valid("param").id))),
  )
  .use(requirePermission("tags"))
  /** POST /api/tags {name, color} → 201 TagAnswer; 409 name_in_use. */
  .post("/", zv("json", tagInput), async (c) => {
    const input = c.req.valid("json");
    const db = c.var.db;
    const companyId = c.var.company.id;
    if (await nameTaken(db, companyId, input.name)) throw nameInUse();
    const at = now();
    const row: TagRow = { id: newId(), companyId, name: input.name, color: input.color, kind: "contact", createdAt: at, updatedAt: at };
    try {
      await db.insert(tags).values(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw nameInUse();
      throw error;
    }
    return c.json(present(row), 201);
  })
  /** PUT /api/tags/{id} {name, color} → TagAnswer; 409 name_in_use. */
  .put("/:id", zv("param", idParam), zv("json", tagInput), async (c) => {
    const input = c.req.valid("json");
    const db = c.var.db;
    const companyId = c.var.company.id;
    const tag = await findTag(db, companyId, c.req.valid("param").id);
    if (await nameTaken(db, companyId, input.name, tag.id)) throw nameInUse();
    try {
      const [updated] = await db
        .update(tags)
        .set({ name: input.name, color: input.color, updatedAt: now() })
        .where(and(eq(tags.id, tag.id), eq(tags.companyId, companyId)))
        .returning();
      return c.json(present(updated ?? tag));
    } catch (error) {
      if (isUniqueViolation(error)) throw nameInUse();
      throw error;
    }
  })
  /** DELETE /api/tags/{id} → 204. */
  .delete("/:id", zv("param", idParam), async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const tag = await findTag(db, companyId, c.req.valid("param").id);
    await db.batch([
      db.delete(contactTags).where(and(eq(contactTags.companyId, companyId), eq(contactTags.tagId, tag.id))),
      db.delete(tags).where(and(eq(tags.id, tag.id), eq(tags.companyId, companyId))),
    ]);
    return c.body(null, 204);
  });
