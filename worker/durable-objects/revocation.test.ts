/**
 * Sessions end everywhere at once (issue 8 §3): the hub and ticket sockets of a member are closed
 * within 1 s when the member is removed, their roles or a role's permissions change, they log out
 * or reset their password; a socket whose session was revoked while its upgrade was in flight is
 * refused; an expired token's socket is closed. Real sockets through the worker's fetch handler.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, countRows, expectError, expectStatus, member, register, until, type Account } from "../test/helpers";
import { cloudConnection, deliverOk, textWebhook, uniqueWaId, wamid } from "../test/channel-helpers";
import type { HubSocket } from "./company-hub";

type Frame = { type: string; seq?: number; ticketId?: string; message?: { body: string; ticketId: string } };
type Closed = { code: number; reason: string; at: number };
type Socket = { ws: WebSocket; frames: Frame[]; closed: () => Closed | null };

/** Accepts the client end of an upgrade answer; records frames and the close. */
function track(res: Response): Socket {
  if (res.status !== 101 || !res.webSocket) throw new Error(`expected 101 with a WebSocket, got ${res.status}`);
  const ws = res.webSocket;
  const frames: Frame[] = [];
  let closed: Closed | null = null;
  ws.accept();
  ws.addEventListener("message", (e) => {
    frames.push(JSON.parse(String(e.data)));
  });
  ws.addEventListener("close", (e) => {
    closed = { code: e.code, reason: e.reason, at: Date.now() };
  });
  return { ws, frames, closed: () => closed };
}

async function upgrade(path: string, token: string): Promise<Response> {
  return call("GET", `${path}${path.includes("?") ? "&" : "?"}access_token=${encodeURIComponent(token)}`, { headers: { Upgrade: "websocket" } });
}

async function openHub(token: string): Promise<Socket> {
  const socket = track(await upgrade("/api/ws/hub", token));
  await waitFor(() => socket.frames.some((f) => f.type === "hello"), "hello");
  return socket;
}

async function openRoom(token: string, ticketId: string): Promise<Socket> {
  return track(await upgrade(`/api/ws/tickets/${ticketId}`, token));
}

