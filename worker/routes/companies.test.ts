import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { CompanyAnswer, InviteAnswer, MemberAnswer } from "../../schema/api-types";
import { newId } from "../lib/ids";
import {
  type Account,
  activeCompanyId,
  call,
  countRows,
  createRole,
  eventually,
  expectError,
  expectInvalid,
  expectStatus,
  fileKey,
  form,
  invite,
  mailTo,
  me,
  member,
  ownerRole,
  pngFile,
  register,
  textFile,
  uniqueEmail,
  verificationCode,
} from "../test/helpers";

type CompanyRowSnapshot = Record<string, unknown>;

/** The company's row as stored, for "nothing was written" checks. */
async function companyRow(id: string): Promise<CompanyRowSnapshot | null> {
  return env.DB.prepare("SELECT * FROM companies WHERE id = ?").bind(id).first<CompanyRowSnapshot>();
}

async function inviteRow(id: string) {
  return env.DB.prepare("SELECT * FROM invites WHERE id = ?").bind(id).first<{ status: string; role_ids: string; company_id: string }>();
}

/** The activation code from the registration mail. */
async function activationCode(account: Account): Promise<string> {
  return verificationCode(account.email);
}

const validCompanyForm = (extra: Record<string, string | File> = {}) =>
  form({ timezone: "America/Manaus", showAttendantName: "true", ...extra });

/** Every call of this file that needs a signed-in user, for the 401 checks. */
const SIGNED_IN_CALLS: [string, string][] = [
  ["GET", "/api/companies"],
  ["GET", "/api/companies/active"],
  ["PUT", "/api/companies/active"],
  ["POST", "/api/companies/active-code"],
  ["GET", "/api/companies/active/api-keys"],
  ["POST", "/api/companies/active/api-keys"],
  ["DELETE", `/api/companies/active/api-keys/${newId()}`],
  ["GET", "/api/companies/invites"],
  ["POST", "/api/companies/invite"],
  ["DELETE", `/api/companies/invite/${newId()}`],
  ["POST", `/api/companies/invite/${newId()}/accept`],
  ["POST", `/api/companies/invite/${newId()}/reject`],
];

describe("signed-in calls of /api/companies", () => {
  it.each(SIGNED_IN_CALLS)("%s %s without a token answers 401", async (method, path) => {
    await expectError(await call(method, path), 401, "unauthorized");
  });

  it.each(SIGNED_IN_CALLS)("%s %s with a token from before logout answers 401", async (method, path) => {
    const account = await register();
    await call("POST", "/api/logout", { token: account.token });
    await expectError(await call(method, path, { token: account.token }), 401, "unauthorized");
  });

  it("a user with no active company gets 403 no_company on company calls", async () => {
    const account = await register();
    await env.DB.prepare("UPDATE users SET active_company_id = NULL WHERE email = ?").bind(account.email).run();
    await expectError(await call("GET", "/api/companies/active", { token: account.token }), 403, "no_company");
    await expectError(await call("GET", "/api/companies/members", { token: account.token }), 403, "no_company");
    await expectError(await call("GET", "/api/companies/roles", { token: account.token }), 403, "no_company");
  });

  it("a user whose active company is one they left gets 403 no_company", async () => {
    const account = await register();
    const stranger = await register();
    const strangerCompany = await activeCompanyId(stranger.token);
    await env.DB.prepare("UPDATE users SET active_company_id = ? WHERE email = ?").bind(strangerCompany, account.email).run();
    await expectError(await call("GET", "/api/companies/active", { token: account.token }), 403, "no_company");
  });
});

describe("GET /api/companies", () => {
  it("lists the user's companies by name, marking the active one", async () => {
    const owner = await register({ companyName: "Zebra Ltda" });
    const staff = await member(owner, []);
    const list = await expectStatus<{ id: string; name: string; image: string | null; active: boolean }[]>(
      await call("GET", "/api/companies", { token: staff.token }),
      200,
    );
    expect(list).toEqual([
      { id: expect.any(String), name: "Oficina do Bruno", image: null, active: false },
      { id: staff.companyId, name: "Zebra Ltda", image: null, active: true },
    ]);
  });

  it("does not list companies the user is not a member of", async () => {
    const account = await register({ companyName: "Minha Empresa" });
    await register({ companyName: "Empresa Alheia" });
    const list = await expectStatus<{ name: string }[]>(await call("GET", "/api/companies", { token: account.token }), 200);
    expect(list.map((c) => c.name)).toEqual(["Minha Empresa"]);
  });
});

