import { env } from "cloudflare:test";
import { SignJWT } from "jose";
import { sessionKey } from "../lib/keys";
import { describe, expect, it } from "vitest";
import type { AnnouncementAnswer, InviteAnswer, MeAnswer } from "../../schema/api-types";
import { COMPANY_PERMISSIONS } from "../../schema/permissions";
import { MAX_IMAGE_BYTES } from "../lib/images";
import { newId } from "../lib/ids";
import {
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
  me,
  member,
  pngFile,
  register,
  textFile,
  uniqueEmail,
} from "../test/helpers";

/** Every call of this file that needs a signed-in user, for the 401 checks. */
const SIGNED_IN_CALLS: [string, string][] = [
  ["GET", "/api/me"],
  ["PUT", "/api/me"],
  ["GET", "/api/me/permissions"],
  ["GET", "/api/me/invites"],
  ["GET", "/api/me/announcements"],
  ["POST", "/api/me/announcements/seen"],
  ["PUT", "/api/me/change-active"],
  ["PUT", "/api/user/change-status"],
];

describe("signed-in calls of /api/me and /api/user", () => {
  it.each(SIGNED_IN_CALLS)("%s %s without a token answers 401", async (method, path) => {
    await expectError(await call(method, path), 401, "unauthorized");
  });

  it.each(SIGNED_IN_CALLS)("%s %s with a garbage token answers 401", async (method, path) => {
    await expectError(await call(method, path, { token: "not-a-jwt" }), 401, "unauthorized");
  });

  it("a token signed with another secret answers 401", async () => {
    const account = await register();
    const user = await me(account.token);
    const forged = await new SignJWT({ ver: 0 })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(user.id)
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode("another-secret-another-secret-another"));
    await expectError(await call("GET", "/api/me", { token: forged }), 401, "unauthorized");
  });

  it("an expired token answers 401", async () => {
    const account = await register();
    const user = await me(account.token);
    const past = Math.floor(Date.now() / 1000) - 3600;
    const expired = await new SignJWT({ ver: 0 })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(user.id)
      .setIssuedAt(past - 60)
      .setExpirationTime(past)
      .sign(await sessionKey(env));
    await expectError(await call("GET", "/api/me", { token: expired }), 401, "unauthorized");
    // The same claims unexpired are accepted: only the expiry made the difference.
    const fresh = await new SignJWT({ ver: 0 })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(user.id)
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(await sessionKey(env));
    await expectStatus(await call("GET", "/api/me", { token: fresh }), 200);
  });

  it("a token of a deleted user answers 401", async () => {
    const account = await register();
    const user = await me(account.token);
    await env.DB.prepare("DELETE FROM users WHERE id = ?").bind(user.id).run();
    await expectError(await call("GET", "/api/me", { token: account.token }), 401, "unauthorized");
  });
});

describe("GET /api/me", () => {
  it("answers the signed-in user without secrets", async () => {
    const account = await register({ name: "Dora Nunes" });
    const res = await call("GET", "/api/me", { token: account.token });
    const body = await expectStatus<Record<string, unknown>>(res, 200);
    expect(body).toMatchObject({ name: "Dora Nunes", email: account.email, phone: "+5511987654321", image: null, status: "online" });
    expect(Object.keys(body).sort()).toEqual(["activeCompany", "email", "emailVerified", "franchiseAdmin", "id", "image", "name", "phone", "platformAdmin", "status"]);
  });
});

