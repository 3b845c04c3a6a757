/**
 * Processing one production request of an inbound webhook (issue 11; spec §3 Webhook, §5 Webhook
 * phone rules), called by the `webhook-events` consumer (worker/queues/webhook-events.ts):
 *
 * 1. the phone at the mapping's `phone` path, by the phone rule (`webhookPhone`); missing or
 *    unusable → the request fails with that reason, nothing written;
 * 2. the contact with that phone is found or created (upsertContactsByPhone: the API's validation,
 *    the maintained contact counter); a blank or absent name or e-mail means "do not modify" (a new
 *    contact takes its phone as name); a name or e-mail that is not valid is left out with a note;
 * 3. the actions in their order, each only when its condition holds (tags, custom fields, the CRM
 *    column, a flow started on a connection, enrolment in a shipping cycle).
 *
 * Exactly once per request, whatever the queue redelivers: a request not `pending` is left alone;
 * every action's outcome is a row of `webhook_request_actions` (primary key request + index)
 * written in the SAME D1 batch as the action's own writes (tags, fields, CRM column), so a
 * redelivery finds it and skips the action. Actions that call another object (start a flow, enrol
 * in a cycle) claim their row first and release it only if the call throws (the retry then runs it
 * again); a crash between the call and its answer leaves it claimed: at most once, never twice.
 * The request becomes `processed` last, with what it did.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import {
  connections,
  contactFieldValues,
  contactIdentities,
  contacts,
  contactTags,
  crmColumns,
  customFields,
  flows,
  shippingCycles,
  tags,
  tickets,
  webhookRequestActions,
  webhookRequests,
  webhooks,
  type WebhookRequestActionRow,
  type WebhookRequestRow,
  type WebhookRow,
} from "../../schema";
import { emailSchema } from "../../schema/validation/common";
import { contactNameSchema } from "../../schema/validation/contacts";
import {
  textAtPath,
  valueAtPath,
  type WebhookAction,
  type WebhookActionOutcome,
  type WebhookCondition,
  type WebhookRequestResult,
} from "../../schema/validation/webhooks";
import type { AppEnv } from "../env";
import { companyTicketFor } from "./company-tickets";
import { companyTimeZone, normalizeFieldValue, runBatch, upsertContactsByPhone, type Statement } from "./contacts";
import { publishCard } from "./crm";
import type { Db } from "./db";
import { reachableIdentity } from "./identities";
import { enrolInCycle } from "./shipping-cycles";
import { newId } from "./ids";
import { contactSessionOf } from "./realtime";
import { webhookPhone } from "./webhooks";

/** Whether `condition` holds for `body` (no condition: always). Compared as text, case-insensitively. */
export function conditionHolds(condition: WebhookCondition | null | undefined, body: unknown): boolean {
  if (!condition) return true;
  const value = valueAtPath(body, condition.path);
  if (condition.operator === "exists") return value !== undefined && value !== null && value !== "";
  const text = (textAtPath(body, condition.path) ?? (value === undefined || value === null ? "" : JSON.stringify(value))).trim().toLocaleLowerCase();
  const wanted = condition.value.trim().toLocaleLowerCase();
  switch (condition.operator) {
    case "equals":
      return text === wanted;
    case "not_equals":
      return text !== wanted;
    case "contains":
      return text.includes(wanted);
  }
}

/** A failure that retrying can fix (D1 or a Durable Object unavailable): the consumer retries the message. */
export class RetryableWebhookError extends Error {}

type Target = { env: AppEnv; db: Db; webhook: WebhookRow; request: WebhookRequestRow; body: unknown; contactId: string; phone: string };

/** What one action decided: its outcome and the statements writing its effect. */
type Decided = { status: WebhookActionOutcome["status"]; detail: string | null; statements: Statement[]; after?: () => Promise<void> };

/**
 * Processes request `requestId` of company `companyId` (see the header). Answers what became of it;
 * throws on a transient error (the consumer retries).
 */