describe("GET /api/companies/active", () => {
  it("answers the active company on its 7-day trial", async () => {
    const account = await register({ companyName: "Café Aurora" }, { verified: false });
    const user = await me(account.token);
    const company = await expectStatus<CompanyAnswer>(await call("GET", "/api/companies/active", { token: account.token }), 200);
    expect(company).toMatchObject({
      id: user.activeCompany,
      name: "Café Aurora",
      image: null,
      owner: user.id,
      plan: "trial",
      paymentStatus: "trial",
      activated: false,
      subscriptionValid: true,
      apiKeyHint: null,
      showAttendantName: false,
    });
    expect(company.dueDate).toBeGreaterThan(Date.now() + 6 * 24 * 3600 * 1000);
    expect(company.dueDate).toBeLessThanOrEqual(Date.now() + 7 * 24 * 3600 * 1000);
    expect(JSON.stringify(company)).not.toMatch(/activation|apiKeyHash|api_key_hash/);
  });

  it("any member may read it, without a permission", async () => {
    const owner = await register();
    const staff = await member(owner, []);
    const company = await expectStatus<CompanyAnswer>(await call("GET", "/api/companies/active", { token: staff.token }), 200);
    expect(company.id).toBe(staff.companyId);
  });
});

describe("PUT /api/companies/active", () => {
  it("saves timezone, showAttendantName, name, language and WhatsApp number", async () => {
    const owner = await register();
    const res = await call("PUT", "/api/companies/active", {
      token: owner.token,
      form: validCompanyForm({ name: "Nome Novo", language: "en-US", whatsappNumber: "(11) 91234-5678" }),
    });
    const company = await expectStatus<CompanyAnswer>(res, 200);
    expect(company).toMatchObject({
      timezone: "America/Manaus",
      showAttendantName: true,
      name: "Nome Novo",
      language: "en-US",
      whatsappNumber: "+5511912345678",
    });
    expect(await expectStatus(await call("GET", "/api/companies/active", { token: owner.token }), 200)).toEqual(company);
  });

  it("keeps the name when it is not sent, and stores showAttendantName false", async () => {
    const owner = await register({ companyName: "Nome Antigo" });
    await call("PUT", "/api/companies/active", { token: owner.token, form: validCompanyForm() });
    const company = await expectStatus<CompanyAnswer>(
      await call("PUT", "/api/companies/active", { token: owner.token, form: form({ timezone: "UTC", showAttendantName: "false" }) }),
      200,
    );
    expect(company).toMatchObject({ name: "Nome Antigo", timezone: "UTC", showAttendantName: false });
  });

  it("stores an image, serves it, keeps it when absent, and removes it with image=null", async () => {
    const owner = await register();
    const withImage = await expectStatus<CompanyAnswer>(
      await call("PUT", "/api/companies/active", { token: owner.token, form: validCompanyForm({ image: pngFile("logo.png") }) }),
      200,
    );
    expect(withImage.image).toMatch(/^\/api\/files\/images\/companies\/[0-9a-f-]{36}\.png$/);
    const served = await call("GET", withImage.image ?? "");
    expect(served.status, await served.clone().text()).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/png");

    const kept = await expectStatus<CompanyAnswer>(await call("PUT", "/api/companies/active", { token: owner.token, form: validCompanyForm() }), 200);
    expect(kept.image).toBe(withImage.image);

    const removed = await expectStatus<CompanyAnswer>(
      await call("PUT", "/api/companies/active", { token: owner.token, form: validCompanyForm({ image: "null" }) }),
      200,
    );
    expect(removed.image).toBeNull();
    await eventually(async () => (await env.FILES.head(fileKey(withImage.image))) === null, "removed logo deleted from R2");
  });

  it.each([
    ["timezone", { showAttendantName: "true" }, "required"],
    ["timezone", { timezone: "Mars/Olympus_Mons", showAttendantName: "true" }, "invalid_timezone"],
    ["showAttendantName", { timezone: "UTC" }, "required"],
    ["showAttendantName", { timezone: "UTC", showAttendantName: "maybe" }, undefined],
    ["name", { timezone: "UTC", showAttendantName: "true", name: "x" }, "name_too_short"],
    ["language", { timezone: "UTC", showAttendantName: "true", language: "fr-FR" }, "invalid_language"],
    ["whatsappNumber", { timezone: "UTC", showAttendantName: "true", whatsappNumber: "123" }, "invalid_phone"],
    ["image", { timezone: "UTC", showAttendantName: "true", image: "remove" }, "invalid_image"],
  ])("an invalid %s answers 400 naming the field and writes nothing (%j)", async (field, fields, reason) => {
    const owner = await register();
    const id = await activeCompanyId(owner.token);
    const before = await companyRow(id);
    await expectInvalid(await call("PUT", "/api/companies/active", { token: owner.token, form: form(fields) }), field, reason);
    expect(await companyRow(id)).toEqual(before);
  });

  it("a non-image file answers 400 invalid_image, stores nothing in R2 and writes nothing", async () => {
    const owner = await register();
    const id = await activeCompanyId(owner.token);
    const before = await companyRow(id);
    const objects = (await env.FILES.list({ prefix: "images/companies/" })).objects.length;
    await expectInvalid(
      await call("PUT", "/api/companies/active", { token: owner.token, form: validCompanyForm({ name: "Outro Nome", image: textFile() }) }),
      "image",
      "invalid_image",
    );
    expect(await companyRow(id)).toEqual(before);
    expect((await env.FILES.list({ prefix: "images/companies/" })).objects.length).toBe(objects);
  });

  it("a member without settings_company gets 403 and nothing is written", async () => {
    const owner = await register();
    const staff = await member(owner, ["settings_members", "tickets"]);
    const before = await companyRow(staff.companyId);
    await expectError(
      await call("PUT", "/api/companies/active", { token: staff.token, form: validCompanyForm({ name: "Hijacked" }) }),
      403,
      "forbidden",
    );
    expect(await companyRow(staff.companyId)).toEqual(before);
  });

  it("a member with settings_company may update it", async () => {
    const owner = await register();
    const staff = await member(owner, ["settings_company"]);
    const company = await expectStatus<CompanyAnswer>(
      await call("PUT", "/api/companies/active", { token: staff.token, form: validCompanyForm({ name: "Pelo Gerente" }) }),
      200,
    );
    expect(company).toMatchObject({ id: staff.companyId, name: "Pelo Gerente" });
  });

  it("changes only the session's active company", async () => {
    const owner = await register({ companyName: "Primeira" });
    const staff = await member(owner, ["settings_company"]);
    const own = await expectStatus<{ id: string; name: string }[]>(await call("GET", "/api/companies", { token: staff.token }), 200);
    const ownId = own.find((c) => c.id !== staff.companyId)?.id ?? "";
    const before = await companyRow(ownId);
    await expectStatus(await call("PUT", "/api/companies/active", { token: staff.token, form: validCompanyForm({ name: "Só Esta" }) }), 200);
    expect(await companyRow(ownId)).toEqual(before);
  });
});

