/**
 * Company API keys as integration identities (issue 8 §6): key management, the public API routes a
 * key reaches with its scopes, everything else refused, what a key does recorded as done by the key;
 * and the one ticket visibility rule on POST /api/tickets/{id}/start-flow.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ApiKeyScope } from "../../schema/api-keys";
import type { ContactAnswer, MeAnswer } from "../../schema/api-types";
import type { TicketAnswer } from "../../schema/realtime";
import type { ApiKeyAnswer, ApiKeyCreatedAnswer } from "../../schema/validation/api-keys";
import { app } from "../app";
import { PUBLIC_API_ROUTES } from "../lib/api-keys";
import { sha256Hex } from "../lib/crypto";
import { newId } from "../lib/ids";
import { cloudConnection, deliverOk, listTickets, onlyTicket, sentTo, textWebhook, uniqueWaId, until, wamid } from "../test/channel-helpers";
import { createContact, uniquePhone } from "../test/contact-helpers";
import { flowDoc, publishedFlow } from "../test/flow-helpers";
import { activeCompanyId, call, expectError, expectInvalid, expectStatus, me, member, register, type Account } from "../test/helpers";

/** Creates a key in `owner`'s active company with `scopes`; answers the created key (shown once). */
async function createKey(owner: Account, scopes: ApiKeyScope[], name = "Integração ERP"): Promise<ApiKeyCreatedAnswer> {
  return expectStatus<ApiKeyCreatedAnswer>(await call("POST", "/api/companies/active/api-keys", { token: owner.token, body: { name, scopes } }), 201);
}

/** Calls the worker with `key` in the X-Api-Key header. */
function withKey(key: string, method: string, path: string, body?: unknown) {
  return call(method, path, { headers: { "X-Api-Key": key }, ...(body === undefined ? {} : { body }) });
}

const ALL_SCOPES: ApiKeyScope[] = ["contacts:read", "contacts:write", "tickets:read", "messages:send", "flows:start"];

