import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { CompanyAnswer } from "../../schema/api-types";
import type { MessageAnswer, TicketAnswer } from "../../schema/realtime";
import type { TranscriptEntry } from "../durable-objects/sandbox-device";
import { ACCESS_TOKEN, cloudConnection, deliverOk, listTickets, registerNumber, standInSent, onlyTicket, pairSandbox, sandboxConnection, sandboxEvents, someBytes, textWebhook, ticketMessages, uniquePhoneNumberId, uniqueWaId, until, wamid, type Pairing } from "../test/channel-helpers";
import { activeCompanyId, call, countRows, expectError, expectInvalid, expectStatus, member, register } from "../test/helpers";
import { dailyLimitOf, tierDailyLimit } from "../lib/broadcasts-limits";
import type { ConnectionAnswer } from "./connections";

async function disconnectedIds(token: string): Promise<string[]> {
  const company = await expectStatus<CompanyAnswer>(await call("GET", "/api/companies/active", { token }), 200);
  return company.disconnected.map((d) => d.id);
}

async function getConnection(token: string, id: string): Promise<ConnectionAnswer> {
  return expectStatus<ConnectionAnswer>(await call("GET", `/api/connections/${id}`, { token }), 200);
}

async function pair(token: string, id: string): Promise<Pairing> {
  return expectStatus<Pairing>(await call("POST", `/api/connections/${id}/pair`, { token }), 200);
}

async function transcript(deviceToken: string, phone: string) {
  return expectStatus<{ connection: { id: string }; transcript: TranscriptEntry[] }>(
    await call("GET", `/api/channels/sandbox/transcript?phone=${encodeURIComponent(phone)}`, { headers: { Authorization: `Device ${deviceToken}` } }),
    200,
  );
}