async function waitFor(check: () => boolean, what: string, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Waits (at most 1 s after `since`) for the socket to be closed; answers the close. */
async function closedWithin1s(socket: Socket, since: number): Promise<Closed> {
  await waitFor(() => socket.closed() !== null, "the socket to close", Math.max(0, since + 1000 - Date.now()));
  const closed = socket.closed()!;
  expect(closed.at - since).toBeLessThanOrEqual(1000);
  return closed;
}

/** A company with a Cloud API connection and one pending ticket from a customer; answers its id. */
async function companyWithTicket(owner: Account) {
  const conn = await cloudConnection(owner.token);
  const customer = uniqueWaId();
  await deliverOk(textWebhook(conn.phoneNumberId, customer, wamid(), "Olá"));
  const companyId = (await expectStatus<{ id: string }>(await call("GET", "/api/companies/active", { token: owner.token }), 200)).id;
  const row = await env.DB.prepare("SELECT id FROM tickets WHERE company_id = ? ORDER BY created_at DESC LIMIT 1").bind(companyId).first<{ id: string }>();
  if (!row) throw new Error("no ticket was created");
  /** A customer message into the same ticket. */
  const customerWrites = (body: string) => deliverOk(textWebhook(conn.phoneNumberId, customer, wamid(), body));
  /** A message from a new customer (a new pending ticket). */
  const newCustomerWrites = (body: string) => deliverOk(textWebhook(conn.phoneNumberId, uniqueWaId(), wamid(), body));
  return { companyId, ticketId: row.id, customerWrites, newCustomerWrites };
}

const bodies = (s: Socket) => s.frames.filter((f) => f.type === "message.created").map((f) => f.message?.body);

/**
 * The positive control of a "this socket received nothing" check: publishes a presence event that
 * reaches every member on the company's hub and waits until `socket` has it. The hub sends its
 * events to a socket in order, so everything published before has reached the socket by then.
 */
async function settled(companyId: string, socket: Socket): Promise<void> {
  const userId = `control-${crypto.randomUUID()}`;
  await env.COMPANY_HUB.get(env.COMPANY_HUB.idFromName(companyId)).publish({ type: "presence", userId, status: "online" });
  await waitFor(() => socket.frames.some((f) => f.type === "presence" && (f as { userId?: string }).userId === userId), "the control event");
}

describe("sockets end with the session or the access they were opened with", () => {
  it("removing a member closes their hub and ticket sockets within 1 s (4003) and no customer message reaches them after", async () => {
    const owner = await register();
    const t = await companyWithTicket(owner);
    const m = await member(owner, ["tickets", "see_all_tickets"]);
    const hub = await openHub(m.token);
    const room = await openRoom(m.token, t.ticketId);
    const watcher = await openHub(owner.token);
    await t.customerWrites("before");
    await waitFor(() => bodies(hub).includes("before"), "the member's hub to receive the message");

    const since = Date.now();
    await expectStatus(await call("DELETE", `/api/companies/members/${m.memberId}`, { token: owner.token }), 204);
    for (const socket of [hub, room]) {
      const closed = await closedWithin1s(socket, since);
      expect(closed).toMatchObject({ code: 4003, reason: "membership_ended" });
    }
    const seen = hub.frames.length + room.frames.length;
    await t.customerWrites("after");
    await waitFor(() => bodies(watcher).includes("after"), "the owner to receive the later message");
    // Closed sockets receive nothing more: the owner's socket already has the later message and a
    // control event published after it.
    await settled(t.companyId, watcher);
    expect(hub.frames.length + room.frames.length).toBe(seen);
    // The same token no longer opens the company's ticket (the member's active company moved on).
    expect((await upgrade(`/api/ws/tickets/${t.ticketId}`, m.token)).status).toBe(404);
  });

  it("editing a role to drop `tickets` closes its holders' sockets (4003); the new socket no longer receives ticket events", async () => {
    const owner = await register();
    const t = await companyWithTicket(owner);
    const m = await member(owner, ["tickets", "see_all_tickets"]);
    const hub = await openHub(m.token);
    const room = await openRoom(m.token, t.ticketId);
    const watcher = await openHub(owner.token);

    const since = Date.now();
    const edit = { name: "Sem tickets", description: "", permissions: ["crm"] };
    await expectStatus(await call("PUT", `/api/companies/roles/${m.roleId}`, { token: owner.token, body: edit }), 200);
    for (const socket of [hub, room]) expect(await closedWithin1s(socket, since)).toMatchObject({ code: 4003, reason: "permissions_changed" });

    // The client reconnects and gets the new permissions: no ticket events, no ticket room.
    const again = await openHub(m.token);
    await t.newCustomerWrites("nova conversa");
    await t.customerWrites("mesma conversa");
    await waitFor(() => bodies(watcher).includes("nova conversa") && bodies(watcher).includes("mesma conversa"), "the owner's events");
    await settled(t.companyId, again);
    expect(bodies(again)).toEqual([]);
    expect(again.frames.filter((f) => f.type === "ticket.updated")).toEqual([]);
    expect(again.closed()).toBeNull();
    await expectError(await upgrade(`/api/ws/tickets/${t.ticketId}`, m.token), 403, "forbidden");
    again.ws.close(1000, "done");
  });

  it("changing a member's roles to one without see_all_tickets closes their sockets; they stop seeing others' open tickets", async () => {
    const owner = await register();
    const t = await companyWithTicket(owner);
    const m = await member(owner, ["tickets", "see_all_tickets"]);
    const narrow = await expectStatus<{ id: string }>(
      await call("POST", "/api/companies/roles", { token: owner.token, body: { name: `Só os meus ${Date.now()}`, description: "", permissions: ["tickets"] } }),
      201,
    );
    // The owner takes the ticket: open and assigned to the owner, outside what the narrow role sees.
    await expectStatus(await call("POST", `/api/tickets/${t.ticketId}/open`, { token: owner.token }), 200);
    const hub = await openHub(m.token);
    const room = await openRoom(m.token, t.ticketId);

    const since = Date.now();
    await expectStatus(await call("PUT", `/api/companies/members/${m.memberId}`, { token: owner.token, body: { roles: [narrow.id] } }), 200);
    for (const socket of [hub, room]) expect(await closedWithin1s(socket, since)).toMatchObject({ code: 4003, reason: "permissions_changed" });

    const again = await openHub(m.token);
    const watcher = await openHub(owner.token);
    await t.customerWrites("só para quem atende");
    await waitFor(() => bodies(watcher).includes("só para quem atende"), "the owner's event");
    await settled(t.companyId, again);
    expect(bodies(again)).toEqual([]);
    await expectError(await upgrade(`/api/ws/tickets/${t.ticketId}`, m.token), 404, "not_found");
    again.ws.close(1000, "done");
  });

  it("deleting a role closes its holders' sockets (4003)", async () => {
    const owner = await register();
    await companyWithTicket(owner);
    const m = await member(owner, ["tickets"]);
    const hub = await openHub(m.token);
    const since = Date.now();
    await expectStatus(await call("DELETE", `/api/companies/roles/${m.roleId}`, { token: owner.token }), 204);
    expect(await closedWithin1s(hub, since)).toMatchObject({ code: 4003, reason: "permissions_changed" });
  });

  it("logout closes the user's sockets in every company they belong to (4001) and the old token opens none", async () => {
    const owner = await register();
    const t = await companyWithTicket(owner);
    const m = await member(owner, ["tickets"]);
    const inOwners = await openHub(m.token);
    const room = await openRoom(m.token, t.ticketId);
    // The member's own company too: same token, other active company.
    const ownCompany = await env.DB.prepare("SELECT company_id FROM members WHERE user_id = ? AND company_id <> ?")
      .bind(m.userId, m.companyId)
      .first<{ company_id: string }>();
    await expectStatus(await call("PUT", "/api/me/change-active", { token: m.token, body: { companyId: ownCompany!.company_id } }), 200);
    const inOwn = await openHub(m.token);

    const since = Date.now();
    await expectStatus(await call("POST", "/api/logout", { token: m.token }), 204);
    for (const socket of [inOwners, room, inOwn]) expect(await closedWithin1s(socket, since)).toMatchObject({ code: 4001, reason: "session_revoked" });
    await expectError(await upgrade("/api/ws/hub", m.token), 401, "unauthorized");
  });

  it("a password reset closes the sockets of earlier sessions (4001); the new session's socket stays open", async () => {
    const owner = await register();
    const t = await companyWithTicket(owner);
    const hub = await openHub(owner.token);
    const room = await openRoom(owner.token, t.ticketId);
    const before = await countRows("mail_outbox", "to_address = ?", owner.email);
    await expectStatus(await call("POST", "/api/forgot-password", { body: { email: owner.email } }), 200);
    await until(async () => (await countRows("mail_outbox", "to_address = ?", owner.email)) > before, 2_000, "the reset mail");
    const mail = await env.DB.prepare("SELECT body_text FROM mail_outbox WHERE to_address = ? ORDER BY created_at DESC, rowid DESC LIMIT 1")
      .bind(owner.email)
      .first<{ body_text: string }>();
    const resetToken = decodeURIComponent(/reset-password\?token=(\S+)/.exec(mail?.body_text ?? "")?.[1] ?? "");

    const since = Date.now();
    const { token } = await expectStatus<{ token: string }>(
      await call("POST", "/api/reset-password", { body: { token: resetToken, password: "a brand new password" } }),
      200,
    );
    for (const socket of [hub, room]) expect(await closedWithin1s(socket, since)).toMatchObject({ code: 4001, reason: "session_revoked" });
    const fresh = await openHub(token);
    await t.customerWrites("depois da troca");
    await waitFor(() => bodies(fresh).includes("depois da troca"), "the new session's socket to receive the message");
    expect(fresh.closed()).toBeNull();
    fresh.ws.close(1000, "done");
  });
});

describe("the hub tracks the ticket rooms a user has open", () => {
  it("opening a ticket socket registers the room; closing the last one unregisters it", async () => {
    const owner = await register();
    const t = await companyWithTicket(owner);
    const userId = (await expectStatus<{ id: string }>(await call("GET", "/api/me", { token: owner.token }), 200)).id;
    const hub = env.COMPANY_HUB.get(env.COMPANY_HUB.idFromName(t.companyId));
    const rooms = () =>
      runInDurableObject(hub, (_o, state) =>
        state.storage.sql.exec<{ ticket_id: string }>("SELECT ticket_id FROM room_viewers WHERE user_id = ?", userId).toArray().map((r) => r.ticket_id),
      );
    const first = await openRoom(owner.token, t.ticketId);
    const second = await openRoom(owner.token, t.ticketId);
    expect(await rooms()).toEqual([t.ticketId]);
    first.ws.close(1000, "bye");
    // Wait until the room has handled the first close (one socket left open), then check.
    const room = env.TICKET_ROOM.get(env.TICKET_ROOM.idFromName(t.ticketId));
    const openInRoom = () => runInDurableObject(room, (_o, state) => state.getWebSockets().filter((w) => w.readyState === WebSocket.OPEN).length);
    await until(async () => (await openInRoom()) === 1, 3_000, "the room to handle the first close");
    expect(await rooms()).toEqual([t.ticketId]);
    second.ws.close(1000, "bye");
    await until(async () => (await rooms()).length === 0, 3_000, "the room to be unregistered");
    expect(await rooms()).toEqual([]);
  });
});

describe("an upgrade racing a revocation is refused at the hub", () => {
  async function setup() {
    const owner = await register();
    const me = await expectStatus<{ id: string }>(await call("GET", "/api/me", { token: owner.token }), 200);
    const companyId = (await expectStatus<{ id: string }>(await call("GET", "/api/companies/active", { token: owner.token }), 200)).id;
    const hub = env.COMPANY_HUB.get(env.COMPANY_HUB.idFromName(companyId));
    const memberRow = await env.DB.prepare("SELECT id FROM members WHERE company_id = ? AND user_id = ?").bind(companyId, me.id).first<{ id: string }>();
    const viewer = (over: Partial<HubSocket> = {}): HubSocket => ({
      userId: me.id,
      memberId: memberRow!.id,
      seeAll: true,
      groups: true,
      tickets: true,
      crm: true,
      ver: 0,
      checkedAt: Date.now(),
      expiresAt: Date.now() + 3_600_000,
      ...over,
    });
    const connect = async (v: HubSocket) =>
      track(await hub.fetch(new Request("https://hub/connect", { headers: { Upgrade: "websocket", "X-Hub-Viewer": JSON.stringify(v) } })));
    return { hub, viewer, connect, userId: me.id };
  }

  it("a socket authorised with a token version older than a kept revocation is closed at once (4001)", async () => {
    const { hub, viewer, connect, userId } = await setup();
    await hub.revoke({ userId, minVersion: 1 });
    const old = await connect(viewer({ ver: 0 }));
    await waitFor(() => old.closed() !== null, "the stale socket to close", 1000);
    expect(old.closed()).toMatchObject({ code: 4001, reason: "session_revoked" });
    expect(old.frames.filter((f) => f.type === "hello")).toEqual([]);
    const current = await connect(viewer({ ver: 1 }));
    await waitFor(() => current.frames.some((f) => f.type === "hello"), "hello on the current version");
    expect(current.closed()).toBeNull();
    current.ws.close(1000, "done");
  });

  it("a socket whose permissions were read before an access change is closed at once (4003)", async () => {
    const { hub, viewer, connect, userId } = await setup();
    const checkedAt = Date.now() - 5;
    await hub.revoke({ userId, accessChanged: true, reason: "membership_ended" });
    const stale = await connect(viewer({ checkedAt }));
    await waitFor(() => stale.closed() !== null, "the stale socket to close", 1000);
    expect(stale.closed()).toMatchObject({ code: 4003, reason: "membership_ended" });
  });

  it("a socket whose token expires is closed (4001 session_expired) instead of receiving the next event", async () => {
    const { hub, viewer, connect } = await setup();
    const expiresAt = Date.now() + 150;
    const socket = await connect(viewer({ expiresAt }));
    await waitFor(() => socket.frames.some((f) => f.type === "hello"), "hello");
    await until(() => Date.now() > expiresAt, 1_000, "the token to expire");
    await hub.publish({ type: "presence", userId: "someone", status: "online" });
    await waitFor(() => socket.closed() !== null, "the expired socket to close", 1000);
    expect(socket.closed()).toMatchObject({ code: 4001, reason: "session_expired" });
    expect(socket.frames.filter((f) => f.type === "presence")).toEqual([]);
  });
});
