/**
 * The capabilities of a connection's channel (issue 15), as its adapter declares them
 * (ChannelAdapter.capabilities): what the flow engine may send there as built, and what it sends as
 * a numbered text menu instead (worker/flows/numbered-menu.ts).
 */
import { and, eq } from "drizzle-orm";
import { connections } from "../../schema";
import type { AppEnv } from "../env";
import type { Db } from "../lib/db";
import { adapterFor } from "./index";
import type { ChannelCapabilities } from "./types";

/**
 * The capabilities of connection `connectionId` of `companyId`, or undefined when it no longer
 * exists or its channel has no adapter yet (then blocks are sent as built, as before).
 */
export async function channelCapabilities(env: AppEnv, db: Db, companyId: string, connectionId: string): Promise<ChannelCapabilities | undefined> {
  const row = await db.query.connections.findFirst({
    where: and(eq(connections.id, connectionId), eq(connections.companyId, companyId)),
    columns: { channel: true },
  });
  if (!row) return undefined;
  try {
    return adapterFor(env, row).capabilities;
  } catch {
    return undefined;
  }
}
