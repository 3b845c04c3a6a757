/**
 * Which of a contact's channel identities a message goes to. A WhatsApp contact may be known by
 * several (issue 8 §7): its wa_id and its business-scoped user id (BSUID), or its old and new
 * number after a `system` number change. The newest wa_id (digits) wins: Meta's documented send
 * target; else the newest identity (a BSUID, sent as `recipient`).
 */
import { and, desc, eq, type Placeholder } from "drizzle-orm";
import { contactIdentities, type Channel, type ContactIdentityRow } from "../../schema";
import type { Db } from "./db";

/** The identity to reach `contactId` on `channel` (see the header), or undefined when it has none. */
export async function reachableIdentity(db: Db, companyId: string, contactId: string, channel: Channel): Promise<ContactIdentityRow | undefined> {
  return pickReachable(await identitiesQuery(db, companyId, contactId, channel));
}

/**
 * The contact's identities on `channel`, newest first (at most 20), as a plain select not yet run,
 * for a caller's D1 batch (issue 10; each argument may be a drizzle placeholder, for SQL built once);
 * `pickReachable` chooses among them.
 */
export function identitiesQuery(db: Db, companyId: string | Placeholder, contactId: string | Placeholder, channel: Channel | Placeholder) {
  return db
    .select()
    .from(contactIdentities)
    .where(and(eq(contactIdentities.companyId, companyId), eq(contactIdentities.contactId, contactId), eq(contactIdentities.channel, channel)))
    .orderBy(desc(contactIdentities.createdAt), desc(contactIdentities.id))
    .limit(20);
}

/** The reachable one of `rows` (newest first): the newest wa_id (digits), else the newest. */
export function pickReachable(rows: readonly ContactIdentityRow[]): ContactIdentityRow | undefined {
  return rows.find((row) => /^\d+$/.test(row.externalId)) ?? rows[0];
}
