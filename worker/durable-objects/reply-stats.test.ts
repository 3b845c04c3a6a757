/**
 * A flow reply carries its step's stats into the D1 batch that stores it (issue 16): they are
 * counted once with the message's insert, and a send performed again (its insert conflicts on the
 * idempotency key, as after a restart between the send and the outbox's delete) does not count
 * them a second time. Without stats nothing is counted and nothing is reported.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { connections } from "../../schema";
import { activeCompanyId, register } from "../test/helpers";
import { cloudConnection, deliverOk, onlyTicket, textWebhook, uniqueWaId, wamid } from "../test/channel-helpers";
import { flowDoc, publishedFlow } from "../test/flow-helpers";
import { getDb } from "../lib/db";
import { sendToTicket } from "../pipeline/outbound";

async function statsOf(flowId: string): Promise<Record<string, [number, number]>> {
  const { results } = await env.DB.prepare("SELECT node_id, reached, stopped FROM flow_stats WHERE flow_id = ?").bind(flowId).all<{ node_id: string; reached: number; stopped: number }>();
  return Object.fromEntries(results.map((r) => [r.node_id, [r.reached, r.stopped]]));
}

describe("a flow reply's stats", () => {
  it("are counted with the reply's insert, once, even when the same send is performed again", async () => {
    const owner = await register();
    const companyId = await activeCompanyId(owner.token);
    const connection = await cloudConnection(owner.token);
    const { flow } = await publishedFlow(owner.token, flowDoc([{ id: "hi", type: "text", data: { message: "oi" } }], [["start", "next", "hi"]]));
    const from = uniqueWaId();
    await deliverOk(textWebhook(connection.phoneNumberId, from, wamid(), "olá", Math.floor(Date.now() / 1000)));
    const ticket = await onlyTicket(owner.token);
    const stored = await getDb(env.DB).query.connections.findFirst({ where: eq(connections.id, connection.id) });
    const target = { ticket: { id: ticket.id, companyId, contactId: ticket.contact.id }, connection: stored!, recipientExternalId: from, recipientPhone: `+${from}` };
    const stats = { companyId, flowId: flow.id, visited: ["start", "hi"], stoppedAt: "hi" };
    const first = await sendToTicket(env, target, { type: "text", body: "oi" }, null, "flow:test:1", stats);
    expect(first).toMatchObject({ duplicate: false, statsRecorded: true });
    expect(await statsOf(flow.id)).toEqual({ start: [1, 0], hi: [1, 1] });
    const again = await sendToTicket(env, target, { type: "text", body: "oi" }, null, "flow:test:1", stats);
    expect(again).toMatchObject({ duplicate: true, statsRecorded: true });
    expect(again.message.id).toBe(first.message.id);
    expect(await statsOf(flow.id)).toEqual({ start: [1, 0], hi: [1, 1] });
    const plain = await sendToTicket(env, target, { type: "text", body: "oi" }, null);
    expect(plain.statsRecorded).toBeUndefined();
    expect(await statsOf(flow.id)).toEqual({ start: [1, 0], hi: [1, 1] });
  });
});
