/**
 * Connection status changes (spec §4 Connection): when a connection becomes CONNECTED it leaves the
 * company's disconnected list; otherwise it is added if absent. Every change is pushed to the
 * company's hub so the Connections screen and the layout's warning update live.
 */
import { eq } from "drizzle-orm";
import { companies, connections, type ConnectionRow, type ConnectionStatus } from "../../schema";
import type { AppEnv } from "../env";
import type { Db } from "./db";
import { hubOf } from "./realtime";

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

/** Adds or removes one entry of the company's disconnected list. */
export async function syncDisconnected(db: Db, companyId: string, entry: { id: string; name: string; type: string }, connected: boolean): Promise<void> {
  const company = await db.query.companies.findFirst({ where: eq(companies.id, companyId), columns: { disconnected: true } });
  if (!company) return;
  const present = company.disconnected.some((d) => d.id === entry.id);
  if (connected && !present) return;
  if (!connected && present) return;
  const next = connected ? company.disconnected.filter((d) => d.id !== entry.id) : [...company.disconnected, entry];
  await db.update(companies).set({ disconnected: next, updatedAt: Date.now() }).where(eq(companies.id, companyId));
}
