/**
 * The route matrix's classification table (issue 8 §8): every route the Hono router registers
 * (`app.routes` of worker/app.ts, keyed `METHOD /api/path` exactly as Hono spells the path) with who
 * may call it, which fixture of company A each `:param` takes, and a valid JSON or multipart body
 * (so a cross-company request passes validation and reaches the lookup that must answer 404).
 *
 * Access kinds:
 * - `public`: reachable without a session, each with the reason (its own credential or nothing to
 *   protect). Public routes are only checked for "never 5xx".
 * - `user`: needs a session, no company permission (the signed-in user's own data).
 * - `company`: needs a session and membership of the active company; `anyOf` lists the spec §6
 *   permissions of which the member must hold at least one (`[]`: any member). A member holding
 *   every permission except these answers 403.
 * - `dev`: mounted only with `BENCH_ENDPOINTS=on` (benchmark scripts); 404 everywhere in tests.
 * - `apiKey`: the public API /api/v1: a company API key holding `scope`, never a session (401
 *   without a key; another company's key with company A's ids → 404; a key lacking the scope → 403
 *   is checked route by route in worker/routes/v1.test.ts).
 *
 * The table is read by worker/test/route-matrix.test.ts (401 / 404 / 403 / API-key checks) and
 * worker/test/fuzz.test.ts (bodies and queries from fast-check). A route missing here fails the
 * matrix with its name; an entry for a route that no longer exists fails it too.
 */
import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import type { CompanyPermission } from "../../schema/permissions";
import { COMPANY_PERMISSIONS } from "../../schema/permissions";
import { API_KEY_SCOPES, type ApiKeyScope } from "../../schema/api-keys";
import type { ApiKeyCreatedAnswer } from "../../schema/validation/api-keys";
import type { JobAnswer } from "../../schema/api-types";
import { getDb } from "../lib/db";
import { keepRejected } from "../lib/rejected-events";
import { cloudConnection, deliverOk, onlyTicket, sandboxConnection, textWebhook, uniqueWaId, wamid } from "./channel-helpers";
import { createColumn, createContact, createField, createTag } from "./contact-helpers";
import { flowDoc, publishedFlow } from "./flow-helpers";
import { type Account, call, createRole, expectStatus, invite, member, pngFile, register, uniqueEmail, uniqueIp } from "./helpers";

export type Access =
  /** `refuses`: the status a request without the route's own credential answers (a bad code, no signature, no device token). */
  | { kind: "public"; reason: string; refuses?: number }
  | { kind: "user" }
  | { kind: "company"; anyOf: CompanyPermission[] }
  | { kind: "dev"; reason: string }
  /** The public API /api/v1: a company API key with `scope` only (no session); other companies' ids 404. */
  | { kind: "apiKey"; scope: ApiKeyScope }
  /**
   * Platform administrators only (PLATFORM_ADMINS; issue 12): any other session answers 403
   * `forbidden` before a lookup, so `:param` fixtures are placeholders.
   */
  | { kind: "platformAdmin" }
  /**
   * Franchise administrators only (issue 14; worker/middleware/franchise.ts): a company owner who
   * administers no franchise answers 403 `forbidden`; another franchise's administrator naming
   * franchise A's ids answers 404. 404 for everyone while FRANCHISE_MODE is off (the tests run with
   * it on; worker/routes/franchise.test.ts checks "off").
   */
  | { kind: "franchiseAdmin" };

/** The ids of company A's fixtures a `:param` can take. */
export type Ids = {
  companyId: string;
  contact: string;
  tag: string;
  customField: string;
  crmColumn: string;
  quickMessage: string;
  connection: string;
  cloudConnection: string;
  rejectedEvent: string;
  ticket: string;
  ticketContact: string;
  folder: string;
  flow: string;
  flowRun: string;
  keyword: string;
  role: string;
  member: string;
  invite: string;
  job: string;
  apiKey: string;
  /** An outbound event subscription (events: broadcast.finished only, so the fixtures emit nothing to it). */
  eventSubscription: string;
  /** A group conversation of the owner and the member (internal chat). */
  internalChat: string;
  /** A broadcast (waiting, never started). */
  broadcast: string;
  /** An inbound webhook (test mode). */
  webhook: string;
  /** Not an id: the secret token of company A's webhook URL (a test-mode webhook: requests are only captured). */
  webhookToken: string;
  /** A shipping cycle (one step a day out) with `contact` enrolled. */
  shippingCycle: string;
  /** Not an id: the webhook provider segment. */
  provider: string;
  /** Not an id: an Evolution webhook path secret no connection holds (the path's secret is that route's credential; issue 15). */
  evolutionSecret: string;
  /** A franchise role of franchise A (issue 14), held by `franchiseCompany`. */
  franchiseRole: string;
  /** A company under franchise A (not company A). */
  franchiseCompany: string;
  /** An open sandbox invoice of `franchiseCompany`. */
  franchiseInvoice: string;
  /** The user id of a second administrator of franchise A. */
  franchiseAdminUser: string;
};

export type RouteEntry = {
  access: Access;
  /** Which fixture each `:param` of the path takes. */
  params?: Record<string, keyof Ids>;
  /** A valid JSON body (company A's ids where it names any). */
  body?: (ids: Ids) => unknown;
  /** A valid multipart body. */
  multipart?: (ids: Ids) => FormData;
  /** A valid query string (without `?`). */
  query?: (ids: Ids) => string;
  /** A WebSocket route: the requests carry `Upgrade: websocket`. */
  upgrade?: boolean;
  /** Destroys its resource when it succeeds: the fuzzer leaves it alone. */
  destructive?: boolean;
};

const pub = (reason: string, refuses?: number): Access => ({ kind: "public", reason, ...(refuses ? { refuses } : {}) });
const user: Access = { kind: "user" };
const platformAdmin: Access = { kind: "platformAdmin" };
const franchiseAdmin: Access = { kind: "franchiseAdmin" };
const anyMember: Access = { kind: "company", anyOf: [] };
const perm = (...anyOf: CompanyPermission[]): Access => ({ kind: "company", anyOf });
const keyScope = (scope: ApiKeyScope): Access => ({ kind: "apiKey", scope });

const id = (key: keyof Ids) => ({ id: key });

/** A valid billing holder (schema/validation/billing.ts holderSchema). */
const BILLING_HOLDER = {
  name: "Ana Souza",
  email: "ana@example.com",
  cpfCnpj: "529.982.247-25",
  postalCode: "01310-100",
  address: "Avenida Paulista",
  addressNumber: "1000",
  province: "Bela Vista",
  city: "São Paulo",
  state: "SP",
  phone: "11987654321",
};

/** A one-row form with a PNG, as the profile and company forms take. */
function imageForm(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  data.append("image", pngFile());
  return data;
}

/** A form with one `file`. */
function fileForm(file: File): FormData {
  const data = new FormData();
  data.append("file", file);
  return data;
}

/** A valid comment automation (issue 15). */
function commentRuleBody() {
  return { name: "Preço", rules: [{ type: "contains", words: ["preço"] }], privateReply: "Te mandei no direct!", publicReply: "Veja seu direct", mediaIds: null, flowId: null };
}

