/**
 * Broadcasts (issue 10): the audience filters as SQL over `contacts`, the live recipient count,
 * the answers of the routes, the live counts pushed to the company hub, and the lookups other parts
 * make (a contact's last campaign; a reply to a recent broadcast, routed to the campaign flow).
 */
import { and, desc, eq, gt, inArray, isNull, sql, type SQL } from "drizzle-orm";
import {
  broadcastRecipients,
  broadcasts,
  connections,
  contactFieldValues,
  contactIdentities,
  contacts,
  crmColumns,
  customFields,
  flows,
  tags,
  contactTags,
  type BroadcastRow,
} from "../../schema";
import { normalizeFieldValue } from "../../schema/validation/contacts";
import {
  CUSTOM_FIELD_CONDITIONS,
  type BroadcastCounts,
  type BroadcastDetail,
  type BroadcastFilter,
  type BroadcastListItem,
  type BroadcastProgress,
} from "../../schema/validation/broadcasts";
import type { AppEnv } from "../env";
import { companyTimeZone, likePattern } from "./contacts";
import type { Db } from "./db";
import { AppError, notFound } from "./errors";
import { hubOf } from "./realtime";
import { SERVICE_WINDOW_MS } from "./broadcasts-limits";

/** The built-in fields a filter may name (`default:<key>`) and the contact column each reads. */
const BUILT_IN_COLUMNS = {
  full_name: contacts.name,
  email: contacts.email,
  phone: contacts.phone,
  document: contacts.document,
} as const;

function isBuiltIn(key: string): key is keyof typeof BUILT_IN_COLUMNS {
  return key in BUILT_IN_COLUMNS;
}

const invalid = (fields: Record<string, string>) => new AppError("validation_failed", `Invalid input: ${Object.keys(fields).join(", ")}.`, fields);

/** Start of day `YYYY-MM-DD` in `timeZone` (ms UTC); an ISO instant is taken as it is. */
function instantOf(value: string, timeZone: string): number | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const normal = normalizeFieldValue("datetime", `${value} 00:00`, timeZone);
    return normal.ok ? normal.valueNumber : null;
  }
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

/**
 * The WHERE clause over `contacts` of a broadcast's filters (all must match) in `companyId`, after
 * checking each names something of the company and fits: 400 `validation_failed` naming
 * `filters.<i>.<key>` (`invalid_id` for another company's tag, field or column; `invalid_condition`
 * for a condition the field's type does not take; the field type's reason for a bad value).
 */
