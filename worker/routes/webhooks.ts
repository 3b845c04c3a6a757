/**
 * Inbound webhooks, managed (issue 11; spec §2 /webhook, §3 Webhook, §4 Webhook mode). Permission
 * `webhooks`. The requests themselves arrive at the public POST /api/hooks/{token}
 * (worker/routes/hooks.ts).
 *
 * - GET /api/webhooks → WebhookAnswer[] by name.
 * - POST /api/webhooks {name, mode, mapping {phone, name, email}, actions [...], spamLimit} → 201
 *   WebhookAnswer with its secret `url` (PUBLIC_URL + /api/hooks/{token}, 256-bit token).
 * - GET /api/webhooks/{id} → WebhookAnswer; PUT (same body) → WebhookAnswer (the URL is kept;
 *   setting `production` again clears `spamAt`); DELETE → 204 (its requests go with it).
 * - GET /api/webhooks/{id}/requests?cursor=&limit= → {results: WebhookRequestAnswer[], cursor}
 *   newest first.
 *
 * 400 `validation_failed` naming the field for a malformed body, and `actions.<i>.<idField>:
 * invalid_id` for a flow, connection, tag, custom field (`user` fields without a formula), CRM
 * column or shipping cycle that is not the company's; 409 `name_in_use` for a name another webhook
 * of the company has, ignoring case. Another company's webhook answers 404.
 */
import { Hono } from "hono";
import { and, asc, desc, eq, inArray, lt, or } from "drizzle-orm";
import { z } from "zod";
import { customFields, shippingCycles, webhookRequestActions, webhookRequests, webhooks, type WebhookRow } from "../../schema";
import { idSchema } from "../../schema/validation/common";
import { webhookInput, webhookRequestsQuery, type WebhookInput, type WebhookRequestPage } from "../../schema/validation/webhooks";
import type { HonoEnv } from "../middleware/context";
import { requireCompany, requirePermission, requireSubscription, requireUser } from "../middleware/auth";
import { decodeNumberCursor, encodeCursor } from "../lib/cursor";
import type { Db } from "../lib/db";
import { now } from "../lib/db";
import { AppError } from "../lib/errors";
import { newId } from "../lib/ids";
import { assertNameFree, withNameIndex } from "../lib/unique-name";
import { zv } from "../lib/validate";
import { findWebhook, newHookToken, presentRequest, presentWebhook } from "../lib/webhooks";
import { existingIds } from "../lib/webhooks-run";

const idParam = z.object({ id: idSchema });

/**
 * Checks every id the actions name belongs to the company: 400 `validation_failed` with
 * `actions.<i>.<field>: invalid_id` for each that does not (a `set_field` on a built-in, bot or
 * formula field too).
 */
async function checkActions(db: Db, companyId: string, input: WebhookInput): Promise<void> {
  const wanted = { tags: [] as string[], custom_fields: [] as string[], crm_columns: [] as string[], flows: [] as string[], connections: [] as string[] };
  for (const action of input.actions) {
    if (action.type === "start_flow") wanted.flows.push(action.flowId), wanted.connections.push(action.connectionId);
    if (action.type === "add_tag" || action.type === "remove_tag") wanted.tags.push(action.tagId);
    if (action.type === "set_field") wanted.custom_fields.push(action.customFieldId);
    if (action.type === "move_crm") wanted.crm_columns.push(action.columnId);
  }
  const [tagIds, flowIds, connectionIds, columnIds] = await Promise.all([
    existingIds(db, companyId, "tags", wanted.tags),
    existingIds(db, companyId, "flows", wanted.flows),
    existingIds(db, companyId, "connections", wanted.connections),
    existingIds(db, companyId, "crm_columns", wanted.crm_columns),
  ]);
  const writable = new Set(
    wanted.custom_fields.length
      ? (
          await db
            .select({ id: customFields.id, kind: customFields.kind, formula: customFields.formula })
            .from(customFields)
            .where(and(eq(customFields.companyId, companyId), inArray(customFields.id, wanted.custom_fields)))
        )
          .filter((f) => f.kind === "user" && !f.formula)
          .map((f) => f.id)
      : [],
  );
  const cycleIds = input.actions.flatMap((a) => (a.type === "add_to_cycle" ? [a.cycleId] : []));
  const cycles = new Set(
    cycleIds.length
      ? (await db.select({ id: shippingCycles.id }).from(shippingCycles).where(and(eq(shippingCycles.companyId, companyId), inArray(shippingCycles.id, cycleIds)))).map((r) => r.id)
      : [],
  );
  const fields: Record<string, string> = {};
  input.actions.forEach((action, i) => {
    const bad = (field: string) => (fields[`actions.${i}.${field}`] = "invalid_id");
    switch (action.type) {
      case "start_flow":
        if (!flowIds.has(action.flowId)) bad("flowId");
        if (!connectionIds.has(action.connectionId)) bad("connectionId");
        break;
      case "add_tag":
      case "remove_tag":
        if (!tagIds.has(action.tagId)) bad("tagId");
        break;
      case "set_field":
        if (!writable.has(action.customFieldId)) bad("customFieldId");
        break;
      case "add_to_cycle":
        if (!cycles.has(action.cycleId)) bad("cycleId");
        break;
      case "move_crm":
        if (!columnIds.has(action.columnId)) bad("columnId");
        break;
    }
  });
  if (Object.keys(fields).length) throw new AppError("validation_failed", `Invalid input: ${Object.keys(fields).join(", ")}.`, fields);
}

