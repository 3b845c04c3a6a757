/**
 * Performs the flow engine's effects (worker/flows/types.ts FlowEffect) for one run of one contact:
 * the I/O the pure engine leaves to its performer, the ContactSession Durable Object (DESIGN.md
 * "The flow engine"). Also builds the context a step reads (the contact's fields and tags, the
 * company's time zone and field types, the flow's rotary counters).
 *
 * Timers (`set_timer`, `cancel_timer`) and `wait_reply` live in the Durable Object's own storage and
 * are handled there, not here. Every function takes the company id and filters on it.
 *
 * The integration block's residual risk: workerd resolves DNS itself and gives us no way to see or
 * pin the address a host name resolves to, so a public-looking name that resolves to a private
 * address (DNS rebinding) is not caught here; on Cloudflare's network a Worker's subrequests cannot
 * reach the account's private network anyway (only via explicit bindings/Tunnels), and the IP
 * literal and local-name checks (url-guard.ts), no credentials in URLs and `redirect: "manual"`
 * (a redirect is an answer, never followed) cover the rest.
 */
import { and, eq, sql } from "drizzle-orm";
import { companies, connections, contactTags, contacts, customEvents, customFields, flowStats, tags, tickets, type ConnectionRow, type ContactRow } from "../../schema";
import type { Json } from "../../schema/columns";
import type { CustomFieldType } from "../../schema/custom-fields";
import type { FlowContext, FlowEffect, HttpRequest, HttpResult, UrlRefusal } from "../flows";
import { checkPublicHttpUrl, hashPixelUserData } from "../flows";
import type { AppEnv } from "../env";
import { adapterFor } from "../channels";
import type { ChannelCapabilities, OutboundMessage } from "../channels/types";
import { companyTimeZone, computeContactValues, contactValueQueries, customFieldsQuery, ensureTags, fieldValueStatements, normalizeFieldValue, runBatch } from "../lib/contacts";
import { batchPrepared, prepared, type Db } from "../lib/db";
import { advanceRotary, type FlowStepStats } from "../lib/flows";
import { customEventStatement, recordResolution } from "../lib/dashboard";
import { newId } from "../lib/ids";
import { AppError } from "../lib/errors";
import { enrolInCycle } from "../lib/shipping-cycles";
import { lastCampaignQuery } from "../lib/broadcasts";
import { signedMediaUrl } from "../lib/media";
import { hubOf, roomOf } from "../lib/realtime";
import { sendToTicket, type OutboundContent } from "./outbound";
import type { FirstSender } from "./first-reply";
import type { StoredPublish } from "../durable-objects/ticket-room";

/** Largest integration answer body kept (bytes); the rest is cut. */
export const MAX_HTTP_ANSWER_BYTES = 64 * 1024;
/** Conversions API base when PIXEL_GRAPH_URL is unset. */
export const DEFAULT_PIXEL_GRAPH_URL = "https://graph.facebook.com/v23.0";
/** Timeout of a Conversions API post (ms). */
const PIXEL_TIMEOUT_MS = 10_000;

/** Where a run's effects land: the contact, its ticket, and how to reach it on the connection. */
export type RunTarget = {
  runId: string;
  flowId: string;
  companyId: string;
  contactId: string;
  ticketId: string;
  connection: ConnectionRow;
  recipientExternalId: string;
  recipientPhone: string | null;
  /** The contact's last inbound provider message id (the Cloud API's typing indicator needs it). */
  lastInboundExternalId: string | null;
};

/** What the performer must do after an effect: feed an HTTP answer back, or start another flow. */
export type FollowUp = { kind: "http_result"; token: string; result: HttpResult } | { kind: "start_flow"; flowId: string } | null;

/**
 * The context of one step for the contact (null when the contact no longer exists): custom field
 * values by key (built-ins included), tag names, the company's time zone and field types, and the
 * flow's rotary counters. `now` is the caller's clock (ms UTC). `connectionId` (the run's
 * connection): its channel's capabilities, so buttons and lists degrade to a numbered menu where
 * the channel lacks them (issue 15).
 */
