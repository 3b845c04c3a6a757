/**
 * Quick messages (spec §2 Quick messages, §3 Quick message; issue 4): saved texts with an optional
 * attachment, inserted in the chat composer by typing `/`. Variables `{{first_name}}` and any field's
 * `{{key}}` are filled in for a contact (schema/template.ts). Permission `quick_messages` to manage;
 * listing, reading and rendering also with `tickets` (the composer). Another company's ids → 404.
 *
 * - GET /api/quick-messages?search=&cursor=&limit= → `{results: QuickMessageAnswer[], cursor, total}`
 *   by name.
 * - POST /api/quick-messages: JSON `{name, text}` or multipart `{name, text, file?}` (file ≤ 100 MB)
 *   → 201 QuickMessageAnswer. 400 `text: required` when there is neither text nor file. The name is
 *   the `/` shortcut: unique in the company, ignoring case (409 `name_in_use` naming `name`).
 * - GET /api/quick-messages/{id} → QuickMessageAnswer.
 * - PUT /api/quick-messages/{id}: the same, plus `removeMedia: "true"` (multipart) or
 *   `removeMedia: true` (JSON) to drop the attachment; a new file replaces it → QuickMessageAnswer.
 * - DELETE /api/quick-messages/{id} → 204 (the attachment is deleted from R2).
 * - POST /api/quick-messages/{id}/render {contactId} → RenderedQuickMessage `{text, media}`.
 */
