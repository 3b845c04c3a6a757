import { describe, expect, it } from "vitest";
import { env } from "cloudflare:test";
import { activeCompanyId, call, register } from "../test/helpers";
import { cloudConnection, deliverOk, textWebhook, uniqueWaId, wamid } from "../test/channel-helpers";
import { canSee, type HubViewer } from "./company-hub";

type Frame = { type: string; seq?: number; message?: { body: string } };

/** Opens the hub socket through the worker; collects every frame it receives. */
async function openHub(token: string, after?: number) {
  const query = `access_token=${encodeURIComponent(token)}${after !== undefined ? `&after=${after}` : ""}`;
  const res = await call("GET", `/api/ws/hub?${query}`, { headers: { Upgrade: "websocket" } });
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

describe("CompanyHub", () => {
  it("pushes a new inbound message to a connected member with a per-company sequence number", async () => {
    const owner = await register();
    const conn = await cloudConnection(owner.token);
    const { ws, frames } = await openHub(owner.token);
    await waitFor(() => frames, (f) => f.some((x) => x.type === "hello"));
    await deliverOk(textWebhook(conn.phoneNumberId, uniqueWaId(), wamid(), "Olá hub"));
    const created = await waitFor(() => frames.filter((f) => f.type === "message.created"), (f) => f.length > 0);
    expect(created[0]?.message?.body).toBe("Olá hub");
    const seqs = frames.filter((f) => typeof f.seq === "number" && f.type !== "hello").map((f) => f.seq ?? 0);
    expect(seqs.length).toBeGreaterThan(0);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    ws.close(1000, "done");
  });

  it("a client that reconnects with after=<seq> receives exactly what it missed, in order", async () => {
    const owner = await register();
    const conn = await cloudConnection(owner.token);
    const first = await openHub(owner.token);
    const hello = await waitFor(() => first.frames.find((f) => f.type === "hello"), (f) => f !== undefined);
    first.ws.close(1000, "going away");
    const from = uniqueWaId();
    for (const body of ["um", "dois", "três"]) await deliverOk(textWebhook(conn.phoneNumberId, from, wamid(), body));
    const second = await openHub(owner.token, hello?.seq ?? 0);
    const replayed = await waitFor(
      () => second.frames.filter((f) => f.type === "message.created").map((f) => f.message?.body),
      (bodies) => bodies.length >= 3,
    );
    expect(replayed).toEqual(["um", "dois", "três"]);
    const seqs = second.frames.filter((f) => f.type !== "hello").map((f) => f.seq ?? 0);
    expect(new Set(seqs).size).toBe(seqs.length);
    second.ws.close(1000, "done");
  });

  it("another company's member never receives this company's events", async () => {
    const a = await register();
    const b = await register();
    const conn = await cloudConnection(a.token);
    const own = await openHub(a.token);
    const other = await openHub(b.token);
    await waitFor(() => own.frames, (f) => f.some((x) => x.type === "hello"));
    await waitFor(() => other.frames, (f) => f.some((x) => x.type === "hello"));
    await deliverOk(textWebhook(conn.phoneNumberId, uniqueWaId(), wamid(), "secret"));
    // The event was published (company A's own member has it); then a control event on company B's
    // hub reaches B's member, so anything that went to B's hub before it has arrived too.
    await waitFor(() => own.frames, (f) => f.some((x) => x.type === "message.created" && x.message?.body === "secret"));
    const control = `control-${crypto.randomUUID()}`;
    await env.COMPANY_HUB.get(env.COMPANY_HUB.idFromName(await activeCompanyId(b.token))).publish({ type: "presence", userId: control, status: "online" });
    await waitFor(() => other.frames, (f) => f.some((x) => x.type === "presence"));
    expect(other.frames.filter((f) => f.type !== "hello" && f.type !== "presence")).toEqual([]);
    own.ws.close(1000, "done");
    other.ws.close(1000, "done");
  });

  it("without a token the hub answers 401", async () => {
    const res = await call("GET", "/api/ws/hub", { headers: { Upgrade: "websocket" } });
    expect(res.status).toBe(401);
  });
});

describe("canSee (spec §6 tickets, tickets_groups, see_all_tickets)", () => {
  const base: HubViewer = { userId: "u", memberId: "m", seeAll: false, groups: false, tickets: true };
  const ticket = (status: string, assignedMemberId: string | null, isGroup = false) => ({ ticket: { status, assignedMemberId, isGroup } });
  it("a member without see_all_tickets sees pending tickets and their own only", () => {
    expect(canSee(base, ticket("pending", null))).toBe(true);
    expect(canSee(base, ticket("open", "m"))).toBe(true);
    expect(canSee(base, ticket("open", "other"))).toBe(false);
    expect(canSee({ ...base, seeAll: true }, ticket("open", "other"))).toBe(true);
  });
  it("group chats need tickets_groups; tickets need tickets; other events reach everyone", () => {
    expect(canSee({ ...base, seeAll: true }, ticket("open", null, true))).toBe(false);
    expect(canSee({ ...base, seeAll: true, groups: true }, ticket("open", null, true))).toBe(true);
    expect(canSee({ ...base, tickets: false }, ticket("pending", null))).toBe(false);
    expect(canSee({ ...base, tickets: false }, {})).toBe(true);
  });
});
