/**
 * Announcements, written by platform administrators (issue 12; DESIGN.md "Platform administration";
 * worker/middleware/platform-admin.ts). Members read them through GET /api/me/announcements?code and
 * dismiss them with POST /api/me/announcements/seen (worker/routes/me.ts).
 *
 * - GET /api/admin/announcements → {results: AdminAnnouncementAnswer[], cursor: null, total}, newest
 *   first (at most 200).
 * - POST /api/admin/announcements AnnouncementInput → 201 AdminAnnouncementAnswer.
 * - GET /api/admin/announcements/{id} → AdminAnnouncementAnswer; 404 when unknown.
 * - PUT /api/admin/announcements/{id} AnnouncementInput → AdminAnnouncementAnswer; 404 when unknown.
 * - DELETE /api/admin/announcements/{id} → 204 (its "seen" marks go with it); 404 when unknown.
 * Every route: 401 without a session, 403 `forbidden` for a user who is not a platform
 * administrator, 403 `api_key_not_allowed` for a company API key; 400 naming the field for bad input.
 */
import { Hono } from "hono";
import { count, desc, eq } from "drizzle-orm";
import { z } from "zod";
import { announcementSeen, announcements, type AnnouncementRow } from "../../schema";
import { idSchema } from "../../schema/validation/common";
import { announcementInput, type AdminAnnouncementAnswer } from "../../schema/validation/announcements";
import type { HonoEnv } from "../middleware/context";
import { requireUser } from "../middleware/auth";
import { requirePlatformAdmin } from "../middleware/platform-admin";
import { now } from "../lib/db";
import { notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { zv } from "../lib/validate";

const idParam = z.object({ id: idSchema });

/** How many announcements the list answers. */
const LIST_LIMIT = 200;

function present(row: AnnouncementRow): AdminAnnouncementAnswer {
  return {
    id: row.id,
    title: row.title,
    body: row.body,
    code: row.code,
    url: row.url,
    audience: row.audience,
    startsAt: row.startsAt,
    endsAt: row.endsAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt || row.createdAt,
  };
}

export const adminAnnouncementsRoutes = new Hono<HonoEnv>()
  .use(requireUser, requirePlatformAdmin)
  /** GET /api/admin/announcements → {results, cursor: null, total}. */
  .get("/", async (c) => {
    const db = c.var.db;
    const rows = await db.select().from(announcements).orderBy(desc(announcements.createdAt)).limit(LIST_LIMIT);
    const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(announcements);
    return c.json({ results: rows.map(present), cursor: null, total });
  })
  /** POST /api/admin/announcements → 201 AdminAnnouncementAnswer. */
  .post("/", zv("json", announcementInput), async (c) => {
    const input = c.req.valid("json");
    const at = now();
    const [row] = await c.var.db
      .insert(announcements)
      .values({
        id: newId(),
        title: input.title,
        body: input.body,
        code: input.code ?? null,
        url: input.url ?? null,
        audience: input.audience,
        startsAt: input.startsAt ?? null,
        endsAt: input.endsAt ?? null,
        createdBy: c.var.user.id,
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    return c.json(present(row!), 201);
  })
  /** GET /api/admin/announcements/{id} → AdminAnnouncementAnswer. */
  .get("/:id", zv("param", idParam), async (c) => {
    const row = await c.var.db.query.announcements.findFirst({ where: eq(announcements.id, c.req.valid("param").id) });
    if (!row) throw notFound("Announcement");
    return c.json(present(row));
  })
  /** PUT /api/admin/announcements/{id} → AdminAnnouncementAnswer (every field replaced). */
  .put("/:id", zv("param", idParam), zv("json", announcementInput), async (c) => {
    const input = c.req.valid("json");
    const [row] = await c.var.db
      .update(announcements)
      .set({
        title: input.title,
        body: input.body,
        code: input.code ?? null,
        url: input.url ?? null,
        audience: input.audience,
        startsAt: input.startsAt ?? null,
        endsAt: input.endsAt ?? null,
        updatedAt: now(),
      })
      .where(eq(announcements.id, c.req.valid("param").id))
      .returning();
    if (!row) throw notFound("Announcement");
    return c.json(present(row));
  })
  /** DELETE /api/admin/announcements/{id} → 204. */
  .delete("/:id", zv("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    const db = c.var.db;
    const found = await db.query.announcements.findFirst({ where: eq(announcements.id, id), columns: { id: true } });
    if (!found) throw notFound("Announcement");
    await db.batch([db.delete(announcementSeen).where(eq(announcementSeen.announcementId, id)), db.delete(announcements).where(eq(announcements.id, id))]);
    return c.body(null, 204);
  });
