/**
 * BenchHop: the platform's floor for one inbound message, for the benchmarks only (issue 16). It
 * does exactly the platform work a stored message needs and nothing of the product: the Worker
 * calls object A (named after the conversation), which writes one row to its own SQLite storage and
 * calls object B (another name), which writes one row to its storage and runs one D1 batch of an
 * insert and an update, then both answer. `bench:inbound` and `bench:flows` print the product's
 * figures as a ratio to this skeleton in the same run (POST /api/dev/bench/skeleton,
 * worker/routes/dev-bench.ts, mounted only with BENCH_ENDPOINTS=on; nothing else calls it).
 *
 * With a `BenchSend`, object B then makes the one outbound request a bot reply makes (a Graph API
 * send to the stand-in), so `bench:flows` measures the floor up to the provider as its replies are.
 *
 * With `push` (a tag), object B answers and then publishes the tag to the object named `hub` (one
 * per run, as a company has one CompanyHub), which writes one storage row and sends the tag as a
 * frame to every WebSocket connected to it (GET /api/dev/bench/skeleton/ws): the floor of "store
 * and push" that `bench:inbound` measures the product's messages with, from the POST to the frame.
 *
 * Storage: `log` (one row per call: the key and the time, ms UTC). D1: `bench_writes` and
 * `bench_tickets`, created on first use by the isolate (never by a migration: they are not the
 * product's tables).
 */
import { DurableObject } from "cloudflare:workers";
import type { AppEnv } from "../env";

/**
 * With `bench:flows`, object B also sends one text to `to` through the Graph API at
 * `WHATSAPP_GRAPH_URL` (the stand-in) with `token`, after its D1 batch: the floor of a bot reply,
 * whose own platform work ends with that request (issue 16).
 */
export type BenchSend = { phoneNumberId: string; token: string; to: string };

/** Whether this isolate created the skeleton's D1 tables already (one DDL per isolate, not per request). */
let tablesReady = false;

/** Creates the skeleton's two D1 tables when this isolate has not yet (idempotent). */
export async function benchTables(db: D1Database): Promise<void> {
  if (tablesReady) return;
  await db.batch([
    db.prepare("CREATE TABLE IF NOT EXISTS bench_writes (id TEXT PRIMARY KEY, body TEXT NOT NULL, at INTEGER NOT NULL)"),
    db.prepare("CREATE TABLE IF NOT EXISTS bench_tickets (id TEXT PRIMARY KEY, n INTEGER NOT NULL, at INTEGER NOT NULL)"),
  ]);
  tablesReady = true;
}

export class BenchHop extends DurableObject<AppEnv> {
  constructor(ctx: DurableObjectState, env: AppEnv) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      this.ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS log (seq INTEGER PRIMARY KEY AUTOINCREMENT, k TEXT NOT NULL, at INTEGER NOT NULL)");
    });
  }

  /**
   * Object A's part: one storage write, then object B's part (`store`) on the object named
   * `b:<key>`. Answers B's answer (the new row's id).
   */
  async hop(key: string, send?: BenchSend, push?: string): Promise<string> {
    this.ctx.storage.sql.exec("INSERT INTO log (k, at) VALUES (?, ?)", key, Date.now());
    const b = this.env.BENCH_HOP!;
    return b.get(b.idFromName(`b:${key}`)).store(key, send, push);
  }

  /**
   * The hub's part (the object named `hub`): one storage write (the event), then `tag` as a text
   * frame to every connected WebSocket.
   */
  async publish(tag: string): Promise<void> {
    this.ctx.storage.sql.exec("INSERT INTO log (k, at) VALUES (?, ?)", tag, Date.now());
    for (const socket of this.ctx.getWebSockets()) socket.send(tag);
  }

  /** The hub's WebSocket: accepts the upgrade (hibernatable); the socket only receives frames. */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade") !== "websocket") return new Response("Expected a WebSocket upgrade.", { status: 426 });
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server);
    return new Response(null, { status: 101, webSocket: client });
  }

  /**
   * Object B's part: one storage write, and one D1 batch: an insert (the message) and an upsert of
   * the conversation's row (its list entry). Answers the inserted row's id.
   */
  async store(key: string, send?: BenchSend, push?: string): Promise<string> {
    const at = Date.now();
    this.ctx.storage.sql.exec("INSERT INTO log (k, at) VALUES (?, ?)", key, at);
    await benchTables(this.env.DB);
    const id = crypto.randomUUID();
    await this.env.DB.batch([
      this.env.DB.prepare("INSERT INTO bench_writes (id, body, at) VALUES (?, ?, ?)").bind(id, key, at),
      this.env.DB.prepare("INSERT INTO bench_tickets (id, n, at) VALUES (?, 1, ?) ON CONFLICT(id) DO UPDATE SET n = n + 1, at = excluded.at").bind(key, at),
    ]);
    if (send) {
      // The reply's own platform work: one HTTPS request to the provider (the Graph API's send).
      const res = await fetch(`${this.env.WHATSAPP_GRAPH_URL}/${send.phoneNumberId}/messages`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${send.token}` },
        body: JSON.stringify({ messaging_product: "whatsapp", recipient_type: "individual", to: send.to, type: "text", text: { body: "skeleton" } }),
      });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`skeleton send answered ${res.status}`);
    }
    if (push !== undefined) {
      // After answering, as the product's TicketRoom publishes to its CompanyHub.
      const hubs = this.env.BENCH_HOP!;
      this.ctx.waitUntil(hubs.get(hubs.idFromName("hub")).publish(push));
    }
    return id;
  }
}
