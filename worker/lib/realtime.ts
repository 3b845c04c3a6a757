/**
 * Stubs of the Durable Objects, by the name that identifies each atom of coordination, and the calls
 * that end or refresh a user's sockets when their session or access changes (issue 8 §3).
 */
import { and, eq } from "drizzle-orm";
import { memberRoles, members } from "../../schema";
import type { AppEnv } from "../env";
import type { Db } from "./db";

/** The company's hub (one per company). */
export function hubOf(env: AppEnv, companyId: string) {
  return env.COMPANY_HUB.get(env.COMPANY_HUB.idFromName(companyId));
}

/** The ticket's room (one per ticket). */
export function roomOf(env: AppEnv, ticketId: string) {
  return env.TICKET_ROOM.get(env.TICKET_ROOM.idFromName(ticketId));
}

/** The session of one contact identity on one channel of a company. */
export function contactSessionOf(env: AppEnv, companyId: string, channel: string, externalId: string) {
  return env.CONTACT_SESSION.get(env.CONTACT_SESSION.idFromName(`${companyId}:${channel}:${externalId}`));
}

/** The sandbox device of a sandbox connection (one per connection). */
export function sandboxDeviceOf(env: AppEnv, connectionId: string) {
  return env.SANDBOX_DEVICE.get(env.SANDBOX_DEVICE.idFromName(connectionId));
}

/**
 * Ends every socket of `userId` opened with a token version below `minVersion`, in every company
 * they belong to (hub and ticket rooms close with 4001 `session_revoked`). Call it after the
 * version bump is stored: logout, password change or reset (issue 8 §3).
 */
export async function endSessions(env: AppEnv, db: Db, userId: string, minVersion: number): Promise<void> {
  const rows = await db.select({ companyId: members.companyId }).from(members).where(eq(members.userId, userId));
  await Promise.all(rows.map((row) => hubOf(env, row.companyId).revoke({ userId, minVersion })));
}

/**
 * Closes the sockets of `userIds` in `companyId` whose permissions were read before now (4003 with
 * `reason`); the clients reconnect and get their new permissions, or are refused. Call it after the
 * change is stored: a member removed (`membership_ended`), a member's roles or a role's permissions
 * changed or the role deleted (`permissions_changed`) (issue 8 §3).
 */
export async function refreshAccess(
  env: AppEnv,
  companyId: string,
  userIds: readonly string[],
  reason: "membership_ended" | "permissions_changed",
): Promise<void> {
  const hub = hubOf(env, companyId);
  await Promise.all([...new Set(userIds)].map((userId) => hub.revoke({ userId, accessChanged: true, reason })));
}

/** The user ids of the members of `companyId` holding role `roleId` (read before the role changes). */
export async function roleHolders(db: Db, companyId: string, roleId: string): Promise<string[]> {
  const rows = await db
    .select({ userId: members.userId })
    .from(memberRoles)
    .innerJoin(members, and(eq(members.id, memberRoles.memberId), eq(members.companyId, companyId)))
    .where(and(eq(memberRoles.roleId, roleId), eq(memberRoles.companyId, companyId)));
  return rows.map((row) => row.userId);
}
