import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { FlowAnswer, FlowSummary, FlowTriggersAnswer, FolderAnswer, KeywordAnswer, SharedFlowAnswer } from "../../schema/flow-api";
import { newId } from "../lib/ids";
import { activeCompanyId, call, countRows, expectError, expectInvalid, expectStatus, form, member, pngFile, register, type ErrorBody } from "../test/helpers";
import { createField, createTag } from "../test/contact-helpers";
import { createFlow, flowDoc, publishedFlow, setDefaultFlow } from "../test/flow-helpers";
import { sandboxConnection } from "../test/channel-helpers";

const SIGNED_IN_CALLS: [string, string][] = [
  ["GET", "/api/folders"],
  ["POST", "/api/folders"],
  ["GET", `/api/folders/${newId()}`],
  ["PUT", `/api/folders/${newId()}`],
  ["DELETE", `/api/folders/${newId()}`],
  ["GET", `/api/folders/${newId()}/path`],
  ["GET", "/api/flows"],
  ["POST", "/api/flows"],
  ["GET", `/api/flows/${newId()}`],
  ["PUT", `/api/flows/${newId()}`],
  ["DELETE", `/api/flows/${newId()}`],
  ["POST", `/api/flows/${newId()}/publish`],
  ["POST", `/api/flows/${newId()}/duplicate`],
  ["POST", `/api/flows/${newId()}/move`],
  ["GET", `/api/flows/${newId()}/stats`],
  ["GET", `/api/share-flow/${newId()}`],
  ["POST", `/api/share-flow/${newId()}/clone`],
];

const textFlow = (message: string) => flowDoc([{ id: "t1", type: "text", data: { message } }], [["start", "next", "t1"]]);

describe("signed-in calls of the flow builder", () => {
  it.each(SIGNED_IN_CALLS)("%s %s without a token answers 401", async (method, path) => {
    await expectError(await call(method, path), 401, "unauthorized");
  });

  it.each(SIGNED_IN_CALLS)("%s %s without the flow permission answers 403", async (method, path) => {
    const owner = await register();
    const staff = await member(owner, ["tickets"]);
    await expectError(await call(method, path, { token: staff.token, body: method === "GET" ? undefined : {} }), 403, "forbidden");
  });
});

describe("/api/folders", () => {
  it("creates nested folders, lists a level, answers breadcrumbs, renames, moves and deletes", async () => {
    const owner = await register();
    const top = await expectStatus<FolderAnswer>(await call("POST", "/api/folders", { token: owner.token, body: { name: " Vendas " } }), 201);
    expect(top).toMatchObject({ name: "Vendas", parentId: null });
    const inner = await expectStatus<FolderAnswer>(await call("POST", "/api/folders", { token: owner.token, body: { name: "Leads", parentId: top.id } }), 201);
    const root = await expectStatus<FolderAnswer[]>(await call("GET", "/api/folders?parentId=root", { token: owner.token }), 200);
    expect(root.map((f) => f.id)).toEqual([top.id]);
    const level = await expectStatus<FolderAnswer[]>(await call("GET", `/api/folders?parentId=${top.id}`, { token: owner.token }), 200);
    expect(level.map((f) => f.id)).toEqual([inner.id]);
    const path = await expectStatus<FolderAnswer[]>(await call("GET", `/api/folders/${inner.id}/path`, { token: owner.token }), 200);
    expect(path.map((f) => f.name)).toEqual(["Vendas", "Leads"]);
    await expectInvalid(await call("PUT", `/api/folders/${top.id}`, { token: owner.token, body: { parentId: inner.id } }), "parentId", "invalid_parent");
    const moved = await expectStatus<FolderAnswer>(await call("PUT", `/api/folders/${inner.id}`, { token: owner.token, body: { name: "Leads 2", parentId: null } }), 200);
    expect(moved).toMatchObject({ name: "Leads 2", parentId: null });
    await expectStatus(await call("DELETE", `/api/folders/${inner.id}`, { token: owner.token }), 204);
    await expectError(await call("GET", `/api/folders/${inner.id}`, { token: owner.token }), 404, "not_found");
  });

  it("validates the name and the parent, naming the field", async () => {
    const owner = await register();
    await expectInvalid(await call("POST", "/api/folders", { token: owner.token, body: {} }), "name", "required");
    await expectInvalid(await call("POST", "/api/folders", { token: owner.token, body: { name: "x".repeat(101) } }), "name", "too_long");
    await expectInvalid(await call("POST", "/api/folders", { token: owner.token, body: { name: "A", parentId: "nope" } }), "parentId", "invalid_id");
    await expectInvalid(await call("POST", "/api/folders", { token: owner.token, body: { name: "A", parentId: newId() } }), "parentId", "invalid_id");
  });

  it("refuses to delete a folder that holds a builder (409)", async () => {
    const owner = await register();
    const folder = await expectStatus<FolderAnswer>(await call("POST", "/api/folders", { token: owner.token, body: { name: "Cheia" } }), 201);
    await createFlow(owner.token, { folderId: folder.id });
    await expectError(await call("DELETE", `/api/folders/${folder.id}`, { token: owner.token }), 409, "conflict");
  });

  it("another company's folder answers 404", async () => {
    const owner = await register();
    const other = await register();
    const folder = await expectStatus<FolderAnswer>(await call("POST", "/api/folders", { token: other.token, body: { name: "Deles" } }), 201);
    await expectError(await call("GET", `/api/folders/${folder.id}`, { token: owner.token }), 404, "not_found");
    await expectError(await call("PUT", `/api/folders/${folder.id}`, { token: owner.token, body: { name: "X" } }), 404, "not_found");
    await expectError(await call("DELETE", `/api/folders/${folder.id}`, { token: owner.token }), 404, "not_found");
    await expectInvalid(await call("POST", "/api/folders", { token: owner.token, body: { name: "A", parentId: folder.id } }), "parentId", "invalid_id");
  });
});

