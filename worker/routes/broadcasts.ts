/**
 * Broadcasts (issue 10 "Broadcasts"; spec §2 /broadcasts and /broadcasts/history, §3 Broadcast,
 * §4 Broadcast status, §5 scheduledDate). Permission `broadcasts`; not reachable with an API key.
 * Shapes: schema/validation/broadcasts.ts.
 *
 * - GET /api/broadcasts?tab=current|history&cursor=&limit= → Page<BroadcastListItem & {filters, template}>
 *   newest first (current: waiting, started, paused; history: done, cancelled).
 * - POST /api/broadcasts {name, connectionId, flowId, delay, scheduledDate?, filters, template?} →
 *   201 BroadcastDetail, status `waiting` (with a scheduledDate it starts by itself then).
 * - POST /api/broadcasts/audience {connectionId, filters} → {count}: the form's live count.
 * - GET /api/broadcasts/{id} → BroadcastDetail; PUT (fields optional) → BroadcastDetail; DELETE →
 *   204: a broadcast not yet done is cancelled (kept in history with its counts); one in history is
 *   removed with its recipients.
 * - POST /api/broadcasts/{id}/start (waiting → started), /pause (started → paused), /resume
 *   (paused → started) → BroadcastDetail; 409 `conflict` from any other status.
 * - GET /api/broadcasts/{id}/recipients?status=pending|sent|rejected&cursor=&limit= →
 *   Page<BroadcastRecipientRow> by contact id (each rejected one with its reason).
 * 400 `validation_failed` naming `flowId: invalid_flow` (not a published flow of the company),
 * `scheduledDate: invalid_scheduled_date` (malformed or earlier than now), `connectionId:
 * invalid_id`, `filters.<i>.<key>`; 404 for another company's broadcast (or any unknown id).
 */
import { Hono } from "hono";
import { and, desc, eq, gt, inArray, lt, or, sql } from "drizzle-orm";
import { z } from "zod";
import { broadcastRecipients, broadcasts, connections, contacts, flows, type BroadcastRow } from "../../schema";
import type { Page } from "../../schema/api-types";
import { idSchema } from "../../schema/validation/common";
import {
  CURRENT_BROADCAST_STATUSES,
  audienceInput,
  broadcastInput,
  broadcastListQuery,
  broadcastUpdate,
  recipientListQuery,
  type AudienceAnswer,
  type BroadcastDetail,
  type BroadcastRecipientRow,
  type BroadcastStatus,
} from "../../schema/validation/broadcasts";
import type { HonoEnv } from "../middleware/context";
import { requireCompany, requirePermission, requireSubscription, requireUser } from "../middleware/auth";
import { audienceCount, audienceWhere, findBroadcast, presentBroadcast, presentBroadcasts, publishProgress, schedulerOf } from "../lib/broadcasts";
import { decodeNumberCursor, decodeTextCursor, encodeCursor } from "../lib/cursor";
import type { Db } from "../lib/db";
import { now } from "../lib/db";
import { AppError } from "../lib/errors";
import { newId } from "../lib/ids";
import { zv } from "../lib/validate";

const idParam = z.object({ id: idSchema });
const HISTORY: readonly BroadcastStatus[] = ["done", "cancelled"];

const invalidField = (field: string, reason: string, message: string) => new AppError("validation_failed", message, { [field]: reason });

/** 400 `flowId: invalid_flow` unless `flowId` is a published flow of the company. */
async function checkFlow(db: Db, companyId: string, flowId: string): Promise<void> {
  const flow = await db.query.flows.findFirst({ where: and(eq(flows.id, flowId), eq(flows.companyId, companyId)), columns: { publishedVersion: true } });
  if (!flow || flow.publishedVersion === null) throw invalidField("flowId", "invalid_flow", "The flow must be a published flow of the company.");
}

