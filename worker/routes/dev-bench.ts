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
 */
import { Hono } from "hono";
import { z } from "zod";
import type { HonoEnv } from "../middleware/context";
import { runSyntheticFlow } from "../flows/bench";
import { notFound } from "../lib/errors";
import { zv } from "../lib/validate";

const engineQuery = z.object({
  blocks: z.coerce.number().int().min(2).max(2000).default(200),
  iterations: z.coerce.number().int().min(0).max(100_000).default(100),
});

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
  });