export const ROUTES: Record<string, RouteEntry> = {
  // --- public: no session, by design ------------------------------------------------------------
  "GET /api/health": { access: pub("liveness probe; answers {ok:true} only") },
  "GET /api/runtime-settings": { access: pub("settings the sign-in page reads before anyone signs in") },
  "GET /api/infos": { access: pub("the white-label name and logo of the sign-in page") },
  "POST /api/register": {
    access: pub("self-registration (rate limited)"),
    body: () => ({ name: "Ana Souza", email: uniqueEmail("fuzz"), phone: "+55 11 98765-4321", password: "correct horse battery", companyName: "Padaria" }),
  },
  "POST /api/login": { access: pub("sign-in (throttled per address and client)"), body: () => ({ email: uniqueEmail("nobody"), password: "wrong password here" }) },
  "POST /api/forgot-password": { access: pub("password reset request; answers the same whether the address exists"), body: () => ({ email: uniqueEmail("nobody") }) },
  "POST /api/reset-password": { access: pub("its credential is the mailed reset token in the body", 400), body: () => ({ token: "0123456789abcdef0123", password: "another good password" }) },
  "GET /api/files/images/*": { access: pub("avatars and logos under unguessable UUIDv7 keys; raster images only, sandbox CSP", 404) },
  "GET /api/media/*": { access: pub("its credential is the HMAC signature and expiry in the URL", 404) },
  "GET /api/channels/whatsapp/webhook": { access: pub("Meta's verification handshake; checks WHATSAPP_VERIFY_TOKEN", 403) },
  "POST /api/channels/:provider/webhook": {
    access: pub("Meta's deliveries carry X-Hub-Signature-256; the sandbox phone its device token", 401),
    params: { provider: "provider" },
    body: () => ({ object: "whatsapp_business_account", entry: [] }),
  },
  // Instagram (issue 15): Meta's handshake and signed deliveries, like WhatsApp's.
  "GET /api/channels/instagram/webhook": { access: pub("Meta's verification handshake; checks INSTAGRAM_VERIFY_TOKEN", 403) },
  "POST /api/channels/instagram/webhook": { access: pub("Meta's deliveries carry X-Hub-Signature-256 (INSTAGRAM_APP_SECRET)", 401), body: () => ({ object: "instagram", entry: [] }) },
  // WhatsApp by QR code (issue 15): Evolution API's deliveries; the connection's secret in the path is the credential.
  "POST /api/channels/evolution/webhook/:secret": {
    access: pub("Evolution API's deliveries; the per-connection secret in the path is the credential (only its hash is stored)", 401),
    params: { secret: "evolutionSecret" },
    body: () => ({ event: "messages.upsert", instance: "conversa-fixture", data: {} }),
  },
  "POST /api/channels/sandbox/pair": { access: pub("its credential is the pairing code or QR secret shown to the member", 400), body: () => ({ code: "ABCD1234" }) },
  "POST /api/channels/sandbox/events": { access: pub("the sandbox phone's device token (Authorization: Device …)", 401), body: () => ({ events: [] }) },
  "GET /api/channels/sandbox/transcript": { access: pub("the sandbox phone's device token", 401), query: () => "phone=%2B5511988887777" },
  "GET /api/channels/sandbox/ws": { access: pub("the sandbox phone's device token", 401), upgrade: true },

  // --- Instagram login and comment automations (issue 15): permission `connections` -------------
  "POST /api/channels/instagram/authorize": { access: perm("connections") },
  "POST /api/channels/instagram/callback": { access: perm("connections"), body: () => ({ code: "AQBx-fixture-code", state: "0123456789abcdef0123456789abcdef" }) },
  "GET /api/connections/:id/comment-rules": { access: perm("connections"), params: id("connection") },
  "POST /api/connections/:id/comment-rules": { access: perm("connections"), params: id("connection"), body: () => commentRuleBody() },
  "PUT /api/connections/:id/comment-rules/:ruleId": { access: perm("connections"), params: { id: "connection", ruleId: "contact" }, body: () => commentRuleBody() },
  "DELETE /api/connections/:id/comment-rules/:ruleId": { access: perm("connections"), params: { id: "connection", ruleId: "contact" }, destructive: true },

  // --- dev only ---------------------------------------------------------------------------------
  "GET /api/dev/bench/engine": { access: { kind: "dev", reason: "benchmark endpoint, mounted only with BENCH_ENDPOINTS=on" }, query: () => "blocks=2&iterations=0" },
  "POST /api/dev/bench/d1-insert": { access: { kind: "dev", reason: "benchmark endpoint, mounted only with BENCH_ENDPOINTS=on" } },
  "POST /api/dev/bench/skeleton": { access: { kind: "dev", reason: "benchmark endpoint, mounted only with BENCH_ENDPOINTS=on" }, query: () => "key=1" },
  "GET /api/dev/bench/skeleton/ws": { access: { kind: "dev", reason: "benchmark endpoint (the skeleton hub's WebSocket), mounted only with BENCH_ENDPOINTS=on" } },
  "GET /api/dev/bench/trace": { access: { kind: "dev", reason: "benchmark endpoint, mounted only with BENCH_ENDPOINTS=on" }, query: () => "reset=0" },
  "GET /api/dev/bench/broadcast-scheduler": { access: { kind: "dev", reason: "benchmark endpoint, mounted only with BENCH_ENDPOINTS=on" }, query: () => "id=01900000-0000-7000-8000-000000000000" },

  // --- the signed-in user -----------------------------------------------------------------------
  "POST /api/logout": { access: user, destructive: true },
  "GET /api/me": { access: user },
  "PUT /api/me": { access: user, multipart: () => imageForm({ name: "Ana Souza" }) },
  "GET /api/me/permissions": { access: user },
  "GET /api/me/features": { access: user },
  "POST /api/me/verify-email": { access: user, body: () => ({ code: "123456" }) },
  "POST /api/me/verify-email/resend": { access: user },
  "GET /api/me/invites": { access: user },
  "GET /api/me/announcements": { access: user },
  "POST /api/me/announcements/seen": { access: user, body: () => ({ id: crypto.randomUUID() }) },
  "PUT /api/me/change-active": { access: user, body: (ids) => ({ companyId: ids.companyId }) },
  "GET /api/companies": { access: user },
  // Invites are addressed to an e-mail: another user's session must not see or take them.
  "POST /api/companies/invite/:id/accept": { access: user, params: id("invite"), destructive: true },
  "POST /api/companies/invite/:id/reject": { access: user, params: id("invite"), destructive: true },
  "PUT /api/user/change-status": { access: user, body: () => ({ status: "online" }) },

  // --- company: members, roles, settings --------------------------------------------------------
  "GET /api/companies/members/active": { access: anyMember },
  "GET /api/companies/members": { access: perm("settings_members") },
  "GET /api/companies/members/:id": { access: perm("settings_members"), params: id("member") },
  "PUT /api/companies/members/:id": { access: perm("settings_members"), params: id("member"), body: (ids) => ({ roles: [ids.role] }) },
  "DELETE /api/companies/members/:id": { access: perm("settings_members"), params: id("member"), destructive: true },
  "GET /api/companies/roles": { access: perm("settings_company", "settings_members") },
  "GET /api/companies/roles/permissions": { access: perm("settings_company", "settings_members") },
  "GET /api/companies/roles/:id": { access: perm("settings_company", "settings_members"), params: id("role") },
  "POST /api/companies/roles": { access: perm("settings_company"), body: () => ({ name: "Fuzz role", description: "", permissions: ["tickets"] }) },
  "PUT /api/companies/roles/:id": { access: perm("settings_company"), params: id("role"), body: () => ({ name: "Renamed role", description: "", permissions: ["tickets"] }) },
  "DELETE /api/companies/roles/:id": { access: perm("settings_company"), params: id("role"), destructive: true },
  "GET /api/companies/active": { access: anyMember },
  "PUT /api/companies/active": {
    access: perm("settings_company"),
    multipart: () => imageForm({ name: "Padaria Central", timezone: "America/Sao_Paulo", showAttendantName: "true" }),
  },
  "POST /api/companies/active-code": { access: perm("settings_company"), body: () => ({ code: "123456" }) },
  "GET /api/companies/active/api-keys": { access: perm("settings_company") },
  "POST /api/companies/active/api-keys": { access: perm("settings_company"), body: () => ({ name: "Fuzz key", scopes: ["contacts:read"] }) },
  "DELETE /api/companies/active/api-keys/:id": { access: perm("settings_company"), params: id("apiKey"), destructive: true },
  "GET /api/companies/invites": { access: perm("settings_members") },
  "POST /api/companies/invite": { access: perm("settings_members"), body: (ids) => ({ email: uniqueEmail("invitee"), roles: [ids.role] }) },
  "DELETE /api/companies/invite/:id": { access: perm("settings_members"), params: id("invite"), destructive: true },
  "GET /api/companies/default-flows": { access: perm("connections", "flow"), query: (ids) => `id=${ids.connection}` },
  "PUT /api/companies/default-flows": { access: perm("connections", "flow"), body: (ids) => ({ channelId: ids.connection, defaultFlowId: ids.flow }) },
  "GET /api/companies/operating-hours": { access: perm("settings_company") },
  "PUT /api/companies/operating-hours": {
    access: perm("settings_company"),
    body: (ids) => ({
      enabled: true,
      weekly: { sun: [], mon: [{ open: "09:00", close: "12:00" }, { open: "13:00", close: "18:00" }], tue: [], wed: [], thu: [], fri: [], sat: [] },
      exceptions: [{ date: "2026-12-25", name: "Natal", ranges: [] }],
      outside: { all: { type: "message", message: "Estamos fechados." }, connections: { [ids.connection]: { type: "flow", flowId: ids.flow } } },
    }),
  },
  "GET /api/companies/delete-data": { access: perm("settings_company") },
  // Deletes company A's fixtures when it succeeds: the fuzzer leaves it alone.
  "POST /api/companies/delete-data": { access: perm("settings_company"), body: () => ({ type: "tags" }), destructive: true },

  // --- connections ------------------------------------------------------------------------------
  "GET /api/connections": { access: perm("connections") },
  "POST /api/connections": { access: perm("connections"), body: () => ({ channel: "sandbox", name: "Fuzz sandbox", greetingMessage: "", farewellMessage: "" }) },
  "GET /api/connections/:id": { access: perm("connections"), params: id("connection") },
  "PUT /api/connections/:id": { access: perm("connections"), params: id("connection"), body: () => ({ name: "Renamed", greetingMessage: "Olá" }) },
  "DELETE /api/connections/:id": { access: perm("connections"), params: id("connection"), destructive: true },
  "POST /api/connections/:id/pair": { access: perm("connections"), params: id("connection") },
  "POST /api/connections/:id/refresh": { access: perm("connections"), params: id("cloudConnection") },
  "POST /api/connections/:id/disconnect": { access: perm("connections"), params: id("connection"), destructive: true },
  "GET /api/connections/:id/rejected-events": { access: perm("connections"), params: id("cloudConnection") },
  "GET /api/connections/:id/rejected-events/:eventId/payload": {
    access: perm("connections"),
    params: { id: "cloudConnection", eventId: "rejectedEvent" },
  },

  // --- tickets and sockets ----------------------------------------------------------------------
  "GET /api/tickets": { access: perm("tickets") },
  "GET /api/tickets/:id": { access: perm("tickets"), params: id("ticket") },
  "GET /api/tickets/:id/messages": { access: perm("tickets"), params: id("ticket") },
  "POST /api/tickets/:id/messages": {
    access: perm("tickets"),
    params: id("ticket"),
    body: () => ({ type: "text", body: "Olá, tudo bem?" }),
    multipart: () => {
      const data = fileForm(pngFile("foto.png"));
      data.append("type", "image");
      return data;
    },
  },
  "POST /api/tickets/:id/open": { access: perm("tickets"), params: id("ticket") },
  "POST /api/tickets/:id/transfer": { access: perm("tickets"), params: id("ticket"), body: (ids) => ({ memberId: ids.member }) },
  "POST /api/tickets/:id/close": { access: perm("tickets"), params: id("ticket") },
  "POST /api/tickets/:id/read": { access: perm("tickets"), params: id("ticket") },
  "POST /api/tickets/:id/start-flow": { access: perm("tickets"), params: id("ticket"), body: (ids) => ({ flowId: ids.flow }) },
  "GET /api/ws/hub": { access: anyMember, upgrade: true },
  "GET /api/ws/tickets/:id": { access: perm("tickets"), params: id("ticket"), upgrade: true },

  // --- contacts, import/export, runs ------------------------------------------------------------
  "GET /api/contacts": { access: perm("contacts") },
  "POST /api/contacts": { access: perm("contacts"), body: () => ({ name: "Maria Fuzz", phone: "+5511970001234" }) },
  "POST /api/contacts/bulk": { access: perm("contacts"), body: (ids) => ({ ids: [ids.contact], action: "tag", tagIds: [ids.tag] }) },
  "GET /api/contacts/:id": { access: perm("contacts"), params: id("contact") },
  "PUT /api/contacts/:id": { access: perm("contacts"), params: id("contact"), body: () => ({ name: "Maria Renamed" }) },
  "DELETE /api/contacts/:id": { access: perm("contacts"), params: id("contact"), destructive: true },
  "POST /api/contacts/import": { access: perm("contacts"), multipart: () => fileForm(new File(["not a workbook"], "contatos.xlsx")) },
  "POST /api/contacts/export": { access: perm("contacts"), body: () => ({ filter: {} }) },
  "GET /api/jobs/:id": { access: perm("contacts"), params: id("job") },
  "POST /api/jobs/:id/preview": { access: perm("contacts"), params: id("job"), body: () => ({ sheet: 0, headerRow: 1 }) },
  "POST /api/jobs/:id/start": { access: perm("contacts"), params: id("job"), body: () => ({ mapping: { "0": "name", "1": "phone" } }) },
  "GET /api/contacts/:id/runs": { access: perm("contacts", "tickets"), params: id("ticketContact") },
  "POST /api/contacts/:id/runs/:runId/stop": { access: perm("contacts", "tickets"), params: { id: "ticketContact", runId: "flowRun" } },

  // --- registers --------------------------------------------------------------------------------
  "GET /api/custom-fields": { access: perm("custom_fields", "contacts", "contacts_custom_fields", "flow") },
  "GET /api/custom-fields/:id": { access: perm("custom_fields", "contacts", "contacts_custom_fields", "flow"), params: id("customField") },
  "POST /api/custom-fields": { access: perm("custom_fields"), body: () => ({ name: `Campo ${crypto.randomUUID().slice(0, 8)}`, type: "text", kind: "user" }) },
  "PUT /api/custom-fields/:id": { access: perm("custom_fields"), params: id("customField"), body: () => ({ name: "Campo renomeado" }) },
  "DELETE /api/custom-fields/:id": { access: perm("custom_fields"), params: id("customField"), destructive: true },
  "GET /api/tags": { access: perm("tags", "contacts", "contacts_tags") },
  "GET /api/tags/:id": { access: perm("tags", "contacts", "contacts_tags"), params: id("tag") },
  "POST /api/tags": { access: perm("tags"), body: () => ({ name: `Tag ${crypto.randomUUID().slice(0, 8)}`, color: "#22c55e" }) },
  "PUT /api/tags/:id": { access: perm("tags"), params: id("tag"), body: () => ({ name: `Tag ${crypto.randomUUID().slice(0, 8)}`, color: "#ef4444" }) },
  "DELETE /api/tags/:id": { access: perm("tags"), params: id("tag"), destructive: true },
  "GET /api/crm/columns": { access: perm("crm", "crm_manager") },
  "GET /api/crm/board": { access: perm("crm", "crm_manager") },
  "GET /api/crm/columns/:id/contacts": { access: perm("crm", "crm_manager"), params: id("crmColumn") },
  "POST /api/crm/columns": { access: perm("crm_manager"), body: () => ({ name: "Fuzz column" }) },
  "PUT /api/crm/columns/order": { access: perm("crm_manager"), body: (ids) => ({ ids: [ids.crmColumn] }) },
  "PUT /api/crm/columns/:id": { access: perm("crm_manager"), params: id("crmColumn"), body: () => ({ name: "Renamed column" }) },
  "DELETE /api/crm/columns/:id": { access: perm("crm_manager"), params: id("crmColumn"), destructive: true },
  "PUT /api/crm/contacts/:contactId": { access: perm("crm_manager"), params: { contactId: "contact" }, body: (ids) => ({ columnId: ids.crmColumn }) },
  "GET /api/quick-messages": { access: perm("quick_messages", "tickets") },
  "GET /api/quick-messages/:id": { access: perm("quick_messages", "tickets"), params: id("quickMessage") },
  "POST /api/quick-messages/:id/render": { access: perm("quick_messages", "tickets"), params: id("quickMessage"), body: (ids) => ({ contactId: ids.contact }) },
  "POST /api/quick-messages": {
    access: perm("quick_messages"),
    body: () => ({ name: "Bom dia", text: "Bom dia, {{first_name}}!" }),
    multipart: () => {
      const data = fileForm(pngFile("cardapio.png"));
      data.append("name", "Cardápio");
      data.append("text", "Nosso cardápio");
      return data;
    },
  },
  "PUT /api/quick-messages/:id": {
    access: perm("quick_messages"),
    params: id("quickMessage"),
    body: () => ({ name: "Boa tarde", text: "Boa tarde!" }),
    multipart: () => {
      const data = new FormData();
      data.append("name", "Boa tarde");
      data.append("text", "Boa tarde!");
      return data;
    },
  },
  "DELETE /api/quick-messages/:id": { access: perm("quick_messages"), params: id("quickMessage"), destructive: true },

  // --- flows and keywords -----------------------------------------------------------------------
  "GET /api/folders": { access: perm("flow") },
  "POST /api/folders": { access: perm("flow"), body: () => ({ name: "Fuzz folder" }) },
  "GET /api/folders/:id": { access: perm("flow"), params: id("folder") },
  "GET /api/folders/:id/path": { access: perm("flow"), params: id("folder") },
  "PUT /api/folders/:id": { access: perm("flow"), params: id("folder"), body: () => ({ name: "Renamed folder" }) },
  "DELETE /api/folders/:id": { access: perm("flow"), params: id("folder"), destructive: true },
  "GET /api/flows": { access: perm("flow") },
  "POST /api/flows": { access: perm("flow"), body: () => ({ name: "Fuzz flow", type: "default" }) },
  "GET /api/flows/:id": { access: perm("flow"), params: id("flow") },
  "PUT /api/flows/:id": { access: perm("flow"), params: id("flow"), body: () => ({ name: "Renamed flow", draft: flowDoc([{ id: "t", type: "text", data: { message: "Olá" } }], [["start", "next", "t"]]) }) },
  "POST /api/flows/:id/publish": { access: perm("flow"), params: id("flow") },
  "POST /api/flows/:id/duplicate": { access: perm("flow"), params: id("flow"), body: () => ({ name: "Copy" }) },
  "POST /api/flows/:id/move": { access: perm("flow"), params: id("flow"), body: (ids) => ({ folderId: ids.folder }) },
  "DELETE /api/flows/:id": { access: perm("flow"), params: id("flow"), destructive: true },
  "POST /api/flows/:id/media": { access: perm("flow"), params: id("flow"), multipart: () => fileForm(pngFile("banner.png")) },
  "GET /api/flows/:id/media-url": { access: perm("flow"), params: id("flow"), query: (ids) => `ref=r2:media/${ids.companyId}/${crypto.randomUUID()}.png` },
  "GET /api/flows/:id/stats": { access: perm("flow"), params: id("flow") },
  // Another company's unshared builder answers 404 like an unknown one (issue 8 §6).
  "GET /api/share-flow/:id": { access: perm("flow"), params: id("flow") },
  "POST /api/share-flow/:id/clone": { access: perm("flow"), params: id("flow") },
  "GET /api/keywords": { access: perm("keywords") },
  "POST /api/keywords": { access: perm("keywords"), body: (ids) => ({ name: "Fuzz keyword", rules: [{ type: "contains", words: ["preço"] }], flowId: ids.flow }) },
  "GET /api/keywords/:id": { access: perm("keywords"), params: id("keyword") },
  "PUT /api/keywords/:id": { access: perm("keywords"), params: id("keyword"), body: (ids) => ({ name: "Renamed keyword", rules: [{ type: "is", words: ["oi"] }], flowId: ids.flow }) },
  "DELETE /api/keywords/:id": { access: perm("keywords"), params: id("keyword"), destructive: true },

  // --- inbound webhooks (issue 11) --------------------------------------------------------------
  "POST /api/hooks/:token": {
    access: pub("an inbound webhook's URL: its credential is the 256-bit token in the path (unknown → 404, tested in webhooks.test.ts)"),
    params: { token: "webhookToken" },
    body: () => ({ buyer: { phone: "+55 11 98888-7777", name: "Maria" }, status: "approved" }),
  },
  "GET /api/webhooks": { access: perm("webhooks") },
  "POST /api/webhooks": { access: perm("webhooks"), body: (ids) => ({ name: `Hook ${crypto.randomUUID().slice(0, 8)}`, mapping: { phone: "phone" }, actions: [{ type: "add_tag", tagId: ids.tag }] }) },
  "GET /api/webhooks/:id": { access: perm("webhooks"), params: id("webhook") },
  "PUT /api/webhooks/:id": {
    access: perm("webhooks"),
    params: id("webhook"),
    body: (ids) => ({
      name: "Loja renomeada",
      mode: "test",
      mapping: { phone: "buyer.phone", name: "buyer.name", email: "" },
      actions: [
        { type: "start_flow", flowId: ids.flow, connectionId: ids.connection, condition: { path: "status", operator: "equals", value: "approved" } },
        { type: "set_field", customFieldId: ids.customField, path: "buyer.city" },
        { type: "move_crm", columnId: ids.crmColumn },
      ],
    }),
  },
  "DELETE /api/webhooks/:id": { access: perm("webhooks"), params: id("webhook"), destructive: true },
  "GET /api/webhooks/:id/requests": { access: perm("webhooks"), params: id("webhook") },
  // --- broadcasts (issue 10) ---------------------------------------------------------------------
  "GET /api/broadcasts": { access: perm("broadcasts"), query: () => "tab=current" },
  "POST /api/broadcasts": {
    access: perm("broadcasts"),
    body: (ids) => ({ name: "Fuzz broadcast", connectionId: ids.connection, flowId: ids.flow, delay: "short", filters: [{ item: "tag", condition: "has_tag", tag: ids.tag }] }),
  },
  "POST /api/broadcasts/audience": { access: perm("broadcasts"), body: (ids) => ({ connectionId: ids.connection, filters: [{ item: "crm_column", condition: "is", value: ids.crmColumn }] }) },
  "GET /api/broadcasts/:id": { access: perm("broadcasts"), params: id("broadcast") },
  "PUT /api/broadcasts/:id": { access: perm("broadcasts"), params: id("broadcast"), body: () => ({ name: "Renamed broadcast", delay: "long" }) },
  "DELETE /api/broadcasts/:id": { access: perm("broadcasts"), params: id("broadcast"), destructive: true },
  // Starting sends to company A's contacts: the fuzzer leaves it alone.
  "POST /api/broadcasts/:id/start": { access: perm("broadcasts"), params: id("broadcast"), destructive: true },
  "POST /api/broadcasts/:id/pause": { access: perm("broadcasts"), params: id("broadcast") },
  "POST /api/broadcasts/:id/resume": { access: perm("broadcasts"), params: id("broadcast") },
  "GET /api/broadcasts/:id/recipients": { access: perm("broadcasts"), params: id("broadcast"), query: () => "status=rejected" },

  // --- shipping cycles, templates, opt-in (issue 10) --------------------------------------------
  "GET /api/shipping-cycles": { access: perm("shipping_cycles", "contacts_shipping_cycles") },
  "POST /api/shipping-cycles": {
    access: perm("shipping_cycles"),
    body: (ids) => ({ name: `Cycle ${crypto.randomUUID().slice(0, 8)}`, active: true, steps: [{ flowId: ids.flow, wait: { value: 2, unit: "day" } }] }),
  },
  "GET /api/shipping-cycles/:id": { access: perm("shipping_cycles"), params: id("shippingCycle") },
  "PUT /api/shipping-cycles/:id": { access: perm("shipping_cycles"), params: id("shippingCycle"), body: (ids) => ({ name: "Renamed cycle", steps: [{ flowId: ids.flow, wait: { value: 1, unit: "month" } }] }) },
  "DELETE /api/shipping-cycles/:id": { access: perm("shipping_cycles"), params: id("shippingCycle"), destructive: true },
  "POST /api/shipping-cycles/:id/contacts": { access: perm("shipping_cycles", "contacts_shipping_cycles"), params: id("shippingCycle"), body: (ids) => ({ contactIds: [ids.contact] }) },
  "DELETE /api/shipping-cycles/:id/contacts/:contactId": {
    access: perm("shipping_cycles", "contacts_shipping_cycles"),
    params: { id: "shippingCycle", contactId: "contact" },
    destructive: true,
  },
  "GET /api/contacts/:id/shipping-cycles": { access: perm("contacts_shipping_cycles", "shipping_cycles"), params: id("contact") },
  "POST /api/contacts/:id/opt-in": { access: perm("contacts"), params: id("contact") },
  "GET /api/connections/:id/templates": { access: perm("connections", "broadcasts", "flow"), params: id("cloudConnection"), query: () => "status=APPROVED" },
  "POST /api/connections/:id/templates/sync": { access: perm("connections", "broadcasts"), params: id("cloudConnection") },

  // --- public API /api/v1 and outbound event subscriptions (issue 11) --------------------------
  "GET /api/v1/openapi.json": { access: pub("the public API's OpenAPI document: its routes and schemas, no data") },
  "POST /api/v1/messages": {
    access: keyScope("messages:send"),
    body: (ids) => ({ type: "text", connectionId: ids.connection, phone: "+5511970004321", text: "Seu pedido foi aprovado" }),
    multipart: (ids) => {
      const data = fileForm(pngFile("nota.png"));
      data.append("connectionId", ids.connection);
      data.append("phone", "+5511970004321");
      return data;
    },
  },
  "GET /api/v1/contacts": { access: keyScope("contacts:read"), query: () => "phone=%2B5511970001234" },
  "GET /api/v1/contacts/:id": { access: keyScope("contacts:read"), params: id("contact") },
  "POST /api/v1/contacts": { access: keyScope("contacts:write"), body: () => ({ name: "Cliente da API", phone: "+5511970005678" }) },
  "PATCH /api/v1/contacts/:id": { access: keyScope("contacts:write"), params: id("contact"), body: () => ({ name: "Maria Renamed" }) },
  "POST /api/v1/contacts/:id/tags": { access: keyScope("contacts:write"), params: id("contact"), body: (ids) => ({ tagIds: [ids.tag] }) },
  "DELETE /api/v1/contacts/:id/tags/:tagId": { access: keyScope("contacts:write"), params: { id: "contact", tagId: "tag" } },
  "PUT /api/v1/contacts/:id/fields": { access: keyScope("contacts:write"), params: id("contact"), body: (ids) => ({ fields: { [ids.customField]: "valor" } }) },
  "POST /api/v1/contacts/:id/flows": { access: keyScope("flows:start"), params: id("contact"), body: (ids) => ({ flowId: ids.flow, connectionId: ids.connection }) },
  "GET /api/v1/tickets": { access: keyScope("tickets:read"), query: () => "status=all&limit=10" },
  "GET /api/event-subscriptions": { access: perm("settings_company") },
  "POST /api/event-subscriptions": { access: perm("settings_company"), body: () => ({ url: "https://hooks.example.test/conversa", events: ["broadcast.finished"] }) },
  "DELETE /api/event-subscriptions/:id": { access: perm("settings_company"), params: id("eventSubscription"), destructive: true },
  "GET /api/event-subscriptions/:id/deliveries": { access: perm("settings_company"), params: id("eventSubscription") },

  // --- internal chat (issue 12) -----------------------------------------------------------------
  "GET /api/internal-chats/members": { access: perm("internal_chats") },
  "GET /api/internal-chats": { access: perm("internal_chats"), query: () => "limit=20" },
  "POST /api/internal-chats": { access: perm("internal_chats"), body: (ids) => ({ kind: "group", name: "Fuzz group", memberIds: [ids.member] }) },
  "GET /api/internal-chats/:id": { access: perm("internal_chats"), params: id("internalChat") },
  // Only a name: a member list without the owner would make the owner leave the fixture.
  "PUT /api/internal-chats/:id": { access: perm("internal_chats"), params: id("internalChat"), body: () => ({ name: "Renamed group" }) },
  "GET /api/internal-chats/:id/messages": { access: perm("internal_chats"), params: id("internalChat"), query: () => "limit=20" },
  "POST /api/internal-chats/:id/messages": {
    access: perm("internal_chats"),
    params: id("internalChat"),
    body: () => ({ body: "Olá, equipe" }),
    multipart: () => fileForm(pngFile("grafico.png")),
  },
  "POST /api/internal-chats/:id/read": { access: perm("internal_chats"), params: id("internalChat") },
  "POST /api/internal-chats/:id/typing": { access: perm("internal_chats"), params: id("internalChat"), body: () => ({ state: "typing" }) },

  // --- dashboard (issue 12) -----------------------------------------------------------------------
  "GET /api/dashboard": { access: perm("dashboard"), query: () => "from=2026-01-01&to=2026-01-31" },

  // --- platform administrators (issue 12): not company-scoped; the id is a placeholder -------------
  "GET /api/admin/announcements": { access: platformAdmin },
  "POST /api/admin/announcements": { access: platformAdmin, body: () => ({ title: "Aviso", body: "Manutenção às 22h." }) },
  "GET /api/admin/announcements/:id": { access: platformAdmin, params: id("contact") },
  "PUT /api/admin/announcements/:id": { access: platformAdmin, params: id("contact"), body: () => ({ title: "Aviso", body: "Texto" }) },
  "DELETE /api/admin/announcements/:id": { access: platformAdmin, params: id("contact"), destructive: true },

  // --- billing (issue 13) ---------------------------------------------------------------------------
  "GET /api/plans": { access: pub("the plans on sale, for the register and checkout pages; no company data") },
  "GET /api/billing/invoices/:publicId": { access: pub("its credential is the invoice's unguessable public id (192 random bits)", 404), params: { publicId: "contact" } },
  "POST /api/billing/invoices/:publicId/pay": {
    access: pub("its credential is the invoice's unguessable public id (192 random bits)", 404),
    params: { publicId: "contact" },
    body: () => ({ billingType: "PIX" }),
  },
  "POST /api/billing/sandbox/invoices/:publicId/simulate-payment": {
    access: pub("sandbox provider only (404 otherwise); its credential is the invoice's unguessable public id", 404),
    params: { publicId: "contact" },
  },
  "POST /api/billing/asaas/webhook": {
    access: pub("Asaas's deliveries carry the asaas-access-token header (constant-time compare with ASAAS_WEBHOOK_TOKEN)", 401),
    body: () => ({ event: "PAYMENT_CREATED", payment: { id: "pay_fuzz", status: "PENDING", value: 10, dueDate: "2026-01-01", billingType: "PIX" } }),
  },
  "GET /api/companies/subscription": { access: perm("settings_company") },
  "POST /api/companies/subscription": { access: perm("settings_company"), body: () => ({ planId: crypto.randomUUID(), billingType: "PIX", holder: BILLING_HOLDER }) },
  "PUT /api/companies/subscription/card": {
    access: perm("settings_company"),
    body: () => ({ creditCard: { holderName: "Ana Souza", number: "4111111111111111", expiryMonth: 12, expiryYear: 2099, ccv: "123" }, holder: BILLING_HOLDER }),
  },
  "POST /api/companies/subscription/cancel": { access: perm("settings_company"), destructive: true },
  "GET /api/invoices": { access: perm("settings_company") },
  // Dev only (ENVIRONMENT local/test/e2e; 404 in production): shifts the session's company's clock.
  // Destructive for the fuzzer's purposes: a random offset would end company A's subscription.
  "POST /api/dev/clock": { access: user, body: () => ({ offsetMs: 0 }), destructive: true },
  "GET /api/admin/plans": { access: platformAdmin },
  "POST /api/admin/plans": { access: platformAdmin, body: () => ({ name: "Mensal", priceCents: 9900, cycle: "monthly" }) },
  "PUT /api/admin/plans/:id": { access: platformAdmin, params: id("contact"), body: () => ({ name: "Mensal", priceCents: 9900, cycle: "monthly" }) },
  "DELETE /api/admin/plans/:id": { access: platformAdmin, params: id("contact"), destructive: true },
  "GET /api/admin/coupons": { access: platformAdmin },
  "POST /api/admin/coupons": { access: platformAdmin, body: () => ({ code: `FUZZ${crypto.randomUUID().slice(0, 8)}`, kind: "percent", value: 10 }) },
  "PUT /api/admin/coupons/:id": { access: platformAdmin, params: id("contact"), body: () => ({ code: "FUZZ", kind: "fixed", value: 500 }) },
  "DELETE /api/admin/coupons/:id": { access: platformAdmin, params: id("contact"), destructive: true },

  // --- franchises (issue 14): platform administrators (ids are placeholders) ----------------------
  "GET /api/admin/franchises": { access: platformAdmin },
  "POST /api/admin/franchises": { access: platformAdmin, body: () => ({ name: "Franquia Fuzz", primaryColor: "#123abc" }) },
  "GET /api/admin/franchises/:id": { access: platformAdmin, params: id("contact") },
  "PUT /api/admin/franchises/:id": { access: platformAdmin, params: id("contact"), body: () => ({ name: "Franquia Fuzz" }) },
  "DELETE /api/admin/franchises/:id": { access: platformAdmin, params: id("contact"), destructive: true },
  "POST /api/admin/franchises/:id/hostnames": { access: platformAdmin, params: id("contact"), body: () => ({ hostname: "fuzz.localhost" }) },
  "GET /api/admin/franchises/:id/hostnames/:hostnameId": { access: platformAdmin, params: { id: "contact", hostnameId: "tag" } },
  "DELETE /api/admin/franchises/:id/hostnames/:hostnameId": { access: platformAdmin, params: { id: "contact", hostnameId: "tag" }, destructive: true },
  "POST /api/admin/franchises/:id/admins": { access: platformAdmin, params: id("contact"), body: () => ({ email: uniqueEmail("franchise-admin") }) },
  "DELETE /api/admin/franchises/:id/admins/:userId": { access: platformAdmin, params: { id: "contact", userId: "tag" }, destructive: true },

  // --- franchises (issue 14): the franchise admin area, franchise A's administrator ----------------
  "GET /api/franchise": { access: franchiseAdmin },
  "PUT /api/franchise": { access: franchiseAdmin, multipart: () => logoForm({ name: "Franquia A", primaryColor: "#0055aa", notPaid: "Pague a fatura." }) },
  "POST /api/franchise/email/test": { access: franchiseAdmin, body: () => ({ to: uniqueEmail("franchise-test") }) },
  "PUT /api/franchise/integrations": { access: franchiseAdmin, body: () => ({ asaasApiKey: "$aact_fuzz_key_0123456789" }) },
  // Roles, companies, users, invoices (helper FB).
  "GET /api/franchise/permissions": { access: franchiseAdmin },
  "GET /api/franchise/roles": { access: franchiseAdmin, query: () => "search=a&limit=5" },
  "GET /api/franchise/roles/short": { access: franchiseAdmin },
  "POST /api/franchise/roles": { access: franchiseAdmin, body: () => ({ name: `Papel ${crypto.randomUUID().slice(0, 8)}`, permissions: ["flow", "crm"] }) },
  "GET /api/franchise/roles/:id": { access: franchiseAdmin, params: id("franchiseRole") },
  "PUT /api/franchise/roles/:id": { access: franchiseAdmin, params: id("franchiseRole"), body: () => ({ name: "Papel da franquia", permissions: ["flow"] }) },
  "DELETE /api/franchise/roles/:id": { access: franchiseAdmin, params: id("franchiseRole"), destructive: true },
  "GET /api/franchise/companies": { access: franchiseAdmin, query: () => "search=a&limit=5" },
  "POST /api/franchise/companies": { access: franchiseAdmin, body: () => ({ name: "Cliente Fuzz", ownerEmail: uniqueEmail("franchise-owner"), plan: "monthly" }) },
  "PUT /api/franchise/companies/:id": { access: franchiseAdmin, params: id("franchiseCompany"), body: (ids) => ({ name: "Cliente A", franchiseRoleId: ids.franchiseRole }) },
  "GET /api/franchise/users": { access: franchiseAdmin, query: () => "search=a&limit=5" },
  "POST /api/franchise/admins": { access: franchiseAdmin, body: () => ({ email: uniqueEmail("franchise-co-admin") }) },
  "DELETE /api/franchise/admins/:userId": { access: franchiseAdmin, params: { userId: "franchiseAdminUser" }, destructive: true },
  "GET /api/franchise/invoices": { access: franchiseAdmin, query: (ids) => `companyId=${ids.franchiseCompany}&limit=5` },
  "GET /api/franchise/invoices/:id": { access: franchiseAdmin, params: id("franchiseInvoice") },
  "POST /api/franchise/invoices/:id": { access: franchiseAdmin, params: id("franchiseInvoice"), body: () => ({ billingType: "PIX" }) },
  "DELETE /api/franchise/invoices/:id": { access: franchiseAdmin, params: id("franchiseInvoice"), destructive: true },
};