export async function buildContext(
  env: AppEnv,
  db: Db,
  companyId: string,
  contactId: string,
  flowId: string,
  now: number,
  connectionId?: string,
  /** What the caller read or wrote already in this turn (see `KnownContext`): those reads are left out. */
  known?: KnownContext,
): Promise<FlowContext | null> {
  // Every read in one D1 batch (issue 16: was about a dozen round trips before the first reply).
  const queries = contextQueries(db, companyId, contactId, flowId, connectionId);
  if (!known || known.contact.id !== contactId || known.contact.companyId !== companyId) return contextOf(env, db, await readContext(db, queries), now, connectionId);
  const [, fieldsQuery, storedQuery, textQuery, mediaQuery, campaignQuery, tagsQuery, , rotaryQuery] = queries;
  const contactRows = [known.contact];
  const companyRows = [{ timezone: known.timezone }];
  const connectionRows = connectionId ? [{ channel: known.channel }] : [];
  if (known.created && known.stored) {
    // A contact inserted in this very turn whose one message the turn stored: its last message and
    // last media are that message's, so only the company's fields and the flow's rotary counters
    // are read (issue 16), read ahead by the caller while the message was stored when it could.
    const { body, mediaKey } = known.stored;
    const [fields, rotary] = await (known.prefetched ?? createdContextReads(db, companyId, flowId));
    const text = body !== "" ? [{ body }] : [];
    const media = mediaKey ? [{ mediaKey }] : [];
    return contextOf(env, db, [contactRows, fields, [], text, media, [], [], companyRows, rotary, connectionRows], now, connectionId);
  }
  if (known.created) {
    // A contact inserted in this very turn has no stored values, campaign or tags yet.
    const [fields, text, media, rotary] = await db.batch([fieldsQuery, textQuery, mediaQuery, rotaryQuery]);
    return contextOf(env, db, [contactRows, fields, [], text, media, [], [], companyRows, rotary, connectionRows], now, connectionId);
  }
  const [fields, stored, text, media, campaign, tagRows, rotary] = await db.batch([fieldsQuery, storedQuery, textQuery, mediaQuery, campaignQuery, tagsQuery, rotaryQuery]);
  return contextOf(env, db, [contactRows, fields, stored, text, media, campaign, tagRows, companyRows, rotary, connectionRows], now, connectionId);
}

/**
 * What the inbound turn already holds for a flow's first context (issue 16): the contact as this
 * turn read or inserted it, the company's time zone from the message's read batch, the connection's
 * channel, and whether the turn inserted the contact (`created`: then it has no values, campaign or
 * tags). Only valid before any effect of the turn has run (an effect may change the contact).
 */
export type KnownContext = {
  contact: ContactRow;
  timezone: string;
  channel: ConnectionRow["channel"];
  created: boolean;
  /**
   * With `created`: the one message the turn stored for the contact (its body, and its media's R2
   * key or null), so its last message and last media are known without a read (issue 16). Absent:
   * they are read from D1.
   */
  stored?: { body: string; mediaKey: string | null };
  /**
   * With `created` and `stored`: `createdContextReads` for this very company and flow, started by
   * the caller ahead of time (while the message was being stored); read here when absent.
   */
  prefetched?: Promise<CreatedContextRows>;
};

/**
 * The reads of a created contact's first context (see `KnownContext.stored`), built and prepared
 * once per isolate with placeholders (companyId, flowId): the company's custom fields by name and
 * the flow's rotary counters (issue 16: the rest of the context is known in the turn).
 */
function createdContextQueries(db: Db) {
  const companyId = sql.placeholder("companyId") as unknown as string;
  const flowId = sql.placeholder("flowId") as unknown as string;
  return {
    fields: prepared(db, "context.created.fields", () => customFieldsQuery(db, companyId).prepare()),
    rotary: prepared(db, "context.created.rotary", () => rotaryQuery(db, companyId, flowId).prepare()),
  };
}

/** What `createdContextReads` answers: the company's custom fields (by name) and the flow's rotary counters (`{nodeId, rotary}`). */
export type CreatedContextRows = [ContextRows[1], ContextRows[8]];

/**
 * The company's custom fields and flow `flowId`'s rotary counters in one D1 batch: what a contact
 * created in the running turn still needs for its first flow context (issue 16). A caller starts it
 * before storing the message and hands the promise in `KnownContext.prefetched`, so the round trip
 * runs while the message is stored; or runs it after its own writes `before`, in the same batch
 * (the new contact's insert: no round trip of its own).
 */