export async function audienceWhere(db: Db, companyId: string, filters: readonly BroadcastFilter[]): Promise<SQL> {
  const parts: SQL[] = [sql`${contacts.companyId} = ${companyId}`];
  if (filters.length === 0) return parts[0] ?? sql`1`;
  const tagIds = [...new Set(filters.flatMap((f) => (f.item === "tag" && f.tag ? [f.tag] : [])))];
  const fieldIds = [...new Set(filters.flatMap((f) => (f.item === "custom_field" && f.fieldId && !f.fieldId.startsWith("default:") ? [f.fieldId] : [])))];
  const columnIds = [...new Set(filters.flatMap((f) => (f.item === "crm_column" && f.value ? [f.value] : [])))];
  const [tagRows, fieldRows, columnRows, timeZone] = await Promise.all([
    tagIds.length ? db.select({ id: tags.id }).from(tags).where(and(eq(tags.companyId, companyId), inArray(tags.id, tagIds))) : [],
    fieldIds.length ? db.select().from(customFields).where(and(eq(customFields.companyId, companyId), inArray(customFields.id, fieldIds))) : [],
    columnIds.length ? db.select({ id: crmColumns.id }).from(crmColumns).where(and(eq(crmColumns.companyId, companyId), inArray(crmColumns.id, columnIds))) : [],
    companyTimeZone(db, companyId),
  ]);
  const knownTags = new Set(tagRows.map((r) => r.id));
  const knownFields = new Map(fieldRows.map((r) => [r.id, r]));
  const knownColumns = new Set(columnRows.map((r) => r.id));
  const errors: Record<string, string> = {};

  filters.forEach((f, i) => {
    const at = (key: string) => `filters.${i}.${key}`;
    const value = f.value ?? "";
    switch (f.item) {
      case "tag": {
        if (!f.tag || !knownTags.has(f.tag)) {
          errors[at("tag")] = "invalid_id";
          return;
        }
        const has = sql`EXISTS (SELECT 1 FROM ${contactTags} WHERE ${contactTags.contactId} = ${contacts.id} AND ${contactTags.tagId} = ${f.tag})`;
        parts.push(f.condition === "has_tag" ? has : sql`NOT ${has}`);
        return;
      }
      case "crm_column": {
        if (!knownColumns.has(value)) {
          errors[at("value")] = "invalid_id";
          return;
        }
        parts.push(f.condition === "is" ? sql`${contacts.crmColumnId} = ${value}` : sql`(${contacts.crmColumnId} IS NULL OR ${contacts.crmColumnId} <> ${value})`);
        return;
      }
      case "channel": {
        const has = sql`EXISTS (SELECT 1 FROM ${contactIdentities} WHERE ${contactIdentities.contactId} = ${contacts.id} AND ${contactIdentities.channel} = ${value})`;
        parts.push(f.condition === "is" ? has : sql`NOT ${has}`);
        return;
      }
      case "created_date": {
        const ms = instantOf(value, timeZone);
        if (ms === null) {
          errors[at("value")] = "invalid_value";
          return;
        }
        // "after 2026-05-01" means from the next day on, "before" before that day began.
        const bound = /^\d{4}-\d{2}-\d{2}$/.test(value) && f.condition === "after" ? (instantOf(nextDay(value), timeZone) ?? ms) : ms;
        parts.push(f.condition === "before" ? sql`${contacts.createdAt} < ${bound}` : sql`${contacts.createdAt} >= ${bound}`);
        return;
      }
      case "custom_field": {
        const fieldId = f.fieldId ?? "";
        if (fieldId.startsWith("default:")) {
          const key = fieldId.slice("default:".length);
          if (!isBuiltIn(key)) {
            errors[at("fieldId")] = "invalid_id";
            return;
          }
          if (!["is", "is_not", "contains"].includes(f.condition)) {
            errors[at("condition")] = "invalid_condition";
            return;
          }
          const column = BUILT_IN_COLUMNS[key];
          if (f.condition === "is") parts.push(sql`${column} = ${value}`);
          else if (f.condition === "is_not") parts.push(sql`(${column} IS NULL OR ${column} <> ${value})`);
          else parts.push(sql`${column} LIKE ${boundedLike(value)} ESCAPE '\\'`);
          return;
        }
        const def = knownFields.get(fieldId);
        if (!def || def.kind !== "user" || def.formula) {
          errors[at("fieldId")] = "invalid_id";
          return;
        }
        if (!(CUSTOM_FIELD_CONDITIONS[def.type] ?? []).includes(f.condition)) {
          errors[at("condition")] = "invalid_condition";
          return;
        }
        const stored = (cond: SQL) =>
          sql`EXISTS (SELECT 1 FROM ${contactFieldValues} WHERE ${contactFieldValues.contactId} = ${contacts.id} AND ${contactFieldValues.fieldId} = ${fieldId} AND ${cond})`;
        if (f.condition === "contains") {
          parts.push(stored(sql`${contactFieldValues.value} LIKE ${boundedLike(value)} ESCAPE '\\'`));
          return;
        }
        const normal = normalizeFieldValue(def.type, value, timeZone);
        if (!normal.ok) {
          errors[at("value")] = normal.reason;
          return;
        }
        if (f.condition === "is") parts.push(stored(sql`${contactFieldValues.value} = ${normal.value}`));
        else if (f.condition === "is_not") parts.push(sql`NOT ${stored(sql`${contactFieldValues.value} = ${normal.value}`)}`);
        else if (f.condition === "greater" || f.condition === "after") parts.push(stored(sql`${contactFieldValues.valueNumber} > ${normal.valueNumber}`));
        else parts.push(stored(sql`${contactFieldValues.valueNumber} < ${normal.valueNumber}`));
        return;
      }
    }
  });
  if (Object.keys(errors).length) throw invalid(errors);
  return sql.join(parts, sql` AND `);
}