describe("POST /api/companies/active-code", () => {
  it("the mailed code activates the company", async () => {
    const owner = await register({}, { verified: false });
    const code = await activationCode(owner);
    const company = await expectStatus<CompanyAnswer>(await call("POST", "/api/companies/active-code", { token: owner.token, body: { code } }), 200);
    expect(company.activated).toBe(true);
    const row = await companyRow(company.id);
    expect(row?.activated_at).toEqual(expect.any(Number));
    expect(row?.activation_code_hash).toBeNull();
  });

  it("a wrong code answers 400 invalid_code and leaves the company inactive", async () => {
    const owner = await register({}, { verified: false });
    const code = await activationCode(owner);
    const wrong = code === "000000" ? "111111" : "000000";
    await expectInvalid(await call("POST", "/api/companies/active-code", { token: owner.token, body: { code: wrong } }), "code", "invalid_code");
    const company = await expectStatus<CompanyAnswer>(await call("GET", "/api/companies/active", { token: owner.token }), 200);
    expect(company.activated).toBe(false);
  });

  it("another company's code does not activate this one", async () => {
    const owner = await register({}, { verified: false });
    const other = await register({}, { verified: false });
    const code = await activationCode(other);
    const mine = await activationCode(owner);
    if (code === mine) return; // one chance in a million: nothing to prove
    await expectInvalid(await call("POST", "/api/companies/active-code", { token: owner.token, body: { code } }), "code", "invalid_code");
  });

  it.each([
    [{ code: "12ab56" }, "invalid_code"],
    [{ code: "12345" }, "invalid_code"],
    [{}, "required"],
  ])("a malformed code answers 400 naming code, counts no try and writes nothing (%j)", async (body, reason) => {
    const owner = await register({}, { verified: false });
    const id = await activeCompanyId(owner.token);
    const before = await companyRow(id);
    await expectInvalid(await call("POST", "/api/companies/active-code", { token: owner.token, body }), "code", reason);
    expect(await companyRow(id)).toEqual(before);
    expect(await countRows("rate_limits", "key = ?", `activate:${id}`)).toBe(0);
  });

  it("too many wrong codes answer 429 with Retry-After, even for the right code", async () => {
    const owner = await register({}, { verified: false });
    const code = await activationCode(owner);
    const wrong = code === "000000" ? "111111" : "000000";
    let blocked: Response | null = null;
    for (let i = 0; i < 30 && !blocked; i++) {
      const res = await call("POST", "/api/companies/active-code", { token: owner.token, body: { code: wrong } });
      if (res.status === 429) blocked = res;
      else await expectInvalid(res, "code", "invalid_code");
    }
    expect(blocked, "never rate limited").not.toBeNull();
    expect(Number(blocked?.headers.get("Retry-After"))).toBeGreaterThan(0);
    await expectError(await call("POST", "/api/companies/active-code", { token: owner.token, body: { code } }), 429, "rate_limited");
  });

  it("a member without settings_company gets 403 and the company stays inactive", async () => {
    const owner = await register({}, { verified: false });
    const staff = await member(owner, ["settings_members"]);
    const code = await activationCode(owner);
    await expectError(await call("POST", "/api/companies/active-code", { token: staff.token, body: { code } }), 403, "forbidden");
    expect((await companyRow(staff.companyId))?.activated_at).toBeNull();
  });

  it("a malformed JSON body answers 400, not 500", async () => {
    const owner = await register({}, { verified: false });
    await expectError(await call("POST", "/api/companies/active-code", { token: owner.token, body: "{code" }), 400, "validation_failed");
  });
});