export const webhooksRoutes = new Hono<HonoEnv>()
  .use(requireUser, requireCompany, requireSubscription, requirePermission("webhooks"))
  /** GET /api/webhooks → WebhookAnswer[] by name. */
  .get("/", async (c) => {
    const rows = await c.var.db.select().from(webhooks).where(eq(webhooks.companyId, c.var.company.id)).orderBy(asc(webhooks.name), asc(webhooks.id));
    return c.json(rows.map((row) => presentWebhook(c.env, row)));
  })
  /** POST /api/webhooks → 201 WebhookAnswer. */
  .post("/", zv("json", webhookInput), async (c) => {
    const input = c.req.valid("json");
    const db = c.var.db;
    const companyId = c.var.company.id;
    await checkActions(db, companyId, input);
    await assertNameFree(db, webhooks, companyId, input.name);
    const at = now();
    const { token, tokenHash } = await newHookToken();
    const row: WebhookRow = {
      id: newId(),
      companyId,
      name: input.name,
      mode: input.mode,
      token,
      tokenHash,
      mapping: input.mapping,
      actions: input.actions,
      spamLimit: input.spamLimit,
      spamAt: null,
      lastRequestAt: null,
      createdAt: at,
      updatedAt: at,
    };
    await withNameIndex(() => db.insert(webhooks).values(row));
    return c.json(presentWebhook(c.env, row), 201);
  })
  /** GET /api/webhooks/{id} → WebhookAnswer. */
  .get("/:id", zv("param", idParam), async (c) => c.json(presentWebhook(c.env, await findWebhook(c.var.db, c.var.company.id, c.req.valid("param").id))))
  /** PUT /api/webhooks/{id} → WebhookAnswer. */
  .put("/:id", zv("param", idParam), zv("json", webhookInput), async (c) => {
    const input = c.req.valid("json");
    const db = c.var.db;
    const companyId = c.var.company.id;
    const row = await findWebhook(db, companyId, c.req.valid("param").id);
    await checkActions(db, companyId, input);
    await assertNameFree(db, webhooks, companyId, input.name, { exceptId: row.id });
    const [updated] = await withNameIndex(() =>
      db
        .update(webhooks)
        .set({
          name: input.name,
          mode: input.mode,
          mapping: input.mapping,
          actions: input.actions,
          spamLimit: input.spamLimit,
          // Back in production by hand: the burst is over.
          spamAt: input.mode === "production" ? null : row.spamAt,
          updatedAt: now(),
        })
        .where(and(eq(webhooks.id, row.id), eq(webhooks.companyId, companyId)))
        .returning(),
    );
    return c.json(presentWebhook(c.env, updated ?? row));
  })
  /** DELETE /api/webhooks/{id} → 204 (with its requests). */
  .delete("/:id", zv("param", idParam), async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const row = await findWebhook(db, companyId, c.req.valid("param").id);
    const requestIds = db.select({ id: webhookRequests.id }).from(webhookRequests).where(and(eq(webhookRequests.webhookId, row.id), eq(webhookRequests.companyId, companyId)));
    await db.batch([
      db.delete(webhookRequestActions).where(and(eq(webhookRequestActions.companyId, companyId), inArray(webhookRequestActions.requestId, requestIds))),
      db.delete(webhookRequests).where(and(eq(webhookRequests.webhookId, row.id), eq(webhookRequests.companyId, companyId))),
      db.delete(webhooks).where(and(eq(webhooks.id, row.id), eq(webhooks.companyId, companyId))),
    ]);
    return c.body(null, 204);
  })
  /** GET /api/webhooks/{id}/requests?cursor=&limit= → WebhookRequestPage, newest first. */
  .get("/:id/requests", zv("param", idParam), zv("query", webhookRequestsQuery), async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const row = await findWebhook(db, companyId, c.req.valid("param").id);
    const { cursor, limit } = c.req.valid("query");
    const after = decodeNumberCursor(cursor);
    const rows = await db
      .select()
      .from(webhookRequests)
      .where(
        and(
          eq(webhookRequests.webhookId, row.id),
          eq(webhookRequests.companyId, companyId),
          after ? or(lt(webhookRequests.receivedAt, after[0]), and(eq(webhookRequests.receivedAt, after[0]), lt(webhookRequests.id, after[1]))) : undefined,
        ),
      )
      .orderBy(desc(webhookRequests.receivedAt), desc(webhookRequests.id))
      .limit(limit + 1);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const answer: WebhookRequestPage = { results: page.map(presentRequest), cursor: rows.length > limit && last ? encodeCursor([last.receivedAt, last.id]) : null };
    return c.json(answer);
  });