describe("API key management", () => {
  it("a created key is shown once; the list never holds the key or its hash", async () => {
    const owner = await register();
    const created = await createKey(owner, ["contacts:read", "tickets:read"]);
    expect(created.key).toMatch(/^cv_[A-Za-z0-9_-]{40,}$/);
    expect(created).toMatchObject({ name: "Integração ERP", scopes: ["contacts:read", "tickets:read"], lastUsedAt: null, revokedAt: null });
    expect(created.hint.endsWith(created.key.slice(-4))).toBe(true);
    const listed = await expectStatus<ApiKeyAnswer[]>(await call("GET", "/api/companies/active/api-keys", { token: owner.token }), 200);
    expect(listed.map((k) => k.id)).toEqual([created.id]);
    expect(Object.keys(listed[0]!).sort()).toEqual(["createdAt", "hint", "id", "lastUsedAt", "name", "revokedAt", "scopes"]);
    const text = JSON.stringify(listed);
    expect(text).not.toContain(created.key);
    expect(text).not.toContain(await sha256Hex(created.key));
    const row = await env.DB.prepare("SELECT key_hash FROM api_keys WHERE id = ?").bind(created.id).first<{ key_hash: string }>();
    expect(row?.key_hash).toBe(await sha256Hex(created.key));
  });

  it("a revoked key answers 401 at once; other keys keep working", async () => {
    const owner = await register();
    const revoked = await createKey(owner, ["contacts:read"]);
    const kept = await createKey(owner, ["contacts:read"], "Outra");
    await expectStatus(await withKey(revoked.key, "GET", "/api/contacts"), 200);
    const answer = await expectStatus<ApiKeyAnswer>(await call("DELETE", `/api/companies/active/api-keys/${revoked.id}`, { token: owner.token }), 200);
    expect(answer.revokedAt).toEqual(expect.any(Number));
    await expectError(await withKey(revoked.key, "GET", "/api/contacts"), 401, "unauthorized");
    await expectError(await call("GET", "/api/contacts", { token: revoked.key }), 401, "unauthorized");
    await expectStatus(await withKey(kept.key, "GET", "/api/contacts"), 200);
    await expectError(await withKey("cv_not-a-key", "GET", "/api/contacts"), 401, "unauthorized");
  });

  it("validates the name and the scopes, naming the field", async () => {
    const owner = await register();
    const post = (body: unknown) => call("POST", "/api/companies/active/api-keys", { token: owner.token, body });
    await expectInvalid(await post({ scopes: ["contacts:read"] }), "name", "required");
    await expectInvalid(await post({ name: "ERP", scopes: [] }), "scopes", "scopes_required");
    await expectInvalid(await post({ name: "ERP", scopes: ["admin"] }), "scopes.0", "invalid_scope");
    await expectInvalid(await post({ name: "ERP", scopes: ["contacts:read", "contacts:read"] }), "scopes", "duplicate_scope");
    await expectInvalid(await post({ name: "ERP" }), "scopes", "required");
  });

  it("needs settings_company; another company's key answers 404 and stays usable", async () => {
    const owner = await register();
    const staff = await member(owner, ["contacts"]);
    await expectError(await call("GET", "/api/companies/active/api-keys", { token: staff.token }), 403, "forbidden");
    await expectError(await call("POST", "/api/companies/active/api-keys", { token: staff.token, body: { name: "ERP", scopes: ["contacts:read"] } }), 403, "forbidden");
    const key = await createKey(owner, ["contacts:read"]);
    await expectError(await call("DELETE", `/api/companies/active/api-keys/${key.id}`, { token: staff.token }), 403, "forbidden");
    const other = await register();
    await expectError(await call("DELETE", `/api/companies/active/api-keys/${key.id}`, { token: other.token }), 404, "not_found");
    await expectError(await call("DELETE", `/api/companies/active/api-keys/${newId()}`, { token: owner.token }), 404, "not_found");
    expect(await expectStatus<ApiKeyAnswer[]>(await call("GET", "/api/companies/active/api-keys", { token: other.token }), 200)).toEqual([]);
    await expectStatus(await withKey(key.key, "GET", "/api/contacts"), 200);
  });

  it("the single-key route of before is gone", async () => {
    const owner = await register();
    await expectError(await call("POST", "/api/companies/active/api-key", { token: owner.token }), 404, "not_found");
  });

  it("a key copied by migration 0004 (32 hex digits id) can be revoked", async () => {
    const owner = await register();
    const companyId = await activeCompanyId(owner.token);
    const ownerMember = await env.DB.prepare("SELECT id FROM members WHERE company_id = ?").bind(companyId).first<{ id: string }>();
    const key = "cv_legacy-key-of-the-company-0000000000000000";
    const id = "0123456789abcdef0123456789abcdef";
    await env.DB.prepare("INSERT INTO api_keys (id, company_id, name, key_hash, hint, scopes, created_by_member_id, created_at) VALUES (?, ?, 'API key', ?, '0000', ?, ?, ?)")
      .bind(id, companyId, await sha256Hex(key), JSON.stringify(ALL_SCOPES), ownerMember?.id ?? "", Date.now())
      .run();
    await expectStatus(await withKey(key, "GET", "/api/contacts"), 200);
    await expectStatus(await call("DELETE", `/api/companies/active/api-keys/${id}`, { token: owner.token }), 200);
    await expectError(await withKey(key, "GET", "/api/contacts"), 401, "unauthorized");
  });

  it("notes the key's last use, at most once a minute", async () => {
    const owner = await register();
    const key = await createKey(owner, ["contacts:read"]);
    await expectStatus(await withKey(key.key, "GET", "/api/contacts"), 200);
    const first = await env.DB.prepare("SELECT last_used_at FROM api_keys WHERE id = ?").bind(key.id).first<{ last_used_at: number | null }>();
    expect(first?.last_used_at).toEqual(expect.any(Number));
    await expectStatus(await withKey(key.key, "GET", "/api/contacts"), 200);
    const second = await env.DB.prepare("SELECT last_used_at FROM api_keys WHERE id = ?").bind(key.id).first<{ last_used_at: number | null }>();
    expect(second?.last_used_at).toBe(first?.last_used_at);
    await env.DB.prepare("UPDATE api_keys SET last_used_at = ? WHERE id = ?").bind(Date.now() - 61_000, key.id).run();
    await expectStatus(await withKey(key.key, "GET", "/api/contacts"), 200);
    const third = await env.DB.prepare("SELECT last_used_at FROM api_keys WHERE id = ?").bind(key.id).first<{ last_used_at: number }>();
    expect(third!.last_used_at).toBeGreaterThan(Date.now() - 10_000);
    const listed = await expectStatus<ApiKeyAnswer[]>(await call("GET", "/api/companies/active/api-keys", { token: owner.token }), 200);
    expect(listed[0]?.lastUsedAt).toBe(third!.last_used_at);
  });
});

