/**
 * The public API, version 1 (issue 11 "Public API and its documentation"), mounted at /api/v1.
 * Built with @hono/zod-openapi: every route is a `createRoute` whose zod schemas
 * (schema/validation/v1.ts) both validate the request and generate the OpenAPI 3.1 document served
 * at `GET /api/v1/openapi.json` (the only route without a key). The reference page is the web
 * app's /docs/api (web/src/features/api-docs), rendered from that document.
 *
 * Authentication: ONLY a company API key (`X-Api-Key: cv_…` or `Authorization: Bearer cv_…`); a
 * session token or nothing answers 401. Each route needs one scope (PUBLIC_API_ROUTES in
 * schema/validation/api-keys.ts): a key without it answers 403 `insufficient_scope`. The key acts
 * inside its own company: another company's ids answer 404. Rate limit per key: API_RATE_LIMIT
 * requests per minute (600 by default), fixed window kept in D1 (worker/lib/rate-limit.ts); every
 * keyed answer carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds until
 * the window ends; IETF draft "RateLimit header fields for HTTP"), and a spent window answers 429
 * `rate_limited` with `Retry-After`. Bad input answers 400 `validation_failed` naming each field
 * (the defaultHook hands zod's error to the app's one error envelope, worker/lib/errors.ts).
 *
 * The work is the app's own: contacts through worker/lib/contacts.ts (createContactRecord,
 * updateContactRecord, checkTags), sends through the chat's path (targetOf + sendToTicket), flows
 * through startFlowOnTicket (worker/routes/flow-runs.ts), media typed by its bytes (storeMedia).
 *
 * Routes (paths under /api/v1):
 * - POST /messages (messages:send): text, media by URL or upload, or a template, to a phone
 *   through a connection; the contact is found by phone or created; its open ticket on the
 *   connection takes the message, else a new pending ticket (origin `company`). Text and media go
 *   through the chat's send path (stored, then sent in order by the TicketRoom); a template is sent
 *   by the adapter's `sendTemplate` (WhatsApp Cloud API, as broadcasts do) and stored as sent.
 *   A `mediaUrl` must pass the integration block's address guard (worker/flows/url-guard.ts). → 201 Message.
 * - GET /contacts?phone=&email= (contacts:read) → {results}; GET /contacts/{id} → Contact.
 * - POST /contacts (contacts:write) → 201 Contact; 409 phone_in_use.
 * - PATCH /contacts/{id} (contacts:write) → Contact.
 * - POST /contacts/{id}/tags {tagIds}, DELETE /contacts/{id}/tags/{tagId} (contacts:write) → Contact.
 * - PUT /contacts/{id}/fields {fields} (contacts:write) → Contact.
 * - POST /contacts/{id}/flows {flowId, connectionId} (flows:start) → 201 {runId, ticketId}.
 * - GET /tickets?status=&cursor=&limit= (tickets:read) → TicketPage, newest activity first.
 */
import { OpenAPIHono, createRoute, z, type RouteConfig } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { connections, contacts, tags, tickets, type ConnectionRow, type ContactRow, type TicketRow } from "../../schema";
import {
  v1Contact,
  v1ContactCreate,
  v1ContactList,
  v1ContactSearch,
  v1ContactUpdate,
  v1Error,
  v1FieldsInput,
  v1IdParam,
  v1MessageAnswer,
  v1MessageForm,
  v1MessageJson,
  v1StartFlowAnswer,
  v1StartFlowInput,
  v1TagParam,
  v1TagsInput,
  v1TicketPage,
  v1TicketQuery,
  type V1Contact,
  type V1MessageJson,
  type V1Ticket,
} from "../../schema/validation/v1";
import type { AppEnv } from "../env";
import type { HonoEnv } from "../middleware/context";
import { requireCompany, requireSubscription, requireUser } from "../middleware/auth";
import { API_KEY_PREFIX } from "../lib/api-keys";
import { changeContactTags, checkTags, createContactRecord, findContact, presentContacts, updateContactRecord } from "../lib/contacts";
import { decodeNumberCursor, encodeCursor } from "../lib/cursor";
import type { Db } from "../lib/db";
import { AppError, notFound, unauthorized, validationError } from "../lib/errors";
import { emitEvent } from "../lib/event-subscriptions";
import { findFlow } from "../lib/flows";
import { MAX_MEDIA_BYTES, storeMedia } from "../lib/media";
import { isFormRequest, multipartBody } from "../lib/multipart";
import { countHit } from "../lib/rate-limit";
import { roomOf } from "../lib/realtime";
import { storeSentTemplate } from "../lib/template-messages";
import { isInlineType } from "../lib/sniff";
import { companyTicketFor } from "../lib/company-tickets";
import { checkPublicHttpUrl } from "../flows/url-guard";
import { sendToTicket, type OutboundContent } from "../pipeline/outbound";
import { adapterFor } from "../channels";
import { startFlowOnTicket } from "./flow-runs";
import { mediaTypeOf, targetOf } from "./tickets";

