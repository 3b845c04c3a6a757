/**
 * Flow triggers and runs outside the builder (issue 5 "Triggers", "Runs are visible"; contract
 * .tmp/flows-api.md):
 *
 * - GET /api/companies/default-flows?id=<connectionId> (permission `connections` or `flow`) →
 *   DefaultFlowsAnswer; 404 for a connection of another company.
 * - PUT /api/companies/default-flows {channelId, defaultFlowId, mediaFlowId, campaignFlowId,
 *   storyFlowId} → DefaultFlowsAnswer; null (or absent) clears a slot; 400 naming the slot for a
 *   flow that is not the company's.
 * - POST /api/tickets/{id}/start-flow {flowId} (permission `tickets`; public API scope
 *   `flows:start`) → {runId}: starts the flow's published version for the ticket's contact, in the
 *   contact's ContactSession (a run in progress is stopped first). 404 for a ticket the caller may
 *   not see (the `see_all_tickets` rule of every ticket action, worker/lib/ticket-access.ts). 409
 *   `conflict` when the flow was never published or the contact cannot be reached on the ticket's
 *   connection.
 * - GET /api/contacts/{id}/runs (permission `contacts` or `tickets`) → FlowRunAnswer[] newest first.
 * - POST /api/contacts/{id}/runs/{runId}/stop (same permissions) → 204; 404 when the contact has no
 *   such run in progress.
 */
import { Hono } from "hono";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { connectionFlows, connections, contactIdentities, contacts, type TicketRow } from "../../schema";
import type { DefaultFlowsAnswer, FlowRunAnswer } from "../../schema/flow-api";
import { idSchema } from "../../schema/validation/common";
import { defaultFlowsInput, defaultFlowsQuery, startFlowInput } from "../../schema/validation/flows";
import type { HonoEnv } from "../middleware/context";
import { requireCompany, requirePermission, requireSubscription, requireUser } from "../middleware/auth";
import { findContact } from "../lib/contacts";
import { findVisibleTicket, ticketViewerOf } from "../lib/ticket-access";
import type { Db } from "../lib/db";
import { reachableIdentity } from "../lib/identities";
import { now } from "../lib/db";
import { AppError, notFound } from "../lib/errors";
import { defaultFlowsOf, existingFlowIds, findFlow, flowNames } from "../lib/flows";
import { contactSessionOf } from "../lib/realtime";
import { zv } from "../lib/validate";
import type { AppEnv } from "../env";

async function findConnection(db: Db, companyId: string, id: string) {
  const row = await db.query.connections.findFirst({ where: and(eq(connections.id, id), eq(connections.companyId, companyId)) });
  if (!row) throw notFound("Connection");
  return row;
}

function presentDefaults(row: Awaited<ReturnType<typeof defaultFlowsOf>>): DefaultFlowsAnswer {
  return { channelId: row.connectionId, defaultFlowId: row.defaultFlowId, mediaFlowId: row.mediaFlowId, campaignFlowId: row.campaignFlowId, storyFlowId: row.storyFlowId };
}

/** The ContactSession stubs of a contact of the company: one per channel identity. */
async function sessionsOf(env: AppEnv, db: Db, companyId: string, contactId: string) {
  const identities = await db.query.contactIdentities.findMany({ where: and(eq(contactIdentities.companyId, companyId), eq(contactIdentities.contactId, contactId)) });
  return identities.map((i) => contactSessionOf(env, companyId, i.channel, i.externalId));
}

export const defaultFlowsRoutes = new Hono<HonoEnv>()
  .use(requireUser, requireCompany, requireSubscription, requirePermission("connections", "flow"))
  /** GET /api/companies/default-flows?id=<connectionId> → DefaultFlowsAnswer. */
  .get("/", zv("query", defaultFlowsQuery), async (c) => {
    const connection = await findConnection(c.var.db, c.var.company.id, c.req.valid("query").id);
    return c.json(presentDefaults(await defaultFlowsOf(c.var.db, c.var.company.id, connection.id)));
  })
  /** PUT /api/companies/default-flows → DefaultFlowsAnswer. */
  .put("/", zv("json", defaultFlowsInput), async (c) => {
    const input = c.req.valid("json");
    const db = c.var.db;
    const companyId = c.var.company.id;
    const connection = await findConnection(db, companyId, input.channelId);
    const slots = { defaultFlowId: input.defaultFlowId, mediaFlowId: input.mediaFlowId, campaignFlowId: input.campaignFlowId, storyFlowId: input.storyFlowId };
    const ids = Object.values(slots).flatMap((id) => (id ? [id] : []));
    const found = await existingFlowIds(db, companyId, ids);
    const fields: Record<string, string> = {};
    for (const [slot, id] of Object.entries(slots)) if (id && !found.has(id)) fields[slot] = "invalid_id";
    if (Object.keys(fields).length) throw new AppError("validation_failed", `Invalid input: ${Object.keys(fields).join(", ")}.`, fields);
    await db
      .insert(connectionFlows)
      .values({ connectionId: connection.id, companyId, ...slots, updatedAt: now() })
      .onConflictDoUpdate({ target: connectionFlows.connectionId, set: { ...slots, updatedAt: now() } });
    return c.json(presentDefaults(await defaultFlowsOf(db, companyId, connection.id)));
  });

