/**
 * Franchise roles (issue 14 "Roles"; spec §3 "Franchise role", §6, §7; DESIGN.md "Franchises"): a
 * named bundle of the franchise-grantable feature permissions (FRANCHISE_PERMISSIONS). Each company
 * of the franchise holds at most one (`companies.franchise_role_id`) and gets at most its features
 * (worker/lib/features.ts). Mounted inside /api/franchise (worker/routes/franchise.ts), so every
 * route already passed the FRANCHISE_MODE gate (404 when off), the session (401) and the
 * franchise-admin guard (403); each acts on `c.var.franchise` only — another franchise's role
 * answers 404.
 *
 * - GET /api/franchise/permissions → FranchisePermission[]: the catalogue, spec §6 order.
 * - GET /api/franchise/roles?cursor=&search=&limit= → `{cursor, total, results: FranchiseRoleAnswer[]}`
 *   by name (search: name contains, case-insensitive for ASCII); `cursor` null on the last page;
 *   400 `cursor: invalid_cursor` for a malformed cursor.
 * - GET /api/franchise/roles/short → `{id, name}[]` by name (every role; for pickers).
 * - POST /api/franchise/roles {name, permissions} → 201 FranchiseRoleAnswer; 409 `name_in_use`
 *   (field `name`) for a name already used in the franchise (ignoring case).
 * - GET /api/franchise/roles/{id} → FranchiseRoleAnswer.
 * - PUT /api/franchise/roles/{id} {name, permissions} → FranchiseRoleAnswer; the companies holding
 *   it get the new features from their next request (their open sessions are told to reload).
 * - DELETE /api/franchise/roles/{id} → 204; 409 `conflict` (field `companies` = how many) while
 *   companies hold it.
 */
