/**
 * The sandbox phone's wire formats (worker/routes/channels.ts, worker/durable-objects/
 * sandbox-device.ts, worker/channels/types.ts), parsed at the edge: the pairing answer, the
 * transcript, the WebSocket's DeviceEvent frames, and the company's OutboundMessage shapes.
 * The phone's own messages come back as `{type, body, media?: {mime, fileName}}`.
 */
import { z } from "zod";

/** POST /api/channels/sandbox/pair → the device token and the connection it pairs with. */
export const pairAnswer = z.object({
  deviceToken: z.string().min(1),
  connection: z.object({ id: z.string(), name: z.string() }),
});
/** A successful pairing. */
export type PairAnswer = z.infer<typeof pairAnswer>;

const mediaTypes = z.enum(["image", "audio", "video", "document", "ptv", "sticker"]);

/** What the company sends (OutboundMessage of worker/channels/types.ts). */
export const outboundMessage = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), body: z.string(), quotedExternalId: z.string().optional() }),
  z.object({
    type: mediaTypes,
    media: z.object({ url: z.string(), mime: z.string(), fileName: z.string().optional() }),
    caption: z.string().optional(),
    quotedExternalId: z.string().optional(),
  }),
  z.object({
    type: z.literal("buttons"),
    body: z.string(),
    buttons: z.array(z.object({ id: z.string(), title: z.string() })),
    footer: z.string().optional(),
  }),
  z.object({
    type: z.literal("list"),
    body: z.string(),
    buttonText: z.string(),
    sections: z.array(
      z.object({ title: z.string(), rows: z.array(z.object({ id: z.string(), title: z.string(), description: z.string().optional() })) }),
    ),
  }),
  z.object({ type: z.literal("link"), body: z.string(), buttonText: z.string(), url: z.string() }),
  z.object({ type: z.literal("contact"), contact: z.object({ name: z.string(), phone: z.string(), organization: z.string().optional() }) }),
]);
/** A message the company sent. */
export type OutboundMessage = z.infer<typeof outboundMessage>;

/** A message the simulated customer sent, as the transcript keeps it (no media bytes). */
export const customerMessage = z.object({
  type: z.string(),
  body: z.string().catch(""),
  media: z.object({ mime: z.string(), fileName: z.string().optional() }).optional(),
});
/** A customer's message. */
export type CustomerMessage = z.infer<typeof customerMessage>;

/** Delivery state of a transcript line (the worker's three, plus the phone's own sending states). */
export type EntryStatus = "pending" | "failed" | "sent" | "delivered" | "read";

/** One line of a customer's conversation on the phone. `message` is kept as sent (unknown shapes too). */
export type PhoneEntry = {
  id: string;
  phone: string;
  direction: "to_customer" | "from_customer";
  message: unknown;
  status: EntryStatus;
  at: number;
};

/** A TranscriptEntry of the worker. */
export const transcriptEntry = z.object({
  id: z.string(),
  phone: z.string(),
  direction: z.enum(["to_customer", "from_customer"]),
  message: z.unknown(),
  status: z.enum(["sent", "delivered", "read"]).catch("sent"),
  at: z.number(),
});

/** GET /api/channels/sandbox/transcript → the connection and one customer's lines, oldest first. */
export const transcriptAnswer = z.object({
  connection: z.object({ id: z.string(), name: z.string() }),
  transcript: z.array(transcriptEntry),
});

/** A frame of the phone's WebSocket (DeviceEvent), or `pong`. */
export const deviceEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("message"), entry: transcriptEntry }),
  z.object({ type: z.literal("presence"), phone: z.string(), state: z.enum(["typing", "recording", "paused"]) }),
  z.object({ type: z.literal("read"), phone: z.string(), externalId: z.string() }),
  z.object({ type: z.literal("disconnected") }),
  z.object({ type: z.literal("pong") }),
]);
/** A parsed DeviceEvent. */
export type DeviceEvent = z.infer<typeof deviceEvent>;

/** Parses one WebSocket frame; null for anything that is not a known event. */
export function parseDeviceFrame(text: string): DeviceEvent | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = deviceEvent.safeParse(data);
  return parsed.success ? parsed.data : null;
}

/** Message types the phone sends (the worker's sandboxEvent `type`). */
export type SendableType = "text" | "image" | "audio" | "video" | "document" | "button_reply" | "list_reply";

/** One event the phone pushes to POST /api/channels/sandbox/events. */
export type PhoneEvent =
  | {
      kind: "message";
      id: string;
      from: string;
      name?: string;
      timestamp?: number;
      type: SendableType;
      body: string;
      media?: { mime: string; fileName?: string; dataBase64: string };
      replyId?: string;
    }
  | { kind: "status"; id: string; status: "delivered" | "read" }
  | { kind: "presence"; from: string; state: "typing" | "recording" | "paused" };
