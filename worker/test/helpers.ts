/**
 * Test helpers: call the worker through its real fetch handler, register users, read the outbox.
 */
import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { expect } from "vitest";
import type { CompanyAnswer, InviteAnswer, MeAnswer, RoleAnswer } from "../../schema/api-types";
import type { CompanyPermission } from "../../schema/permissions";
import { VERIFICATION_CODE_IN_MAIL } from "../lib/mail-texts";

let counter = 0;

/** A unique e-mail per call so tests never collide in the shared local D1. */
export function uniqueEmail(prefix = "user"): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}.${counter}.${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** A unique client IP so per-IP limits of one test never hit another. */
export function uniqueIp(): string {
  counter += 1;
  return `10.${(counter >> 8) & 255}.${counter & 255}.${Math.floor(Math.random() * 250) + 1}`;
}

type CallOptions = { token?: string; body?: unknown; form?: FormData; headers?: Record<string, string> };

/** Calls `method path` on the worker; `body` is sent as JSON, `form` as multipart. */
export async function call(method: string, path: string, options: CallOptions = {}): Promise<Response> {
  const headers = new Headers(options.headers);
  if (options.token) headers.set("Authorization", `Bearer ${options.token}`);
  if (!headers.has("CF-Connecting-IP")) headers.set("CF-Connecting-IP", uniqueIp());
  let body: BodyInit | undefined;
  if (options.form) body = options.form;
  else if (options.body !== undefined) {
    headers.set("Content-Type", "application/json");
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
  }
  return exports.default.fetch(new Request(`http://localhost${path}`, { method, headers, body }));
}

/** Parses JSON and asserts the status, printing the body when it differs. */
export async function expectStatus<T = unknown>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect(response.status, `${response.status} ${text}`).toBe(status);
  return (text ? JSON.parse(text) : null) as T;
}

export type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } };

export type Account = { token: string; email: string; password: string; name: string };

/**
 * Registers a new user with their own company and answers its token. By default the user then
 * verifies their e-mail with the code read from the dev outbox, as a person would (which also
 * activates the company); `{ verified: false }` leaves the account unverified and not activated.
 */
export async function register(
  overrides: Partial<Record<string, string>> = {},
  options: { verified?: boolean } = {},
): Promise<Account> {
  const account = {
    name: "Ana Souza",
    email: uniqueEmail(),
    phone: "+55 11 98765-4321",
    password: "correct horse battery",
    companyName: "Padaria Central",
    ...overrides,
  };
  const res = await call("POST", "/api/register", { body: account });
  const { token } = await expectStatus<{ token: string }>(res, 201);
  const registered = { token, email: account.email.toLowerCase(), password: account.password, name: account.name };
  if (options.verified !== false) await verifyEmail(registered);
  return registered;
}

/** The 6-digit code of the newest verification mail to `address` (dev outbox), in any locale. */
export async function verificationCode(address: string): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const code = VERIFICATION_CODE_IN_MAIL.exec((await lastMailTo(address))?.body_text ?? "")?.[1];
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no verification code mailed to ${address}: ${JSON.stringify((await lastMailTo(address))?.body_text)}`);
}

/** Verifies `account`'s e-mail with the code mailed to it (POST /api/me/verify-email). */
export async function verifyEmail(account: Pick<Account, "token" | "email">): Promise<MeAnswer> {
  const code = await verificationCode(account.email);
  const verified = await expectStatus<MeAnswer>(await call("POST", "/api/me/verify-email", { token: account.token, body: { code } }), 200);
  expect(verified.emailVerified, JSON.stringify(verified)).toBe(true);
  return verified;
}

/** The most recent dev-outbox mail to `address`. */
export async function lastMailTo(address: string): Promise<{ subject: string; body_text: string } | null> {
  return env.DB.prepare("SELECT subject, body_text FROM mail_outbox WHERE to_address = ? ORDER BY created_at DESC LIMIT 1")
    .bind(address)
    .first<{ subject: string; body_text: string }>();
}

/** Counts rows of a table matching a WHERE clause (for "nothing was written" assertions). */
export async function countRows(table: string, where = "1=1", ...binds: unknown[]): Promise<number> {
  const row = await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`).bind(...binds).first<{ n: number }>();
  return row?.n ?? 0;
}

/**
 * Asserts a 400 `validation_failed` answer naming `field` in `error.fields` (with `reason` when
 * given); the message printed on failure carries the whole body.
 */
export async function expectInvalid(response: Response, field: string, reason?: string): Promise<ErrorBody> {
  const body = await expectStatus<ErrorBody>(response, 400);
  const shown = JSON.stringify(body);
  expect(body.error.code, shown).toBe("validation_failed");
  expect(Object.keys(body.error.fields ?? {}), shown).toContain(field);
  if (reason !== undefined) expect(body.error.fields?.[field], shown).toBe(reason);
  return body;
}

