/**
 * Company roles (spec §3 Role, §6; /settings/roles): a name, a description and a permission
 * checklist. Permission settings_company to manage; settings_members may list them (to invite).
 * The Owner role is read-only. Names are unique in the company (409 name_in_use). Nobody creates or
 * edits a role to carry a permission they do not hold themselves (issue 8 point 2: 403 `forbidden`,
 * field `permissions` = `permissions_not_held`; worker/lib/grants.ts), nor one covered by a feature the
 * company lacks (issue 14: 400 `validation_failed`, field `permissions` = `feature_not_available`,
 * the message naming it; worker/lib/features.ts).
 */
import { Hono } from "hono";
import { and, asc, count, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { memberRoles, roles } from "../../schema";
import { roleInput } from "../../schema/validation/company";
import { namedListQuery } from "../../schema/validation/contacts";
import type { Page, RoleAnswer } from "../../schema/api-types";
import { idSchema } from "../../schema/validation/common";
import type { HonoEnv } from "../middleware/context";
import { requireCompany, requirePermission, requireUser } from "../middleware/auth";
import type { Db } from "../lib/db";
import { isUniqueViolation, now } from "../lib/db";
import { AppError, notFound } from "../lib/errors";
import { assertCanGrant } from "../lib/grants";
import { likePattern } from "../lib/contacts";
import { decodeTextCursor, encodeCursor } from "../lib/cursor";
import { assertFeaturesAllow, grantablePermissions } from "../lib/features";
import { newId } from "../lib/ids";
import { presentRole } from "../lib/present";
import { refreshAccess, roleHolders } from "../lib/realtime";
import { zv } from "../lib/validate";

const idParam = z.object({ id: idSchema });

const nameInUse = () => new AppError("name_in_use", "This name is already in use.", { name: "name_in_use" });

async function findRole(db: Db, companyId: string, id: string) {
  const role = await db.query.roles.findFirst({ where: and(eq(roles.id, id), eq(roles.companyId, companyId)) });
  if (!role) throw notFound("Role");
  return role;
}

/** Case-insensitive name clash inside the company, other than `exceptId`. */
async function nameTaken(db: Db, companyId: string, name: string, exceptId?: string) {
  const rows = await db.select({ id: roles.id, name: roles.name }).from(roles).where(eq(roles.companyId, companyId));
  return rows.some((r) => r.id !== exceptId && r.name.toLocaleLowerCase() === name.toLocaleLowerCase());
}

/** The sort key of the paged list: Owner first, then by name (`0:` / `1:` + name), then id. */
const roleSortKey = sql<string>`(CASE WHEN ${roles.isOwner} THEN '0:' ELSE '1:' END || ${roles.name})`;

export const rolesRoutes = new Hono<HonoEnv>()
  .use(requireUser, requireCompany)
  /**
   * GET /api/companies/roles → RoleAnswer[], Owner first then by name. With any of `?cursor=`,
   * `?search=` (in the name) or `?limit=` (1..200, default 100) → the spec §3 cursor page
   * `{results: RoleAnswer[], cursor, total}` in the same order (`cursor` null on the last page).
   */
  .get("/", requirePermission("settings_company", "settings_members"), zv("query", namedListQuery), async (c) => {
    const query = c.req.query();
    if ("cursor" in query || "search" in query || "limit" in query) {
      const q = c.req.valid("query");
      const db = c.var.db;
      const where = and(eq(roles.companyId, c.var.company.id), q.search ? sql`${roles.name} LIKE ${likePattern(q.search)} ESCAPE '\\'` : undefined);
      const after = decodeTextCursor(q.cursor);
      const rows = await db
        .select()
        .from(roles)
        .where(after ? and(where, sql`(${roleSortKey}, ${roles.id}) > (${after[0]}, ${after[1]})`) : where)
        .orderBy(roleSortKey, asc(roles.id))
        .limit(q.limit + 1);
      const page = rows.slice(0, q.limit);
      const last = page[page.length - 1];
      const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(roles).where(where);
      const answer: Page<RoleAnswer> = {
        results: page.map(presentRole),
        cursor: rows.length > q.limit && last ? encodeCursor([`${last.isOwner ? "0" : "1"}:${last.name}`, last.id]) : null,
        total,
      };
      return c.json(answer);
    }
    const rows = await c.var.db
      .select()
      .from(roles)
      .where(eq(roles.companyId, c.var.company.id))
      .orderBy(asc(roles.name));
    rows.sort((a, b) => Number(b.isOwner) - Number(a.isOwner));
    return c.json(rows.map(presentRole));
  })
  /**
   * GET /api/companies/roles/permissions → CompanyPermission[]: the catalogue the roles screen lists,
   * i.e. the permissions this company's roles may hold (spec §6 order), without those of features the
   * company lacks (issue 14).
   */
  .get("/permissions", requirePermission("settings_company", "settings_members"), (c) => c.json(grantablePermissions(c.var.features)))
  /** GET /api/companies/roles/{id} → RoleAnswer. 404 for another company's role. */
  .get("/:id", requirePermission("settings_company", "settings_members"), zv("param", idParam), async (c) =>
    c.json(presentRole(await findRole(c.var.db, c.var.company.id, c.req.valid("param").id))),
  )
  .use(requirePermission("settings_company"))
  /**
   * POST /api/companies/roles {name, description, permissions} → 201 RoleAnswer. 403 `forbidden`
   * when a permission is one the caller does not hold.
   */
  .post("/", zv("json", roleInput), async (c) => {
    const input = c.req.valid("json");
    const db = c.var.db;
    const companyId = c.var.company.id;
    assertFeaturesAllow(c.var.features, input.permissions, "permissions");
    assertCanGrant(c.var.permissions, input.permissions, "permissions");
    if (await nameTaken(db, companyId, input.name)) throw nameInUse();
    const at = now();
    const row = {
      id: newId(),
      companyId,
      name: input.name,
      description: input.description,
      permissions: [...new Set(input.permissions)],
      isOwner: false,
      createdAt: at,
      updatedAt: at,
    };
    try {
      await db.insert(roles).values(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw nameInUse();
      throw error;
    }
    return c.json(presentRole(row), 201);
  })
  /**
   * PUT /api/companies/roles/{id} {name, description, permissions} → RoleAnswer. Owner role: 409.
   * 403 `forbidden` when it adds a permission the caller does not hold (permissions the role keeps
   * are not re-checked, so a role can be renamed by someone holding less).
   */
  .put("/:id", zv("param", idParam), zv("json", roleInput), async (c) => {
    const { id } = c.req.valid("param");
    const input = c.req.valid("json");
    const db = c.var.db;
    const companyId = c.var.company.id;
    const role = await findRole(db, companyId, id);
    if (role.isOwner) throw new AppError("conflict", "The Owner role cannot be changed.");
    const kept = new Set(role.permissions);
    assertFeaturesAllow(c.var.features, input.permissions.filter((p) => !kept.has(p)), "permissions");
    assertCanGrant(c.var.permissions, input.permissions.filter((p) => !kept.has(p)), "permissions");
    if (await nameTaken(db, companyId, input.name, id)) throw nameInUse();
    try {
      const [updated] = await db
        .update(roles)
        .set({ name: input.name, description: input.description, permissions: [...new Set(input.permissions)], updatedAt: now() })
        .where(and(eq(roles.id, id), eq(roles.companyId, companyId)))
        .returning();
      await refreshAccess(c.env, companyId, await roleHolders(db, companyId, id), "permissions_changed");
      return c.json(presentRole(updated ?? role));
    } catch (error) {
      if (isUniqueViolation(error)) throw nameInUse();
      throw error;
    }
  })
  /** DELETE /api/companies/roles/{id} → 204; members lose the role. Owner role: 409. */
  .delete("/:id", zv("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    const db = c.var.db;
    const companyId = c.var.company.id;
    const role = await findRole(db, companyId, id);
    if (role.isOwner) throw new AppError("conflict", "The Owner role cannot be deleted.");
    const holders = await roleHolders(db, companyId, id);
    await db.batch([
      db.delete(memberRoles).where(and(eq(memberRoles.roleId, id), eq(memberRoles.companyId, companyId))),
      db.delete(roles).where(and(eq(roles.id, id), eq(roles.companyId, companyId))),
    ]);
    await refreshAccess(c.env, companyId, holders, "permissions_changed");
    return c.body(null, 204);
  });
