/**
 * Platform administrators and announcements (issue 12): /api/admin/announcements is theirs alone
 * (403 for anyone else, whatever their company role), GET /api/me says who is one, members read the
 * announcements by `code` inside their dates until they mark them seen; and the online/offline
 * toggle reaches the team live through the company hub.
 */
import { describe, expect, it, beforeAll } from "vitest";
import type { AnnouncementAnswer, MeAnswer } from "../../schema/api-types";
import type { HubEvent } from "../../schema/realtime";
import type { AdminAnnouncementAnswer } from "../../schema/validation/announcements";
import { call, expectError, expectInvalid, expectStatus, member, register, type Account } from "../test/helpers";
import { exports } from "cloudflare:workers";
import { cloudConnection, deliverOk, textWebhook, uniqueWaId, wamid } from "../test/channel-helpers";

let admin: Account;
let owner: Account;

beforeAll(async () => {
  admin = await register({ email: "platform-admin@conversa.test", companyName: "Plataforma" });
  owner = await register({ companyName: "Padaria da Esquina" });
});

async function create(body: Record<string, unknown>): Promise<AdminAnnouncementAnswer> {
  return expectStatus<AdminAnnouncementAnswer>(await call("POST", "/api/admin/announcements", { token: admin.token, body }), 201);
}

async function announcementsOf(token: string, code?: string): Promise<AnnouncementAnswer[]> {
  const res = await call("GET", `/api/me/announcements${code ? `?code=${code}` : ""}`, { token });
  return (await expectStatus<{ results: AnnouncementAnswer[] }>(res, 200)).results;
}

describe("platform administrators", () => {
  it("GET /api/me says platformAdmin for the e-mails of PLATFORM_ADMINS only (any case)", async () => {
    expect((await expectStatus<MeAnswer>(await call("GET", "/api/me", { token: admin.token }), 200)).platformAdmin).toBe(true);
    expect((await expectStatus<MeAnswer>(await call("GET", "/api/me", { token: owner.token }), 200)).platformAdmin).toBe(false);
    const second = await register({ email: "second-admin@conversa.test", companyName: "Outra plataforma" });
    expect((await expectStatus<MeAnswer>(await call("GET", "/api/me", { token: second.token }), 200)).platformAdmin).toBe(true);
  });

  it("answers 403 to a company owner who is not a platform administrator, on every admin route", async () => {
    const one = await create({ title: "Manutenção", body: "Sábado às 22h." });
    for (const [method, path, body] of [
      ["GET", "/api/admin/announcements", undefined],
      ["POST", "/api/admin/announcements", { title: "x", body: "y" }],
      ["GET", `/api/admin/announcements/${one.id}`, undefined],
      ["PUT", `/api/admin/announcements/${one.id}`, { title: "x", body: "y" }],
      ["DELETE", `/api/admin/announcements/${one.id}`, undefined],
    ] as const) {
      await expectError(await call(method, path, { token: owner.token, body }), 403, "forbidden");
    }
    await expectError(await call("GET", "/api/admin/announcements"), 401, "unauthorized");
    // Nothing changed.
    expect((await expectStatus<AdminAnnouncementAnswer>(await call("GET", `/api/admin/announcements/${one.id}`, { token: admin.token }), 200)).title).toBe("Manutenção");
  });
});

describe("/api/admin/announcements", () => {
  it("creates, lists, reads, updates and deletes an announcement", async () => {
    const made = await create({ title: "Novidade", body: "Veja em https://example.com/novidades.", code: "dashboard", audience: "all" });
    expect(made).toMatchObject({ title: "Novidade", code: "dashboard", audience: "all", startsAt: null, endsAt: null, url: null });
    const list = await expectStatus<{ results: AdminAnnouncementAnswer[]; total: number }>(await call("GET", "/api/admin/announcements", { token: admin.token }), 200);
    expect(list.results.map((a) => a.id)).toContain(made.id);
    const updated = await expectStatus<AdminAnnouncementAnswer>(
      await call("PUT", `/api/admin/announcements/${made.id}`, { token: admin.token, body: { title: "Novidade 2", body: "Texto", code: "" } }),
      200,
    );
    expect(updated).toMatchObject({ title: "Novidade 2", code: null });
    expect(updated.updatedAt).toBeGreaterThanOrEqual(made.updatedAt);
    await expectStatus(await call("DELETE", `/api/admin/announcements/${made.id}`, { token: admin.token }), 204);
    await expectError(await call("GET", `/api/admin/announcements/${made.id}`, { token: admin.token }), 404, "not_found");
    await expectError(await call("DELETE", `/api/admin/announcements/${made.id}`, { token: admin.token }), 404, "not_found");
  });

  it("answers 400 naming the field for a missing title, a bad code or link, and an end before the start", async () => {
    await expectInvalid(await call("POST", "/api/admin/announcements", { token: admin.token, body: { body: "x" } }), "title", "required");
    await expectInvalid(await call("POST", "/api/admin/announcements", { token: admin.token, body: { title: "x", body: "y", code: "Dash Board" } }), "code", "invalid_slug");
    await expectInvalid(await call("POST", "/api/admin/announcements", { token: admin.token, body: { title: "x", body: "y", url: "javascript:alert(1)" } }), "url", "invalid_url");
    await expectInvalid(
      await call("POST", "/api/admin/announcements", { token: admin.token, body: { title: "x", body: "y", startsAt: 2_000, endsAt: 1_000 } }),
      "endsAt",
      "before_start",
    );
  });
});