/**
 * Franchise A's fixtures (issue 14): a franchise role, a company under the franchise holding it, an
 * open sandbox invoice of that company, and a second administrator — made through the API where
 * there is one (the invoice straight in D1: billing makes them on subscription).
 */
async function franchiseFixtures(admin: Account): Promise<Pick<Ids, "franchiseRole" | "franchiseCompany" | "franchiseInvoice" | "franchiseAdminUser">> {
  const t = admin.token;
  const role = await expectStatus<{ id: string }>(await call("POST", "/api/franchise/roles", { token: t, body: { name: "Completo", permissions: ["flow", "broadcasts"] } }), 201);
  const company = await expectStatus<{ id: string }>(
    await call("POST", "/api/franchise/companies", { token: t, body: { name: "Cliente A", ownerEmail: uniqueEmail("franchise-client"), franchiseRoleId: role.id } }),
    201,
  );
  const coAdmin = await expectStatus<{ id: string }>(await call("POST", "/api/franchise/admins", { token: t, body: { email: uniqueEmail("franchise-admin-2") } }), 201);
  const invoice = crypto.randomUUID();
  const at = Date.now();
  await env.DB.prepare(
    "INSERT INTO billing_invoices (id, public_id, company_id, value_cents, due_date, status, provider, provider_payment_id, created_at, updated_at) VALUES (?, ?, ?, 4990, ?, 'pending', 'sandbox', ?, ?, ?)",
  )
    .bind(invoice, `pub_${crypto.randomUUID()}`, company.id, at, `sandbox_pay_${crypto.randomUUID()}`, at, at)
    .run();
  return { franchiseRole: role.id, franchiseCompany: company.id, franchiseInvoice: invoice, franchiseAdminUser: coAdmin.id };
}