describe("connections CRUD", () => {
  it("creates, lists, reads, updates and deletes a connection", async () => {
    const owner = await register();
    const created = await expectStatus<ConnectionAnswer>(
      await call("POST", "/api/connections", {
        token: owner.token,
        body: { channel: "sandbox", name: "  Atendimento  ", phone: "+55 11 98765-0000", greetingMessage: "Olá!", farewellMessage: "Tchau!" },
      }),
      201,
    );
    expect(created).toMatchObject({
      name: "Atendimento",
      channel: "sandbox",
      phone: "+5511987650000",
      greetingMessage: "Olá!",
      farewellMessage: "Tchau!",
      status: "DISCONNECTED",
      connected: false,
      phoneNumberId: null,
      accessTokenHint: null,
    });
    const cloud = await cloudConnection(owner.token, { name: "Cloud" });
    expect(cloud).toMatchObject({ channel: "whatsapp-cloud", status: "CONNECTED", connected: true });

    const list = await expectStatus<ConnectionAnswer[]>(await call("GET", "/api/connections", { token: owner.token }), 200);
    expect(list.map((c) => c.name)).toEqual(["Atendimento", "Cloud"]);
    expect(await getConnection(owner.token, created.id)).toEqual(created);

    const updated = await expectStatus<ConnectionAnswer>(
      await call("PUT", `/api/connections/${created.id}`, { token: owner.token, body: { name: "Vendas", greetingMessage: "Bem-vindo", phone: "" } }),
      200,
    );
    expect(updated).toMatchObject({ name: "Vendas", greetingMessage: "Bem-vindo", farewellMessage: "Tchau!", status: "DISCONNECTED" });
    expect((await getConnection(owner.token, created.id)).name).toBe("Vendas");

    const res = await call("DELETE", `/api/connections/${created.id}`, { token: owner.token });
    expect(res.status, await res.text()).toBe(204);
    await expectError(await call("GET", `/api/connections/${created.id}`, { token: owner.token }), 404, "not_found");
    expect(await disconnectedIds(owner.token)).not.toContain(created.id);
  });

  it("the access token is stored encrypted and never returned, only a masked hint", async () => {
    const owner = await register();
    const created = await cloudConnection(owner.token);
    const views = [
      created,
      await getConnection(owner.token, created.id),
      ...(await expectStatus<ConnectionAnswer[]>(await call("GET", "/api/connections", { token: owner.token }), 200)),
    ];
    for (const view of views) {
      expect(JSON.stringify(view)).not.toContain(ACCESS_TOKEN);
      expect(JSON.stringify(view)).not.toContain("access-token");
      expect(view).not.toHaveProperty("accessToken");
      expect(view).not.toHaveProperty("accessTokenEnc");
      expect(view.accessTokenHint).toBe(`••••${ACCESS_TOKEN.slice(-4)}`);
    }
    const row = await env.DB.prepare("SELECT access_token_enc FROM connections WHERE id = ?").bind(created.id).first<{ access_token_enc: string }>();
    expect(row?.access_token_enc).toBeTruthy();
    expect(row?.access_token_enc).not.toContain(ACCESS_TOKEN);
    // base64 of iv ‖ ciphertext, after an optional format prefix ("v2:").
    expect(atob(row!.access_token_enc.replace(/^v\d+:/, ""))).not.toContain(ACCESS_TOKEN);

    await registerNumber(created.phoneNumberId, { tokens: [ACCESS_TOKEN, "EAAG-another-token-value-9876"] });
    const replaced = await expectStatus<ConnectionAnswer>(
      await call("PUT", `/api/connections/${created.id}`, { token: owner.token, body: { accessToken: "EAAG-another-token-value-9876" } }),
      200,
    );
    expect(replaced.accessTokenHint).toBe("••••9876");
    expect(JSON.stringify(replaced)).not.toContain("another-token");
  });

  it("invalid input answers 400 naming the field", async () => {
    const owner = await register();
    const post = (body: unknown) => call("POST", "/api/connections", { token: owner.token, body });
    await expectInvalid(await post({ channel: "sandbox" }), "name");
    await expectInvalid(await post({ channel: "sandbox", name: "x" }), "name", "name_too_short");
    await expectInvalid(await post({ channel: "telegram", name: "Loja" }), "channel");
    await expectInvalid(await post({ name: "Loja" }), "channel");
    await expectInvalid(await post({ channel: "sandbox", name: "Loja", phone: "123" }), "phone", "invalid_phone");
    await expectInvalid(await post({ channel: "sandbox", name: "Loja", greetingMessage: "x".repeat(4097) }), "greetingMessage", "too_long");
    await expectInvalid(await post({ channel: "whatsapp-cloud", name: "Loja", accessToken: ACCESS_TOKEN }), "phoneNumberId", "required");
    await expectInvalid(await post({ channel: "whatsapp-cloud", name: "Loja", phoneNumberId: "abc", accessToken: ACCESS_TOKEN }), "phoneNumberId", "invalid_phone_number_id");
    await expectInvalid(await post({ channel: "whatsapp-cloud", name: "Loja", phoneNumberId: uniquePhoneNumberId() }), "accessToken", "required");
    await expectInvalid(await post({ channel: "whatsapp-cloud", name: "Loja", phoneNumberId: uniquePhoneNumberId(), accessToken: "short" }), "accessToken", "invalid_access_token");
    await expectInvalid(
      await post({ channel: "whatsapp-cloud", name: "Loja", phoneNumberId: uniquePhoneNumberId(), accessToken: ACCESS_TOKEN, wabaId: "waba" }),
      "wabaId",
      "invalid_waba_id",
    );
    await expectStatus(await call("POST", "/api/connections", { token: owner.token, body: "{oops" }), 400);
    expect(await expectStatus<ConnectionAnswer[]>(await call("GET", "/api/connections", { token: owner.token }), 200)).toEqual([]);

    const sandbox = await sandboxConnection(owner.token);
    await expectInvalid(await call("PUT", `/api/connections/${sandbox.id}`, { token: owner.token, body: { name: "" } }), "name");
    await expectInvalid(await call("PUT", `/api/connections/${sandbox.id}`, { token: owner.token, body: { accessToken: ACCESS_TOKEN } }), "accessToken", "not_applicable");
    await expectInvalid(await call("GET", "/api/connections/not-a-uuid", { token: owner.token }), "id");
  });

  it("a proven number already connected answers one generic 409, in the same or another company", async () => {
    const a = await register();
    const b = await register();
    const { phoneNumberId } = await cloudConnection(a.token);
    const answers: unknown[] = [];
    for (const token of [a.token, b.token]) {
      const res = await call("POST", "/api/connections", {
        token,
        body: { channel: "whatsapp-cloud", name: "Cópia", phoneNumberId, accessToken: ACCESS_TOKEN },
      });
      const err = await expectError(res, 409, "phone_number_unavailable");
      expect(err.error.fields).toEqual({ phoneNumberId: "phone_number_unavailable" });
      answers.push(err);
    }
    // Word for word the same answer: it does not tell whose connection holds the number.
    expect(answers[1]).toEqual(answers[0]);
    expect(await countRows("connections", "phone_number_id = ?", phoneNumberId)).toBe(1);
  });

  it("without a session 401; without the connections permission 403", async () => {
    const owner = await register();
    const agent = await member(owner, ["tickets"]);
    const own = await sandboxConnection(owner.token);
    await expectError(await call("GET", "/api/connections"), 401, "unauthorized");
    await expectError(await call("POST", "/api/connections", { body: { channel: "sandbox", name: "Loja" } }), 401, "unauthorized");
    await expectError(await call("GET", "/api/connections", { token: agent.token }), 403, "forbidden");
    await expectError(await call("POST", "/api/connections", { token: agent.token, body: { channel: "sandbox", name: "Loja" } }), 403, "forbidden");
    await expectError(await call("GET", `/api/connections/${own.id}`, { token: agent.token }), 403, "forbidden");
    await expectError(await call("PUT", `/api/connections/${own.id}`, { token: agent.token, body: { name: "Minha" } }), 403, "forbidden");
    await expectError(await call("DELETE", `/api/connections/${own.id}`, { token: agent.token }), 403, "forbidden");
    await expectError(await call("POST", `/api/connections/${own.id}/pair`, { token: agent.token }), 403, "forbidden");
    await expectError(await call("POST", `/api/connections/${own.id}/disconnect`, { token: agent.token }), 403, "forbidden");
    await expectError(await call("POST", `/api/connections/${own.id}/refresh`, { token: agent.token }), 403, "forbidden");
    // A role with the permission may manage them.
    const admin = await member(owner, ["connections"]);
    expect((await expectStatus<ConnectionAnswer[]>(await call("GET", "/api/connections", { token: admin.token }), 200)).map((c) => c.id)).toEqual([own.id]);
    expect((await getConnection(owner.token, own.id)).name).toBe("Sandbox");
  });

  it("another company's connection answers 404 on read, update, delete, pair and disconnect, and stays untouched", async () => {
    const a = await register();
    const b = await register();
    const sandbox = await sandboxConnection(a.token);
    const cloud = await cloudConnection(a.token);
    for (const id of [sandbox.id, cloud.id]) {
      await expectError(await call("GET", `/api/connections/${id}`, { token: b.token }), 404, "not_found");
      await expectError(await call("PUT", `/api/connections/${id}`, { token: b.token, body: { name: "Hacked" } }), 404, "not_found");
      await expectError(await call("DELETE", `/api/connections/${id}`, { token: b.token }), 404, "not_found");
      await expectError(await call("POST", `/api/connections/${id}/pair`, { token: b.token }), 404, "not_found");
      await expectError(await call("POST", `/api/connections/${id}/disconnect`, { token: b.token }), 404, "not_found");
      await expectError(await call("POST", `/api/connections/${id}/refresh`, { token: b.token }), 404, "not_found");
    }
    expect(await expectStatus<ConnectionAnswer[]>(await call("GET", "/api/connections", { token: b.token }), 200)).toEqual([]);
    expect((await getConnection(a.token, sandbox.id)).name).toBe("Sandbox");
    expect(await getConnection(a.token, cloud.id)).toMatchObject({ name: "Loja", status: "CONNECTED" });
    expect(await countRows("connections", "id = ? AND pairing_code_hash IS NULL", sandbox.id)).toBe(1);
  });
});

