/**
 * The public API /api/v1 (issue 11 "Public API and its documentation"): keys only, one scope per
 * route (a key lacking it → 403), another company's ids → 404, sends through the Graph API
 * stand-in, contacts found / created / updated, tags and fields, a flow started for a contact,
 * tickets paged; the OpenAPI 3.1 document validates (@seriousme/openapi-schema-validator) and holds
 * every /api/v1 route the router registers; per-key RateLimit-* headers and 429 with Retry-After.
 */
import { env } from "cloudflare:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import openApi31Schema from "@seriousme/openapi-schema-validator/schemas/v3.1/schema.json";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import { API_KEY_SCOPES, type ApiKeyScope } from "../../schema/api-keys";
import type { ApiKeyCreatedAnswer } from "../../schema/validation/api-keys";
import { PUBLIC_API_ROUTES } from "../../schema/validation/api-keys";
import type { V1Contact } from "../../schema/validation/v1";
import { app } from "../app";
import { registeredRoutes } from "../test/route-matrix";
import { cloudConnection, sandboxConnection, sentTo, until } from "../test/channel-helpers";
import { createField, createTag, uniquePhone } from "../test/contact-helpers";
import { flowDoc, publishedFlow } from "../test/flow-helpers";
import { call, expectStatus, pngFile, register, type Account, type ErrorBody } from "../test/helpers";
import { DEFAULT_API_RATE_LIMIT } from "./v1";

/**
 * @seriousme/openapi-schema-validator reads its JSON Schema of OpenAPI 3.1 from disk, which workerd
 * does not have. This validator is handed the same schema file (bundled by Vite), compiled as the
 * package compiles it (Ajv 2020, ajv-formats, the `media-range` format, strict off); validation
 * itself, the reference checks included, is the package's.
 */
class BundledValidator extends Validator {
  constructor() {
    super();
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    ajv.addFormat("media-range", true);
    Object.assign(this, { ajvValidators: { "3.1": ajv.compile(openApi31Schema) } });
  }
}

async function createKey(owner: Account, scopes: readonly ApiKeyScope[]): Promise<ApiKeyCreatedAnswer> {
  return expectStatus<ApiKeyCreatedAnswer>(await call("POST", "/api/companies/active/api-keys", { token: owner.token, body: { name: "Loja virtual", scopes } }), 201);
}

function withKey(key: string, method: string, path: string, body?: unknown): Promise<Response> {
  return call(method, path, { headers: { "X-Api-Key": key }, ...(body === undefined ? {} : { body }) });
}

async function expectError(res: Response, status: number, code: string): Promise<ErrorBody> {
  const body = await expectStatus<ErrorBody>(res, status);
  expect(body.error.code, JSON.stringify(body)).toBe(code);
  return body;
}

/** Company A: a Cloud API connection, a tag, a custom field, a contact, a published flow, a full key. */
type Fixture = { owner: Account; key: string; keyId: string; connectionId: string; phoneNumberId: string; tagId: string; fieldId: string; contact: V1Contact; flowId: string };

async function fixture(): Promise<Fixture> {
  const owner = await register({ companyName: "Loja A" });
  const created = await createKey(owner, API_KEY_SCOPES);
  const connection = await cloudConnection(owner.token);
  const tag = await createTag(owner.token, "Cliente VIP");
  const field = await createField(owner.token, { name: "Pedido", type: "text", kind: "user" });
  const contact = await expectStatus<V1Contact>(await withKey(created.key, "POST", "/api/v1/contacts", { name: "Maria Souza", phone: uniquePhone() }), 201);
  const { flow } = await publishedFlow(owner.token, flowDoc([{ id: "t", type: "text", data: { message: "Olá do fluxo" } }], [["start", "next", "t"]]));
  return { owner, key: created.key, keyId: created.id, connectionId: connection.id, phoneNumberId: connection.phoneNumberId, tagId: tag.id, fieldId: field.id, contact, flowId: flow.id };
}

/** A valid request of each /api/v1 route for fixture `f` (path with its ids, body). */
function requestOf(route: { method: string; path: string }, f: Fixture): { path: string; body?: unknown } {
  const path = route.path.replace(":id", f.contact.id).replace(":tagId", f.tagId);
  const bodies: Record<string, unknown> = {
    "POST /api/v1/messages": { type: "text", connectionId: f.connectionId, phone: uniquePhone(), text: "Seu pedido saiu para entrega" },
    "POST /api/v1/contacts": { name: "João", phone: uniquePhone() },
    "PATCH /api/v1/contacts/:id": { name: "Maria S." },
    "POST /api/v1/contacts/:id/tags": { tagIds: [f.tagId] },
    "PUT /api/v1/contacts/:id/fields": { fields: { [f.fieldId]: "12345" } },
    "POST /api/v1/contacts/:id/flows": { flowId: f.flowId, connectionId: f.connectionId },
  };
  const key = `${route.method} ${route.path}`;
  return { path: route.method === "GET" && route.path === "/api/v1/contacts" ? `${path}?phone=${encodeURIComponent(f.contact.phone ?? "")}` : path, body: bodies[key] };
}