// Mounted beside ticketsRoutes and contactsRoutes: middleware per route, so other paths of those
// prefixes are not authenticated twice.
export const ticketFlowRoutes = new Hono<HonoEnv>()
  /** POST /api/tickets/{id}/start-flow {flowId} → {runId}. */
  .post("/:id/start-flow", requireUser, requireCompany, requireSubscription, requirePermission("tickets"), zv("param", z.object({ id: idSchema })), zv("json", startFlowInput), async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    // The one ticket visibility rule: a ticket the caller may not see answers 404, like elsewhere.
    const ticket = await findVisibleTicket(db, companyId, c.req.valid("param").id, ticketViewerOf(c));
    return c.json({ runId: await startFlowOnTicket(c.env, db, ticket, c.req.valid("json").flowId) });
  });

/**
 * Starts flow `flowId`'s published version for the contact of `ticket` (already checked visible to
 * the caller), in the contact's ContactSession (a run in progress is stopped first); answers the run
 * id. 404 for a flow of another company; 409 `conflict` when it was never published, the ticket's
 * connection is gone, or the contact cannot be reached on it. Used by POST /api/tickets/{id}/start-flow
 * and the public API's POST /api/v1/contacts/{id}/flows.
 */
export async function startFlowOnTicket(env: AppEnv, db: Db, ticket: Pick<TicketRow, "id" | "companyId" | "contactId" | "connectionId">, flowId: string): Promise<string> {
  const companyId = ticket.companyId;
  const flow = await findFlow(db, companyId, flowId);
  if (flow.publishedVersion === null) throw new AppError("conflict", "This flow has not been published yet.");
  const connection = await findConnection(db, companyId, ticket.connectionId).catch(() => {
    throw new AppError("conflict", "This ticket's connection no longer exists.");
  });
  const identity = await reachableIdentity(db, companyId, ticket.contactId, connection.channel);
  const contact = await db.query.contacts.findFirst({ where: and(eq(contacts.id, ticket.contactId), eq(contacts.companyId, companyId)), columns: { phone: true } });
  const externalId = identity?.externalId ?? contact?.phone?.replace(/^\+/, "");
  if (!externalId) throw new AppError("conflict", "This contact cannot be reached on this connection.");
  const session = contactSessionOf(env, companyId, connection.channel, externalId);
  const started = await session.startFlow({ companyId, channel: connection.channel, externalId, connectionId: connection.id, ticketId: ticket.id, ticket: { id: ticket.id, companyId, contactId: ticket.contactId }, flowId: flow.id });
  if (!started.ok) throw new AppError("conflict", "This flow has not been published yet.");
  return started.runId;
}

const runsAccess = [requireUser, requireCompany, requireSubscription, requirePermission("contacts", "tickets")] as const;

export const contactRunsRoutes = new Hono<HonoEnv>()
  /** GET /api/contacts/{id}/runs → FlowRunAnswer[] newest first. */
  .get("/:id/runs", ...runsAccess, zv("param", z.object({ id: idSchema })), async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const contact = await findContact(db, companyId, c.req.valid("param").id);
    const runs = (await Promise.all((await sessionsOf(c.env, db, companyId, contact.id)).map((s) => s.listRuns()))).flat();
    runs.sort((a, b) => b.startedAt - a.startedAt);
    const names = await flowNames(db, companyId, runs.map((r) => r.flowId));
    const answer: FlowRunAnswer[] = runs.map((run) => ({
      id: run.id,
      flowId: run.flowId,
      flowName: names.get(run.flowId) ?? "",
      version: run.version,
      nodeId: run.nodeId,
      nodeType: run.nodeType,
      status: run.status,
      waitingFor: run.waitingFor,
      since: run.since,
      error: run.error,
      warnings: run.warnings,
    }));
    return c.json(answer);
  })
  /** POST /api/contacts/{id}/runs/{runId}/stop → 204. */
  .post("/:id/runs/:runId/stop", ...runsAccess, zv("param", z.object({ id: idSchema, runId: idSchema })), async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const { id, runId } = c.req.valid("param");
    const contact = await findContact(db, companyId, id);
    for (const session of await sessionsOf(c.env, db, companyId, contact.id)) {
      if (await session.stopRun(runId)) return c.body(null, 204);
    }
    throw notFound("Run");
  });