export async function processWebhookRequest(env: AppEnv, db: Db, companyId: string, requestId: string): Promise<"processed" | "failed" | "skipped"> {
  const request = await db.query.webhookRequests.findFirst({ where: and(eq(webhookRequests.id, requestId), eq(webhookRequests.companyId, companyId)) });
  if (!request || request.state !== "pending") return "skipped";
  const webhook = await db.query.webhooks.findFirst({ where: and(eq(webhooks.id, request.webhookId), eq(webhooks.companyId, companyId)) });
  if (!webhook) return fail(db, request, "The webhook was deleted before this request was processed.");
  let body: unknown;
  try {
    body = JSON.parse(request.body);
  } catch {
    return fail(db, request, "The stored body could not be read.");
  }

  // 1. The phone (spec §5).
  if (!webhook.mapping.phone) return fail(db, request, "No phone is mapped: choose the field that holds the phone in the webhook's mapping.");
  const rawPhone = textAtPath(body, webhook.mapping.phone);
  if (rawPhone === null || !rawPhone.trim()) return fail(db, request, `The body has no phone at "${webhook.mapping.phone}".`);
  const phone = webhookPhone(rawPhone);
  if (!phone) return fail(db, request, `"${rawPhone.slice(0, 40)}" is not a usable phone number (country code + area code + number).`);

  // 2. The contact (blank name or e-mail: do not modify).
  const notes: string[] = [];
  const rawName = webhook.mapping.name ? (textAtPath(body, webhook.mapping.name) ?? "").trim() : "";
  const rawEmail = webhook.mapping.email ? (textAtPath(body, webhook.mapping.email) ?? "").trim() : "";
  let name: string | undefined;
  if (rawName) {
    const parsed = contactNameSchema.safeParse(rawName);
    if (parsed.success) name = parsed.data;
    else notes.push(`The name "${rawName.slice(0, 60)}" was not used (${parsed.error.issues[0]?.message ?? "invalid"}).`);
  }
  let email: string | undefined;
  if (rawEmail) {
    const parsed = emailSchema.safeParse(rawEmail);
    if (parsed.success) email = parsed.data;
    else notes.push(`The e-mail "${rawEmail.slice(0, 60)}" was not used (not an e-mail address).`);
  }
  const before = await db.query.contacts.findFirst({ where: and(eq(contacts.companyId, companyId), eq(contacts.phone, phone)) });
  const upserted = await upsertContactsByPhone(env, db, companyId, [{ row: 1, phone, ...(name ? { name } : {}), ...(email ? { email } : {}) }]);
  if (upserted.refused.length) return fail(db, request, `The contact could not be saved (${upserted.refused[0]?.reason}).`);
  const contact = await db.query.contacts.findFirst({ where: and(eq(contacts.companyId, companyId), eq(contacts.phone, phone)) });
  if (!contact) throw new RetryableWebhookError("The contact was not found after it was saved.");
  const created = !before && upserted.inserted > 0;

  // 3. The actions, in order, each at most once.
  const target: Target = { env, db, webhook, request, body, contactId: contact.id, phone };
  const done = await outcomesOf(db, companyId, request.id);
  for (const [index, action] of webhook.actions.entries()) {
    if (done.has(index)) continue;
    const outcome = await runAction(target, index, action);
    done.set(index, outcome);
  }

  const result: WebhookRequestResult = {
    contact: {
      id: contact.id,
      name: contact.name,
      phone,
      created,
      nameUpdated: Boolean(before && name && before.name !== name),
      emailUpdated: Boolean(before && email && before.email !== email),
    },
    actions: [...done.values()].sort((a, b) => a.index - b.index),
    notes,
  };
  const failedActions = result.actions.filter((a) => a.status === "failed");
  await db
    .update(webhookRequests)
    .set({ state: "processed", processedAt: Date.now(), result, error: failedActions.length ? failedActions.map((a) => `#${a.index + 1} ${a.type}: ${a.detail}`).join("; ").slice(0, 1000) : null })
    .where(and(eq(webhookRequests.id, request.id), eq(webhookRequests.companyId, companyId), eq(webhookRequests.state, "pending")));
  return "processed";
}

async function fail(db: Db, request: WebhookRequestRow, reason: string): Promise<"failed"> {
  await db
    .update(webhookRequests)
    .set({ state: "failed", error: reason, processedAt: Date.now() })
    .where(and(eq(webhookRequests.id, request.id), eq(webhookRequests.companyId, request.companyId), eq(webhookRequests.state, "pending")));
  return "failed";
}

/** The recorded outcomes of a request's actions, by index. */
async function outcomesOf(db: Db, companyId: string, requestId: string): Promise<Map<number, WebhookActionOutcome>> {
  const rows = await db.select().from(webhookRequestActions).where(and(eq(webhookRequestActions.requestId, requestId), eq(webhookRequestActions.companyId, companyId)));
  return new Map(rows.map((r) => [r.actionIndex, outcomeOf(r)]));
}

function outcomeOf(row: Pick<WebhookRequestActionRow, "actionIndex" | "type" | "status" | "detail">): WebhookActionOutcome {
  return { index: row.actionIndex, type: row.type, status: row.status, detail: row.detail };
}