describe("PUT /api/me", () => {
  it("updates the name alone and keeps the rest", async () => {
    const account = await register();
    const updated = await expectStatus<MeAnswer>(await call("PUT", "/api/me", { token: account.token, form: form({ name: "Nome Novo" }) }), 200);
    expect(updated).toMatchObject({ name: "Nome Novo", phone: "+5511987654321", image: null });
    expect((await me(account.token)).name).toBe("Nome Novo");
  });

  it("updates the phone together with the name, normalised to E.164", async () => {
    const account = await register();
    const updated = await expectStatus<MeAnswer>(
      await call("PUT", "/api/me", { token: account.token, form: form({ name: "Nome Novo", phone: "(11) 91234-5678" }) }),
      200,
    );
    expect(updated.phone).toBe("+5511912345678");
  });

  it("stores an image in R2 and serves it from GET /api/files/images/...", async () => {
    const account = await register();
    const updated = await expectStatus<MeAnswer>(await call("PUT", "/api/me", { token: account.token, form: form({ image: pngFile() }) }), 200);
    expect(updated.image).toMatch(/^\/api\/files\/images\/avatars\/[0-9a-f-]{36}\.png$/);
    expect(await env.FILES.head(fileKey(updated.image))).not.toBeNull();
    const served = await call("GET", updated.image ?? "");
    expect(served.status, await served.clone().text()).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/png");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(new Uint8Array(await pngFile().arrayBuffer()));
  });

  it("a new image replaces the old one, which is deleted from R2", async () => {
    const account = await register();
    const first = await expectStatus<MeAnswer>(await call("PUT", "/api/me", { token: account.token, form: form({ image: pngFile() }) }), 200);
    const second = await expectStatus<MeAnswer>(await call("PUT", "/api/me", { token: account.token, form: form({ image: pngFile() }) }), 200);
    expect(second.image).not.toBe(first.image);
    await eventually(async () => (await env.FILES.head(fileKey(first.image))) === null, "old avatar deleted");
    expect(await env.FILES.head(fileKey(second.image))).not.toBeNull();
  });

  it("neither name nor image answers 400 and changes nothing", async () => {
    const account = await register();
    const before = await me(account.token);
    await expectInvalid(await call("PUT", "/api/me", { token: account.token, form: form({}) }), "name", "name_or_image_required");
    await expectInvalid(await call("PUT", "/api/me", { token: account.token, form: form({ name: "" }) }), "name");
    // A phone alone is not enough either (spec §5).
    await expectInvalid(await call("PUT", "/api/me", { token: account.token, form: form({ phone: "+5511912345678" }) }), "name");
    expect(await me(account.token)).toEqual(before);
  });

  it.each([
    ["name", { name: "x" }, "name_too_short"],
    ["name", { name: "!!" }, "invalid_name"],
    ["phone", { name: "Valid Name", phone: "12" }, "invalid_phone"],
  ])("an invalid %s answers 400 naming the field and changes nothing (%j)", async (field, fields, reason) => {
    const account = await register();
    const before = await me(account.token);
    await expectInvalid(await call("PUT", "/api/me", { token: account.token, form: form(fields) }), field, reason);
    expect(await me(account.token)).toEqual(before);
  });

  it("a non-image file answers 400 invalid_image and stores nothing", async () => {
    const account = await register();
    const before = await me(account.token);
    const objects = (await env.FILES.list({ prefix: "images/avatars/" })).objects.length;
    await expectInvalid(
      await call("PUT", "/api/me", { token: account.token, form: form({ name: "Changed Name", image: textFile() }) }),
      "image",
      "invalid_image",
    );
    // A text file that claims to be a PNG is refused by its bytes.
    await expectInvalid(
      await call("PUT", "/api/me", { token: account.token, form: form({ name: "Changed Name", image: textFile("image/png", "fake.png") }) }),
      "image",
      "invalid_image",
    );
    expect(await me(account.token)).toEqual(before);
    expect((await env.FILES.list({ prefix: "images/avatars/" })).objects.length).toBe(objects);
  });

  it("an image field that is text answers 400 invalid_image", async () => {
    const account = await register();
    await expectInvalid(await call("PUT", "/api/me", { token: account.token, form: form({ image: "not a file" }) }), "image", "invalid_image");
  });

  it("an image over the size limit answers 400 image_too_large", async () => {
    const account = await register();
    const big = new Uint8Array(MAX_IMAGE_BYTES + 1);
    big.set(new Uint8Array(await pngFile().arrayBuffer()));
    await expectInvalid(
      await call("PUT", "/api/me", { token: account.token, form: form({ image: new File([big], "big.png", { type: "image/png" }) }) }),
      "image",
      "image_too_large",
    );
    expect((await me(account.token)).image).toBeNull();
  });

  it("changes only the caller's own profile", async () => {
    const account = await register();
    const other = await register({ name: "Outra Pessoa" });
    await expectStatus(await call("PUT", "/api/me", { token: account.token, form: form({ name: "Só Eu" }) }), 200);
    expect((await me(other.token)).name).toBe("Outra Pessoa");
  });
});

