/**
 * The webhook route's memory of connection rows (issue 16, worker/pipeline/inbound.ts): a message
 * whose route this isolate remembers skips the connection look-up, and the ContactSession's read
 * batch checks the remembered row, so a deleted, renumbered or re-created connection is never used.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { startD1Count, stopD1Count } from "../lib/d1-count";
import { forgetRoutes } from "./inbound";
import { cloudConnection, deliverOk, listTickets, textWebhook, uniqueWaId, wamid } from "../test/channel-helpers";
import { activeCompanyId, call, expectStatus, register } from "../test/helpers";

/** Messages D1 holds with this provider id (read past the counting wrapper). */
async function storedAs(externalId: string): Promise<{ company_id: string; connection_id: string }[]> {
  const rows = await env.DB.prepare("SELECT company_id, connection_id FROM messages WHERE external_id = ?").bind(externalId).all<{ company_id: string; connection_id: string }>();
  return rows.results;
}

/** Rejected events naming `phoneNumberId` as unknown. */
async function unknownRoutes(phoneNumberId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM rejected_events WHERE reason = 'unknown_phone_number_id' AND detail LIKE ?").bind(`%${phoneNumberId}%`).first<{ n: number }>();
  return row?.n ?? 0;
}

describe("remembered routes", () => {
  it("a remembered route saves the connection look-up: two D1 round trips a message instead of three, the row checked in the read batch", async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    const from = uniqueWaId();
    await deliverOk(textWebhook(connection.phoneNumberId, from, wamid(), "oi"));
    const counted = async (body: string) => {
      startD1Count();
      const id = wamid();
      const stored = (await deliverOk(textWebhook(connection.phoneNumberId, from, id, body))).stored;
      const { trips, statements } = stopD1Count();
      expect(stored).toBe(1);
      expect(await storedAs(id)).toEqual([{ company_id: await activeCompanyId(owner.token), connection_id: connection.id }]);
      return { trips, statements: statements.join("\n") };
    };
    forgetRoutes();
    const cold = await counted("primeira depois de esquecer");
    const warm = await counted("segunda, rota lembrada");
    expect(cold.trips, cold.statements).toBe(warm.trips + 1);
    expect(warm.trips, warm.statements).toBeLessThanOrEqual(2);
  });

  it("a deleted connection's remembered route is not used: the message is kept as an unknown number's", async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    const from = uniqueWaId();
    await deliverOk(textWebhook(connection.phoneNumberId, from, wamid(), "oi"));
    await expectStatus(await call("DELETE", `/api/connections/${connection.id}`, { token: owner.token }), 204);
    const id = wamid();
    const answer = await deliverOk(textWebhook(connection.phoneNumberId, from, id, "ainda aí?"));
    expect(answer.stored).toBe(0);
    expect(await storedAs(id)).toEqual([]);
    expect(await unknownRoutes(connection.phoneNumberId)).toBe(1);
  });

  it("a number moved to another company's connection goes there, not to the remembered one", async () => {
    const first = await register();
    const old = await cloudConnection(first.token);
    const from = uniqueWaId();
    await deliverOk(textWebhook(old.phoneNumberId, from, wamid(), "oi"));
    // The number leaves the first company's connection (renumbered in D1) and a second company connects it.
    await env.DB.prepare("UPDATE connections SET phone_number_id = ? WHERE id = ?").bind(`${old.phoneNumberId}-old`, old.id).run();
    const second = await register();
    const moved = await cloudConnection(second.token, { phoneNumberId: old.phoneNumberId, register: false });
    const id = wamid();
    expect((await deliverOk(textWebhook(old.phoneNumberId, from, id, "mudei de loja"))).stored).toBe(1);
    expect(await storedAs(id)).toEqual([{ company_id: await activeCompanyId(second.token), connection_id: moved.id }]);
    expect((await listTickets(second.token)).results).toHaveLength(1);
    expect(await unknownRoutes(old.phoneNumberId)).toBe(0);
  });

  it("a renumbered connection's old number is unknown at once, its new number is its own", async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    const from = uniqueWaId();
    await deliverOk(textWebhook(connection.phoneNumberId, from, wamid(), "oi"));
    const renumbered = `${connection.phoneNumberId}9`;
    await env.DB.prepare("UPDATE connections SET phone_number_id = ? WHERE id = ?").bind(renumbered, connection.id).run();
    const toOld = wamid();
    expect((await deliverOk(textWebhook(connection.phoneNumberId, from, toOld, "número antigo"))).stored).toBe(0);
    expect(await storedAs(toOld)).toEqual([]);
    expect(await unknownRoutes(connection.phoneNumberId)).toBe(1);
    const toNew = wamid();
    expect((await deliverOk(textWebhook(renumbered, from, toNew, "número novo"))).stored).toBe(1);
    expect(await storedAs(toNew)).toEqual([{ company_id: await activeCompanyId(owner.token), connection_id: connection.id }]);
  });
});
