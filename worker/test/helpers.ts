/**
 * Test helpers: call the worker through its real fetch handler, register users, read the outbox.
 */
import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { expect } from "vitest";

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

/** Registers a new user with their own company and answers its token. */
export async function register(overrides: Partial<Record<string, string>> = {}): Promise<Account> {
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
  return { token, email: account.email.toLowerCase(), password: account.password, name: account.name };
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