/** Runs action `index` once: its marker and its writes in one batch (or claimed around a call). */
async function runAction(t: Target, index: number, action: WebhookAction): Promise<WebhookActionOutcome> {
  const { db, request } = t;
  const marker = (status: WebhookActionOutcome["status"], detail: string | null) =>
    db.insert(webhookRequestActions).values({ requestId: request.id, actionIndex: index, companyId: request.companyId, type: action.type, status, detail, at: Date.now() });

  if (!conditionHolds(action.condition, t.body)) {
    const detail = `Condition not met: ${action.condition?.path} ${action.condition?.operator}${action.condition?.operator === "exists" ? "" : ` "${action.condition?.value}"`}.`;
    await runBatch(db, [marker("skipped", detail).onConflictDoNothing()]);
    return { index, type: action.type, status: "skipped", detail };
  }

  if (action.type === "start_flow" || action.type === "add_to_cycle") {
    // A call into another object: claim first, release on a thrown (retryable) error.
    const claimed = await db.insert(webhookRequestActions).values({ requestId: request.id, actionIndex: index, companyId: request.companyId, type: action.type, status: "done", detail: null, at: Date.now() }).onConflictDoNothing().returning();
    if (!claimed.length) return (await outcomesOf(db, request.companyId, request.id)).get(index) ?? { index, type: action.type, status: "done", detail: null };
    try {
      const outcome = action.type === "start_flow" ? await startFlow(t, action) : await addToCycle(t, action);
      if (outcome.status !== "done" || outcome.detail) {
        await db
          .update(webhookRequestActions)
          .set({ status: outcome.status, detail: outcome.detail })
          .where(and(eq(webhookRequestActions.requestId, request.id), eq(webhookRequestActions.actionIndex, index)));
      }
      return { index, type: action.type, ...outcome };
    } catch (error) {
      await db.delete(webhookRequestActions).where(and(eq(webhookRequestActions.requestId, request.id), eq(webhookRequestActions.actionIndex, index)));
      throw error;
    }
  }

  const decided = await decide(t, action);
  // The marker first: when it already exists (a concurrent delivery got here), the batch fails on
  // the primary key and nothing of it is written.
  try {
    await runBatch(db, [marker(decided.status, decided.detail), ...decided.statements]);
  } catch (error) {
    const existing = (await outcomesOf(db, request.companyId, request.id)).get(index);
    if (existing) return existing;
    throw error;
  }
  await decided.after?.().catch((error) => console.error("[webhook-events] live update failed", error));
  return { index, type: action.type, status: decided.status, detail: decided.detail };
}

/** The writes of a D1-only action (tags, fields, CRM). */
async function decide(t: Target, action: Exclude<WebhookAction, { type: "start_flow" | "add_to_cycle" }>): Promise<Decided> {
  const { db, request, contactId } = t;
  const companyId = request.companyId;
  switch (action.type) {
    case "add_tag":
    case "remove_tag": {
      const tag = await db.query.tags.findFirst({ where: and(eq(tags.id, action.tagId), eq(tags.companyId, companyId)) });
      if (!tag) return { status: "failed", detail: "The tag no longer exists.", statements: [] };
      if (action.type === "add_tag") return { status: "done", detail: tag.name, statements: [db.insert(contactTags).values({ companyId, contactId, tagId: tag.id }).onConflictDoNothing()] };
      return {
        status: "done",
        detail: tag.name,
        statements: [db.delete(contactTags).where(and(eq(contactTags.companyId, companyId), eq(contactTags.contactId, contactId), eq(contactTags.tagId, tag.id)))],
      };
    }
    case "set_field": {
      const field = await db.query.customFields.findFirst({ where: and(eq(customFields.id, action.customFieldId), eq(customFields.companyId, companyId)) });
      if (!field || field.kind !== "user" || field.formula) return { status: "failed", detail: "The custom field no longer exists or cannot be written.", statements: [] };
      const raw = action.path !== undefined ? textAtPath(t.body, action.path) : (action.value ?? null);
      if (raw === null || !raw.trim()) return { status: "skipped", detail: action.path !== undefined ? `The body has no value at "${action.path}".` : "The value is empty.", statements: [] };
      const normal = normalizeFieldValue(field.type, raw, await companyTimeZone(db, companyId));
      if (!normal.ok) return { status: "failed", detail: `"${raw.slice(0, 60)}" does not fit the field ${field.name} (${normal.reason}).`, statements: [] };
      const at = Date.now();
      return {
        status: "done",
        detail: `${field.name} = ${normal.value}`,
        statements: [
          db
            .insert(contactFieldValues)
            .values({ companyId, contactId, fieldId: field.id, value: normal.value, valueNumber: normal.valueNumber, updatedAt: at })
            .onConflictDoUpdate({ target: [contactFieldValues.contactId, contactFieldValues.fieldId], set: { value: normal.value, valueNumber: normal.valueNumber, updatedAt: at } }),
        ],
      };
    }
    case "move_crm": {
      const column = await db.query.crmColumns.findFirst({ where: and(eq(crmColumns.id, action.columnId), eq(crmColumns.companyId, companyId)) });
      if (!column) return { status: "failed", detail: "The CRM column no longer exists.", statements: [] };
      const current = await db.query.contacts.findFirst({ where: and(eq(contacts.id, contactId), eq(contacts.companyId, companyId)), columns: { crmColumnId: true } });
      if (current?.crmColumnId === column.id) return { status: "done", detail: column.name, statements: [] };
      return {
        status: "done",
        detail: column.name,
        // At the end of the column.
        statements: [
          sql`UPDATE ${contacts} SET crm_column_id = ${column.id}, crm_position = (SELECT coalesce(max(crm_position), 0) + 1 FROM ${contacts} WHERE company_id = ${companyId} AND crm_column_id = ${column.id}), updated_at = ${Date.now()} WHERE id = ${contactId} AND company_id = ${companyId}`,
        ],
        after: () => publishCard(t.env, db, companyId, contactId, current?.crmColumnId ?? null),
      };
    }
  }
}

