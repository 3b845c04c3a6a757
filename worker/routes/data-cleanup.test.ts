/**
 * Data cleanup (issue 12 "Tests": each category leaves the others intact and removes its R2
 * objects; progress; one at a time): GET/POST /api/companies/delete-data through the real `jobs`
 * queue, D1 and R2. Each company is seeded through the API: a tag and a custom field on a contact,
 * an inbound image from the Graph API stand-in (its media in R2), a contact export (its file in
 * R2), and a published flow with an uploaded image (its media in R2) and a keyword.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { DataCleanupAnswer } from "../../schema/validation/data-cleanup";
import type { JobAnswer } from "../../schema/api-types";
import { type Account, activeCompanyId, call, countRows, expectError, expectInvalid, expectStatus, form, member, pngFile, register } from "../test/helpers";
import { addStandInMedia, cloudConnection, deliverOk, messageWebhook, uniqueWaId, waMessage } from "../test/channel-helpers";
import { createContact, createField, createTag } from "../test/contact-helpers";
import { createFlow, flowDoc } from "../test/flow-helpers";
import { mediaBytes } from "../test/media-fixtures";

type Seeded = { owner: Account; companyId: string; inboundKey: string; exportKey: string; flowMediaKey: string };

async function seed(): Promise<Seeded> {
  const owner = await register();
  const token = owner.token;
  const companyId = await activeCompanyId(token);
  const tag = await createTag(token, "VIP");
  const field = await createField(token, { name: "Cidade", type: "text", kind: "user" });
  await createContact(token, { tags: [tag.id], fields: { [field.id]: "Recife" } });

  const connection = await cloudConnection(token);
  const mediaId = `media-${crypto.randomUUID()}`;
  await addStandInMedia(mediaId, "image/png", mediaBytes("image/png", 512));
  await deliverOk(messageWebhook(connection.phoneNumberId, waMessage(uniqueWaId(), "image", { image: { id: mediaId, mime_type: "image/png" } })));
  const inbound = await env.DB.prepare("SELECT media_key FROM messages WHERE company_id = ? AND media_key IS NOT NULL").bind(companyId).first<{ media_key: string }>();
  expect(inbound?.media_key).toBeTruthy();

  const exported = await expectStatus<JobAnswer>(await call("POST", "/api/contacts/export", { token, body: {} }), 201);
  let job = exported;
  for (let i = 0; i < 300 && job.status !== "done" && job.status !== "failed"; i++) {
    await new Promise((r) => setTimeout(r, 100));
    job = await expectStatus<JobAnswer>(await call("GET", `/api/jobs/${exported.id}`, { token }), 200);
  }
  expect(job.status).toBe("done");
  const exportRow = await env.DB.prepare("SELECT result_key FROM jobs WHERE id = ?").bind(exported.id).first<{ result_key: string }>();

  const flow = await createFlow(token, { name: "Boas-vindas" });
  const media = await expectStatus<{ url: string }>(await call("POST", `/api/flows/${flow.id}/media`, { token, form: form({ file: pngFile("logo.png") }) }), 200);
  const draft = flowDoc([{ id: "i", type: "image", data: { media: { url: media.url, mime: "image/png" } } }], [["start", "next", "i"]]);
  await expectStatus(await call("PUT", `/api/flows/${flow.id}`, { token, body: { draft } }), 200);
  await expectStatus(await call("POST", `/api/flows/${flow.id}/publish`, { token }), 200);
  await expectStatus(await call("POST", "/api/keywords", { token, body: { name: "Oi", turnOn: true, rules: [{ type: "start_with", words: ["oi"] }], flowId: flow.id } }), 201);

  const seeded = { owner, companyId, inboundKey: inbound!.media_key, exportKey: exportRow!.result_key, flowMediaKey: media.url.slice("r2:".length) };
  for (const key of [seeded.inboundKey, seeded.exportKey, seeded.flowMediaKey]) expect(await env.FILES.head(key), key).not.toBeNull();
  return seeded;
}

/** Row counts of the company's data, by table. */
async function counts(companyId: string): Promise<Record<string, number>> {
  const tables = ["contacts", "tickets", "messages", "contact_tags", "tags", "contact_field_values", "custom_fields", "flows", "flow_versions", "keywords"];
  const out: Record<string, number> = {};
  for (const table of tables) out[table] = await countRows(table, "company_id = ?", companyId);
  return out;
}

/** Whether an R2 object exists. */
const exists = async (key: string) => (await env.FILES.head(key)) !== null;

async function cleanup(token: string, type: string): Promise<DataCleanupAnswer> {
  const started = await expectStatus<DataCleanupAnswer>(await call("POST", "/api/companies/delete-data", { token, body: { type } }), 202);
  expect(started).toMatchObject({ type, status: "queued", progress: 0 });
  let state = started;
  for (let i = 0; i < 600 && state.status !== "done" && state.status !== "failed"; i++) {
    await new Promise((r) => setTimeout(r, 100));
    state = await expectStatus<DataCleanupAnswer>(await call("GET", "/api/companies/delete-data", { token }), 200);
    expect(state.progress).toBeGreaterThanOrEqual(0);
    expect(state.progress).toBeLessThanOrEqual(100);
  }
  expect(state, JSON.stringify(state)).toMatchObject({ jobId: started.jobId, type, status: "done", progress: 100 });
  expect(state.processed).toBe(state.total);
  return state;
}

