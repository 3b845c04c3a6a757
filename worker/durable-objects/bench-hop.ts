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
 * With `alone` as well, object A makes B's part itself: two object calls, not three.
 *
 * With `reply` (`bench:flows`), the two objects instead make every platform operation the product
 * makes for a new contact's message and its bot's first reply, in the same order, and nothing of
 * the product's own work (no routing, flow, parsing or presenting): the floor of a reply under the
 * specification's guarantees (stored before acknowledged, never sent twice, in order; issue 17) as
 * the product keeps them, so the product's figures can be read against what those operations cost
 * on this platform (`replyHop`, `replyStore`).
 *
 * Storage: `log` (one row per call: the key and the time, ms UTC). D1: `bench_writes` and
 * `bench_tickets`, created on first use by the isolate (never by a migration: they are not the
 * product's tables).
 */
import { DurableObject } from "cloudflare:workers";
import type { AppEnv } from "../env";
import { span } from "../lib/bench-trace";

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

/** The skeleton's insert of one row into `bench_writes` (a message, a contact). */
function writeRow(db: D1Database, id: string, body: string, at: number): D1PreparedStatement {
  return db.prepare("INSERT INTO bench_writes (id, body, at) VALUES (?, ?, ?)").bind(id, body, at);
}

/** The skeleton's upsert of the conversation `key`'s row in `bench_tickets` (its list entry). */
function ticketRow(db: D1Database, key: string, at: number): D1PreparedStatement {
  return db.prepare("INSERT INTO bench_tickets (id, n, at) VALUES (?, 1, ?) ON CONFLICT(id) DO UPDATE SET n = n + 1, at = excluded.at").bind(key, at);
}

/**
 * A reply floor's store of a new contact's message `key`: one D1 read batch (is it stored, its
 * conversation's row), then one D1 write batch (the contact, its conversation, the message, then
 * `more`).
 */
async function storeMessage(db: D1Database, key: string, at: number, more: D1PreparedStatement[] = []): Promise<void> {
  await benchTables(db);
  await db.batch([db.prepare("SELECT id FROM bench_writes WHERE id = ?").bind(`in:${key}`), db.prepare("SELECT n FROM bench_tickets WHERE id = ?").bind(key)]);
  await db.batch([writeRow(db, `contact:${key}`, key, at), ticketRow(db, key, at), writeRow(db, `in:${key}`, key, at), ...more]);
}

/**
 * One text to `send.to` through the Graph API at `WHATSAPP_GRAPH_URL` (the stand-in): a reply's own
 * outbound request. Throws when the stand-in does not answer 2xx.
 */
async function graphSend(env: AppEnv, send: BenchSend): Promise<void> {
  const res = await fetch(`${env.WHATSAPP_GRAPH_URL}/${send.phoneNumberId}/messages`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${send.token}` },
    body: JSON.stringify({ messaging_product: "whatsapp", recipient_type: "individual", to: send.to, type: "text", text: { body: "skeleton" } }),
  });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`skeleton send answered ${res.status}`);
}

export class BenchHop extends DurableObject<AppEnv> {
  constructor(ctx: DurableObjectState, env: AppEnv) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      // Counted as the product's objects are (`session.start`, `room.start`): how many of a phase's
      // calls found their object evicted (bench:inbound prints it).
      const started = span(env, "hop.start");
      this.ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS log (seq INTEGER PRIMARY KEY AUTOINCREMENT, k TEXT NOT NULL, at INTEGER NOT NULL)");
      started();
    });
  }

  /**
   * Object A's part: one storage write, then object B's part (`store`) on the object named
   * `b:<key>`. Answers B's answer (the new row's id). With `alone`, object A makes B's part itself
   * instead (one storage write, the D1 batch, the push): the floor of the shape a message routed on
   * the ContactSession's snapshot has had since `725e5ac` (worker → session → hub, issue 16).
   */
  async hop(key: string, send?: BenchSend, push?: string, alone = false): Promise<string> {
    if (alone) return this.store(key, send, push);
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

  /**
   * Object A's part of a new contact's reply, as the ContactSession makes it (issue 16): one D1 read
   * batch (the message's reads: is it stored, who sent it, their open ticket), one D1 write batch
   * (the contact, its ticket and the message), one storage transaction (the run, its outbox entry,
   * the message marked handled), object B's part (`replyStore` on `b:<key>`), then one storage
   * write (the outbox entry done). Answers B's answer (the reply's row id).
   */
  async replyHop(key: string, send: BenchSend): Promise<string> {
    const db = this.env.DB;
    const sql = this.ctx.storage.sql;
    const at = Date.now();
    await storeMessage(db, key, at);
    this.ctx.storage.transactionSync(() => {
      sql.exec("INSERT INTO log (k, at) VALUES (?, ?)", `run:${key}`, at);
      sql.exec("INSERT INTO log (k, at) VALUES (?, ?)", `outbox:${key}`, at);
      sql.exec("INSERT INTO log (k, at) VALUES (?, ?)", `handled:${key}`, at);
    });
    const b = this.env.BENCH_HOP!;
    const id = await b.get(b.idFromName(`b:${key}`)).replyStore(key, send);
    sql.exec("DELETE FROM log WHERE k = ?", `outbox:${key}`);
    return id;
  }

  /**
   * Object B's part of a new contact's reply, as the TicketRoom makes it (issue 16, issue 17): one
   * storage write (the ticket's seq), one D1 batch (the reply's insert and its ticket's update), one
   * storage write (the queued send), then it answers and publishes both messages to the hub in one
   * call. The send follows in the background: its in-flight mark and lease alarm made durable
   * before the request leaves, the Graph API request, one storage write (the provider's id), one
   * D1 batch (the reply settled as sent), one storage write (the send done) and one more hub call
   * (its status).
   */
  async replyStore(key: string, send: BenchSend): Promise<string> {
    const db = this.env.DB;
    const sql = this.ctx.storage.sql;
    const at = Date.now();
    sql.exec("INSERT INTO log (k, at) VALUES (?, ?)", `seq:${key}`, at);
    const id = crypto.randomUUID();
    await db.batch([
      writeRow(db, id, key, at),
      ticketRow(db, key, at),
    ]);
    sql.exec("INSERT INTO log (k, at) VALUES (?, ?)", `send:${key}`, at);
    const hubs = this.env.BENCH_HOP!;
    const hub = hubs.get(hubs.idFromName("hub"));
    this.ctx.waitUntil(hub.publish(`reply:${key}`));
    this.ctx.waitUntil(
      (async () => {
        sql.exec("UPDATE log SET at = ? WHERE k = ?", Date.now(), `send:${key}`);
        await this.ctx.storage.setAlarm(Date.now() + 30_000);
        await this.ctx.storage.sync();
        await this.sendAndSettle(key, id, send);
        await hub.publish(`sent:${key}`);
      })().catch((error: unknown) => console.error("[bench-hop] reply send failed", error)),
    );
    return id;
  }

  /**
   * The fewest platform operations a new contact's reply could make and keep the same guarantees
   * (`reply=min`, bench:flows' "fewest operations" floor): one object, not two; one D1 read batch
   * (the message's reads); one D1 write batch (the contact, its ticket, the message and the reply as
   * pending); one storage transaction (the run, the message handled, the send queued and marked in
   * flight) made durable with the lease alarm before the request leaves; the Graph API request; one
   * D1 batch (the reply settled as sent) and one hub call (both messages and the status). Answers
   * the reply's row id after the send is settled (the figures are timed at the stand-in, so this
   * only holds the benchmark's request open longer than the product's answer does).
   */
  async replyMin(key: string, send: BenchSend): Promise<string> {
    const db = this.env.DB;
    const sql = this.ctx.storage.sql;
    const at = Date.now();
    const id = crypto.randomUUID();
    await storeMessage(db, key, at, [writeRow(db, id, key, at)]);
    this.ctx.storage.transactionSync(() => {
      sql.exec("INSERT INTO log (k, at) VALUES (?, ?)", `run:${key}`, at);
      sql.exec("INSERT INTO log (k, at) VALUES (?, ?)", `handled:${key}`, at);
      sql.exec("INSERT INTO log (k, at) VALUES (?, ?)", `send:${key}`, at);
    });
    await this.ctx.storage.setAlarm(Date.now() + 30_000);
    await this.ctx.storage.sync();
    await this.sendAndSettle(key, id, send);
    const hubs = this.env.BENCH_HOP!;
    this.ctx.waitUntil(hubs.get(hubs.idFromName("hub")).publish(`reply:${key}`));
    return id;
  }

  /**
   * A reply floor's send once its mark is durable: the Graph API request, one storage write (the
   * provider's answer), one D1 statement (reply `id` settled as sent), one storage write (the send
   * done).
   */
  private async sendAndSettle(key: string, id: string, send: BenchSend): Promise<void> {
    const sql = this.ctx.storage.sql;
    await graphSend(this.env, send);
    sql.exec("UPDATE log SET at = ? WHERE k = ?", Date.now(), `send:${key}`);
    await this.env.DB.prepare("UPDATE bench_writes SET body = 'sent' WHERE id = ?").bind(id).run();
    sql.exec("DELETE FROM log WHERE k = ?", `send:${key}`);
  }

  /**
   * The lease alarm `replyStore` arms before its send, as the TicketRoom does: nothing to recover
   * here. Counted in the trace (`hop.alarm`), as a room's (`room.alarm`): bench:flows prints how
   * many fired during each of its phases.
   */
  override async alarm(): Promise<void> {
    span(this.env, "hop.alarm")();
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
      writeRow(this.env.DB, id, key, at),
      ticketRow(this.env.DB, key, at),
    ]);
    if (send) {
      // The reply's own platform work: one HTTPS request to the provider (the Graph API's send).
      await graphSend(this.env, send);
    }
    if (push !== undefined) {
      // After answering, as the product's TicketRoom publishes to its CompanyHub.
      const hubs = this.env.BENCH_HOP!;
      this.ctx.waitUntil(hubs.get(hubs.idFromName("hub")).publish(push));
    }
    return id;
  }
}
