/**
 * Stage timings of the inbound path, for the benchmarks only (issue 16 "profile, don't guess").
 * On only when `BENCH_ENDPOINTS` is "on" (the benchmark scripts); otherwise `span` answers a no-op
 * and nothing is kept. Times are wall-clock milliseconds around awaits (the Workers clock moves on
 * I/O, so a span measures the I/O it waited for plus the work of the turns in between). Totals are
 * kept per isolate (locally the Worker and every Durable Object share one) and read or reset by
 * GET /api/dev/bench/trace (worker/routes/dev-bench.ts).
 */

type Total = { n: number; ms: number; max: number };

const totals = new Map<string, Total>();

const noop = (): void => undefined;

/**
 * Starts a span named `name`; call the answer once the stage is over. A no-op unless
 * `env.BENCH_ENDPOINTS` is "on".
 */
export function span(env: { BENCH_ENDPOINTS?: string }, name: string): () => void {
  if (env.BENCH_ENDPOINTS !== "on") return noop;
  const t0 = performance.now();
  return () => {
    const ms = performance.now() - t0;
    const total = totals.get(name) ?? { n: 0, ms: 0, max: 0 };
    total.n += 1;
    total.ms += ms;
    total.max = Math.max(total.max, ms);
    totals.set(name, total);
  };
}

/** The spans since the last reset: name → {n, totalMs, meanMs, maxMs}, and optionally resets them. */
export function traceReport(reset: boolean): Record<string, { n: number; totalMs: number; meanMs: number; maxMs: number }> {
  const report: Record<string, { n: number; totalMs: number; meanMs: number; maxMs: number }> = {};
  for (const [name, t] of [...totals.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    report[name] = { n: t.n, totalMs: Math.round(t.ms), meanMs: Math.round((t.ms / t.n) * 100) / 100, maxMs: Math.round(t.max) };
  }
  if (reset) totals.clear();
  return report;
}