/** Requests per minute per API key when API_RATE_LIMIT is unset. */
export const DEFAULT_API_RATE_LIMIT = 600;
/** The rate limit's window (ms). */
export const API_RATE_WINDOW_MS = 60_000;
/** Largest media fetched from a `mediaUrl` (bytes). */
export const MAX_URL_MEDIA_BYTES = 25 * 1024 * 1024;
/** How long fetching a `mediaUrl` may take (ms). */
const MEDIA_FETCH_TIMEOUT_MS = 15_000;

/** Requests per minute per key: API_RATE_LIMIT when it is a positive integer, else the default. */
export function apiRateLimit(env: Pick<AppEnv, "API_RATE_LIMIT">): number {
  const value = Number(env.API_RATE_LIMIT);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_API_RATE_LIMIT;
}

/**
 * 401 unless the request carries a company API key; then the app's key authentication
 * (requireUser → the key's scope for this route, PUBLIC_API_ROUTES).
 */
const requireApiKey = createMiddleware<HonoEnv>(async (c, next) => {
  const bearer = /^Bearer\s+(\S+)$/i.exec(c.req.header("Authorization") ?? "")?.[1];
  if (!c.req.header("X-Api-Key") && !bearer?.startsWith(API_KEY_PREFIX)) {
    throw unauthorized("The public API takes a company API key: X-Api-Key: cv_… or Authorization: Bearer cv_….");
  }
  return requireUser(c, next);
});

/** The per-key fixed window, with the RateLimit-* headers on every answer and 429 once spent. */
const rateLimitPerKey = createMiddleware<HonoEnv>(async (c, next) => {
  const key = c.var.apiKey;
  if (!key) throw unauthorized();
  const max = apiRateLimit(c.env);
  const at = Date.now();
  const counted = await countHit(c.var.db, { key: `api-key:${key.id}`, max, windowMs: API_RATE_WINDOW_MS }, at);
  const count = counted?.count ?? 1;
  const reset = Math.max(1, Math.ceil(((counted?.windowStart ?? at) + API_RATE_WINDOW_MS - at) / 1000));
  const headers = { "RateLimit-Limit": String(max), "RateLimit-Remaining": String(Math.max(0, max - count)), "RateLimit-Reset": String(reset) };
  if (count > max) throw new AppError("rate_limited", "Too many requests for this API key. Try again later.", undefined, { ...headers, "Retry-After": String(reset) });
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  await next();
  // An error answer is built anew by app.onError: the headers go on it too.
  for (const [name, value] of Object.entries(headers)) if (!c.res.headers.has(name)) c.res.headers.set(name, value);
});

/** Every keyed route's middleware, in order: key and scope, company, subscription, rate limit. */
const keyed = [requireApiKey, requireCompany, requireSubscription, rateLimitPerKey];

const security: Record<string, string[]>[] = [{ ApiKey: [] }, { Bearer: [] }];

const errorResponse = (description: string) => ({ content: { "application/json": { schema: v1Error } }, description });