// The company's API keys (list, create, revoke) and what a key reaches: worker/routes/api-keys.test.ts.

describe("GET /api/companies/invites", () => {
  it("lists the company's pending invites only", async () => {
    const owner = await register();
    const role = await createRole(owner, ["tickets"]);
    const pending = await invite(owner, uniqueEmail("p"), [role.id]);
    const cancelled = await invite(owner, uniqueEmail("c"), [role.id]);
    await expectStatus(await call("DELETE", `/api/companies/invite/${cancelled.id}`, { token: owner.token }), 204);
    const other = await register();
    const otherRole = await createRole(other, ["tickets"]);
    const foreign = await invite(other, uniqueEmail("f"), [otherRole.id]);
    const list = await expectStatus<InviteAnswer[]>(await call("GET", "/api/companies/invites", { token: owner.token }), 200);
    expect(list.map((i) => i.id)).toEqual([pending.id]);
    expect(list.map((i) => i.id)).not.toContain(foreign.id);
  });

  it("a member without settings_members gets 403", async () => {
    const owner = await register();
    const staff = await member(owner, ["settings_company"]);
    await expectError(await call("GET", "/api/companies/invites", { token: staff.token }), 403, "forbidden");
  });
});

describe("POST /api/companies/invite", () => {
  it("creates a pending invite with its roles and mails the address", async () => {
    const owner = await register({ companyName: "Loja Verde" });
    const role = await createRole(owner, ["tickets"], "Vendedor");
    const email = uniqueEmail("invitee");
    const res = await call("POST", "/api/companies/invite", { token: owner.token, body: { email: email.toUpperCase(), roles: [role.id] } });
    const sent = await expectStatus<InviteAnswer>(res, 201);
    const companyId = await activeCompanyId(owner.token);
    expect(sent).toEqual({
      id: expect.any(String),
      email,
      status: "pending",
      roles: [{ id: role.id, name: "Vendedor" }],
      company: { id: companyId, name: "Loja Verde" },
      createdAt: expect.any(Number),
    });
    expect(await countRows("invites", "company_id = ? AND email = ? AND status = 'pending'", companyId, email)).toBe(1);
    const mail = await mailTo(email, "Loja Verde");
    expect(mail.subject).toContain("Loja Verde");
  });

  it("an invite to someone who already has an account goes out in their language, not the inviting company's (issue 9)", async () => {
    const invitee = await register({ companyName: "Bakery Inc" });
    await env.DB.prepare("UPDATE companies SET language = 'en-US' WHERE id = ?").bind(await activeCompanyId(invitee.token)).run();
    const owner = await register({ companyName: "Loja Azul" });
    const role = await createRole(owner, ["tickets"], "Vendedor");
    await expectStatus(await call("POST", "/api/companies/invite", { token: owner.token, body: { email: invitee.email, roles: [role.id] } }), 201);
    const mail = await mailTo(invitee.email, "Loja Azul");
    expect(mail.subject).toContain("invited you to Loja Azul");
    // Without an account the mail is in the inviting company's language (pt-BR).
    const stranger = uniqueEmail("stranger");
    await expectStatus(await call("POST", "/api/companies/invite", { token: owner.token, body: { email: stranger, roles: [role.id] } }), 201);
    expect((await mailTo(stranger, "Loja Azul")).subject).toContain("convidou você para Loja Azul");
  });

  it("re-inviting a pending address updates its roles instead of adding a second invite", async () => {
    const owner = await register();
    const a = await createRole(owner, ["tickets"]);
    const b = await createRole(owner, ["contacts"]);
    const email = uniqueEmail("again");
    const first = await invite(owner, email, [a.id]);
    const second = await invite(owner, email, [b.id, b.id]);
    expect(second.id).toBe(first.id);
    expect(second.roles.map((r) => r.id)).toEqual([b.id]);
    expect(await countRows("invites", "email = ?", email)).toBe(1);
  });

  it.each([
    ["email", { email: "nope" }, "invalid_email"],
    ["email", { email: undefined }, "required"],
    ["roles", { roles: [] }, "roles_required"],
    ["roles", { roles: undefined }, "required"],
    ["roles.0", { roles: ["not-a-uuid"] }, "invalid_id"],
  ])("an invalid %s answers 400 naming the field and writes nothing (%j)", async (field, override, reason) => {
    const owner = await register();
    const role = await createRole(owner, ["tickets"]);
    const invites = await countRows("invites");
    const body = { email: uniqueEmail("bad"), roles: [role.id], ...override };
    await expectInvalid(await call("POST", "/api/companies/invite", { token: owner.token, body }), field, reason);
    expect(await countRows("invites")).toBe(invites);
  });

  it("a role of another company answers 400 naming roles and writes nothing", async () => {
    const owner = await register();
    const other = await register();
    const foreignRole = await createRole(other, ["tickets"]);
    const email = uniqueEmail("x");
    await expectInvalid(
      await call("POST", "/api/companies/invite", { token: owner.token, body: { email, roles: [foreignRole.id] } }),
      "roles",
      "invalid_id",
    );
    expect(await countRows("invites", "email = ?", email)).toBe(0);
  });

  it("the Owner role cannot be given by invite (409) and nothing is written", async () => {
    const owner = await register();
    const manager = await member(owner, ["settings_members"]);
    const ownerRoleId = (await ownerRole(owner)).id;
    const email = uniqueEmail("escalate");
    const body = await expectError(
      await call("POST", "/api/companies/invite", { token: manager.token, body: { email, roles: [ownerRoleId] } }),
      409,
      "conflict",
    );
    expect(body.error.fields?.roles, JSON.stringify(body)).toBe("owner_role");
    expect(await countRows("invites", "email = ?", email)).toBe(0);
  });

  it("an address that already belongs to a member answers 409 and writes nothing", async () => {
    const owner = await register();
    const staff = await member(owner, []);
    const role = await createRole(owner, ["tickets"]);
    const invites = await countRows("invites", "email = ?", staff.email);
    const body = await expectError(
      await call("POST", "/api/companies/invite", { token: owner.token, body: { email: staff.email, roles: [role.id] } }),
      409,
      "conflict",
    );
    expect(body.error.fields?.email).toBe("already_member");
    expect(await countRows("invites", "email = ?", staff.email)).toBe(invites);
    await expectError(
      await call("POST", "/api/companies/invite", { token: owner.token, body: { email: owner.email, roles: [role.id] } }),
      409,
      "conflict",
    );
  });

  it("a member without settings_members gets 403 and nothing is written", async () => {
    const owner = await register();
    const staff = await member(owner, ["settings_company"]);
    const email = uniqueEmail("nope");
    await expectError(
      await call("POST", "/api/companies/invite", { token: staff.token, body: { email, roles: [staff.roleId] } }),
      403,
      "forbidden",
    );
    expect(await countRows("invites", "email = ?", email)).toBe(0);
  });

  it("a member with settings_members may invite", async () => {
    const owner = await register();
    const staff = await member(owner, ["settings_members"]);
    const sent = await invite(staff, uniqueEmail("ok"), [staff.roleId]);
    expect(sent.company.id).toBe(staff.companyId);
  });

  it("a malformed JSON body answers 400, not 500", async () => {
    const owner = await register();
    await expectError(await call("POST", "/api/companies/invite", { token: owner.token, body: "{{" }), 400, "validation_failed");
  });
});