describe("/api/flows", () => {
  it("creates a builder with a start block, saves a draft, lists, duplicates, moves and deletes it", async () => {
    const owner = await register();
    const flow = await createFlow(owner.token, { name: "Boas-vindas" });
    expect(flow).toMatchObject({ name: "Boas-vindas", type: "default", folderId: null, publishedVersion: null, shareUrl: `/share-flow/${flow.id}` });
    expect(flow.draft.nodes.map((n) => n.type)).toEqual(["start"]);
    const saved = await expectStatus<FlowAnswer>(await call("PUT", `/api/flows/${flow.id}`, { token: owner.token, body: { draft: textFlow("Olá {{first_name}}") } }), 200);
    expect(saved.draft.nodes.map((n) => n.id)).toEqual(["start", "t1"]);
    expect(saved.problems.filter((p) => p.severity !== "warning")).toEqual([]);
    const folder = await expectStatus<FolderAnswer>(await call("POST", "/api/folders", { token: owner.token, body: { name: "Pasta" } }), 201);
    const moved = await expectStatus<FlowAnswer>(await call("POST", `/api/flows/${flow.id}/move`, { token: owner.token, body: { folderId: folder.id } }), 200);
    expect(moved.folderId).toBe(folder.id);
    expect((await expectStatus<FlowSummary[]>(await call("GET", "/api/flows?folderId=root", { token: owner.token }), 200)).map((f) => f.id)).not.toContain(flow.id);
    expect((await expectStatus<FlowSummary[]>(await call("GET", `/api/flows?folderId=${folder.id}`, { token: owner.token }), 200)).map((f) => f.id)).toEqual([flow.id]);
    const copy = await expectStatus<FlowAnswer>(await call("POST", `/api/flows/${flow.id}/duplicate`, { token: owner.token }), 201);
    expect(copy).toMatchObject({ name: "Boas-vindas (copy)", folderId: folder.id, publishedVersion: null });
    expect(copy.draft).toEqual(saved.draft);
    const found = await expectStatus<FlowSummary[]>(await call("GET", "/api/flows?search=copy", { token: owner.token }), 200);
    expect(found.map((f) => f.id)).toEqual([copy.id]);
    // The app names the copy in the user's language (issue 9); the name is validated like any other.
    const named = await expectStatus<FlowAnswer>(await call("POST", `/api/flows/${flow.id}/duplicate`, { token: owner.token, body: { name: "Boas-vindas (cópia)" } }), 201);
    expect(named).toMatchObject({ name: "Boas-vindas (cópia)", folderId: folder.id });
    await expectInvalid(await call("POST", `/api/flows/${flow.id}/duplicate`, { token: owner.token, body: { name: "x".repeat(101) } }), "name", "too_long");
    const back = await expectStatus<FlowAnswer>(await call("POST", `/api/flows/${flow.id}/move`, { token: owner.token, body: { folderId: null } }), 200);
    expect(back.folderId).toBeNull();
    await expectStatus(await call("DELETE", `/api/flows/${flow.id}`, { token: owner.token }), 204);
    await expectError(await call("GET", `/api/flows/${flow.id}`, { token: owner.token }), 404, "not_found");
  });

  it("validates the body, naming the field", async () => {
    const owner = await register();
    await expectInvalid(await call("POST", "/api/flows", { token: owner.token, body: { type: "default" } }), "name", "required");
    await expectInvalid(await call("POST", "/api/flows", { token: owner.token, body: { name: "A", type: "robot" } }), "type", "invalid_type");
    await expectInvalid(await call("POST", "/api/flows", { token: owner.token, body: { name: "A", folderId: newId() } }), "folderId", "invalid_id");
    const flow = await createFlow(owner.token);
    await expectInvalid(await call("PUT", `/api/flows/${flow.id}`, { token: owner.token, body: { shareActive: "yes" } }), "shareActive", "invalid_type");
    await expectInvalid(await call("PUT", `/api/flows/${flow.id}`, { token: owner.token, body: { allowedCompanyIds: ["x"] } }), "allowedCompanyIds.0", "invalid_id");
    await expectInvalid(await call("POST", `/api/flows/${flow.id}/move`, { token: owner.token, body: {} }), "folderId", "required");
  });

  it("refuses an invalid graph naming the block", async () => {
    const owner = await register();
    const flow = await createFlow(owner.token);
    const bad = flowDoc([{ id: "slow", type: "delay", data: { seconds: "ten" } }], [["start", "next", "slow"]]);
    const body = await expectInvalid(await call("PUT", `/api/flows/${flow.id}`, { token: owner.token, body: { draft: bad } }), "draft.nodes.slow");
    expect(body.error.message).toContain("slow");
    await expectInvalid(await call("PUT", `/api/flows/${flow.id}`, { token: owner.token, body: { draft: flowDoc([{ id: "x", type: "teleport" }], []) } }), "draft.nodes.x", "unknown_block_type");
    await expectInvalid(await call("PUT", `/api/flows/${flow.id}`, { token: owner.token, body: { draft: flowDoc([], [["start", "next", "ghost"]]) } }), "draft.nodes.start", "unknown_edge_target");
    await expectInvalid(await call("PUT", `/api/flows/${flow.id}`, { token: owner.token, body: { draft: flowDoc([], [["ghost", "next", "start"]]) } }), "draft.edges.e0", "unknown_edge_source");
    await expectInvalid(await call("PUT", `/api/flows/${flow.id}`, { token: owner.token, body: { draft: "not a document" } }), "draft");
    // Nothing was stored.
    const again = await expectStatus<FlowAnswer>(await call("GET", `/api/flows/${flow.id}`, { token: owner.token }), 200);
    expect(again.draft.nodes.map((n) => n.id)).toEqual(["start"]);
  });

  it("stores an incomplete draft with its problems, and refuses to publish it naming the block", async () => {
    const owner = await register();
    const flow = await createFlow(owner.token);
    const saved = await expectStatus<FlowAnswer>(await call("PUT", `/api/flows/${flow.id}`, { token: owner.token, body: { draft: textFlow("") } }), 200);
    expect(saved.problems.some((p) => p.nodeId === "t1" && p.severity === "incomplete")).toBe(true);
    const refused = await expectStatus<ErrorBody & { error: { problems: { nodeId?: string }[] } }>(await call("POST", `/api/flows/${flow.id}/publish`, { token: owner.token }), 400);
    expect(refused.error.code).toBe("validation_failed");
    expect(Object.keys(refused.error.fields ?? {})).toContain("draft.nodes.t1");
    expect(refused.error.problems.some((p) => p.nodeId === "t1")).toBe(true);
  });

  it("publish freezes a version; editing the draft does not change it", async () => {
    const owner = await register();
    const { flow, version } = await publishedFlow(owner.token, textFlow("Versão um"));
    expect(version).toBe(1);
    await expectStatus(await call("PUT", `/api/flows/${flow.id}`, { token: owner.token, body: { draft: textFlow("Versão dois") } }), 200);
    const stored = await env.DB.prepare("SELECT document FROM flow_versions WHERE flow_id = ? AND version = 1").bind(flow.id).first<{ document: string }>();
    expect(stored?.document).toContain("Versão um");
    const second = await expectStatus<{ version: number; publishedAt: number }>(await call("POST", `/api/flows/${flow.id}/publish`, { token: owner.token }), 200);
    expect(second.version).toBe(2);
    const summary = await expectStatus<FlowAnswer>(await call("GET", `/api/flows/${flow.id}`, { token: owner.token }), 200);
    expect(summary).toMatchObject({ publishedVersion: 2, publishedAt: second.publishedAt });
  });

  it("deleting a builder deletes its keyword triggers and clears default slots", async () => {
    const owner = await register();
    const flow = await createFlow(owner.token);
    const keyword = await expectStatus<KeywordAnswer>(await call("POST", "/api/keywords", { token: owner.token, body: { name: "Oi", rules: [{ type: "is", words: ["oi"] }], flowId: flow.id } }), 201);
    await expectStatus(await call("DELETE", `/api/flows/${flow.id}`, { token: owner.token }), 204);
    await expectError(await call("GET", `/api/keywords/${keyword.id}`, { token: owner.token }), 404, "not_found");
  });

  it("uploads media as an r2: reference and signs a preview URL for it", async () => {
    const owner = await register();
    const flow = await createFlow(owner.token);
    const media = await expectStatus<{ url: string; mime: string; size: number }>(await call("POST", `/api/flows/${flow.id}/media`, { token: owner.token, form: form({ file: pngFile("logo.png") }) }), 200);
    expect(media.url).toMatch(/^r2:media\//);
    expect(media.mime).toBe("image/png");
    const signed = await expectStatus<{ url: string }>(await call("GET", `/api/flows/${flow.id}/media-url?ref=${encodeURIComponent(media.url)}`, { token: owner.token }), 200);
    expect(signed.url).toMatch(/^\/api\/media\/media\/.+\?exp=\d+&sig=[0-9a-f]+$/);
    await expectInvalid(await call("POST", `/api/flows/${flow.id}/media`, { token: owner.token, form: form({ name: "x" }) }), "file", "required");
    await expectInvalid(await call("GET", `/api/flows/${flow.id}/media-url?ref=http://x`, { token: owner.token }), "ref", "invalid_ref");
    // Another company's media is not signed for this company.
    const other = await register();
    const theirs = await createFlow(other.token);
    await expectError(await call("GET", `/api/flows/${theirs.id}/media-url?ref=${encodeURIComponent(media.url)}`, { token: other.token }), 404, "not_found");
  });

  it("another company's builder answers 404 on every call", async () => {
    const owner = await register();
    const other = await register();
    const theirs = await createFlow(other.token);
    for (const [method, path] of [
      ["GET", `/api/flows/${theirs.id}`],
      ["PUT", `/api/flows/${theirs.id}`],
      ["DELETE", `/api/flows/${theirs.id}`],
      ["POST", `/api/flows/${theirs.id}/publish`],
      ["POST", `/api/flows/${theirs.id}/duplicate`],
      ["GET", `/api/flows/${theirs.id}/stats`],
    ] as const) {
      await expectError(await call(method, path, { token: owner.token, body: method === "PUT" ? { name: "x" } : undefined }), 404, "not_found");
    }
    await expectError(await call("POST", `/api/flows/${theirs.id}/move`, { token: owner.token, body: { folderId: null } }), 404, "not_found");
    expect((await expectStatus<FlowSummary[]>(await call("GET", "/api/flows", { token: owner.token }), 200)).map((f) => f.id)).not.toContain(theirs.id);
  });

  it("GET /api/flows/{id} answers what starts the flow: keywords and connections' default-flow slots (issue 9)", async () => {
    const owner = await register();
    const other = await register();
    const flow = await createFlow(owner.token, { name: "Vendas" });
    const bare = await expectStatus<FlowAnswer & { triggers: FlowTriggersAnswer }>(await call("GET", `/api/flows/${flow.id}`, { token: owner.token }), 200);
    expect(bare.triggers).toEqual({ keywords: [], connections: [] });
    const keyword = await expectStatus<KeywordAnswer>(
      await call("POST", "/api/keywords", { token: owner.token, body: { name: "Preço", rules: [{ type: "contains", words: ["preço", "valor"] }], flowId: flow.id } }),
      201,
    );
    const connection = await sandboxConnection(owner.token, { name: "Loja" });
    await setDefaultFlow(owner.token, connection.id, flow.id, flow.id);
    // Another company's connection pointing nowhere near this flow is never listed.
    await sandboxConnection(other.token, { name: "Outra" });
    const answer = await expectStatus<FlowAnswer & { triggers: FlowTriggersAnswer }>(await call("GET", `/api/flows/${flow.id}`, { token: owner.token }), 200);
    expect(answer.triggers).toEqual({
      keywords: [{ id: keyword.id, name: "Preço", turnOn: true, words: ["preço", "valor"] }],
      connections: [{ id: connection.id, name: "Loja", slots: ["default", "media"] }],
    });
  });
});

describe("/api/share-flow", () => {
  it("refuses while sharing is off, then shows the flow without its secrets", async () => {
    const owner = await register();
    const visitor = await register();
    const pixel = flowDoc(
      [{ id: "px", type: "facebook_pixel", data: { pixelId: "123456", accessToken: "EAAsecret", eventName: "Lead" } }],
      [["start", "next", "px"]],
    );
    const flow = await createFlow(owner.token);
    await expectStatus(await call("PUT", `/api/flows/${flow.id}`, { token: owner.token, body: { draft: pixel } }), 200);
    await expectError(await call("GET", `/api/share-flow/${flow.id}`, { token: visitor.token }), 404, "not_found");
    await expectStatus(await call("PUT", `/api/flows/${flow.id}`, { token: owner.token, body: { shareActive: true } }), 200);
    const shared = await expectStatus<SharedFlowAnswer>(await call("GET", `/api/share-flow/${flow.id}`, { token: visitor.token }), 200);
    expect(shared).toMatchObject({ canClone: false, reason: "clone_inactive", flow: { id: flow.id, companyName: "Padaria Central" } });
    expect(JSON.stringify(shared.draft)).not.toContain("EAAsecret");
    const refused = await expectError(await call("POST", `/api/share-flow/${flow.id}/clone`, { token: visitor.token }), 403, "forbidden");
    expect(refused.error.fields?.reason).toBe("clone_inactive");
  });

  it("clones into the caller's company only when allowed, creating its fields and tags by name", async () => {
    const owner = await register();
    const visitor = await register();
    const stranger = await register();
    await createField(owner.token, { name: "Cidade", key: "cidade", type: "text", kind: "user" });
    await createTag(owner.token, "Lead quente");
    const draft = flowDoc(
      [
        { id: "ask", type: "receive", data: { message: "De onde você é?", fieldKey: "cidade" } },
        { id: "tag", type: "action", data: { actions: [{ kind: "add_tag", tag: "Lead quente" }] } },
      ],
      [
        ["start", "next", "ask"],
        ["ask", "answered", "tag"],
      ],
    );
    const flow = await createFlow(owner.token, { name: "Qualificação" });
    const visitorCompany = await activeCompanyId(visitor.token);
    await expectStatus(
      await call("PUT", `/api/flows/${flow.id}`, { token: owner.token, body: { draft, shareActive: true, cloneActive: true, restrictCompanies: true, allowedCompanyIds: [visitorCompany] } }),
      200,
    );
    const notAllowed = await expectError(await call("POST", `/api/share-flow/${flow.id}/clone`, { token: stranger.token }), 403, "forbidden");
    expect(notAllowed.error.fields?.reason).toBe("company_not_allowed");
    const clone = await expectStatus<FlowAnswer>(await call("POST", `/api/share-flow/${flow.id}/clone`, { token: visitor.token }), 201);
    expect(clone).toMatchObject({ name: "Qualificação", folderId: null, publishedVersion: null, shareActive: false });
    expect(clone.id).not.toBe(flow.id);
    expect(clone.draft.nodes.map((n) => n.id)).toEqual(["start", "ask", "tag"]);
    expect(await countRows("custom_fields", "company_id = ? AND key = 'cidade' AND name = 'Cidade'", visitorCompany)).toBe(1);
    expect(await countRows("tags", "company_id = ? AND name = 'Lead quente'", visitorCompany)).toBe(1);
    await expectStatus(await call("GET", `/api/flows/${clone.id}`, { token: visitor.token }), 200);
  });

  it("an unknown flow answers 404", async () => {
    const owner = await register();
    await expectError(await call("GET", `/api/share-flow/${newId()}`, { token: owner.token }), 404, "not_found");
  });

  it("another company's unshared flow answers exactly like an unknown one (404), on GET and clone", async () => {
    const owner = await register();
    const visitor = await register();
    const flow = await createFlow(owner.token);
    await expectStatus(await call("PUT", `/api/flows/${flow.id}`, { token: owner.token, body: { cloneActive: true } }), 200);
    const unknown = newId();
    const visitorCompany = await activeCompanyId(visitor.token);
    const before = await countRows("flows", "company_id = ?", visitorCompany);
    for (const [method, path] of [
      ["GET", ""],
      ["POST", "/clone"],
    ] as const) {
      const hidden = await expectError(await call(method, `/api/share-flow/${flow.id}${path}`, { token: visitor.token }), 404, "not_found");
      const missing = await expectError(await call(method, `/api/share-flow/${unknown}${path}`, { token: visitor.token }), 404, "not_found");
      expect(hidden).toEqual(missing);
    }
    expect(await countRows("flows", "company_id = ?", visitorCompany)).toBe(before);
    // The owner still learns why their own link does not work.
    const own = await expectError(await call("GET", `/api/share-flow/${flow.id}`, { token: owner.token }), 403, "forbidden");
    expect(own.error.fields?.reason).toBe("share_inactive");
  });
});