/** POST /api/connections for a Cloud API number with `accessToken`. */
function postCloud(token: string, phoneNumberId: string, accessToken: string, extra: Record<string, unknown> = {}) {
  // Named by the number: connection names are unique in a company (issue 9).
  return call("POST", "/api/connections", { token, body: { channel: "whatsapp-cloud", name: `Oficial ${phoneNumberId}`, phoneNumberId, accessToken, ...extra } });
}

/** A token no number of the stand-in knows (Graph answers OAuthException 190). */
const FAKE_TOKEN = "EAAG-made-up-token-nobody-issued-0000";

describe("a WhatsApp number belongs to whoever proves it (issue 8 §5)", () => {
  it("a token Meta refuses answers 400 naming accessToken, and nothing is stored", async () => {
    const owner = await register();
    const phoneNumberId = uniquePhoneNumberId();
    await registerNumber(phoneNumberId);
    const err = await expectInvalid(await postCloud(owner.token, phoneNumberId, FAKE_TOKEN), "accessToken", "access_token_rejected");
    expect(err.error.message).toBe("Meta did not accept this access token.");
    expect(await countRows("connections", "phone_number_id = ?", phoneNumberId)).toBe(0);
    expect(await expectStatus<ConnectionAnswer[]>(await call("GET", "/api/connections", { token: owner.token }), 200)).toEqual([]);
    // The worker asked the Graph API about this very number with the given token.
    const lookups = (await standInSent()).filter((r) => r.method === "GET" && r.path.endsWith(`/${phoneNumberId}`));
    expect(lookups.map((r) => r.authorization)).toEqual([`Bearer ${FAKE_TOKEN}`]);
  });

  it("an id Meta does not know, or one the token may not read, answers 400 naming phoneNumberId", async () => {
    const owner = await register();
    // Not a number at all.
    const unknown = uniquePhoneNumberId();
    await expectInvalid(await postCloud(owner.token, unknown, ACCESS_TOKEN), "phoneNumberId", "phone_number_not_found");
    // A real token of someone else's number.
    const mine = uniquePhoneNumberId();
    const theirs = uniquePhoneNumberId();
    await registerNumber(mine, { tokens: ["EAAG-token-of-my-number-only-0001"] });
    await registerNumber(theirs, { tokens: ["EAAG-token-of-their-number-0002"] });
    await expectInvalid(await postCloud(owner.token, theirs, "EAAG-token-of-my-number-only-0001"), "phoneNumberId", "phone_number_not_found");
    expect(await countRows("connections", "phone_number_id IN (?, ?, ?)", unknown, mine, theirs)).toBe(0);
  });

  it("a proven token stores Meta's display number, verified name and quality rating; the phone is that number in E.164 (a +1 555 test number works)", async () => {
    const owner = await register();
    const phoneNumberId = uniquePhoneNumberId();
    await registerNumber(phoneNumberId, { displayPhoneNumber: "+1 555-010-0042", verifiedName: "Padaria Central", qualityRating: "YELLOW" });
    // A phone typed by hand is not taken: the number is Meta's.
    const created = await expectStatus<ConnectionAnswer>(await postCloud(owner.token, phoneNumberId, ACCESS_TOKEN, { phone: "+55 11 98765-0000" }), 201);
    expect(created).toMatchObject({
      channel: "whatsapp-cloud",
      status: "CONNECTED",
      phone: "+15550100042",
      displayPhoneNumber: "+1 555-010-0042",
      verifiedName: "Padaria Central",
      qualityRating: "YELLOW",
    });
    expect(await getConnection(owner.token, created.id)).toEqual(created);
    const row = await env.DB.prepare("SELECT phone, display_phone_number, verified_name, quality_rating FROM connections WHERE id = ?").bind(created.id).first();
    expect(row).toEqual({ phone: "+15550100042", display_phone_number: "+1 555-010-0042", verified_name: "Padaria Central", quality_rating: "YELLOW" });
    // Its phone is not edited by hand either.
    await expectInvalid(await call("PUT", `/api/connections/${created.id}`, { token: owner.token, body: { phone: "+55 11 98765-0000" } }), "phone", "not_applicable");
  });

  it("a second company is refused the number: without a token that proves it 400, with one the same generic 409 as the owner's own duplicate", async () => {
    const a = await register();
    const b = await register();
    const phoneNumberId = uniquePhoneNumberId();
    await registerNumber(phoneNumberId, { tokens: [ACCESS_TOKEN, "EAAG-b-also-manages-this-number-03"] });
    const owned = await expectStatus<ConnectionAnswer>(await postCloud(a.token, phoneNumberId, ACCESS_TOKEN), 201);
    // B's own valid token proves B's own number only.
    const bNumber = uniquePhoneNumberId();
    await registerNumber(bNumber, { tokens: ["EAAG-b-own-number-token-000004"] });
    await expectInvalid(await postCloud(b.token, phoneNumberId, "EAAG-b-own-number-token-000004"), "phoneNumberId", "phone_number_not_found");
    await expectInvalid(await postCloud(b.token, phoneNumberId, FAKE_TOKEN), "accessToken", "access_token_rejected");
    // A token Meta accepts for the number (B also manages it at Meta) still cannot take it.
    const fromB = await expectError(await postCloud(b.token, phoneNumberId, "EAAG-b-also-manages-this-number-03"), 409, "phone_number_unavailable");
    const fromA = await expectError(await postCloud(a.token, phoneNumberId, ACCESS_TOKEN), 409, "phone_number_unavailable");
    expect(fromB).toEqual(fromA);
    expect(fromB.error.message).toBe("This number cannot be connected.");
    expect(await countRows("connections", "phone_number_id = ?", phoneNumberId)).toBe(1);
    // Webhooks of the number still reach its owner only.
    await deliverOk(textWebhook(phoneNumberId, uniqueWaId(), wamid(), "oi"));
    expect((await onlyTicket(a.token)).connection?.id).toBe(owned.id);
    expect((await listTickets(b.token)).total).toBe(0);
  });

  it("a token change is proven again: a token that does not prove the number is refused and the stored one kept; a proving one refreshes the details", async () => {
    const owner = await register();
    const created = await cloudConnection(owner.token);
    const put = (accessToken: string) => call("PUT", `/api/connections/${created.id}`, { token: owner.token, body: { accessToken } });
    await expectInvalid(await put(FAKE_TOKEN), "accessToken", "access_token_rejected");
    const other = uniquePhoneNumberId();
    await registerNumber(other, { tokens: ["EAAG-token-for-another-number-05"] });
    await expectInvalid(await put("EAAG-token-for-another-number-05"), "phoneNumberId", "phone_number_not_found");
    expect((await getConnection(owner.token, created.id)).accessTokenHint).toBe(`••••${ACCESS_TOKEN.slice(-4)}`);

    await registerNumber(created.phoneNumberId, { tokens: ["EAAG-rotated-token-value-000006"], displayPhoneNumber: "+55 11 99999-8888", verifiedName: "Loja Nova", qualityRating: "RED" });
    const updated = await expectStatus<ConnectionAnswer>(await put("EAAG-rotated-token-value-000006"), 200);
    expect(updated).toMatchObject({ accessTokenHint: "••••0006", phone: "+5511999998888", displayPhoneNumber: "+55 11 99999-8888", verifiedName: "Loja Nova", qualityRating: "RED" });
  });

  it("squatting is impossible: a fake token never holds a number, and a holder that never proved it gives way to the real owner", async () => {
    const owner = await register();
    const squatter = await register();
    // Today's attack: the squatter registers the owner's number first with a made-up token.
    const phoneNumberId = uniquePhoneNumberId();
    await registerNumber(phoneNumberId);
    await expectInvalid(await postCloud(squatter.token, phoneNumberId, FAKE_TOKEN), "accessToken", "access_token_rejected");
    expect(await countRows("connections", "phone_number_id = ?", phoneNumberId)).toBe(0);
    await expectStatus<ConnectionAnswer>(await postCloud(owner.token, phoneNumberId, ACCESS_TOKEN), 201);

    // A squat made before proofs existed (no display number: never proven) does not lock the owner out.
    const legacyId = uniquePhoneNumberId();
    await registerNumber(legacyId);
    const squatterCompany = await activeCompanyId(squatter.token);
    const squatId = crypto.randomUUID();
    await env.DB.prepare(
      "INSERT INTO connections (id, company_id, name, channel, status, phone_number_id, access_token_enc, access_token_hint, created_at, updated_at) VALUES (?, ?, 'Squat', 'whatsapp-cloud', 'CONNECTED', ?, 'x', 'x', ?, ?)",
    )
      .bind(squatId, squatterCompany, legacyId, Date.now(), Date.now())
      .run();
    const claimed = await expectStatus<ConnectionAnswer>(await postCloud(owner.token, legacyId, ACCESS_TOKEN), 201);
    expect(await env.DB.prepare("SELECT phone_number_id, status FROM connections WHERE id = ?").bind(squatId).first()).toEqual({ phone_number_id: null, status: "DISCONNECTED" });
    expect(await disconnectedIds(squatter.token)).toContain(squatId);
    await deliverOk(textWebhook(legacyId, uniqueWaId(), wamid(), "olá"));
    expect((await onlyTicket(owner.token)).connection?.id).toBe(claimed.id);
    expect((await listTickets(squatter.token)).total).toBe(0);
  });

  it("Meta unreachable (5xx) answers 502 provider_unavailable and stores nothing", async () => {
    const owner = await register();
    const phoneNumberId = uniquePhoneNumberId();
    await registerNumber(phoneNumberId, { failWith: { status: 503 } });
    await expectError(await postCloud(owner.token, phoneNumberId, ACCESS_TOKEN), 502, "provider_unavailable");
    expect(await countRows("connections", "phone_number_id = ?", phoneNumberId)).toBe(0);
  });

  it("refresh reads the quality rating again with the stored token", async () => {
    const owner = await register();
    const phoneNumberId = uniquePhoneNumberId();
    const token = `EAAG-refresh-${phoneNumberId}`;
    await registerNumber(phoneNumberId, { tokens: [token] });
    const created = await expectStatus<ConnectionAnswer>(await postCloud(owner.token, phoneNumberId, token), 201);
    expect(created.qualityRating).toBe("GREEN");
    await registerNumber(phoneNumberId, { tokens: [token], qualityRating: "RED", verifiedName: "Loja Renomeada" });
    const refreshed = await expectStatus<ConnectionAnswer>(await call("POST", `/api/connections/${created.id}/refresh`, { token: owner.token }), 200);
    expect(refreshed).toMatchObject({ qualityRating: "RED", verifiedName: "Loja Renomeada", status: "CONNECTED" });
    expect((await getConnection(owner.token, created.id)).qualityRating).toBe("RED");
    // Meta no longer accepts the stored token: the answer says so and nothing changes.
    await registerNumber(phoneNumberId, { tokens: [`EAAG-rotated-${phoneNumberId}`], qualityRating: "GREEN" });
    await expectInvalid(await call("POST", `/api/connections/${created.id}/refresh`, { token: owner.token }), "accessToken", "access_token_rejected");
    expect((await getConnection(owner.token, created.id)).qualityRating).toBe("RED");
    const sandbox = await sandboxConnection(owner.token);
    await expectInvalid(await call("POST", `/api/connections/${sandbox.id}/refresh`, { token: owner.token }), "channel", "not_refreshable");
  });
});

