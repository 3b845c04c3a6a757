/**
 * The inbound path's cost (issue 16): D1 round trips per stored message, counted by the test-only
 * wrapper (worker/lib/d1-count.ts) around every D1 binding handed to drizzle, from the webhook
 * route through the ContactSession, the TicketRoom and the CompanyHub.
 */
import { describe, expect, it } from "vitest";
import { startD1Count, stopD1Count } from "../lib/d1-count";
import { cloudConnection, deliverOk, textWebhook, uniqueWaId, wamid } from "../test/channel-helpers";
import { register } from "../test/helpers";

describe("inbound cost", () => {
  it("a message to an open conversation costs at most three D1 round trips", async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    const from = uniqueWaId();
    // The first message creates the contact and the ticket; the later ones are the common case.
    await deliverOk(textWebhook(connection.phoneNumberId, from, wamid(), "oi"));
    await deliverOk(textWebhook(connection.phoneNumberId, from, wamid(), "tudo bem?"));
    startD1Count();
    const answer = await deliverOk(textWebhook(connection.phoneNumberId, from, wamid(), "quero saber do pedido"));
    const { trips, statements } = stopD1Count();
    expect(answer.stored).toBe(1);
    console.log(`inbound: ${trips} D1 round trips\n  ${statements.join("\n  ")}`);
    expect(trips, statements.join("\n")).toBeLessThanOrEqual(3);
  });
});
