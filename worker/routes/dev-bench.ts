/**
 * Benchmark endpoints, mounted only when the `BENCH_ENDPOINTS` variable is "on" (the benchmark
 * scripts start `wrangler dev --var BENCH_ENDPOINTS:on`; it is never set in wrangler.toml).
 *
 * GET /api/dev/bench/engine?blocks=200&iterations=100 → {blocks, iterations, steps, effects}: runs
 * the synthetic linear flow through the pure engine inside workerd. No timing is taken here (the
 * Workers clock does not advance during synchronous work): the caller times the request against an
 * `iterations=0` one.
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
  });