describe("messaging limit (issue 10)", () => {
  it("the tier and throughput come from the Graph API with the proof, show on the connection, and Refresh reads them again", async () => {
    const owner = await register();
    const phoneNumberId = uniquePhoneNumberId();
    const token = `EAAG-tier-${phoneNumberId}`;
    await registerNumber(phoneNumberId, { tokens: [token], messagingLimit: "TIER_2K" });
    const created = await expectStatus<ConnectionAnswer>(await postCloud(owner.token, phoneNumberId, token), 201);
    expect(created.messagingLimit).toMatchObject({ tier: "TIER_2K", dailyLimit: 2000, throughputMps: 80 });
    const listed = await expectStatus<ConnectionAnswer[]>(await call("GET", "/api/connections", { token: owner.token }), 200);
    expect(listed.find((c) => c.id === created.id)?.messagingLimit).toMatchObject({ tier: "TIER_2K", dailyLimit: 2000 });
    // Meta raised the number: unlimited tier and high throughput, read on Refresh.
    await registerNumber(phoneNumberId, { tokens: [token], messagingLimit: "TIER_UNLIMITED", throughputLevel: "HIGH" });
    const refreshed = await expectStatus<ConnectionAnswer>(await call("POST", `/api/connections/${created.id}/refresh`, { token: owner.token }), 200);
    expect(refreshed.messagingLimit).toMatchObject({ tier: "TIER_UNLIMITED", dailyLimit: null, throughputMps: 1000 });
    const stored = await env.DB.prepare("SELECT tier, daily_limit, throughput_mps FROM connection_send_limits WHERE connection_id = ?").bind(created.id).first();
    expect(stored).toEqual({ tier: "TIER_UNLIMITED", daily_limit: null, throughput_mps: 1000 });
    // A sandbox connection has no such limits.
    expect((await sandboxConnection(owner.token)).messagingLimit ?? null).toBeNull();
  });

  it("tier names map to their daily limits; the scheduler keeps Meta's starting 250 until the tier is read", () => {
    expect([tierDailyLimit("TIER_250"), tierDailyLimit("TIER_2K"), tierDailyLimit("TIER_100K"), tierDailyLimit("TIER_1K")]).toEqual([250, 2000, 100_000, 1000]);
    expect(tierDailyLimit("TIER_UNLIMITED")).toBe(Number.POSITIVE_INFINITY);
    expect(tierDailyLimit("SOMETHING_ELSE")).toBeNull();
    expect(dailyLimitOf({ tier: null, dailyLimit: null })).toBe(250);
    expect(dailyLimitOf({ tier: "TIER_UNLIMITED", dailyLimit: null })).toBe(Number.POSITIVE_INFINITY);
    expect(dailyLimitOf({ tier: "TIER_10K", dailyLimit: 10_000 })).toBe(10_000);
  });
});