/**
 * A `%…%` LIKE pattern of `value` within D1's 50-byte pattern limit (platform-limits A1): the text
 * is cut, character by character, until the escaped pattern fits (an emoji is 4 bytes).
 */
function boundedLike(value: string): string {
  let text = [...value].slice(0, 40).join("");
  const encoder = new TextEncoder();
  while (encoder.encode(likePattern(text)).length > 50) text = [...text].slice(0, -1).join("");
  return likePattern(text);
}

function nextDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/**
 * How many contacts of `companyId` the filters match now (POST /api/broadcasts/audience: the
 * form's live count). Exported for other areas. Errors as `audienceWhere`.
 */
export async function audienceCount(db: Db, companyId: string, filters: readonly BroadcastFilter[]): Promise<number> {
  const where = await audienceWhere(db, companyId, filters);
  const [row] = await db.select({ n: sql<number>`COUNT(*)` }).from(contacts).where(where);
  return row?.n ?? 0;
}

/**
 * Lists up to `limit` more recipients of a broadcast: inserts the matching contacts after
 * `afterContactId` (keyset by contact id) as `pending` rows in one INSERT … SELECT. Answers how many
 * were inserted and the last contact id (null when none), so the caller pages on.
 */
export async function materialiseChunk(
  db: Db,
  broadcast: Pick<BroadcastRow, "id" | "companyId" | "connectionId">,
  where: SQL,
  afterContactId: string,
  limit: number,
): Promise<{ inserted: number; last: string | null }> {
  const result = await db.run(sql`INSERT OR IGNORE INTO ${broadcastRecipients} (broadcast_id, contact_id, company_id, connection_id, status, outside_window)
    SELECT ${broadcast.id}, ${contacts.id}, ${contacts.companyId}, ${broadcast.connectionId}, 'pending', 0 FROM ${contacts}
    WHERE ${where} AND ${contacts.id} > ${afterContactId} ORDER BY ${contacts.id} LIMIT ${limit}`);
  const inserted = result.meta.changes ?? 0;
  if (inserted === 0) return { inserted: 0, last: null };
  const [row] = await db
    .select({ last: sql<string>`MAX(${broadcastRecipients.contactId})` })
    .from(broadcastRecipients)
    .where(eq(broadcastRecipients.broadcastId, broadcast.id));
  return { inserted, last: row?.last ?? null };
}

/** The broadcast `id` of `companyId`; 404 otherwise (another company's id included). */
export async function findBroadcast(db: Db, companyId: string, id: string): Promise<BroadcastRow> {
  const row = await db.query.broadcasts.findFirst({ where: and(eq(broadcasts.id, id), eq(broadcasts.companyId, companyId)) });
  if (!row) throw notFound("Broadcast");
  return row;
}

/** The counts of a broadcast row. */
export function countsOf(row: Pick<BroadcastRow, "total" | "sentCount" | "rejectedCount">): BroadcastCounts {
  return {
    total: row.total,
    sent: row.sentCount,
    rejected: row.rejectedCount,
    pending: row.total === null ? 0 : Math.max(0, row.total - row.sentCount - row.rejectedCount),
  };
}

