/**
 * Connection status changes (spec §4 Connection): when a connection becomes CONNECTED it leaves the
 * company's disconnected list; otherwise it is added if absent. Every change is pushed to the
 * company's hub so the Connections screen and the layout's warning update live.
 */
import { and, eq, isNull } from "drizzle-orm";
import { companies, connections, type ConnectionRow, type ConnectionStatus, type DisconnectedEntry } from "../../schema";
import type { AppEnv } from "../env";
import type { Db } from "./db";
import { AppError } from "./errors";
import { hubOf } from "./realtime";

/**
 * The one answer for a number that another connection (of this company or any other) already holds
 * with a proven token: the same status, code and words in every case, so the answer says nothing
 * about who holds it. Only a caller whose token proved the number ever gets this far.
 */
export const phoneNumberUnavailable = () =>
  new AppError("phone_number_unavailable", "This number cannot be connected.", { phoneNumberId: "phone_number_unavailable" });

/**
 * Makes room for a Cloud API number whose token was just proven (issue 8 §5). A connection holding
 * the id with a proven token (its `display_phone_number` was answered by the Graph API) keeps it:
 * 409 `phone_number_unavailable`. A connection that holds it without proof (made before proofs
 * existed, i.e. a possible squatter) lets go of it: its phone number id is cleared and it becomes
 * DISCONNECTED, so the real owner is never locked out.
 */
export async function claimCloudNumber(env: AppEnv, db: Db, phoneNumberId: string): Promise<void> {
  const holder = await db.query.connections.findFirst({ where: eq(connections.phoneNumberId, phoneNumberId) });
  if (!holder) return;
  if (holder.displayPhoneNumber !== null) throw phoneNumberUnavailable();
  const [released] = await db
    .update(connections)
    .set({ phoneNumberId: null, status: "DISCONNECTED", updatedAt: Date.now() })
    .where(and(eq(connections.id, holder.id), isNull(connections.displayPhoneNumber)))
    .returning();
  if (!released) throw phoneNumberUnavailable();
  await syncDisconnected(db, released.companyId, { id: released.id, name: released.name, type: released.channel }, false);
  await hubOf(env, released.companyId).publish({ type: "connection.updated", connection: { id: released.id, name: released.name, status: released.status } });
}

/** Sets the status and keeps the company's disconnected list in step; answers the new row. */
export async function setConnectionStatus(
  env: AppEnv,
  db: Db,
  connection: ConnectionRow,
  status: ConnectionStatus,
  extra: Partial<Pick<ConnectionRow, "deviceTokenHash" | "pairingSecretHash" | "pairingCodeHash" | "pairingExpiresAt">> = {},
): Promise<ConnectionRow> {
  const at = Date.now();
  const [updated] = await db
    .update(connections)
    .set({ status, ...extra, updatedAt: at })
    .where(eq(connections.id, connection.id))
    .returning();
  await syncDisconnected(db, connection.companyId, { id: connection.id, name: connection.name, type: connection.channel }, status === "CONNECTED");
  const row = updated ?? { ...connection, status };
  await hubOf(env, connection.companyId).publish({ type: "connection.updated", connection: { id: row.id, name: row.name, status: row.status } });
  return row;
}

/**
 * Adds or removes one entry of the company's disconnected list. An entry already present is kept as
 * it is, so a new connection's `neverPaired` mark lasts through pairing attempts until it connects.
 */
export async function syncDisconnected(db: Db, companyId: string, entry: DisconnectedEntry, connected: boolean): Promise<void> {
  const company = await db.query.companies.findFirst({ where: eq(companies.id, companyId), columns: { disconnected: true } });
  if (!company) return;
  const present = company.disconnected.some((d) => d.id === entry.id);
  if (connected && !present) return;
  if (!connected && present) return;
  const next = connected ? company.disconnected.filter((d) => d.id !== entry.id) : [...company.disconnected, entry];
  await db.update(companies).set({ disconnected: next, updatedAt: Date.now() }).where(eq(companies.id, companyId));
}

/**
 * What a ContactSession checks a remembered connection row against (issue 16): the route the
 * delivery named. The row still holds it when D1's row of the same id and company has the same
 * channel and, routed by phone number id, the same phone number id.
 */
export type RouteCheck = { by: "phoneNumberId" | "connectionId"; value: string };

/** Whether D1's current row `fresh` still answers `route` for the remembered row `remembered`. */
export function routeStillHolds(fresh: ConnectionRow | undefined, remembered: ConnectionRow, route: RouteCheck): fresh is ConnectionRow {
  if (!fresh || fresh.id !== remembered.id || fresh.companyId !== remembered.companyId || fresh.channel !== remembered.channel) return false;
  return route.by === "phoneNumberId" ? fresh.phoneNumberId === route.value : fresh.id === route.value;
}
