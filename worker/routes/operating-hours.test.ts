/**
 * Operating hours (issue 12): GET/PUT /api/companies/operating-hours (defaults, 400s naming the
 * field, another company's connection or flow refused) and the inbound path through the real
 * webhook, ContactSession and the Graph API stand-in: a customer who writes outside hours gets the
 * outside-hours message once per conversation, the ticket is still created and is marked.
 */
import { describe, expect, it } from "vitest";
import type { OperatingHoursAnswer, WeeklySchedule } from "../../schema/validation/operating-hours";
import { call, expectError, expectInvalid, expectStatus, member, register } from "../test/helpers";
import { cloudConnection, deliverOk, listTickets, sentTo, textWebhook, ticketMessages, uniqueWaId, until, wamid } from "../test/channel-helpers";
import { flowDoc, publishedFlow } from "../test/flow-helpers";

const closed: WeeklySchedule = { sun: [], mon: [], tue: [], wed: [], thu: [], fri: [], sat: [] };
const allDay = [{ open: "00:00", close: "24:00" }];
const alwaysOpen: WeeklySchedule = { sun: allDay, mon: allDay, tue: allDay, wed: allDay, thu: allDay, fri: allDay, sat: allDay };

const put = (token: string, body: unknown) => call("PUT", "/api/companies/operating-hours", { token, body });
const settings = (over: Record<string, unknown> = {}) => ({ enabled: true, weekly: closed, exceptions: [], outside: { all: { type: "none" }, connections: {} }, ...over });
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The texts the stand-in was asked to send from `phoneNumberId`. */
async function sentTexts(phoneNumberId: string): Promise<string[]> {
  return (await sentTo(phoneNumberId)).flatMap((r) => {
    const body = r.body;
    if (typeof body !== "object" || body === null || body.type !== "text") return [];
    const text = body.text;
    return typeof text === "object" && text !== null && "body" in text && typeof text.body === "string" ? [text.body] : [];
  });
}

describe("GET/PUT /api/companies/operating-hours", () => {
  it("answers the defaults (off, Monday to Friday 09:00–18:00) with the company's time zone", async () => {
    const owner = await register();
    const answer = await expectStatus<OperatingHoursAnswer>(await call("GET", "/api/companies/operating-hours", { token: owner.token }), 200);
    expect(answer).toMatchObject({ enabled: false, openNow: true, exceptions: [], outside: { all: { type: "none" }, connections: {} } });
    expect(answer.weekly.mon).toEqual([{ open: "09:00", close: "18:00" }]);
    expect(answer.weekly.sun).toEqual([]);
    expect(answer.timezone).toMatch(/\//);
  });

  it("stores a schedule, exceptions (sorted by date) and per-connection actions, and answers them back", async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    const body = settings({
      weekly: { ...closed, mon: [{ open: "13:00", close: "18:00" }, { open: "08:00", close: "12:00" }] },
      exceptions: [
        { date: "2027-01-01", name: "Ano novo", ranges: [] },
        { date: "2026-12-24", name: "Véspera", ranges: [{ open: "08:00", close: "12:00" }] },
      ],
      outside: { all: { type: "message", message: "Voltamos às 8h." }, connections: { [connection.id]: { type: "none" } } },
    });
    const saved = await expectStatus<OperatingHoursAnswer>(await put(owner.token, body), 200);
    expect(saved.exceptions.map((e) => e.date)).toEqual(["2026-12-24", "2027-01-01"]);
    expect(typeof saved.openNow).toBe("boolean"); // depends on the clock
    const read = await expectStatus<OperatingHoursAnswer>(await call("GET", "/api/companies/operating-hours", { token: owner.token }), 200);
    expect(read).toMatchObject({ enabled: true, outside: body.outside, exceptions: saved.exceptions });
    expect(read.weekly.mon).toHaveLength(2);
  });

  it("answers 400 naming the field for inverted and overlapping ranges, and writes nothing", async () => {
    const owner = await register();
    await expectInvalid(await put(owner.token, settings({ weekly: { ...closed, fri: [{ open: "18:00", close: "09:00" }] } })), "weekly.fri.0.close", "inverted_range");
    await expectInvalid(
      await put(owner.token, settings({ weekly: { ...closed, wed: [{ open: "08:00", close: "12:00" }, { open: "11:30", close: "14:00" }] } })),
      "weekly.wed.1",
      "overlapping_range",
    );
    await expectInvalid(
      await put(owner.token, settings({ exceptions: [{ date: "2026-12-25", ranges: [{ open: "10:00", close: "09:59" }] }] })),
      "exceptions.0.ranges.0.close",
      "inverted_range",
    );
    await expectInvalid(await put(owner.token, settings({ outside: { all: { type: "message", message: "  " } } })), "outside.all.message", "required");
    const read = await expectStatus<OperatingHoursAnswer>(await call("GET", "/api/companies/operating-hours", { token: owner.token }), 200);
    expect(read.enabled).toBe(false);
  });

  it("refuses another company's connection and flow (400 naming them)", async () => {
    const owner = await register();
    const other = await register();
    const foreign = await cloudConnection(other.token);
    const { flow } = await publishedFlow(other.token, flowDoc([{ id: "t1", type: "text", data: { message: "x" } }], [["start", "next", "t1"]]));
    await expectInvalid(
      await put(owner.token, settings({ outside: { all: { type: "none" }, connections: { [foreign.id]: { type: "none" } } } })),
      `outside.connections.${foreign.id}`,
      "unknown_connection",
    );
    await expectInvalid(await put(owner.token, settings({ outside: { all: { type: "flow", flowId: flow.id } } })), "outside.all.flowId", "unknown_flow");
  });

  it("is refused to a member without settings_company", async () => {
    const owner = await register();
    const staff = await member(owner, ["tickets", "connections", "flow"]);
    await expectError(await call("GET", "/api/companies/operating-hours", { token: staff.token }), 403, "forbidden");
    await expectError(await put(staff.token, settings()), 403, "forbidden");
  });
});

