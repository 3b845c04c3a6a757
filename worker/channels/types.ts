/**
 * The channel adapter interface (DESIGN.md "Channels"). Every provider, whether it pushes signed
 * webhooks (WhatsApp Cloud API, Instagram) or pairs a device by QR or phone code and pushes events
 * over HTTP (the sandbox phone; later a WhatsApp Web connector such as Evolution API), is one
 * `ChannelAdapter`: pairing, connection status changes and inbound events are part of the
 * interface, not special cases.
 */
import type { Channel, ConnectionRow, MessageStatus, MessageType } from "../../schema";
import type { Json } from "../../schema/columns";
import type { TemplateAnswer, TemplateSend } from "../../schema/validation/templates";

/** Media as the provider delivers it: either bytes to store, or a provider id to fetch. */
export type InboundMedia =
  | { kind: "provider"; providerMediaId: string; mime: string; fileName?: string; sha256?: string }
  | { kind: "inline"; dataBase64: string; mime: string; fileName?: string };

/** A customer's message, normalised. Times in ms UTC (provider clock, clamped to receipt by the pipeline). */
export type InboundMessage = {
  kind: "message";
  /** Provider message id; the dedupe key with the connection id. */
  externalId: string;
  /**
   * Sender's id on the channel: the identity the contact is stored under (WhatsApp: the wa_id, or
   * the business-scoped user id when Meta withholds the phone; IGSID; sandbox phone).
   */
  from: string;
  /** WhatsApp business-scoped user id (BSUID, `user_id`), when the payload carries one. */
  userId?: string;
  /** Sender's profile name, when the provider sends it. */
  profileName?: string;
  /** Sender's phone in E.164 when the channel is phone-based and the provider shares it. */
  phone?: string;
  timestamp: number;
  type: MessageType;
  body: string;
  media?: InboundMedia;
  /** Provider id of the quoted/replied-to message. */
  quotedExternalId?: string;
  payload?: { [key: string]: Json };
  isGroup?: boolean;
  /** The provider marked the message forwarded (WhatsApp `context.forwarded` / `frequently_forwarded`). */
  forwarded?: boolean;
  /** The ad or post the customer came from (WhatsApp `referral`), camelCased. */
  referral?: { [key: string]: Json };
  /**
   * The customer's identity changed (WhatsApp `system` `user_changed_number` / `user_changed_user_id`):
   * the contact is also known by `externalId` from now on, and by `phone` when one is given.
   */
  identityChange?: { externalId: string; phone?: string };
  /**
   * A flow this message starts, named by the channel (issue 15, Instagram: a story mention starts
   * the connection's story-mention flow; the first DM after a comment's private reply starts the
   * comment rule's flow). It takes the message after a run in progress and before keyword
   * triggers, unless a member has the conversation open.
   */
  startFlowId?: string;
  /**
   * The message is only a placeholder for content this version cannot show: the raw payload is kept
   * as a rejected event when the message is first stored (not again on a redelivery).
   */
  rejected?: Omit<InboundRejected, "kind">;
};

/** A provider's delivery report for an outbound message. */
export type InboundStatus = {
  kind: "status";
  externalId: string;
  status: Exclude<MessageStatus, "pending" | "received">;
  timestamp: number;
  errorCode?: string;
  errorMessage?: string;
  /** The provider's longer explanation of a failure (WhatsApp `errors[].error_data.details`). */
  errorDetails?: string;
  /**
   * What we attached to the send (WhatsApp `biz_opaque_callback_data`, echoed in status webhooks):
   * our message id. It lets a send whose answer was lost (the object died while it was in flight)
   * be matched to its provider id instead of being sent again (issue 17).
   */
  reference?: string;
};

/**
 * The customer revoked ("deleted for everyone") a message; `externalId` is the revoked message's
 * provider id. `raw` is the provider's payload, kept as a rejected event when the target is unknown.
 */
export type InboundRevoke = { kind: "revoke"; externalId: string; from: string; timestamp: number; raw?: string };

/**
 * The customer reacted to a message (`targetExternalId`); an empty `emoji` removes their reaction.
 * Not a message of its own: it is shown on its target. `raw` as for InboundRevoke.
 */
export type InboundReaction = {
  kind: "reaction";
  /** The reaction's own provider id (may be empty). */
  externalId: string;
  from: string;
  targetExternalId: string;
  emoji: string;
  timestamp: number;
  raw?: string;
};

/**
 * The customer edited a message (`targetExternalId`); `message` is the new content (its
 * `externalId` is the edit's own id), stored as a new message when the target is unknown.
 */
export type InboundEdit = { kind: "edit"; from: string; targetExternalId: string; message: InboundMessage; timestamp: number; raw?: string };

/** Why a provider event could not be placed (rejected_events.reason). */
export type RejectReason =
  | "no_sender_identity"
  | "malformed_message"
  | "unknown_message_type"
  | "malformed_change"
  | "provider_error"
  | "unknown_phone_number_id"
  | "reaction_target_unknown"
  | "revoke_target_unknown";

/** An event the parser could not place: kept with its raw payload (JSON text), never dropped. */
export type InboundRejected = { kind: "rejected"; reason: RejectReason; detail: string; payload: string };

