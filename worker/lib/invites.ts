/**
 * Invite presentation shared by /me/invites and /companies/invites.
 */
import { inArray } from "drizzle-orm";
import { roles, type InviteRow } from "../../schema";
import type { InviteAnswer } from "../../schema/api-types";
import type { Db } from "./db";

/** Maps invite rows to answers, resolving role names and the company name. */
export async function presentInvites(
  db: Db,
  rows: { invite: InviteRow; companyName: string }[],
): Promise<InviteAnswer[]> {
  const roleIds = [...new Set(rows.flatMap((r) => r.invite.roleIds))];
  const roleRows = roleIds.length
    ? await db.select({ id: roles.id, name: roles.name }).from(roles).where(inArray(roles.id, roleIds))
    : [];
  const names = new Map(roleRows.map((r) => [r.id, r.name]));
  return rows.map(({ invite, companyName }) => ({
    id: invite.id,
    email: invite.email,
    status: invite.status,
    roles: invite.roleIds.flatMap((id) => {
      const name = names.get(id);
      return name ? [{ id, name }] : [];
    }),
    company: { id: invite.companyId, name: companyName },
    createdAt: invite.createdAt,
  }));
}
