/**
 * Members of the active company (spec §3 Member, §7): list, read, change roles, remove.
 * Permission settings_members, except /active (the online members, any member may list them, for
 * pickers such as ticket transfer). The owner cannot be removed or demoted; nobody changes their own
 * roles or grants a permission they do not hold (issue 8 point 2, worker/lib/grants.ts).
 */
import { Hono } from "hono";
import { and, asc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { memberRoles, members, roles, users } from "../../schema";
import type { MemberAnswer } from "../../schema/api-types";
import { memberUpdateInput } from "../../schema/validation/company";
import { idSchema } from "../../schema/validation/common";
import type { HonoEnv } from "../middleware/context";
import { requireCompany, requirePermission, requireUser } from "../middleware/auth";
import type { Db } from "../lib/db";
import { now } from "../lib/db";
import { AppError, notFound } from "../lib/errors";
import { assertCanGrant } from "../lib/grants";
import { fileUrl } from "../lib/present";
import { refreshAccess } from "../lib/realtime";
import { removeFromInternalChats } from "../lib/internal-chats";
import { zv } from "../lib/validate";

const idParam = z.object({ id: idSchema });

/** Members of `companyId` with their roles; `filter` narrows to one member id or online users. */
async function listMembers(
  db: Db,
  companyId: string,
  ownerId: string,
  filter: { memberId?: string; online?: boolean } = {},
): Promise<MemberAnswer[]> {
  const rows = await db
    .select({
      id: members.id,
      userId: users.id,
      name: users.name,
      email: users.email,
      imageKey: users.imageKey,
      status: users.status,
      roleId: roles.id,
      roleName: roles.name,
      roleIsOwner: roles.isOwner,
    })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .leftJoin(memberRoles, eq(memberRoles.memberId, members.id))
    .leftJoin(roles, and(eq(roles.id, memberRoles.roleId), eq(roles.companyId, companyId)))
    .where(
      and(
        eq(members.companyId, companyId),
        filter.memberId ? eq(members.id, filter.memberId) : undefined,
        filter.online ? eq(users.status, "online") : undefined,
      ),
    )
    .orderBy(asc(users.name), asc(members.id));
  const byId = new Map<string, MemberAnswer>();
  for (const row of rows) {
    let member = byId.get(row.id);
    if (!member) {
      member = {
        id: row.id,
        userId: row.userId,
        name: row.name,
        email: row.email,
        image: fileUrl(row.imageKey),
        status: row.status,
        isOwner: row.userId === ownerId,
        roles: [],
      };
      byId.set(row.id, member);
    }
    if (row.roleId && row.roleName) member.roles.push({ id: row.roleId, name: row.roleName });
  }
  return [...byId.values()];
}

export const membersRoutes = new Hono<HonoEnv>()
  .use(requireUser, requireCompany)
  /** GET /api/companies/members/active → MemberAnswer[]: members who are online now. */
  .get("/active", async (c) =>
    c.json(await listMembers(c.var.db, c.var.company.id, c.var.company.ownerId, { online: true })),
  )
  .use(requirePermission("settings_members"))
  /** GET /api/companies/members → MemberAnswer[], by name. */
  .get("/", async (c) => c.json(await listMembers(c.var.db, c.var.company.id, c.var.company.ownerId)))
  /** GET /api/companies/members/{id} → MemberAnswer. 404 for another company's member. */
  .get("/:id", zv("param", idParam), async (c) => {
    const [member] = await listMembers(c.var.db, c.var.company.id, c.var.company.ownerId, { memberId: c.req.valid("param").id });
    if (!member) throw notFound("Member");
    return c.json(member);
  })
  /**
   * PUT /api/companies/members/{id} {roles} → MemberAnswer. The owner's roles cannot change and the
   * Owner role cannot be given (409 conflict); unknown roles → 400 (field `roles`). No escalation
   * (issue 8 point 2): a member never changes their own roles (403 `forbidden`, field `roles` =
   * `own_roles`) and never adds a role carrying a permission they do not hold themselves (403
   * `forbidden`, field `roles` = `permissions_not_held`); roles the member keeps are not re-checked.
   */
  .put("/:id", zv("param", idParam), zv("json", memberUpdateInput), async (c) => {
    const { id } = c.req.valid("param");
    const wanted = [...new Set(c.req.valid("json").roles)];
    const db = c.var.db;
    const company = c.var.company;
    const member = await db.query.members.findFirst({ where: and(eq(members.id, id), eq(members.companyId, company.id)) });
    if (!member) throw notFound("Member");
    if (member.userId === company.ownerId) throw new AppError("conflict", "The owner's roles cannot be changed.");
    if (member.userId === c.var.user.id) throw new AppError("forbidden", "You cannot change your own roles.", { roles: "own_roles" });
    const found = await db
      .select({ id: roles.id, isOwner: roles.isOwner, permissions: roles.permissions })
      .from(roles)
      .where(and(eq(roles.companyId, company.id), inArray(roles.id, wanted)));
    if (found.length !== wanted.length) throw new AppError("validation_failed", "Unknown role.", { roles: "invalid_id" });
    if (found.some((r) => r.isOwner)) throw new AppError("conflict", "The Owner role belongs to the company's owner only.", { roles: "owner_role" });
    const held = await db
      .select({ roleId: memberRoles.roleId })
      .from(memberRoles)
      .where(and(eq(memberRoles.memberId, id), eq(memberRoles.companyId, company.id)));
    const kept = new Set(held.map((r) => r.roleId));
    assertCanGrant(c.var.permissions, found.filter((r) => !kept.has(r.id)).flatMap((r) => r.permissions), "roles");
    await db.batch([
      db.delete(memberRoles).where(and(eq(memberRoles.memberId, id), eq(memberRoles.companyId, company.id))),
      ...wanted.map((roleId) => db.insert(memberRoles).values({ companyId: company.id, memberId: id, roleId })),
      db.update(members).set({ updatedAt: now() }).where(eq(members.id, id)),
    ]);
    await refreshAccess(c.env, company.id, [member.userId], "permissions_changed");
    const [answer] = await listMembers(db, company.id, company.ownerId, { memberId: id });
    return c.json(answer);
  })
  /** DELETE /api/companies/members/{id} → 204. The owner cannot be removed (409 conflict). */
  .delete("/:id", zv("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    const db = c.var.db;
    const company = c.var.company;
    const member = await db.query.members.findFirst({ where: and(eq(members.id, id), eq(members.companyId, company.id)) });
    if (!member) throw notFound("Member");
    if (member.userId === company.ownerId) throw new AppError("conflict", "The company's owner cannot be removed.");
    const fallback = await otherCompanyOf(db, member.userId, company.id);
    await db.batch([
      db.delete(memberRoles).where(and(eq(memberRoles.memberId, id), eq(memberRoles.companyId, company.id))),
      db.delete(members).where(and(eq(members.id, id), eq(members.companyId, company.id))),
      // A removed member whose active company was this one moves to another of theirs, or to none.
      db
        .update(users)
        .set({ activeCompanyId: fallback, updatedAt: now() })
        .where(and(eq(users.id, member.userId), eq(users.activeCompanyId, company.id))),
    ]);
    // Issue 12: a member who leaves the company leaves its internal conversations.
    await removeFromInternalChats(c.env, db, company.id, id);
    await refreshAccess(c.env, company.id, [member.userId], "membership_ended");
    return c.body(null, 204);
  });

async function otherCompanyOf(db: Db, userId: string, exceptCompanyId: string): Promise<string | null> {
  const rows = await db.select({ companyId: members.companyId }).from(members).where(eq(members.userId, userId));
  return rows.find((r) => r.companyId !== exceptCompanyId)?.companyId ?? null;
}