/** The failures every keyed route may answer. */
const keyedErrors = {
  400: errorResponse("Invalid input: `error.fields` names each field with its reason."),
  401: errorResponse("No API key, or an unknown or revoked one."),
  402: errorResponse("The company's subscription gives no access."),
  403: errorResponse("The key lacks the route's scope (`insufficient_scope`)."),
  404: errorResponse("No such resource in the key's company."),
  429: errorResponse("The key's rate limit is spent: see `Retry-After`."),
} satisfies RouteConfig["responses"];

const json = <T extends z.ZodType>(schema: T, description: string) => ({ content: { "application/json": { schema } }, description });
const jsonBody = <T extends z.ZodType>(schema: T) => ({ body: { content: { "application/json": { schema } }, required: true } });

/** Presents contact rows as the API's Contact. */
async function presentV1Contacts(db: Db, companyId: string, rows: ContactRow[]): Promise<V1Contact[]> {
  const answers = await presentContacts(db, companyId, rows);
  return answers.map((a) => ({ id: a.id, name: a.name, phone: a.phone, email: a.email, document: a.document, tags: a.tags, fields: a.fields, createdAt: a.createdAt, updatedAt: a.updatedAt }));
}

async function presentV1Contact(db: Db, companyId: string, row: ContactRow): Promise<V1Contact> {
  const [answer] = await presentV1Contacts(db, companyId, [row]);
  if (!answer) throw notFound("Contact");
  return answer;
}

/** The connection `id` of `companyId`; 404 otherwise. */
async function findConnection(db: Db, companyId: string, id: string): Promise<ConnectionRow> {
  const row = await db.query.connections.findFirst({ where: and(eq(connections.id, id), eq(connections.companyId, companyId)) });
  if (!row) throw notFound("Connection");
  return row;
}

/** The company's contact with `phone` (E.164), created (named `name`, else the phone) when missing. */
async function contactByPhone(env: AppEnv, db: Db, companyId: string, permissions: ReadonlySet<string>, phone: string, name: string | undefined): Promise<ContactRow> {
  const found = () => db.query.contacts.findFirst({ where: and(eq(contacts.companyId, companyId), eq(contacts.phone, phone)) });
  const existing = await found();
  if (existing) return existing;
  try {
    return await createContactRecord(env, db, companyId, permissions, { name: name ?? phone, phone });
  } catch (error) {
    // Created by someone else in between: that contact is the one.
    const raced = error instanceof AppError && error.code === "phone_in_use" ? await found() : undefined;
    if (raced) return raced;
    throw error;
  }
}

/**
 * Fetches `url` (a public http(s) address by the integration block's guard; redirects not followed)
 * and stores it as media of `companyId`, typed by its bytes. 400 naming `mediaUrl`: the guard's
 * reason, `too_large` (over MAX_URL_MEDIA_BYTES), `download_failed` (no 2xx, timeout, network).
 */
async function mediaFromUrl(env: AppEnv, companyId: string, url: string, fileName: string | undefined) {
  const refuse = (reason: string, message: string) => new AppError("validation_failed", message, { mediaUrl: reason });
  const checked = checkPublicHttpUrl(url);
  if (!checked.ok) throw refuse(checked.reason, "The media URL must be a public http(s) address.");
  let response: Response;
  try {
    response = await fetch(checked.url.href, { redirect: "manual", signal: AbortSignal.timeout(MEDIA_FETCH_TIMEOUT_MS) });
  } catch {
    throw refuse("download_failed", "The media URL could not be fetched.");
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw refuse("download_failed", `The media URL answered ${response.status}.`);
  }
  const declared = Number(response.headers.get("Content-Length"));
  if (declared > MAX_URL_MEDIA_BYTES) {
    await response.body.cancel();
    throw refuse("too_large", "The media is larger than 25 MiB.");
  }
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_URL_MEDIA_BYTES) {
      await reader.cancel();
      throw refuse("too_large", "The media is larger than 25 MiB.");
    }
    parts.push(value);
  }
  if (size === 0) throw refuse("download_failed", "The media URL answered an empty body.");
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  const name = fileName ?? decodeURIComponent(checked.url.pathname.split("/").pop() ?? "") ?? null;
  const stored = await storeMedia(env.FILES, companyId, bytes, response.headers.get("Content-Type") ?? "application/octet-stream", name || null);
  return { ...stored, name: name || null };
}