export async function createdContextReads(db: Db, companyId: string, flowId: string, before: readonly D1PreparedStatement[] = []): Promise<CreatedContextRows> {
  const q = createdContextQueries(db);
  const [fields, rotary] = await batchPrepared(
    db,
    [
      [q.fields, { companyId }],
      [q.rotary, { companyId, flowId }],
    ],
    before,
  );
  return [fields, rotary] as CreatedContextRows;
}

/**
 * The reads of `buildContext`, for a caller's own D1 batch (issue 10/16: a flow started on a
 * ticket reads its context in the same round trip as the rest); `contextOf` reads the rows.
 */
export function contextQueries(db: Db, companyId: string, contactId: string, flowId: string, connectionId?: string) {
  return [
    db.select().from(contacts).where(and(eq(contacts.id, contactId), eq(contacts.companyId, companyId))).limit(1),
    ...contactValueQueries(db, companyId, contactId),
    lastCampaignQuery(db, companyId, contactId),
    db
      .select({ name: tags.name })
      .from(contactTags)
      .innerJoin(tags, eq(tags.id, contactTags.tagId))
      .where(and(eq(contactTags.companyId, companyId), eq(contactTags.contactId, contactId))),
    db.select({ timezone: companies.timezone }).from(companies).where(eq(companies.id, companyId)).limit(1),
    rotaryQuery(db, companyId, flowId),
    db
      .select({ channel: connections.channel })
      .from(connections)
      .where(and(eq(connections.id, connectionId ?? ""), eq(connections.companyId, companyId)))
      .limit(1),
  ] as const;
}

/** The flow's rotary counters (`{nodeId, rotary}` of its blocks that handed out a contact), as a query not yet run. */
function rotaryQuery(db: Db, companyId: string, flowId: string) {
  return db
    .select({ nodeId: flowStats.nodeId, rotary: flowStats.rotary })
    .from(flowStats)
    .where(and(eq(flowStats.companyId, companyId), eq(flowStats.flowId, flowId), sql`${flowStats.rotary} > 0`));
}

/** The rows `contextQueries` answered, in its order. */
export type ContextRows = Awaited<ReturnType<typeof readContext>>;
function readContext(db: Db, queries: ReturnType<typeof contextQueries>) {
  return db.batch([...queries]);
}

/** The context of one step from `contextQueries`' rows (null when the contact no longer exists); as `buildContext`. */
export async function contextOf(env: AppEnv, db: Db, rows: ContextRows, now: number, connectionId?: string): Promise<FlowContext | null> {
  const [contactRows, fieldRows, stored, lastText, lastMedia, lastCampaign, tagRows, companyRows, rotaryRows, connectionRows] = rows;
  const contact = contactRows[0];
  if (!contact) return null;
  const values = await computeContactValues(env, db, contact, [fieldRows, stored, lastText, lastMedia, lastCampaign[0]?.name ?? null]);
  const timezone = companyRows[0]?.timezone ?? "UTC";
  const rotary: Record<string, number> = Object.fromEntries(rotaryRows.map((r) => [r.nodeId, r.rotary]));
  const capabilities = connectionId && connectionRows[0] ? capabilitiesOf(env, connectionRows[0]) : undefined;
  const fields: Record<string, string> = {};
  for (const v of values) if (v.value !== null) fields[v.key] = v.value;
  const fieldTypes: Record<string, CustomFieldType> = {};
  for (const f of fieldRows) fieldTypes[f.key] = f.type;
  return {
    now,
    random: Math.random,
    contact: { id: contact.id, name: contact.name, phone: contact.phone, email: contact.email, document: contact.document, fields, tags: tagRows.map((t) => t.name) },
    company: { timezone, fieldTypes },
    rotary,
    ...(capabilities ? { capabilities } : {}),
  };
}

/** The capabilities of a connection's channel (undefined when no adapter serves it; as `channelCapabilities`). */
function capabilitiesOf(env: AppEnv, connection: Pick<ConnectionRow, "channel">): ChannelCapabilities | undefined {
  try {
    return adapterFor(env, connection as ConnectionRow).capabilities;
  } catch {
    return undefined;
  }
}

/**
 * What a send carries along to its room call, handed to `performEffect` with it (issue 16: no
 * round trip or call of their own); every other effect ignores it.
 * - `stats`: the stats of the step the send belongs to, counted in the D1 batch that stores the
 *   message when the send stores one; `recorded` is then set true (else the caller records them).
 * - `publish`: a message of the run's ticket the turn stored in D1 itself and has not had published
 *   (a new contact's first message), which the room publishes ahead of the reply; `published` is
 *   then set true (else the caller publishes it).
 * - `firstSend`: with `publish`, the session that stores and sends the reply itself instead of the
 *   room (worker/pipeline/first-reply.ts; issue 16).
 */
