import { describe, expect, it } from "vitest";
import type { Page, TagAnswer } from "../../schema/api-types";
import { newId } from "../lib/ids";
import { activeCompanyId, call, countRows, expectError, expectInvalid, expectStatus, member, register } from "../test/helpers";
import { createContact, createTag } from "../test/contact-helpers";

const SIGNED_IN_CALLS: [string, string][] = [
  ["GET", "/api/tags"],
  ["POST", "/api/tags"],
  ["GET", `/api/tags/${newId()}`],
  ["PUT", `/api/tags/${newId()}`],
  ["DELETE", `/api/tags/${newId()}`],
];

describe("signed-in calls of /api/tags", () => {
  it.each(SIGNED_IN_CALLS)("%s %s without a token answers 401", async (method, path) => {
    await expectError(await call(method, path), 401, "unauthorized");
  });

  it.each(SIGNED_IN_CALLS)("%s %s without a permission that allows it answers 403", async (method, path) => {
    const owner = await register();
    const staff = await member(owner, ["tickets"]);
    await expectError(await call(method, path, { token: staff.token, body: method === "GET" ? undefined : {} }), 403, "forbidden");
  });

  it("contacts_tags may read tags but only tags may manage them", async () => {
    const owner = await register();
    const staff = await member(owner, ["contacts_tags"]);
    await expectStatus(await call("GET", "/api/tags", { token: staff.token }), 200);
    await expectError(await call("POST", "/api/tags", { token: staff.token, body: { name: "X", color: "#000000" } }), 403, "forbidden");
    const manager = await member(owner, ["tags"]);
    await expectStatus(await call("POST", "/api/tags", { token: manager.token, body: { name: "X", color: "#000000" } }), 201);
  });
});

describe("/api/tags", () => {
  it("creates, reads, renames and deletes a tag; contacts lose it", async () => {
    const owner = await register();
    const tag = await createTag(owner.token, " VIP ", "#AABBCC");
    expect(tag).toMatchObject({ name: "VIP", color: "#aabbcc" });
    expect(await expectStatus(await call("GET", `/api/tags/${tag.id}`, { token: owner.token }), 200)).toEqual(tag);
    const renamed = await expectStatus<TagAnswer>(await call("PUT", `/api/tags/${tag.id}`, { token: owner.token, body: { name: "Cliente VIP", color: "#000000" } }), 200);
    expect(renamed).toMatchObject({ id: tag.id, name: "Cliente VIP", color: "#000000" });
    const contact = await createContact(owner.token, { tags: [tag.id] });
    await expectStatus(await call("DELETE", `/api/tags/${tag.id}`, { token: owner.token }), 204);
    expect(await countRows("contact_tags", "contact_id = ?", contact.id)).toBe(0);
    await expectError(await call("GET", `/api/tags/${tag.id}`, { token: owner.token }), 404, "not_found");
  });

  it("lists by name with a keyset cursor and a search", async () => {
    const owner = await register();
    const names = ["Delta", "alfa", "Charlie", "Bravo", "Echo"];
    for (const n of names) await createTag(owner.token, n);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Page<TagAnswer> = await expectStatus<Page<TagAnswer>>(await call("GET", `/api/tags?limit=2${cursor ? `&cursor=${cursor}` : ""}`, { token: owner.token }), 200);
      expect(page.total).toBe(5);
      seen.push(...page.results.map((t) => t.name));
      cursor = page.cursor;
    } while (cursor);
    expect(seen).toEqual(["Bravo", "Charlie", "Delta", "Echo", "alfa"]);
    const found = await expectStatus<Page<TagAnswer>>(await call("GET", "/api/tags?search=ar", { token: owner.token }), 200);
    expect(found.results.map((t) => t.name)).toEqual(["Charlie"]);
    await expectInvalid(await call("GET", `/api/tags?search=${encodeURIComponent("ã".repeat(30))}`, { token: owner.token }), "search", "too_long");
  });

  it("names are unique in the company, case-insensitively (409 name_in_use)", async () => {
    const owner = await register();
    const first = await createTag(owner.token, "Lead");
    const body = await expectError(await call("POST", "/api/tags", { token: owner.token, body: { name: "LEAD", color: "#000000" } }), 409, "name_in_use");
    expect(body.error.message).toBe("This name is already in use.");
    const second = await createTag(owner.token, "Cliente");
    await expectError(await call("PUT", `/api/tags/${second.id}`, { token: owner.token, body: { name: "lead", color: "#000000" } }), 409, "name_in_use");
    await expectStatus(await call("PUT", `/api/tags/${first.id}`, { token: owner.token, body: { name: "LEAD", color: "#000000" } }), 200);
    const other = await register();
    await createTag(other.token, "Lead");
  });

  it.each([
    [{ color: "#000000" }, "name", "required"],
    [{ name: "x".repeat(41), color: "#000000" }, "name", "too_long"],
    [{ name: "X" }, "color", "required"],
    [{ name: "X", color: "red" }, "color", "invalid_color"],
    [{ name: "X", color: "#12345" }, "color", "invalid_color"],
  ])("%j answers 400 naming %s, writing nothing", async (body, field, reason) => {
    const owner = await register();
    const companyId = await activeCompanyId(owner.token);
    await expectInvalid(await call("POST", "/api/tags", { token: owner.token, body }), field, reason);
    expect(await countRows("tags", "company_id = ?", companyId)).toBe(0);
  });

  it("another company's tag answers 404 and is not listed", async () => {
    const owner = await register();
    const other = await register();
    const theirs = await createTag(other.token, "Deles");
    await expectError(await call("GET", `/api/tags/${theirs.id}`, { token: owner.token }), 404, "not_found");
    await expectError(await call("PUT", `/api/tags/${theirs.id}`, { token: owner.token, body: { name: "Meu", color: "#000000" } }), 404, "not_found");
    await expectError(await call("DELETE", `/api/tags/${theirs.id}`, { token: owner.token }), 404, "not_found");
    expect((await expectStatus<Page<TagAnswer>>(await call("GET", "/api/tags", { token: owner.token }), 200)).total).toBe(0);
  });
});