/** What a JSON text or media send stores and sends. */
async function contentOf(env: AppEnv, companyId: string, input: Exclude<V1MessageJson, { type: "template" }>): Promise<OutboundContent> {
  if (input.type === "text") return { type: "text", body: input.text };
  const media = await mediaFromUrl(env, companyId, input.mediaUrl, input.fileName);
  // The bytes decide: an HTML file declared as an image goes out as a document.
  const wanted = isInlineType(media.mime) || input.type === "document" ? input.type : undefined;
  return { type: mediaTypeOf(media.mime, wanted), body: input.caption ?? "", media: { key: media.key, mime: media.mime, name: media.name, size: media.size } };
}

/**
 * Sends an approved template through the connection's adapter (WhatsApp Cloud API's `sendTemplate`,
 * as broadcasts do) and stores it in the ticket, in order, as sent by the key (type `text`, its
 * name and values shown, the template in `payload`); emits `message.sent`. 400 `type:
 * template_unsupported` for a connection that cannot send templates, `template: template_refused`
 * when WhatsApp refuses it.
 */
async function sendTemplateMessage(env: AppEnv, db: Db, key: { id: string; name: string }, ticket: TicketRow, template: Extract<V1MessageJson, { type: "template" }>["template"]) {
  const target = await targetOf(db, ticket);
  const adapter = adapterFor(env, target.connection);
  if (!adapter.sendTemplate) throw new AppError("validation_failed", "This connection cannot send templates.", { type: "template_unsupported" });
  const sent = await adapter.sendTemplate(
    target.connection,
    { externalId: target.recipientExternalId, phone: target.recipientPhone },
    { name: template.name, language: template.language, headerParams: template.headerParams, bodyParams: template.bodyParams },
  );
  if (!sent.ok) throw new AppError("validation_failed", `WhatsApp refused the template: ${sent.errorMessage}`.slice(0, 300), { template: "template_refused" });
  return storeSentTemplate(
    env,
    ticket,
    target.connection.id,
    { name: template.name, language: template.language, headerParams: template.headerParams, bodyParams: template.bodyParams },
    sent.externalId,
    { name: key.name, apiKeyId: key.id },
  );
}

function presentV1Ticket(row: { ticket: TicketRow; contact: Pick<ContactRow, "id" | "name" | "phone"> }): V1Ticket {
  const t = row.ticket;
  return {
    id: t.id,
    status: t.status,
    contact: { id: row.contact.id, name: row.contact.name, phone: row.contact.phone },
    connectionId: t.connectionId,
    assignedMemberId: t.assignedMemberId,
    lastMessageAt: t.lastMessageAt,
    lastMessagePreview: t.lastMessagePreview,
    createdAt: t.createdAt,
    closedAt: t.closedAt,
  };
}

// --- route definitions (the document is generated from these) ------------------------------------

const openapiRoute = createRoute({
  method: "get",
  path: "/openapi.json",
  tags: ["Documentation"],
  summary: "This API's OpenAPI 3.1 document",
  description: "Public: no key needed.",
  responses: { 200: json(z.record(z.string(), z.unknown()), "The OpenAPI 3.1 document.") },
});

const sendMessageRoute = createRoute({
  method: "post",
  path: "/messages",
  tags: ["Messages"],
  summary: "Send a message to a phone through a connection",
  description:
    "Scope `messages:send`. JSON for text, media by public URL (`mediaUrl`, ≤ 25 MiB) or a template; multipart/form-data to upload a file (≤ 100 MB). The contact is found by phone, or created. The message goes to the contact's open or pending ticket on the connection, else a new pending ticket, and is sent in order by the connection.",
  security,
  middleware: [...keyed, multipartBody("file")],
  request: {
    body: {
      content: { "application/json": { schema: v1MessageJson }, "multipart/form-data": { schema: v1MessageForm } },
    },
  },
  responses: { 201: json(v1MessageAnswer, "Stored and queued for sending."), ...keyedErrors },
});