describe("GET /api/files/images/...", () => {
  it("an unknown image answers 404", async () => {
    await expectError(await call("GET", `/api/files/images/avatars/${newId()}.png`), 404, "not_found");
  });

  it("a key outside images/ answers 404 even when the object exists", async () => {
    const key = `private/${newId()}.png`;
    await env.FILES.put(key, "secret");
    await expectError(await call("GET", `/api/files/${key}`), 404, "not_found");
    await expectError(await call("GET", `/api/files/images/../${key}`), 404, "not_found");
  });

  it("an object under images/ that is not an uploaded image's key answers 404", async () => {
    const key = `images/avatars/${newId()}.html`;
    await env.FILES.put(key, "<script>alert(1)</script>", { httpMetadata: { contentType: "text/html" } });
    await expectError(await call("GET", `/api/files/${key}`), 404, "not_found");
  });
});

describe("GET /api/me/permissions", () => {
  it("the owner holds every company permission", async () => {
    const owner = await register();
    const permissions = await expectStatus<string[]>(await call("GET", "/api/me/permissions", { token: owner.token }), 200);
    expect([...permissions].sort()).toEqual([...COMPANY_PERMISSIONS].sort());
  });

  it("the owner holds every permission even when the stored Owner role lags behind the list", async () => {
    const owner = await register();
    const companyId = await activeCompanyId(owner.token);
    await env.DB.prepare("UPDATE roles SET permissions = '[\"tickets\"]' WHERE company_id = ? AND is_owner = 1").bind(companyId).run();
    const permissions = await expectStatus<string[]>(await call("GET", "/api/me/permissions", { token: owner.token }), 200);
    expect([...permissions].sort()).toEqual([...COMPANY_PERMISSIONS].sort());
  });

  it("a member holds exactly the permissions of their roles in the active company", async () => {
    const owner = await register();
    const staff = await member(owner, ["tickets", "contacts"]);
    const permissions = await expectStatus<string[]>(await call("GET", "/api/me/permissions", { token: staff.token }), 200);
    expect([...permissions].sort()).toEqual(["contacts", "tickets"]);
  });

  it("follows the active company: back in their own company the member is owner again", async () => {
    const owner = await register();
    const staff = await member(owner, ["tickets"]);
    const own = await expectStatus<{ id: string; active: boolean }[]>(await call("GET", "/api/companies", { token: staff.token }), 200);
    const ownId = own.find((c) => c.id !== staff.companyId)?.id ?? "";
    await expectStatus(await call("PUT", "/api/me/change-active", { token: staff.token, body: { companyId: ownId } }), 200);
    const permissions = await expectStatus<string[]>(await call("GET", "/api/me/permissions", { token: staff.token }), 200);
    expect(permissions).toHaveLength(COMPANY_PERMISSIONS.length);
  });

  it("a user with no active company has no permissions", async () => {
    const account = await register();
    await env.DB.prepare("UPDATE users SET active_company_id = NULL WHERE email = ?").bind(account.email).run();
    expect(await expectStatus(await call("GET", "/api/me/permissions", { token: account.token }), 200)).toEqual([]);
  });
});

