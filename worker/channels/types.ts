/**
 * The channel adapter interface (DESIGN.md "Channels"). Every provider, whether it pushes signed
 * webhooks (WhatsApp Cloud API, Instagram) or pairs a device by QR or phone code and pushes events
 * over HTTP (the sandbox phone; later a WhatsApp Web connector such as Evolution API), is one
 * `ChannelAdapter`: pairing, connection status changes and inbound events are part of the
 * interface, not special cases.
 */
import type { Channel, ConnectionRow, MessageStatus, MessageType } from "../../schema";
import type { Json } from "../../schema/columns";

/** Media as the provider delivers it: either bytes to store, or a provider id to fetch. */
export type InboundMedia =
  | { kind: "provider"; providerMediaId: string; mime: string; fileName?: string; sha256?: string }
  | { kind: "inline"; dataBase64: string; mime: string; fileName?: string };

/** A customer's message, normalised. Times in ms UTC (provider clock). */
export type InboundMessage = {
  kind: "message";
  /** Provider message id; the dedupe key with the connection id. */
  externalId: string;
  /** Sender's id on the channel (wa_id, IGSID, sandbox phone). */
  from: string;
  /** Sender's profile name, when the provider sends it. */
  profileName?: string;
  /** Sender's phone in E.164 when the channel is phone-based. */
  phone?: string;
  timestamp: number;
  type: MessageType;
  body: string;
  media?: InboundMedia;
  /** Provider id of the quoted/replied-to message. */
  quotedExternalId?: string;
  payload?: { [key: string]: Json };
  isGroup?: boolean;
};

/** A provider's delivery report for an outbound message. */
export type InboundStatus = {
  kind: "status";
  externalId: string;
  status: Exclude<MessageStatus, "pending" | "received">;
  timestamp: number;
  errorCode?: string;
  errorMessage?: string;
};

/** The customer revoked ("deleted for everyone") a message. */
export type InboundRevoke = { kind: "revoke"; externalId: string; from: string; timestamp: number };

/** The customer is typing or recording (sandbox and connectors that report it). */
export type InboundPresence = { kind: "presence"; from: string; state: "typing" | "recording" | "paused" };

/** The device's link state changed (paired, logged out). */
export type InboundConnectionState = { kind: "connection"; status: "CONNECTED" | "DISCONNECTED" };

export type InboundEvent = InboundMessage | InboundStatus | InboundRevoke | InboundPresence | InboundConnectionState;

/** Events of one provider delivery, routed to one connection. */
export type RoutedEvents = { route: { by: "phoneNumberId" | "connectionId"; value: string }; events: InboundEvent[] };

/** What the company sends. */
export type OutboundMessage =
  | { type: "text"; body: string; quotedExternalId?: string }
  | {
      type: "image" | "audio" | "video" | "document" | "ptv" | "sticker";
      media: { url: string; mime: string; fileName?: string };
      caption?: string;
      quotedExternalId?: string;
    }
  | { type: "buttons"; body: string; buttons: { id: string; title: string }[]; footer?: string }
  | { type: "list"; body: string; buttonText: string; sections: { title: string; rows: { id: string; title: string; description?: string }[] }[] }
  | { type: "link"; body: string; buttonText: string; url: string }
  | { type: "contact"; contact: { name: string; phone: string; organization?: string } };

/** Result of a send: the provider's message id, or a failure with its reason. */
export type SendResult = { ok: true; externalId: string } | { ok: false; errorCode: string; errorMessage: string; retryable: boolean };

export type Recipient = { externalId: string; phone?: string | null };

/** A pairing challenge for the Connections screen: a QR value and a phone code, valid until `expiresAt` (ms UTC). */
export type PairingChallenge = { qrValue: string; code: string; expiresAt: number };

/**
 * One provider. Sending, presence and read receipts go out through it; every delivery the provider
 * makes to us comes in through `receive` (which authenticates it its own way: a signature, a device
 * token) and leaves as normalised events routed to a connection, connection-state changes included.
 * Providers that link a device by QR or phone code implement `pair` and `disconnect`.
 */
export interface ChannelAdapter {
  readonly channel: Channel;
  /**
   * Authenticates one delivery of the provider and normalises it. Throws AppError: 401 when the
   * caller is not the provider (bad signature, unknown device), 400 when the body is malformed.
   */
  receive(request: Request): Promise<RoutedEvents[]>;
  /** Starts (or refreshes) pairing a device: the QR value and phone code to show. */
  pair?(connection: ConnectionRow, origin: string): Promise<PairingChallenge>;
  /** Ends the device link (logs the device out); the connection's status is set by the caller. */
  disconnect?(connection: ConnectionRow): Promise<void>;
  /** Sends one message; never throws for provider-side failures (they come back as `ok: false`). */
  send(connection: ConnectionRow, to: Recipient, message: OutboundMessage): Promise<SendResult>;
  /** Shows typing or recording to the customer, where the channel supports it. */
  presence(connection: ConnectionRow, to: Recipient, state: "typing" | "recording" | "paused", replyTo?: string): Promise<void>;
  /** Tells the provider the customer's messages were read (blue ticks), where supported. */
  markRead(connection: ConnectionRow, to: Recipient, externalId: string): Promise<void>;
  /** Downloads inbound media the provider holds by id. */
  fetchMedia(connection: ConnectionRow, media: Extract<InboundMedia, { kind: "provider" }>): Promise<{ bytes: ArrayBuffer; mime: string }>;
}
