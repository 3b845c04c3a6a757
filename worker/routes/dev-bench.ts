/**
 * Benchmark endpoints, mounted only when the `BENCH_ENDPOINTS` variable is "on" (the benchmark
 * scripts start `wrangler dev --var BENCH_ENDPOINTS:on`; it is never set in wrangler.toml).
 *
 * GET /api/dev/bench/engine?blocks=200&iterations=100 → {blocks, iterations, steps, effects}: runs
 * the synthetic linear flow through the pure engine inside workerd. No timing is taken here (the
 * Workers clock does not advance during synchronous work): the caller times the request against an
 * `iterations=0` one.
 *
 * POST /api/dev/bench/d1-insert → {ok: true}: one D1 insert of a small row (`bench_writes`, created
 * on first use by this isolate), the platform's own cost of "store a message": `bench:inbound`
 * prints the inbound path's throughput against it in the same run (issue 16).
 *
 * POST /api/dev/bench/skeleton?key=<conversation> → {id}: the platform's floor for one message
 * (worker/durable-objects/bench-hop.ts): Worker → object A (one storage write) → object B (one
 * storage write and one D1 batch of an insert and an update) → 200. One A and one B per `key`, as
 * the product has one ContactSession and one TicketRoom per conversation. With `phoneNumberId`,
 * `token` and `to`, object B also sends one text to `to` through the Graph API (`bench:flows`: the
 * floor of a bot reply, which ends with that request). With `push=<tag>`, object B then publishes
 * the tag to the skeleton's hub object, which sends it as a frame to the sockets of
 * GET /api/dev/bench/skeleton/ws (the floor of "store and push", bench:inbound); with `alone=1` as
 * well, object A makes object B's part itself (two object calls: the shape a message routed on the
 * ContactSession's snapshot has). With the send and
 * `reply=1`, the two objects make every platform operation of a new contact's message and its bot's
 * first reply instead (`BenchHop.replyHop`: `bench:flows`' reply floor); with `reply=min`, object A
 * alone makes the fewest such operations that keep the same guarantees (`BenchHop.replyMin`).
 *
 * GET /api/dev/bench/skeleton/ws → 101: a WebSocket on the skeleton's hub object (frames: the tags).
 *
 * GET /api/dev/bench/trace?reset=1 → {spans: {name: {n, totalMs, meanMs, maxMs}}}: the inbound
 * path's stage timings since the last reset (worker/lib/bench-trace.ts).
 *
 * GET /api/dev/bench/broadcast-scheduler?id=<broadcast id> → the BroadcastScheduler's own state
 * (`inspect`: its storage bytes and keys, the most sends in flight and recipients prefetched at
 * once): `bench:broadcast` reads it at checkpoints, the scheduler's memory apart from the process's.
 */
import { Hono } from "hono";
import { z } from "zod";
import type { HonoEnv } from "../middleware/context";
import { runSyntheticFlow } from "../flows/bench";
import { notFound } from "../lib/errors";
import { zv } from "../lib/validate";
import { traceReport } from "../lib/bench-trace";
import { schedulerOf } from "../lib/broadcasts";

const engineQuery = z.object({
  blocks: z.coerce.number().int().min(2).max(2000).default(200),
  iterations: z.coerce.number().int().min(0).max(100_000).default(100),
});

const skeletonQuery = z.object({
  key: z.string().min(1).max(200).default("0"),
  // With all three, object B also sends a text to `to` through the Graph API (bench:flows).
  phoneNumberId: z.string().regex(/^\d{1,20}$/).optional(),
  token: z.string().min(1).max(400).optional(),
  to: z.string().regex(/^\d{5,20}$/).optional(),
  // Object B publishes this tag to the skeleton's hub after answering (bench:inbound's push floor).
  push: z.string().min(1).max(200).optional(),
  // "1": object A does object B's part itself (two object calls with the push, not three).
  alone: z.enum(["0", "1"]).default("0"),
  // With the send: the platform operations of a new contact's reply instead (bench:flows' reply floor).
  // ("min": the fewest such operations that keep the same guarantees, in one object).
  reply: z.enum(["0", "1", "min"]).default("0"),
}).superRefine((q, ctx) => {
  // A reply floor without its send would measure something else: refused, not run as the plain skeleton.
  if (q.reply !== "0" && !(q.phoneNumberId && q.token && q.to)) ctx.addIssue({ code: "custom", path: ["reply"], message: "reply needs phoneNumberId, token and to (the reply's send)." });
});
const traceQuery = z.object({ reset: z.enum(["0", "1"]).default("0") });
const schedulerQuery = z.object({ id: z.string().uuid() });

/** Whether this isolate created `bench_writes` already (one DDL per isolate, not per request). */
let benchTableReady = false;

export const devBenchRoutes = new Hono<HonoEnv>()
  .use(async (c, next) => {
    if (c.env.BENCH_ENDPOINTS !== "on") throw notFound("Route");
    await next();
  })
  .get("/bench/engine", zv("query", engineQuery), (c) => {
    const { blocks, iterations } = c.req.valid("query");
    if (iterations === 0) return c.json({ blocks, iterations, steps: 0, effects: 0 });
    const report = runSyntheticFlow(blocks, iterations);
    return c.json({ blocks, iterations, steps: report.steps, effects: report.effects });
  })
  .post("/bench/d1-insert", async (c) => {
    if (!benchTableReady) {
      await c.env.DB.prepare("CREATE TABLE IF NOT EXISTS bench_writes (id TEXT PRIMARY KEY, body TEXT NOT NULL, at INTEGER NOT NULL)").run();
      benchTableReady = true;
    }
    await c.env.DB.prepare("INSERT INTO bench_writes (id, body, at) VALUES (?, ?, ?)").bind(crypto.randomUUID(), "bench", Date.now()).run();
    return c.json({ ok: true });
  })
  .post("/bench/skeleton", zv("query", skeletonQuery), async (c) => {
    const { key, phoneNumberId, token, to, push, reply, alone } = c.req.valid("query");
    const hops = c.env.BENCH_HOP;
    if (!hops) throw notFound("Route");
    const send = phoneNumberId && token && to ? { phoneNumberId, token, to } : undefined;
    const a = hops.get(hops.idFromName(`a:${key}`));
    const id = !send || reply === "0" ? await a.hop(key, send, push, alone === "1") : reply === "1" ? await a.replyHop(key, send) : await a.replyMin(key, send);
    return c.json({ id });
  })
  .get("/bench/skeleton/ws", async (c) => {
    const hops = c.env.BENCH_HOP;
    if (!hops) throw notFound("Route");
    return hops.get(hops.idFromName("hub")).fetch(c.req.raw);
  })
  .get("/bench/trace", zv("query", traceQuery), (c) => c.json({ spans: traceReport(c.req.valid("query").reset === "1") }))
  .get("/bench/broadcast-scheduler", zv("query", schedulerQuery), async (c) => c.json(await schedulerOf(c.env, c.req.valid("query").id).inspect()));