const v1Routes = PUBLIC_API_ROUTES.filter((r) => r.path.startsWith("/api/v1/"));

let A: Fixture;
let B: Fixture;

beforeAll(async () => {
  A = await fixture();
  B = await fixture();
}, 60_000);

describe("/api/v1 access", () => {
  it("lists every keyed /api/v1 route the router registers in PUBLIC_API_ROUTES with its scope", () => {
    const registered = registeredRoutes(app.routes).filter((r) => r.includes(" /api/v1/") && r !== "GET /api/v1/openapi.json");
    const listed = new Set(v1Routes.map((r) => `${r.method} ${r.path}`));
    expect(registered.filter((r) => !listed.has(r))).toEqual([]);
    expect(registered.length).toBe(v1Routes.length);
  });

  it("every /api/v1 route answers 403 insufficient_scope to a key lacking its scope, and changes nothing", async () => {
    for (const route of v1Routes) {
      const { key } = await createKey(A.owner, API_KEY_SCOPES.filter((s) => s !== route.scope));
      const { path, body } = requestOf(route, A);
      const refused = await expectError(await withKey(key, route.method, path, body), 403, "insufficient_scope");
      expect(refused.error.fields?.scope, `${route.method} ${route.path}`).toBe(route.scope);
    }
    const contact = await expectStatus<V1Contact>(await withKey(A.key, "GET", `/api/v1/contacts/${A.contact.id}`), 200);
    expect(contact).toMatchObject({ name: "Maria Souza", tags: [], fields: {} });
  });

  it("another company's key answers 404 for company A's ids, in the path and in the body", async () => {
    for (const route of v1Routes) {
      const { path, body } = requestOf(route, A);
      if (!path.includes(A.contact.id) && JSON.stringify(body ?? {}).match(new RegExp(`${A.connectionId}|${A.flowId}`)) === null) continue;
      await expectError(await withKey(B.key, route.method, path, body), 404, "not_found");
    }
    // Company A's contact is untouched: no tag, no value, no run, no ticket.
    const contact = await expectStatus<V1Contact>(await withKey(A.key, "GET", `/api/v1/contacts/${A.contact.id}`), 200);
    expect(contact).toMatchObject({ name: "Maria Souza", tags: [], fields: {} });
    const tickets = await expectStatus<{ results: unknown[] }>(await withKey(A.key, "GET", "/api/v1/tickets"), 200);
    expect(tickets.results).toEqual([]);
  });

  it("a member's session, no credential, or a revoked key answers 401", async () => {
    await expectError(await call("GET", "/api/v1/tickets", { token: A.owner.token }), 401, "unauthorized");
    await expectError(await call("GET", "/api/v1/tickets"), 401, "unauthorized");
    const revoked = await createKey(A.owner, API_KEY_SCOPES);
    await expectStatus(await call("DELETE", `/api/companies/active/api-keys/${revoked.id}`, { token: A.owner.token }), 200);
    await expectError(await withKey(revoked.key, "GET", "/api/v1/tickets"), 401, "unauthorized");
    // The bearer form of the key works like X-Api-Key.
    await expectStatus(await call("GET", "/api/v1/tickets", { token: A.key }), 200);
  });
});