import { Hono, type Context } from "hono";
import { and, asc, count, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { quickMessages, type QuickMessageRow } from "../../schema";
import type { Page, QuickMessageAnswer, RenderedQuickMessage } from "../../schema/api-types";
import { renderTemplate } from "../../schema/template";
import { idSchema } from "../../schema/validation/common";
import { namedListQuery, quickMessageInput, renderInput } from "../../schema/validation/contacts";
import type { AppEnv } from "../env";
import type { HonoEnv } from "../middleware/context";
import { requireCompany, requirePermission, requireSubscription, requireUser } from "../middleware/auth";
import { findContact, likePattern, templateVariables } from "../lib/contacts";
import { decodeTextCursor, encodeCursor } from "../lib/cursor";
import type { Db } from "../lib/db";
import { now } from "../lib/db";
import { AppError, notFound, validationError } from "../lib/errors";
import { newId } from "../lib/ids";
import { MAX_MEDIA_BYTES, signedMediaUrl, storeMedia } from "../lib/media";
import { zv } from "../lib/validate";
import { readForm } from "../lib/multipart";
import { assertNameFree, withNameIndex } from "../lib/unique-name";

const idParam = z.object({ id: idSchema });

const jsonBody = quickMessageInput.extend({ removeMedia: z.boolean().optional() });
const formBody = quickMessageInput.extend({
  file: z.instanceof(File, { error: "invalid_file" }).optional(),
  removeMedia: z.enum(["true", "false"], { error: "invalid_value" }).optional(),
});

async function present(env: AppEnv, row: QuickMessageRow): Promise<QuickMessageAnswer> {
  return {
    id: row.id,
    name: row.name,
    text: row.text,
    media: row.mediaKey ? { url: await signedMediaUrl(env, row.mediaKey), mime: row.mediaMime ?? "application/octet-stream", name: row.mediaName, size: row.mediaSize } : null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

async function findMessage(db: Db, companyId: string, id: string): Promise<QuickMessageRow> {
  const row = await db.query.quickMessages.findFirst({ where: and(eq(quickMessages.id, id), eq(quickMessages.companyId, companyId)) });
  if (!row) throw notFound("Quick message");
  return row;
}

type Parsed = { name: string; text: string; file: File | null; removeMedia: boolean };

/** Reads a JSON or multipart body; 400 naming the field on failure. */
async function readBody(c: Context<HonoEnv>): Promise<Parsed> {
  if ((c.req.header("Content-Type") ?? "").startsWith("multipart/form-data")) {
    const form = formBody.safeParse(await readForm(c, "file"), { reportInput: true });
    if (!form.success) throw validationError(form.error);
    const file = form.data.file && form.data.file.size > 0 ? form.data.file : null;
    if (file && file.size > MAX_MEDIA_BYTES) throw new AppError("validation_failed", "The file is larger than 100 MB.", { file: "too_large" });
    return { name: form.data.name, text: form.data.text, file, removeMedia: form.data.removeMedia === "true" };
  }
  let json: unknown;
  try {
    json = await c.req.json();
  } catch {
    throw new AppError("validation_failed", "Malformed JSON body.", { _: "invalid_json" });
  }
  const input = jsonBody.safeParse(json, { reportInput: true });
  if (!input.success) throw validationError(input.error);
  return { name: input.data.name, text: input.data.text, file: null, removeMedia: input.data.removeMedia ?? false };
}

async function storeFile(env: AppEnv, companyId: string, file: File) {
  const mime = file.type || "application/octet-stream";
  const stored = await storeMedia(env.FILES, companyId, await file.arrayBuffer(), mime, file.name);
  return { mediaKey: stored.key, mediaMime: stored.mime, mediaName: file.name || null, mediaSize: stored.size };
}

export const quickMessagesRoutes = new Hono<HonoEnv>()
  .use(requireUser, requireCompany, requireSubscription)
  /** GET /api/quick-messages → Page<QuickMessageAnswer>. */
  .get("/", requirePermission("quick_messages", "tickets"), zv("query", namedListQuery), async (c) => {
    const q = c.req.valid("query");
    const db = c.var.db;
    const companyId = c.var.company.id;
    const where = and(eq(quickMessages.companyId, companyId), q.search ? sql`${quickMessages.name} LIKE ${likePattern(q.search)} ESCAPE '\\'` : undefined);
    const after = decodeTextCursor(q.cursor);
    const rows = await db
      .select()
      .from(quickMessages)
      .where(after ? and(where, sql`(${quickMessages.name}, ${quickMessages.id}) > (${after[0]}, ${after[1]})`) : where)
      .orderBy(asc(quickMessages.name), asc(quickMessages.id))
      .limit(q.limit + 1);
    const page = rows.slice(0, q.limit);
    const last = page[page.length - 1];
    const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(quickMessages).where(where);
    const answer: Page<QuickMessageAnswer> = {
      results: await Promise.all(page.map((r) => present(c.env, r))),
      cursor: rows.length > q.limit && last ? encodeCursor([last.name, last.id]) : null,
      total,
    };
    return c.json(answer);
  })
  /** GET /api/quick-messages/{id} → QuickMessageAnswer. */
  .get("/:id", requirePermission("quick_messages", "tickets"), zv("param", idParam), async (c) =>
    c.json(await present(c.env, await findMessage(c.var.db, c.var.company.id, c.req.valid("param").id))),
  )
  /** POST /api/quick-messages/{id}/render {contactId} → RenderedQuickMessage. */
  .post("/:id/render", requirePermission("quick_messages", "tickets"), zv("param", idParam), zv("json", renderInput), async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const message = await findMessage(db, companyId, c.req.valid("param").id);
    const contact = await findContact(db, companyId, c.req.valid("json").contactId);
    const answer = await present(c.env, message);
    const rendered: RenderedQuickMessage = { text: renderTemplate(message.text, await templateVariables(c.env, db, contact)), media: answer.media };
    return c.json(rendered);
  })
  .use(requirePermission("quick_messages"))
  /** POST /api/quick-messages → 201 QuickMessageAnswer. */
  .post("/", async (c) => {
    const body = await readBody(c);
    if (!body.text && !body.file) throw new AppError("validation_failed", "Invalid input: text.", { text: "required" });
    const companyId = c.var.company.id;
    await assertNameFree(c.var.db, quickMessages, companyId, body.name);
    const at = now();
    const media = body.file ? await storeFile(c.env, companyId, body.file) : { mediaKey: null, mediaMime: null, mediaName: null, mediaSize: null };
    const row: QuickMessageRow = { id: newId(), companyId, name: body.name, text: body.text, ...media, createdAt: at, updatedAt: at };
    await withNameIndex(() => c.var.db.insert(quickMessages).values(row));
    return c.json(await present(c.env, row), 201);
  })
  /** PUT /api/quick-messages/{id} → QuickMessageAnswer. */
  .put("/:id", zv("param", idParam), async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const existing = await findMessage(db, companyId, c.req.valid("param").id);
    const body = await readBody(c);
    const keepMedia = !body.file && !body.removeMedia && existing.mediaKey !== null;
    if (!body.text && !body.file && !keepMedia) throw new AppError("validation_failed", "Invalid input: text.", { text: "required" });
    await assertNameFree(db, quickMessages, companyId, body.name, { exceptId: existing.id });
    const media = body.file
      ? await storeFile(c.env, companyId, body.file)
      : body.removeMedia
        ? { mediaKey: null, mediaMime: null, mediaName: null, mediaSize: null }
        : { mediaKey: existing.mediaKey, mediaMime: existing.mediaMime, mediaName: existing.mediaName, mediaSize: existing.mediaSize };
    const [updated] = await withNameIndex(() =>
      db
        .update(quickMessages)
        .set({ name: body.name, text: body.text, ...media, updatedAt: now() })
        .where(and(eq(quickMessages.id, existing.id), eq(quickMessages.companyId, companyId)))
        .returning(),
    );
    const oldKey = existing.mediaKey;
    if (oldKey && oldKey !== media.mediaKey) c.executionCtx.waitUntil(c.env.FILES.delete(oldKey).catch(() => undefined));
    return c.json(await present(c.env, updated ?? existing));
  })
  /** DELETE /api/quick-messages/{id} → 204. */
  .delete("/:id", zv("param", idParam), async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const existing = await findMessage(db, companyId, c.req.valid("param").id);
    await db.delete(quickMessages).where(and(eq(quickMessages.id, existing.id), eq(quickMessages.companyId, companyId)));
    const key = existing.mediaKey;
    if (key) c.executionCtx.waitUntil(c.env.FILES.delete(key).catch(() => undefined));
    return c.body(null, 204);
  });
