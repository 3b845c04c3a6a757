/**
 * GET /api/dashboard (issue 12 "Dashboard"): the figures of a hand-built dataset, exact, with the
 * range's edges in the company's time zone (America/Sao_Paulo, UTC−3: a ticket at 23:30 local on
 * the last day is in, one at 00:10 the next day is out); the counters the real paths keep (an
 * inbound message, a member's answer, a close, each counted once); the 400s; permission and tenancy.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { tickets } from "../../schema";
import type { DashboardAnswer } from "../../schema/validation/dashboard";
import { getDb } from "../lib/db";
import { runBatch } from "../lib/contacts";
import { dayCountsStatement, durationBucket, localDay, percentile, recordFirstResponse, recordResolution, ticketOpenedStatement } from "../lib/dashboard";
import { newId } from "../lib/ids";
import { activeCompanyId, call, expectInvalid, expectStatus, member, register, type Account } from "../test/helpers";
import { cloudConnection, deliverOk, onlyTicket, textWebhook, uniqueWaId, wamid } from "../test/channel-helpers";
import { createContact } from "../test/contact-helpers";

const TZ = "America/Sao_Paulo";
const db = getDb(env.DB);

/** ms UTC of a local São Paulo time (UTC−3 all year since 2019). */
function sp(local: string): number {
  return Date.parse(`${local}-03:00`);
}

/** Inserts a ticket created at `createdAt` by `origin`, counted as the product counts it. */
async function ticket(companyId: string, origin: "customer" | "company", createdAt: number): Promise<{ id: string; companyId: string; createdAt: number }> {
  const id = newId();
  await runBatch(db, [
    db.insert(tickets).values({
      id,
      companyId,
      contactId: newId(),
      connectionId: newId(),
      status: "open",
      origin,
      lastMessageAt: createdAt,
      createdAt,
      updatedAt: createdAt,
    }),
    ticketOpenedStatement(db, companyId, origin, localDay(createdAt, TZ)),
  ]);
  return { id, companyId, createdAt };
}

async function event(companyId: string, name: string, at: number): Promise<void> {
  await env.DB.prepare(
    "INSERT INTO dashboard_events (company_id, day, name, count) VALUES (?, ?, ?, 1) ON CONFLICT (company_id, day, name) DO UPDATE SET count = count + 1",
  )
    .bind(companyId, localDay(at, TZ), name)
    .run();
}

async function dashboard(token: string, query: string): Promise<DashboardAnswer> {
  return expectStatus<DashboardAnswer>(await call("GET", `/api/dashboard${query ? `?${query}` : ""}`, { token }), 200);
}

let owner: Account;
let companyId: string;

beforeAll(async () => {
  owner = await register({ companyName: "Loja São Paulo" });
  companyId = await activeCompanyId(owner.token);
  await env.DB.prepare("UPDATE companies SET timezone = ? WHERE id = ?").bind(TZ, companyId).run();
  // Two real contacts: the total comes from the maintained counter, whatever the range.
  await createContact(owner.token);
  await createContact(owner.token);

  const t1 = await ticket(companyId, "customer", sp("2026-03-01T09:00:00"));
  await recordFirstResponse(db, companyId, t1.id, t1.createdAt + 30_000);
  await recordResolution(db, t1, t1.createdAt + 3_600_000);
  const t2 = await ticket(companyId, "customer", sp("2026-03-05T10:00:00"));
  await recordFirstResponse(db, companyId, t2.id, t2.createdAt + 90_000);
  await recordResolution(db, t2, t2.createdAt + 7_200_000);
  const t3 = await ticket(companyId, "company", sp("2026-03-05T11:00:00"));
  // The company started it: an answer of ours is no "first response".
  await recordFirstResponse(db, companyId, t3.id, t3.createdAt + 5_000);
  await recordResolution(db, t3, t3.createdAt + 600_000);
  // 23:30 local on the last day of the range (02:30 UTC the next day).
  const t4 = await ticket(companyId, "customer", sp("2026-03-10T23:30:00"));
  await recordFirstResponse(db, companyId, t4.id, t4.createdAt + 125_000);
  // 00:10 local the day after: outside the range.
  await ticket(companyId, "customer", sp("2026-03-11T00:10:00"));

  await runBatch(db, [dayCountsStatement(companyId, "2026-03-03", { newContacts: 3 }), dayCountsStatement(companyId, "2026-03-11", { newContacts: 2 })]);
  await event(companyId, "purchase", sp("2026-03-02T08:00:00"));
  await event(companyId, "purchase", sp("2026-03-02T20:00:00"));
  await event(companyId, "lead", sp("2026-03-10T23:59:00"));
  await event(companyId, "purchase", sp("2026-03-11T00:01:00"));
});