/** A franchise settings form with a PNG logo. */
function logoForm(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  data.append("logo", pngFile());
  return data;
}

/**
 * A user who administers a new franchise named `name` (issue 14): registered like anyone (with a
 * company of their own, not under the franchise), then made its administrator directly in D1.
 * Answers the account and the franchise id.
 */
export async function franchiseAdminAccount(name: string): Promise<{ account: Account; franchiseId: string }> {
  const account = await register({ companyName: `Empresa de ${name}` });
  const franchiseId = crypto.randomUUID();
  const at = Date.now();
  const userId = (await env.DB.prepare("SELECT id FROM users WHERE email = ?").bind(account.email).first<{ id: string }>())!.id;
  await env.DB.batch([
    env.DB.prepare("INSERT INTO franchises (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)").bind(franchiseId, name, at, at),
    env.DB.prepare("INSERT INTO franchise_admins (franchise_id, user_id, created_at) VALUES (?, ?, ?)").bind(franchiseId, userId, at),
  ]);
  return { account, franchiseId };
}

/**
 * Every route of the router as `METHOD path`, once. Hono lists each middleware and handler of a
 * route as its own entry; `.use(...)` entries have method ALL and a `(c, next)` function, so they
 * are left out. An ALL entry whose function takes only `c` is a real `.all(...)` handler and is
 * kept (as `ALL path`), so such a route cannot slip past the matrix.
 */