describe("GET /api/me/invites", () => {
  it("lists the pending invites addressed to the user, with company and role names", async () => {
    const owner = await register({ companyName: "Mercado Azul" });
    const role = await createRole(owner, ["tickets"], "Suporte");
    const guest = await register();
    const sent = await invite(owner, guest.email, [role.id]);
    const list = await expectStatus<InviteAnswer[]>(await call("GET", "/api/me/invites", { token: guest.token }), 200);
    expect(list).toEqual([
      {
        id: sent.id,
        email: guest.email,
        status: "pending",
        roles: [{ id: role.id, name: "Suporte" }],
        company: { id: await activeCompanyId(owner.token), name: "Mercado Azul" },
        createdAt: expect.any(Number),
      },
    ]);
  });

  it("does not list invites addressed to someone else", async () => {
    const owner = await register();
    const role = await createRole(owner, ["tickets"]);
    await invite(owner, uniqueEmail("someone"), [role.id]);
    const bystander = await register();
    expect(await expectStatus(await call("GET", "/api/me/invites", { token: bystander.token }), 200)).toEqual([]);
  });

  it("no longer lists an invite once accepted, rejected or cancelled", async () => {
    const owner = await register();
    const role = await createRole(owner, ["tickets"]);
    const guest = await register();
    const a = await invite(owner, guest.email, [role.id]);
    await expectStatus(await call("POST", `/api/companies/invite/${a.id}/reject`, { token: guest.token }), 204);
    expect(await expectStatus(await call("GET", "/api/me/invites", { token: guest.token }), 200)).toEqual([]);
    const b = await invite(owner, guest.email, [role.id]);
    await expectStatus(await call("DELETE", `/api/companies/invite/${b.id}`, { token: owner.token }), 204);
    expect(await expectStatus(await call("GET", "/api/me/invites", { token: guest.token }), 200)).toEqual([]);
    const c = await invite(owner, guest.email, [role.id]);
    await expectStatus(await call("POST", `/api/companies/invite/${c.id}/accept`, { token: guest.token }), 200);
    expect(await expectStatus(await call("GET", "/api/me/invites", { token: guest.token }), 200)).toEqual([]);
  });

  it("an invite to an address with no account shows up once that address registers", async () => {
    const owner = await register();
    const role = await createRole(owner, ["tickets"]);
    const email = uniqueEmail("later");
    const sent = await invite(owner, email, [role.id]);
    const guest = await register({ email: email.toUpperCase() });
    const list = await expectStatus<InviteAnswer[]>(await call("GET", "/api/me/invites", { token: guest.token }), 200);
    expect(list.map((i) => i.id)).toEqual([sent.id]);
  });
});

describe("announcements", () => {
  async function announce(code: string | null, title: string, createdAt = Date.now()): Promise<string> {
    const id = newId();
    await env.DB.prepare("INSERT INTO announcements (id, code, title, body, url, created_at) VALUES (?, ?, ?, ?, ?, ?)")
      .bind(id, code, title, `${title} body`, null, createdAt)
      .run();
    return id;
  }
  const uniqueCode = () => `code-${newId().slice(-12)}`;

  it("GET answers the code's announcements and the global ones, newest first, not other codes'", async () => {
    const account = await register();
    const code = uniqueCode();
    const older = await announce(code, "Older", Date.now() - 10_000);
    const global = await announce(null, "Everywhere", Date.now() - 5_000);
    const newer = await announce(code, "Newer", Date.now());
    const elsewhere = await announce(uniqueCode(), "Elsewhere");
    const { results } = await expectStatus<{ results: AnnouncementAnswer[] }>(
      await call("GET", `/api/me/announcements?code=${code}`, { token: account.token }),
      200,
    );
    const ids = results.map((a) => a.id);
    expect(ids.filter((id) => [older, global, newer].includes(id))).toEqual([newer, global, older]);
    expect(ids).not.toContain(elsewhere);
    expect(results.find((a) => a.id === newer)).toEqual({ id: newer, title: "Newer", body: "Newer body", url: null, createdAt: expect.any(Number) });
  });

  it("POST seen hides the announcement for that user only", async () => {
    const account = await register();
    const other = await register();
    const code = uniqueCode();
    const id = await announce(code, "Read me");
    const res = await call("POST", "/api/me/announcements/seen", { token: account.token, body: { id } });
    expect(res.status, await res.clone().text()).toBe(204);
    const mine = await expectStatus<{ results: AnnouncementAnswer[] }>(await call("GET", `/api/me/announcements?code=${code}`, { token: account.token }), 200);
    expect(mine.results.map((a) => a.id)).not.toContain(id);
    const theirs = await expectStatus<{ results: AnnouncementAnswer[] }>(await call("GET", `/api/me/announcements?code=${code}`, { token: other.token }), 200);
    expect(theirs.results.map((a) => a.id)).toContain(id);
  });

  it("marking the same announcement seen twice is fine and stores one row", async () => {
    const account = await register();
    const id = await announce(uniqueCode(), "Twice");
    for (let i = 0; i < 2; i++) {
      const res = await call("POST", "/api/me/announcements/seen", { token: account.token, body: { id } });
      expect(res.status, await res.clone().text()).toBe(204);
    }
    expect(await countRows("announcement_seen", "announcement_id = ?", id)).toBe(1);
  });

  it("an unknown announcement answers 404 and stores nothing", async () => {
    const account = await register();
    const id = newId();
    await expectError(await call("POST", "/api/me/announcements/seen", { token: account.token, body: { id } }), 404, "not_found");
    expect(await countRows("announcement_seen", "announcement_id = ?", id)).toBe(0);
  });

  it.each([
    [{ id: "not-a-uuid" }, "invalid_id"],
    [{}, "required"],
  ])("seen with an invalid id answers 400 naming id and stores nothing (%j)", async (body, reason) => {
    const account = await register();
    const seen = await countRows("announcement_seen");
    await expectInvalid(await call("POST", "/api/me/announcements/seen", { token: account.token, body }), "id", reason);
    expect(await countRows("announcement_seen")).toBe(seen);
  });

  it("a code longer than 64 characters answers 400 naming code", async () => {
    const account = await register();
    await expectInvalid(await call("GET", `/api/me/announcements?code=${"x".repeat(65)}`, { token: account.token }), "code");
  });

  it("seen with a malformed JSON body answers 400, not 500", async () => {
    const account = await register();
    await expectError(await call("POST", "/api/me/announcements/seen", { token: account.token, body: "{" }), 400, "validation_failed");
  });
});