export type Carried = { stats?: FlowStepStats; recorded: boolean; publish?: StoredPublish; published: boolean; firstSend?: FirstSender };

/**
 * Performs one effect. `key` makes a send idempotent (a send performed again after a crash answers
 * the first message instead of sending twice). Answers what must follow. Throws only on storage or
 * D1 failures (the caller retries); channel and HTTP failures are answers, not throws. `carried`:
 * what a send takes along (see `Carried`), ignored by every other effect.
 */
export async function performEffect(env: AppEnv, db: Db, target: RunTarget, effect: FlowEffect, key: string, carried?: Carried): Promise<FollowUp> {
  const { companyId, contactId } = target;
  switch (effect.type) {
    case "send": {
      const content = await preparedContent(env, companyId, effect.message);
      if (!content) {
        console.warn(`[flow] run ${target.runId} block ${effect.nodeId}: media not found, nothing sent`);
        return null;
      }
      const sent = await sendToTicket(
        env,
        { ticket: { id: target.ticketId, companyId, contactId }, connection: target.connection, recipientExternalId: target.recipientExternalId, recipientPhone: target.recipientPhone },
        content,
        null,
        key,
        carried?.stats,
        carried?.publish,
        carried?.firstSend,
      );
      if (carried && sent.statsRecorded === true) carried.recorded = true;
      // The room (or the session's first reply) answered: it published the carried message first.
      if (carried?.publish) carried.published = true;
      return null;
    }
    case "presence":
      await adapterFor(env, target.connection)
        .presence(target.connection, { externalId: target.recipientExternalId, phone: target.recipientPhone }, effect.state, target.lastInboundExternalId ?? undefined)
        .catch((error) => console.warn("[flow] presence failed", error));
      return null;
    case "set_field":
      await setField(db, companyId, contactId, effect.key, effect.value);
      return null;
    case "add_tag": {
      const ids = await ensureTags(db, companyId, [effect.tag]);
      const tagId = ids.get(effect.tag.toLocaleLowerCase());
      if (tagId) await db.insert(contactTags).values({ companyId, contactId, tagId }).onConflictDoNothing();
      return null;
    }
    case "remove_tag": {
      const rows = await db
        .select({ id: tags.id })
        .from(tags)
        .where(and(eq(tags.companyId, companyId), eq(tags.kind, "contact"), sql`lower(${tags.name}) = lower(${effect.tag})`));
      for (const row of rows) await db.delete(contactTags).where(and(eq(contactTags.companyId, companyId), eq(contactTags.contactId, contactId), eq(contactTags.tagId, row.id)));
      return null;
    }
    case "ticket":
      await ticketAction(env, db, target, effect.action, effect.memberId);
      return null;
    case "add_to_cycle":
      // A cycle deleted since the flow was published is skipped (logged), not retried.
      await enrolInCycle(env, companyId, effect.cycleId, [contactId]).catch((error: unknown) => {
        if (!(error instanceof AppError)) throw error;
        console.warn(`[flow] run ${target.runId} block ${effect.nodeId}: shipping cycle ${effect.cycleId} not found; skipped`);
      });
      return null;
    case "custom_event": {
      // The dashboard's per-day count moves in the same batch as the row (issue 12).
      const at = Date.now();
      await runBatch(db, [db.insert(customEvents).values({ id: newId(), companyId, contactId, name: effect.name, flowId: target.flowId, at }), await customEventStatement(db, companyId, effect.name, at)]);
      return null;
    }
    case "notify":
      await hubOf(env, companyId).publish(
        { type: "notification", notification: { id: newId(), text: effect.text, flowId: target.flowId, contactId, ticketId: target.ticketId } },
        { members: effect.memberIds },
      );
      return null;
    case "http":
      return { kind: "http_result", token: effect.token, result: await performHttp(effect.request) };
    case "pixel":
      await postPixel(env, effect);
      return null;
    case "start_flow":
      return { kind: "start_flow", flowId: effect.flowId };
    case "rotary_advance":
      await advanceRotary(db, companyId, target.flowId, effect.nodeId);
      return null;
    case "warning":
      console.warn(`[flow] run ${target.runId} block ${effect.nodeId}: ${effect.code} ${effect.message}`);
      return null;
    case "set_timer":
    case "cancel_timer":
    case "wait_reply":
      // Kept in the Durable Object's storage by the caller.
      return null;
  }
}