export function registeredRoutes(routes: readonly { method: string; path: string; handler: (...args: never[]) => unknown }[]): string[] {
  const seen = new Set<string>();
  for (const route of routes) {
    if (route.method === "ALL" && route.handler.length >= 2) continue;
    seen.add(`${route.method} ${route.path}`);
  }
  return [...seen];
}

/** The path of `route` with each `:param` replaced by company A's fixture id (and `*` by `tail`). */
export function concretePath(route: string, entry: RouteEntry, ids: Ids, tail = "x"): string {
  const path = route.slice(route.indexOf(" ") + 1);
  return path
    .replace(/:([A-Za-z]+)/g, (_, name: string) => {
      const key = entry.params?.[name];
      if (!key) throw new Error(`${route}: no fixture named for :${name}`);
      return ids[key];
    })
    .replace(/\*$/, tail);
}

export type Company = {
  owner: Account;
  ids: Ids;
  /** An API key of company A with every scope. */
  apiKey: string;
  /** The phone_number_id of company A's Cloud API connection (`ids.cloudConnection`). */
  phoneNumberId: string;
  /** The administrator of franchise A (issue 14; company A is not under it). */
  franchiseAdmin: Account;
  /** Franchise A's id. */
  franchiseId: string;
};

/**
 * Company A with one of each resource (contact, tag, custom field, CRM column, quick message,
 * sandbox and Cloud API connections, a rejected event, a ticket with a message, a folder, a
 * published flow with a run, a keyword, a role, a member, a pending invite, a finished export job,
 * an API key), built through the API as a person would.
 */