describe("outside hours in the inbound path", { timeout: 60_000 }, () => {
  it("sends the outside-hours message once per conversation, creates the ticket and marks it", async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token, { greetingMessage: "Olá! Em que podemos ajudar?" });
    const saved = await expectStatus<OperatingHoursAnswer>(await put(owner.token, settings({ outside: { all: { type: "message", message: "Estamos fechados; respondemos amanhã." } } })), 200);
    expect(saved.openNow).toBe(false);
    const from = uniqueWaId();
    await deliverOk(textWebhook(connection.phoneNumberId, from, wamid(), "Oi, alguém aí?", nowSeconds()));
    await deliverOk(textWebhook(connection.phoneNumberId, from, wamid(), "Preciso de ajuda", nowSeconds()));
    await deliverOk(textWebhook(connection.phoneNumberId, from, wamid(), "Olá??", nowSeconds()));

    const list = await listTickets(owner.token);
    expect(list.total).toBe(1);
    const ticket = list.results[0]!;
    expect(ticket.status).toBe("pending");
    expect(ticket.outsideHoursAt).toEqual(expect.any(Number));
    const texts = await until(() => sentTexts(connection.phoneNumberId), (t) => t.length >= 1, "the outside-hours message");
    // Give a second send the time to show up if there were one.
    await new Promise((r) => setTimeout(r, 300));
    expect(await sentTexts(connection.phoneNumberId)).toEqual(["Estamos fechados; respondemos amanhã."]);
    expect(texts).not.toContain("Olá! Em que podemos ajudar?");
    const page = await ticketMessages(owner.token, ticket.id, "limit=100");
    expect(page.results.filter((m) => m.direction === "in")).toHaveLength(3);
    expect(page.results.filter((m) => m.direction === "out").map((m) => m.body)).toEqual(["Estamos fechados; respondemos amanhã."]);
  });

  it("runs the connection's outside-hours flow instead of the message for all", async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    const { flow } = await publishedFlow(owner.token, flowDoc([{ id: "t1", type: "text", data: { message: "Bot: fora do horário" } }], [["start", "next", "t1"]]));
    await expectStatus(
      await put(owner.token, settings({ outside: { all: { type: "message", message: "Para todos" }, connections: { [connection.id]: { type: "flow", flowId: flow.id } } } })),
      200,
    );
    const from = uniqueWaId();
    await deliverOk(textWebhook(connection.phoneNumberId, from, wamid(), "Oi", nowSeconds()));
    await deliverOk(textWebhook(connection.phoneNumberId, from, wamid(), "Oi de novo", nowSeconds()));
    await until(() => sentTexts(connection.phoneNumberId), (t) => t.length >= 1, "the flow's message");
    await new Promise((r) => setTimeout(r, 300));
    expect(await sentTexts(connection.phoneNumberId)).toEqual(["Bot: fora do horário"]);
    expect((await listTickets(owner.token)).results[0]!.outsideHoursAt).toEqual(expect.any(Number));
  });

  it("inside hours, or with operating hours off, nothing is sent and the ticket is not marked", async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    await expectStatus(await put(owner.token, settings({ weekly: alwaysOpen, outside: { all: { type: "message", message: "Fechado" } } })), 200);
    await deliverOk(textWebhook(connection.phoneNumberId, uniqueWaId(), wamid(), "Oi", nowSeconds()));
    await expectStatus(await put(owner.token, settings({ enabled: false, outside: { all: { type: "message", message: "Fechado" } } })), 200);
    await deliverOk(textWebhook(connection.phoneNumberId, uniqueWaId(), wamid(), "Oi", nowSeconds()));
    const list = await listTickets(owner.token);
    expect(list.total).toBe(2);
    expect(list.results.map((t) => t.outsideHoursAt)).toEqual([null, null]);
    await new Promise((r) => setTimeout(r, 300));
    expect(await sentTexts(connection.phoneNumberId)).toEqual([]);
  });
});