/** Asserts an error answer with `status` and `code`; the failure message carries the body. */
export async function expectError(response: Response, status: number, code: string): Promise<ErrorBody> {
  const body = await expectStatus<ErrorBody>(response, status);
  expect(body.error.code, JSON.stringify(body)).toBe(code);
  return body;
}

/** GET /api/me for `token`. */
export async function me(token: string): Promise<MeAnswer> {
  return expectStatus<MeAnswer>(await call("GET", "/api/me", { token }), 200);
}

/** The id of the active company of `token`'s user. */
export async function activeCompanyId(token: string): Promise<string> {
  return (await expectStatus<CompanyAnswer>(await call("GET", "/api/companies/active", { token }), 200)).id;
}

/** The Owner role of `owner`'s active company. */
export async function ownerRole(owner: Account): Promise<RoleAnswer> {
  const roles = await expectStatus<RoleAnswer[]>(await call("GET", "/api/companies/roles", { token: owner.token }), 200);
  const found = roles.find((r) => r.isOwner);
  if (!found) throw new Error(`no Owner role in ${JSON.stringify(roles)}`);
  return found;
}

/** Creates a role with `permissions` in `owner`'s active company. */
export async function createRole(owner: Account, permissions: CompanyPermission[], name?: string): Promise<RoleAnswer> {
  counter += 1;
  const body = { name: name ?? `Role ${counter} ${Math.random().toString(36).slice(2, 6)}`, description: "", permissions };
  return expectStatus<RoleAnswer>(await call("POST", "/api/companies/roles", { token: owner.token, body }), 201);
}

/** Invites `email` into `owner`'s active company with `roleIds`; answers the invite. */
export async function invite(owner: Account, email: string, roleIds: string[]): Promise<InviteAnswer> {
  const res = await call("POST", "/api/companies/invite", { token: owner.token, body: { email, roles: roleIds } });
  return expectStatus<InviteAnswer>(res, 201);
}

export type Member = Account & { userId: string; memberId: string; roleId: string; companyId: string };

/**
 * A second user in `owner`'s active company holding one new role with exactly `permissions`:
 * registered (with a company of their own), invited, accepted, and switched to the owner's company.
 */
export async function member(owner: Account, permissions: CompanyPermission[] = []): Promise<Member> {
  const companyId = await activeCompanyId(owner.token);
  const role = await createRole(owner, permissions);
  const account = await register({ name: "Bruno Lima", companyName: "Oficina do Bruno" });
  const sent = await invite(owner, account.email, [role.id]);
  await expectStatus(await call("POST", `/api/companies/invite/${sent.id}/accept`, { token: account.token }), 200);
  const switched = await expectStatus<MeAnswer>(
    await call("PUT", "/api/me/change-active", { token: account.token, body: { companyId } }),
    200,
  );
  const row = await env.DB.prepare("SELECT id FROM members WHERE company_id = ? AND user_id = ?")
    .bind(companyId, switched.id)
    .first<{ id: string }>();
  if (!row) throw new Error("membership row missing after accept");
  return { ...account, userId: switched.id, memberId: row.id, roleId: role.id, companyId };
}

/**
 * The newest mail to `address` whose body contains `containing`, polling briefly because some
 * mails are sent from `waitUntil` after the answer.
 */
export async function mailTo(address: string, containing = ""): Promise<{ subject: string; body_text: string }> {
  for (let i = 0; i < 50; i++) {
    const mail = await lastMailTo(address);
    if (mail && mail.body_text.includes(containing)) return mail;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no mail to ${address} containing ${JSON.stringify(containing)}`);
}

/** Polls `check` until it is true (for work done in `waitUntil`, e.g. deleting an old image). */
export async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 50; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`timed out waiting for: ${what}`);
}

/**
 * Polls `condition` every 20 ms until it is true, for at most `timeoutMs` (default 5 s), instead of
 * a fixed sleep; throws naming `what` when it never becomes true.
 */
export async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 5_000, what = "a condition"): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A valid 1×1 PNG. */
export function pngFile(name = "avatar.png"): File {
  const bytes = Uint8Array.from(
    atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="),
    (ch) => ch.charCodeAt(0),
  );
  return new File([bytes], name, { type: "image/png" });
}

/** A text file, optionally claiming to be an image. */
export function textFile(type = "text/plain", name = "notes.txt"): File {
  return new File(["hello, this is not an image"], name, { type });
}

/** Multipart form of string and file fields. */
export function form(fields: Record<string, string | File>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

/** The R2 key behind an `/api/files/...` URL. */
export function fileKey(url: string | null): string {
  if (!url?.startsWith("/api/files/")) throw new Error(`not a file URL: ${url}`);
  return url.slice("/api/files/".length);
}
