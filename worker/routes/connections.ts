/**
 * Connections (spec §2 Connections, §3 Connection, §4 Connection; permission `connections`, the
 * route permission the spec calls "channels"). Sandbox connections pair by QR code or an
 * 8-character code valid 60 s; WhatsApp Cloud API connections carry the phone number id and an
 * access token encrypted at rest (never returned, only a masked hint).
 */
import { Hono } from "hono";
import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { connections, type ConnectionRow } from "../../schema";
import { idSchema } from "../../schema/validation/common";
import { connectionCreateInput, connectionUpdateInput } from "../../schema/validation/connections";
import type { HonoEnv } from "../middleware/context";
import { requireCompany, requirePermission, requireSubscription, requireUser } from "../middleware/auth";
import { adapterFor, secretsKey } from "../channels";
import { setConnectionStatus, syncDisconnected } from "../lib/connections";
import { isUniqueViolation, now } from "../lib/db";
import { AppError, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { hubOf } from "../lib/realtime";
import { encryptSecret } from "../lib/secrets";
import { zv } from "../lib/validate";

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
  createdAt: number;
};

export function presentConnection(row: ConnectionRow): ConnectionAnswer {
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
    createdAt: row.createdAt,
  };
}

const idParam = z.object({ id: idSchema });

const phoneNumberIdTaken = () =>
  new AppError("conflict", "This phone number id is already connected.", { phoneNumberId: "phone_number_id_in_use" });

export const connectionsRoutes = new Hono<HonoEnv>()
  .use(requireUser, requireCompany, requireSubscription, requirePermission("connections"))
  /** GET /api/connections → ConnectionAnswer[] by name. */
  .get("/", async (c) => {
    const rows = await c.var.db.select().from(connections).where(eq(connections.companyId, c.var.company.id)).orderBy(asc(connections.name));
    return c.json(rows.map(presentConnection));
  })
  /**
   * POST /api/connections → 201 ConnectionAnswer. Sandbox connections start DISCONNECTED (pair
   * them); Cloud API connections start CONNECTED. 409 when the phone number id is taken.
   */
  .post("/", zv("json", connectionCreateInput), async (c) => {
    const input = c.req.valid("json");
    const db = c.var.db;
    const company = c.var.company;
    const at = now();
    const cloud = input.channel === "whatsapp-cloud" ? input : null;
    if (cloud) {
      const taken = await db.query.connections.findFirst({ where: eq(connections.phoneNumberId, cloud.phoneNumberId), columns: { id: true } });
      if (taken) throw phoneNumberIdTaken();
    }
    const row: ConnectionRow = {
      id: newId(),
      companyId: company.id,
      name: input.name,
      channel: input.channel,
      phone: input.phone ?? null,
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
      displayPhoneNumber: null,
      verifiedName: null,
      qualityRating: null,
      rejectedCount: 0,
      createdAt: at,
      updatedAt: at,
    };
    try {
      await db.insert(connections).values(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw phoneNumberIdTaken();
      throw error;
    }
    if (row.status !== "CONNECTED") await syncDisconnected(db, company.id, { id: row.id, name: row.name, type: row.channel }, false);
    await hubOf(c.env, company.id).publish({ type: "connection.updated", connection: { id: row.id, name: row.name, status: row.status } });
    return c.json(presentConnection(row), 201);
  })
  /** GET /api/connections/{id} → ConnectionAnswer; 404 for another company's. */
  .get("/:id", zv("param", idParam), async (c) => {
    const row = await findConnection(c.var.db, c.var.company.id, c.req.valid("param").id);
    return c.json(presentConnection(row));
  })
  /** PUT /api/connections/{id} → ConnectionAnswer. */
  .put("/:id", zv("param", idParam), zv("json", connectionUpdateInput), async (c) => {
    const input = c.req.valid("json");
    const db = c.var.db;
    const row = await findConnection(db, c.var.company.id, c.req.valid("param").id);
    if (input.accessToken && row.channel !== "whatsapp-cloud") {
      throw new AppError("validation_failed", "Only WhatsApp Cloud API connections have an access token.", { accessToken: "not_applicable" });
    }
    const [updated] = await db
      .update(connections)
      .set({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.phone !== undefined ? { phone: input.phone } : {}),
        ...(input.greetingMessage !== undefined ? { greetingMessage: input.greetingMessage } : {}),
        ...(input.farewellMessage !== undefined ? { farewellMessage: input.farewellMessage } : {}),
        ...(input.wabaId !== undefined ? { wabaId: input.wabaId } : {}),
        ...(input.accessToken
          ? { accessTokenEnc: await encryptSecret(secretsKey(c.env), input.accessToken), accessTokenHint: input.accessToken.slice(-4) }
          : {}),
        updatedAt: now(),
      })
      .where(and(eq(connections.id, row.id), eq(connections.companyId, c.var.company.id)))
      .returning();
    return c.json(presentConnection(updated ?? row));
  })
  /** DELETE /api/connections/{id} → 204: unpairs a sandbox device and drops the connection. */
  .delete("/:id", zv("param", idParam), async (c) => {
    const db = c.var.db;
    const row = await findConnection(db, c.var.company.id, c.req.valid("param").id);
    await adapterFor(c.env, row).disconnect?.(row);
    await db.delete(connections).where(and(eq(connections.id, row.id), eq(connections.companyId, c.var.company.id)));
    await syncDisconnected(db, c.var.company.id, { id: row.id, name: row.name, type: row.channel }, true);
    await hubOf(c.env, c.var.company.id).publish({ type: "connection.updated", connection: { id: row.id, name: row.name, status: "DISCONNECTED" } });
    return c.body(null, 204);
  })
  /**
   * POST /api/connections/{id}/pair → {qrValue, code, expiresAt}: a fresh QR link and phone code
   * from the channel's adapter (the sandbox: valid 60 s; the screen asks again before they expire).
   * 400 `not_pairable` (field `channel`) for channels that do not pair a device.
   */
  .post("/:id/pair", zv("param", idParam), async (c) => {
    const row = await findConnection(c.var.db, c.var.company.id, c.req.valid("param").id);
    const adapter = adapterFor(c.env, row);
    if (!adapter.pair) throw new AppError("validation_failed", "This channel does not pair a device.", { channel: "not_pairable" });
    return c.json(await adapter.pair(row, new URL(c.req.url).origin));
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