/** Starts the flow's published version for the contact on the connection, in its ContactSession. */
async function startFlow(t: Target, action: Extract<WebhookAction, { type: "start_flow" }>): Promise<Omit<WebhookActionOutcome, "index" | "type">> {
  const { db, env, request, contactId } = t;
  const companyId = request.companyId;
  const flow = await db.query.flows.findFirst({ where: and(eq(flows.id, action.flowId), eq(flows.companyId, companyId)) });
  if (!flow) return { status: "failed", detail: "The flow no longer exists." };
  if (flow.publishedVersion === null) return { status: "failed", detail: `The flow ${flow.name} has not been published.` };
  const connection = await db.query.connections.findFirst({ where: and(eq(connections.id, action.connectionId), eq(connections.companyId, companyId)) });
  if (!connection) return { status: "failed", detail: "The connection no longer exists." };
  const identity = await reachableIdentity(db, companyId, contactId, connection.channel);
  const externalId = identity?.externalId ?? t.phone.replace(/^\+/, "");
  // The identity the run is reached by (the contact's runs list and later inbound messages find it).
  if (!identity) await db.insert(contactIdentities).values({ id: newId(), companyId, contactId, channel: connection.channel, externalId, createdAt: Date.now() }).onConflictDoNothing();
  const ticket = await companyTicketFor(env, db, connection, contactId);
  const started = await contactSessionOf(env, companyId, connection.channel, externalId).startFlow({
    companyId,
    channel: connection.channel,
    externalId,
    connectionId: connection.id,
    ticketId: ticket.id,
    flowId: flow.id,
  });
  if (!started.ok) return { status: "failed", detail: `The flow ${flow.name} could not start.` };
  return { status: "done", detail: `${flow.name} (run ${started.runId})` };
}

/**
 * Enrols the contact in a shipping cycle (issue 10's `enrolInCycle`): `done` with the cycle's name;
 * `skipped` when already enrolled; `failed` when the cycle is gone or the contact opted out.
 */
async function addToCycle(t: Target, action: Extract<WebhookAction, { type: "add_to_cycle" }>): Promise<Omit<WebhookActionOutcome, "index" | "type">> {
  const companyId = t.request.companyId;
  const cycle = await t.db.query.shippingCycles.findFirst({ where: and(eq(shippingCycles.id, action.cycleId), eq(shippingCycles.companyId, companyId)), columns: { name: true } });
  if (!cycle) return { status: "failed", detail: "The shipping cycle no longer exists." };
  const answer = await enrolInCycle(t.env, companyId, action.cycleId, [t.contactId]);
  if (answer.enrolled.length) return { status: "done", detail: cycle.name };
  const reason = answer.skipped[0]?.reason;
  if (reason === "already_enrolled") return { status: "skipped", detail: `Already in ${cycle.name}.` };
  if (reason === "opted_out") return { status: "failed", detail: "The contact opted out of messages." };
  return { status: "failed", detail: `The contact could not be enrolled in ${cycle.name}.` };
}

/** Ids among `ids` that exist in `table` for the company (the 400 checks of the routes). */
export async function existingIds(db: Db, companyId: string, table: "tags" | "custom_fields" | "crm_columns" | "flows" | "connections", ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const column = { tags, custom_fields: customFields, crm_columns: crmColumns, flows, connections }[table];
  const rows = await db.select({ id: column.id }).from(column).where(and(eq(column.companyId, companyId), inArray(column.id, ids)));
  return new Set(rows.map((r) => r.id));
}