describe("DELETE /api/companies/invite/{id}", () => {
  it("cancels a pending invite: it can no longer be accepted", async () => {
    const owner = await register();
    const role = await createRole(owner, ["tickets"]);
    const guest = await register();
    const sent = await invite(owner, guest.email, [role.id]);
    const res = await call("DELETE", `/api/companies/invite/${sent.id}`, { token: owner.token });
    expect(res.status, await res.clone().text()).toBe(204);
    expect((await inviteRow(sent.id))?.status).toBe("cancelled");
    await expectError(await call("POST", `/api/companies/invite/${sent.id}/accept`, { token: guest.token }), 404, "not_found");
  });

  it("a second cancel answers 404", async () => {
    const owner = await register();
    const role = await createRole(owner, ["tickets"]);
    const sent = await invite(owner, uniqueEmail("twice"), [role.id]);
    await expectStatus(await call("DELETE", `/api/companies/invite/${sent.id}`, { token: owner.token }), 204);
    await expectError(await call("DELETE", `/api/companies/invite/${sent.id}`, { token: owner.token }), 404, "not_found");
  });

  it("another company's invite answers 404 and stays pending", async () => {
    const owner = await register();
    const other = await register();
    const role = await createRole(other, ["tickets"]);
    const foreign = await invite(other, uniqueEmail("theirs"), [role.id]);
    await expectError(await call("DELETE", `/api/companies/invite/${foreign.id}`, { token: owner.token }), 404, "not_found");
    expect((await inviteRow(foreign.id))?.status).toBe("pending");
  });

  it("a malformed id answers 400 naming id", async () => {
    const owner = await register();
    await expectInvalid(await call("DELETE", "/api/companies/invite/123", { token: owner.token }), "id", "invalid_id");
  });

  it("a member without settings_members gets 403 and the invite stays pending", async () => {
    const owner = await register();
    const staff = await member(owner, ["settings_company"]);
    const sent = await invite(owner, uniqueEmail("keep"), [staff.roleId]);
    await expectError(await call("DELETE", `/api/companies/invite/${sent.id}`, { token: staff.token }), 403, "forbidden");
    expect((await inviteRow(sent.id))?.status).toBe("pending");
  });
});