export async function buildCompany(): Promise<Company> {
  const owner = await register({ companyName: "Empresa A" });
  const t = owner.token;
  const companyId = (await expectStatus<{ id: string }>(await call("GET", "/api/companies/active", { token: t }), 200)).id;
  const contact = await createContact(t);
  const tag = await createTag(t, `Tag ${crypto.randomUUID().slice(0, 6)}`);
  const customField = await createField(t, { name: "Cidade", type: "text", kind: "user" });
  const crmColumn = await createColumn(t, "Novos");
  const quickMessage = await expectStatus<{ id: string }>(await call("POST", "/api/quick-messages", { token: t, body: { name: "Oi", text: "Olá!" } }), 201);
  const connection = await sandboxConnection(t);
  const cloud = await cloudConnection(t);
  const rejectedEvent = await keepRejected(env, getDb(env.DB), {
    companyId,
    connectionId: cloud.id,
    channel: "whatsapp-cloud",
    reason: "malformed_message",
    detail: "route matrix fixture",
    payload: JSON.stringify({ fixture: true }),
  });
  await deliverOk(textWebhook(cloud.phoneNumberId, uniqueWaId(), wamid(), "Olá, quero um orçamento"));
  const ticket = await onlyTicket(t);
  const folder = await expectStatus<{ id: string }>(await call("POST", "/api/folders", { token: t, body: { name: "Vendas" } }), 201);
  const { flow } = await publishedFlow(t, flowDoc([{ id: "t", type: "text", data: { message: "Olá" } }], [["start", "next", "t"]]));
  const started = await expectStatus<{ runId: string }>(await call("POST", `/api/tickets/${ticket.id}/start-flow`, { token: t, body: { flowId: flow.id } }), 200);
  const keyword = await expectStatus<{ id: string }>(
    await call("POST", "/api/keywords", { token: t, body: { name: "Preço", rules: [{ type: "contains", words: ["preço"] }], flowId: flow.id } }),
    201,
  );
  const role = await createRole(owner, ["tickets"]);
  const teammate = await member(owner, ["tickets"]);
  const pending = await invite(owner, uniqueEmail("pending"), [role.id]);
  const job = await expectStatus<JobAnswer>(await call("POST", "/api/contacts/export", { token: t, body: { filter: {} } }), 201);
  const apiKey = await expectStatus<ApiKeyCreatedAnswer>(
    await call("POST", "/api/companies/active/api-keys", { token: t, body: { name: "Matrix key", scopes: [...API_KEY_SCOPES] } }),
    201,
  );
  const internalChat = await expectStatus<{ id: string }>(
    await call("POST", "/api/internal-chats", { token: t, body: { kind: "group", name: "Equipe", memberIds: [teammate.memberId] } }),
    201,
  );
  const broadcast = await expectStatus<{ id: string }>(
    await call("POST", "/api/broadcasts", { token: t, body: { name: "Matrix broadcast", connectionId: connection.id, flowId: flow.id, delay: "very_short", filters: [] } }),
    201,
  );
  const webhook = await expectStatus<{ id: string; url: string }>(
    await call("POST", "/api/webhooks", { token: t, body: { name: "Loja", mapping: { phone: "buyer.phone", name: "", email: "" }, actions: [{ type: "add_tag", tagId: tag.id }] } }),
    201,
  );
  // Last, and only for broadcast.finished: the fixtures above emit nothing to it.
  const eventSubscription = await expectStatus<{ id: string }>(
    await call("POST", "/api/event-subscriptions", { token: t, body: { url: "https://hooks.example.test/conversa", events: ["broadcast.finished"] } }),
    201,
  );
  const shippingCycle = await expectStatus<{ id: string }>(
    await call("POST", "/api/shipping-cycles", { token: t, body: { name: "Boas-vindas", steps: [{ flowId: flow.id, wait: { value: 1, unit: "day" } }] } }),
    201,
  );
  await expectStatus(await call("POST", `/api/shipping-cycles/${shippingCycle.id}/contacts`, { token: t, body: { contactIds: [contact.id] } }), 200);
  const franchise = await franchiseAdminAccount("Franquia A");
  const ids: Ids = {
    companyId,
    contact: contact.id,
    tag: tag.id,
    customField: customField.id,
    crmColumn: crmColumn.id,
    quickMessage: quickMessage.id,
    connection: connection.id,
    cloudConnection: cloud.id,
    rejectedEvent,
    ticket: ticket.id,
    ticketContact: ticket.contact.id,
    folder: folder.id,
    flow: flow.id,
    flowRun: started.runId,
    keyword: keyword.id,
    role: role.id,
    member: teammate.memberId,
    invite: pending.id,
    job: job.id,
    apiKey: apiKey.id,
    eventSubscription: eventSubscription.id,
    webhook: webhook.id,
    webhookToken: new URL(webhook.url).pathname.split("/").pop() ?? "",
    internalChat: internalChat.id,
    broadcast: broadcast.id,
    shippingCycle: shippingCycle.id,
    provider: "whatsapp",
    evolutionSecret: "no-connection-holds-this-secret-0123456789",
    ...(await franchiseFixtures(franchise.account)),
  };
  await settle(companyId);
  return { owner, ids, apiKey: apiKey.key, phoneNumberId: cloud.phoneNumberId, franchiseAdmin: franchise.account, franchiseId: franchise.franchiseId };
}

