/**
 * Company API keys as integration identities (issue 8 §6; DESIGN.md "API conventions": "the public
 * API also accepts a company API key").
 *
 * A key is not a member and never acts as one: it reaches only the routes of PUBLIC_API_ROUTES, each
 * with the scope it needs (schema/api-keys.ts API_KEY_SCOPES), inside the key's company only. What it
 * does is recorded as done by the key (messages.api_key_id, no sender member). Every other route
 * refuses a key with 403 `api_key_not_allowed`, before its handler runs (worker/middleware/auth.ts).
 *
 * Keys are `cv_` + 32 random bytes (base64url); only their SHA-256 is stored, the key is shown once.
 */
import { and, desc, eq, isNull, lt, or } from "drizzle-orm";
import { apiKeys, type ApiKeyRow, type ApiKeyScope } from "../../schema";
import type { CompanyPermission } from "../../schema/permissions";
import { PUBLIC_API_ROUTES, type ApiKeyAnswer, type ApiKeyCreateInput, type ApiKeyCreatedAnswer, type PublicApiRoute } from "../../schema/validation/api-keys";
import { randomToken, sha256Hex } from "./crypto";
import type { Db } from "./db";
import { now } from "./db";
import { notFound } from "./errors";
import { newId } from "./ids";

/** Prefix of every API key; a bearer token starting with it is read as a key, not a session. */
export const API_KEY_PREFIX = "cv_";

// The table of public API routes (method, path, scope) is shared with the web's documentation.
export { PUBLIC_API_ROUTES, type PublicApiRoute } from "../../schema/validation/api-keys";

/**
 * The company permissions a scope stands for on the routes it opens, so the routes' own permission
 * checks pass for a key exactly where the table lets it in (a key sees every ticket of its company:
 * it is no attendant with a queue of its own).
 */
export const SCOPE_PERMISSIONS: Record<ApiKeyScope, readonly CompanyPermission[]> = {
  "contacts:read": ["contacts"],
  "contacts:write": ["contacts", "contacts_tags", "contacts_custom_fields"],
  "tickets:read": ["tickets", "see_all_tickets", "tickets_groups"],
  "messages:send": ["tickets", "see_all_tickets", "tickets_groups"],
  "flows:start": ["tickets", "see_all_tickets", "tickets_groups", "flow"],
};

/** The union of the permissions of `scopes`. */
export function permissionsOfScopes(scopes: readonly ApiKeyScope[]): Set<CompanyPermission> {
  return new Set(scopes.flatMap((s) => SCOPE_PERMISSIONS[s]));
}

/**
 * The public route registered as `method path` (the route the router answers the request with, e.g.
 * `GET /api/contacts/:id`), or null. Matching the registered route rather than the request path means
 * a route added later under a listed prefix (say `GET /api/contacts/export`) is never opened to keys
 * by accident.
 */
export function publicApiRouteOf(method: string, path: string): PublicApiRoute | null {
  return PUBLIC_API_ROUTES.find((route) => route.method === method && route.path === path) ?? null;
}

/** The identity an API key gives a request (`c.var.apiKey`): never a user or a member. */
export type ApiKeyIdentity = { id: string; companyId: string; name: string; scopes: readonly ApiKeyScope[] };

/** How often at most `last_used_at` is written for one key (ms), to spare D1 a write per request. */
export const LAST_USED_GRANULARITY_MS = 60_000;

/**
 * The live (not revoked) key whose SHA-256 matches `key`, or null. Notes its use in `last_used_at`
 * when the stored time is older than LAST_USED_GRANULARITY_MS.
 */
export async function findLiveApiKey(db: Db, key: string): Promise<ApiKeyRow | null> {
  if (!key.startsWith(API_KEY_PREFIX)) return null;
  const row = await db.query.apiKeys.findFirst({ where: and(eq(apiKeys.keyHash, await sha256Hex(key)), isNull(apiKeys.revokedAt)) });
  if (!row) return null;
  const at = now();
  if (row.lastUsedAt === null || row.lastUsedAt < at - LAST_USED_GRANULARITY_MS) {
    await db
      .update(apiKeys)
      .set({ lastUsedAt: at })
      .where(and(eq(apiKeys.id, row.id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, at - LAST_USED_GRANULARITY_MS))));
  }
  return row;
}

/** A key as listed: its masked hint, never the key or the hash. */
export function presentApiKey(row: ApiKeyRow): ApiKeyAnswer {
  return {
    id: row.id,
    name: row.name,
    hint: `••••••••${row.hint}`,
    scopes: row.scopes,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
  };
}

/** The company's keys, newest first, revoked ones included (with their revokedAt). */
export async function listApiKeys(db: Db, companyId: string): Promise<ApiKeyAnswer[]> {
  const rows = await db.select().from(apiKeys).where(eq(apiKeys.companyId, companyId)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map(presentApiKey);
}

/** Creates a key for `companyId`, made by member `memberId`; answers it with the key, shown this once. */
export async function createApiKey(db: Db, companyId: string, memberId: string, input: ApiKeyCreateInput): Promise<ApiKeyCreatedAnswer> {
  const key = `${API_KEY_PREFIX}${randomToken(32)}`;
  const row: ApiKeyRow = {
    id: newId(),
    companyId,
    name: input.name,
    keyHash: await sha256Hex(key),
    hint: key.slice(-4),
    scopes: input.scopes,
    createdByMemberId: memberId,
    createdAt: now(),
    lastUsedAt: null,
    revokedAt: null,
  };
  await db.insert(apiKeys).values(row);
  return { ...presentApiKey(row), key };
}

/**
 * Revokes key `id` of `companyId` (from then on it answers 401); revoking a revoked key keeps its
 * first time. 404 for a key of another company or none.
 */
export async function revokeApiKey(db: Db, companyId: string, id: string): Promise<ApiKeyAnswer> {
  const row = await db.query.apiKeys.findFirst({ where: and(eq(apiKeys.id, id), eq(apiKeys.companyId, companyId)) });
  if (!row) throw notFound("API key");
  if (row.revokedAt !== null) return presentApiKey(row);
  const revokedAt = now();
  await db.update(apiKeys).set({ revokedAt }).where(and(eq(apiKeys.id, id), eq(apiKeys.companyId, companyId)));
  return presentApiKey({ ...row, revokedAt });
}