describe("POST /api/companies/delete-data", { timeout: 90_000 }, () => {
  it("contacts: removes contacts, their tickets, messages, media and export files; tags, fields and flows stay", async () => {
    const s = await seed();
    const before = await counts(s.companyId);
    expect(before.contacts).toBe(2);
    const state = await cleanup(s.owner.token, "contacts");
    expect(state.total).toBe(2);
    const after = await counts(s.companyId);
    expect(after).toMatchObject({ contacts: 0, tickets: 0, messages: 0, contact_tags: 0, contact_field_values: 0 });
    expect(after).toMatchObject({ tags: before.tags, custom_fields: before.custom_fields, flows: 1, flow_versions: 1, keywords: 1 });
    expect(await exists(s.inboundKey)).toBe(false);
    expect(await exists(s.exportKey)).toBe(false);
    expect(await exists(s.flowMediaKey)).toBe(true);
    expect(await countRows("jobs", "company_id = ? AND type = 'export'", s.companyId)).toBe(0);
    const list = await expectStatus<{ total: number }>(await call("GET", "/api/contacts", { token: s.owner.token }), 200);
    expect(list.total).toBe(0);
  });

  it("tags: removes every tag and tag link; contacts, fields and flows stay", async () => {
    const s = await seed();
    const before = await counts(s.companyId);
    const state = await cleanup(s.owner.token, "tags");
    expect(state.total).toBe((before.tags ?? 0) + (before.contact_tags ?? 0));
    const after = await counts(s.companyId);
    expect(after).toEqual({ ...before, tags: 0, contact_tags: 0 });
    for (const key of [s.inboundKey, s.exportKey, s.flowMediaKey]) expect(await exists(key)).toBe(true);
  });

  it("custom_fields: removes every field and value; contacts, tags and flows stay", async () => {
    const s = await seed();
    const before = await counts(s.companyId);
    expect(before.contact_field_values).toBe(1);
    await cleanup(s.owner.token, "custom_fields");
    const after = await counts(s.companyId);
    expect(after).toEqual({ ...before, custom_fields: 0, contact_field_values: 0 });
    for (const key of [s.inboundKey, s.exportKey, s.flowMediaKey]) expect(await exists(key)).toBe(true);
  });

  it("flows: removes flows, versions, keywords and the flows' media; contacts, tags and fields stay", async () => {
    const s = await seed();
    const before = await counts(s.companyId);
    await cleanup(s.owner.token, "flows");
    const after = await counts(s.companyId);
    expect(after).toEqual({ ...before, flows: 0, flow_versions: 0, keywords: 0 });
    expect(await exists(s.flowMediaKey)).toBe(false);
    expect(await exists(s.inboundKey)).toBe(true);
    expect(await exists(s.exportKey)).toBe(true);
  });

  it("all: removes all four categories and their objects", async () => {
    const s = await seed();
    const state = await cleanup(s.owner.token, "all");
    // 2 contacts (their tag links and values go with them), 1 field, 1 tag, 1 flow.
    expect(state.total).toBe(5);
    const after = await counts(s.companyId);
    expect(Object.values(after).every((n) => n === 0), JSON.stringify(after)).toBe(true);
    for (const key of [s.inboundKey, s.exportKey, s.flowMediaKey]) expect(await exists(key)).toBe(false);
  });

  it("leaves another company's data alone", async () => {
    const s = await seed();
    const other = await seed();
    const theirs = await counts(other.companyId);
    await cleanup(s.owner.token, "all");
    expect(await counts(other.companyId)).toEqual(theirs);
    for (const key of [other.inboundKey, other.exportKey, other.flowMediaKey]) expect(await exists(key)).toBe(true);
  });

  it("runs one cleanup at a time (409 while one is under way), then accepts the next", async () => {
    const owner = await register();
    await createTag(owner.token, "A");
    await expectStatus(await call("POST", "/api/companies/delete-data", { token: owner.token, body: { type: "tags" } }), 202);
    await expectError(await call("POST", "/api/companies/delete-data", { token: owner.token, body: { type: "contacts" } }), 409, "conflict");
    let state: DataCleanupAnswer;
    do {
      await new Promise((r) => setTimeout(r, 100));
      state = await expectStatus<DataCleanupAnswer>(await call("GET", "/api/companies/delete-data", { token: owner.token }), 200);
    } while (state.status !== "done" && state.status !== "failed");
    expect(state.type).toBe("tags");
    await cleanup(owner.token, "contacts");
  });

  it("answers the none state, 400 for an unknown type, and 403 without settings_company", async () => {
    const owner = await register();
    const none = await expectStatus<DataCleanupAnswer>(await call("GET", "/api/companies/delete-data", { token: owner.token }), 200);
    expect(none).toMatchObject({ status: "none", type: null, jobId: null, progress: 0 });
    await expectInvalid(await call("POST", "/api/companies/delete-data", { token: owner.token, body: { type: "messages" } }), "type", "invalid_type");
    const staff = await member(owner, ["contacts", "tags", "custom_fields", "flow", "settings_members"]);
    await expectError(await call("POST", "/api/companies/delete-data", { token: staff.token, body: { type: "all" } }), 403, "forbidden");
    await expectError(await call("GET", "/api/companies/delete-data", { token: staff.token }), 403, "forbidden");
  });
});