let tables: Promise<string[]> | undefined;

/** Tables holding a `company_id` column (read from the schema once, so new tables are included). */
function companyTables(): Promise<string[]> {
  tables ??= env.DB.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql LIKE '%company_id%'")
    .all<{ name: string; sql: string }>()
    .then((rows) => rows.results.filter((r) => !r.name.startsWith("_cf") && !r.name.startsWith("sqlite") && /[`"\s(]company_id[`"\s]/.test(r.sql)).map((r) => r.name));
  return tables;
}

/**
 * Every row of company A (the company row and every row with its company_id) as one JSON text, to
 * prove a refused request changed nothing. One D1 batch.
 */
export async function snapshot(companyId: string): Promise<string> {
  const names = await companyTables();
  const results = await env.DB.batch([
    env.DB.prepare("SELECT * FROM companies WHERE id = ?").bind(companyId),
    ...names.map((table) => env.DB.prepare(`SELECT * FROM "${table}" WHERE company_id = ? ORDER BY rowid`).bind(companyId)),
  ]);
  return results.map((r, i) => `${i === 0 ? "companies" : names[i - 1]}:${JSON.stringify(r.results)}`).join("\n");
}

/** Waits until background work of the fixtures (queue jobs, flow runs, sends) stops writing. */
export async function settle(companyId: string): Promise<void> {
  let last = await snapshot(companyId);
  for (let i = 0; i < 40; i++) {
    await new Promise((resolve) => setTimeout(resolve, 150));
    const next = await snapshot(companyId);
    if (next === last) return;
    last = next;
  }
}

/** Every permission except `without` (the role of a member who lacks the route's permission). */
export function allBut(without: readonly CompanyPermission[]): CompanyPermission[] {
  return COMPANY_PERMISSIONS.filter((p) => !without.includes(p));
}

/**
 * Why `text` (the body of a non-2xx answer) is not the one error envelope
 * `{error: {code, message, fields?}}` (fields: an object of strings), or null when it is.
 */
export function envelopeProblem(text: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return "not JSON";
  }
  if (typeof parsed !== "object" || parsed === null || !("error" in parsed)) return "no `error` key";
  const error = parsed.error;
  if (typeof error !== "object" || error === null) return "`error` is not an object";
  // `problems`: the one documented extension, the blocking problems of a flow that cannot be
  // published (POST /api/flows/{id}/publish, worker/routes/flows.ts), a list.
  const keys = Object.keys(error).filter((k) => k !== "code" && k !== "message" && k !== "fields" && !(k === "problems" && Array.isArray((error as { problems?: unknown }).problems)));
  if (keys.length) return `unexpected keys ${keys.join(", ")}`;
  if (!("code" in error) || typeof error.code !== "string" || !error.code) return "no string `code`";
  if (!("message" in error) || typeof error.message !== "string") return "no string `message`";
  if ("fields" in error) {
    const fields = error.fields;
    if (typeof fields !== "object" || fields === null || Array.isArray(fields)) return "`fields` is not an object";
    if (Object.values(fields).some((v) => typeof v !== "string")) return "a `fields` value is not a string";
  }
  return null;
}

/** Calls `route` (a ROUTES key) with company A's ids, its valid body and `token`/`headers`. */
export async function callRoute(
  route: string,
  entry: RouteEntry,
  ids: Ids,
  options: { token?: string; headers?: Record<string, string>; query?: string; body?: unknown; form?: FormData; rawBody?: BodyInit; contentType?: string } = {},
): Promise<Response> {
  const method = route.slice(0, route.indexOf(" "));
  const query = options.query ?? entry.query?.(ids);
  const path = concretePath(route, entry, ids) + (query ? `?${query}` : "");
  const headers: Record<string, string> = { ...(entry.upgrade ? { Upgrade: "websocket" } : {}), ...options.headers };
  if (options.contentType) headers["Content-Type"] = options.contentType;
  if (options.rawBody !== undefined) {
    const h = new Headers(headers);
    if (options.token) h.set("Authorization", `Bearer ${options.token}`);
    if (!h.has("CF-Connecting-IP")) h.set("CF-Connecting-IP", uniqueIp());
    return exports.default.fetch(new Request(`http://localhost${path}`, { method, headers: h, body: options.rawBody }));
  }
  if (options.form ?? (options.body === undefined && !entry.body && entry.multipart)) {
    return call(method, path, { token: options.token, headers, form: options.form ?? entry.multipart?.(ids) });
  }
  const body = options.body ?? entry.body?.(ids);
  return call(method, path, { token: options.token, headers, body });
}