describe("/api/v1 messages", () => {
  it("sends a text to a new phone through a Cloud API connection: the contact is created and the Graph API gets it", async () => {
    const phone = "+55 11 97777-1234";
    const sent = await expectStatus<{ id: string; ticketId: string; contactId: string; status: string }>(
      await withKey(A.key, "POST", "/api/v1/messages", { type: "text", connectionId: A.connectionId, phone, name: "Carla Dias", text: "Seu pedido #123 foi aprovado" }),
      201,
    );
    const found = await expectStatus<{ results: V1Contact[] }>(await withKey(A.key, "GET", `/api/v1/contacts?phone=${encodeURIComponent("+5511977771234")}`), 200);
    expect(found.results.map((c) => [c.id, c.name])).toEqual([[sent.contactId, "Carla Dias"]]);
    const out = await until(() => sentTo(A.phoneNumberId), (list) => list.some((r) => JSON.stringify(r.body).includes("Seu pedido #123")), "the text at the Graph API");
    const request = out.find((r) => JSON.stringify(r.body).includes("Seu pedido #123"));
    expect(request?.body).toMatchObject({ to: "5511977771234", type: "text", text: { body: "Seu pedido #123 foi aprovado" } });
    // A second message to the same phone goes to the same contact and ticket.
    const again = await expectStatus<{ ticketId: string; contactId: string }>(
      await withKey(A.key, "POST", "/api/v1/messages", { type: "text", connectionId: A.connectionId, phone: "11977771234", text: "Saiu para entrega" }),
      201,
    );
    expect([again.contactId, again.ticketId]).toEqual([sent.contactId, sent.ticketId]);
  });

  it("sends an uploaded image (multipart) and refuses a media URL on a private address", async () => {
    const form = new FormData();
    form.append("connectionId", A.connectionId);
    form.append("phone", uniquePhone());
    form.append("caption", "Nota fiscal");
    form.append("file", pngFile("nota.png"));
    const sent = await expectStatus<{ type: string }>(await call("POST", "/api/v1/messages", { headers: { "X-Api-Key": A.key }, form }), 201);
    expect(sent.type).toBe("image");
    await until(() => sentTo(A.phoneNumberId), (list) => list.some((r) => JSON.stringify(r.body).includes("Nota fiscal")), "the image at the Graph API");
    // The Graph stand-in answers on loopback: only the guard stops the fetch.
    const refused = await expectError(
      await withKey(A.key, "POST", "/api/v1/messages", { type: "image", connectionId: A.connectionId, phone: uniquePhone(), mediaUrl: `${env.META_STANDIN_ORIGIN}/__sent` }),
      400,
      "validation_failed",
    );
    expect(refused.error.fields).toEqual({ mediaUrl: "private_address" });
  });

  it("sends an approved template through the Cloud API and stores it in the ticket; a sandbox connection refuses templates", async () => {
    const phone = uniquePhone();
    const sent = await expectStatus<{ ticketId: string; type: string; status: string }>(
      await withKey(A.key, "POST", "/api/v1/messages", {
        type: "template",
        connectionId: A.connectionId,
        phone,
        template: { name: "pedido_aprovado", language: "pt_BR", bodyParams: ["Carla", "#123"] },
      }),
      201,
    );
    expect(sent).toMatchObject({ type: "template", status: "sent" });
    const out = await until(() => sentTo(A.phoneNumberId), (list) => list.some((r) => JSON.stringify(r.body).includes("pedido_aprovado")), "the template at the Graph API");
    expect(out.find((r) => JSON.stringify(r.body).includes("pedido_aprovado"))?.body).toMatchObject({
      to: phone.replace(/^\+/, ""),
      type: "template",
      template: { name: "pedido_aprovado", language: { code: "pt_BR" }, components: [{ type: "body", parameters: [{ type: "text", text: "Carla" }, { type: "text", text: "#123" }] }] },
    });
    const sandbox = await sandboxConnection(A.owner.token);
    const refused = await expectError(
      await withKey(A.key, "POST", "/api/v1/messages", { type: "template", connectionId: sandbox.id, phone: uniquePhone(), template: { name: "pedido_aprovado", language: "pt_BR" } }),
      400,
      "validation_failed",
    );
    expect(refused.error.fields).toEqual({ type: "template_unsupported" });
  });

  it("bad input answers 400 naming the field", async () => {
    const bad = await expectError(await withKey(A.key, "POST", "/api/v1/messages", { type: "text", connectionId: A.connectionId, phone: "12", text: "" }), 400, "validation_failed");
    expect(bad.error.fields).toMatchObject({ phone: "invalid_phone", text: "text_required" });
    const noQuery = await expectError(await withKey(A.key, "GET", "/api/v1/contacts"), 400, "validation_failed");
    expect(noQuery.error.fields).toEqual({ phone: "phone_or_email_required" });
  });
});