describe("what an API key reaches", () => {
  it("a key is no user: /api/me, logout, /api/user/*, invites, company switching, members, roles and key management refuse it", async () => {
    const owner = await register();
    const key = (await createKey(owner, ALL_SCOPES)).key;
    const before = await me(owner.token);
    const invited = { id: newId() };
    const refused: [string, string, unknown?][] = [
      ["GET", "/api/me"],
      ["PUT", "/api/me/change-active", { companyId: before.activeCompany }],
      ["GET", "/api/me/invites"],
      ["GET", "/api/me/permissions"],
      ["POST", "/api/logout"],
      ["PUT", "/api/user/change-status"],
      ["GET", "/api/companies"],
      ["GET", "/api/companies/active"],
      ["POST", `/api/companies/invite/${invited.id}/accept`],
      ["POST", `/api/companies/invite/${invited.id}/reject`],
      ["POST", "/api/companies/invite", { email: "y@example.com", roles: [] }],
      ["GET", "/api/companies/invites"],
      ["GET", "/api/companies/members"],
      ["GET", "/api/companies/members/active"],
      ["GET", "/api/companies/roles"],
      ["POST", "/api/companies/roles", { name: "Hacker", description: "", permissions: ["settings_members"] }],
      ["GET", "/api/companies/active/api-keys"],
      ["POST", "/api/companies/active/api-keys", { name: "Outra", scopes: ["contacts:read"] }],
      ["DELETE", "/api/contacts/" + newId()],
      ["GET", `/api/contacts/${newId()}/runs`],
      ["POST", "/api/contacts/bulk", { ids: [newId()], action: "delete" }],
      ["POST", "/api/contacts/export", {}],
      ["GET", "/api/connections"],
      ["POST", "/api/tickets/" + newId() + "/close"],
      ["GET", "/api/ws/hub"],
    ];
    for (const [method, path, body] of refused) {
      for (const response of [await withKey(key, method, path, body), await call(method, path, { token: key, ...(body === undefined ? {} : { body }) })]) {
        const answer = await expectStatus<{ error: { code: string } }>(response, 403);
        expect(answer.error.code, `${method} ${path}`).toBe("api_key_not_allowed");
      }
    }
    // Nothing happened to the owner: still signed in, same session, no role or key created.
    expect((await me(owner.token)).id).toBe(before.id);
    const keys = await expectStatus<ApiKeyAnswer[]>(await call("GET", "/api/companies/active/api-keys", { token: owner.token }), 200);
    expect(keys).toHaveLength(1);
    const roles = await expectStatus<{ name: string }[]>(await call("GET", "/api/companies/roles", { token: owner.token }), 200);
    expect(roles.map((r) => r.name)).not.toContain("Hacker");
  });

  it("contacts:read lists and reads contacts but cannot create or change one (403 insufficient_scope naming the scope)", async () => {
    const owner = await register();
    const contact = await createContact(owner.token, { name: "Maria", phone: uniquePhone() });
    const key = (await createKey(owner, ["contacts:read"])).key;
    const page = await expectStatus<{ results: ContactAnswer[] }>(await withKey(key, "GET", "/api/contacts"), 200);
    expect(page.results.map((c) => c.id)).toEqual([contact.id]);
    await expectStatus(await call("GET", `/api/contacts/${contact.id}`, { token: key }), 200);
    const create = await expectError(await withKey(key, "POST", "/api/contacts", { name: "Joana", phone: uniquePhone() }), 403, "insufficient_scope");
    expect(create.error.message).toContain("contacts:write");
    expect(create.error.fields?.scope).toBe("contacts:write");
    await expectError(await withKey(key, "PUT", `/api/contacts/${contact.id}`, { name: "Outra" }), 403, "insufficient_scope");
    await expectError(await withKey(key, "GET", "/api/tickets"), 403, "insufficient_scope");
    const list = await expectStatus<{ total: number }>(await call("GET", "/api/contacts", { token: owner.token }), 200);
    expect(list.total).toBe(1);
  });

  it("contacts:write creates and updates contacts", async () => {
    const owner = await register();
    const key = (await createKey(owner, ["contacts:write"])).key;
    const created = await expectStatus<ContactAnswer>(await withKey(key, "POST", "/api/contacts", { name: "Joana", phone: uniquePhone() }), 201);
    const updated = await expectStatus<ContactAnswer>(await withKey(key, "PUT", `/api/contacts/${created.id}`, { name: "Joana Prado" }), 200);
    expect(updated.name).toBe("Joana Prado");
    await expectError(await withKey(key, "GET", "/api/contacts"), 403, "insufficient_scope");
  });

  it("a key of company A cannot read or change company B's contact (404)", async () => {
    const a = await register();
    const b = await register();
    const theirs = await createContact(b.token, { name: "Cliente B", phone: uniquePhone() });
    const key = (await createKey(a, ["contacts:read", "contacts:write"])).key;
    await expectError(await withKey(key, "GET", `/api/contacts/${theirs.id}`), 404, "not_found");
    await expectError(await withKey(key, "PUT", `/api/contacts/${theirs.id}`, { name: "Roubado" }), 404, "not_found");
    const mine = await expectStatus<{ results: ContactAnswer[] }>(await withKey(key, "GET", "/api/contacts"), 200);
    expect(mine.results.map((c) => c.id)).not.toContain(theirs.id);
    expect((await expectStatus<ContactAnswer>(await call("GET", `/api/contacts/${theirs.id}`, { token: b.token }), 200)).name).toBe("Cliente B");
  });

  it("a key of company A cannot list, read, write to or start a flow on company B's ticket (404), and nothing reaches B's customer", async () => {
    const a = await register();
    const b = await register();
    const theirConnection = await cloudConnection(b.token);
    await deliverOk(textWebhook(theirConnection.phoneNumberId, uniqueWaId(), wamid(), "Segredo de B"));
    const theirs = await onlyTicket(b.token);
    const { flow: ownFlow } = await publishedFlow(a.token, flowDoc([{ id: "hi", type: "text", data: { message: "de A" } }], [["start", "next", "hi"]]));
    const { flow: theirFlow } = await publishedFlow(b.token, flowDoc([{ id: "hi", type: "text", data: { message: "de B" } }], [["start", "next", "hi"]]));
    const key = (await createKey(a, ALL_SCOPES)).key;

    const listed = await expectStatus<{ results: TicketAnswer[] }>(await withKey(key, "GET", "/api/tickets"), 200);
    expect(listed.results.map((t) => t.id)).not.toContain(theirs.id);
    for (const [method, path, body] of [
      ["GET", `/api/tickets/${theirs.id}`, undefined],
      ["GET", `/api/tickets/${theirs.id}/messages`, undefined],
      ["POST", `/api/tickets/${theirs.id}/messages`, { type: "text", body: "olá de A" }],
      ["POST", `/api/tickets/${theirs.id}/start-flow`, { flowId: ownFlow.id }],
      ["POST", `/api/tickets/${theirs.id}/start-flow`, { flowId: theirFlow.id }],
    ] as const) {
      const refused = await expectError(await withKey(key, method, path, body), 404, "not_found");
      expect(JSON.stringify(refused), `${method} ${path}`).not.toContain("Segredo");
    }
    const flows = await expectStatus<{ id: string }[]>(await withKey(key, "GET", "/api/flows"), 200);
    expect(flows.map((f) => f.id)).not.toContain(theirFlow.id);

    // The positive control: B's owner sends on the same ticket; once the provider has it, anything
    // the key had managed to queue on that ticket would have gone out before it.
    await expectStatus(await call("POST", `/api/tickets/${theirs.id}/messages`, { token: b.token, body: { type: "text", body: "controle" } }), 201);
    const sent = await until(() => sentTo(theirConnection.phoneNumberId), (r) => r.length >= 1, "B's control message");
    expect(sent.map((r) => (r.body as { text?: { body?: string } } | null)?.text?.body)).toEqual(["controle"]);
    const page = await expectStatus<{ results: { body: string }[] }>(await call("GET", `/api/tickets/${theirs.id}/messages`, { token: b.token }), 200);
    expect(page.results.map((m) => m.body)).toEqual(["Segredo de B", "controle"]);
  });

  it("a message sent by a key is recorded with the key and no sender member; the ticket stays in the queue", async () => {
    const owner = await register();
    const { phoneNumberId } = await cloudConnection(owner.token);
    const from = uniqueWaId();
    await deliverOk(textWebhook(phoneNumberId, from, wamid(), "Oi, meu pedido chegou?"));
    const ticket = await onlyTicket(owner.token);
    const created = await createKey(owner, ["tickets:read", "messages:send"], "Rastreio");
    const tickets = await expectStatus<{ results: TicketAnswer[] }>(await withKey(created.key, "GET", "/api/tickets"), 200);
    expect(tickets.results.map((t) => t.id)).toEqual([ticket.id]);
    const sent = await expectStatus<{ id: string; sender: { memberId: string | null } | null }>(
      await withKey(created.key, "POST", `/api/tickets/${ticket.id}/messages`, { type: "text", body: "Seu pedido sai hoje." }),
      201,
    );
    expect(sent.sender?.memberId ?? null).toBeNull();
    const row = await env.DB.prepare("SELECT api_key_id, sender_member_id, direction FROM messages WHERE id = ?")
      .bind(sent.id)
      .first<{ api_key_id: string | null; sender_member_id: string | null; direction: string }>();
    expect(row).toEqual({ api_key_id: created.id, sender_member_id: null, direction: "out" });
    const [out] = await until(() => sentTo(phoneNumberId), (r) => r.length >= 1, "the key's message at the provider");
    expect(out?.body).toMatchObject({ to: from, type: "text", text: { body: "Seu pedido sai hoje." } });
    const after = (await listTickets(owner.token)).results[0];
    expect(after).toMatchObject({ status: "pending", assignedMemberId: null });
    const messages = await expectStatus<{ results: { body: string }[] }>(await withKey(created.key, "GET", `/api/tickets/${ticket.id}/messages`), 200);
    expect(messages.results.map((m) => m.body)).toContain("Seu pedido sai hoje.");
    // Reading does not let the key act on the ticket otherwise.
    await expectError(await withKey(created.key, "POST", `/api/tickets/${ticket.id}/open`), 403, "api_key_not_allowed");
    await expectError(await withKey(created.key, "POST", `/api/tickets/${ticket.id}/start-flow`, { flowId: newId() }), 403, "insufficient_scope");
  });

  it("flows:start lists the flows and starts one for a ticket's contact; another company's ticket answers 404", async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    await deliverOk(textWebhook(connection.phoneNumberId, uniqueWaId(), wamid(), "oi"));
    const ticket = await onlyTicket(owner.token);
    const { flow } = await publishedFlow(owner.token, flowDoc([{ id: "hi", type: "text", data: { message: "Olá pela API" } }], [["start", "next", "hi"]]), "Boas-vindas");
    const key = (await createKey(owner, ["flows:start"])).key;
    const flows = await expectStatus<{ id: string }[]>(await withKey(key, "GET", "/api/flows"), 200);
    expect(flows.map((f) => f.id)).toContain(flow.id);
    await expectError(await withKey(key, "GET", `/api/flows/${flow.id}`), 403, "api_key_not_allowed");
    await expectStatus<{ runId: string }>(await withKey(key, "POST", `/api/tickets/${ticket.id}/start-flow`, { flowId: flow.id }), 200);
    await until(() => sentTo(connection.phoneNumberId), (r) => r.length >= 1, "the flow's message");
    const other = await register();
    const otherConnection = await cloudConnection(other.token);
    await deliverOk(textWebhook(otherConnection.phoneNumberId, uniqueWaId(), wamid(), "oi"));
    const theirs = await onlyTicket(other.token);
    await expectError(await withKey(key, "POST", `/api/tickets/${theirs.id}/start-flow`, { flowId: flow.id }), 404, "not_found");
  });

  it("every route of the public API table exists in the router", () => {
    const routes = new Set(app.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${r.path}`));
    for (const route of PUBLIC_API_ROUTES) expect(routes, `${route.method} ${route.path}`).toContain(`${route.method} ${route.path}`);
  });
});

describe("POST /api/tickets/{id}/start-flow follows the ticket visibility rule", () => {
  it("a member without see_all_tickets gets 404 for a ticket assigned to someone else, and may start one on a pending ticket", async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    await deliverOk(textWebhook(connection.phoneNumberId, uniqueWaId(), wamid(), "primeiro"));
    const taken = await onlyTicket(owner.token);
    await expectStatus(await call("POST", `/api/tickets/${taken.id}/open`, { token: owner.token }), 200);
    const { flow } = await publishedFlow(owner.token, flowDoc([{ id: "hi", type: "text", data: { message: "Olá" } }], [["start", "next", "hi"]]));
    const staff = await member(owner, ["tickets"]);
    // The same answer as every other ticket action for a ticket the member may not see.
    await expectError(await call("GET", `/api/tickets/${taken.id}`, { token: staff.token }), 404, "not_found");
    await expectError(await call("POST", `/api/tickets/${taken.id}/start-flow`, { token: staff.token, body: { flowId: flow.id } }), 404, "not_found");
    await deliverOk(textWebhook(connection.phoneNumberId, uniqueWaId(), wamid(), "segundo"));
    const pending = (await listTickets(staff.token, "status=pending")).results[0];
    expect(pending?.status).toBe("pending");
    await expectStatus(await call("POST", `/api/tickets/${pending!.id}/start-flow`, { token: staff.token, body: { flowId: flow.id } }), 200);
  });
});
