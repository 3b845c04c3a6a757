/**
 * Which of a contact's channel identities a message goes to. A WhatsApp contact may be known by
 * several (issue 8 §7): its wa_id and its business-scoped user id (BSUID), or its old and new
 * number after a `system` number change. The newest wa_id (digits) wins: Meta's documented send
 * target; else the newest identity (a BSUID, sent as `recipient`).
 */
import { and, desc, eq } from "drizzle-orm";
import { contactIdentities, type Channel, type ContactIdentityRow } from "../../schema";
import type { Db } from "./db";

/** The identity to reach `contactId` on `channel` (see the header), or undefined when it has none. */
export async function reachableIdentity(db: Db, companyId: string, contactId: string, channel: Channel): Promise<ContactIdentityRow | undefined> {
  const rows = await db.query.contactIdentities.findMany({
    where: and(eq(contactIdentities.companyId, companyId), eq(contactIdentities.contactId, contactId), eq(contactIdentities.channel, channel)),
    orderBy: [desc(contactIdentities.createdAt), desc(contactIdentities.id)],
    limit: 20,
  });
  return rows.find((row) => /^\d+$/.test(row.externalId)) ?? rows[0];
}
