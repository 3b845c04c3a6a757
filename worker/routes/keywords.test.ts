import { describe, expect, it } from "vitest";
import type { KeywordAnswer } from "../../schema/flow-api";
import { keywordMatches } from "../lib/flows";
import { newId } from "../lib/ids";
import { call, expectError, expectInvalid, expectStatus, member, register } from "../test/helpers";
import { createFlow } from "../test/flow-helpers";

const SIGNED_IN_CALLS: [string, string][] = [
  ["GET", "/api/keywords"],
  ["POST", "/api/keywords"],
  ["GET", `/api/keywords/${newId()}`],
  ["PUT", `/api/keywords/${newId()}`],
  ["DELETE", `/api/keywords/${newId()}`],
];

describe("signed-in calls of /api/keywords", () => {
  it.each(SIGNED_IN_CALLS)("%s %s without a token answers 401", async (method, path) => {
    await expectError(await call(method, path), 401, "unauthorized");
  });

  it.each(SIGNED_IN_CALLS)("%s %s without the keywords permission answers 403", async (method, path) => {
    const owner = await register();
    const staff = await member(owner, ["flow"]);
    await expectError(await call(method, path, { token: staff.token, body: method === "GET" ? undefined : {} }), 403, "forbidden");
  });
});

describe("/api/keywords", () => {
  it("creates, reads, lists, updates and deletes a trigger", async () => {
    const owner = await register();
    const flow = await createFlow(owner.token);
    const body = { name: "Saudação", turnOn: true, rules: [{ type: "start_with", words: ["oi", "olá"] }], flowId: flow.id };
    const created = await expectStatus<KeywordAnswer>(await call("POST", "/api/keywords", { token: owner.token, body }), 201);
    expect(created).toMatchObject({ ...body, createdMessages: 0 });
    expect(await expectStatus(await call("GET", `/api/keywords/${created.id}`, { token: owner.token }), 200)).toEqual(created);
    const list = await expectStatus<KeywordAnswer[]>(await call("GET", "/api/keywords", { token: owner.token }), 200);
    expect(list.map((k) => k.id)).toEqual([created.id]);
    const updated = await expectStatus<KeywordAnswer>(await call("PUT", `/api/keywords/${created.id}`, { token: owner.token, body: { ...body, turnOn: false } }), 200);
    expect(updated.turnOn).toBe(false);
    await expectStatus(await call("DELETE", `/api/keywords/${created.id}`, { token: owner.token }), 204);
    await expectError(await call("GET", `/api/keywords/${created.id}`, { token: owner.token }), 404, "not_found");
  });

  it("validates every field, naming it", async () => {
    const owner = await register();
    const flow = await createFlow(owner.token);
    const ok = { name: "K", rules: [{ type: "is", words: ["x"] }], flowId: flow.id };
    await expectInvalid(await call("POST", "/api/keywords", { token: owner.token, body: { ...ok, name: "" } }), "name", "required");
    await expectInvalid(await call("POST", "/api/keywords", { token: owner.token, body: { ...ok, rules: [] } }), "rules", "required");
    await expectInvalid(await call("POST", "/api/keywords", { token: owner.token, body: { ...ok, rules: [{ type: "near", words: ["x"] }] } }), "rules.0.type", "invalid_type");
    await expectInvalid(await call("POST", "/api/keywords", { token: owner.token, body: { ...ok, rules: [{ type: "is", words: [] }] } }), "rules.0.words", "required");
    await expectInvalid(await call("POST", "/api/keywords", { token: owner.token, body: { ...ok, rules: [{ type: "is", words: [" "] }] } }), "rules.0.words.0", "required");
    await expectInvalid(await call("POST", "/api/keywords", { token: owner.token, body: { ...ok, turnOn: "on" } }), "turnOn", "invalid_type");
    await expectInvalid(await call("POST", "/api/keywords", { token: owner.token, body: { ...ok, flowId: newId() } }), "flowId", "invalid_id");
  });

  it("a trigger without a flow says to choose one (flow_required), not an invalid identifier (issue 9)", async () => {
    const owner = await register();
    const ok = { name: "K", rules: [{ type: "is", words: ["x"] }] };
    await expectInvalid(await call("POST", "/api/keywords", { token: owner.token, body: { ...ok, flowId: "" } }), "flowId", "flow_required");
    await expectInvalid(await call("POST", "/api/keywords", { token: owner.token, body: { ...ok, flowId: "abc" } }), "flowId", "invalid_id");
  });

  it("another company's trigger and flow answer 404 / 400", async () => {
    const owner = await register();
    const other = await register();
    const theirFlow = await createFlow(other.token);
    const theirs = await expectStatus<KeywordAnswer>(await call("POST", "/api/keywords", { token: other.token, body: { name: "K", rules: [{ type: "is", words: ["x"] }], flowId: theirFlow.id } }), 201);
    await expectError(await call("GET", `/api/keywords/${theirs.id}`, { token: owner.token }), 404, "not_found");
    await expectError(await call("DELETE", `/api/keywords/${theirs.id}`, { token: owner.token }), 404, "not_found");
    await expectInvalid(await call("POST", "/api/keywords", { token: owner.token, body: { name: "K", rules: [{ type: "is", words: ["x"] }], flowId: theirFlow.id } }), "flowId", "invalid_id");
  });
});

describe("keywordMatches", () => {
  const rule = (type: "start_with" | "contains" | "is", ...words: string[]) => ({ rules: [{ type, words }] });

  it("is case- and accent-insensitive", () => {
    expect(keywordMatches(rule("is", "promoção"), "  PROMOCAO ")).toBe(true);
    expect(keywordMatches(rule("is", "promoção"), "promoções")).toBe(false);
  });

  it("start_with and contains match whole words", () => {
    expect(keywordMatches(rule("start_with", "oi"), "Oi, tudo bem?")).toBe(true);
    expect(keywordMatches(rule("start_with", "oi"), "oito reais")).toBe(false);
    expect(keywordMatches(rule("contains", "preço"), "qual o PRECO do pão?")).toBe(true);
    expect(keywordMatches(rule("contains", "pão"), "quero um paozinho")).toBe(false);
    expect(keywordMatches(rule("contains", "bom dia"), "olá, bom   dia!")).toBe(true);
  });
});
