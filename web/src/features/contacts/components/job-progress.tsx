import { useLingui } from "@lingui/react/macro";
import { Progress } from "@/components/ui/progress";
import type { JobProgress } from "../../../../../schema/api-types";
import { jobPercent } from "../lib/import-mapping";

/**
 * A job's progress bar with its counts (`role="progressbar"`, `aria-valuenow` in percent once the
 * total is known), labelled by `label`.
 */
export function JobProgressBar({ job, label }: { job: Pick<JobProgress, "status" | "processed" | "total" | "errors">; label: string }) {
  const { t, i18n } = useLingui();
  const percent = jobPercent(job);
  const processed = i18n.number(job.processed);
  const total = i18n.number(job.total);
  const waiting = job.status === "queued" || job.status === "uploaded";
  return (
    <div className="grid gap-2">
      <Progress value={percent} aria-label={label} aria-valuetext={percent === null ? undefined : `${percent}%`} />
      <p className="flex flex-wrap justify-between gap-2 text-xs text-muted-foreground" aria-live="polite">
        <span>{waiting ? t`Waiting to start…` : job.total > 0 ? t`${processed} of ${total}` : t`${processed} processed`}</span>
        {percent !== null ? <span>{percent}%</span> : null}
      </p>
    </div>
  );
}
