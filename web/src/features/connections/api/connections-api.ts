/**
 * Connection calls (worker/routes/connections.ts; spec §2 Connections, §3 Connection): list,
 * create, edit, delete, sandbox pairing, refresh of a Cloud API number's details, and disconnect. Answers are parsed at the edge.
 */
import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import { api } from "@/lib/session";
import type { ConnectionCreateInput } from "../../../../../schema/validation/connections";

/** One connection as the worker presents it (`ConnectionAnswer`). */
export const connectionAnswer = z.object({
  id: z.string(),
  name: z.string(),
  channel: z.enum(["sandbox", "whatsapp-cloud", "instagram", "whatsapp-qr"]),
  phone: z.string().nullable(),
  greetingMessage: z.string(),
  farewellMessage: z.string(),
  status: z.enum(["CONNECTED", "DISCONNECTED", "PAIRING"]),
  connected: z.boolean(),
  phoneNumberId: z.string().nullable(),
  wabaId: z.string().nullable(),
  accessTokenHint: z.string().nullable(),
  /** Cloud API: what Meta answered when the token proved the number. */
  displayPhoneNumber: z.string().nullable().default(null),
  verifiedName: z.string().nullable().default(null),
  qualityRating: z.string().nullable().default(null),
  /** Provider events kept because they could not be placed (see the Rejected events sheet). */
  rejectedCount: z.number().default(0),
  /** Cloud API: the number's messaging limit and throughput as Meta last said them (null until read). */
  messagingLimit: z
    .object({ tier: z.string().nullable(), dailyLimit: z.number().nullable(), throughputMps: z.number(), checkedAt: z.number() })
    .nullable()
    .default(null),
  createdAt: z.number(),
});

/** A connection of the list. */
export type Connection = z.infer<typeof connectionAnswer>;

/**
 * POST /api/connections/{id}/pair → a QR value and an 8-character code, valid until `expiresAt`
 * (ms). WhatsApp (QR code) connections answer an empty code when they have no phone to pair with.
 */
export const pairingAnswer = z.object({ qrValue: z.string().min(1), code: z.string(), expiresAt: z.number() });

/** The current pairing of a sandbox connection. */
export type Pairing = z.infer<typeof pairingAnswer>;

/** What PUT /api/connections/{id} accepts (every field optional; `phone` only for sandbox connections). */
export type ConnectionUpdate = {
  name?: string;
  phone?: string;
  greetingMessage?: string;
  farewellMessage?: string;
  wabaId?: string;
  accessToken?: string;
};

/** Query keys of the connections feature. */
export const connectionKeys = {
  all: ["connections"] as const,
  list: () => [...connectionKeys.all, "list"] as const,
};

/** GET /api/connections → the company's connections by name. */
export const connectionsQuery = () =>
  queryOptions({
    queryKey: connectionKeys.list(),
    queryFn: ({ signal }) => api.call("GET", "/connections", z.array(connectionAnswer), { signal }),
  });

/** POST /api/connections → the new connection. */
export function createConnection(input: ConnectionCreateInput): Promise<Connection> {
  return api.call("POST", "/connections", connectionAnswer, { body: input });
}

/** PUT /api/connections/{id} → the edited connection. */
export function updateConnection(id: string, input: ConnectionUpdate): Promise<Connection> {
  return api.call("PUT", `/connections/${encodeURIComponent(id)}`, connectionAnswer, { body: input });
}

/** DELETE /api/connections/{id}. */
export function deleteConnection(id: string): Promise<void> {
  return api.send("DELETE", `/connections/${encodeURIComponent(id)}`);
}

/** POST /api/connections/{id}/pair → a fresh QR link and phone code. */
export function pairConnection(id: string, signal?: AbortSignal): Promise<Pairing> {
  return api.call("POST", `/connections/${encodeURIComponent(id)}/pair`, pairingAnswer, { signal });
}

/** POST /api/connections/{id}/refresh → the Cloud API connection with Meta's current details (quality rating). */
export function refreshConnection(id: string): Promise<Connection> {
  return api.call("POST", `/connections/${encodeURIComponent(id)}/refresh`, connectionAnswer);
}

/** POST /api/connections/{id}/disconnect → the connection, now DISCONNECTED. */
export function disconnectConnection(id: string): Promise<Connection> {
  return api.call("POST", `/connections/${encodeURIComponent(id)}/disconnect`, connectionAnswer);
}