describe("members read announcements", () => {
  it("by code: a dashboard one on the dashboard only, one for everywhere on both; seen hides it for that user only", async () => {
    const dash = await create({ title: "Painel novo", body: "Gráficos por dia.", code: "dashboard" });
    const everywhere = await create({ title: "Para todos", body: "Olá a todos." });
    const onDashboard = (await announcementsOf(owner.token, "dashboard")).map((a) => a.id);
    expect(onDashboard).toEqual(expect.arrayContaining([dash.id, everywhere.id]));
    const inBell = (await announcementsOf(owner.token)).map((a) => a.id);
    expect(inBell).toContain(everywhere.id);
    expect(inBell).not.toContain(dash.id);

    await expectStatus(await call("POST", "/api/me/announcements/seen", { token: owner.token, body: { id: dash.id } }), 204);
    expect((await announcementsOf(owner.token, "dashboard")).map((a) => a.id)).not.toContain(dash.id);
    const colleague = await member(owner, ["dashboard"]);
    expect((await announcementsOf(colleague.token, "dashboard")).map((a) => a.id)).toContain(dash.id);
  });

  it("only inside their dates: not before startsAt, not from endsAt on", async () => {
    const now = Date.now();
    const future = await create({ title: "Em breve", body: "x", code: "dashboard", startsAt: now + 3_600_000 });
    const past = await create({ title: "Já foi", body: "x", code: "dashboard", startsAt: now - 7_200_000, endsAt: now - 3_600_000 });
    const current = await create({ title: "Agora", body: "x", code: "dashboard", startsAt: now - 3_600_000, endsAt: now + 3_600_000 });
    const ids = (await announcementsOf(owner.token, "dashboard")).map((a) => a.id);
    expect(ids).toContain(current.id);
    expect(ids).not.toContain(future.id);
    expect(ids).not.toContain(past.id);
  });
});

/** Opens a hub socket for `token` and collects its events. */
async function hubSocket(token: string): Promise<{ events: HubEvent[]; close: () => void }> {
  const res = await exports.default.fetch(new Request(`http://localhost/api/ws/hub?access_token=${encodeURIComponent(token)}`, { headers: { Upgrade: "websocket" } }));
  expect(res.status).toBe(101);
  const ws = res.webSocket!;
  ws.accept();
  const events: HubEvent[] = [];
  ws.addEventListener("message", (e) => events.push(JSON.parse(String(e.data))));
  return { events, close: () => ws.close() };
}

async function waitFor(events: HubEvent[], check: (e: HubEvent) => boolean, what: string): Promise<HubEvent> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const found = events.find(check);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no ${what} in ${JSON.stringify(events.map((e) => e.type))}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("online status", () => {
  it("alerts only the online members about a new waiting conversation, and the toggle reaches the team live", async () => {
    const boss = await register({ companyName: "Oficina" });
    const colleague = await member(boss, ["tickets"]);
    await expectStatus(await call("PUT", "/api/user/change-status", { token: boss.token, body: { status: "online" } }), 200);
    await expectStatus(await call("PUT", "/api/user/change-status", { token: colleague.token, body: { status: "offline" } }), 200);
    const bossHub = await hubSocket(boss.token);
    const colleagueHub = await hubSocket(colleague.token);
    const connection = await cloudConnection(boss.token);

    await deliverOk(textWebhook(connection.phoneNumberId, uniqueWaId(), wamid(), "Oi, preciso de ajuda", 1_700_000_000, "Carla"));
    const waiting = await waitFor(bossHub.events, (e) => e.type === "ticket.waiting", "ticket.waiting for the online owner");
    expect(waiting).toMatchObject({ type: "ticket.waiting", contactName: "Carla" });
    // The offline colleague's list still gets the ticket, but no alert.
    await waitFor(colleagueHub.events, (e) => e.type === "ticket.updated", "ticket.updated for the offline colleague");
    expect(colleagueHub.events.some((e) => e.type === "ticket.waiting")).toBe(false);

    const me = await expectStatus<MeAnswer>(await call("PUT", "/api/user/change-status", { token: colleague.token }), 200);
    expect(me.status).toBe("online");
    expect(await waitFor(bossHub.events, (e) => e.type === "presence", "presence")).toMatchObject({ type: "presence", userId: colleague.userId, status: "online" });
    const online = await expectStatus<{ userId: string }[]>(await call("GET", "/api/companies/members/active", { token: boss.token }), 200);
    expect(online.map((m) => m.userId)).toContain(colleague.userId);

    await deliverOk(textWebhook(connection.phoneNumberId, uniqueWaId(), wamid(), "Olá", 1_700_000_100, "Davi"));
    await waitFor(colleagueHub.events, (e) => e.type === "ticket.waiting" && e.contactName === "Davi", "ticket.waiting for the colleague now online");
    bossHub.close();
    colleagueHub.close();
  });
});