describe("/api/v1 contacts, tags, fields, flows, tickets", () => {
  it("creates, finds by phone, e-mail and id, and updates a contact", async () => {
    const phone = uniquePhone();
    const created = await expectStatus<V1Contact>(await withKey(A.key, "POST", "/api/v1/contacts", { name: "Pedro Lima", phone, email: "Pedro@Example.com" }), 201);
    expect(created).toMatchObject({ name: "Pedro Lima", email: "pedro@example.com" });
    await expectError(await withKey(A.key, "POST", "/api/v1/contacts", { name: "Outro", phone }), 409, "phone_in_use");
    const byEmail = await expectStatus<{ results: V1Contact[] }>(await withKey(A.key, "GET", "/api/v1/contacts?email=pedro@example.com"), 200);
    expect(byEmail.results.map((c) => c.id)).toEqual([created.id]);
    const byPhone = await expectStatus<{ results: V1Contact[] }>(await withKey(A.key, "GET", `/api/v1/contacts?phone=${encodeURIComponent(phone)}`), 200);
    expect(byPhone.results.map((c) => c.id)).toEqual([created.id]);
    const updated = await expectStatus<V1Contact>(await withKey(A.key, "PATCH", `/api/v1/contacts/${created.id}`, { name: "Pedro H. Lima", email: null }), 200);
    expect(updated).toMatchObject({ id: created.id, name: "Pedro H. Lima", email: null, phone: created.phone });
    const read = await expectStatus<V1Contact>(await withKey(A.key, "GET", `/api/v1/contacts/${created.id}`), 200);
    expect(read.name).toBe("Pedro H. Lima");
    // Another company finds nothing by the same phone.
    const elsewhere = await expectStatus<{ results: V1Contact[] }>(await withKey(B.key, "GET", `/api/v1/contacts?phone=${encodeURIComponent(phone)}`), 200);
    expect(elsewhere.results).toEqual([]);
  });

  it("adds and removes tags and sets custom fields without touching the rest", async () => {
    const other = await createTag(A.owner.token, `Atacado ${crypto.randomUUID().slice(0, 6)}`);
    const contact = await expectStatus<V1Contact>(await withKey(A.key, "POST", "/api/v1/contacts", { name: "Rita", phone: uniquePhone(), tags: [other.id] }), 201);
    const tagged = await expectStatus<V1Contact>(await withKey(A.key, "POST", `/api/v1/contacts/${contact.id}/tags`, { tagIds: [A.tagId] }), 200);
    expect(tagged.tags.map((t) => t.id).sort()).toEqual([A.tagId, other.id].sort());
    const untagged = await expectStatus<V1Contact>(await withKey(A.key, "DELETE", `/api/v1/contacts/${contact.id}/tags/${other.id}`), 200);
    expect(untagged.tags.map((t) => t.id)).toEqual([A.tagId]);
    const bTag = await createTag(B.owner.token, "Tag de B");
    const foreign = await expectError(await withKey(A.key, "POST", `/api/v1/contacts/${contact.id}/tags`, { tagIds: [bTag.id] }), 400, "validation_failed");
    expect(foreign.error.fields).toEqual({ tagIds: "invalid_id" });
    const valued = await expectStatus<V1Contact>(await withKey(A.key, "PUT", `/api/v1/contacts/${contact.id}/fields`, { fields: { [A.fieldId]: "Pedido 987" } }), 200);
    expect(valued.fields[A.fieldId]).toBe("Pedido 987");
    expect(valued.tags.map((t) => t.id)).toEqual([A.tagId]);
  });

  it("starts a published flow for a contact: its message reaches the Graph API", async () => {
    const contact = await expectStatus<V1Contact>(await withKey(A.key, "POST", "/api/v1/contacts", { name: "Lia", phone: uniquePhone() }), 201);
    const started = await expectStatus<{ runId: string; ticketId: string }>(
      await withKey(A.key, "POST", `/api/v1/contacts/${contact.id}/flows`, { flowId: A.flowId, connectionId: A.connectionId }),
      201,
    );
    expect(started.runId).toBeTruthy();
    const to = (contact.phone ?? "").replace(/^\+/, "");
    await until(() => sentTo(A.phoneNumberId), (list) => list.some((r) => JSON.stringify(r.body).includes("Olá do fluxo") && JSON.stringify(r.body).includes(to)), "the flow's text");
  });

  it("lists tickets newest first with a cursor", async () => {
    const owner = await register();
    const { key } = await createKey(owner, API_KEY_SCOPES);
    const connection = await cloudConnection(owner.token);
    for (let i = 0; i < 3; i++) {
      await expectStatus(await withKey(key, "POST", "/api/v1/messages", { type: "text", connectionId: connection.id, phone: uniquePhone(), text: `Olá ${i}` }), 201);
    }
    const first = await expectStatus<{ results: { id: string; status: string }[]; cursor: string | null }>(await withKey(key, "GET", "/api/v1/tickets?limit=2"), 200);
    expect(first.results).toHaveLength(2);
    expect(first.cursor).not.toBeNull();
    const second = await expectStatus<{ results: { id: string }[]; cursor: string | null }>(await withKey(key, "GET", `/api/v1/tickets?limit=2&cursor=${first.cursor}`), 200);
    expect(second.results).toHaveLength(1);
    expect(second.cursor).toBeNull();
    expect(new Set([...first.results, ...second.results].map((t) => t.id)).size).toBe(3);
    const bad = await expectError(await withKey(key, "GET", "/api/v1/tickets?status=done"), 400, "validation_failed");
    expect(bad.error.fields).toEqual({ status: "invalid_status" });
  });
});

