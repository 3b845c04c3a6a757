/**
 * BroadcastScheduler (issue 10 "Broadcasts", "Tests"): every recipient sent or rejected exactly
 * once through the Graph API stand-in, also when the alarm throws halfway and is retried, and across
 * pause and resume; WhatsApp's rules as the stand-in's timestamps show them (the delay preset's
 * minimum between two sends of a connection, the pair gap between two messages to one user, both
 * at the test-only BROADCAST_DELAY_SCALE of vitest.config.mts); the 24 h window; 131056 backed off
 * and retried.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { BroadcastDetail, BroadcastRecipientRow } from "../../schema/validation/broadcasts";
import type { Page } from "../../schema/api-types";
import { DELAY_RANGES } from "../../schema/validation/broadcasts";
import { delayScale, pairGapMs } from "../lib/broadcasts-limits";
import { schedulerOf } from "../lib/broadcasts";
import { cloudConnection, standInSent, type StandInRecord } from "../test/channel-helpers";
import { flowDoc, publishedFlow } from "../test/flow-helpers";
import { call, expectStatus, register } from "../test/helpers";

type Setup = { token: string; companyId: string; connectionId: string; phoneNumberId: string; flowId: string };

/** A company with a Cloud API connection (registered in the stand-in) and a published one-message flow. */
async function setup(): Promise<Setup> {
  const owner = await register({ companyName: "Loja Broadcast" });
  const companyId = (await expectStatus<{ id: string }>(await call("GET", "/api/companies/active", { token: owner.token }), 200)).id;
  const connection = await cloudConnection(owner.token);
  const { flow } = await publishedFlow(owner.token, flowDoc([{ id: "t", type: "text", data: { message: "Promoção de hoje!" } }], [["start", "next", "t"]]), "Campanha");
  return { token: owner.token, companyId, connectionId: connection.id, phoneNumberId: connection.phoneNumberId, flowId: flow.id };
}

let phoneCounter = 0;

/**
 * Inserts `n` contacts straight into D1 (the API would take minutes for 500). Contact `i` wrote to
 * the connection 1 h ago (inside the 24 h window) when `inWindow(i)`; answers their wa ids.
 */
async function seedContacts(s: Setup, n: number, inWindow: (i: number) => boolean = () => true): Promise<string[]> {
  const at = Date.now();
  const waIds: string[] = [];
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < n; i++) {
    phoneCounter += 1;
    // Phones are unique per company; the stand-in's records are told apart by phone number id.
    const phone = `+551196${String(phoneCounter).padStart(7, "0")}`;
    waIds.push(phone.slice(1));
    const contactId = crypto.randomUUID();
    statements.push(
      env.DB.prepare("INSERT INTO contacts (id, company_id, name, phone, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)").bind(contactId, s.companyId, `Cliente ${i}`, phone, at, at),
    );
    if (inWindow(i)) {
      statements.push(
        env.DB.prepare(
          "INSERT INTO messages (id, company_id, ticket_id, contact_id, connection_id, direction, type, body, status, sent_at, seq, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'in', 'text', 'oi', 'received', ?, 1, ?, ?)",
        ).bind(crypto.randomUUID(), s.companyId, crypto.randomUUID(), contactId, s.connectionId, at - 3_600_000, at, at),
      );
    }
  }
  for (let i = 0; i < statements.length; i += 90) await env.DB.batch(statements.slice(i, i + 90));
  return waIds;
}

async function createBroadcast(s: Setup, body: Record<string, unknown> = {}): Promise<BroadcastDetail> {
  return expectStatus<BroadcastDetail>(
    await call("POST", "/api/broadcasts", { token: s.token, body: { name: "Black Friday", connectionId: s.connectionId, flowId: s.flowId, delay: "very_short", filters: [], ...body } }),
    201,
  );
}

async function getBroadcast(s: Setup, id: string): Promise<BroadcastDetail> {
  return expectStatus<BroadcastDetail>(await call("GET", `/api/broadcasts/${id}`, { token: s.token }), 200);
}