describe("GET /api/dashboard", () => {
  it("answers the exact figures of a hand-built dataset, the last local day included until 23:59", async () => {
    const answer = await dashboard(owner.token, "from=2026-03-01&to=2026-03-10");
    expect(answer).toMatchObject({
      from: "2026-03-01",
      to: "2026-03-10",
      attendances: 4,
      receptive: 3,
      active: 1,
      contacts: 2,
      newContacts: 3,
      customEvents: [
        { name: "purchase", count: 2 },
        { name: "lead", count: 1 },
      ],
      // 30 s, 90 s, 125 s (counted as 120 s); the company's own ticket is not in it.
      firstResponse: { count: 3, medianMs: 90_000, p90Ms: 120_000 },
      resolution: { count: 3, medianMs: 3_600_000, p90Ms: 7_200_000 },
    });
    expect(answer.series).toHaveLength(10);
    expect(answer.series[4]).toEqual({
      date: "2026-03-05",
      attendances: 2,
      receptive: 1,
      active: 1,
      newContacts: 0,
      customEvents: 0,
      firstResponseMedianMs: 90_000,
      resolutionMedianMs: 600_000,
    });
    expect(answer.series[9]).toMatchObject({ date: "2026-03-10", attendances: 1, receptive: 1, customEvents: 1, firstResponseMedianMs: 120_000 });
    expect(answer.series[1]).toMatchObject({ date: "2026-03-02", attendances: 0, customEvents: 2, firstResponseMedianMs: null });
  });

  it("leaves out what happened after the range's last local day, and counts it on the next", async () => {
    const before = await dashboard(owner.token, "from=2026-03-01&to=2026-03-09");
    expect(before).toMatchObject({ attendances: 3, receptive: 2, active: 1, customEvents: [{ name: "purchase", count: 2 }] });
    expect(before.firstResponse.count).toBe(2);
    const next = await dashboard(owner.token, "from=2026-03-11&to=2026-03-11");
    expect(next).toMatchObject({ attendances: 1, receptive: 1, newContacts: 2, customEvents: [{ name: "purchase", count: 1 }] });
    expect(next.firstResponse).toEqual({ count: 0, medianMs: null, p90Ms: null });
    expect(next.series).toHaveLength(1);
  });

  it("counts a second close or a second answer of the same ticket once", async () => {
    const t = await ticket(companyId, "customer", sp("2026-04-01T10:00:00"));
    await recordFirstResponse(db, companyId, t.id, t.createdAt + 10_000);
    await recordFirstResponse(db, companyId, t.id, t.createdAt + 20_000);
    await recordResolution(db, t, t.createdAt + 60_000);
    await recordResolution(db, t, t.createdAt + 90_000);
    const answer = await dashboard(owner.token, "from=2026-04-01&to=2026-04-01");
    expect(answer.firstResponse).toEqual({ count: 1, medianMs: 10_000, p90Ms: 10_000 });
    expect(answer.resolution).toEqual({ count: 1, medianMs: 60_000, p90Ms: 60_000 });
  });

  it("counts a real inbound conversation, the member's answer and the close through the product's own paths", async () => {
    const other = await register({ companyName: "Loja Real" });
    const connection = await cloudConnection(other.token);
    await deliverOk(textWebhook(connection.phoneNumberId, uniqueWaId(), wamid(), "Olá, bom dia"));
    const t = await onlyTicket(other.token);
    await expectStatus(await call("POST", `/api/tickets/${t.id}/messages`, { token: other.token, body: { type: "text", body: "Bom dia! Como posso ajudar?" } }), 201);
    await expectStatus(await call("POST", `/api/tickets/${t.id}/messages`, { token: other.token, body: { type: "text", body: "Estou aqui." } }), 201);
    await expectStatus(await call("POST", `/api/tickets/${t.id}/close`, { token: other.token }), 200);
    await expectStatus(await call("POST", `/api/tickets/${t.id}/close`, { token: other.token }), 200);
    const answer = await dashboard(other.token, "");
    expect(answer).toMatchObject({ attendances: 1, receptive: 1, active: 0, contacts: 1, newContacts: 1 });
    expect(answer.firstResponse.count).toBe(1);
    expect(answer.resolution.count).toBe(1);
    expect(answer.series).toHaveLength(30);
    const row = await env.DB.prepare("SELECT origin, first_response_at FROM tickets WHERE id = ?").bind(t.id).first<{ origin: string; first_response_at: number | null }>();
    expect(row?.origin).toBe("customer");
    expect(row?.first_response_at).not.toBeNull();
  });

  it("answers 400 naming the field for a reversed range, more than 366 days, or a date that does not exist", async () => {
    await expectInvalid(await call("GET", "/api/dashboard?from=2026-03-10&to=2026-03-01", { token: owner.token }), "from", "after_to");
    await expectInvalid(await call("GET", "/api/dashboard?from=2025-01-01&to=2026-01-02", { token: owner.token }), "to", "range_too_long");
    await expectInvalid(await call("GET", "/api/dashboard?from=2026-02-30&to=2026-03-01", { token: owner.token }), "from", "invalid_date");
    await expectInvalid(await call("GET", "/api/dashboard?to=2026-3-1", { token: owner.token }), "to", "invalid_date");
    // 366 days, both ends included, is the longest range.
    const longest = await dashboard(owner.token, "from=2025-03-11&to=2026-03-11");
    expect(longest.series).toHaveLength(366);
  });

  it("answers 403 to a member without the dashboard permission and shows another company nothing of this one", async () => {
    const clerk = await member(owner, ["tickets"]);
    const res = await call("GET", "/api/dashboard?from=2026-03-01&to=2026-03-10", { token: clerk.token });
    expect(res.status, await res.text()).toBe(403);
    const stranger = await register({ companyName: "Outra Loja" });
    const theirs = await dashboard(stranger.token, "from=2026-03-01&to=2026-03-10");
    expect(theirs).toMatchObject({ attendances: 0, contacts: 0, newContacts: 0, customEvents: [] });
  });
});

describe("duration buckets and percentiles", () => {
  it("keeps seconds exact under 100 s and two significant digits above", () => {
    expect([0, 999, 1_000, 99_999, 100_000, 125_000, 3_600_000, 7_250_000].map(durationBucket)).toEqual([0, 0, 1, 99, 100, 120, 3600, 7200]);
    expect(percentile(new Map([[30, 1], [90, 1], [120, 1]]), 0.5)).toBe(90_000);
    expect(percentile(new Map(), 0.5)).toBeNull();
  });
});