/**
 * The outbound message with its media resolved, and how it is stored: `r2:<key>` refs (the
 * company's own media only; null otherwise or when the object is gone) become signed absolute
 * URLs under PUBLIC_URL and are stored with their key so the chat shows them; http(s) URLs are
 * sent as they are. A link message is stored as text with its URL.
 */
async function preparedContent(env: AppEnv, companyId: string, message: OutboundMessage): Promise<OutboundContent | null> {
  switch (message.type) {
    case "text":
      return { type: "prepared", stored: { type: "text", body: message.body, payload: null, media: null }, outbound: message };
    case "image":
    case "audio":
    case "video":
    case "document":
    case "ptv":
    case "sticker": {
      const body = message.caption ?? "";
      if (message.media.url.startsWith("r2:")) {
        const key = message.media.url.slice(3);
        if (!key.startsWith(`media/${companyId}/`)) return null;
        const head = await env.FILES.head(key);
        if (!head) return null;
        const url = new URL(await signedMediaUrl(env, key), env.PUBLIC_URL).toString();
        return {
          type: "prepared",
          stored: { type: message.type, body, payload: null, media: { key, mime: message.media.mime, name: message.media.fileName ?? null, size: head.size } },
          outbound: { ...message, media: { ...message.media, url } },
        };
      }
      return { type: "prepared", stored: { type: message.type, body, payload: { url: message.media.url }, media: null }, outbound: message };
    }
    case "buttons": {
      const payload: { [key: string]: Json } = { buttons: message.buttons.map((b) => ({ id: b.id, title: b.title })), footer: message.footer ?? null };
      return { type: "prepared", stored: { type: "buttons", body: message.body, payload, media: null }, outbound: message };
    }
    case "list": {
      const rows = message.sections.flatMap((s) => s.rows.map((r) => ({ id: r.id, title: r.title, description: r.description ?? null, section: s.title })));
      return { type: "prepared", stored: { type: "list", body: message.body, payload: { buttonText: message.buttonText, rows }, media: null }, outbound: message };
    }
    case "link":
      return { type: "prepared", stored: { type: "text", body: `${message.body}\n${message.buttonText}: ${message.url}`.trim(), payload: { url: message.url, buttonText: message.buttonText }, media: null }, outbound: message };
    case "contact": {
      const card = { name: message.contact.name, phone: message.contact.phone, organization: message.contact.organization ?? null };
      return { type: "prepared", stored: { type: "contact", body: message.contact.name, payload: { contact: card }, media: null }, outbound: message };
    }
  }
}

/**
 * Writes a value the engine already normalised: `full_name`, `email`, `document` on the contact;
 * a `user` field's value (its number mirror recomputed); a `bot` field's company-wide value. A
 * formula field, an unknown key or a value its type now refuses is skipped with a log line.
 */
async function setField(db: Db, companyId: string, contactId: string, key: string, value: string): Promise<void> {
  const at = Date.now();
  if (key === "full_name" || key === "email" || key === "document") {
    const set = key === "full_name" ? { name: value } : key === "email" ? { email: value } : { document: value };
    await db.update(contacts).set({ ...set, updatedAt: at }).where(and(eq(contacts.id, contactId), eq(contacts.companyId, companyId)));
    return;
  }
  const field = await db.query.customFields.findFirst({ where: and(eq(customFields.companyId, companyId), eq(customFields.key, key)) });
  if (!field || field.formula) {
    console.warn(`[flow] field {{${key}}} cannot be written (unknown or computed)`);
    return;
  }
  const normal = normalizeFieldValue(field.type, value, await companyTimeZone(db, companyId));
  if (!normal.ok) {
    console.warn(`[flow] field {{${key}}} refused the value (${normal.reason})`);
    return;
  }
  if (field.kind === "bot") {
    await db.update(customFields).set({ value: normal.value, updatedAt: at }).where(and(eq(customFields.id, field.id), eq(customFields.companyId, companyId)));
    return;
  }
  await runBatch(db, fieldValueStatements(db, companyId, contactId, [{ fieldId: field.id, value: { value: normal.value, valueNumber: normal.valueNumber } }], [], at));
}