const findContactsRoute = createRoute({
  method: "get",
  path: "/contacts",
  tags: ["Contacts"],
  summary: "Find contacts by phone or e-mail",
  description: "Scope `contacts:read`. At least one of `phone` and `email`; with both, a contact must match both.",
  security,
  middleware: keyed,
  request: { query: v1ContactSearch },
  responses: { 200: json(v1ContactList, "The matching contacts (at most 50)."), ...keyedErrors },
});

const getContactRoute = createRoute({
  method: "get",
  path: "/contacts/{id}",
  tags: ["Contacts"],
  summary: "Get a contact",
  description: "Scope `contacts:read`.",
  security,
  middleware: keyed,
  request: { params: v1IdParam },
  responses: { 200: json(v1Contact, "The contact."), ...keyedErrors },
});

const createContactRoute = createRoute({
  method: "post",
  path: "/contacts",
  tags: ["Contacts"],
  summary: "Create a contact",
  description: "Scope `contacts:write`. 409 `phone_in_use` when the company has a contact with that phone.",
  security,
  middleware: keyed,
  request: jsonBody(v1ContactCreate),
  responses: { 201: json(v1Contact, "The new contact."), ...keyedErrors, 409: errorResponse("A contact with this phone exists (`phone_in_use`).") },
});

const updateContactRoute = createRoute({
  method: "patch",
  path: "/contacts/{id}",
  tags: ["Contacts"],
  summary: "Update a contact",
  description: "Scope `contacts:write`. An absent key keeps its value; `email: null` and `document: null` clear; `tags` replaces the contact's tags; `fields` sets the named fields.",
  security,
  middleware: keyed,
  request: { params: v1IdParam, ...jsonBody(v1ContactUpdate) },
  responses: { 200: json(v1Contact, "The updated contact."), ...keyedErrors, 409: errorResponse("Another contact has this phone (`phone_in_use`).") },
});

const addTagsRoute = createRoute({
  method: "post",
  path: "/contacts/{id}/tags",
  tags: ["Contacts"],
  summary: "Add tags to a contact",
  description: "Scope `contacts:write`. The contact's other tags stay.",
  security,
  middleware: keyed,
  request: { params: v1IdParam, ...jsonBody(v1TagsInput) },
  responses: { 200: json(v1Contact, "The contact with its tags."), ...keyedErrors },
});

const removeTagRoute = createRoute({
  method: "delete",
  path: "/contacts/{id}/tags/{tagId}",
  tags: ["Contacts"],
  summary: "Remove a tag from a contact",
  description: "Scope `contacts:write`.",
  security,
  middleware: keyed,
  request: { params: v1TagParam },
  responses: { 200: json(v1Contact, "The contact with its tags."), ...keyedErrors },
});

const setFieldsRoute = createRoute({
  method: "put",
  path: "/contacts/{id}/fields",
  tags: ["Contacts"],
  summary: "Set custom field values",
  description: "Scope `contacts:write`. Values by custom field id, normalised by each field's type; null clears one; other fields stay.",
  security,
  middleware: keyed,
  request: { params: v1IdParam, ...jsonBody(v1FieldsInput) },
  responses: { 200: json(v1Contact, "The contact with its values."), ...keyedErrors },
});

const startFlowRoute = createRoute({
  method: "post",
  path: "/contacts/{id}/flows",
  tags: ["Flows"],
  summary: "Start a flow for a contact",
  description:
    "Scope `flows:start`. Starts the flow's published version in the contact's open or pending ticket on the connection (a new pending ticket otherwise); a run in progress is stopped first. 409 when the flow was never published or the contact cannot be reached on the connection.",
  security,
  middleware: keyed,
  request: { params: v1IdParam, ...jsonBody(v1StartFlowInput) },
  responses: { 201: json(v1StartFlowAnswer, "The run started."), ...keyedErrors, 409: errorResponse("Not published, or the contact cannot be reached.") },
});

const listTicketsRoute = createRoute({
  method: "get",
  path: "/tickets",
  tags: ["Tickets"],
  summary: "List tickets",
  description: "Scope `tickets:read`. Newest activity first; pass the answer's `cursor` for the next page.",
  security,
  middleware: keyed,
  request: { query: v1TicketQuery },
  responses: { 200: json(v1TicketPage, "One page of tickets."), ...keyedErrors },
});