describe("sandbox pairing", () => {
  it("a new sandbox connection is DISCONNECTED and listed in the company's disconnected list; a Cloud API one is not", async () => {
    const owner = await register();
    const sandbox = await sandboxConnection(owner.token);
    const cloud = await cloudConnection(owner.token);
    const listed = await disconnectedIds(owner.token);
    expect(listed).toContain(sandbox.id);
    expect(listed).not.toContain(cloud.id);
  });

  it("the company's list marks a connection never paired (neverPaired) apart from one that lost its pairing (issue 9)", async () => {
    const owner = await register();
    const sandbox = await sandboxConnection(owner.token);
    const entries = async () => (await expectStatus<CompanyAnswer>(await call("GET", "/api/companies/active", { token: owner.token }), 200)).disconnected;
    expect(await entries()).toEqual([{ id: sandbox.id, name: sandbox.name, type: "sandbox", neverPaired: true }]);
    // A pairing attempt that is not finished keeps the mark.
    await pair(owner.token, sandbox.id);
    expect(await entries()).toEqual([{ id: sandbox.id, name: sandbox.name, type: "sandbox", neverPaired: true }]);
    // Paired, then disconnected: the connection was lost, not never paired.
    await pairSandbox(owner.token, sandbox.id);
    expect(await entries()).toEqual([]);
    await expectStatus<ConnectionAnswer>(await call("POST", `/api/connections/${sandbox.id}/disconnect`, { token: owner.token }), 200);
    expect(await entries()).toEqual([{ id: sandbox.id, name: sandbox.name, type: "sandbox" }]);
  });

  it("pair answers a QR link and an 8-character code valid for 60 seconds; pairing by code connects the device", async () => {
    const owner = await register();
    const sandbox = await sandboxConnection(owner.token);
    const before = Date.now();
    const pairing = await pair(owner.token, sandbox.id);
    expect(pairing.code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(pairing.qrValue).toMatch(/^http:\/\/localhost\/sandbox\/phone\?pair=.{16,}$/);
    expect(pairing.expiresAt).toBeGreaterThanOrEqual(before + 60_000 - 1000);
    expect(pairing.expiresAt).toBeLessThanOrEqual(Date.now() + 60_000);

    // The code may be typed in lower case and with a separator.
    const typed = `${pairing.code.slice(0, 4).toLowerCase()}-${pairing.code.slice(4)}`;
    const paired = await expectStatus<{ deviceToken: string; connection: { id: string; name: string } }>(
      await call("POST", "/api/channels/sandbox/pair", { body: { code: typed } }),
      200,
    );
    expect(paired.deviceToken.length).toBeGreaterThanOrEqual(32);
    expect(paired.connection).toEqual({ id: sandbox.id, name: "Sandbox" });
    expect(await getConnection(owner.token, sandbox.id)).toMatchObject({ status: "CONNECTED", connected: true });
    expect(await disconnectedIds(owner.token)).not.toContain(sandbox.id);

    // A code pairs once.
    await expectInvalid(await call("POST", "/api/channels/sandbox/pair", { body: { code: pairing.code } }), "code", "invalid_code");
  });

  it("pairing with the secret from the QR link's ?pair= connects the device", async () => {
    const owner = await register();
    const sandbox = await sandboxConnection(owner.token);
    const pairing = await pair(owner.token, sandbox.id);
    const secret = new URL(pairing.qrValue).searchParams.get("pair");
    expect(secret).toBeTruthy();
    const paired = await expectStatus<{ deviceToken: string }>(await call("POST", "/api/channels/sandbox/pair", { body: { secret } }), 200);
    expect(paired.deviceToken).toBeTruthy();
    expect((await getConnection(owner.token, sandbox.id)).status).toBe("CONNECTED");
  });

  it("an expired, wrong, superseded or missing code answers 400 and leaves the connection disconnected", async () => {
    const owner = await register();
    const sandbox = await sandboxConnection(owner.token);
    const old = await pair(owner.token, sandbox.id);
    const current = await pair(owner.token, sandbox.id);
    // The newer code replaces the older one.
    await expectInvalid(await call("POST", "/api/channels/sandbox/pair", { body: { code: old.code } }), "code", "invalid_code");
    await expectInvalid(await call("POST", "/api/channels/sandbox/pair", { body: { code: "ZZZZZZZZ" } }), "code", "invalid_code");
    await expectInvalid(await call("POST", "/api/channels/sandbox/pair", { body: { code: "ABC" } }), "code");
    await expectInvalid(await call("POST", "/api/channels/sandbox/pair", { body: {} }), "code");
    // Sixty seconds later the current code has expired.
    await env.DB.prepare("UPDATE connections SET pairing_expires_at = ? WHERE id = ?").bind(Date.now() - 1, sandbox.id).run();
    await expectInvalid(await call("POST", "/api/channels/sandbox/pair", { body: { code: current.code } }), "code", "invalid_code");
    await expectInvalid(
      await call("POST", "/api/channels/sandbox/pair", { body: { secret: new URL(current.qrValue).searchParams.get("pair") } }),
      "code",
      "invalid_code",
    );
    expect((await getConnection(owner.token, sandbox.id)).status).toBe("DISCONNECTED");
    expect(await disconnectedIds(owner.token)).toContain(sandbox.id);
  });

  it("only sandbox connections pair by code", async () => {
    const owner = await register();
    const cloud = await cloudConnection(owner.token);
    await expectInvalid(await call("POST", `/api/connections/${cloud.id}/pair`, { token: owner.token }), "channel", "not_pairable");
  });

  it("disconnect flips the status back, lists the connection again and revokes the device token", async () => {
    const owner = await register();
    const sandbox = await sandboxConnection(owner.token);
    const deviceToken = await pairSandbox(owner.token, sandbox.id);
    expect(await disconnectedIds(owner.token)).not.toContain(sandbox.id);
    const answer = await expectStatus<ConnectionAnswer>(await call("POST", `/api/connections/${sandbox.id}/disconnect`, { token: owner.token }), 200);
    expect(answer).toMatchObject({ status: "DISCONNECTED", connected: false });
    expect(await disconnectedIds(owner.token)).toEqual([sandbox.id]);
    await expectError(await sandboxEvents(deviceToken, [{ kind: "message", id: "sbx-msg-0001", from: "+5511987654321", type: "text", body: "Oi" }]), 401, "unauthorized");
    await expectError(await call("GET", "/api/channels/sandbox/transcript?phone=%2B5511987654321", { headers: { Authorization: `Device ${deviceToken}` } }), 401, "unauthorized");
    // Pairing again reconnects it.
    await pairSandbox(owner.token, sandbox.id);
    expect(await disconnectedIds(owner.token)).toEqual([]);
  });
});

describe("the sandbox phone", () => {
  it("events without a valid device token answer 401 and store nothing", async () => {
    const id = `sbx-${crypto.randomUUID()}`;
    const event = { kind: "message", id, from: "+5511987654321", type: "text", body: "Oi" };
    await expectError(await call("POST", "/api/channels/sandbox/events", { body: { events: [event] } }), 401, "unauthorized");
    await expectError(await sandboxEvents("not-a-device-token", [event]), 401, "unauthorized");
    await expectError(await call("POST", "/api/channels/sandbox/events", { body: { events: [event] }, headers: { Authorization: "Bearer x" } }), 401, "unauthorized");
    expect(await countRows("messages", "external_id = ?", id)).toBe(0);
  });

  it("the sandbox phone's messages create a pending ticket like a webhook, deduplicated by the phone's message id", async () => {
    const owner = await register();
    const sandbox = await sandboxConnection(owner.token, { greetingMessage: "Olá, aqui é a Padaria!" });
    const deviceToken = await pairSandbox(owner.token, sandbox.id);
    const phone = "+5511987654321";
    const events = [
      { kind: "message", id: "sbx-msg-1001", from: phone, name: "Cliente Teste", type: "text", body: "Olá", timestamp: 1_700_000_001_000 },
      { kind: "message", id: "sbx-msg-1002", from: phone, type: "button_reply", body: "Sim", replyId: "yes", timestamp: 1_700_000_002_000 },
      {
        kind: "message",
        id: "sbx-msg-1003",
        from: phone,
        type: "image",
        body: "foto",
        media: { mime: "image/png", fileName: "foto.png", dataBase64: btoa(String.fromCharCode(...someBytes(32))) },
        timestamp: 1_700_000_003_000,
      },
    ];
    const summary = await expectStatus<{ stored: number; duplicates: number }>(await sandboxEvents(deviceToken, events), 200);
    expect(summary).toMatchObject({ stored: 3, duplicates: 0 });
    const again = await expectStatus<{ stored: number; duplicates: number }>(await sandboxEvents(deviceToken, events), 200);
    expect(again).toMatchObject({ stored: 0, duplicates: 3 });

    const ticket = await onlyTicket(owner.token);
    expect(ticket).toMatchObject({ status: "pending", unreadCount: 3, connection: { id: sandbox.id, channel: "sandbox" } });
    expect(ticket.contact).toMatchObject({ name: "Cliente Teste", phone });
    const page = await ticketMessages(owner.token, ticket.id);
    const inbound = page.results.filter((m) => m.direction === "in");
    expect(inbound.map((m) => [m.type, m.body])).toEqual([
      ["text", "Olá"],
      ["button_reply", "Sim"],
      ["image", "foto"],
    ]);
    expect(inbound[1]?.payload).toMatchObject({ replyId: "yes" });
    const media = await call("GET", inbound[2]!.media!.url);
    expect(new Uint8Array(await media.arrayBuffer())).toEqual(someBytes(32));

    // The greeting reached the phone.
    const seen = await until(() => transcript(deviceToken, phone), (t) => t.transcript.some((e) => e.direction === "to_customer"), "the greeting on the phone");
    expect(seen.transcript.find((e) => e.direction === "to_customer")?.message).toMatchObject({ type: "text", body: "Olá, aqui é a Padaria!" });
  });

  it("a member's reply to a sandbox ticket lands in the device transcript and read receipts move it forward", async () => {
    const owner = await register();
    const sandbox = await sandboxConnection(owner.token, { farewellMessage: "Até logo!" });
    const deviceToken = await pairSandbox(owner.token, sandbox.id);
    const phone = "+5511912345678";
    await expectStatus(await sandboxEvents(deviceToken, [{ kind: "message", id: "sbx-msg-2001", from: phone, name: "Rita", type: "text", body: "Tem pão?" }]), 200);
    const ticket = await onlyTicket(owner.token);
    const reply = await expectStatus<MessageAnswer>(
      await call("POST", `/api/tickets/${ticket.id}/messages`, { token: owner.token, body: { type: "text", body: "Tem sim!" } }),
      201,
    );
    const page = await until(
      () => ticketMessages(owner.token, ticket.id),
      (p) => p.results.find((m) => m.id === reply.id)?.status === "sent",
      "the reply to reach the phone",
    );
    expect(page.results.find((m) => m.id === reply.id)?.status).toBe("sent");

    const lines = (await transcript(deviceToken, phone)).transcript;
    expect(lines.map((e) => [e.direction, e.message.type, "body" in e.message ? e.message.body : null])).toEqual([
      ["from_customer", "text", "Tem pão?"],
      ["to_customer", "text", "Tem sim!"],
    ]);
    // The phone reports the reply read: the member sees the blue ticks.
    const sentLine = lines[1]!;
    await expectStatus(await sandboxEvents(deviceToken, [{ kind: "status", id: sentLine.id, status: "read" }]), 200);
    expect((await ticketMessages(owner.token, ticket.id)).results.find((m) => m.id === reply.id)?.status).toBe("read");
    expect((await transcript(deviceToken, phone)).transcript[1]?.status).toBe("read");

    // Closing sends the farewell to the phone.
    await expectStatus<TicketAnswer>(await call("POST", `/api/tickets/${ticket.id}/close`, { token: owner.token }), 200);
    const after = await until(() => transcript(deviceToken, phone), (t) => t.transcript.length === 3, "the farewell on the phone");
    expect(after.transcript[2]?.message).toMatchObject({ type: "text", body: "Até logo!" });
  });

  it("a message the customer deletes shows as deleted, without its content; presence stores nothing", async () => {
    const owner = await register();
    const sandbox = await sandboxConnection(owner.token);
    const deviceToken = await pairSandbox(owner.token, sandbox.id);
    const phone = "+5511933332222";
    await expectStatus(await sandboxEvents(deviceToken, [{ kind: "message", id: "sbx-msg-5001", from: phone, type: "text", body: "ops, errado" }]), 200);
    const ticket = await onlyTicket(owner.token);
    await expectStatus(await sandboxEvents(deviceToken, [{ kind: "presence", from: phone, state: "typing" }]), 200);
    await expectStatus(await sandboxEvents(deviceToken, [{ kind: "revoke", id: "sbx-msg-5001", from: phone }]), 200);
    const [message] = (await ticketMessages(owner.token, ticket.id)).results;
    expect(message).toMatchObject({ deleted: true, body: "", payload: null, type: "text" });
    expect((await ticketMessages(owner.token, ticket.id)).results).toHaveLength(1);
  });

  it("a paired device sees only its own connection's transcript", async () => {
    const a = await register();
    const b = await register();
    const sa = await sandboxConnection(a.token);
    const sb = await sandboxConnection(b.token);
    const tokenA = await pairSandbox(a.token, sa.id);
    const tokenB = await pairSandbox(b.token, sb.id);
    const phone = "+5511955554444";
    await expectStatus(await sandboxEvents(tokenA, [{ kind: "message", id: "sbx-msg-3001", from: phone, type: "text", body: "só para A" }]), 200);
    expect((await transcript(tokenA, phone)).transcript).toHaveLength(1);
    expect((await transcript(tokenB, phone)).transcript).toHaveLength(0);
    expect((await listTickets(b.token)).total).toBe(0);
  });

  it("a sandbox event with an invalid shape answers 400 naming the field", async () => {
    const owner = await register();
    const sandbox = await sandboxConnection(owner.token);
    const deviceToken = await pairSandbox(owner.token, sandbox.id);
    await expectInvalid(await sandboxEvents(deviceToken, [{ kind: "message", id: "sbx-msg-4001", from: "not a phone", type: "text", body: "x" }]), "events.0.from");
    await expectInvalid(await sandboxEvents(deviceToken, [{ kind: "message", id: "sbx-msg-4002", from: "+5511987654321", type: "hologram", body: "x" }]), "events.0.type");
    await expectInvalid(await sandboxEvents(deviceToken, []), "events");
    expect((await listTickets(owner.token)).total).toBe(0);
  });
});

describe("an unpaid company (spec §4 Payment status: access is suspended)", () => {
  it("answers 402 payment_required on connections and tickets, while provider webhooks keep being stored", async () => {
    const owner = await register();
    const connection = await cloudConnection(owner.token);
    const company = await expectStatus<CompanyAnswer>(await call("GET", "/api/companies/active", { token: owner.token }), 200);
    await env.DB.prepare("UPDATE companies SET payment_status = 'unpaid' WHERE id = ?").bind(company.id).run();
    await expectError(await call("GET", "/api/connections", { token: owner.token }), 402, "payment_required");
    await expectError(await call("GET", "/api/tickets", { token: owner.token }), 402, "payment_required");
    // Settings stay reachable so the owner can pay.
    await expectStatus(await call("GET", "/api/companies/active", { token: owner.token }), 200);
    // A customer's message is never lost because of billing.
    const before = await countRows("messages", "company_id = ?", company.id);
    await deliverOk(textWebhook(connection.phoneNumberId, uniqueWaId(), wamid(), "ainda aqui"));
    expect(await countRows("messages", "company_id = ?", company.id)).toBe(before + 1);
  });
});
