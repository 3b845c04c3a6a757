import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { connections, messages, type MessageRow } from "../../schema";
import { getDb } from "../lib/db";
import { cloudConnection, deliverOk, envelope, onlyTicket, textWebhook, ticketMessages, uniqueWaId, waStatus, wamid } from "../test/channel-helpers";
import { countRows, register } from "../test/helpers";
import { applyStatus, takeOrphanStatuses } from "./statuses";
import { pendingOutbound } from "../test/standin-sends";

const db = getDb(env.DB);

/** A company with a Cloud API connection, one customer ticket and helpers to add outbound messages. */
async function conversation() {
  const owner = await register();
  const answer = await cloudConnection(owner.token);
  const from = uniqueWaId();
  const inboundId = wamid();
  await deliverOk(textWebhook(answer.phoneNumberId, from, inboundId, "Oi"));
  const ticket = await onlyTicket(owner.token);
  const found = await db.query.connections.findFirst({ where: eq(connections.id, answer.id) });
  if (!found) throw new Error("the connection was not stored");
  const connection = found;
  let seq = 100;

  /** Stores an outbound message as the TicketRoom does after the provider accepted it. */
  async function outbound(status: MessageRow["status"] = "sent", externalId: string | null = wamid()): Promise<MessageRow> {
    seq += 1;
    const row: MessageRow = {
      ...pendingOutbound({ id: ticket.id, companyId: connection.companyId, contactId: ticket.contact.id, connectionId: connection.id }, `resposta ${seq}`, seq, ""),
      externalId,
      status,
      idempotencyKey: null,
    };
    await db.insert(messages).values(row);
    return row;
  }

  /** The message as GET /api/tickets/{id}/messages shows it. */
  async function shown(id: string) {
    const page = await ticketMessages(owner.token, ticket.id, "limit=100");
    const found = page.results.find((m) => m.id === id);
    expect(found, JSON.stringify(page)).toBeDefined();
    return found!;
  }

  /** Delivers status reports for this connection through the signed webhook. */
  async function report(...statuses: unknown[]) {
    await deliverOk(envelope(answer.phoneNumberId, { statuses }));
  }

  return { owner, connection, ticket, from, inboundId, outbound, shown, report, phoneNumberId: answer.phoneNumberId };
}

describe("delivery statuses move forward only", () => {
  it("sent → delivered → read move an outbound message forward one step at a time", async () => {
    const c = await conversation();
    const m = await c.outbound("pending");
    await c.report(waStatus(m.externalId!, "sent", { ts: 1_700_000_001 }));
    expect((await c.shown(m.id)).status).toBe("sent");
    await c.report(waStatus(m.externalId!, "delivered", { ts: 1_700_000_002 }));
    expect((await c.shown(m.id)).status).toBe("delivered");
    await c.report(waStatus(m.externalId!, "read", { ts: 1_700_000_003 }));
    expect((await c.shown(m.id)).status).toBe("read");
  });

  it("a late delivered or sent after read leaves the message read", async () => {
    const c = await conversation();
    const m = await c.outbound("sent");
    await c.report(waStatus(m.externalId!, "read"));
    await c.report(waStatus(m.externalId!, "delivered"));
    await c.report(waStatus(m.externalId!, "sent"));
    // Both late reports in one payload, too.
    await c.report(waStatus(m.externalId!, "delivered"), waStatus(m.externalId!, "sent"));
    expect((await c.shown(m.id)).status).toBe("read");
  });

  it("a late sent after delivered leaves the message delivered", async () => {
    const c = await conversation();
    const m = await c.outbound("sent");
    await c.report(waStatus(m.externalId!, "delivered"), waStatus(m.externalId!, "sent"));
    expect((await c.shown(m.id)).status).toBe("delivered");
  });

  it("read may come without delivered", async () => {
    const c = await conversation();
    const m = await c.outbound("sent");
    await c.report(waStatus(m.externalId!, "read"));
    expect((await c.shown(m.id)).status).toBe("read");
  });

  it("failed carries the provider's error code, message and detail", async () => {
    const c = await conversation();
    const m = await c.outbound("sent");
    await c.report(
      waStatus(m.externalId!, "failed", {
        errors: [{ code: 131026, title: "Message undeliverable.", message: "Message undeliverable.", error_data: { details: "Receiver is not on WhatsApp" } }],
      }),
    );
    const shown = await c.shown(m.id);
    expect(shown.status).toBe("failed");
    expect(shown.error).toEqual({ code: "131026", message: "Message undeliverable.", details: "Receiver is not on WhatsApp" });
  });

  it("failed without a message takes the error's title", async () => {
    const c = await conversation();
    const m = await c.outbound("sent");
    await c.report(waStatus(m.externalId!, "failed", { errors: [{ code: 131047, title: "Re-engagement message" }] }));
    expect((await c.shown(m.id)).error).toEqual({ code: "131047", message: "Re-engagement message", details: null });
  });

  it("failed after delivered or read is ignored: the message did reach the phone", async () => {
    const c = await conversation();
    const delivered = await c.outbound("sent");
    const read = await c.outbound("sent");
    await c.report(waStatus(delivered.externalId!, "delivered"), waStatus(read.externalId!, "read"));
    const failure = { errors: [{ code: 131000, message: "Something went wrong" }] };
    await c.report(waStatus(delivered.externalId!, "failed", failure), waStatus(read.externalId!, "failed", failure));
    expect(await c.shown(delivered.id)).toMatchObject({ status: "delivered", error: null });
    expect(await c.shown(read.id)).toMatchObject({ status: "read", error: null });
  });

  it("concurrent reports in shuffled order end at the furthest status", async () => {
    const c = await conversation();
    const m = await c.outbound("pending");
    const reports = ["sent", "delivered", "read", "delivered", "sent", "read", "sent"].map((s) => envelope(c.phoneNumberId, { statuses: [waStatus(m.externalId!, s)] }));
    await Promise.all(reports.map((r) => deliverOk(r)));
    expect((await c.shown(m.id)).status).toBe("read");
  });

  it("a status report never changes a customer's inbound message", async () => {
    const c = await conversation();
    await c.report(waStatus(c.inboundId, "read"), waStatus(c.inboundId, "failed", { errors: [{ code: 1, message: "x" }] }));
    const page = await ticketMessages(c.owner.token, c.ticket.id);
    expect(page.results.find((m) => m.direction === "in")).toMatchObject({ status: "received", error: null });
  });

  it("a status for another company's message, reported on this company's number, changes nothing", async () => {
    const a = await conversation();
    const b = await conversation();
    const m = await a.outbound("sent");
    // B's phone number id reports A's wamid: routed to B's connection, it must not touch A's message.
    await b.report(waStatus(m.externalId!, "read"));
    expect((await a.shown(m.id)).status).toBe("sent");
  });
});

