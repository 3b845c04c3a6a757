import { describe, expect, it } from "vitest";
import type { CrmBoardColumn, CrmCardAnswer, CrmColumnAnswer, Page } from "../../schema/api-types";
import { newId } from "../lib/ids";
import { call, expectError, expectInvalid, expectStatus, member, register } from "../test/helpers";
import { createColumn, createContact } from "../test/contact-helpers";

type Frame = { type: string; contactId?: string; fromColumnId?: string | null; card?: CrmCardAnswer | null; columns?: CrmColumnAnswer[] };

async function openHub(token: string) {
  const res = await call("GET", `/api/ws/hub?access_token=${encodeURIComponent(token)}`, { headers: { Upgrade: "websocket" } });
  if (res.status !== 101) throw new Error(`expected 101, got ${res.status} ${await res.text()}`);
  const ws = res.webSocket;
  if (!ws) throw new Error("no WebSocket in the upgrade answer");
  const frames: Frame[] = [];
  ws.accept();
  ws.addEventListener("message", (e) => frames.push(JSON.parse(String(e.data))));
  return { ws, frames };
}

async function waitFor<T>(read: () => T, check: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const value = read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function move(token: string, contactId: string, body: Record<string, unknown>) {
  return expectStatus<{ contactId: string; card: CrmCardAnswer | null }>(await call("PUT", `/api/crm/contacts/${contactId}`, { token, body }), 200);
}

async function board(token: string, query = ""): Promise<CrmBoardColumn[]> {
  return (await expectStatus<{ columns: CrmBoardColumn[] }>(await call("GET", `/api/crm/board${query}`, { token }), 200)).columns;
}

const SIGNED_IN_CALLS: [string, string][] = [
  ["GET", "/api/crm/columns"],
  ["POST", "/api/crm/columns"],
  ["PUT", "/api/crm/columns/order"],
  ["PUT", `/api/crm/columns/${newId()}`],
  ["DELETE", `/api/crm/columns/${newId()}`],
  ["GET", "/api/crm/board"],
  ["GET", `/api/crm/columns/${newId()}/contacts`],
  ["PUT", `/api/crm/contacts/${newId()}`],
];

describe("signed-in calls of /api/crm", () => {
  it.each(SIGNED_IN_CALLS)("%s %s without a token answers 401", async (method, path) => {
    await expectError(await call(method, path), 401, "unauthorized");
  });

  it.each(SIGNED_IN_CALLS)("%s %s without crm answers 403", async (method, path) => {
    const owner = await register();
    const staff = await member(owner, ["contacts"]);
    await expectError(await call(method, path, { token: staff.token, body: method === "GET" ? undefined : {} }), 403, "forbidden");
  });

  it("crm may view the board; managing needs crm_manager", async () => {
    const owner = await register();
    const column = await createColumn(owner.token, "Novo");
    const contact = await createContact(owner.token);
    const viewer = await member(owner, ["crm"]);
    await expectStatus(await call("GET", "/api/crm/board", { token: viewer.token }), 200);
    await expectStatus(await call("GET", "/api/crm/columns", { token: viewer.token }), 200);
    await expectError(await call("POST", "/api/crm/columns", { token: viewer.token, body: { name: "X" } }), 403, "forbidden");
    await expectError(await call("PUT", `/api/crm/contacts/${contact.id}`, { token: viewer.token, body: { columnId: column.id } }), 403, "forbidden");
    const manager = await member(owner, ["crm_manager"]);
    await move(manager.token, contact.id, { columnId: column.id });
    await expectStatus(await call("GET", "/api/crm/board", { token: manager.token }), 200);
  });
});

describe("CRM columns", () => {
  it("creates at the end, renames, reorders and deletes (its contacts leave the board)", async () => {
    const owner = await register();
    const a = await createColumn(owner.token, "Novo");
    const b = await createColumn(owner.token, "Negociando");
    const c = await createColumn(owner.token, "Fechado");
    expect([a.position, b.position, c.position]).toEqual([1, 2, 3]);
    const renamed = await expectStatus<CrmColumnAnswer>(await call("PUT", `/api/crm/columns/${b.id}`, { token: owner.token, body: { name: "Proposta", color: "#FF0000" } }), 200);
    expect(renamed).toMatchObject({ name: "Proposta", color: "#ff0000" });
    const reordered = await expectStatus<Page<CrmColumnAnswer>>(await call("PUT", "/api/crm/columns/order", { token: owner.token, body: { ids: [c.id, a.id, b.id] } }), 200);
    expect(reordered.results.map((x) => x.id)).toEqual([c.id, a.id, b.id]);
    const contact = await createContact(owner.token);
    await move(owner.token, contact.id, { columnId: a.id });
    await expectStatus(await call("DELETE", `/api/crm/columns/${a.id}`, { token: owner.token }), 204);
    const listed = await expectStatus<Page<CrmColumnAnswer>>(await call("GET", "/api/crm/columns", { token: owner.token }), 200);
    expect(listed.results.map((x) => x.id)).toEqual([c.id, b.id]);
    expect((await expectStatus<{ crmColumnId: string | null }>(await call("GET", `/api/contacts/${contact.id}`, { token: owner.token }), 200)).crmColumnId).toBeNull();
  });

  it.each([
    [{}, "name", "required"],
    [{ name: "x".repeat(61) }, "name", "too_long"],
    [{ name: "X", color: "blue" }, "color", "invalid_color"],
  ])("POST %j answers 400 naming %s", async (body, field, reason) => {
    const owner = await register();
    await expectInvalid(await call("POST", "/api/crm/columns", { token: owner.token, body }), field, reason);
  });

  it("the order must list every column exactly once", async () => {
    const owner = await register();
    const a = await createColumn(owner.token, "A");
    const b = await createColumn(owner.token, "B");
    await expectInvalid(await call("PUT", "/api/crm/columns/order", { token: owner.token, body: { ids: [a.id] } }), "ids", "every_column");
    await expectInvalid(await call("PUT", "/api/crm/columns/order", { token: owner.token, body: { ids: [a.id, a.id] } }), "ids", "duplicate_id");
    await expectInvalid(await call("PUT", "/api/crm/columns/order", { token: owner.token, body: { ids: [a.id, newId()] } }), "ids", "every_column");
    await expectStatus(await call("PUT", "/api/crm/columns/order", { token: owner.token, body: { ids: [b.id, a.id] } }), 200);
  });

  it("another company's column answers 404", async () => {
    const owner = await register();
    const other = await register();
    const theirs = await createColumn(other.token, "Deles");
    await expectError(await call("PUT", `/api/crm/columns/${theirs.id}`, { token: owner.token, body: { name: "Meu" } }), 404, "not_found");
    await expectError(await call("DELETE", `/api/crm/columns/${theirs.id}`, { token: owner.token }), 404, "not_found");
    await expectError(await call("GET", `/api/crm/columns/${theirs.id}/contacts`, { token: owner.token }), 404, "not_found");
    await expectInvalid(await call("PUT", "/api/crm/columns/order", { token: owner.token, body: { ids: [theirs.id] } }), "ids", "every_column");
  });
});

describe("moving contacts on the board", () => {
  it("places cards at the end, before or after another, and off the board", async () => {
    const owner = await register();
    const col = await createColumn(owner.token, "Novo");
    const other = await createColumn(owner.token, "Fechado");
    const [a, b, c, d] = [await createContact(owner.token, { name: "A" }), await createContact(owner.token, { name: "B" }), await createContact(owner.token, { name: "C" }), await createContact(owner.token, { name: "D" })];
    await move(owner.token, a!.id, { columnId: col.id });
    await move(owner.token, b!.id, { columnId: col.id });
    await move(owner.token, c!.id, { columnId: col.id, beforeId: a!.id });
    await move(owner.token, d!.id, { columnId: col.id, afterId: c!.id });
    const names = (cols: CrmBoardColumn[]) => cols.map((x) => x.contacts.map((k) => k.name));
    expect(names(await board(owner.token))).toEqual([["C", "D", "A", "B"], []]);
    const moved = await move(owner.token, a!.id, { columnId: other.id });
    expect(moved.card).toMatchObject({ id: a!.id, columnId: other.id });
    const off = await move(owner.token, b!.id, { columnId: null });
    expect(off.card).toBeNull();
    const cols = await board(owner.token);
    expect(names(cols)).toEqual([["C", "D"], ["A"]]);
    expect(cols.map((x) => x.total)).toEqual([2, 1]);
  });

  it("many moves between the same two cards stay ordered (renumbering when positions get close)", async () => {
    const owner = await register();
    const col = await createColumn(owner.token, "Novo");
    const first = await createContact(owner.token, { name: "first" });
    const last = await createContact(owner.token, { name: "last" });
    await move(owner.token, first.id, { columnId: col.id });
    await move(owner.token, last.id, { columnId: col.id });
    const inserted: string[] = [];
    for (let i = 0; i < 25; i++) {
      const contact = await createContact(owner.token, { name: `n${i}` });
      await move(owner.token, contact.id, { columnId: col.id, beforeId: last.id });
      inserted.push(`n${i}`);
    }
    const [only] = await board(owner.token, "?limit=100");
    expect(only?.contacts.map((k) => k.name)).toEqual(["first", ...inserted, "last"]);
  });

  it("pages a column's cards with a cursor", async () => {
    const owner = await register();
    const col = await createColumn(owner.token, "Novo");
    for (let i = 0; i < 5; i++) await move(owner.token, (await createContact(owner.token, { name: `c${i}` })).id, { columnId: col.id });
    const [first] = await board(owner.token, "?limit=2");
    expect(first?.contacts.map((k) => k.name)).toEqual(["c0", "c1"]);
    expect(first?.total).toBe(5);
    const seen = [...(first?.contacts.map((k) => k.name) ?? [])];
    let cursor = first?.cursor ?? null;
    while (cursor) {
      const page: Page<CrmCardAnswer> = await expectStatus<Page<CrmCardAnswer>>(await call("GET", `/api/crm/columns/${col.id}/contacts?limit=2&cursor=${cursor}`, { token: owner.token }), 200);
      seen.push(...page.results.map((k) => k.name));
      cursor = page.cursor;
    }
    expect(seen).toEqual(["c0", "c1", "c2", "c3", "c4"]);
  });

  it("refuses a column or neighbour that is not on the board, and another company's contact", async () => {
    const owner = await register();
    const other = await register();
    const col = await createColumn(owner.token, "Novo");
    const theirCol = await createColumn(other.token, "Deles");
    const contact = await createContact(owner.token);
    const loose = await createContact(owner.token);
    const theirs = await createContact(other.token);
    await expectInvalid(await call("PUT", `/api/crm/contacts/${contact.id}`, { token: owner.token, body: { columnId: theirCol.id } }), "columnId", "invalid_id");
    await expectInvalid(await call("PUT", `/api/crm/contacts/${contact.id}`, { token: owner.token, body: { columnId: col.id, beforeId: loose.id } }), "beforeId", "invalid_id");
    await expectInvalid(await call("PUT", `/api/crm/contacts/${contact.id}`, { token: owner.token, body: { columnId: col.id, beforeId: loose.id, afterId: loose.id } }), "afterId", "before_or_after");
    await expectError(await call("PUT", `/api/crm/contacts/${theirs.id}`, { token: owner.token, body: { columnId: col.id } }), 404, "not_found");
  });

  it("every member watching with crm sees moves and column changes live; others do not", async () => {
    const owner = await register();
    const viewer = await member(owner, ["crm"]);
    const outsider = await member(owner, ["contacts"]);
    const watching = await openHub(viewer.token);
    const blind = await openHub(outsider.token);
    await waitFor(() => watching.frames, (f) => f.some((x) => x.type === "hello"));
    await waitFor(() => blind.frames, (f) => f.some((x) => x.type === "hello"));
    const col = await createColumn(owner.token, "Novo");
    const contact = await createContact(owner.token, { name: "Ao Vivo" });
    await move(owner.token, contact.id, { columnId: col.id });
    const columns = await waitFor(() => watching.frames.filter((f) => f.type === "crm.columns"), (f) => f.length > 0);
    expect(columns[0]?.columns?.map((x) => x.name)).toEqual(["Novo"]);
    const cards = await waitFor(() => watching.frames.filter((f) => f.type === "crm.card"), (f) => f.length > 0);
    expect(cards[0]).toMatchObject({ contactId: contact.id, fromColumnId: null, card: { name: "Ao Vivo", columnId: col.id } });
    await expectStatus(await call("PUT", `/api/contacts/${contact.id}`, { token: owner.token, body: { name: "Renomeado" } }), 200);
    await waitFor(() => watching.frames.filter((f) => f.type === "crm.card"), (f) => f.some((x) => x.card?.name === "Renomeado"));
    await expectStatus(await call("DELETE", `/api/contacts/${contact.id}`, { token: owner.token }), 204);
    await waitFor(() => watching.frames.filter((f) => f.type === "crm.card"), (f) => f.some((x) => x.card === null && x.fromColumnId === col.id));
    expect(blind.frames.filter((f) => f.type.startsWith("crm."))).toEqual([]);
    watching.ws.close();
    blind.ws.close();
  });
});
