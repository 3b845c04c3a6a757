/**
 * WhatsApp message templates of a connection (issue 10 "Templates"): the approved templates a
 * broadcast or a flow's first message may send outside the 24-hour window, read from the
 * connection's WhatsApp Business Account through the Graph API (`GET /{waba-id}/message_templates`,
 * worker/channels/whatsapp-templates.ts) and kept in D1 (`connection_templates`) between syncs.
 * Reading needs `connections`, `broadcasts` or `flow`; syncing `connections` or `broadcasts`.
 * Another company's connection answers 404. A sandbox connection has no templates (the sandbox has
 * no window and accepts plain messages): always `{templates: [], syncedAt: null}`.
 *
 * - GET /api/connections/{id}/templates?status=APPROVED → TemplatesAnswer (by name, then language).
 *   A Cloud API connection never synced is synced first (errors as below); one with no WhatsApp
 *   Business Account id answers an empty list.
 * - POST /api/connections/{id}/templates/sync → TemplatesAnswer, read from Meta now. 400
 *   `wabaId: required` when the connection has no WhatsApp Business Account id; 400
 *   `accessToken: access_token_rejected` / `wabaId: waba_not_found` when Meta refuses; 502
 *   `provider_unavailable` when Meta cannot be reached (the stored list is kept).
 */
import { Hono } from "hono";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { connections, connectionTemplates, type ConnectionRow } from "../../schema";
import { idSchema } from "../../schema/validation/common";
import { templateListQuery, type TemplateAnswer, type TemplatesAnswer } from "../../schema/validation/templates";
import type { AppEnv } from "../env";
import { adapterFor } from "../channels";
import type { HonoEnv } from "../middleware/context";
import { requireCompany, requirePermission, requireSubscription, requireUser } from "../middleware/auth";
import type { Db } from "../lib/db";
import { AppError, notFound } from "../lib/errors";
import { zv } from "../lib/validate";

const idParam = z.object({ id: idSchema });
const signedIn = [requireUser, requireCompany, requireSubscription] as const;

async function findConnection(db: Db, companyId: string, id: string): Promise<ConnectionRow> {
  const row = await db.query.connections.findFirst({ where: and(eq(connections.id, id), eq(connections.companyId, companyId)) });
  if (!row) throw notFound("Connection");
  return row;
}

/** The templates stored for a connection of the company (null: never synced). */
export async function storedTemplates(db: Db, companyId: string, connectionId: string): Promise<{ templates: TemplateAnswer[]; syncedAt: number } | null> {
  const row = await db.query.connectionTemplates.findFirst({
    where: and(eq(connectionTemplates.companyId, companyId), eq(connectionTemplates.connectionId, connectionId)),
  });
  return row ? { templates: row.templates, syncedAt: row.syncedAt } : null;
}

/**
 * Reads the connection's templates from Meta and stores them (replacing the last list). Throws
 * AppError as described in the header.
 */
export async function syncTemplates(env: AppEnv, db: Db, connection: ConnectionRow): Promise<TemplatesAnswer> {
  if (!hasTemplates(connection)) return { templates: [], syncedAt: null };
  const adapter = adapterFor(env, connection);
  if (!adapter.listTemplates) return { templates: [], syncedAt: null };
  if (!connection.wabaId) throw new AppError("validation_failed", "This connection has no WhatsApp Business Account ID.", { wabaId: "required" });
  const templates = await adapter.listTemplates(connection);
  const syncedAt = Date.now();
  await db
    .insert(connectionTemplates)
    .values({ connectionId: connection.id, companyId: connection.companyId, templates, syncedAt })
    .onConflictDoUpdate({ target: connectionTemplates.connectionId, set: { templates, syncedAt } });
  return { templates, syncedAt };
}

/** Only WhatsApp Cloud API connections have message templates (the sandbox and Instagram have none). */
function hasTemplates(connection: Pick<ConnectionRow, "channel">): boolean {
  return connection.channel === "whatsapp-cloud";
}

function filtered(answer: TemplatesAnswer, status: string | undefined): TemplatesAnswer {
  return status ? { ...answer, templates: answer.templates.filter((t) => t.status === status) } : answer;
}

// Mounted at /api/connections before the connections routes: middleware per route, so a member
// holding only `broadcasts` or `flow` reads templates without the connections permission.
export const templatesRoutes = new Hono<HonoEnv>()
  /** GET /api/connections/{id}/templates → TemplatesAnswer. */
  .get("/:id/templates", ...signedIn, requirePermission("connections", "broadcasts", "flow"), zv("param", idParam), zv("query", templateListQuery), async (c) => {
    const db = c.var.db;
    const connection = await findConnection(db, c.var.company.id, c.req.valid("param").id);
    const status = c.req.valid("query").status;
    if (!hasTemplates(connection)) return c.json<TemplatesAnswer>({ templates: [], syncedAt: null });
    const stored = await storedTemplates(db, connection.companyId, connection.id);
    if (stored) return c.json(filtered(stored, status));
    if (!connection.wabaId) return c.json<TemplatesAnswer>({ templates: [], syncedAt: null });
    return c.json(filtered(await syncTemplates(c.env, db, connection), status));
  })
  /** POST /api/connections/{id}/templates/sync → TemplatesAnswer. */
  .post("/:id/templates/sync", ...signedIn, requirePermission("connections", "broadcasts"), zv("param", idParam), async (c) => {
    const connection = await findConnection(c.var.db, c.var.company.id, c.req.valid("param").id);
    return c.json(await syncTemplates(c.env, c.var.db, connection));
  });