/** The customer is typing or recording (sandbox and connectors that report it). */
export type InboundPresence = { kind: "presence"; from: string; state: "typing" | "recording" | "paused" };

/** The device's link state changed (paired, logged out). */
export type InboundConnectionState = { kind: "connection"; status: "CONNECTED" | "DISCONNECTED" };

export type InboundEvent =
  | InboundMessage
  | InboundStatus
  | InboundRevoke
  | InboundReaction
  | InboundEdit
  | InboundRejected
  | InboundPresence
  | InboundConnectionState;

/** The events a contact's ContactSession handles (in the provider's order). */
export type ContactEvent = InboundMessage | InboundRevoke | InboundReaction | InboundEdit | InboundPresence;

/**
 * Events of one provider delivery, routed to one connection. `raw` is the delivery's payload for
 * this route (JSON text), kept as a rejected event when no connection has the route; an empty
 * route value routes nowhere (a change without metadata).
 */
export type RoutedEvents = { route: { by: "phoneNumberId" | "connectionId"; value: string }; events: InboundEvent[]; raw?: string };

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
 * What a channel can show or do beyond plain text and media (issue 15). The flow engine reads it
 * to degrade interactive messages: a channel without `buttons`/`lists` gets a numbered text menu
 * instead ("1. Option"), answered by number or by the option's title.
 */
export type ChannelCapabilities = {
  /** Reply buttons (WhatsApp Cloud interactive `button`). */
  readonly buttons: boolean;
  /** List messages (WhatsApp Cloud interactive `list`). */
  readonly lists: boolean;
  /** Approved message templates (WhatsApp Cloud only). */
  readonly templates: boolean;
  /** Typing/recording indicators towards the customer. */
  readonly presence: boolean;
  /** Sending a reply that quotes an earlier message. */
  readonly quotedReplies: boolean;
  /** Most reply buttons one message may carry (WhatsApp Cloud: 3), when `buttons`. */
  readonly maxButtons?: number;
};

/**
 * One provider. Sending, presence and read receipts go out through it; every delivery the provider
 * makes to us comes in through `receive` (which authenticates it its own way: a signature, a device
 * token) and leaves as normalised events routed to a connection, connection-state changes included.
 * Providers that link a device by QR or phone code implement `pair` and `disconnect`.
 */
export interface ChannelAdapter {
  readonly channel: Channel;
  /** What the channel can show (interactive messages, templates, presence, quoted replies). */
  readonly capabilities: ChannelCapabilities;
  /**
   * Authenticates one delivery of the provider and normalises it. Throws AppError: 401 when the
   * caller is not the provider (bad signature, unknown device), 400 when the body is malformed.
   */
  receive(request: Request): Promise<RoutedEvents[]>;
  /** Starts (or refreshes) pairing a device: the QR value and phone code to show. */
  pair?(connection: ConnectionRow, origin: string): Promise<PairingChallenge>;
  /** Ends the device link (logs the device out); the connection's status is set by the caller. */
  disconnect?(connection: ConnectionRow): Promise<void>;
  /**
   * Releases what the provider holds for a connection being deleted (Evolution: deletes the
   * instance). Called instead of `disconnect` when present; never fails the deletion.
   */
  remove?(connection: ConnectionRow): Promise<void>;
  /**
   * Sends one message; never throws for provider-side failures (they come back as `ok: false`).
   * `reference` (our message id) travels with the send where the provider echoes it back in its
   * status reports (see `confirmsByReference`).
   */
  send(connection: ConnectionRow, to: Recipient, message: OutboundMessage, reference?: string): Promise<SendResult>;
  /**
   * True when the provider reports every accepted send with the `reference` it was given (WhatsApp's
   * `biz_opaque_callback_data` in the `sent` status webhook): a send in flight when its object died
   * is then confirmed from that report rather than repeated (TicketRoom, issue 17).
   */
  readonly confirmsByReference?: boolean;
  /**
   * Sends an approved WhatsApp message template with its parameters (issue 10; WhatsApp Cloud
   * only): what may start a conversation outside the 24-hour window. Answers like `send`.
   */
  sendTemplate?(connection: ConnectionRow, to: Recipient, template: TemplateSend, reference?: string): Promise<SendResult>;
  /** The message templates of the connection's WhatsApp Business Account (WhatsApp Cloud only; throws AppError like fetchTemplates). */
  listTemplates?(connection: ConnectionRow): Promise<TemplateAnswer[]>;
  /** Shows typing or recording to the customer, where the channel supports it. */
  presence(connection: ConnectionRow, to: Recipient, state: "typing" | "recording" | "paused", replyTo?: string): Promise<void>;
  /** Tells the provider the customer's messages were read (blue ticks), where supported. */
  markRead(connection: ConnectionRow, to: Recipient, externalId: string): Promise<void>;
  /** Downloads inbound media the provider holds by id. */
  fetchMedia(connection: ConnectionRow, media: Extract<InboundMedia, { kind: "provider" }>): Promise<{ bytes: ArrayBuffer; mime: string }>;
}
