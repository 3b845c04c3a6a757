/**
 * A background job's live progress (issue 4 "progress pushed live through CompanyHub and shown as a
 * progress bar"): the hub's `job.updated` events update the cached job at once; GET /api/jobs/{id}
 * polls as a fallback (every 2 s while the hub socket is down, every 10 s while it is up) and once
 * more when the job ends, for the signed download URLs the events do not carry.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useHubEvents, useHubStatus } from "@/lib/realtime";
import type { JobAnswer } from "../../../../../schema/api-types";
import { contactKeys, jobQuery } from "../api/contacts-api";
import { isJobFinished } from "../lib/import-mapping";

/** Poll interval while the hub is down, in ms. */
const POLL_OFFLINE_MS = 2000;
/** Poll interval while the hub is up (a safety net for a missed event), in ms. */
const POLL_ONLINE_MS = 10_000;

/** The job `jobId` (idle while null), kept current until it is done or failed. */
export function useJob(jobId: string | null) {
  const queryClient = useQueryClient();
  const hubStatus = useHubStatus();
  const query = useQuery({
    ...jobQuery(jobId ?? ""),
    enabled: jobId !== null,
    refetchInterval: (q) => {
      const job = q.state.data;
      // An export is over once its file's URL is there; anything else once it finished.
      if (job && isJobFinished(job) && (job.status === "failed" || job.type !== "export" || job.resultUrl)) return false;
      return hubStatus === "open" ? POLL_ONLINE_MS : POLL_OFFLINE_MS;
    },
  });

  useHubEvents((event) => {
    if (event.type !== "job.updated" || jobId === null || event.job.id !== jobId) return;
    const key = contactKeys.job(jobId);
    if (isJobFinished(event.job)) {
      void queryClient.invalidateQueries({ queryKey: key });
      return;
    }
    queryClient.setQueryData<JobAnswer>(key, (current) => (current ? { ...current, ...event.job } : current));
  });

  return query;
}
