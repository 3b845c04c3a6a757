/**
 * CompanyHub: one per company. The WebSocket hub (hibernation API) of every signed-in member of the
 * company: ticket-list changes, new messages, message statuses, presence, connection status.
 *
 * Keeps, in its SQLite storage, the last events with a per-company sequence number, so a client that
 * reconnects with `?after=<seq>` receives everything it missed, in order, exactly once. Per-socket
 * state (member id, what the member may see, and the session the socket was opened with: user,
 * token version, when the permissions were read, token expiry) lives in `serializeAttachment`, so it
 * survives hibernation.
 *
 * Sessions end everywhere at once (issue 8 §3): `revoke` closes a user's sockets here (4001 when the
 * session is over, 4003 when only their access changed) and in every ticket room they have open
 * (tracked in `room_viewers`), and keeps the revocation so an upgrade authorised just before it is
 * refused when it arrives after it. A socket whose token expired is closed on the next event.
 */
import { DurableObject } from "cloudflare:workers";
import type { HubEventBody, MessageAnswer } from "../../schema/realtime";
import type { AppEnv } from "../env";
import { roomOf } from "../lib/realtime";
import {
  REVOCATIONS_TABLE,
  answerClose,
  closeSocket,
  isSocketSession,
  parseFrame,
  recordRevocation,
  refusal,
  revokedBy,
  type Revocation,
  type RevokeReason,
  type SocketSession,
} from "../lib/sockets";

/** What one socket's member may see (spec §6 tickets, tickets_groups, see_all_tickets). */
export type HubViewer = { userId: string; memberId: string; seeAll: boolean; groups: boolean; tickets: boolean; crm?: boolean };

/**
 * Ticket facts an event is filtered on; `crm`: only members with the `crm` permission see it;
 * `members`: only these members (members.id) see it.
 */
export type Audience = { ticket?: { status: string; assignedMemberId: string | null; isGroup: boolean }; crm?: boolean; members?: string[] };

/** Events kept for catch-up; older ones are pruned (a client further behind reloads its lists). */
export const HUB_EVENTS_KEPT = 5_000;

/** Whether `viewer` may see an event about a ticket with these facts. */
export function canSee(viewer: HubViewer, audience: Audience): boolean {
  if (audience.crm && !viewer.crm) return false;
  if (audience.members && !audience.members.includes(viewer.memberId)) return false;
  const ticket = audience.ticket;
  if (!ticket) return true;
  if (!viewer.tickets) return false;
  if (ticket.isGroup && !viewer.groups) return false;
  if (viewer.seeAll) return true;
  return ticket.status === "pending" || ticket.assignedMemberId === viewer.memberId;
}

/** A hub socket's attachment: what the member may see and the session it was opened with. */
export type HubSocket = HubViewer & SocketSession;

function isViewer(value: unknown): value is HubSocket {
  return typeof value === "object" && value !== null && "memberId" in value && "userId" in value && isSocketSession(value);
}

/** The tag of a user's sockets (hub and ticket rooms), for `getWebSockets(tag)`. */
export function userTag(userId: string): string {
  return `user:${userId}`;
}

export class CompanyHub extends DurableObject<AppEnv> {
  /**
   * How many users have each ticket's room open: `room_viewers` counted by ticket, read from
   * storage once per instance (`viewers`) and kept in step by `trackRoom` and `untrackRoom`, its only
   * writers (issue 16: `publishMessage` looked the table up for every customer message).
   */
  private viewerCounts: Map<string, number> | null = null;