describe("POST /api/companies/invite/{id}/accept", () => {
  it("joins the company with the invite's roles, keeping the current active company", async () => {
    const owner = await register();
    const role = await createRole(owner, ["tickets", "contacts"], "Equipe");
    const guest = await register();
    const ownCompany = (await me(guest.token)).activeCompany;
    const sent = await invite(owner, guest.email, [role.id]);
    const companyId = await activeCompanyId(owner.token);
    expect(await expectStatus(await call("POST", `/api/companies/invite/${sent.id}/accept`, { token: guest.token }), 200)).toEqual({ companyId });
    expect((await inviteRow(sent.id))?.status).toBe("accepted");
    expect((await me(guest.token)).activeCompany).toBe(ownCompany);
    const members = await expectStatus<MemberAnswer[]>(await call("GET", "/api/companies/members", { token: owner.token }), 200);
    expect(members.find((m) => m.email === guest.email)?.roles).toEqual([{ id: role.id, name: "Equipe" }]);
    await expectStatus(await call("PUT", "/api/me/change-active", { token: guest.token, body: { companyId } }), 200);
    const permissions = await expectStatus<string[]>(await call("GET", "/api/me/permissions", { token: guest.token }), 200);
    expect([...permissions].sort()).toEqual(["contacts", "tickets"]);
  });

  it("an address with no account registers later and accepts", async () => {
    const owner = await register();
    const role = await createRole(owner, ["tickets"]);
    const email = uniqueEmail("newcomer");
    const sent = await invite(owner, email, [role.id]);
    const guest = await register({ email });
    await expectStatus(await call("POST", `/api/companies/invite/${sent.id}/accept`, { token: guest.token }), 200);
    const companies = await expectStatus<{ id: string }[]>(await call("GET", "/api/companies", { token: guest.token }), 200);
    expect(companies.map((c) => c.id)).toContain(await activeCompanyId(owner.token));
  });

  it("a user with no active company starts using the company they joined", async () => {
    const owner = await register();
    const role = await createRole(owner, ["tickets"]);
    const guest = await register();
    await env.DB.prepare("UPDATE users SET active_company_id = NULL WHERE email = ?").bind(guest.email).run();
    const sent = await invite(owner, guest.email, [role.id]);
    await expectStatus(await call("POST", `/api/companies/invite/${sent.id}/accept`, { token: guest.token }), 200);
    expect((await me(guest.token)).activeCompany).toBe(await activeCompanyId(owner.token));
  });

  it("an invite addressed to someone else answers 404 and stays pending", async () => {
    const owner = await register();
    const role = await createRole(owner, ["tickets"]);
    const sent = await invite(owner, uniqueEmail("rightful"), [role.id]);
    const intruder = await register();
    const members = await countRows("members");
    await expectError(await call("POST", `/api/companies/invite/${sent.id}/accept`, { token: intruder.token }), 404, "not_found");
    expect((await inviteRow(sent.id))?.status).toBe("pending");
    expect(await countRows("members")).toBe(members);
  });

  it("an invite already accepted answers 404 the second time", async () => {
    const owner = await register();
    const role = await createRole(owner, ["tickets"]);
    const guest = await register();
    const sent = await invite(owner, guest.email, [role.id]);
    await expectStatus(await call("POST", `/api/companies/invite/${sent.id}/accept`, { token: guest.token }), 200);
    await expectError(await call("POST", `/api/companies/invite/${sent.id}/accept`, { token: guest.token }), 404, "not_found");
  });

  it("an unknown id answers 404, a malformed one 400", async () => {
    const guest = await register();
    await expectError(await call("POST", `/api/companies/invite/${newId()}/accept`, { token: guest.token }), 404, "not_found");
    await expectInvalid(await call("POST", "/api/companies/invite/xyz/accept", { token: guest.token }), "id", "invalid_id");
  });
});