describe("orphan statuses (a report that arrives before the send answered with the wamid)", () => {
  it("applyStatus keeps a report for an unknown wamid and takeOrphanStatuses hands it back, oldest first, once", async () => {
    const c = await conversation();
    const id = wamid();
    expect(await applyStatus(db, c.connection, { externalId: id, status: "read", timestamp: 3000 })).toBeNull();
    expect(await applyStatus(db, c.connection, { externalId: id, status: "sent", timestamp: 1000 })).toBeNull();
    expect(await applyStatus(db, c.connection, { externalId: id, status: "delivered", timestamp: 2000 })).toBeNull();
    expect(await countRows("orphan_statuses", "connection_id = ? AND external_id = ?", c.connection.id, id)).toBe(3);
    const taken = await takeOrphanStatuses(db, c.connection.id, id);
    expect(taken.map((t) => [t.status, t.timestamp])).toEqual([
      ["sent", 1000],
      ["delivered", 2000],
      ["read", 3000],
    ]);
    expect(await takeOrphanStatuses(db, c.connection.id, id)).toEqual([]);
    expect(await countRows("orphan_statuses", "connection_id = ? AND external_id = ?", c.connection.id, id)).toBe(0);
  });

  it("a read reported by webhook before the wamid is known is applied once the send answers", async () => {
    const c = await conversation();
    const m = await c.outbound("pending", null);
    const id = wamid();
    await c.report(waStatus(id, "delivered", { ts: 1_700_000_002 }), waStatus(id, "read", { ts: 1_700_000_003 }));
    expect((await c.shown(m.id)).status).toBe("pending");
    expect(await countRows("orphan_statuses", "connection_id = ? AND external_id = ?", c.connection.id, id)).toBe(2);

    // What TicketRoom.deliver does when the provider answers: record the wamid and mark it sent,
    // then apply the statuses that were waiting for it.
    await db.update(messages).set({ externalId: id, status: "sent" }).where(eq(messages.id, m.id));
    for (const orphan of await takeOrphanStatuses(db, c.connection.id, id)) {
      await applyStatus(db, c.connection, orphan, { recordOrphan: false });
    }
    expect((await c.shown(m.id)).status).toBe("read");
    expect(await countRows("orphan_statuses", "connection_id = ? AND external_id = ?", c.connection.id, id)).toBe(0);
  });

  it("an orphan failure keeps the provider's error until the message is known", async () => {
    const c = await conversation();
    const m = await c.outbound("pending", null);
    const id = wamid();
    await applyStatus(db, c.connection, { externalId: id, status: "failed", timestamp: 1, errorCode: "131026", errorMessage: "Undeliverable" });
    await db.update(messages).set({ externalId: id, status: "sent" }).where(eq(messages.id, m.id));
    for (const orphan of await takeOrphanStatuses(db, c.connection.id, id)) await applyStatus(db, c.connection, orphan, { recordOrphan: false });
    expect(await c.shown(m.id)).toMatchObject({ status: "failed", error: { code: "131026", message: "Undeliverable" } });
  });

  it("a report for a known message that cannot move it is not kept as an orphan", async () => {
    const c = await conversation();
    const m = await c.outbound("read");
    expect(await applyStatus(db, c.connection, { externalId: m.externalId!, status: "delivered", timestamp: 1 })).toBeNull();
    expect(await countRows("orphan_statuses", "connection_id = ? AND external_id = ?", c.connection.id, m.externalId)).toBe(0);
  });

  it("with recordOrphan off, a report for an unknown wamid is dropped", async () => {
    const c = await conversation();
    const id = wamid();
    expect(await applyStatus(db, c.connection, { externalId: id, status: "read", timestamp: 1 }, { recordOrphan: false })).toBeNull();
    expect(await countRows("orphan_statuses", "connection_id = ? AND external_id = ?", c.connection.id, id)).toBe(0);
  });

  it("applyStatus answers the changed message and its ticket", async () => {
    const c = await conversation();
    const m = await c.outbound("sent");
    expect(await applyStatus(db, c.connection, { externalId: m.externalId!, status: "delivered", timestamp: 1 })).toEqual({ id: m.id, ticketId: c.ticket.id });
  });
});
