/**
 * SandboxDevice: one per sandbox connection. The simulated phone's side of the channel: keeps the
 * transcript of every simulated customer (what they sent, what the company sent them) in its SQLite
 * storage and relays the company's messages, presence and read receipts to the phone page over
 * hibernating WebSockets.
 */
import { DurableObject } from "cloudflare:workers";
import type { AppEnv } from "../env";
import { answerClose, sendAll } from "../lib/sockets";
import type { OutboundMessage, SendResult } from "../channels/types";
import { newId } from "../lib/ids";

/** One line of a simulated customer's transcript. Times in ms UTC. */
export type TranscriptEntry = {
  id: string;
  phone: string;
  direction: "to_customer" | "from_customer";
  message: OutboundMessage | { type: string; body: string; media?: { mime: string; fileName?: string } };
  status: "sent" | "delivered" | "read";
  at: number;
};

export type DeviceEvent =
  | { type: "message"; entry: TranscriptEntry }
  | { type: "presence"; phone: string; state: "typing" | "recording" | "paused" }
  | { type: "read"; phone: string; externalId: string }
  | { type: "disconnected" };

export class SandboxDevice extends DurableObject<AppEnv> {
  constructor(ctx: DurableObjectState, env: AppEnv) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      this.ctx.storage.sql.exec(
        "CREATE TABLE IF NOT EXISTS transcript (id TEXT PRIMARY KEY, phone TEXT NOT NULL, direction TEXT NOT NULL, message TEXT NOT NULL, status TEXT NOT NULL, at INTEGER NOT NULL)",
      );
      this.ctx.storage.sql.exec("CREATE INDEX IF NOT EXISTS transcript_phone ON transcript (phone, at)");
    });
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair('{"type":"ping"}', '{"type":"pong"}'));
  }

  /** The company sends `message` to the simulated customer `phone`; answers its provider id. */
  async deliver(phone: string, message: OutboundMessage): Promise<SendResult> {
    if (this.ctx.getWebSockets().length === 0 && !(await this.ctx.storage.get<boolean>("paired"))) {
      return { ok: false, errorCode: "device_offline", errorMessage: "The sandbox phone is not paired.", retryable: false };
    }
    const entry: TranscriptEntry = { id: `sbx.${newId()}`, phone, direction: "to_customer", message, status: "sent", at: Date.now() };
    this.store(entry);
    this.broadcast({ type: "message", entry });
    return { ok: true, externalId: entry.id };
  }

  /** Records a message the simulated customer sent (for the phone page's transcript). */
  async record(phone: string, id: string, message: TranscriptEntry["message"], at: number): Promise<void> {
    const entry: TranscriptEntry = { id, phone, direction: "from_customer", message, status: "sent", at };
    this.store(entry);
    this.broadcast({ type: "message", entry });
  }

  /** Marks the company's message as delivered/read on the phone (reported by the phone page). */
  async setStatus(id: string, status: "delivered" | "read"): Promise<void> {
    this.ctx.storage.sql.exec(
      "UPDATE transcript SET status = ? WHERE id = ? AND (status = 'sent' OR (status = 'delivered' AND ? = 'read'))",
      status,
      id,
      status,
    );
  }

  async presence(phone: string, state: "typing" | "recording" | "paused"): Promise<void> {
    this.broadcast({ type: "presence", phone, state });
  }

  /** The company read the customer's message (blue ticks on the phone). */
  async read(phone: string, externalId: string): Promise<void> {
    this.broadcast({ type: "read", phone, externalId });
  }

  /** The transcript of one simulated customer, oldest first (at most the last 500 lines). */
  async transcript(phone: string): Promise<TranscriptEntry[]> {
    const rows = this.ctx.storage.sql
      .exec<{ id: string; phone: string; direction: string; message: string; status: string; at: number }>(
        "SELECT * FROM (SELECT * FROM transcript WHERE phone = ? ORDER BY at DESC LIMIT 500) ORDER BY at",
        phone,
      )
      .toArray();
    return rows.map((r) => ({
      id: r.id,
      phone: r.phone,
      direction: r.direction === "from_customer" ? "from_customer" : "to_customer",
      message: JSON.parse(r.message),
      status: r.status === "read" ? "read" : r.status === "delivered" ? "delivered" : "sent",
      at: r.at,
    }));
  }

  /** Marks the device paired (messages may be queued for it even while the page is closed). */
  async paired(): Promise<void> {
    await this.ctx.storage.put("paired", true);
  }

  /** Unpairs: closes the phone page's sockets. */
  async unpair(): Promise<void> {
    await this.ctx.storage.put("paired", false);
    this.broadcast({ type: "disconnected" });
    for (const ws of this.ctx.getWebSockets()) ws.close(4001, "disconnected");
  }

  /** WebSocket of the phone page; the worker has checked the device token. */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade") !== "websocket") return new Response("Expected a WebSocket upgrade", { status: 426 });
    const pair = new WebSocketPair();
    this.ctx.acceptWebSocket(pair[1]);
    return new Response(null, { status: 101, webSocket: pair[0] });
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    answerClose(ws, code, reason);
  }

  private store(entry: TranscriptEntry): void {
    this.ctx.storage.sql.exec(
      "INSERT OR IGNORE INTO transcript (id, phone, direction, message, status, at) VALUES (?, ?, ?, ?, ?, ?)",
      entry.id,
      entry.phone,
      entry.direction,
      JSON.stringify(entry.message),
      entry.status,
      entry.at,
    );
  }

  private broadcast(event: DeviceEvent): void {
    sendAll(this.ctx.getWebSockets(), JSON.stringify(event));
  }
}