/** Polls the broadcast until `check` passes (at most `ms`). */
async function waitFor(s: Setup, id: string, check: (b: BroadcastDetail) => boolean, ms: number): Promise<BroadcastDetail> {
  const end = Date.now() + ms;
  let last = await getBroadcast(s, id);
  while (!check(last)) {
    if (Date.now() > end) throw new Error(`timed out; last: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 100));
    last = await getBroadcast(s, id);
  }
  return last;
}

/** The accepted message sends of the connection (read receipts and refused sends excluded), in order. */
async function acceptedSends(phoneNumberId: string): Promise<(StandInRecord & { responseId?: string; status?: number })[]> {
  const all: (StandInRecord & { responseId?: string; status?: number })[] = await standInSent();
  return all
    .filter((r) => r.method === "POST" && r.path.endsWith(`/${phoneNumberId}/messages`) && typeof r.body === "object" && r.body !== null && r.body.status === undefined)
    .filter((r) => r.status === undefined || r.status < 400)
    .sort((a, b) => a.at - b.at);
}

/**
 * The accepted sends once `n` arrived (the ticket rooms send after the scheduler hands off, and
 * retry transient failures after a backoff), or what arrived after 30 s.
 */
async function sendsWhen(phoneNumberId: string, n: number): Promise<(StandInRecord & { responseId?: string; status?: number })[]> {
  const end = Date.now() + 30_000;
  let sends = await acceptedSends(phoneNumberId);
  while (sends.length < n && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 200));
    sends = await acceptedSends(phoneNumberId);
  }
  // A moment more, so a duplicate would show too.
  await new Promise((r) => setTimeout(r, 300));
  return acceptedSends(phoneNumberId);
}

function recipientOf(r: StandInRecord): string {
  return typeof r.body === "object" && r.body !== null ? String(r.body.to ?? r.body.recipient ?? "") : "";
}

/** How many accepted sends each recipient got. */
function sendsPerRecipient(sends: StandInRecord[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of sends) counts.set(recipientOf(r), (counts.get(recipientOf(r)) ?? 0) + 1);
  return counts;
}

async function recipients(s: Setup, id: string, status: string): Promise<BroadcastRecipientRow[]> {
  const out: BroadcastRecipientRow[] = [];
  let cursor: string | null = null;
  do {
    const page: Page<BroadcastRecipientRow> = await expectStatus<Page<BroadcastRecipientRow>>(
      await call("GET", `/api/broadcasts/${id}/recipients?status=${status}&limit=200${cursor ? `&cursor=${cursor}` : ""}`, { token: s.token }),
      200,
    );
    out.push(...page.results);
    cursor = page.cursor;
  } while (cursor);
  return out;
}

// The scale vitest.config.mts gives the worker (read as the worker reads it).
const scale = delayScale({ ENVIRONMENT: "test", BROADCAST_DELAY_SCALE: String(Reflect.get(env, "BROADCAST_DELAY_SCALE") ?? "") });
const minGap = DELAY_RANGES.very_short.min * 1000 * scale;

describe("BroadcastScheduler", () => {
  it("scales the delays in tests (the assertions below use the scaled minimum)", () => {
    expect(scale).toBe(0.01);
  });

  it(
    "500 recipients through the Graph API stand-in: sent + rejected = 500, each sent once, never two sends of the connection closer than the preset's minimum; those outside the 24 h window are rejected as outside_window",
    { timeout: 1_200_000 },
    async () => {
      const s = await setup();
      const waIds = await seedContacts(s, 500, (i) => i % 10 !== 0);
      const broadcast = await createBroadcast(s);
      await expectStatus(await call("POST", `/api/broadcasts/${broadcast.id}/start`, { token: s.token }), 200);
      const done = await waitFor(s, broadcast.id, (b) => b.status === "done", 1_180_000);
      expect(done.counts).toMatchObject({ total: 500, sent: 450, rejected: 50, pending: 0 });

      const sends = await sendsWhen(s.phoneNumberId, 450);
      const perRecipient = sendsPerRecipient(sends);
      expect(sends.length).toBe(450);
      expect([...perRecipient.values()].every((n) => n === 1)).toBe(true);
      const inWindow = new Set(waIds.filter((_, i) => i % 10 !== 0));
      expect([...perRecipient.keys()].every((to) => inWindow.has(to))).toBe(true);
      for (let i = 1; i < sends.length; i++) {
        const gap = (sends[i]?.at ?? 0) - (sends[i - 1]?.at ?? 0);
        expect(gap, `sends ${i - 1} and ${i}`).toBeGreaterThanOrEqual(minGap);
      }
      const rejected = await recipients(s, broadcast.id, "rejected");
      expect(rejected.length).toBe(50);
      expect(rejected.every((r) => r.reason === "outside_window")).toBe(true);
    },
  );

  it("the alarm throwing halfway (the flow started, the recipient not yet marked) is retried: each recipient sent exactly once, none skipped", { timeout: 300_000 }, async () => {
    const s = await setup();
    await seedContacts(s, 40);
    const broadcast = await createBroadcast(s);
    // Armed before the start: the next 5 alarms throw right after starting a recipient's flow.
    expect(await schedulerOf(env, broadcast.id).armFaults("alarm", 5)).toBe(true);
    await expectStatus(await call("POST", `/api/broadcasts/${broadcast.id}/start`, { token: s.token }), 200);
    const done = await waitFor(s, broadcast.id, (b) => b.status === "done", 280_000);
    expect(done.counts).toMatchObject({ total: 40, sent: 40, rejected: 0 });
    const perRecipient = sendsPerRecipient(await sendsWhen(s.phoneNumberId, 40));
    expect(perRecipient.size).toBe(40);
    expect([...perRecipient.values()].every((n) => n === 1)).toBe(true);
  });

  it("pause stops at once and resume continues: nothing is sent twice, nothing skipped", { timeout: 300_000 }, async () => {
    const s = await setup();
    await seedContacts(s, 40);
    const broadcast = await createBroadcast(s);
    await expectStatus(await call("POST", `/api/broadcasts/${broadcast.id}/start`, { token: s.token }), 200);
    await waitFor(s, broadcast.id, (b) => b.counts.sent >= 8, 60_000);
    const paused = await expectStatus<BroadcastDetail>(await call("POST", `/api/broadcasts/${broadcast.id}/pause`, { token: s.token }), 200);
    expect(paused.status).toBe("paused");
    const pausedAt = Date.now();
    // The recipient whose send was committed before the pause may still finish; no other starts.
    await new Promise((r) => setTimeout(r, 1_500));
    const whilePaused = await getBroadcast(s, broadcast.id);
    expect(whilePaused.counts.sent).toBeLessThanOrEqual(paused.counts.sent + 1);
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await getBroadcast(s, broadcast.id)).counts.sent).toBe(whilePaused.counts.sent);
    expect(whilePaused.counts.sent).toBeLessThan(40);
    const committedAfterPause = await env.DB.prepare("SELECT COUNT(*) AS n FROM broadcast_recipients WHERE broadcast_id = ? AND sending_at > ?").bind(broadcast.id, pausedAt).first<{ n: number }>();
    expect(committedAfterPause?.n).toBe(0);

    await expectStatus(await call("POST", `/api/broadcasts/${broadcast.id}/resume`, { token: s.token }), 200);
    const done = await waitFor(s, broadcast.id, (b) => b.status === "done", 280_000);
    expect(done.counts).toMatchObject({ total: 40, sent: 40, rejected: 0 });
    const perRecipient = sendsPerRecipient(await sendsWhen(s.phoneNumberId, 40));
    expect(perRecipient.size).toBe(40);
    expect([...perRecipient.values()].every((n) => n === 1)).toBe(true);
  });

  it("two broadcasts on one connection to the same users: never two messages to one user within the pair gap, never two sends of the connection closer than the minimum", { timeout: 300_000 }, async () => {
    const s = await setup();
    await seedContacts(s, 6);
    const first = await createBroadcast(s, { name: "Primeira" });
    const second = await createBroadcast(s, { name: "Segunda" });
    await expectStatus(await call("POST", `/api/broadcasts/${first.id}/start`, { token: s.token }), 200);
    await expectStatus(await call("POST", `/api/broadcasts/${second.id}/start`, { token: s.token }), 200);
    await waitFor(s, first.id, (b) => b.status === "done", 280_000);
    await waitFor(s, second.id, (b) => b.status === "done", 280_000);
    const sends = await sendsWhen(s.phoneNumberId, 12);
    expect(sends.length).toBe(12);
    const lastTo = new Map<string, number>();
    for (let i = 0; i < sends.length; i++) {
      const send = sends[i];
      if (!send) continue;
      if (i > 0) expect(send.at - (sends[i - 1]?.at ?? 0), `connection gap before send ${i}`).toBeGreaterThanOrEqual(minGap);
      const to = recipientOf(send);
      const before = lastTo.get(to);
      if (before !== undefined) expect(send.at - before, `pair gap of ${to}`).toBeGreaterThanOrEqual(pairGapMs(scale));
      lastTo.set(to, send.at);
    }
  });

  it("131056 (pair rate limit) from the stand-in is backed off and retried: the recipient gets the message once", { timeout: 60_000 }, async () => {
    const s = await setup();
    const [waId] = await seedContacts(s, 1);
    const fault = await fetch(`${env.META_STANDIN_ORIGIN}/__faults`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ phoneNumberId: s.phoneNumberId, failNext: 1, status: 400, code: 131056, message: "(Business Account, Consumer Account) pair rate limit hit" }),
    });
    expect(fault.status).toBe(200);
    await fault.arrayBuffer();
    const broadcast = await createBroadcast(s);
    await expectStatus(await call("POST", `/api/broadcasts/${broadcast.id}/start`, { token: s.token }), 200);
    await waitFor(s, broadcast.id, (b) => b.status === "done", 30_000);
    const deadline = Date.now() + 30_000;
    let sends = await acceptedSends(s.phoneNumberId);
    while (sends.length < 1 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      sends = await acceptedSends(s.phoneNumberId);
    }
    const all: (StandInRecord & { status?: number })[] = (await standInSent()).filter((r) => r.path.endsWith(`/${s.phoneNumberId}/messages`));
    const refused = all.filter((r) => r.status === 400);
    expect(refused.length).toBe(1);
    expect(sends.map(recipientOf)).toEqual([waId]);
    expect((sends[0]?.at ?? 0) - (refused[0]?.at ?? 0)).toBeGreaterThanOrEqual(500);
  });

  it("outside the window the template goes out with its body and URL-button values, and stays in the contact's ticket as sent", { timeout: 60_000 }, async () => {
    const s = await setup();
    const wabaId = String(100_000_000 + Math.floor(Math.random() * 899_999_999));
    await expectStatus(await call("PUT", `/api/connections/${s.connectionId}`, { token: s.token, body: { wabaId } }), 200);
    const templates = await fetch(`${env.META_STANDIN_ORIGIN}/__templates`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        wabaId,
        templates: [
          {
            name: "oferta_link",
            language: "pt_BR",
            status: "APPROVED",
            category: "MARKETING",
            id: "777",
            components: [
              { type: "BODY", text: "Olá {{1}}, sua oferta chegou." },
              { type: "BUTTONS", buttons: [{ type: "QUICK_REPLY", text: "Parar" }, { type: "URL", text: "Ver oferta", url: "https://loja.example/o/{{1}}" }] },
            ],
          },
        ],
      }),
    });
    expect(templates.status).toBe(200);
    await templates.arrayBuffer();
    await expectStatus(await call("POST", `/api/connections/${s.connectionId}/templates/sync`, { token: s.token }), 200);
    const [waId] = await seedContacts(s, 1, () => false);
    const broadcast = await createBroadcast(s, {
      template: {
        name: "oferta_link",
        language: "pt_BR",
        variables: [
          { component: "body", index: 1, source: { type: "contact", field: "first_name" } },
          { component: "button", index: 1, buttonIndex: 1, source: { type: "text", text: "bf2026" } },
        ],
      },
    });
    await expectStatus(await call("POST", `/api/broadcasts/${broadcast.id}/start`, { token: s.token }), 200);
    await waitFor(s, broadcast.id, (b) => b.status === "done", 30_000);
    const sends = await sendsWhen(s.phoneNumberId, 2);
    expect(sends.map(recipientOf)).toEqual([waId, waId]);
    const first = sends[0]?.body;
    const template = typeof first === "object" && first !== null ? first.template : undefined;
    expect(template).toEqual({
      name: "oferta_link",
      language: { code: "pt_BR" },
      components: [
        { type: "body", parameters: [{ type: "text", text: "Cliente" }] },
        { type: "button", sub_type: "url", index: "1", parameters: [{ type: "text", text: "bf2026" }] },
      ],
    });
    // The chat shows what opened the conversation: the template, sent, with Meta's id, before the flow's message.
    const stored = await env.DB.prepare(
      "SELECT m.body, m.status, m.external_id, m.seq FROM messages m JOIN contacts c ON c.id = m.contact_id WHERE m.company_id = ? AND c.phone = ? AND m.direction = 'out' ORDER BY m.seq",
    )
      .bind(s.companyId, `+${waId}`)
      .all<{ body: string; status: string; external_id: string | null; seq: number }>();
    expect(stored.results.map((m) => m.body)).toEqual(["[oferta_link] Cliente bf2026", "Promoção de hoje!"]);
    expect(stored.results[0]).toMatchObject({ status: "sent" });
    expect(stored.results[0]?.external_id).toBeTruthy();
  });
});

/** Sets the connection's throughput (messages per second) in its pacer row, as a Graph API proof would. */
async function setThroughput(s: Setup, mps: number): Promise<void> {
  await env.DB.prepare(
    "INSERT INTO connection_send_limits (connection_id, company_id, throughput_mps, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT(connection_id) DO UPDATE SET throughput_mps = excluded.throughput_mps",
  )
    .bind(s.connectionId, s.companyId, mps, Date.now())
    .run();
}

/** The most sends whose stand-in timestamps fall in any 1,000 ms (sliding). */
function busiestSecond(sends: StandInRecord[]): number {
  let most = 0;
  for (let i = 0, j = 0; i < sends.length; i++) {
    while ((sends[i]?.at ?? 0) - (sends[j]?.at ?? 0) >= 1000) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

describe("BroadcastScheduler window mode (the throughput, not the pause, is the pace)", () => {
  // 10 messages/s: the window is 10 / 5 = 2 sends in flight, started at most 8 per second; the
  // "very short" preset's longest pause at the test scale (50 ms) is below 1000 / 8 ms.
  it("keeps 2 sends in flight, never more than the connection's 10 per second at the provider (any 1,000 ms), each recipient sent once", { timeout: 120_000 }, async () => {
    const s = await setup();
    await setThroughput(s, 10);
    await seedContacts(s, 30);
    const broadcast = await createBroadcast(s);
    await expectStatus(await call("POST", `/api/broadcasts/${broadcast.id}/start`, { token: s.token }), 200);
    const done = await waitFor(s, broadcast.id, (b) => b.status === "done", 110_000);
    expect(done.counts).toMatchObject({ total: 30, sent: 30, rejected: 0 });
    const sends = await sendsWhen(s.phoneNumberId, 30);
    const perRecipient = sendsPerRecipient(sends);
    expect(perRecipient.size).toBe(30);
    expect([...perRecipient.values()].every((n) => n === 1)).toBe(true);
    expect(busiestSecond(sends)).toBeLessThanOrEqual(10);
    const own = await schedulerOf(env, broadcast.id).inspect();
    expect(own.peakInFlight).toBe(2);
    expect(own.peakQueued).toBeLessThanOrEqual(50);
    // The lease was given back when the alarm ended: another broadcast of the connection may send.
    const pacer = await env.DB.prepare("SELECT lease_id FROM connection_send_limits WHERE connection_id = ?").bind(s.connectionId).first<{ lease_id: string | null }>();
    expect(pacer?.lease_id).toBeNull();
  });

  it("the alarm throwing halfway with sends in flight is retried: each recipient sent exactly once, none skipped", { timeout: 120_000 }, async () => {
    const s = await setup();
    await setThroughput(s, 10);
    await seedContacts(s, 20);
    const broadcast = await createBroadcast(s);
    expect(await schedulerOf(env, broadcast.id).armFaults("alarm", 3)).toBe(true);
    await expectStatus(await call("POST", `/api/broadcasts/${broadcast.id}/start`, { token: s.token }), 200);
    const done = await waitFor(s, broadcast.id, (b) => b.status === "done", 110_000);
    expect(done.counts).toMatchObject({ total: 20, sent: 20, rejected: 0 });
    const sends = await sendsWhen(s.phoneNumberId, 20);
    const perRecipient = sendsPerRecipient(sends);
    expect(perRecipient.size).toBe(20);
    expect([...perRecipient.values()].every((n) => n === 1)).toBe(true);
    expect(busiestSecond(sends)).toBeLessThanOrEqual(10);
    expect((await schedulerOf(env, broadcast.id).inspect()).peakInFlight).toBe(2);
  });
});