describe("PUT /api/me/change-active", () => {
  it("switches to a company the user is a member of", async () => {
    const owner = await register({ companyName: "Empresa Dona" });
    const staff = await member(owner, []);
    // member() already switched; check the switch took effect everywhere.
    expect((await me(staff.token)).activeCompany).toBe(staff.companyId);
    expect(await activeCompanyId(staff.token)).toBe(staff.companyId);
    const list = await expectStatus<{ id: string; active: boolean }[]>(await call("GET", "/api/companies", { token: staff.token }), 200);
    expect(list.filter((c) => c.active).map((c) => c.id)).toEqual([staff.companyId]);
  });

  it("another company's id answers 404 and keeps the active company", async () => {
    const account = await register();
    const stranger = await register();
    const before = (await me(account.token)).activeCompany;
    const companyId = await activeCompanyId(stranger.token);
    await expectError(await call("PUT", "/api/me/change-active", { token: account.token, body: { companyId } }), 404, "not_found");
    expect((await me(account.token)).activeCompany).toBe(before);
  });

  it.each([
    [{ companyId: "abc" }, "invalid_id"],
    [{}, "required"],
  ])("an invalid companyId answers 400 and keeps the active company (%j)", async (body, reason) => {
    const account = await register();
    const before = (await me(account.token)).activeCompany;
    await expectInvalid(await call("PUT", "/api/me/change-active", { token: account.token, body }), "companyId", reason);
    expect((await me(account.token)).activeCompany).toBe(before);
  });

  it("a malformed JSON body answers 400, not 500", async () => {
    const account = await register();
    await expectError(await call("PUT", "/api/me/change-active", { token: account.token, body: "nope" }), 400, "validation_failed");
  });
});

describe("PUT /api/user/change-status", () => {
  it("with no body toggles online ↔ offline", async () => {
    const account = await register();
    expect((await me(account.token)).status).toBe("online");
    const off = await expectStatus<MeAnswer>(await call("PUT", "/api/user/change-status", { token: account.token }), 200);
    expect(off.status).toBe("offline");
    const on = await expectStatus<MeAnswer>(await call("PUT", "/api/user/change-status", { token: account.token, body: {} }), 200);
    expect(on.status).toBe("online");
    expect((await me(account.token)).status).toBe("online");
  });

  it("with an explicit status sets it, repeatedly the same", async () => {
    const account = await register();
    for (let i = 0; i < 2; i++) {
      const res = await call("PUT", "/api/user/change-status", { token: account.token, body: { status: "offline" } });
      expect((await expectStatus<MeAnswer>(res, 200)).status).toBe("offline");
    }
    const res = await call("PUT", "/api/user/change-status", { token: account.token, body: { status: "online" } });
    expect((await expectStatus<MeAnswer>(res, 200)).status).toBe("online");
  });

  it("an unknown status answers 400 naming status and changes nothing", async () => {
    const account = await register();
    await expectInvalid(await call("PUT", "/api/user/change-status", { token: account.token, body: { status: "busy" } }), "status");
    expect((await me(account.token)).status).toBe("online");
  });

  it("a malformed JSON body answers 400, not 500, and changes nothing", async () => {
    const account = await register();
    await expectError(await call("PUT", "/api/user/change-status", { token: account.token, body: "{status:" }), 400, "validation_failed");
    expect((await me(account.token)).status).toBe("online");
  });
});
