/**
 * Connections (spec §2 Connections, §3 Connection, §4 Connection; permission `connections`, the
 * route permission the spec calls "channels"). Sandbox connections pair by QR code or an
 * 8-character code valid 60 s; WhatsApp Cloud API connections carry the phone number id and an
 * access token encrypted at rest (never returned, only a masked hint).
 *
 * A Cloud API number belongs to whoever proves it (issue 8 §5): on create and on a token change the
 * Graph API is asked about the number with the given token (proveCloudNumber); only a token that
 * proves it is saved, with the display number, verified name and quality rating Meta answered. The
 * connection's phone is that display number in E.164, never typed by hand.
 *
 * Names are unique in the company, ignoring case (409 `name_in_use` naming `name`).
 */
import { Hono } from "hono";
import { and, asc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { connectionSendLimits, connections, whatsappQrInstances, type ConnectionRow } from "../../schema";
import { idSchema } from "../../schema/validation/common";
import { connectionCreateInput, connectionUpdateInput } from "../../schema/validation/connections";
import type { HonoEnv } from "../middleware/context";
import { requireCompany, requirePermission, requireSubscription, requireUser } from "../middleware/auth";
import { adapterFor, secretsKey } from "../channels";
import { DEFAULT_GRAPH_URL, proveCloudNumber, type CloudNumberProof } from "../channels/whatsapp-cloud";
import { createEvolutionInstance, dropEvolutionInstance } from "../channels/evolution";
import { claimCloudNumber, phoneNumberUnavailable, setConnectionStatus, syncDisconnected } from "../lib/connections";
import { recordNumberLimits } from "../lib/broadcasts-limits";
import { isUniqueViolation, now, type Db } from "../lib/db";
import { AppError, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { hubOf } from "../lib/realtime";
import { decryptSecret, encryptSecret } from "../lib/secrets";
import { assertNameFree, nameInUse, withNameIndex } from "../lib/unique-name";
import { zv } from "../lib/validate";

/** The unique index on (company, lower(name)) of migration 0005; the other one is the number's. */
const NAME_INDEX = "connections_company_name_uq";

export type ConnectionAnswer = {
  id: string;
  name: string;
  channel: ConnectionRow["channel"];
  phone: string | null;
  greetingMessage: string;
  farewellMessage: string;
  status: ConnectionRow["status"];
  connected: boolean;
  phoneNumberId: string | null;
  wabaId: string | null;
  accessTokenHint: string | null;
  /** Cloud API: what the Graph API answered when the token proved the number (null otherwise). */
  displayPhoneNumber: string | null;
  verifiedName: string | null;
  /** Cloud API: Meta's quality rating, GREEN, YELLOW, RED or UNKNOWN. */
  qualityRating: string | null;
  /** Provider events kept because they could not be placed (GET /api/connections/{id}/rejected-events). */
  rejectedCount: number;
  /**
   * Cloud API: the number's limits as the Graph API last said them (read whenever the token proves
   * the number: create, token change, Refresh). `tier` as Meta names it (`TIER_250` … `TIER_UNLIMITED`),
   * `dailyLimit` its unique users outside a service window per moving 24 h (null: unlimited or not
   * readable), `throughputMps` messages per second, `checkedAt` ms UTC. Null until first read.
   */
  messagingLimit: { tier: string | null; dailyLimit: number | null; throughputMps: number; checkedAt: number } | null;
  createdAt: number;
};

/** The limits row of a connection as presentConnection takes it. */
type LimitsRow = Pick<typeof connectionSendLimits.$inferSelect, "tier" | "dailyLimit" | "throughputMps" | "checkedAt">;

/** The limits the Graph API gave for each connection of the company among `ids` (all when omitted). */
async function limitsByConnection(db: Db, companyId: string, ids?: string[]): Promise<Map<string, LimitsRow>> {
  if (ids && ids.length === 0) return new Map();
  const rows = await db
    .select()
    .from(connectionSendLimits)
    .where(and(eq(connectionSendLimits.companyId, companyId), ids ? inArray(connectionSendLimits.connectionId, ids) : undefined));
  return new Map(rows.map((row) => [row.connectionId, row]));
}

/** The answer shape of a connection (`limits`: its connection_send_limits row, when read). */
export function presentConnection(row: ConnectionRow, limits?: LimitsRow): ConnectionAnswer {
  return {
    id: row.id,
    name: row.name,
    channel: row.channel,
    phone: row.phone,
    greetingMessage: row.greetingMessage,
    farewellMessage: row.farewellMessage,
    status: row.status,
    connected: row.status === "CONNECTED",
    phoneNumberId: row.phoneNumberId,
    wabaId: row.wabaId,
    accessTokenHint: row.accessTokenHint ? `••••${row.accessTokenHint}` : null,
    displayPhoneNumber: row.displayPhoneNumber,
    verifiedName: row.verifiedName,
    qualityRating: row.qualityRating,
    rejectedCount: row.rejectedCount,
    messagingLimit:
      limits?.checkedAt != null ? { tier: limits.tier, dailyLimit: limits.dailyLimit, throughputMps: limits.throughputMps, checkedAt: limits.checkedAt } : null,
    createdAt: row.createdAt,
  };
}

const idParam = z.object({ id: idSchema });

/** Asks the Graph API (WHATSAPP_GRAPH_URL) whether `accessToken` proves `phoneNumberId`. */
function prove(env: HonoEnv["Bindings"], phoneNumberId: string, accessToken: string): Promise<CloudNumberProof> {
  return proveCloudNumber({ graphUrl: env.WHATSAPP_GRAPH_URL || DEFAULT_GRAPH_URL }, phoneNumberId, accessToken);
}

/** The columns a proof sets. */
function proofColumns(proof: CloudNumberProof) {
  return { phone: proof.phone, displayPhoneNumber: proof.displayPhoneNumber, verifiedName: proof.verifiedName, qualityRating: proof.qualityRating };
}

export const connectionsRoutes = new Hono<HonoEnv>()
  .use(requireUser, requireCompany, requireSubscription, requirePermission("connections"))
  /** GET /api/connections → ConnectionAnswer[] by name. */
  .get("/", async (c) => {
    const rows = await c.var.db.select().from(connections).where(eq(connections.companyId, c.var.company.id)).orderBy(asc(connections.name));
    const limits = await limitsByConnection(c.var.db, c.var.company.id);
    return c.json(rows.map((row) => presentConnection(row, limits.get(row.id))));
  })
  /**
   * POST /api/connections → 201 ConnectionAnswer. Sandbox connections start DISCONNECTED (pair
   * them); Cloud API connections start CONNECTED once the token proved the number (see
   * proveCloudNumber: 400 naming `accessToken` or `phoneNumberId` when it does not, 502
   * `provider_unavailable` when Meta cannot be reached; nothing is written either way). A `phone`
   * sent for a Cloud API connection is ignored: it comes from Meta's display number. 409
   * `phone_number_unavailable` ('This number cannot be connected.') when another connection, of
   * any company, holds the number with a proven token. WhatsApp (QR code) connections (issue 15)
   * create their Evolution API instance first and start DISCONNECTED (pair them): 400 naming
   * `evolutionUrl` when no Evolution server is configured, `evolutionApiKey` when it refuses the
   * key; 502 `provider_unavailable` when it cannot be reached (nothing is written).
   */
  .post("/", zv("json", connectionCreateInput), async (c) => {
    const input = c.req.valid("json");
    const db = c.var.db;
    const company = c.var.company;
    const cloud = input.channel === "whatsapp-cloud" ? input : null;
    // The proof comes first: whoever cannot prove the number learns nothing about who holds it.
    const proof = cloud ? await prove(c.env, cloud.phoneNumberId, cloud.accessToken) : null;
    if (cloud) await claimCloudNumber(c.env, db, cloud.phoneNumberId);
    // After the number's checks: a duplicate of a number answers the same 409 whatever its name.
    await assertNameFree(db, connections, company.id, input.name);
    const at = now();
    const connectionId = newId();
    // WhatsApp by QR code: the Evolution instance first (nothing is stored when it cannot be made).
    const evolution =
      input.channel === "whatsapp-qr"
        ? await createEvolutionInstance(c.env, secretsKey(c.env), {
            connectionId,
            companyId: company.id,
            phone: input.phone ?? null,
            apiUrl: input.evolutionUrl,
            apiKey: input.evolutionApiKey,
            origin: new URL(c.req.url).origin,
          })
        : null;
    const row: ConnectionRow = {
      id: connectionId,
      companyId: company.id,
      name: input.name,
      channel: input.channel,
      phone: proof ? proof.phone : (input.phone ?? null),
      greetingMessage: input.greetingMessage,
      farewellMessage: input.farewellMessage,
      status: cloud ? "CONNECTED" : "DISCONNECTED",
      phoneNumberId: cloud?.phoneNumberId ?? null,
      wabaId: cloud?.wabaId ?? null,
      accessTokenEnc: cloud ? await encryptSecret(secretsKey(c.env), cloud.accessToken) : null,
      accessTokenHint: cloud ? cloud.accessToken.slice(-4) : null,
      pairingSecretHash: null,
      pairingCodeHash: null,
      pairingExpiresAt: null,
      deviceTokenHash: null,
      displayPhoneNumber: proof?.displayPhoneNumber ?? null,
      verifiedName: proof?.verifiedName ?? null,
      qualityRating: proof?.qualityRating ?? null,
      rejectedCount: 0,
      createdAt: at,
      updatedAt: at,
    };
    try {
      if (evolution) await db.batch([db.insert(connections).values(row), db.insert(whatsappQrInstances).values(evolution)]);
      else await db.insert(connections).values(row);
    } catch (error) {
      if (evolution) await dropEvolutionInstance(c.env, secretsKey(c.env), evolution);
      if (isUniqueViolation(error)) throw String(error).includes(NAME_INDEX) || String((error as { cause?: unknown }).cause).includes(NAME_INDEX) ? nameInUse() : phoneNumberUnavailable();
      throw error;
    }
    if (row.status !== "CONNECTED") await syncDisconnected(db, company.id, { id: row.id, name: row.name, type: row.channel, neverPaired: true }, false);
    if (proof) await recordNumberLimits(db, row, proof);
    await hubOf(c.env, company.id).publish({ type: "connection.updated", connection: { id: row.id, name: row.name, status: row.status } });
    return c.json(presentConnection(row, (await limitsByConnection(db, company.id, [row.id])).get(row.id)), 201);
  })
  /** GET /api/connections/{id} → ConnectionAnswer; 404 for another company's. */
  .get("/:id", zv("param", idParam), async (c) => {
    const row = await findConnection(c.var.db, c.var.company.id, c.req.valid("param").id);
    return c.json(presentConnection(row, (await limitsByConnection(c.var.db, c.var.company.id, [row.id])).get(row.id)));
  })
  /**
   * PUT /api/connections/{id} → ConnectionAnswer. A new access token is proven against the
   * connection's number first (as on create: 400 naming `accessToken` or `phoneNumberId`, 502
   * `provider_unavailable`; the stored token is kept then), and the proof refreshes the display
   * number, verified name and quality rating. 400 `not_applicable`: an access token for a sandbox
   * connection, a typed `phone` for a Cloud API one (its phone is Meta's display number).
   */
  .put("/:id", zv("param", idParam), zv("json", connectionUpdateInput), async (c) => {
    const input = c.req.valid("json");
    const db = c.var.db;
    const row = await findConnection(db, c.var.company.id, c.req.valid("param").id);
    if (input.accessToken && row.channel !== "whatsapp-cloud") {
      throw new AppError("validation_failed", "Only WhatsApp Cloud API connections have an access token.", { accessToken: "not_applicable" });
    }
    if (input.phone !== undefined && row.channel === "whatsapp-cloud") {
      throw new AppError("validation_failed", "The phone of a WhatsApp Cloud API connection comes from Meta.", { phone: "not_applicable" });
    }
    if (input.name !== undefined) await assertNameFree(db, connections, c.var.company.id, input.name, { exceptId: row.id });
    let proof: CloudNumberProof | null = null;
    if (input.accessToken) {
      if (!row.phoneNumberId) throw new AppError("validation_failed", "This connection no longer holds a phone number ID; create a new connection.", { phoneNumberId: "required" });
      proof = await prove(c.env, row.phoneNumberId, input.accessToken);
    }
    const token = input.accessToken ? { accessTokenEnc: await encryptSecret(secretsKey(c.env), input.accessToken), accessTokenHint: input.accessToken.slice(-4) } : {};
    const [updated] = await withNameIndex(() =>
      db
        .update(connections)
        .set({
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.phone !== undefined ? { phone: input.phone } : {}),
          ...(proof ? proofColumns(proof) : {}),
          ...(input.greetingMessage !== undefined ? { greetingMessage: input.greetingMessage } : {}),
          ...(input.farewellMessage !== undefined ? { farewellMessage: input.farewellMessage } : {}),
          ...(input.wabaId !== undefined ? { wabaId: input.wabaId } : {}),
          ...token,
          updatedAt: now(),
        })
        .where(and(eq(connections.id, row.id), eq(connections.companyId, c.var.company.id)))
        .returning(),
    );
    if (proof) await recordNumberLimits(db, row, proof);
    return c.json(presentConnection(updated ?? row, (await limitsByConnection(db, c.var.company.id, [row.id])).get(row.id)));
  })
  /**
   * DELETE /api/connections/{id} → 204: unpairs a sandbox device (a QR-paired WhatsApp: deletes its
   * Evolution instance) and drops the connection.
   */
  .delete("/:id", zv("param", idParam), async (c) => {
    const db = c.var.db;
    const row = await findConnection(db, c.var.company.id, c.req.valid("param").id);
    const adapter = adapterFor(c.env, row);
    if (adapter.remove) await adapter.remove(row);
    else await adapter.disconnect?.(row);
    await db.delete(connections).where(and(eq(connections.id, row.id), eq(connections.companyId, c.var.company.id)));
    await syncDisconnected(db, c.var.company.id, { id: row.id, name: row.name, type: row.channel }, true);
    await hubOf(c.env, c.var.company.id).publish({ type: "connection.updated", connection: { id: row.id, name: row.name, status: "DISCONNECTED" } });
    return c.body(null, 204);
  })
  /**
   * POST /api/connections/{id}/pair → {qrValue, code, expiresAt}: a fresh QR link and phone code
   * from the channel's adapter (the sandbox: valid 60 s; the screen asks again before they expire;
   * WhatsApp (QR code): the Evolution instance's QR value and, for a connection with a phone, its
   * pairing code — an empty `code` otherwise; 400 `already_connected` when already paired).
   * 400 `not_pairable` (field `channel`) for channels that do not pair a device.
   */
  .post("/:id/pair", zv("param", idParam), async (c) => {
    const row = await findConnection(c.var.db, c.var.company.id, c.req.valid("param").id);
    const adapter = adapterFor(c.env, row);
    if (!adapter.pair) throw new AppError("validation_failed", "This channel does not pair a device.", { channel: "not_pairable" });
    return c.json(await adapter.pair(row, new URL(c.req.url).origin));
  })
  /**
   * POST /api/connections/{id}/refresh → ConnectionAnswer: asks the Graph API again, with the
   * stored token, for the number's display number, verified name and quality rating (Meta changes
   * the rating as customers block or report the number), and stores them. Errors as on create: 400
   * naming `accessToken` when Meta no longer accepts the stored token (nothing changes; enter a new
   * one), 502 `provider_unavailable`. 400 `not_refreshable` (field `channel`) for other channels.
   */
  .post("/:id/refresh", zv("param", idParam), async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const row = await findConnection(db, companyId, c.req.valid("param").id);
    if (row.channel !== "whatsapp-cloud" || !row.phoneNumberId || !row.accessTokenEnc) {
      throw new AppError("validation_failed", "Only a WhatsApp Cloud API connection with a number can be refreshed.", { channel: "not_refreshable" });
    }
    const proof = await prove(c.env, row.phoneNumberId, await decryptSecret(secretsKey(c.env), row.accessTokenEnc));
    const [updated] = await db
      .update(connections)
      .set({ ...proofColumns(proof), updatedAt: now() })
      .where(and(eq(connections.id, row.id), eq(connections.companyId, companyId)))
      .returning();
    await recordNumberLimits(db, row, proof);
    return c.json(presentConnection(updated ?? row, (await limitsByConnection(db, companyId, [row.id])).get(row.id)));
  })
  /** POST /api/connections/{id}/disconnect → ConnectionAnswer with status DISCONNECTED. */
  .post("/:id/disconnect", zv("param", idParam), async (c) => {
    const db = c.var.db;
    const row = await findConnection(db, c.var.company.id, c.req.valid("param").id);
    await adapterFor(c.env, row).disconnect?.(row);
    const updated = await setConnectionStatus(c.env, db, row, "DISCONNECTED", {
      deviceTokenHash: null,
      pairingSecretHash: null,
      pairingCodeHash: null,
      pairingExpiresAt: null,
    });
    return c.json(presentConnection(updated));
  });

async function findConnection(db: HonoEnv["Variables"]["db"], companyId: string, id: string): Promise<ConnectionRow> {
  const row = await db.query.connections.findFirst({ where: and(eq(connections.id, id), eq(connections.companyId, companyId)) });
  if (!row) throw notFound("Connection");
  return row;
}