  constructor(ctx: DurableObjectState, env: AppEnv) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      this.ctx.storage.sql.exec(
        "CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, audience TEXT NOT NULL, body TEXT NOT NULL)",
      );
      this.ctx.storage.sql.exec(REVOCATIONS_TABLE);
      // Ticket rooms where a user has a socket open, so revoke reaches them (rows leave on close).
      this.ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS room_viewers (user_id TEXT NOT NULL, ticket_id TEXT NOT NULL, PRIMARY KEY (user_id, ticket_id))");
    });
    // Keep-alive pings are answered without waking the object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair('{"type":"ping"}', '{"type":"pong"}'));
  }

  /**
   * WebSocket upgrade. The worker authenticates the user and passes the viewer and its session in
   * the `X-Hub-Viewer` header (HubSocket; never trusted from the client); `?after=<seq>` replays
   * missed events. A session a kept revocation covers (or an expired one) is accepted and closed at
   * once with its code (4001/4003), so the client learns why.
   */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade") !== "websocket") return new Response("Expected a WebSocket upgrade", { status: 426 });
    const viewerHeader = request.headers.get("X-Hub-Viewer");
    const viewer: unknown = viewerHeader ? JSON.parse(viewerHeader) : null;
    if (!isViewer(viewer)) return new Response("Missing viewer", { status: 400 });
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    this.ctx.acceptWebSocket(server, [userTag(viewer.userId)]);
    server.serializeAttachment(viewer);
    const refused = refusal(this.ctx.storage.sql, viewer);
    if (refused) {
      closeSocket(server, refused);
      return new Response(null, { status: 101, webSocket: client });
    }
    const after = Number(new URL(request.url).searchParams.get("after") ?? "NaN");
    server.send(JSON.stringify({ type: "hello", seq: this.lastSeq() }));
    if (Number.isFinite(after)) this.replay(server, viewer, after);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** Publishes one event to every socket allowed to see it; answers its sequence number. */
  async publish(body: HubEventBody, audience: Audience = {}): Promise<number> {
    return this.publishMany([body], audience)[0]!;
  }

  /**
   * Publishes several events of one change with one call (issue 16: a stored message's
   * `message.created` and its ticket's `ticket.updated` cross into the hub once): each gets its own
   * seq, in the order given, and reaches the same audience. Answers their seqs.
   */
  async publishEvents(bodies: HubEventBody[], audience: Audience = {}): Promise<number[]> {
    return this.publishMany(bodies, audience);
  }

  /**
   * Publishes groups of events, each group to its own audience, with one call and in the order
   * given (issue 16: a new ticket's first message, its list entry and the `ticket.waiting` alert
   * for the online members cross into the hub once). Answers each group's seqs.
   */
  async publishGroups(groups: { bodies: HubEventBody[]; audience: Audience }[]): Promise<number[][]> {
    return groups.map((group) => this.publishMany(group.bodies, group.audience));
  }

  /**
   * Publishes a customer's message its ContactSession stored itself, without its ticket's room
   * (issue 16): `groups` as `publishGroups` (the message and its ticket's list entry), then, only
   * when a member has the ticket's room open (`room_viewers`, registered before a room socket is
   * accepted: `trackRoom`), the message to that room's sockets (`TicketRoom.relay`). A failed
   * relay is logged, never thrown: the message is stored and published.
   */
  async publishMessage(groups: { bodies: HubEventBody[]; audience: Audience }[], relay: { ticketId: string; message: MessageAnswer }): Promise<void> {
    for (const group of groups) this.publishMany(group.bodies, group.audience);
    if (!this.viewers().has(relay.ticketId)) return;
    await roomOf(this.env, relay.ticketId)
      .relay(relay.message)
      .catch((error: unknown) => console.error("[company-hub] relay to the ticket's room failed", error));
  }

  private publishMany(bodies: HubEventBody[], audience: Audience): number[] {
    if (bodies.length === 0) return [];
    const at = Date.now();
    const audienceText = JSON.stringify(audience);
    // One statement for the whole call (issue 16: a message and its list entry were two). The rows
    // are inserted in the order given, so their seqs ascend in that order whatever order RETURNING
    // answers them in.
    const stored = bodies.map((body) => JSON.stringify(body));
    const seqs = this.ctx.storage.sql
      .exec<{ seq: number }>(`INSERT INTO events (at, audience, body) VALUES ${bodies.map(() => "(?, ?, ?)").join(", ")} RETURNING seq`, ...stored.flatMap((text) => [at, audienceText, text]))
      .toArray()
      .map((row) => row.seq)
      .sort((a, b) => a - b);
    // The frame is the stored body with its seq and time (schema/realtime.ts `HubEvent`), appended to its JSON text
    // rather than serialised again (a body is a non-empty object: it has a `type`).
    const texts = stored.map((text, i) => `${text.slice(0, -1)},"seq":${seqs[i]!},"at":${at}}`);
    // Older events are trimmed each time a seq passes a multiple of 500.
    const last = seqs[seqs.length - 1]!;
    if (Math.floor(last / 500) > Math.floor((seqs[0]! - 1) / 500)) this.ctx.storage.sql.exec("DELETE FROM events WHERE seq <= ?", last - HUB_EVENTS_KEPT);
    for (const ws of this.ctx.getWebSockets()) {
      const viewer: unknown = ws.deserializeAttachment();
      if (!isViewer(viewer)) continue;
      if (viewer.expiresAt <= at) {
        closeSocket(ws, "session_expired");
        continue;
      }
      if (!canSee(viewer, audience)) continue;
      for (const text of texts) {
        try {
          ws.send(text);
        } catch {
          // A socket closing underneath us is cleaned up by webSocketClose.
        }
      }
    }
    return seqs;
  }

  /**
   * Ends a user's sockets in this company (issue 8 §3), within the call: every hub socket and every
   * ticket-room socket (TicketRoom.revoke) that `r` covers is closed with 4001 `session_revoked`
   * (token version below `r.minVersion`: logout, password change) or 4003 with `r.reason` (access
   * changed: membership ended, roles or permissions changed; covers sockets whose permissions were
   * read at or before now). The revocation is kept, so a racing upgrade authorised before it is
   * refused too. Answers how many hub sockets it closed.
   */
  async revoke(r: Omit<Revocation, "accessChangedAt"> & { accessChanged?: boolean }): Promise<number> {
    const revocation: Revocation = {
      userId: r.userId,
      ...(r.minVersion !== undefined ? { minVersion: r.minVersion } : {}),
      ...(r.accessChanged ? { accessChangedAt: Date.now(), reason: r.reason ?? "permissions_changed" } : {}),
    };
    const kept = recordRevocation(this.ctx.storage.sql, revocation);
    let closed = 0;
    for (const ws of this.ctx.getWebSockets(userTag(r.userId))) {
      const viewer: unknown = ws.deserializeAttachment();
      const reason = isViewer(viewer) ? revokedBy(kept, viewer) : "session_revoked";
      if (!reason) continue;
      closeSocket(ws, reason);
      closed += 1;
    }
    const rooms = this.ctx.storage.sql
      .exec<{ ticket_id: string }>("SELECT ticket_id FROM room_viewers WHERE user_id = ?", r.userId)
      .toArray()
      .map((row) => row.ticket_id);
    await Promise.all(rooms.map((ticketId) => roomOf(this.env, ticketId).revoke(revocation)));
    return closed;
  }

  /**
   * Registers a ticket-room socket about to be opened by `session` (so revoke reaches it); answers
   * null, or why the session may not open it (a kept revocation covers it or it expired: the
   * upgrade must be refused).
   */
  async trackRoom(session: SocketSession, ticketId: string): Promise<RevokeReason | null> {
    const refused = refusal(this.ctx.storage.sql, session);
    if (refused) return refused;
    const viewers = this.viewers();
    const added = this.ctx.storage.sql.exec("INSERT OR IGNORE INTO room_viewers (user_id, ticket_id) VALUES (?, ?)", session.userId, ticketId).rowsWritten;
    if (added > 0) viewers.set(ticketId, (viewers.get(ticketId) ?? 0) + 1);
    return null;
  }

  /** The user closed their last socket on the ticket's room. */
  async untrackRoom(userId: string, ticketId: string): Promise<void> {
    const viewers = this.viewers();
    // One row at most (the primary key); `rowsWritten` may count its index entry too.
    const removed = this.ctx.storage.sql.exec("DELETE FROM room_viewers WHERE user_id = ? AND ticket_id = ?", userId, ticketId).rowsWritten > 0;
    const left = (viewers.get(ticketId) ?? 0) - (removed ? 1 : 0);
    if (left > 0) viewers.set(ticketId, left);
    else viewers.delete(ticketId);
  }

  /** `viewerCounts`, read from `room_viewers` on first use: ticket id → users with its room open. */
  private viewers(): Map<string, number> {
    this.viewerCounts ??= new Map(
      this.ctx.storage.sql
        .exec<{ ticket_id: string; n: number }>("SELECT ticket_id, COUNT(*) AS n FROM room_viewers GROUP BY ticket_id")
        .toArray()
        .map((row) => [row.ticket_id, row.n]),
    );
    return this.viewerCounts;
  }

  /** The user ids with at least one open socket (who is online in the app right now). */
  async connectedUsers(): Promise<string[]> {
    const ids = new Set<string>();
    for (const ws of this.ctx.getWebSockets()) {
      const viewer: unknown = ws.deserializeAttachment();
      if (isViewer(viewer)) ids.add(viewer.userId);
    }
    return [...ids];
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const parsed = parseFrame(message);
    if (parsed?.type === "resume" && "after" in parsed) {
      const after = Number(parsed.after);
      const viewer: unknown = ws.deserializeAttachment();
      if (!Number.isFinite(after) || !isViewer(viewer)) return;
      const refused = refusal(this.ctx.storage.sql, viewer);
      if (refused) closeSocket(ws, refused);
      else this.replay(ws, viewer, after);
    }
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    answerClose(ws, code, reason);
  }

  private lastSeq(): number {
    const row = this.ctx.storage.sql.exec<{ seq: number | null }>("SELECT MAX(seq) AS seq FROM events").one();
    return row.seq ?? 0;
  }

  /** Sends the events after `after` the viewer may see; a `reset` when they were pruned. */
  private replay(ws: WebSocket, viewer: HubSocket, after: number): void {
    const oldest = this.ctx.storage.sql.exec<{ seq: number | null }>("SELECT MIN(seq) AS seq FROM events").one().seq;
    if (oldest !== null && after < oldest - 1) {
      ws.send(JSON.stringify({ type: "reset", seq: this.lastSeq() }));
      return;
    }
    const rows = this.ctx.storage.sql.exec<{ seq: number; at: number; audience: string; body: string }>(
      "SELECT seq, at, audience, body FROM events WHERE seq > ? ORDER BY seq",
      after,
    );
    for (const row of rows) {
      const audience: Audience = JSON.parse(row.audience);
      if (!canSee(viewer, audience)) continue;
      ws.send(JSON.stringify({ ...JSON.parse(row.body), seq: row.seq, at: row.at }));
    }
  }
}