describe("/api/v1 OpenAPI document", () => {
  type Doc = { openapi: string; servers: { url: string }[]; paths: Record<string, Record<string, unknown>>; components: { securitySchemes: Record<string, unknown> } };

  it("is a valid OpenAPI 3.1 document, served without a key, with its servers on PUBLIC_URL and the key's security schemes", async () => {
    const doc = await expectStatus<Doc>(await call("GET", "/api/v1/openapi.json"), 200);
    const result = await new BundledValidator().validate(structuredClone(doc));
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
    // The validator does refuse a broken document here (it is not silently passing everything).
    const broken = await new BundledValidator().validate({ ...structuredClone(doc), paths: { "/x": { get: { responses: "none" } } } });
    expect(broken.valid).toBe(false);
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers).toEqual([{ url: `${env.PUBLIC_URL}/api/v1` }]);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(["ApiKey", "Bearer"]);
    const send = doc.paths["/messages"]?.post as { responses: Record<string, unknown>; requestBody: { content: Record<string, unknown> } };
    expect(Object.keys(send.responses).sort()).toEqual(["201", "400", "401", "402", "403", "404", "429"]);
    expect(Object.keys(send.requestBody.content).sort()).toEqual(["application/json", "multipart/form-data"]);
  });

  it("documents every /api/v1 route the router registers (a route missing from the document fails here)", async () => {
    const doc = await expectStatus<Doc>(await call("GET", "/api/v1/openapi.json"), 200);
    const registered = registeredRoutes(app.routes).filter((r) => r.includes(" /api/v1/"));
    expect(registered.length).toBeGreaterThan(5);
    const missing = registered.filter((route) => {
      const [method = "", path = ""] = route.split(" ");
      const documented = path.replace(/^\/api\/v1/, "").replace(/:([A-Za-z]+)/g, "{$1}");
      return doc.paths[documented]?.[method.toLowerCase()] === undefined;
    });
    expect(missing, `routes missing from the OpenAPI document:\n${missing.join("\n")}`).toEqual([]);
  });
});

describe("/api/v1 rate limit", () => {
  it("answers RateLimit-* headers per key, and 429 with Retry-After once the window is spent", async () => {
    const owner = await register();
    const created = await createKey(owner, ["tickets:read"]);
    const first = await withKey(created.key, "GET", "/api/v1/tickets");
    expect(first.status).toBe(200);
    expect(first.headers.get("RateLimit-Limit")).toBe(String(DEFAULT_API_RATE_LIMIT));
    expect(first.headers.get("RateLimit-Remaining")).toBe(String(DEFAULT_API_RATE_LIMIT - 1));
    expect(Number(first.headers.get("RateLimit-Reset"))).toBeGreaterThan(0);
    expect(Number(first.headers.get("RateLimit-Reset"))).toBeLessThanOrEqual(60);
    const second = await withKey(created.key, "GET", "/api/v1/tickets");
    expect(second.headers.get("RateLimit-Remaining")).toBe(String(DEFAULT_API_RATE_LIMIT - 2));
    // An error answer of a keyed route carries the headers too.
    const missing = await withKey(created.key, "GET", "/api/v1/tickets?limit=0");
    expect(missing.status).toBe(400);
    expect(missing.headers.get("RateLimit-Remaining")).toBe(String(DEFAULT_API_RATE_LIMIT - 3));
    // Spend the rest of this key's window (the counter the middleware keeps in D1).
    await env.DB.prepare("UPDATE rate_limits SET count = ? WHERE key = ?").bind(DEFAULT_API_RATE_LIMIT, `api-key:${created.id}`).run();
    const limited = await withKey(created.key, "GET", "/api/v1/tickets");
    await expectError(limited.clone(), 429, "rate_limited");
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(limited.headers.get("RateLimit-Remaining")).toBe("0");
    // Another key of the same company has its own window.
    const other = await createKey(owner, ["tickets:read"]);
    expect((await withKey(other.key, "GET", "/api/v1/tickets")).status).toBe(200);
  });
});