/** The list rows of `rows` (connection and flow names read in two queries). */
export async function presentBroadcasts(db: Db, companyId: string, rows: BroadcastRow[]): Promise<BroadcastDetail[]> {
  const connectionIds = [...new Set(rows.map((r) => r.connectionId))];
  const flowIds = [...new Set(rows.map((r) => r.flowId))];
  const [connectionRows, flowRows] = await Promise.all([
    connectionIds.length
      ? db.select({ id: connections.id, name: connections.name, channel: connections.channel }).from(connections).where(and(eq(connections.companyId, companyId), inArray(connections.id, connectionIds)))
      : [],
    flowIds.length ? db.select({ id: flows.id, name: flows.name }).from(flows).where(and(eq(flows.companyId, companyId), inArray(flows.id, flowIds))) : [],
  ]);
  const connectionById = new Map(connectionRows.map((c) => [c.id, c]));
  const flowById = new Map(flowRows.map((f) => [f.id, f]));
  return rows.map((row) => {
    const item: BroadcastListItem = {
      id: row.id,
      name: row.name,
      status: row.status,
      delay: row.delay,
      connection: connectionById.get(row.connectionId) ?? { id: row.connectionId, name: "", channel: "" },
      flow: flowById.get(row.flowId) ?? { id: row.flowId, name: "" },
      scheduledDate: row.scheduledDate,
      startedAt: row.startedAt,
      finishedAt: row.finishedAt,
      counts: countsOf(row),
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
    return { ...item, filters: row.filters, template: row.template ?? null };
  });
}

/** One broadcast's answer. */
export async function presentBroadcast(db: Db, row: BroadcastRow): Promise<BroadcastDetail> {
  const [detail] = await presentBroadcasts(db, row.companyId, [row]);
  if (!detail) throw notFound("Broadcast");
  return detail;
}

/** Pushes the broadcast's status and counts to the company hub (`broadcast.updated`). */
export async function publishProgress(env: AppEnv, row: Pick<BroadcastRow, "id" | "companyId" | "status" | "total" | "sentCount" | "rejectedCount">): Promise<void> {
  const broadcast: BroadcastProgress = { id: row.id, status: row.status, counts: countsOf(row) };
  await hubOf(env, row.companyId).publish({ type: "broadcast.updated", broadcast });
}

/** The BroadcastScheduler of broadcast `id` (one per broadcast). */
export function schedulerOf(env: AppEnv, id: string) {
  return env.BROADCAST_SCHEDULER.get(env.BROADCAST_SCHEDULER.idFromName(id));
}

/** The name of the last broadcast sent to the contact (the `last_campaign` built-in field), or null. */
export async function lastCampaignOf(db: Db, companyId: string, contactId: string): Promise<string | null> {
  const [row] = await lastCampaignQuery(db, companyId, contactId);
  return row?.name ?? null;
}

/** `lastCampaignOf`'s read as a query not yet run (one row `{name}` or none), for a caller's D1 batch (issue 16). */
export function lastCampaignQuery(db: Db, companyId: string, contactId: string) {
  return db
    .select({ name: broadcasts.name })
    .from(broadcastRecipients)
    .innerJoin(broadcasts, eq(broadcasts.id, broadcastRecipients.broadcastId))
    .where(and(eq(broadcastRecipients.companyId, companyId), eq(broadcastRecipients.contactId, contactId), eq(broadcastRecipients.status, "sent")))
    .orderBy(desc(broadcastRecipients.doneAt))
    .limit(1);
}

/**
 * Whether the contact's reply on `connectionId` answers a broadcast: its last broadcast on that
 * connection was sent within the service window (24 h) before `at` and no reply to it was routed
 * yet. When so, marks it replied (so only the first reply goes to the campaign flow) and answers
 * true.
 */
export async function claimBroadcastReply(db: Db, companyId: string, contactId: string, connectionId: string, at: number): Promise<boolean> {
  const [row] = await db
    .select({ broadcastId: broadcastRecipients.broadcastId, repliedAt: broadcastRecipients.repliedAt })
    .from(broadcastRecipients)
    .where(
      and(
        eq(broadcastRecipients.companyId, companyId),
        eq(broadcastRecipients.contactId, contactId),
        eq(broadcastRecipients.connectionId, connectionId),
        eq(broadcastRecipients.status, "sent"),
        gt(broadcastRecipients.doneAt, at - SERVICE_WINDOW_MS),
      ),
    )
    .orderBy(desc(broadcastRecipients.doneAt))
    .limit(1);
  if (!row || row.repliedAt !== null) return false;
  const claimed = await db
    .update(broadcastRecipients)
    .set({ repliedAt: at })
    .where(and(eq(broadcastRecipients.broadcastId, row.broadcastId), eq(broadcastRecipients.contactId, contactId), isNull(broadcastRecipients.repliedAt)))
    .returning({ contactId: broadcastRecipients.contactId });
  return claimed.length > 0;
}
