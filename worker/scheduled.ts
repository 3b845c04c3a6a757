/**
 * The scheduled handler (Cron Triggers; wrangler.toml `[triggers] crons = ["0 * * * *"]`, hourly).
 * Each job is one function `(env, at) => Promise<unknown>` with `at` the cron's scheduled time (ms
 * UTC); a job that is daily keeps its own per-company "last run" mark (e.g. billing runs once per
 * company per local day). Jobs run one after the other; one failing does not stop the others.
 * Other areas add their job as one line in JOBS.
 */
import type { AppEnv } from "./env";
import { runBillingDaily } from "./billing/daily";
import { franchiseUnpaidMail } from "./jobs/franchise-unpaid";
import { instagramTokensJob } from "./lib/instagram-connect";

/** A scheduled job. */
export type ScheduledJob = { name: string; run: (env: AppEnv, at: number) => Promise<unknown> };

/** The jobs, in the order they run. */
export const JOBS: ScheduledJob[] = [
  // Billing (issue 13): overdue, suspension after the grace period, reminders; per company local day.
  { name: "billing-daily", run: runBillingDaily },
  // Franchises (issue 14): the franchise's notPaid text to its unpaid companies, once per local day.
  { name: "franchise-unpaid-mail", run: franchiseUnpaidMail },
  // Instagram (issue 15): long-lived tokens refreshed before they expire; expired ones disconnect.
  { name: "instagram-tokens", run: instagramTokensJob },
];

/** The Workers `scheduled` entry point. */
export async function scheduled(controller: Pick<ScheduledController, "scheduledTime" | "cron">, env: AppEnv, ctx: Pick<ExecutionContext, "waitUntil">): Promise<void> {
  void ctx;
  for (const job of JOBS) {
    try {
      await job.run(env, controller.scheduledTime);
    } catch (error) {
      console.error(`[scheduled] ${job.name} failed`, error);
    }
  }
}