/** 400 `connectionId: invalid_id` unless the connection is the company's. */
async function checkConnection(db: Db, companyId: string, connectionId: string): Promise<void> {
  const row = await db.query.connections.findFirst({ where: and(eq(connections.id, connectionId), eq(connections.companyId, companyId)), columns: { id: true } });
  if (!row) throw invalidField("connectionId", "invalid_id", "That connection does not exist.");
}

/** 400 `scheduledDate: invalid_scheduled_date` when earlier than now (spec §5). */
function checkScheduledDate(at: number | null | undefined): void {
  if (typeof at === "number" && at < now()) throw invalidField("scheduledDate", "invalid_scheduled_date", "The scheduled date must not be earlier than now.");
}

/** Moves `row` from one of `from` to `to` (with `extra` columns), or 409; answers the stored row. */
async function transition(db: Db, row: BroadcastRow, from: readonly BroadcastStatus[], to: BroadcastStatus, extra: Partial<BroadcastRow> = {}): Promise<BroadcastRow> {
  const [updated] = await db
    .update(broadcasts)
    .set({ status: to, updatedAt: now(), ...extra })
    .where(and(eq(broadcasts.id, row.id), eq(broadcasts.companyId, row.companyId), inArray(broadcasts.status, [...from])))
    .returning();
  if (!updated) throw new AppError("conflict", `This broadcast is ${row.status}; it cannot be ${to === "started" ? "started" : to}.`);
  return updated;
}