describe("POST /api/companies/invite/{id}/reject", () => {
  it("marks the invite rejected and adds no membership", async () => {
    const owner = await register();
    const role = await createRole(owner, ["tickets"]);
    const guest = await register();
    const sent = await invite(owner, guest.email, [role.id]);
    const members = await countRows("members");
    const res = await call("POST", `/api/companies/invite/${sent.id}/reject`, { token: guest.token });
    expect(res.status, await res.clone().text()).toBe(204);
    expect((await inviteRow(sent.id))?.status).toBe("rejected");
    expect(await countRows("members")).toBe(members);
    await expectError(await call("POST", `/api/companies/invite/${sent.id}/accept`, { token: guest.token }), 404, "not_found");
  });

  it("an invite addressed to someone else answers 404 and stays pending", async () => {
    const owner = await register();
    const role = await createRole(owner, ["tickets"]);
    const sent = await invite(owner, uniqueEmail("rightful"), [role.id]);
    const intruder = await register();
    await expectError(await call("POST", `/api/companies/invite/${sent.id}/reject`, { token: intruder.token }), 404, "not_found");
    expect((await inviteRow(sent.id))?.status).toBe("pending");
  });

  it("a malformed id answers 400 naming id", async () => {
    const guest = await register();
    await expectInvalid(await call("POST", "/api/companies/invite/xyz/reject", { token: guest.token }), "id", "invalid_id");
  });
});
