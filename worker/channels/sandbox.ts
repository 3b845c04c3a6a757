/**
 * The sandbox channel: a built-in simulated phone for local development, demos and end-to-end
 * tests (DESIGN.md "Channels"). It pairs by QR code or an 8-character phone code exactly like a
 * real device, pushes the customers' events over HTTP with its device token (`receive`), and
 * receives what the company sends through its SandboxDevice Durable Object, which relays it to the
 * phone page.
 */
import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import { connections, type ConnectionRow } from "../../schema";
import { sandboxEventsInput } from "../../schema/validation/connections";
import type { AppEnv } from "../env";
import { randomToken, sha256Hex } from "../lib/crypto";
import { getDb } from "../lib/db";
import { AppError, unauthorized, validationError } from "../lib/errors";
import { injectedSendFailure } from "../lib/faults";
import { sandboxDeviceOf } from "../lib/realtime";
import type { ChannelAdapter, ChannelCapabilities, InboundEvent } from "./types";

/** How long a pairing QR code or phone code stays valid (ms). */
export const PAIRING_TTL_MS = 60_000;

/** Pairing-code alphabet: no 0/O or 1/I, so a typed code is unambiguous. */
const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** An 8-character pairing code from CODE_ALPHABET (uniform: 256 % 32 === 0). */
export function pairingCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return [...bytes].map((b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join("");
}

/** The device token of a request: `Authorization: Device <token>`, or `?token=` (WebSockets). */
export function deviceTokenOf(request: Request): string | undefined {
  const match = /^Device\s+(.+)$/i.exec(request.headers.get("Authorization") ?? "");
  return match?.[1]?.trim() ?? new URL(request.url).searchParams.get("token") ?? undefined;
}

/** The paired sandbox connection of a device token; 401 when unknown or no longer paired. */
export async function deviceConnection(env: AppEnv, token: string | undefined): Promise<ConnectionRow> {
  if (!token) throw unauthorized("Device token required.");
  const row = await getDb(env.DB).query.connections.findFirst({
    where: and(eq(connections.deviceTokenHash, await sha256Hex(token)), eq(connections.channel, "sandbox")),
  });
  if (!row || row.status !== "CONNECTED") throw unauthorized("This device is not paired.");
  return row;
}

type SandboxEvent = z.output<typeof sandboxEventsInput>["events"][number];

/** Converts a sandbox phone event into the normalised InboundEvent. */
function normalise(event: SandboxEvent): InboundEvent {
  switch (event.kind) {
    case "message":
      return {
        kind: "message",
        externalId: event.id,
        from: event.from,
        phone: event.from,
        profileName: event.name,
        timestamp: event.timestamp ?? Date.now(),
        type: event.type,
        body: event.body,
        ...(event.media ? { media: { kind: "inline" as const, dataBase64: event.media.dataBase64, mime: event.media.mime, fileName: event.media.fileName } } : {}),
        ...(event.replyId ? { payload: { replyId: event.replyId, title: event.body } } : {}),
        quotedExternalId: event.quotedId,
      };
    case "status":
      return { kind: "status", externalId: event.id, status: event.status, timestamp: Date.now() };
    case "presence":
      return { kind: "presence", from: event.from, state: event.state };
    case "revoke":
      return { kind: "revoke", externalId: event.id, from: event.from, timestamp: Date.now() };
  }
}

/** The sandbox phone mimics WhatsApp Cloud: buttons and lists, presence, quoted replies; no templates. */
export const SANDBOX_CAPABILITIES: ChannelCapabilities = { buttons: true, lists: true, templates: false, presence: true, quotedReplies: true, maxButtons: 3 };

export function sandboxAdapter(env: AppEnv): ChannelAdapter {
  return {
    channel: "sandbox",
    capabilities: SANDBOX_CAPABILITIES,

    /**
     * The phone's events `{events: [...]}` with its device token (401 otherwise; 400 naming the
     * field for a malformed body). The device keeps the transcript of what its customers sent.
     */
    async receive(request: Request) {
      const connection = await deviceConnection(env, deviceTokenOf(request));
      let json: unknown;
      try {
        json = await request.json();
      } catch {
        throw new AppError("validation_failed", "Malformed JSON body.", { _: "invalid_json" });
      }
      const parsed = sandboxEventsInput.safeParse(json);
      if (!parsed.success) throw validationError(parsed.error);
      const device = sandboxDeviceOf(env, connection.id);
      for (const event of parsed.data.events) {
        if (event.kind === "status") await device.setStatus(event.id, event.status);
        if (event.kind === "message") {
          const kept = { type: event.type, body: event.body, ...(event.media ? { media: { mime: event.media.mime, fileName: event.media.fileName } } : {}) };
          await device.record(event.from, event.id, kept, event.timestamp ?? Date.now());
        }
      }
      return [{ route: { by: "connectionId" as const, value: connection.id }, events: parsed.data.events.map(normalise) }];
    },

    /** A fresh QR secret and phone code, valid PAIRING_TTL_MS; only their hashes are stored. */
    async pair(connection, origin) {
      const secret = randomToken(24);
      const code = pairingCode();
      const expiresAt = Date.now() + PAIRING_TTL_MS;
      await getDb(env.DB)
        .update(connections)
        .set({ pairingSecretHash: await sha256Hex(secret), pairingCodeHash: await sha256Hex(code), pairingExpiresAt: expiresAt, updatedAt: Date.now() })
        .where(eq(connections.id, connection.id));
      return { qrValue: `${origin}/sandbox/phone?pair=${encodeURIComponent(secret)}`, code, expiresAt };
    },

    async disconnect(connection) {
      await sandboxDeviceOf(env, connection.id).unpair();
    },

    async send(connection, to, message) {
      const injected = injectedSendFailure(env);
      if (injected) return injected;
      return sandboxDeviceOf(env, connection.id).deliver(to.externalId, message);
    },
    async presence(connection, to, state) {
      await sandboxDeviceOf(env, connection.id).presence(to.externalId, state);
    },
    async markRead(connection, to, externalId) {
      await sandboxDeviceOf(env, connection.id).read(to.externalId, externalId);
    },
    async fetchMedia() {
      // The sandbox phone sends media inline; there is nothing to fetch.
      throw new Error("sandbox media is inline");
    },
  };
}