/**
 * The action block's ticket actions on the run's ticket: `open` hands it to the queue (pending,
 * a closed ticket reopened); `transfer` to a member of the company (open, assigned) or, with no
 * member, back to the queue; `close` closes it. The lists hear about it through the room.
 */
async function ticketAction(env: AppEnv, db: Db, target: RunTarget, action: "open" | "transfer" | "close", memberId: string | null): Promise<void> {
  const { companyId, ticketId } = target;
  const at = Date.now();
  let set: Partial<typeof tickets.$inferInsert>;
  if (action === "close") {
    // Closed with its resolution time counted once for the dashboard (issue 12), then published as before.
    const ticket = await db.query.tickets.findFirst({ where: and(eq(tickets.id, ticketId), eq(tickets.companyId, companyId)), columns: { id: true, companyId: true, createdAt: true } });
    if (ticket) await recordResolution(db, ticket, at);
    set = { status: "closed", closedAt: at };
  }
  else if (action === "transfer" && memberId) {
    const member = await db.query.members.findFirst({ where: (m, { and: both, eq: is }) => both(is(m.id, memberId), is(m.companyId, companyId)), columns: { id: true } });
    if (!member) {
      console.warn(`[flow] transfer to a member not in the company (${memberId})`);
      return;
    }
    set = { status: "open", assignedMemberId: member.id, servedByMemberId: member.id, closedAt: null };
  } else set = { status: "pending", assignedMemberId: null, closedAt: null };
  await db.update(tickets).set({ ...set, updatedAt: at }).where(and(eq(tickets.id, ticketId), eq(tickets.companyId, companyId)));
  await roomOf(env, ticketId).ticketChanged(companyId, ticketId);
}

/**
 * The integration block's request: only to a public http(s) address (checked again here, after
 * the engine), `timeoutMs` (10 s), redirects not followed, the answer cut at 64 kB. Never throws:
 * a refusal, timeout or network error answers `{ok: false, status: 0}`; a refusal also names the
 * guard's reason in `refused` (url-guard.ts), so tests can tell it from an unreachable address.
 */
export async function performHttp(request: HttpRequest): Promise<HttpResult & { refused?: UrlRefusal }> {
  const checked = checkPublicHttpUrl(request.url);
  if (!checked.ok) return { ok: false, status: 0, body: "", refused: checked.reason };
  try {
    const response = await fetch(checked.url.href, {
      method: request.method,
      headers: request.headers,
      body: request.body ?? undefined,
      redirect: "manual",
      signal: AbortSignal.timeout(request.timeoutMs),
    });
    const body = await readCapped(response, MAX_HTTP_ANSWER_BYTES);
    return { ok: response.status >= 200 && response.status <= 299, status: response.status, body };
  } catch (error) {
    console.warn("[flow] integration request failed", error);
    return { ok: false, status: 0, body: "" };
  }
}

async function readCapped(response: Response, limit: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < limit) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  await reader.cancel().catch(() => undefined);
  const bytes = new Uint8Array(Math.min(size, limit));
  let offset = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, Math.min(chunk.byteLength, bytes.byteLength - offset));
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/**
 * Posts a Conversions API event (Meta "Conversions API" / "Customer information parameters"):
 * POST `<PIXEL_GRAPH_URL>/<pixelId>/events` with the user data SHA-256 hashed, the pixel's token as a
 * bearer token (kept out of URLs and logs). Failures are logged, never retried (the event id lets
 * Meta deduplicate a repeat).
 */
async function postPixel(env: AppEnv, effect: Extract<FlowEffect, { type: "pixel" }>): Promise<void> {
  const base = (env.PIXEL_GRAPH_URL || DEFAULT_PIXEL_GRAPH_URL).replace(/\/+$/, "");
  const event = { ...effect.event, user_data: await hashPixelUserData(effect.event.user_data) };
  try {
    const response = await fetch(`${base}/${encodeURIComponent(effect.pixelId)}/events`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${effect.accessToken}` },
      body: JSON.stringify({ data: [event], ...(effect.testEventCode ? { test_event_code: effect.testEventCode } : {}) }),
      signal: AbortSignal.timeout(PIXEL_TIMEOUT_MS),
    });
    if (!response.ok) console.warn(`[flow] pixel ${effect.pixelId} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    else await response.body?.cancel();
  } catch (error) {
    console.warn(`[flow] pixel ${effect.pixelId} post failed`, error);
  }
}