export const broadcastsRoutes = new Hono<HonoEnv>()
  .use(requireUser, requireCompany, requireSubscription, requirePermission("broadcasts"))
  /** GET /api/broadcasts?tab=current|history&cursor=&limit= → Page<BroadcastDetail>, newest first. */
  .get("/", zv("query", broadcastListQuery), async (c) => {
    const { tab, cursor, limit } = c.req.valid("query");
    const db = c.var.db;
    const companyId = c.var.company.id;
    const statuses = tab === "current" ? CURRENT_BROADCAST_STATUSES : HISTORY;
    const after = decodeNumberCursor(cursor);
    const inTab = and(eq(broadcasts.companyId, companyId), inArray(broadcasts.status, [...statuses]));
    const where = after ? and(inTab, or(lt(broadcasts.createdAt, after[0]), and(eq(broadcasts.createdAt, after[0]), lt(broadcasts.id, after[1])))) : inTab;
    const [rows, [total]] = await Promise.all([
      db.select().from(broadcasts).where(where).orderBy(desc(broadcasts.createdAt), desc(broadcasts.id)).limit(limit + 1),
      db.select({ n: sql<number>`COUNT(*)` }).from(broadcasts).where(inTab),
    ]);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const answer: Page<BroadcastDetail> = {
      results: await presentBroadcasts(db, companyId, page),
      cursor: rows.length > limit && last ? encodeCursor([last.createdAt, last.id]) : null,
      total: total?.n ?? 0,
    };
    return c.json(answer);
  })
  /** POST /api/broadcasts → 201 BroadcastDetail (status `waiting`). */
  .post("/", zv("json", broadcastInput), async (c) => {
    const input = c.req.valid("json");
    const db = c.var.db;
    const companyId = c.var.company.id;
    checkScheduledDate(input.scheduledDate);
    await checkConnection(db, companyId, input.connectionId);
    await checkFlow(db, companyId, input.flowId);
    await audienceWhere(db, companyId, input.filters);
    const at = now();
    const row: BroadcastRow = {
      id: newId(),
      companyId,
      name: input.name,
      connectionId: input.connectionId,
      flowId: input.flowId,
      delay: input.delay,
      scheduledDate: input.scheduledDate ?? null,
      filters: input.filters,
      template: input.template ?? null,
      status: "waiting",
      total: null,
      sentCount: 0,
      rejectedCount: 0,
      startedAt: null,
      finishedAt: null,
      createdAt: at,
      updatedAt: at,
    };
    await db.insert(broadcasts).values(row);
    if (row.scheduledDate !== null) await schedulerOf(c.env, row.id).arm(row.id, companyId, row.scheduledDate);
    return c.json(await presentBroadcast(db, row), 201);
  })
  /** POST /api/broadcasts/audience {connectionId, filters} → {count}. */
  .post("/audience", zv("json", audienceInput), async (c) => {
    const input = c.req.valid("json");
    await checkConnection(c.var.db, c.var.company.id, input.connectionId);
    const answer: AudienceAnswer = { count: await audienceCount(c.var.db, c.var.company.id, input.filters) };
    return c.json(answer);
  })
  /** GET /api/broadcasts/{id} → BroadcastDetail. */
  .get("/:id", zv("param", idParam), async (c) => c.json(await presentBroadcast(c.var.db, await findBroadcast(c.var.db, c.var.company.id, c.req.valid("param").id))))
  /**
   * PUT /api/broadcasts/{id} → BroadcastDetail. While `waiting` every field may change; started or
   * paused only `name` and `delay`; in history nothing (409 `conflict`).
   */
  .put("/:id", zv("param", idParam), zv("json", broadcastUpdate), async (c) => {
    const input = c.req.valid("json");
    const db = c.var.db;
    const companyId = c.var.company.id;
    const row = await findBroadcast(db, companyId, c.req.valid("param").id);
    if (HISTORY.includes(row.status)) throw new AppError("conflict", "A finished broadcast cannot be edited.");
    const structural = (["connectionId", "flowId", "scheduledDate", "filters", "template"] as const).filter((k) => input[k] !== undefined);
    if (row.status !== "waiting" && structural.length) {
      throw new AppError("conflict", `Only the name and the delay of a started broadcast can change (${structural.join(", ")}).`);
    }
    checkScheduledDate(input.scheduledDate);
    if (input.connectionId) await checkConnection(db, companyId, input.connectionId);
    if (input.flowId) await checkFlow(db, companyId, input.flowId);
    if (input.filters) await audienceWhere(db, companyId, input.filters);
    const [updated] = await db
      .update(broadcasts)
      .set({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.delay !== undefined ? { delay: input.delay } : {}),
        ...(input.connectionId !== undefined ? { connectionId: input.connectionId } : {}),
        ...(input.flowId !== undefined ? { flowId: input.flowId } : {}),
        ...(input.scheduledDate !== undefined ? { scheduledDate: input.scheduledDate } : {}),
        ...(input.filters !== undefined ? { filters: input.filters } : {}),
        ...(input.template !== undefined ? { template: input.template } : {}),
        updatedAt: now(),
      })
      .where(and(eq(broadcasts.id, row.id), eq(broadcasts.companyId, companyId), eq(broadcasts.status, row.status)))
      .returning();
    if (!updated) throw new AppError("conflict", "The broadcast changed meanwhile; reload it.");
    if (updated.status === "waiting" && input.scheduledDate !== undefined) {
      const scheduler = schedulerOf(c.env, updated.id);
      if (updated.scheduledDate !== null) await scheduler.arm(updated.id, companyId, updated.scheduledDate);
      else await scheduler.pause();
    }
    return c.json(await presentBroadcast(db, updated));
  })
  /** DELETE /api/broadcasts/{id} → 204 (cancels one not done; removes one in history). */
  .delete("/:id", zv("param", idParam), async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const row = await findBroadcast(db, companyId, c.req.valid("param").id);
    if (HISTORY.includes(row.status)) {
      await db.batch([
        db.delete(broadcastRecipients).where(and(eq(broadcastRecipients.broadcastId, row.id), eq(broadcastRecipients.companyId, companyId))),
        db.delete(broadcasts).where(and(eq(broadcasts.id, row.id), eq(broadcasts.companyId, companyId))),
      ]);
      return c.body(null, 204);
    }
    await schedulerOf(c.env, row.id).cancel();
    const cancelled = await transition(db, row, CURRENT_BROADCAST_STATUSES, "cancelled", { finishedAt: now() });
    await publishProgress(c.env, cancelled);
    return c.body(null, 204);
  })
  /** POST /api/broadcasts/{id}/start → BroadcastDetail (waiting → started). */
  .post("/:id/start", zv("param", idParam), async (c) => {
    const db = c.var.db;
    const row = await findBroadcast(db, c.var.company.id, c.req.valid("param").id);
    await checkFlow(db, row.companyId, row.flowId);
    const started = await transition(db, row, ["waiting"], "started", { startedAt: now() });
    await schedulerOf(c.env, row.id).arm(row.id, row.companyId, now());
    await publishProgress(c.env, started);
    return c.json(await presentBroadcast(db, started));
  })
  /** POST /api/broadcasts/{id}/pause → BroadcastDetail (started → paused; stops at once). */
  .post("/:id/pause", zv("param", idParam), async (c) => {
    const db = c.var.db;
    const row = await findBroadcast(db, c.var.company.id, c.req.valid("param").id);
    if (row.status !== "started") throw new AppError("conflict", `This broadcast is ${row.status}; only a started one can be paused.`);
    await schedulerOf(c.env, row.id).pause();
    const paused = await transition(db, row, ["started"], "paused");
    await publishProgress(c.env, paused);
    return c.json(await presentBroadcast(db, paused));
  })
  /** POST /api/broadcasts/{id}/resume → BroadcastDetail (paused → started; continues where it stopped). */
  .post("/:id/resume", zv("param", idParam), async (c) => {
    const db = c.var.db;
    const row = await findBroadcast(db, c.var.company.id, c.req.valid("param").id);
    const resumed = await transition(db, row, ["paused"], "started");
    await schedulerOf(c.env, row.id).arm(row.id, row.companyId, now());
    await publishProgress(c.env, resumed);
    return c.json(await presentBroadcast(db, resumed));
  })
  /** GET /api/broadcasts/{id}/recipients?status=&cursor=&limit= → Page<BroadcastRecipientRow> by contact id. */
  .get("/:id/recipients", zv("param", idParam), zv("query", recipientListQuery), async (c) => {
    const { status, cursor, limit } = c.req.valid("query");
    const db = c.var.db;
    const row = await findBroadcast(db, c.var.company.id, c.req.valid("param").id);
    const statuses = status === "pending" ? ["pending", "sending"] : status ? [status] : ["pending", "sending", "sent", "rejected"];
    const after = decodeTextCursor(cursor);
    const base = and(eq(broadcastRecipients.broadcastId, row.id), inArray(broadcastRecipients.status, statuses as ("pending" | "sending" | "sent" | "rejected")[]));
    const rows = await db
      .select({
        contactId: broadcastRecipients.contactId,
        status: broadcastRecipients.status,
        reason: broadcastRecipients.reason,
        detail: broadcastRecipients.detail,
        doneAt: broadcastRecipients.doneAt,
        name: contacts.name,
        phone: contacts.phone,
      })
      .from(broadcastRecipients)
      .leftJoin(contacts, and(eq(contacts.id, broadcastRecipients.contactId), eq(contacts.companyId, row.companyId)))
      .where(after ? and(base, gt(broadcastRecipients.contactId, after[1])) : base)
      .orderBy(broadcastRecipients.contactId)
      .limit(limit + 1);
    const [total] = await db.select({ n: sql<number>`COUNT(*)` }).from(broadcastRecipients).where(base);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const answer: Page<BroadcastRecipientRow> = {
      results: page.map((r) => ({
        contactId: r.contactId,
        name: r.name ?? "",
        phone: r.phone ?? null,
        status: r.status === "sending" ? "pending" : r.status,
        reason: r.reason ?? null,
        detail: r.detail ?? null,
        doneAt: r.doneAt ?? null,
      })),
      cursor: rows.length > limit && last ? encodeCursor(["", last.contactId]) : null,
      total: total?.n ?? 0,
    };
    return c.json(answer);
  });