// --- the app ---------------------------------------------------------------------------------------

/** The public API sub-app (mounted at /api/v1 in worker/app.ts). */
export const v1Routes = new OpenAPIHono<HonoEnv>({
  // Bad input answers the app's 400 envelope naming each field (worker/lib/errors.ts).
  defaultHook: (result) => {
    if (!result.success) throw validationError(result.error);
  },
});

v1Routes.openAPIRegistry.registerComponent("securitySchemes", "ApiKey", { type: "apiKey", in: "header", name: "X-Api-Key", description: "A company API key (`cv_…`), created in Settings → Integration." });
v1Routes.openAPIRegistry.registerComponent("securitySchemes", "Bearer", { type: "http", scheme: "bearer", description: "The same key as a bearer token: `Authorization: Bearer cv_…`." });

/** The OpenAPI 3.1 document of /api/v1, its server on PUBLIC_URL. */
export function v1Document(env: Pick<AppEnv, "PUBLIC_URL" | "APP_NAME">) {
  const base = (env.PUBLIC_URL || "http://localhost:8787").replace(/\/+$/, "");
  return v1Routes.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: `${env.APP_NAME || "Conversa"} public API`,
      version: "1.0.0",
      description:
        "Send messages, manage contacts, tags and custom fields, start flows and list tickets with a company API key (Settings → Integration). Every answer of a keyed route carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset; errors are `{error: {code, message, fields?}}`.",
    },
    servers: [{ url: `${base}/api/v1` }],
  });
}

