/**
 * CompanyHub: one per company. The WebSocket hub (hibernation API) of every signed-in member of the
 * company: ticket-list changes, new messages, message statuses, presence, connection status.
 *
 * Keeps, in its SQLite storage, the last events with a per-company sequence number, so a client that
 * reconnects with `?after=<seq>` receives everything it missed, in order, exactly once. Per-socket
 * state (member id and what the member may see) lives in `serializeAttachment`, so it survives
 * hibernation.
 */
import { DurableObject } from "cloudflare:workers";
import type { HubEvent, HubEventBody } from "../../schema/realtime";
import type { AppEnv } from "../env";
import { answerClose, parseFrame } from "../lib/sockets";

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

function isViewer(value: unknown): value is HubViewer {
  return typeof value === "object" && value !== null && "memberId" in value && "userId" in value;
}

export class CompanyHub extends DurableObject<AppEnv> {
  constructor(ctx: DurableObjectState, env: AppEnv) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      this.ctx.storage.sql.exec(
        "CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, audience TEXT NOT NULL, body TEXT NOT NULL)",
      );
    });
    // Keep-alive pings are answered without waking the object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair('{"type":"ping"}', '{"type":"pong"}'));
  }

  /**
   * WebSocket upgrade. The worker authenticates the user and passes the viewer in the
   * `X-Hub-Viewer` header (never trusted from the client); `?after=<seq>` replays missed events.
   */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade") !== "websocket") return new Response("Expected a WebSocket upgrade", { status: 426 });
    const viewerHeader = request.headers.get("X-Hub-Viewer");
    const viewer: unknown = viewerHeader ? JSON.parse(viewerHeader) : null;
    if (!isViewer(viewer)) return new Response("Missing viewer", { status: 400 });
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    this.ctx.acceptWebSocket(server, [`user:${viewer.userId}`]);
    server.serializeAttachment(viewer);
    const after = Number(new URL(request.url).searchParams.get("after") ?? "NaN");
    server.send(JSON.stringify({ type: "hello", seq: this.lastSeq() }));
    if (Number.isFinite(after)) this.replay(server, viewer, after);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** Publishes one event to every socket allowed to see it; answers its sequence number. */
  async publish(body: HubEventBody, audience: Audience = {}): Promise<number> {
    const at = Date.now();
    const row = this.ctx.storage.sql
      .exec<{ seq: number }>("INSERT INTO events (at, audience, body) VALUES (?, ?, ?) RETURNING seq", at, JSON.stringify(audience), JSON.stringify(body))
      .one();
    const event: HubEvent = { ...body, seq: row.seq, at };
    const text = JSON.stringify(event);
    for (const ws of this.ctx.getWebSockets()) {
      const viewer: unknown = ws.deserializeAttachment();
      if (isViewer(viewer) && canSee(viewer, audience)) {
        try {
          ws.send(text);
        } catch {
          // A socket closing underneath us is cleaned up by webSocketClose.
        }
      }
    }
    if (row.seq % 500 === 0) this.ctx.storage.sql.exec("DELETE FROM events WHERE seq <= ?", row.seq - HUB_EVENTS_KEPT);
    return row.seq;
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
      if (Number.isFinite(after) && isViewer(viewer)) this.replay(ws, viewer, after);
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
  private replay(ws: WebSocket, viewer: HubViewer, after: number): void {
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