import { Hono } from "hono";
import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { companies, franchiseRoles, members, type FranchiseRoleRow } from "../../schema";
import { FRANCHISE_PERMISSIONS } from "../../schema/permissions";
import { idSchema } from "../../schema/validation/common";
import {
  franchisePageQuery,
  franchiseRoleInput,
  type FranchisePage,
  type FranchisePermissionsAnswer,
  type FranchiseRoleAnswer,
  type FranchiseRoleShortAnswer,
} from "../../schema/validation/franchise";
import type { HonoEnv } from "../middleware/context";
import { likePattern } from "../lib/contacts";
import { decodeTextCursor, encodeCursor } from "../lib/cursor";
import type { Db } from "../lib/db";
import { isUniqueViolation, now } from "../lib/db";
import { AppError, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { refreshAccess } from "../lib/realtime";
import { zv } from "../lib/validate";

const idParam = z.object({ id: idSchema });

const nameInUse = () => new AppError("name_in_use", "This name is already in use.", { name: "name_in_use" });

/** The role `id` of franchise `franchiseId`; 404 otherwise (another franchise's role included). */
export async function findFranchiseRole(db: Db, franchiseId: string, id: string): Promise<FranchiseRoleRow> {
  const row = await db.query.franchiseRoles.findFirst({ where: and(eq(franchiseRoles.id, id), eq(franchiseRoles.franchiseId, franchiseId)) });
  if (!row) throw notFound("Franchise role");
  return row;
}

/** How many of the franchise's companies hold each of `roleIds`. */
async function holderCounts(db: Db, franchiseId: string, roleIds: string[]): Promise<Map<string, number>> {
  if (!roleIds.length) return new Map();
  const rows = await db
    .select({ roleId: companies.franchiseRoleId, n: count() })
    .from(companies)
    .where(and(eq(companies.franchiseId, franchiseId), inArray(companies.franchiseRoleId, roleIds)))
    .groupBy(companies.franchiseRoleId);
  return new Map(rows.map((r) => [r.roleId ?? "", r.n]));
}

function present(row: FranchiseRoleRow, holders: number): FranchiseRoleAnswer {
  return { id: row.id, name: row.name, permissions: row.permissions, companies: holders, createdAt: row.createdAt, updatedAt: row.updatedAt };
}

/** Case-insensitive name clash inside the franchise, other than `exceptId`. */
async function nameTaken(db: Db, franchiseId: string, name: string, exceptId?: string): Promise<boolean> {
  const rows = await db.select({ id: franchiseRoles.id, name: franchiseRoles.name }).from(franchiseRoles).where(eq(franchiseRoles.franchiseId, franchiseId));
  return rows.some((r) => r.id !== exceptId && r.name.toLocaleLowerCase() === name.toLocaleLowerCase());
}

/** Tells the open sessions of every member of the companies holding role `roleId` to reload their permissions. */
async function refreshHolders(env: HonoEnv["Bindings"], db: Db, franchiseId: string, roleId: string): Promise<void> {
  const rows = await db
    .select({ companyId: members.companyId, userId: members.userId })
    .from(members)
    .innerJoin(companies, eq(companies.id, members.companyId))
    .where(and(eq(companies.franchiseId, franchiseId), eq(companies.franchiseRoleId, roleId)));
  const byCompany = new Map<string, string[]>();
  for (const r of rows) byCompany.set(r.companyId, [...(byCompany.get(r.companyId) ?? []), r.userId]);
  await Promise.all([...byCompany].map(([companyId, userIds]) => refreshAccess(env, companyId, userIds, "permissions_changed")));
}

/** /api/franchise/permissions and /api/franchise/roles… (mounted inside franchiseRoutes). */
export const franchiseRolesRoutes = new Hono<HonoEnv>()
  /** GET /api/franchise/permissions → the franchise-grantable permissions (spec §6). */
  .get("/permissions", (c) => {
    const answer: FranchisePermissionsAnswer = [...FRANCHISE_PERMISSIONS];
    return c.json(answer);
  })
  /** GET /api/franchise/roles?cursor=&search=&limit= → FranchisePage<FranchiseRoleAnswer> by name. */
  .get("/roles", zv("query", franchisePageQuery), async (c) => {
    const q = c.req.valid("query");
    const db = c.var.db;
    const franchiseId = c.var.franchise.id;
    const where = and(
      eq(franchiseRoles.franchiseId, franchiseId),
      q.search ? sql`${franchiseRoles.name} LIKE ${likePattern(q.search)} ESCAPE '\\'` : undefined,
    );
    const after = decodeTextCursor(q.cursor);
    const rows = await db
      .select()
      .from(franchiseRoles)
      .where(after ? and(where, sql`(${franchiseRoles.name}, ${franchiseRoles.id}) > (${after[0]}, ${after[1]})`) : where)
      .orderBy(asc(franchiseRoles.name), asc(franchiseRoles.id))
      .limit(q.limit + 1);
    const page = rows.slice(0, q.limit);
    const last = page[page.length - 1];
    const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(franchiseRoles).where(where);
    const holders = await holderCounts(db, franchiseId, page.map((r) => r.id));
    const answer: FranchisePage<FranchiseRoleAnswer> = {
      cursor: rows.length > q.limit && last ? encodeCursor([last.name, last.id]) : null,
      total,
      results: page.map((r) => present(r, holders.get(r.id) ?? 0)),
    };
    return c.json(answer);
  })
  /** GET /api/franchise/roles/short → {id, name}[] by name. */
  .get("/roles/short", async (c) => {
    const rows = await c.var.db
      .select({ id: franchiseRoles.id, name: franchiseRoles.name })
      .from(franchiseRoles)
      .where(eq(franchiseRoles.franchiseId, c.var.franchise.id))
      .orderBy(asc(franchiseRoles.name), asc(franchiseRoles.id));
    const answer: FranchiseRoleShortAnswer = rows;
    return c.json(answer);
  })
  /** POST /api/franchise/roles {name, permissions} → 201 FranchiseRoleAnswer; 409 name_in_use. */
  .post("/roles", zv("json", franchiseRoleInput), async (c) => {
    const input = c.req.valid("json");
    const db = c.var.db;
    const franchiseId = c.var.franchise.id;
    if (await nameTaken(db, franchiseId, input.name)) throw nameInUse();
    const at = now();
    const row: FranchiseRoleRow = {
      id: newId(),
      franchiseId,
      name: input.name,
      permissions: FRANCHISE_PERMISSIONS.filter((p) => input.permissions.includes(p)),
      createdAt: at,
      updatedAt: at,
    };
    try {
      await db.insert(franchiseRoles).values(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw nameInUse();
      throw error;
    }
    return c.json(present(row, 0), 201);
  })
  /** GET /api/franchise/roles/{id} → FranchiseRoleAnswer; 404 outside the franchise. */
  .get("/roles/:id", zv("param", idParam), async (c) => {
    const row = await findFranchiseRole(c.var.db, c.var.franchise.id, c.req.valid("param").id);
    const holders = await holderCounts(c.var.db, c.var.franchise.id, [row.id]);
    return c.json(present(row, holders.get(row.id) ?? 0));
  })
  /** PUT /api/franchise/roles/{id} {name, permissions} → FranchiseRoleAnswer; 404 outside the franchise; 409 name_in_use. */
  .put("/roles/:id", zv("param", idParam), zv("json", franchiseRoleInput), async (c) => {
    const { id } = c.req.valid("param");
    const input = c.req.valid("json");
    const db = c.var.db;
    const franchiseId = c.var.franchise.id;
    const role = await findFranchiseRole(db, franchiseId, id);
    if (await nameTaken(db, franchiseId, input.name, id)) throw nameInUse();
    let updated: FranchiseRoleRow | undefined;
    try {
      [updated] = await db
        .update(franchiseRoles)
        .set({ name: input.name, permissions: FRANCHISE_PERMISSIONS.filter((p) => input.permissions.includes(p)), updatedAt: now() })
        .where(and(eq(franchiseRoles.id, id), eq(franchiseRoles.franchiseId, franchiseId)))
        .returning();
    } catch (error) {
      if (isUniqueViolation(error)) throw nameInUse();
      throw error;
    }
    await refreshHolders(c.env, db, franchiseId, id);
    const holders = await holderCounts(db, franchiseId, [id]);
    return c.json(present(updated ?? role, holders.get(id) ?? 0));
  })
  /** DELETE /api/franchise/roles/{id} → 204; 404 outside the franchise; 409 while companies hold it. */
  .delete("/roles/:id", zv("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    const db = c.var.db;
    const franchiseId = c.var.franchise.id;
    await findFranchiseRole(db, franchiseId, id);
    const held = (await holderCounts(db, franchiseId, [id])).get(id) ?? 0;
    if (held > 0) {
      throw new AppError("conflict", `${held} ${held === 1 ? "company holds" : "companies hold"} this role; give them another one first.`, { companies: String(held) });
    }
    await db.delete(franchiseRoles).where(and(eq(franchiseRoles.id, id), eq(franchiseRoles.franchiseId, franchiseId)));
    return c.body(null, 204);
  });