v1Routes
  .openapi(openapiRoute, (c) => c.json(v1Document(c.env), 200))
  .openapi(sendMessageRoute, async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const key = c.var.apiKey;
    if (!key) throw unauthorized();
    const form = isFormRequest(c);
    const contentType = c.req.header("Content-Type") ?? "";
    if (!form && !/^application\/json\b/i.test(contentType)) {
      throw new AppError("validation_failed", "Send JSON or multipart/form-data.", { type: "required" });
    }
    const input = form ? c.req.valid("form") : c.req.valid("json");
    const connection = await findConnection(db, companyId, input.connectionId);
    if ("type" in input && input.type === "template") {
      if (!adapterFor(c.env, connection).sendTemplate) throw new AppError("validation_failed", "This connection cannot send templates.", { type: "template_unsupported" });
      const contact = await contactByPhone(c.env, db, companyId, c.var.permissions, input.phone, input.name);
      const ticket = await companyTicketFor(c.env, db, connection, contact.id);
      const m = await sendTemplateMessage(c.env, db, key, ticket, input.template);
      return c.json({ id: m.id, ticketId: m.ticketId, contactId: m.contactId, type: "template", status: m.status, createdAt: m.createdAt }, 201);
    }
    let content: OutboundContent;
    if ("file" in input) {
      const file = input.file;
      if (file.size > MAX_MEDIA_BYTES) throw new AppError("validation_failed", "The file is larger than 100 MB.", { file: "too_large" });
      if (file.size === 0) throw new AppError("validation_failed", "The file is empty.", { file: "empty_file" });
      const stored = await storeMedia(c.env.FILES, companyId, await file.arrayBuffer(), file.type || "application/octet-stream", file.name);
      const wanted = isInlineType(stored.mime) || input.type === "document" ? input.type : undefined;
      content = { type: mediaTypeOf(stored.mime, wanted), body: input.caption ?? "", media: { key: stored.key, mime: stored.mime, name: file.name || null, size: stored.size } };
    } else {
      content = await contentOf(c.env, companyId, input);
    }
    const contact = await contactByPhone(c.env, db, companyId, c.var.permissions, input.phone, input.name);
    const ticket = await companyTicketFor(c.env, db, connection, contact.id);
    const result = await sendToTicket(c.env, await targetOf(db, ticket), content, { apiKeyId: key.id, name: key.name });
    const m = result.message;
    return c.json({ id: m.id, ticketId: m.ticketId, contactId: m.contactId, type: m.type, status: m.status, createdAt: m.createdAt }, 201);
  })
  .openapi(findContactsRoute, async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const { phone, email } = c.req.valid("query");
    const rows = await db
      .select()
      .from(contacts)
      .where(and(eq(contacts.companyId, companyId), phone !== undefined ? eq(contacts.phone, phone) : undefined, email !== undefined ? eq(contacts.email, email) : undefined))
      .orderBy(desc(contacts.createdAt))
      .limit(50);
    return c.json({ results: await presentV1Contacts(db, companyId, rows) }, 200);
  })
  .openapi(getContactRoute, async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    return c.json(await presentV1Contact(db, companyId, await findContact(db, companyId, c.req.valid("param").id)), 200);
  })
  .openapi(createContactRoute, async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const row = await createContactRecord(c.env, db, companyId, c.var.permissions, c.req.valid("json"));
    return c.json(await presentV1Contact(db, companyId, row), 201);
  })
  .openapi(updateContactRoute, async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const row = await updateContactRecord(c.env, db, companyId, c.var.permissions, c.req.valid("param").id, c.req.valid("json"));
    return c.json(await presentV1Contact(db, companyId, row), 200);
  })
  .openapi(addTagsRoute, async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const contact = await findContact(db, companyId, c.req.valid("param").id);
    const { tagIds } = c.req.valid("json");
    await checkTags(db, companyId, tagIds, "tagIds");
    await changeContactTags(db, companyId, contact.id, [...new Set(tagIds)], true);
    return c.json(await presentV1Contact(db, companyId, await findContact(db, companyId, contact.id)), 200);
  })
  .openapi(removeTagRoute, async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const { id, tagId } = c.req.valid("param");
    const contact = await findContact(db, companyId, id);
    const tag = await db.query.tags.findFirst({ where: and(eq(tags.id, tagId), eq(tags.companyId, companyId)), columns: { id: true } });
    if (!tag) throw notFound("Tag");
    await changeContactTags(db, companyId, contact.id, [tag.id], false);
    return c.json(await presentV1Contact(db, companyId, await findContact(db, companyId, contact.id)), 200);
  })
  .openapi(setFieldsRoute, async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const row = await updateContactRecord(c.env, db, companyId, c.var.permissions, c.req.valid("param").id, { fields: c.req.valid("json").fields });
    return c.json(await presentV1Contact(db, companyId, row), 200);
  })
  .openapi(startFlowRoute, async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const contact = await findContact(db, companyId, c.req.valid("param").id);
    const { flowId, connectionId } = c.req.valid("json");
    const connection = await findConnection(db, companyId, connectionId);
    // The flow is checked before a ticket is opened for it.
    const flow = await findFlow(db, companyId, flowId);
    if (flow.publishedVersion === null) throw new AppError("conflict", "This flow has not been published yet.");
    const ticket = await companyTicketFor(c.env, db, connection, contact.id);
    const runId = await startFlowOnTicket(c.env, db, ticket, flow.id);
    return c.json({ runId, ticketId: ticket.id }, 201);
  })
  .openapi(listTicketsRoute, async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const q = c.req.valid("query");
    const after = decodeNumberCursor(q.cursor);
    const rows = await db
      .select({ ticket: tickets, contact: { id: contacts.id, name: contacts.name, phone: contacts.phone } })
      .from(tickets)
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .where(
        and(
          eq(tickets.companyId, companyId),
          q.status === "all" ? inArray(tickets.status, ["pending", "open", "closed"]) : eq(tickets.status, q.status),
          after ? sql`(${tickets.lastMessageAt}, ${tickets.id}) < (${after[0]}, ${after[1]})` : undefined,
        ),
      )
      .orderBy(desc(tickets.lastMessageAt), desc(tickets.id))
      .limit(q.limit + 1);
    const page = rows.slice(0, q.limit);
    const last = page[page.length - 1];
    return c.json({ results: page.map(presentV1Ticket), cursor: rows.length > q.limit && last ? encodeCursor([last.ticket.lastMessageAt, last.ticket.id]) : null }, 200);
  });
