/**
 * Real-time events pushed over the CompanyHub and TicketRoom WebSockets (DESIGN.md "Durable
 * Objects"). Every hub event carries a per-company sequence number; a client that reconnects sends
 * the last one it saw and receives everything after it (no gap, no duplicate).
 */
import type { MessageReaction, MessageStatus, MessageType, TicketStatus } from "./tickets";
import type { ConnectionStatus } from "./connections";
import type { Json } from "./columns";
import type { CrmCardAnswer, CrmColumnAnswer, JobProgress } from "./api-types";
import type { InternalMessageAnswer } from "./validation/internal-chats";
import type { BroadcastProgress } from "./validation/broadcasts";

/** A message as the API and the sockets show it. Times in ms UTC. */
export type MessageAnswer = {
  id: string;
  ticketId: string;
  contactId: string;
  direction: "in" | "out";
  type: MessageType;
  body: string;
  payload: { [key: string]: Json } | null;
  media: { url: string; mime: string; name: string | null; size: number | null } | null;
  quoted: { id: string; body: string; type: MessageType; direction: "in" | "out" } | null;
  status: MessageStatus;
  /** A failed send: the provider's code, message and longer detail (`error_data.details`) when it gave one. */
  error: { code: string; message: string; details: string | null } | null;
  sentAt: number;
  seq: number;
  sender: { memberId: string | null; name: string | null } | null;
  deleted: boolean;
  /** When the sender edited it (ms UTC); `body` holds the new text. */
  editedAt: number | null;
  /** The provider marked it forwarded. */
  forwarded: boolean;
  /** Reactions on it, one per side (`contact` or a member id); empty when none. */
  reactions: MessageReaction[];
  createdAt: number;
};

/** The ad or post a customer came from (WhatsApp click-to-WhatsApp `referral`), camelCased; every field optional. */
export type ReferralAnswer = {
  sourceUrl?: string;
  sourceType?: string;
  sourceId?: string;
  headline?: string;
  body?: string;
  mediaType?: string;
  imageUrl?: string;
  videoUrl?: string;
  thumbnailUrl?: string;
  ctwaClid?: string;
};

export type TicketAnswer = {
  id: string;
  status: TicketStatus;
  contact: { id: string; name: string; phone: string | null; email: string | null; image: string | null };
  connection: { id: string; name: string; channel: string };
  assignedMemberId: string | null;
  assignedMemberName: string | null;
  servedByMemberId: string | null;
  isGroup: boolean;
  unreadCount: number;
  lastMessageAt: number;
  lastMessagePreview: string;
  /**
   * The row's version (tickets.version): higher is newer. Of two entries of one ticket, a client
   * keeps the one with the higher version, whatever order they arrive in (issue 16).
   */
  version: number;
  createdAt: number;
  closedAt: number | null;
  /** The ad the customer came from when the ticket began with one. */
  referral: ReferralAnswer | null;
  /** When the customer wrote outside operating hours and got the outside-hours answer (ms UTC; issue 12), else null. */
  outsideHoursAt: number | null;
};

/** Events of the company hub. `ticket` events carry the ticket so clients update lists in place. */
export type HubEventBody =
  | { type: "ticket.updated"; ticket: TicketAnswer }
  | { type: "message.created"; ticketId: string; message: MessageAnswer }
  | { type: "message.updated"; ticketId: string; message: MessageAnswer }
  | { type: "presence"; userId: string; status: "online" | "offline" }
  /** A new conversation waits in the queue (issue 12): sent only to the members online now who may take it. */
  | { type: "ticket.waiting"; ticketId: string; contactName: string }
  | { type: "connection.updated"; connection: { id: string; name: string; status: ConnectionStatus } }
  /** A QR-paired connection (issue 15) has a new QR code: an open pairing dialog asks for it again (the event carries no QR). */
  | { type: "connection.pairing"; connection: { id: string } }
  /** The CRM board's columns changed (created, renamed, reordered, deleted): all of them, in order. */
  | { type: "crm.columns"; columns: CrmColumnAnswer[] }
  /** A contact moved on the CRM board; `card` null when it left the board (or was deleted). */
  | { type: "crm.card"; contactId: string; fromColumnId: string | null; card: CrmCardAnswer | null }
  /** A background job (contact import or export) progressed, finished or failed. */
  | { type: "job.updated"; job: JobProgress }
  /** A flow's notification block alerted chosen members (sent only to them; issue 5). */
  | { type: "notification"; notification: FlowNotice | WebhookSpamNotice | InternalMentionNotice }
  /** A broadcast's status or sent/rejected counts changed (issue 10; at most about once a second while sending). */
  | { type: "broadcast.updated"; broadcast: BroadcastProgress }
  /** Internal chat (issue 12): sent only to the conversation's members (worker/lib/internal-chats.ts). */
  | { type: "internal_chat.message"; chatId: string; message: InternalMessageAnswer }
  /** A conversation was created, renamed or its members changed: refetch it (also sent to members just removed). */
  | { type: "internal_chat.updated"; chatId: string }
  /** The member's read mark moved (sent to that member only, so their other tabs clear the badge). */
  | { type: "internal_chat.read"; chatId: string; memberId: string; lastReadSeq: number }
  /** A member is typing in a conversation ("paused" when they stop). */
  | { type: "internal_chat.typing"; chatId: string; memberId: string; name: string; state: "typing" | "paused" };

/** A flow's notification block's alert (issue 5). */
export type FlowNotice = { id: string; text: string; flowId: string; contactId: string; ticketId: string | null };

/** A member was @mentioned in an internal conversation (issue 12), sent to that member only: `from` wrote `text`. */
export type InternalMentionNotice = { id: string; kind: "internal_mention"; chatId: string; messageId: string; from: string; text: string };

/** A webhook switched to test mode by a burst of requests (spec §4; issue 11), sent to the members with `webhooks`. */
export type WebhookSpamNotice = { id: string; kind: "webhook_spam"; webhookId: string; webhookName: string; limit: number };

export type HubEvent = HubEventBody & { seq: number; at: number };

/** Events of a ticket room (the open conversation). */
export type RoomEvent =
  | { type: "message.created"; message: MessageAnswer }
  | { type: "message.updated"; message: MessageAnswer }
  | { type: "typing"; who: "contact" | "member"; memberId?: string; name?: string; state: "typing" | "recording" | "paused" };
